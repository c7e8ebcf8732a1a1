//! The forwarding RAM read through its output register (a leaf of the
//! buffer manager's counters) against a software memory, in rust_hdl and
//! in its Verilog.

use hdl::registered_forwarding_ram::RegisteredForwardingRam;
use proptest::prelude::*;
use rust_hdl::prelude::Bits;
use testbench::cosim::{check, first_mismatch};
use testbench::proptest_cases;
use testbench::registered_forwarding_ram_bench::{strategies, Access, RegisteredForwardingRamBench, ADDRESS_BITS};
use testbench::ram_leaf_checks::replay_lint_and_synthesize;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    /// Writes and a read per cycle, often on the words just written.
    #[test]
    fn cosim_matches_a_memory_two_cycles_late(accesses in strategies::accesses(400)) {
        let bench = RegisteredForwardingRamBench::default();
        if let Err(m) = check(&bench, &bench.trace(&accesses), "registered_forwarding_ram_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/registered_forwarding_ram_cosim.vcd)");
        }
    }
}

fn recorded(seed: u8, cycles: usize) -> Vec<Access> {
    testbench::recorded(|| strategies::accesses(400), seed, cycles)
}

/// A read two cycles behind a write to its word needs the older forwarding
/// register; hardware without it must be caught.
#[test]
fn hardware_without_the_older_forward_is_caught() {
    let accesses = recorded(1, 2_000);
    let two_back = accesses.windows(2).filter(|w| w[0].write.is_some_and(|(a, _)| a % 16 == w[1].read_a % 16)).count();
    assert!(two_back >= 50, "the stimulus reads a word written the cycle before {two_back} times");
    let faulty = RegisteredForwardingRamBench { without_older_forward: true };
    assert!(first_mismatch(&faulty, &faulty.trace(&accesses)).is_some());
    let right = RegisteredForwardingRamBench::default();
    check(&right, &right.trace(&accesses), "registered_forwarding_ram_fault").unwrap();
}

fn verilog() -> String {
    ::synth::blocks::checked_verilog(RegisteredForwardingRam::<Bits<16>, ADDRESS_BITS>::default()).unwrap()
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus_lints_and_synthesizes() {
    let bench = RegisteredForwardingRamBench::default();
    replay_lint_and_synthesize::<RegisteredForwardingRamBench>(&verilog(), &bench.trace(&recorded(2, 5_000)), "registered_forwarding_ram");
}
