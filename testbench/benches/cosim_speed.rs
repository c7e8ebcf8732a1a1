//! Co-simulation speed of each block on three engines, in cycles per
//! second, one run (release build):
//!
//!   cargo bench -p testbench --bench cosim_speed
//!
//! - rust_hdl: the thread-free stepper, without and with VCD tracing;
//! - Verilator: the block's generated Verilog compiled (the compile is
//!   cached and not timed), the reference model's trace generation included
//!   in the time, as the random co-simulation runs it;
//! - Icarus: the same Verilog interpreted, on the first 20,000 cycles.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::time::Instant;
use testbench::cosim::{run, Harness, Trace};
use testbench::verilator::VerilatedModel;
use testbench::verilog_replay::{replay, replay_dir};
use testbench::waves::Waves;
use testbench::{buffer_manager_bench, ecmp_hash_bench, ecn_marker_bench};

fn runner() -> TestRunner {
    TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[1; 32]))
}

fn per_second(cycles: usize, started: Instant) -> f64 {
    cycles as f64 / started.elapsed().as_secs_f64()
}

fn first(trace: &Trace, cycles: usize) -> Trace {
    Trace { inputs: trace.inputs[..cycles].to_vec(), expected: trace.expected[..cycles].to_vec() }
}

/// Measures every engine on the ops `make` draws (about `cycles` of them).
fn measure<H: Harness, T: std::fmt::Debug, S: Strategy<Value = Vec<T>>>(
    harness: &H,
    make: impl Fn() -> S,
    trace_of: impl Fn(&[T]) -> Trace,
    verilog: &str,
    label: &str,
) {
    let mut r = runner();
    let mut ops = Vec::new();
    while ops.len() < 400_000 {
        ops.extend(make().new_tree(&mut r).unwrap().current());
    }
    let started = Instant::now();
    let trace = trace_of(&ops);
    let reference = per_second(trace.cycles(), started);

    let short = first(&trace, 100_000.min(trace.cycles()));
    let started = Instant::now();
    run(harness, &short, None).expect("co-simulation passes");
    let rust_hdl = per_second(short.cycles(), started);
    let started = Instant::now();
    let waves = run(harness, &short, Some(Waves::create::<H>(&format!("bench_{label}")))).expect("passes");
    waves.into_iter().for_each(Waves::close);
    let rust_hdl_vcd = per_second(short.cycles(), started);

    let model = VerilatedModel::build::<H>(verilog).unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let trace = trace_of(&ops); // timed again: the reference is part of a co-simulation
    let model_started = Instant::now();
    model.run::<H>(&trace, None).unwrap_or_else(|e| panic!("{e}"));
    let model_alone = per_second(trace.cycles(), model_started);
    let verilator = per_second(trace.cycles(), started);

    let icarus_trace = first(&trace, 20_000.min(trace.cycles()));
    let started = Instant::now();
    replay::<H>(verilog, &icarus_trace, &replay_dir(&format!("bench_{label}"))).unwrap_or_else(|e| panic!("{e}"));
    let icarus = per_second(icarus_trace.cycles(), started);

    println!(
        "{label}: {} cycles; reference alone {:.0}/s; rust_hdl {:.0}/s ({:.0}/s with VCD); \
         Verilator {:.0}/s with the reference ({:.0}/s alone, {:.0}x rust_hdl); Icarus {:.0}/s ({:.0}x slower than Verilator)",
        trace.cycles(), reference, rust_hdl, rust_hdl_vcd, verilator, model_alone, verilator / rust_hdl, icarus, verilator / icarus
    );
}

fn main() {
    let bench = ecmp_hash_bench::EcmpHashBench::default();
    let verilog = synth::HardwareBlock::EcmpHash.verilog().expect("Verilog");
    measure(&bench, || ecmp_hash_bench::strategies::ops(40), |ops| bench.trace(ops), &verilog, "ecmp_hash");

    let bench = ecn_marker_bench::EcnMarkerBench::<7>::new(16);
    let verilog = synth::HardwareBlock::EcnMarker { ports: 16 }.verilog().expect("Verilog");
    let quiet = || ecn_marker_bench::strategies::ops(16, 40).prop_filter("writes while idle", |ops| ecn_marker_bench::strategies::writes_are_quiet(ops));
    measure(&bench, quiet, |ops| bench.trace(ops), &verilog, "ecn_marker");

    let bench = buffer_manager_bench::BufferManagerBench::<7>::new(16);
    let verilog = synth::HardwareBlock::BufferManager { ports: 16 }.verilog().expect("Verilog");
    measure(&bench, || buffer_manager_bench::strategies::ops(16, 40), |ops| bench.trace(ops), &verilog, "buffer_manager");
}
