//! The two-read-port RAM (a leaf of the buffer manager) against a
//! read-first software memory, in rust_hdl and in its Verilog.

use hdl::twin_read_ram::TwinReadRam;
use proptest::prelude::*;
use rust_hdl::prelude::Bits;
use testbench::cosim::{check, first_mismatch};
use testbench::proptest_cases;
use testbench::twin_read_ram_bench::{strategies, TwinReadRamBench, ADDRESS_BITS};
use testbench::ram_leaf_checks::replay_lint_and_synthesize;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    /// Writes and two reads per cycle, often on the word just written.
    #[test]
    fn cosim_matches_a_read_first_memory(accesses in strategies::accesses(400)) {
        let bench = TwinReadRamBench::default();
        if let Err(m) = check(&bench, &bench.trace(&accesses), "twin_read_ram_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/twin_read_ram_cosim.vcd)");
        }
    }
}

fn recorded(seed: u8, cycles: usize) -> Vec<testbench::twin_read_ram_bench::Access> {
    testbench::recorded(|| strategies::accesses(400), seed, cycles)
}

#[test]
fn a_write_first_reference_makes_the_cosimulation_fail() {
    let accesses = recorded(1, 2_000);
    let wrong = TwinReadRamBench { write_first: true };
    assert!(first_mismatch(&wrong, &wrong.trace(&accesses)).is_some());
    let right = TwinReadRamBench::default();
    check(&right, &right.trace(&accesses), "twin_read_ram_fault").unwrap();
}

fn verilog() -> String {
    ::synth::blocks::checked_verilog(TwinReadRam::<Bits<16>, ADDRESS_BITS>::default()).unwrap()
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus_and_lints() {
    let bench = TwinReadRamBench::default();
    replay_lint_and_synthesize::<TwinReadRamBench>(&verilog(), &bench.trace(&recorded(2, 5_000)), "twin_read_ram");
}
