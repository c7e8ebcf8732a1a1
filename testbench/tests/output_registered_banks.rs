//! The output-registered banks (the flowlet set table's member RAMs)
//! against four read-first software memories, in rust_hdl and in their
//! Verilog; and on ECP5 every bank's data register goes into its block RAM.

use hdl::output_registered_banks::OutputRegisteredBanks;
use proptest::prelude::*;
use ::synth::bram_output_registers::Absorbed;
use rust_hdl::prelude::*;
use testbench::cosim::{check, first_mismatch};
use testbench::output_registered_banks_bench::{strategies, Access, Banks, FourBanks, OutputRegisteredBanksBench, ADDRESS_BITS};
use testbench::proptest_cases;
use testbench::ram_leaf_checks::{ecp5_read_registers_absorbed, replay_lint_and_synthesize};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    /// A write to one bank and a read of all per cycle, often on the words
    /// just written.
    #[test]
    fn cosim_matches_read_first_memories_two_cycles_late(accesses in strategies::accesses(400)) {
        let bench = OutputRegisteredBanksBench::default();
        if let Err(m) = check(&bench, &bench.trace(&accesses), "output_registered_banks_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/output_registered_banks_cosim.vcd)");
        }
    }
}

fn recorded(seed: u8, cycles: usize) -> Vec<Access> {
    testbench::recorded(|| strategies::accesses(400), seed, cycles)
}

/// A read of a word written the cycle before meets that write in its bank
/// at the same edge, whose answer the simulation spoils: hardware without
/// the forwarding must be caught, and the stimulus must reach every bank
/// that way.
#[test]
fn hardware_without_forwarding_is_caught() {
    let accesses = recorded(1, 2_000);
    let mut behind = [0usize; 4];
    for w in accesses.windows(2) {
        if w[0].write.is_some_and(|(a, _)| a as usize % (1 << ADDRESS_BITS) == w[1].read_a as usize % (1 << ADDRESS_BITS)) {
            behind[OutputRegisteredBanksBench::write_bank(&w[0])] += 1;
        }
    }
    assert!(behind.iter().all(|n| *n >= 5), "reads of a word written the cycle before, per bank: {behind:?}");
    let faulty = OutputRegisteredBanksBench { without_forwarding: true };
    assert!(first_mismatch(&faulty, &faulty.trace(&accesses)).is_some());
    let right = OutputRegisteredBanksBench::default();
    check(&right, &right.trace(&accesses), "output_registered_banks_fault").unwrap();
}

#[test]
fn banks_that_are_not_a_power_of_their_number_bits_are_refused() {
    let refused = OutputRegisteredBanks::<Bits<8>, 4, 3, 2>::new(true).err().expect("3 banks with 2-bit numbers");
    assert_eq!(refused, "output-registered banks: 3 banks with 2-bit bank numbers: the banks must be 2^2");
    assert!(OutputRegisteredBanks::<Bits<8>, 4, 8, 2>::new(false).is_err());
    assert!(OutputRegisteredBanks::<Bits<8>, 4, 4, 2>::new(false).is_ok());
}

fn verilog() -> String {
    ::synth::blocks::checked_verilog(FourBanks::new(Banks::new(true).unwrap())).unwrap()
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus_lints_and_synthesizes() {
    let bench = OutputRegisteredBanksBench::default();
    replay_lint_and_synthesize::<OutputRegisteredBanksBench>(&verilog(), &bench.trace(&recorded(2, 5_000)), "output_registered_banks");
}

/// On ECP5 two banks of 512 x 8 are two DP16KDs whose data feed their
/// registers directly, so the flow's step moves all sixteen flip-flops in.
#[test]
fn on_ecp5_every_bank_register_goes_into_its_block_ram() {
    let verilog = ::synth::blocks::checked_verilog(OutputRegisteredBanks::<Bits<8>, 9, 2, 1>::new(true).unwrap()).unwrap();
    let done = ecp5_read_registers_absorbed(&verilog, "output_registered_banks_ecp5");
    assert_eq!(done, Absorbed { ram_ports: 2, flip_flops: 16, ports_left: 0 });
}
