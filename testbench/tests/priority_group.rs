//! The buffer manager's priority-group sub-block (the classes a pause or
//! resume for a pool names) against `BufferParams::priority_group`, for
//! every pool under random class-to-pool tables, PFC classes and policies.

use hdl::buffer_manager::priority_group::PriorityGroup;
use proptest::prelude::*;
use reference::buffer_manager::EgressMode;
use reference::classify::{Classifier, UetCodepoints};
use rust_hdl::prelude::*;
use testbench::buffer_manager_bench::params;
use testbench::proptest_cases;

fn hardware(c: &Classifier, pool: u8) -> u8 {
    let mut uut = PriorityGroup::default();
    uut.connect_all();
    uut.pool.next = (pool as u64).into();
    uut.uet_policy.next = c.uet_policy;
    uut.tc_pool.next = (c.tc_pool.iter().enumerate().fold(0u64, |w, (t, p)| w | (*p as u64) << (3 * t))).into();
    uut.pfc_enabled.next = (c.pfc_enabled.iter().enumerate().fold(0u64, |w, (t, on)| w | (*on as u64) << t)).into();
    assert!(simulate(&mut uut, 100), "priority group did not settle");
    uut.classes.val().to_u64() as u8
}

fn reference(c: &Classifier, pool: u8) -> u8 {
    params(1, [0; 8], 0, 0, 0, EgressMode::Fixed, [0; 8], c.clone()).priority_group(pool as usize)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(256)))]

    #[test]
    fn priority_group_matches_the_reference_for_every_pool(uet_policy in any::<bool>(),
        tc_pool in prop::array::uniform8(prop_oneof![0u8..8, 0u8..2]), pfc_enabled in prop::array::uniform8(any::<bool>())) {
        let c = Classifier { uet_policy, tc_pool, pfc_enabled, codepoints: UetCodepoints::default() };
        for pool in 0..8 {
            prop_assert_eq!(hardware(&c, pool), reference(&c, pool), "pool {} under {:?}", pool, c);
        }
    }
}

/// Two lossless classes sharing a pool both pause; under the UET policy the
/// table is ignored and pool n is class n.
#[test]
fn classes_sharing_a_pool_pause_together() {
    let mut pfc_enabled = [false; 8];
    pfc_enabled[3] = true;
    pfc_enabled[4] = true;
    let c = Classifier { uet_policy: false, tc_pool: [0, 1, 2, 3, 3, 5, 6, 7], pfc_enabled, codepoints: UetCodepoints::default() };
    assert_eq!(hardware(&c, 3), 0b0001_1000);
    assert_eq!(hardware(&c, 4), 0);
    let uet = Classifier { uet_policy: true, ..c };
    assert_eq!(hardware(&uet, 3), 0b0000_1000);
    assert_eq!(hardware(&uet, 4), 0b0001_0000);
}
