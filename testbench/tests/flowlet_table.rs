//! The flowlet table block against `reference::flowlet`, in rust_hdl and
//! in Verilog.

use proptest::prelude::*;
use testbench::cosim::check;
use testbench::flowlet_table_bench::{strategies, Fault, Op, SmallBench};
use testbench::proptest_cases;

const PORTS: usize = 64;
const SETS: usize = 16;

fn recorded_ops(seed: u8, ops: usize) -> Vec<Op> {
    testbench::recorded(|| strategies::ops(PORTS, SETS, 40), seed, ops)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(16)))]

    #[test]
    fn cosim_matches_reference(ops in strategies::ops(PORTS, SETS, 60)) {
        let bench = SmallBench::default();
        let trace = bench.trace(&ops);
        if let Err(m) = check(&bench, &trace, "flowlet_table_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/flowlet_table_cosim.vcd)");
        }
    }
}

#[test]
fn recorded_stimulus_reaches_every_case() {
    let (trace, coverage) = SmallBench::default().trace_with_coverage(&recorded_ops(1, 3_000));
    println!("{} cycles, {coverage:?}", trace.cycles());
    assert!(
        coverage.reselected_at_gap > 0 && coverage.stayed_on_tie > 0 && coverage.draws > 0,
        "{coverage:?}"
    );
    assert!(
        coverage.all_paused > 0 && coverage.slot_left_on_drop > 0 && coverage.past_last_table > 0,
        "{coverage:?}"
    );
    assert!(coverage.kept_within_gap > 0, "{coverage:?}");
}

#[test]
fn a_wrong_reference_or_hardware_makes_the_cosimulation_fail() {
    let ops = recorded_ops(2, 3_000);
    let right = SmallBench::default();
    check(&right, &right.trace(&ops), "flowlet_table_fault").unwrap();
    for fault in [
        Fault::SlotUpdatedOnDrop,
        Fault::PfcIgnored,
        Fault::DrawOnSingleTie,
    ] {
        let bench = SmallBench {
            fault: Some(fault),
            ..Default::default()
        };
        assert!(
            check(&bench, &bench.trace(&ops), "flowlet_table_fault").is_err(),
            "{fault:?} went unnoticed"
        );
    }
    let bench = SmallBench {
        without_map_forwarding: true,
        ..Default::default()
    };
    assert!(
        check(&bench, &right.trace(&ops), "flowlet_table_fault").is_err(),
        "the missing map forwarding went unnoticed"
    );
}

