//! The ECN marker block against the reference, in rust_hdl and in Verilog.

use hdl::ecn_marker::EcnMarker;
use proptest::prelude::*;
use rust_hdl::prelude::*;
use ::synth::tools::{verilator_lint, write_verilog, yosys_synth, Family};
use testbench::cosim::{check, first_mismatch, Trace};
use testbench::ecn_marker_bench::{inputs, outputs, strategies, EcnMarkerBench, Fault, Op};
use testbench::proptest_cases;
use testbench::verilator::{assert_corruption_caught, random_cosim, verilator_cycles, VerilatedModel};
use testbench::verilog_replay::{assert_icarus_catches_corruption, replay, replay_dir};

/// 16 ports: 7 address bits.
type Bench = EcnMarkerBench<7>;
const PORTS: u8 = 16;

fn recorded_ops(seed: u8, cycles: usize) -> Vec<Op> {
    testbench::recorded(|| strategies::ops(PORTS, 40), seed, cycles)
}

fn marks(trace: &Trace) -> usize {
    trace.expected.iter().filter(|e| e[outputs::decision_valid] == Some(1) && e[outputs::marked] == Some(1)).count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    /// 64 cases, about 128,000 cycles in all (measured): random
    /// registers, back-to-back updates and decisions on one queue, idle
    /// gaps, resets and reprogramming, compared every cycle.
    #[test]
    fn cosim_matches_reference(ops in strategies::ops(PORTS, 200)) {
        prop_assume!(strategies::writes_are_quiet(&ops));
        let bench = Bench::new(PORTS as usize);
        if let Err(m) = check(&bench, &bench.trace(&ops), "ecn_marker_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/ecn_marker_cosim.vcd)");
        }
    }
}

#[test]
fn the_recorded_stimulus_reaches_every_outcome() {
    let trace = Bench::new(PORTS as usize).trace(&recorded_ops(4, 12_000));
    let decided = trace.expected.iter().filter(|e| e[outputs::decision_valid] == Some(1)).count();
    assert!(marks(&trace) > 100 && marks(&trace) < decided, "{} marks of {decided}", marks(&trace));
    let back_to_back = trace.inputs.windows(2).filter(|w| w[0][inputs::op_update] == 1 && w[1][inputs::op_update] == 1 && w[0][inputs::queue_port..=inputs::queue_pool] == w[1][inputs::queue_port..=inputs::queue_pool]).count();
    assert!(back_to_back >= 50, "{back_to_back} back-to-back updates of one queue");
    // Each forwarding register has work: the same queue again two events later.
    let one_apart = trace.inputs.windows(3).filter(|w| w[0][inputs::op_update] == 1 && w[2][inputs::op_update] == 1 && w[0][inputs::queue_port..=inputs::queue_pool] == w[2][inputs::queue_port..=inputs::queue_pool] && w[1][inputs::queue_port..=inputs::queue_pool] != w[0][inputs::queue_port..=inputs::queue_pool]).count();
    assert!(one_apart >= 50, "{one_apart} updates of one queue two events apart");
}

#[test]
fn a_wrong_reference_makes_the_cosimulation_fail() {
    let ops = recorded_ops(5, 6_000);
    for fault in [Fault::NeighbourPoolBand, Fault::StaleAverage, Fault::NoSecondForwarding] {
        let bench = Bench { ports: PORTS as usize, fault: Some(fault) };
        assert!(first_mismatch(&bench, &bench.trace(&ops)).is_some(), "{fault:?} went unnoticed");
    }
    let bench = Bench::new(PORTS as usize);
    check(&bench, &bench.trace(&ops), "ecn_marker_fault").unwrap();
}

#[test]
fn building_rejects_port_counts_it_cannot_address() {
    let message = |ports| EcnMarker::<7>::new(ports).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message(17).contains("ports = 17"), "{}", message(17));
    assert!(message(0).contains("ports = 0"));
    assert!(EcnMarker::<7>::new(16).is_ok());
}

fn verilog() -> String {
    ::synth::blocks::checked_verilog(EcnMarker::<7>::new(16).unwrap()).unwrap()
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus() {
    let bench = Bench::new(PORTS as usize);
    let trace = bench.trace(&recorded_ops(6, 12_000));
    assert!(trace.cycles() >= 10_000);
    check(&bench, &trace, "ecn_marker_replay_source").expect("rust_hdl agrees first");
    let cycles = replay::<Bench>(&verilog(), &trace, &replay_dir("ecn_marker")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cycles, trace.cycles());
}

#[test]
fn the_verilog_replay_can_fail() {
    let trace = Bench::new(PORTS as usize).trace(&recorded_ops(7, 400));
    assert_icarus_catches_corruption::<Bench>(&verilog(), trace, outputs::update_valid, outputs::mean_bytes, 4, "ecn_marker_negative");
}

#[test]
fn verilog_passes_verilator_lint() {
    let path = write_verilog(&replay_dir("ecn_marker_lint"), "ecn_marker.v", &verilog()).unwrap();
    let classes = verilator_lint(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(!classes.contains_key("UNOPTFLAT"), "{classes:?}");
}

/// iCE40 here; the same 16-port Verilog goes through `synth_ecp5` (with
/// its block RAM checked) in `tests/cli_hardware.rs`, which routes it.
#[test]
fn verilog_synthesizes_for_ice40_with_block_ram() {
    let path = write_verilog(&replay_dir("ecn_marker_synth"), "ecn_marker.v", &verilog()).unwrap();
    let report = yosys_synth(&path, Family::Ice40).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.count(Family::Ice40.bram_cell()) >= 1, "inferred no block RAM: {report:?}");
}

#[test]
fn check_all_accepts_the_block() {
    let mut m = EcnMarker::<7>::new(16).unwrap();
    m.connect_all();
    check_all(&m).unwrap();
}

fn verilated() -> VerilatedModel {
    VerilatedModel::build::<Bench>(&verilog()).unwrap_or_else(|e| panic!("{e}"))
}

/// Proptest-random stimulus through the Verilator-compiled Verilog against
/// the reference, every cycle: a million cycles by default
/// (`SSWITCH_VERILATOR_CYCLES`), in cases of a few thousand (small cases shrink fast).
#[test]
fn verilated_verilog_matches_reference_over_a_million_random_cycles() {
    let bench = Bench::new(PORTS as usize);
    let model = verilated();
    let cycles = random_cosim::<Bench, _>(&model, strategies::ops(PORTS, 300).prop_filter("writes while idle", |ops| strategies::writes_are_quiet(ops)), |ops| bench.trace(ops), "ecn_marker_verilated");
    assert!(cycles >= verilator_cycles(), "{cycles} cycles");
}

#[test]
fn the_verilated_run_can_fail() {
    let trace = Bench::new(PORTS as usize).trace(&recorded_ops(7, 400));
    assert_corruption_caught::<Bench>(&verilated(), trace, outputs::update_valid, outputs::mean_bytes, 4, "ecn_marker_verilated_negative");
}
