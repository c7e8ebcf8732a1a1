//! The output-registered copies (the flowlet table's port state) against
//! a read-first software memory read at four addresses, in rust_hdl and in
//! their Verilog; and on ECP5 every copy's data register goes into its
//! block RAM.

use hdl::output_registered_copies::OutputRegisteredCopies;
use proptest::prelude::*;
use ::synth::bram_output_registers::Absorbed;
use rust_hdl::prelude::*;
use testbench::cosim::{check, first_mismatch};
use testbench::output_registered_copies_bench::{strategies, Access, Copies, FourCopies, OutputRegisteredCopiesBench, ADDRESS_BITS, COPIES};
use testbench::proptest_cases;
use testbench::ram_leaf_checks::{ecp5_read_registers_absorbed, replay_lint_and_synthesize};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    /// A write to every copy and a read of each per cycle, often on the
    /// word just written.
    #[test]
    fn cosim_matches_a_read_first_memory_two_cycles_late(accesses in strategies::accesses(400)) {
        let bench = OutputRegisteredCopiesBench::default();
        if let Err(m) = check(&bench, &bench.trace(&accesses), "output_registered_copies_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/output_registered_copies_cosim.vcd)");
        }
    }
}

fn recorded(seed: u8, cycles: usize) -> Vec<Access> {
    testbench::recorded(|| strategies::accesses(400), seed, cycles)
}

/// A read of a word written the cycle before meets that write in its copy
/// at the same edge, whose answer the simulation spoils: hardware without
/// the forwarding must be caught, and the stimulus must reach every copy
/// that way.
#[test]
fn hardware_without_forwarding_is_caught() {
    let accesses = recorded(1, 2_000);
    let mut behind = [0usize; COPIES];
    for w in accesses.windows(2) {
        if let Some((written, _)) = w[0].write {
            for (copy, read) in OutputRegisteredCopiesBench::read_addresses(&w[1]).into_iter().enumerate() {
                behind[copy] += (written as usize % (1 << ADDRESS_BITS) == read) as usize;
            }
        }
    }
    assert!(behind.iter().all(|n| *n >= 5), "reads of a word written the cycle before, per copy: {behind:?}");
    let faulty = OutputRegisteredCopiesBench { without_forwarding: true };
    assert!(first_mismatch(&faulty, &faulty.trace(&accesses)).is_some());
    let right = OutputRegisteredCopiesBench::default();
    check(&right, &right.trace(&accesses), "output_registered_copies_fault").unwrap();
}

fn verilog() -> String {
    ::synth::blocks::checked_verilog(FourCopies::new(Copies::new(true))).unwrap()
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus_lints_and_synthesizes() {
    let bench = OutputRegisteredCopiesBench::default();
    replay_lint_and_synthesize::<OutputRegisteredCopiesBench>(&verilog(), &bench.trace(&recorded(2, 5_000)), "output_registered_copies");
}

/// On ECP5 two copies of 512 x 8 are two DP16KDs whose data feed their
/// registers directly, so the flow's step moves all sixteen flip-flops in.
#[test]
fn on_ecp5_every_copy_register_goes_into_its_block_ram() {
    let verilog = ::synth::blocks::checked_verilog(OutputRegisteredCopies::<Bits<8>, 9, 2>::new(true)).unwrap();
    let done = ecp5_read_registers_absorbed(&verilog, "output_registered_copies_ecp5");
    assert_eq!(done, Absorbed { ram_ports: 2, flip_flops: 16, ports_left: 0 });
}
