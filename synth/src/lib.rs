//! Verilog generation for FPGA flows and the open tool flow around it:
//! Verilator lint, Yosys synthesis for iCE40 and ECP5, Icarus simulation.
//!
//! ```text
//!  hdl block ──generate──► top.v ──► verilator --lint-only -Wall
//!                                 ├─► yosys synth_ice40 / synth_ecp5
//!                                 ├─► iverilog + vvp (testbench replays)
//!                                 └─► yosys ─► RAM output registers into the DP16KDs ─► nextpnr out of context
//!                                     (place_route, bram_output_registers: Fmax, critical path, cells)
//! ```
//!
//! A tool that is not installed is an error, never a skip.

pub mod blocks;
pub mod bram_output_registers;
pub mod place_route;
pub mod tools;

pub use blocks::HardwareBlock;
