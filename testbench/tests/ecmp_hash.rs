//! The ECMP hash block against the reference, in rust_hdl and in Verilog.

use proptest::prelude::*;
use reference::register_map::{RegisterWrite, ECMP_HASH_METHOD};
use synth::tools::{verilator_lint, write_verilog, yosys_synth, Family};
use synth::HardwareBlock;
use testbench::cosim::{check, first_mismatch};
use testbench::ecmp_hash_bench::{outputs, strategies, EcmpHashBench, Fault, Op};
use testbench::proptest_cases;
use testbench::verilator::{assert_corruption_caught, random_cosim, verilator_cycles, VerilatedModel};
use testbench::verilog_replay::{assert_icarus_catches_corruption, replay, replay_dir};

/// A reproducible stimulus of at least `cycles` cycles.
fn recorded_ops(seed: u8, cycles: usize) -> Vec<Op> {
    testbench::recorded(|| strategies::ops(40), seed, cycles)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    /// 64 cases, about 150,000 cycles in all (measured): every
    /// method, salts, corner keys and set sizes, bursts, gaps, resets and
    /// reprogramming, compared every cycle.
    #[test]
    fn cosim_matches_reference(ops in strategies::ops(200)) {
        let bench = EcmpHashBench::default();
        let trace = bench.trace(&ops);
        if let Err(m) = check(&bench, &trace, "ecmp_hash_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/ecmp_hash_cosim.vcd)");
        }
    }
}

#[test]
fn a_wrong_reference_makes_the_cosimulation_fail() {
    let ops = recorded_ops(1, 4_000);
    for fault in [Fault::MemberOffByOne, Fault::UnsaltedCrc, Fault::EarlyHashLate] {
        let bench = EcmpHashBench { fault: Some(fault), ..Default::default() };
        assert!(first_mismatch(&bench, &bench.trace(&ops)).is_some(), "{fault:?} went unnoticed");
    }
    // And a right one passes on the same stimulus.
    let bench = EcmpHashBench::default();
    check(&bench, &bench.trace(&ops), "ecmp_hash_fault").unwrap();
}

/// The build for the switch datapath, which reads a key's set size from
/// a RAM addressed in the key's cycle, takes the size a cycle later and
/// answers the same; given the size with its key, it goes wrong
/// (`dprWithFallback` keeps the dpr value only below the size).
#[test]
fn the_late_set_size_build_matches_the_reference() {
    let ops = recorded_ops(3, 6_000);
    let late = EcmpHashBench { late_set_size: true, ..Default::default() };
    check(&late, &late.trace(&ops), "ecmp_hash_late_set_size").unwrap_or_else(|m| panic!("{m}"));
    let on_time = EcmpHashBench::default().trace(&ops);
    assert!(first_mismatch(&late, &on_time).is_some(), "the late build must not take a size given with its key");
}

#[test]
fn every_method_is_exercised_by_the_recorded_stimulus() {
    let ops = recorded_ops(2, 12_000);
    let methods: std::collections::BTreeSet<u32> = ops
        .iter()
        .filter_map(|op| match op {
            Op::Write(RegisterWrite { address: ECMP_HASH_METHOD, data }) => Some(*data),
            _ => None,
        })
        .collect();
    assert!((0..6).all(|m| methods.contains(&m)), "methods programmed: {methods:?}");
}

fn verilog() -> String {
    HardwareBlock::EcmpHash.verilog().expect("Verilog")
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus() {
    let ops = recorded_ops(2, 12_000);
    let bench = EcmpHashBench::default();
    let trace = bench.trace(&ops);
    assert!(trace.cycles() >= 10_000);
    check(&bench, &trace, "ecmp_hash_replay_source").expect("rust_hdl agrees first");
    let cycles = replay::<EcmpHashBench>(&verilog(), &trace, &replay_dir("ecmp_hash")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cycles, trace.cycles());
}

#[test]
fn the_verilog_replay_can_fail() {
    let trace = EcmpHashBench::default().trace(&recorded_ops(3, 300));
    assert_icarus_catches_corruption::<EcmpHashBench>(&verilog(), trace, outputs::hash_valid, outputs::flow_hash, 1, "ecmp_hash_negative");
}

#[test]
fn verilog_passes_verilator_lint() {
    let path = write_verilog(&replay_dir("ecmp_hash_lint"), "ecmp_hash.v", &verilog()).unwrap();
    let classes = verilator_lint(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(!classes.contains_key("UNOPTFLAT"), "combinational loop: {classes:?}");
}

/// iCE40 here; the same Verilog goes through `synth_ecp5` in
/// `tests/cli_hardware.rs`, which routes it at 200 MHz.
#[test]
fn verilog_synthesizes_for_ice40() {
    let path = write_verilog(&replay_dir("ecmp_hash_synth"), "ecmp_hash.v", &verilog()).unwrap();
    let report = yosys_synth(&path, Family::Ice40).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.total() > 100, "{report:?}");
}

fn verilated() -> VerilatedModel {
    VerilatedModel::build::<EcmpHashBench>(&verilog()).unwrap_or_else(|e| panic!("{e}"))
}

/// Proptest-random stimulus through the Verilator-compiled Verilog against
/// the reference, every cycle: a million cycles by default
/// (`SSWITCH_VERILATOR_CYCLES`), in cases of a few thousand (small cases shrink fast).
#[test]
fn verilated_verilog_matches_reference_over_a_million_random_cycles() {
    let bench = EcmpHashBench::default();
    let model = verilated();
    let cycles = random_cosim::<EcmpHashBench, _>(&model, strategies::ops(300), |ops| bench.trace(ops), "ecmp_hash_verilated");
    assert!(cycles >= verilator_cycles(), "{cycles} cycles");
}

#[test]
fn the_verilated_run_can_fail() {
    let trace = EcmpHashBench::default().trace(&recorded_ops(3, 300));
    assert_corruption_caught::<EcmpHashBench>(&verilated(), trace, outputs::hash_valid, outputs::flow_hash, 1, "ecmp_hash_verilated_negative");
}

// Its sub-blocks, on their own (kept here rather than as unit tests of
// the hdl crate, which would compile the whole crate a second time).

/// The CRC matrix's XOR masks give crc32fast's CRC for any initial value.
#[test]
fn crc_masks_reproduce_the_crc() {
    use hdl::crc_matrix::CrcMasks;
    use reference::ecmp_hash::{crc32, FlowKey};
    let m = CrcMasks::new();
    let key = FlowKey { proto: 17, src: 0x0A00_0001, dst: 0xC0A8_0102, sport: 1000, dport: 4791 };
    let ports = (key.sport as u32) << 16 | key.dport as u32;
    for init in [0, 1, 0xDEAD_BEEF] {
        assert_eq!(m.apply(key.proto, ports, key.src, key.dst, init), crc32(&key.bytes(), init));
    }
}

/// The set member block's restoring division gives hash mod size (0 for
/// sets of 0 or 1 members), for every 16-bit value and size up to 64.
#[test]
fn set_member_restoring_steps_give_the_remainder() {
    use hdl::set_member::member_by_restoring;
    for size in 0..=64u32 {
        for value in 0..=u16::MAX {
            let expected = if size < 2 { 0 } else { value as u32 % size };
            assert_eq!(member_by_restoring(value, size), expected, "{value} mod {size}");
        }
    }
}

/// The set member block's simulation, value by value, against the model.
#[test]
fn set_member_block_matches_the_model() {
    use hdl::set_member::{member_by_restoring, SetMember, LATENCY};
    use rust_hdl::prelude::*;
    let mut uut = SetMember::<8>::default();
    uut.connect_all();
    let mut sim = Simulation::new();
    let cases: Vec<(u16, u32)> = (0..3000u32).map(|i| ((i.wrapping_mul(40503) % 65536) as u16, i % 65)).collect();
    let expected: Vec<(u32, usize)> = cases.iter().enumerate().map(|(i, &(v, s))| (member_by_restoring(v, s), i % 256)).collect();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = seen.clone();
    sim.add_clock(5, |x: &mut Box<SetMember<8>>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut ep: Sim<SetMember<8>>| {
        let mut x = ep.init()?;
        for i in 0..cases.len() + LATENCY {
            let (value, size) = cases.get(i).copied().unwrap_or((0, 0));
            x.value.next = (value as u64).into();
            x.set_size.next = (size as u64).into();
            x.tag_in.next = ((i % 256) as u64).into();
            wait_clock_cycle!(ep, clock, x);
            record.lock().unwrap().push((x.member.val().index() as u32, x.tag_out.val().index()));
        }
        ep.done(x)
    });
    sim.run(Box::new(uut), 1_000_000).unwrap();
    let seen = seen.lock().unwrap();
    // The value given before clock edge i comes out after edge i + LATENCY - 1.
    assert_eq!(&seen[LATENCY - 1..LATENCY - 1 + expected.len()], &expected[..]);
}
