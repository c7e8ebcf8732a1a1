//! The buffer manager's pause-length stage against the reference's
//! `ports::pause_ns` (in 32 bits, 0 for no quanta), in rust_hdl and in its
//! Verilog.

use hdl::buffer_manager::pause_time::PauseTime;
use proptest::prelude::*;
use testbench::cosim::{check, first_mismatch};
use testbench::pause_time_bench::{strategies, Pause, PauseTimeBench};
use testbench::proptest_cases;
use testbench::ram_leaf_checks::replay_lint_and_synthesize;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    #[test]
    fn cosim_matches_the_reference(pauses in strategies::pauses(300)) {
        let bench = PauseTimeBench::default();
        if let Err(m) = check(&bench, &bench.trace(&pauses), "pause_time_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/pause_time_cosim.vcd)");
        }
    }
}

fn recorded(seed: u8, cycles: usize) -> Vec<Pause> {
    testbench::recorded(|| strategies::pauses(300), seed, cycles)
}

/// A received frame of no quanta resumes at once (the deadline is `now`),
/// not after the link delay: a reference that says otherwise is caught.
#[test]
fn a_wrong_reference_for_no_quanta_is_caught() {
    let pauses = recorded(1, 2_000);
    assert!(pauses.iter().filter(|p| p.0 == 0 && p.2 != 0).count() >= 50, "the stimulus has frames of no quanta");
    let wrong = PauseTimeBench { zero_quanta_lasts_the_delay: true };
    assert!(first_mismatch(&wrong, &wrong.trace(&pauses)).is_some());
    let right = PauseTimeBench::default();
    check(&right, &right.trace(&pauses), "pause_time_fault").unwrap_or_else(|m| panic!("{m}"));
}

/// The default 400 Gb/s port (1.28 ns per quantum, 500 ns of link) pauses
/// for 84,384 ns at 65535 quanta; the 32-bit sum wraps like the reference's
/// 64-bit one truncated.
#[test]
fn a_full_pause_at_400_gbps() {
    let bench = PauseTimeBench::default();
    let pauses = [(u16::MAX, 83_886, 500), (u16::MAX, u32::MAX, u32::MAX), (0, 83_886, 500)];
    let trace = bench.trace(&pauses);
    assert_eq!(trace.expected[0], [Some(84_384)]);
    assert_eq!(trace.expected[1], [Some(((65_535u64 * u32::MAX as u64 >> 16) + u32::MAX as u64) & 0xFFFF_FFFF)]);
    assert_eq!(trace.expected[2], [Some(0)]);
    check(&bench, &trace, "pause_time_examples").unwrap_or_else(|m| panic!("{m}"));
}

fn verilog() -> String {
    ::synth::blocks::checked_verilog(PauseTime::default()).unwrap()
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus_lints_and_synthesizes() {
    let bench = PauseTimeBench::default();
    replay_lint_and_synthesize::<PauseTimeBench>(&verilog(), &bench.trace(&recorded(2, 3_000)), "pause_time");
}
