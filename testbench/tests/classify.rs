//! The buffer manager's classify sub-block against `reference::classify`:
//! every DSCP under random tables, codepoints often shared between roles
//! (the first role wins).

use hdl::buffer_manager::classify::Classify;
use proptest::prelude::*;
use reference::classify::{Class, Classifier, Role, UetCodepoints};
use rust_hdl::prelude::*;
use testbench::proptest_cases;

/// What the sub-block answers for `dscp`: (tc, pool, lossless, trimmable, retransmit).
fn hardware(c: &Classifier, dscp: u8) -> (u8, u8, bool, bool, bool) {
    let mut uut = Classify::default();
    uut.connect_all();
    let cp = c.codepoints;
    uut.dscp.next = (dscp as u64).into();
    uut.uet_policy.next = c.uet_policy;
    uut.tc_pool.next = (c.tc_pool.iter().enumerate().fold(0u64, |w, (t, p)| w | (*p as u64) << (3 * t))).into();
    uut.pfc_enabled.next = (c.pfc_enabled.iter().enumerate().fold(0u64, |w, (t, on)| w | (*on as u64) << t)).into();
    uut.no_trim_dscp.next = (cp.no_trim as u64).into();
    uut.trimmable_dscp.next = (cp.trimmable as u64).into();
    uut.retransmit_dscp.next = (cp.trimmable_retransmit as u64).into();
    uut.control_dscp.next = (cp.control as u64).into();
    uut.trimmed_dscp.next = (cp.trimmed as u64).into();
    uut.trimmed_last_hop_dscp.next = (cp.trimmed_last_hop as u64).into();
    assert!(simulate(&mut uut, 100), "classify did not settle");
    (uut.tc.val().to_u64() as u8, uut.pool.val().to_u64() as u8, uut.lossless.val(), uut.trimmable.val(), uut.retransmit.val())
}

fn reference(c: &Classifier, dscp: u8) -> (u8, u8, bool, bool, bool) {
    let Class { tc, pool, lossless, role } = c.classify(dscp);
    (tc, pool, lossless, role.is_trimmable(), role == Role::TrimmableRetransmit)
}

fn classifier() -> impl Strategy<Value = Classifier> {
    let codepoint = || 0u8..12;
    (any::<bool>(), prop::array::uniform8(0u8..8), prop::array::uniform8(any::<bool>()),
        (codepoint(), codepoint(), codepoint(), codepoint(), codepoint(), codepoint()))
        .prop_map(|(uet_policy, tc_pool, pfc_enabled, (a, b, c, d, e, f))| Classifier {
            uet_policy,
            tc_pool,
            pfc_enabled,
            codepoints: UetCodepoints { no_trim: a, trimmable: b, trimmable_retransmit: c, control: d, trimmed: e, trimmed_last_hop: f },
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    #[test]
    fn classify_matches_the_reference_for_every_dscp(c in classifier()) {
        for dscp in 0..64u8 {
            prop_assert_eq!(hardware(&c, dscp), reference(&c, dscp), "dscp {} under {:?}", dscp, c);
        }
    }
}

/// The comparison can fail: with the trimmable and retransmit roles on one
/// codepoint the first (trimmable, not a retransmission) wins; the reverse
/// order is a different answer.
#[test]
fn a_shared_codepoint_takes_the_first_role() {
    let codepoints = UetCodepoints { trimmable: 12, trimmable_retransmit: 12, ..UetCodepoints::default() };
    let c = Classifier { uet_policy: true, tc_pool: [0, 1, 2, 3, 4, 5, 6, 7], pfc_enabled: [false; 8], codepoints };
    assert_eq!(hardware(&c, 12), (0, 0, false, true, false));
    assert_ne!(hardware(&c, 12), (0, 0, false, true, true));
}
