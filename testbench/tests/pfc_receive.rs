//! The buffer manager's received-PFC stage (pause deadlines, the query's
//! paused classes and earliest pause end) against a model, in rust_hdl
//! and in its Verilog.

use hdl::buffer_manager::pfc_receive::PfcReceive;
use proptest::prelude::*;
use testbench::cosim::{check, first_mismatch};
use testbench::pfc_receive_bench::{strategies, Cycle, Frame, PfcReceiveBench, A};
use testbench::proptest_cases;
use testbench::ram_leaf_checks::replay_lint_and_synthesize;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    #[test]
    fn cosim_matches_the_model(cycles in strategies::cycles(400)) {
        let bench = PfcReceiveBench::default();
        if let Err(m) = check(&bench, &bench.trace(&cycles), "pfc_receive_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/pfc_receive_cosim.vcd)");
        }
    }
}

fn recorded(seed: u8, cycles: usize) -> Vec<Cycle> {
    testbench::recorded(|| strategies::cycles(400), seed, cycles)
}

/// The earliest of several running pauses is the answer: a model that
/// answers the latest is caught.
#[test]
fn a_wrong_reference_for_the_earliest_end_is_caught() {
    let cycles = recorded(1, 3_000);
    let wrong = PfcReceiveBench { latest_expiry: true };
    assert!(first_mismatch(&wrong, &wrong.trace(&cycles)).is_some());
    let right = PfcReceiveBench::default();
    check(&right, &right.trace(&cycles), "pfc_receive_fault").unwrap_or_else(|m| panic!("{m}"));
}

/// Every class of one port paused with ends in every order, ties among
/// them, and one end at the top of the 32-bit time: each query's earliest
/// end is the smallest that still runs.
#[test]
fn ends_in_every_order_and_ties() {
    let ends: [[u32; 8]; 4] = [
        [900, 800, 700, 600, 500, 400, 300, 200],
        [200, 300, 400, 500, 600, 700, 800, 900],
        [500, 200, 500, 200, 900, 200, 700, 300],
        [u32::MAX - 1, 650, u32::MAX - 1, 640, 640, 5_000, 630, 630],
    ];
    let mut cycles = vec![Cycle { reset: true, ..Default::default() }];
    for (k, row) in ends.iter().enumerate() {
        let now = 100 * k as u32;
        for (class, &end) in row.iter().enumerate() {
            cycles.push(Cycle { frame: Some(Frame { port: 1, classes: 1 << class, pause_ns: end - now }), now_ns: now, query_port: 1, ..Default::default() });
        }
        cycles.extend((0..3).map(|_| Cycle { now_ns: now, query_port: 1, ..Default::default() }));
    }
    let bench = PfcReceiveBench::default();
    let trace = bench.trace(&cycles);
    let expiry = |sample: usize| trace.expected[sample][2];
    assert_eq!(expiry(10), Some(200), "the last class's end of the first row");
    assert_eq!(expiry(43), Some(630), "the last two classes tie at the minimum");
    check(&bench, &trace, "pfc_receive_orders").unwrap_or_else(|m| panic!("{m}"));
}

fn verilog() -> String {
    ::synth::blocks::checked_verilog(PfcReceive::<A>::default()).unwrap()
}

#[test]
fn generated_verilog_replays_the_model_in_icarus_lints_and_synthesizes() {
    let bench = PfcReceiveBench::default();
    replay_lint_and_synthesize::<PfcReceiveBench>(&verilog(), &bench.trace(&recorded(2, 3_000)), "pfc_receive");
}
