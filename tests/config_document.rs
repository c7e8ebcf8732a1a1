//! The configuration document: attributes, defaults, round trip, stop rules.

mod common;

use common::defaults_with;
use reference::config::{validate, Document, ProblemKind, Topology};
use serde_json::{json, Value};

fn ports(n: u32) -> Topology {
    Topology { connected_ports: Some(n), nic_models: vec![] }
}

/// Each attribute of the configuration page: path, type, value, unit,
/// written out from the page independently of the schema module.
const PAGE: &[(&str, &str, &str, Option<&str>)] = &[
    ("NumUpLinks", "uint", "64", None),
    ("NumDownLinks", "uint", "64", None),
    ("NumUpLinksPerSwitch", "uint", "8", None),
    ("SwitchingCapacity", "datarate", "51200", Some("Gbps")),
    ("EcmpHashMethod", "string", "\"crc32WithSalt\"", None),
    ("LoadBalancingMethod", "string", "\"none\"", None),
    ("EnableLoadBalancingStats", "bool", "true", None),
    ("LoadBalancingStatsReportInterval", "timeval", "1", Some("ms")),
    ("NetworkInterface.UplinkNetworkInterface.DataRate", "datarate", "400", Some("Gbps")),
    ("NetworkInterface.DownlinkNetworkInterface.DataRate", "datarate", "400", Some("Gbps")),
    ("NetworkInterface.TransmissionMedium.Delay", "timeval", "500", Some("ns")),
    ("PacketTrimmer.TrimmingEnabled", "bool", "false", None),
    ("PacketTrimmer.TrimmingStatsEnabled", "bool", "false", None),
    ("LoadBalancingFlowlet.Gap", "timeval", "100", Some("us")),
    ("LoadBalancingFlowlet.PFCAware", "bool", "true", None),
    ("SharedBufferManager.TotalSharedBufferSize", "bytes", "256", Some("MB")),
    ("SharedBufferManager.UETPolicyEnabled", "bool", "false", None),
    ("SharedBufferManager.PoolAllocationMap", "string", "\"[0.9, 0.1, 0, 0, 0, 0, 0, 0]\"", None),
    ("SharedBufferManager.TrafficClassPoolMapping", "string", "\"[0, 1, 0, 0, 0, 0, 0, 0]\"", None),
    ("SharedBufferManager.EnablePFC", "string", "\"[1, 1, 0, 0, 0, 0, 0, 0]\"", None),
    ("SharedBufferManager.HeadRoomPerPortLimit", "bytes", "256", Some("KB")),
    ("SharedBufferManager.StaticPoolXoffThreshold", "bytes", "700", Some("KB")),
    ("SharedBufferManager.StaticPoolXonThreshold", "bytes", "300", Some("KB")),
    ("SharedBufferManager.LossyAlpha", "double", "1.0", None),
    ("SharedBufferManager.QueueDropThresholdEnable", "bool", "false", None),
    ("SharedBufferManager.QueueDropThreshold", "uint", "5", None),
    ("SharedBufferManager.PlaneBDP", "bytes", "300", Some("KB")),
    ("SharedBufferManager.BufferStatsReportInterval", "timeval", "1", Some("ms")),
    ("EcnHandler.EnableEcn", "bool", "true", None),
    ("EcnHandler.EwmaWeight", "double", "0.10", None),
    ("EcnHandler.MinThreshold", "double", "0.2", None),
    ("EcnHandler.MaxThreshold", "double", "0.8", None),
    ("EcnHandler.MaxMarkProbability", "double", "1.0", None),
];

fn attribute<'a>(doc: &'a Value, path: &str) -> &'a Value {
    path.split('.').fold(doc, |node, part| &node[part])
}

fn count_attributes(node: &Value) -> usize {
    node.as_object()
        .map(|o| o.values().map(|v| if v.get("type").is_some_and(Value::is_string) { 1 } else { count_attributes(v) }).sum())
        .unwrap_or(0)
}

#[test]
fn every_attribute_has_the_page_default_type_and_unit() {
    let doc = Document::defaults().to_value();
    for (path, ty, value, unit) in PAGE {
        let attr = attribute(&doc, path);
        assert_eq!(attr["type"], json!(ty), "{path} type");
        let expected: Value = serde_json::from_str(value).unwrap();
        assert_eq!(attr["value"].to_string(), expected.to_string(), "{path} value");
        assert_eq!(attr["default"].to_string(), expected.to_string(), "{path} default");
        match unit {
            Some(u) => assert_eq!(attr["unit"], json!(u), "{path} unit"),
            None => assert!(attr.get("unit").is_none(), "{path} has no unit"),
        }
    }
    assert_eq!(count_attributes(&doc), PAGE.len(), "no attribute beyond the page's");
}

#[test]
fn enums_list_the_page_methods() {
    let doc = Document::defaults().to_value();
    assert_eq!(doc["EcmpHashMethod"]["enum"],
        json!(["dpr", "hash", "hashWithSalt", "crc32", "crc32WithSalt", "dprWithFallback"]));
    assert_eq!(doc["LoadBalancingMethod"]["enum"], json!(["none", "flowlet"]));
}

#[test]
fn default_values_in_base_units() {
    let c = validate(&Document::defaults(), &ports(128)).unwrap().config;
    assert_eq!(c.buffer.total_bytes, 256_000_000);
    assert_eq!(c.buffer.headroom_per_port_bytes, 256_000);
    assert_eq!(c.buffer.xoff_bytes, 700_000);
    assert_eq!(c.buffer.xon_bytes, 300_000);
    assert_eq!(c.buffer.plane_bdp_bytes, 300_000);
    assert_eq!(c.uplink_rate_bps, 400_000_000_000);
    assert_eq!(c.switching_capacity_bps, 51_200_000_000_000);
    assert_eq!(c.uplink_delay_ps, 500_000);
    assert_eq!(c.flowlet.gap_ps, 100_000_000);
    assert_eq!(c.lb_stats_interval_ps, 1_000_000_000);
    assert_eq!(c.buffer.tc_pool, [0, 1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(c.buffer.pfc_enabled, [true, true, false, false, false, false, false, false]);
    assert_eq!(c.ecn.ewma_weight.to_string(), "0.10");
}

#[test]
fn documents_round_trip_unchanged() {
    let original = Document::defaults();
    let text = original.to_json_pretty();
    let again = Document::from_json_str(&text).unwrap();
    assert_eq!(again, original);
    assert_eq!(again.to_json_pretty(), text);
    // Number text and key order survive: 0.10 stays 0.10, 1e-1 stays 1e-1.
    let custom = r#"{"EcnHandler":{"EwmaWeight":{"value":1e-1,"type":"double"},"EnableEcn":{"type":"bool","value":true}}}"#;
    let doc = Document::from_json_str(custom).unwrap();
    assert_eq!(serde_json::to_string(&doc.to_value()).unwrap(), custom);
}

#[test]
fn component_wrapper_is_accepted() {
    let wrapped = json!({"name": "sw1", "typedParameters": {"NumUpLinks": {"value": 4, "type": "uint"}}});
    let doc = Document::from_value(wrapped).unwrap();
    assert!(doc.root().contains_key("NumUpLinks"));
    assert!(Document::from_json_str("[1]").is_err());
    assert!(Document::from_json_str("{").is_err());
}

#[test]
fn omitted_attribute_of_supplied_component_warns_by_name() {
    let doc = Document::from_json_str(r#"{"EcnHandler": {"EnableEcn": {"value": true, "type": "bool"}}}"#).unwrap();
    let v = validate(&doc, &ports(128)).unwrap();
    let omitted: Vec<&str> = v.warnings.iter().filter(|w| w.message.contains("omitted")).map(|w| w.path.as_str()).collect();
    assert_eq!(omitted, ["EcnHandler.EwmaWeight", "EcnHandler.MinThreshold", "EcnHandler.MaxThreshold", "EcnHandler.MaxMarkProbability"]);
    // Sub-components and top-level attributes left out entirely take their Defaults silently.
    let empty = Document::from_json_str("{}").unwrap();
    let v = validate(&empty, &ports(128)).unwrap();
    assert!(v.warnings.iter().all(|w| !w.message.contains("omitted")));
    assert_eq!(v.config, validate(&Document::defaults(), &ports(128)).unwrap().config);
}

fn stop_rules(doc: &Document, topology: &Topology) -> Vec<String> {
    match validate(doc, topology) {
        Ok(_) => vec![],
        Err(r) => r.problems.iter().filter(|p| p.kind == ProblemKind::StopRule).map(|p| p.to_string()).collect(),
    }
}

fn one_stop(doc: &Document, topology: &Topology, needle: &str) {
    let rules = stop_rules(doc, topology);
    assert_eq!(rules.len(), 1, "expected one broken rule, got {rules:#?}");
    assert!(rules[0].contains(needle), "{:?} should mention {needle:?}", rules[0]);
}

const SBM: &str = "SharedBufferManager";

#[test]
fn rule_1_pfc_and_mapping_lists_need_eight_whole_numbers() {
    let t = ports(128);
    for attr in ["EnablePFC", "TrafficClassPoolMapping"] {
        let path = format!("{SBM}.{attr}");
        for bad in ["[1, 1, 0, 0, 0, 0, 0]", "[1, 1, 0, 0, 0, 0, 0, 0, 0]", "[1.5, 1, 0, 0, 0, 0, 0, 0]", "[x, 1, 0, 0, 0, 0, 0, 0]", "1, 1, 0, 0, 0, 0, 0, 0"] {
            let doc = defaults_with(&[(&path, json!(bad), None)]);
            one_stop(&doc, &t, &path);
        }
    }
}

#[test]
fn rule_2_pool_map_needs_eight_numbers() {
    let path = format!("{SBM}.PoolAllocationMap");
    for bad in ["[0.9, 0.1]", "[0.9, a, 0, 0, 0, 0, 0, 0]", "[0.9, 0.1, 0, 0, 0, 0, 0, 0, 0]"] {
        one_stop(&defaults_with(&[(&path, json!(bad), None)]), &ports(128), "exactly eight numeric entries");
    }
}

#[test]
fn rule_3_pool_map_needs_a_non_zero_entry() {
    let doc = defaults_with(&[(&format!("{SBM}.PoolAllocationMap"), json!("[0, 0, 0, 0, 0, 0, 0, 0]"), None)]);
    one_stop(&doc, &ports(128), "no non-zero entry");
}

#[test]
fn rule_4_pool_map_sum_above_one_by_more_than_last_entry() {
    let path = format!("{SBM}.PoolAllocationMap");
    // 0.9 + 0.25 = 1.15: over by 0.15 > 0.25? no: runs; pool 1 gets 0.1.
    assert!(stop_rules(&defaults_with(&[(&path, json!("[0.9, 0.25, 0, 0, 0, 0, 0, 0]"), None)]), &ports(128)).is_empty());
    // 0.95 + 0.1 = 1.05, over by 0.05 <= 0.1: runs.
    assert!(stop_rules(&defaults_with(&[(&path, json!("[0.95, 0.1, 0, 0, 0, 0, 0, 0]"), None)]), &ports(128)).is_empty());
    // 1.0 + 0.1 + 0.05: over by 0.15 > 0.05: stops.
    one_stop(&defaults_with(&[(&path, json!("[1.0, 0.1, 0.05, 0, 0, 0, 0, 0]"), None)]), &ports(128), "more than the last non-zero entry");
    // exactly equal to the last entry: runs (that pool ends at 0).
    assert!(stop_rules(&defaults_with(&[(&path, json!("[1.0, 0.1, 0, 0, 0, 0, 0, 0]"), None)]), &ports(128)).is_empty());
}

#[test]
fn rule_5_headroom_larger_than_buffer() {
    let doc = defaults_with(&[(&format!("{SBM}.TotalSharedBufferSize"), json!(1), Some("MB"))]);
    one_stop(&doc, &ports(4), "headroom");
    assert!(stop_rules(&doc, &ports(3)).is_empty(), "3 x 256 KB fits in 1 MB");
    // Unknown port count: not checked, with a warning saying so.
    let v = validate(&doc, &Topology::default()).unwrap();
    assert!(v.warnings.iter().any(|w| w.message.contains("connected ports is unknown")));
}

#[test]
fn rule_6_flowlet_with_dpr() {
    for method in ["dpr", "dprWithFallback"] {
        let doc = defaults_with(&[("LoadBalancingMethod", json!("flowlet"), None), ("EcmpHashMethod", json!(method), None)]);
        one_stop(&doc, &ports(128), "dpr");
        let none = defaults_with(&[("EcmpHashMethod", json!(method), None)]);
        assert!(stop_rules(&none, &ports(128)).is_empty());
    }
}

#[test]
fn rule_7_gap_range_whenever_component_present() {
    let doc = defaults_with(&[("LoadBalancingFlowlet.Gap", json!(2001), Some("ms"))]);
    one_stop(&doc, &ports(128), "Gap");
    let ok = defaults_with(&[("LoadBalancingFlowlet.Gap", json!(2), Some("s"))]);
    assert!(stop_rules(&ok, &ports(128)).is_empty());
    let zero = defaults_with(&[("LoadBalancingFlowlet.Gap", json!(0), Some("s"))]);
    assert!(stop_rules(&zero, &ports(128)).is_empty());
    let negative = defaults_with(&[("LoadBalancingFlowlet.Gap", json!(-1), Some("us"))]);
    assert!(validate(&negative, &ports(128)).is_err());
}

#[test]
fn rule_8_stats_interval_minimum() {
    let doc = defaults_with(&[("LoadBalancingStatsReportInterval", json!(9999), Some("ns"))]);
    one_stop(&doc, &ports(128), "at least 10us");
    let ok = defaults_with(&[("LoadBalancingStatsReportInterval", json!(10), Some("us"))]);
    assert!(stop_rules(&ok, &ports(128)).is_empty());
}

#[test]
fn rule_9_uet_policy_needs_uet_or_mrc_nics() {
    let doc = defaults_with(&[(&format!("{SBM}.UETPolicyEnabled"), json!(true), None)]);
    let topo = |nics: &[&str]| Topology { connected_ports: Some(128), nic_models: nics.iter().map(|s| s.to_string()).collect() };
    assert!(stop_rules(&doc, &topo(&["Scala UET NIC", "Scala MRC NIC"])).is_empty());
    one_stop(&doc, &topo(&["Scala UET NIC", "Generic RoCE NIC"]), "Generic RoCE NIC");
    assert!(stop_rules(&Document::defaults(), &topo(&["Generic RoCE NIC"])).is_empty());
}

#[test]
fn rule_10_and_11_trimming_needs_uet_and_no_pfc() {
    let trim = ("PacketTrimmer.TrimmingEnabled", json!(true), None);
    let uet = ("SharedBufferManager.UETPolicyEnabled", json!(true), None);
    let no_pfc = ("SharedBufferManager.EnablePFC", json!("[0, 0, 0, 0, 0, 0, 0, 0]"), None);
    one_stop(&defaults_with(&[trim.clone(), no_pfc.clone()]), &ports(128), "only under the UET policy");
    one_stop(&defaults_with(&[trim.clone(), uet.clone()]), &ports(128), "cannot be combined with PFC");
    assert!(stop_rules(&defaults_with(&[trim, uet, no_pfc]), &ports(128)).is_empty());
}

#[test]
fn all_broken_rules_are_reported_at_once() {
    let doc = defaults_with(&[
        ("PacketTrimmer.TrimmingEnabled", json!(true), None),
        ("LoadBalancingMethod", json!("flowlet"), None),
        ("EcmpHashMethod", json!("dpr"), None),
        ("LoadBalancingStatsReportInterval", json!(1), Some("us")),
        ("LoadBalancingFlowlet.Gap", json!(3), Some("s")),
        ("SharedBufferManager.TotalSharedBufferSize", json!(1), Some("MB")),
    ]);
    let rules = stop_rules(&doc, &ports(128));
    assert_eq!(rules.len(), 6, "{rules:#?}");
    // And a broken list does not hide the rules that do not depend on it.
    let doc = defaults_with(&[
        ("SharedBufferManager.EnablePFC", json!("[1, 1]"), None),
        ("SharedBufferManager.PoolAllocationMap", json!("[0, 0, 0, 0, 0, 0, 0, 0]"), None),
        ("LoadBalancingStatsReportInterval", json!(1), Some("us")),
    ]);
    let err = validate(&doc, &ports(128)).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("EnablePFC") && text.contains("LoadBalancingStatsReportInterval"), "{text}");
}

#[test]
fn document_form_errors_name_the_attribute() {
    let cases: &[(&str, &str)] = &[
        (r#"{"NumUpLinks": {"value": 4, "type": "bytes", "unit": "B"}}"#, "NumUpLinks"),
        (r#"{"NumUpLinks": {"value": -4, "type": "uint"}}"#, "whole number"),
        (r#"{"Bogus": {"value": 4, "type": "uint"}}"#, "unknown attribute"),
        (r#"{"SharedBufferManager": {"PlaneBDP": {"value": 300, "type": "bytes"}}}"#, "no `unit`"),
        (r#"{"SharedBufferManager": {"PlaneBDP": {"value": 300, "type": "bytes", "unit": "GB"}}}"#, "not one of B, KB, MB"),
        (r#"{"SharedBufferManager": {"PlaneBDP": {"value": 5000, "type": "bytes", "unit": "MB"}}}"#, "4294967295"),
        (r#"{"SharedBufferManager": {"PlaneBDP": {"value": 0.0001, "type": "bytes", "unit": "KB"}}}"#, "whole number of bytes"),
        (r#"{"EcmpHashMethod": {"value": "md5", "type": "string"}}"#, "one of"),
        (r#"{"EcnHandler": {"EwmaWeight": {"value": 1.5, "type": "double"}}}"#, "within 0 to 1"),
        (r#"{"EcnHandler": {"EnableEcn": {"value": "yes", "type": "bool"}}}"#, "true or false"),
        (r#"{"EcnHandler": {"value": 1, "type": "uint"}}"#, "sub-component"),
        (r#"{"NumUpLinks": {"value": 4}}"#, "is an attribute"),
        (r#"{"SharedBufferManager": {"EnablePFC": {"value": "[2, 1, 0, 0, 0, 0, 0, 0]", "type": "string"}}}"#, "EnablePFC[0]"),
        (r#"{"SharedBufferManager": {"TrafficClassPoolMapping": {"value": "[8, 1, 0, 0, 0, 0, 0, 0]", "type": "string"}}}"#, "0 to 7"),
    ];
    for (text, needle) in cases {
        let doc = Document::from_json_str(text).unwrap();
        let err = validate(&doc, &ports(8)).expect_err(text).to_string();
        assert!(err.contains(needle), "{text}: {err:?} should contain {needle:?}");
    }
}
