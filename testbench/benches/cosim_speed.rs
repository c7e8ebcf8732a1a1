//! Co-simulation speed of each block, in cycles per second, with and
//! without VCD tracing (release build, one thread):
//!
//!   cargo bench -p testbench --bench cosim_speed

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::time::Instant;
use testbench::cosim::{run, Harness, Trace};
use testbench::waves::Waves;
use testbench::{buffer_manager_bench, ecmp_hash_bench, ecn_marker_bench};

fn runner() -> TestRunner {
    TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[1; 32]))
}

fn measure<H: Harness>(harness: &H, trace: &Trace, label: &str) {
    let started = Instant::now();
    run(harness, trace, None).expect("co-simulation passes");
    let plain = trace.cycles() as f64 / started.elapsed().as_secs_f64();
    let started = Instant::now();
    let waves = run(harness, trace, Some(Waves::create::<H>(&format!("bench_{label}")))).expect("passes");
    if let Some(w) = waves {
        w.close();
    }
    let traced = trace.cycles() as f64 / started.elapsed().as_secs_f64();
    println!("{label}: {} cycles, {:.0} cycles/s without VCD, {:.0} cycles/s with VCD", trace.cycles(), plain, traced);
}

fn main() {
    let mut r = runner();
    let mut ops = Vec::new();
    while ops.len() < 100_000 {
        ops.extend(ecmp_hash_bench::strategies::ops(40).new_tree(&mut r).unwrap().current());
    }
    let bench = ecmp_hash_bench::EcmpHashBench::default();
    measure(&bench, &bench.trace(&ops), "ecmp_hash");

    let mut ops = Vec::new();
    while ops.len() < 100_000 {
        ops.extend(ecn_marker_bench::strategies::ops(16, 40).new_tree(&mut r).unwrap().current());
    }
    let bench = ecn_marker_bench::EcnMarkerBench::<7>::new(16);
    measure(&bench, &bench.trace(&ops), "ecn_marker");

    let mut ops = Vec::new();
    while ops.len() < 100_000 {
        ops.extend(buffer_manager_bench::strategies::ops(16, 40).new_tree(&mut r).unwrap().current());
    }
    let bench = buffer_manager_bench::BufferManagerBench::<7>::new(16);
    measure(&bench, &bench.trace(&ops), "buffer_manager");
}
