//! Co-simulation: drives a hardware block and its reference model with the
//! same stimulus, compares them every cycle, writes VCD traces with a
//! GTKWave view, and replays the same stimulus through the block's
//! generated Verilog in Icarus.
//!
//! ```text
//!  stimulus (proptest) ──► reference adapter ──► Trace { inputs, expected }
//!                                                   │
//!            ┌──────────────────────────────────────┼──────────────────┐
//!            ▼                                      ▼                  ▼
//!   cosim::run (rust_hdl stepper,          verilator (Verilog        waves (VCD +
//!   first mismatch: cycle, signal)          compiled, 10^6 random     .gtkw view)
//!                                          cycles); verilog_replay
//!                                          (Icarus, 4-state, short)
//! ```

pub mod buffer_manager_bench;
pub mod cosim;
pub mod datapath_replay;
pub mod ecmp_hash_bench;
pub mod ecn_marker_bench;
pub mod flowlet_table_bench;
pub mod output_registered_banks_bench;
pub mod output_registered_copies_bench;
pub mod output_registered_ram_bench;
pub mod pause_time_bench;
pub mod pfc_receive_bench;
pub mod ram_leaf_checks;
pub mod registered_forwarding_ram_bench;
pub mod settings;
pub mod switch_datapath_bench;
pub mod twin_read_ram_bench;
pub mod verilator;
pub mod verilog_replay;
pub mod waves;

/// Proptest cases for a property: `SSWITCH_PROPTEST_CASES` or the default;
/// a value that is not a whole number above 0 fails the property.
pub fn proptest_cases(default: u32) -> u32 {
    settings::case_count_setting("SSWITCH_PROPTEST_CASES", default)
}

/// A reproducible stimulus of at least `cycles` operations: draws from
/// `strategy` with a ChaCha generator seeded by `seed` until long enough.
pub fn recorded<T, S>(strategy: impl Fn() -> S, seed: u8, cycles: usize) -> Vec<T>
where
    T: std::fmt::Debug,
    S: proptest::strategy::Strategy<Value = Vec<T>>,
{
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]));
    let mut ops = Vec::new();
    while ops.len() < cycles {
        ops.extend(strategy().new_tree(&mut runner).expect("stimulus").current());
    }
    ops
}
