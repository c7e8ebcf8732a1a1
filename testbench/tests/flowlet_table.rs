//! The flowlet table block against `reference::flowlet`, in rust_hdl and
//! in Verilog.

use hdl::flowlet_table::{latency, FlowletTable, FIRST_WIRABLE, LAST_WIRABLE, LATENCY};
use hdl::stage_register::WiredRanks;
use hdl::switch_datapath::FLOWLET_WIRED;
use proptest::prelude::*;
use synth::tools::{verilator_lint, write_verilog};
use synth::HardwareBlock;
use testbench::cosim::{check, first_mismatch};
use testbench::flowlet_table_bench::{outputs, strategies, Coverage, Fault, Op, SmallBench};
use testbench::proptest_cases;
use testbench::verilator::{assert_corruption_caught, random_cosim, verilator_cycles, VerilatedModel};
use testbench::verilog_replay::{assert_icarus_catches_corruption, replay, replay_dir};

const PORTS: usize = 64;
const SETS: usize = 16;

fn recorded_ops(seed: u8, ops: usize) -> Vec<Op> {
    testbench::recorded(|| strategies::ops(PORTS, SETS, 40), seed, ops)
}

/// Stimulus of cases ten times longer than [recorded_ops]'s: each case
/// starts with a reset, whose sweep takes 1,024 cycles, so long cases
/// spend more of the simulation on traffic.
fn long_recorded_ops(seed: u8, ops: usize) -> Vec<Op> {
    testbench::recorded(|| strategies::ops(PORTS, SETS, 400), seed, ops)
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
    assert!(coverage.missing().is_empty(), "not reached: {:?} ({coverage:?})", coverage.missing());
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
        assert!(first_mismatch(&bench, &bench.trace(&ops)).is_some(), "{fault:?} went unnoticed");
    }
    let without_last = SmallBench { without_map_forwarding: true, ..Default::default() };
    let without_older = SmallBench { without_older_map_forwarding: true, ..Default::default() };
    for (bench, missing) in [(without_last, "last"), (without_older, "older")] {
        assert!(
            first_mismatch(&bench, &right.trace(&ops)).is_some(),
            "the missing {missing} map forwarding went unnoticed"
        );
    }
}


fn verilog() -> String {
    HardwareBlock::FlowletTable { ports: PORTS, tables: SmallBench::tables() }.verilog().expect("Verilog")
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus() {
    let bench = SmallBench::default();
    let trace = bench.trace(&recorded_ops(3, 400));
    check(&bench, &trace, "flowlet_table_replay_source").expect("rust_hdl agrees first");
    let cycles = replay::<SmallBench>(&verilog(), &trace, &replay_dir("flowlet_table")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cycles, trace.cycles());
}

#[test]
fn the_verilog_replay_can_fail() {
    let trace = SmallBench::default().trace(&recorded_ops(4, 60));
    assert_icarus_catches_corruption::<SmallBench>(&verilog(), trace, outputs::result_valid, outputs::egress_port, 1, "flowlet_table_negative");
}

#[test]
fn verilog_passes_verilator_lint() {
    let path = write_verilog(&replay_dir("flowlet_table_lint"), "flowlet_table.v", &verilog()).unwrap();
    let classes = verilator_lint(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(!classes.contains_key("UNOPTFLAT"), "combinational loop: {classes:?}");
}

/// The switch datapath's build of the block: every second reduction
/// stage's registers left out (`hdl::switch_datapath::FLOWLET_WIRED`).
fn shallow() -> SmallBench {
    SmallBench { wired: FLOWLET_WIRED, ..Default::default() }
}

fn shallow_verilog() -> String {
    let block = FlowletTable::<6, 8, 10, 14>::shallow(FLOWLET_WIRED).expect("a valid build");
    synth::blocks::checked_verilog(block).expect("Verilog")
}

/// The shallow build answers as the reference does, `FLOWLET_WIRED.count()`
/// cycles sooner than the deep one, over stimulus that reaches every case;
/// the same trace fails on the deep build, so the comparison sees the
/// latency.
#[test]
fn the_datapaths_shallow_build_matches_the_reference_sooner() {
    assert_eq!(latency(FLOWLET_WIRED), LATENCY - 7);
    let bench = shallow();
    let (trace, coverage) = bench.trace_with_coverage(&recorded_ops(5, 3_000));
    assert!(coverage.missing().is_empty(), "not reached: {:?} ({coverage:?})", coverage.missing());
    check(&bench, &trace, "flowlet_table_shallow").unwrap_or_else(|m| panic!("{m} (VCD in target/vcd/flowlet_table_shallow.vcd)"));
    assert!(first_mismatch(&SmallBench::default(), &trace).is_some(), "the deep build passed the shallow build's trace");
}

#[test]
fn the_shallow_builds_verilog_replays_the_reference_in_icarus_and_passes_lint() {
    let bench = shallow();
    let trace = bench.trace(&recorded_ops(6, 400));
    check(&bench, &trace, "flowlet_table_shallow_replay_source").expect("rust_hdl agrees first");
    let verilog = shallow_verilog();
    let cycles = replay::<SmallBench>(&verilog, &trace, &replay_dir("flowlet_table_shallow")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cycles, trace.cycles());
    let path = write_verilog(&replay_dir("flowlet_table_shallow_lint"), "flowlet_table.v", &verilog).unwrap();
    let classes = verilator_lint(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(!classes.contains_key("UNOPTFLAT"), "combinational loop: {classes:?}");
}

/// Only the reduction stages' registers can go; anything else is refused
/// when the block is built, naming the cycle.
#[test]
fn a_shallow_build_refuses_cycles_outside_the_reduction() {
    for cycle in [FIRST_WIRABLE - 1, LAST_WIRABLE + 1] {
        let refused = FlowletTable::<6, 8, 10, 14>::shallow(WiredRanks::of(&[12, cycle])).err().expect("refused");
        assert!(refused.0.contains(&format!("wired cycle {cycle}:")), "{refused}");
    }
    assert!(FlowletTable::<6, 8, 10, 14>::shallow(WiredRanks::of(&[FIRST_WIRABLE, LAST_WIRABLE])).is_ok());
}

// Yosys synthesis for ECP5 (block RAM included) is part of the place and
// route that `tests/cli_hardware.rs` runs on this block at every test run.

fn verilated() -> VerilatedModel {
    VerilatedModel::build::<SmallBench>(&verilog()).unwrap_or_else(|e| panic!("{e}"))
}

/// Proptest-random stimulus through the Verilator-compiled Verilog against
/// the reference, every cycle, until `SSWITCH_VERILATOR_CYCLES` (a million
/// by default) have been compared.
#[test]
fn verilated_verilog_matches_reference_over_a_million_random_cycles() {
    let bench = SmallBench::default();
    let model = verilated();
    let cycles = random_cosim::<SmallBench, _>(&model, strategies::ops(PORTS, SETS, 60), |ops| bench.trace(ops), "flowlet_table_verilated");
    assert!(cycles >= verilator_cycles(), "{cycles} cycles");
}

#[test]
fn the_verilated_run_can_fail() {
    let trace = SmallBench::default().trace(&recorded_ops(4, 60));
    assert_corruption_caught::<SmallBench>(&verilated(), trace, outputs::result_valid, outputs::member, 1, "flowlet_table_verilated_negative");
}

/// The full build (256 ports, 256 sets, 128 tables of 512 slots): 140 sets
/// selected on in turn, so the first 128 get tables and the rest fall
/// back to hash mod size, then traffic on sets on both sides of the line.
#[test]
fn the_full_block_gives_tables_to_the_first_128_sets_only() {
    use testbench::flowlet_table_bench::{Cycle, Decision, FullBench, Select};
    use reference::register_map::{RegisterWrite, FLOWLET_GAP, FLOWLET_METHOD, FLOWLET_METHOD_FLOWLET};
    let sets: Vec<Vec<u16>> = (0..140u16).map(|i| vec![i, (i + 1) % 256, (i + 7) % 256]).collect();
    let mut ops = vec![
        Op::Sets(sets),
        Op::Write(RegisterWrite { address: FLOWLET_METHOD, data: FLOWLET_METHOD_FLOWLET }),
        Op::Write(RegisterWrite { address: FLOWLET_GAP, data: 1_000 }),
    ];
    let select = |set: u16, flow_hash: u16, now_ns: u64| Cycle { select: Some(Select { set, flow_hash, tc: 0, now_ns }), decide: Some(Decision::Admit), ..Default::default() };
    for set in 0..140u16 {
        ops.push(Op::Traffic(select(set, set * 977, 10)));
    }
    for i in 0..2_000u64 {
        let set = [0u16, 127, 128, 139][(i % 4) as usize];
        let mut cycle = select(set, (i * 40_503 % 65_536) as u16, 10 + i * 300);
        cycle.occupancy = Some((((i * 7) % 256) as u8, (i * 1_500 % 9_000) as u32));
        ops.push(Op::Traffic(cycle));
    }
    let bench = FullBench::default();
    let (trace, coverage) = bench.trace_with_coverage(&ops);
    assert_eq!(FullBench::tables(), 128);
    assert!(coverage.past_last_table >= 12 + 1_000, "{coverage:?}");
    assert!(coverage.reselected_at_gap > 0 && coverage.kept_within_gap > 0, "{coverage:?}");
    check(&bench, &trace, "flowlet_table_full").unwrap_or_else(|m| panic!("{m}"));
}

/// Random stimulus through rust_hdl against the reference until 10^5
/// traffic cycles (the sweeps after resets not counted) have been
/// compared; `SSWITCH_FLOWLET_CYCLES` scales it.
#[test]
fn rust_hdl_cosim_covers_a_hundred_thousand_random_cycles() {
    let target = testbench::settings::count_setting("SSWITCH_FLOWLET_CYCLES", 100_000);
    let bench = SmallBench::default();
    let (mut traffic, mut seed, mut reached) = (0usize, 10u8, Coverage::default());
    while traffic < target {
        let ops = long_recorded_ops(seed, 2_000);
        traffic += ops.iter().filter(|op| matches!(op, Op::Traffic(_))).count();
        let (trace, coverage) = bench.trace_with_coverage(&ops);
        reached += &coverage;
        check(&bench, &trace, "flowlet_table_random").unwrap_or_else(|m| panic!("seed {seed}: {m} (VCD in target/vcd/flowlet_table_random.vcd)"));
        seed = seed.wrapping_add(1);
    }
    println!("{traffic} random traffic cycles compared, {reached:?}");
    assert!(reached.missing().is_empty(), "not reached: {:?} ({reached:?})", reached.missing());
}
