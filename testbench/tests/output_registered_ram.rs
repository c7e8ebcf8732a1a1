//! The output-registered RAM (a leaf of the flowlet table) against a
//! read-first software memory, in rust_hdl and in its Verilog; and the
//! reason it exists: on ECP5 its data register goes into the block RAM.

use hdl::collision_free_ram::CollisionFreeRam;
use hdl::output_registered_ram::OutputRegisteredRam;
use proptest::prelude::*;
use ::synth::bram_output_registers::Absorbed;
use rust_hdl::prelude::*;
use testbench::cosim::{check, first_mismatch};
use testbench::output_registered_ram_bench::{strategies, Access, OutputRegisteredRamBench, ADDRESS_BITS};
use testbench::proptest_cases;
use testbench::ram_leaf_checks::{ecp5_read_registers_absorbed, replay_lint_and_synthesize};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    /// Writes and a read per cycle, often on the words just written.
    #[test]
    fn cosim_matches_a_read_first_memory_two_cycles_late(accesses in strategies::accesses(400)) {
        let bench = OutputRegisteredRamBench::default();
        if let Err(m) = check(&bench, &bench.trace(&accesses), "output_registered_ram_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/output_registered_ram_cosim.vcd)");
        }
    }
}

fn recorded(seed: u8, cycles: usize) -> Vec<Access> {
    testbench::recorded(|| strategies::accesses(400), seed, cycles)
}

/// A read of the word written the cycle before meets that write in the
/// RAM at the same edge, whose answer the simulation spoils: hardware
/// without the forwarding must be caught.
#[test]
fn hardware_without_forwarding_is_caught() {
    let accesses = recorded(1, 2_000);
    let behind = accesses.windows(2).filter(|w| w[0].write.is_some_and(|(a, _)| a % 16 == w[1].read_a % 16)).count();
    assert!(behind >= 50, "the stimulus reads a word written the cycle before {behind} times");
    let faulty = OutputRegisteredRamBench { without_forwarding: true };
    assert!(first_mismatch(&faulty, &faulty.trace(&accesses)).is_some());
    let right = OutputRegisteredRamBench::default();
    check(&right, &right.trace(&accesses), "output_registered_ram_fault").unwrap();
}

/// The collision-free RAM's simulation answers a read of the word written
/// at the same edge with that word inverted; other reads see the memory.
#[test]
fn a_collided_read_is_spoiled_in_simulation() {
    let mut ram = CollisionFreeRam::<Bits<8>, 4>::new(true);
    ram.connect_all();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<CollisionFreeRam<Bits<8>, 4>>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut ep: Sim<CollisionFreeRam<Bits<8>, 4>>| {
        let mut x = ep.init()?;
        wait_clock_cycles!(ep, clock, x, 1);
        x.write_address.next = 3.into();
        x.write_data.next = 0x5A.into();
        x.write_enable.next = true;
        x.read_address.next = 3.into();
        wait_clock_cycle!(ep, clock, x);
        sim_assert_eq!(ep, x.read_data.val(), Bits::<8>::from(0xFF), x);
        x.write_data.next = 0x11.into();
        x.read_address.next = 4.into();
        wait_clock_cycle!(ep, clock, x);
        sim_assert_eq!(ep, x.read_data.val(), Bits::<8>::from(0x00), x);
        x.write_enable.next = false;
        x.read_address.next = 3.into();
        wait_clock_cycle!(ep, clock, x);
        sim_assert_eq!(ep, x.read_data.val(), Bits::<8>::from(0x11), x);
        ep.done(x)
    });
    sim.run(Box::new(ram), 1_000).unwrap();
}

fn verilog() -> String {
    ::synth::blocks::checked_verilog(OutputRegisteredRam::<Bits<16>, ADDRESS_BITS>::new(true)).unwrap()
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus_lints_and_synthesizes() {
    let bench = OutputRegisteredRamBench::default();
    replay_lint_and_synthesize::<OutputRegisteredRamBench>(&verilog(), &bench.trace(&recorded(2, 5_000)), "output_registered_ram");
}

/// On ECP5 a 512 x 8 RAM is one DP16KD whose data feeds its register
/// directly (no read-first emulation between them), so the flow's step
/// moves the eight flip-flops into the RAM; an uninitialised one too.
#[test]
fn on_ecp5_the_data_register_goes_into_the_block_ram() {
    for initialised in [true, false] {
        let verilog = ::synth::blocks::checked_verilog(OutputRegisteredRam::<Bits<8>, 9>::new(initialised)).unwrap();
        let done = ecp5_read_registers_absorbed(&verilog, &format!("output_registered_ram_ecp5_{initialised}"));
        assert_eq!(done, Absorbed { ram_ports: 1, flip_flops: 8, ports_left: 0 }, "initialised: {initialised}");
    }
}
