//! The start-up buffer derivation against the vendor's worked figures.

mod common;

use common::defaults_with;
use reference::buffer_plan::{BufferPlan, EgressLimit};
use reference::config::{validate, Document, Topology};
use serde_json::json;

fn plan_of(doc: &Document, ports: u32) -> BufferPlan {
    let config = validate(doc, &Topology { connected_ports: Some(ports), nic_models: vec![] }).unwrap().config;
    BufferPlan::derive(&config, ports).unwrap()
}

#[test]
fn default_worked_example_128_ports() {
    let plan = plan_of(&Document::defaults(), 128);
    assert_eq!(plan.total_headroom_bytes, 32_768_000);
    assert_eq!(plan.sizing_total_bytes, 223_232_000);
    let (p0, p1) = (plan.pool(0), plan.pool(1));
    assert_eq!((p0.size_bytes, p1.size_bytes), (200_908_800, 22_323_200));
    assert_eq!((p0.ecn_min_bytes, p0.ecn_max_bytes), (40_181_760, 160_727_040));
    assert_eq!((p1.ecn_min_bytes, p1.ecn_max_bytes), (4_464_640, 17_858_560));
    assert!(matches!(p0.egress_limit, EgressLimit::Dynamic { .. }));
    assert_eq!((plan.xoff_bytes, plan.xon_bytes), (700_000, 300_000));
    assert_eq!(p0.traffic_classes, vec![0, 2, 3, 4, 5, 6, 7]);
    assert_eq!(p0.lossless_classes, vec![0]);
    assert_eq!(p1.lossless_classes, vec![1]);
    assert_eq!(plan.live_pools().count(), 2);
}

#[test]
fn fixed_per_port_egress_limit() {
    let doc = defaults_with(&[("SharedBufferManager.LossyAlpha", json!(0), None)]);
    let plan = plan_of(&doc, 128);
    assert_eq!(plan.pool(0).egress_limit, EgressLimit::Fixed { bytes: 1_569_600, retransmit_bytes: 1_569_600 });
    assert_eq!(plan.pool(1).egress_limit, EgressLimit::Fixed { bytes: 174_400, retransmit_bytes: 174_400 });
    assert_eq!((plan.pool(0).ecn_min_bytes, plan.pool(0).ecn_max_bytes), (313_920, 1_255_680));
    assert_eq!((plan.pool(1).ecn_min_bytes, plan.pool(1).ecn_max_bytes), (34_880, 139_520));
}

#[test]
fn queue_drop_threshold_egress_limit() {
    let doc = defaults_with(&[
        ("SharedBufferManager.LossyAlpha", json!(0), None),
        ("SharedBufferManager.QueueDropThresholdEnable", json!(true), None),
    ]);
    let plan = plan_of(&doc, 128);
    for pool in [0, 1] {
        assert_eq!(plan.pool(pool).egress_limit, EgressLimit::Fixed { bytes: 1_500_000, retransmit_bytes: 1_500_000 });
        assert_eq!((plan.pool(pool).ecn_min_bytes, plan.pool(pool).ecn_max_bytes), (300_000, 1_200_000));
    }
}

#[test]
fn uet_policy_pools() {
    let doc = defaults_with(&[("SharedBufferManager.UETPolicyEnabled", json!(true), None)]);
    let plan = plan_of(&doc, 128);
    // 1.5/3.5 = 3/7 and 1/3.5 = 2/7 of 223,232,000, rounded down; pool 2 the rest.
    assert_eq!(plan.pool(0).size_bytes, 95_670_857);
    assert_eq!(plan.pool(1).size_bytes, 63_780_571);
    assert_eq!(plan.pool(2).size_bytes, 223_232_000 - 95_670_857 - 63_780_571);
    assert_eq!(plan.live_pools().count(), 3);
    // Trimming off: QueueDropThreshold x PlaneBDP, 1.5x for trimmable retransmissions.
    assert_eq!(plan.pool(0).egress_limit, EgressLimit::Fixed { bytes: 1_500_000, retransmit_bytes: 2_250_000 });
    assert_eq!(plan.pool(1).lossless_classes, vec![1]);
    assert_eq!(plan.pool(2).lossless_classes, Vec::<u8>::new());

    let trimming = defaults_with(&[
        ("SharedBufferManager.UETPolicyEnabled", json!(true), None),
        ("SharedBufferManager.EnablePFC", json!("[0, 0, 0, 0, 0, 0, 0, 0]"), None),
        ("PacketTrimmer.TrimmingEnabled", json!(true), None),
    ]);
    let plan = plan_of(&trimming, 128);
    assert_eq!(plan.pool(0).egress_limit, EgressLimit::Fixed { bytes: 300_000, retransmit_bytes: 450_000 });
    assert_eq!((plan.pool(0).ecn_min_bytes, plan.pool(0).ecn_max_bytes), (60_000, 240_000));
}

#[test]
fn short_pool_map_goes_to_last_non_zero_pool() {
    // 0.5 + 0.3 = 0.8: pool 1 absorbs 0.2 of the sizing total.
    let doc = defaults_with(&[("SharedBufferManager.PoolAllocationMap", json!("[0.5, 0.3, 0, 0, 0, 0, 0, 0]"), None)]);
    let plan = plan_of(&doc, 128);
    assert_eq!(plan.pool(0).size_bytes, 111_616_000);
    assert_eq!(plan.pool(1).size_bytes, 223_232_000 - 111_616_000);
    // Its ECN band still comes from 0.3 of the sizing total.
    assert_eq!(plan.pool(1).static_limit_bytes, 66_969_600);
    assert_eq!(plan.pool(1).ecn_min_bytes, 13_393_920);
    let v = validate(&doc, &Topology { connected_ports: Some(128), nic_models: vec![] }).unwrap();
    assert!(v.warnings.iter().any(|w| w.message.contains("sum to 0.8")));
}

#[test]
fn excess_pool_map_taken_from_last_non_zero_pool() {
    let doc = defaults_with(&[
        ("SharedBufferManager.PoolAllocationMap", json!("[0.95, 0, 0.1, 0, 0, 0, 0, 0]"), None),
        ("SharedBufferManager.LossyAlpha", json!(0), None),
    ]);
    let plan = plan_of(&doc, 128);
    assert_eq!(plan.pool(0).size_bytes, 212_070_400);
    assert_eq!(plan.pool(2).size_bytes, 223_232_000 - 212_070_400);
    // Fixed per-port limit from the unadjusted 0.1 share.
    assert_eq!(plan.pool(2).egress_limit, EgressLimit::Fixed { bytes: 174_400, retransmit_bytes: 174_400 });
    assert_eq!(plan.pool(0).size_bytes + plan.pool(2).size_bytes, plan.sizing_total_bytes);
}

#[test]
fn rounding_remainder_goes_to_last_pool_and_pools_sum_exactly() {
    let doc = defaults_with(&[("SharedBufferManager.PoolAllocationMap", json!("[0.333, 0.333, 0.334, 0, 0, 0, 0, 0]"), None)]);
    let plan = plan_of(&doc, 7);
    let sum: u64 = plan.pools.iter().map(|p| p.size_bytes).sum();
    assert_eq!(sum, plan.sizing_total_bytes);
}

#[test]
fn plan_rejects_zero_ports_and_excess_headroom() {
    let config = validate(&Document::defaults(), &Topology::default()).unwrap().config;
    assert!(BufferPlan::derive(&config, 0).is_err());
    assert!(BufferPlan::derive(&config, 1001).unwrap_err().to_string().contains("HeadRoomPerPortLimit"));
    assert!(BufferPlan::derive(&config, 1000).is_ok());
}
