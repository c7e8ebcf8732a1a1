//! Co-simulation harness: drives a hardware block and its reference model
//! with the same proptest stimulus, compares them every cycle and writes
//! VCD traces for GTKWave. Nothing is implemented here yet.
