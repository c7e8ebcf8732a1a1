//! The forwarding RAM with two read ports (a leaf of the buffer manager;
//! its halves are `ForwardingRam`s) against a software memory whose reads
//! see their cycle's write, in rust_hdl and in its Verilog.

use hdl::twin_forwarding_ram::TwinForwardingRam;
use proptest::prelude::*;
use ::synth::tools::{verilator_lint, write_verilog, yosys_synth, Family};
use rust_hdl::prelude::Bits;
use testbench::cosim::check;
use testbench::proptest_cases;
use testbench::twin_forwarding_ram_bench::{strategies, Access, TwinForwardingRamBench, ADDRESS_BITS};
use testbench::verilog_replay::{replay, replay_dir};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    /// Writes and two reads per cycle, often on the word just written.
    #[test]
    fn cosim_matches_a_forwarding_memory(accesses in strategies::accesses(400)) {
        let bench = TwinForwardingRamBench::default();
        if let Err(m) = check(&bench, &bench.trace(&accesses), "twin_forwarding_ram_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/twin_forwarding_ram_cosim.vcd)");
        }
    }
}

fn recorded(seed: u8, cycles: usize) -> Vec<Access> {
    testbench::recorded(|| strategies::accesses(400), seed, cycles)
}

#[test]
fn hardware_without_forwarding_is_caught() {
    let accesses = recorded(1, 2_000);
    let same_cycle = accesses.iter().filter(|a| a.write.is_some_and(|(w, _)| w % 16 == a.read_a % 16)).count();
    assert!(same_cycle >= 50, "the stimulus reads the word being written {same_cycle} times");
    let faulty = TwinForwardingRamBench { without_forwarding: true };
    assert!(check(&faulty, &faulty.trace(&accesses), "twin_forwarding_ram_fault").is_err());
    let right = TwinForwardingRamBench::default();
    check(&right, &right.trace(&accesses), "twin_forwarding_ram_fault").unwrap();
}

fn verilog() -> String {
    ::synth::blocks::checked_verilog(TwinForwardingRam::<Bits<16>, ADDRESS_BITS>::default()).unwrap()
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus_lints_and_synthesizes() {
    let bench = TwinForwardingRamBench::default();
    let trace = bench.trace(&recorded(2, 5_000));
    let cycles = replay::<TwinForwardingRamBench>(&verilog(), &trace, &replay_dir("twin_forwarding_ram")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cycles, trace.cycles());
    let path = write_verilog(&replay_dir("twin_forwarding_ram_lint"), "twin_forwarding_ram.v", &verilog()).unwrap();
    verilator_lint(&path).unwrap_or_else(|e| panic!("{e}"));
    for family in [Family::Ice40, Family::Ecp5] {
        yosys_synth(&path, family).unwrap_or_else(|e| panic!("{e}"));
    }
}
