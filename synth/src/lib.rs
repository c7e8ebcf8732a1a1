//! Verilog generation for FPGA flows and the open tool flow around it
//! (Verilator lint, Icarus replay, Yosys synthesis, nextpnr).
//! Nothing is implemented here yet.
