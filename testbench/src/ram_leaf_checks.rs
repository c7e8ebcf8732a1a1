//! The checks every small leaf's Verilog goes through (the RAM leaves
//! `output_registered_ram`, `_banks`, `_copies`, `twin_read_ram`,
//! `registered_forwarding_ram`; the buffer manager's `pause_time`): replayed against the reference in Icarus, linted
//! by Verilator, synthesized by Yosys for iCE40 and ECP5; and, on ECP5, how
//! many of its read registers the flow moves into the block RAMs.

use crate::cosim::{Harness, Trace};
use crate::verilog_replay::{replay, replay_dir};
use synth::bram_output_registers::{absorb_output_registers, Absorbed};
use synth::tools::{top_module_of, verilator_lint, write_verilog, yosys_synth, Family};

/// Replays `trace` through `verilog` in Icarus (every cycle compared),
/// lints it and synthesizes it for both families; panics naming the step
/// that failed. `name` names the folders under target/verilog-replay.
pub fn replay_lint_and_synthesize<H: Harness>(verilog: &str, trace: &Trace, name: &str) {
    let cycles = replay::<H>(verilog, trace, &replay_dir(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(cycles, trace.cycles(), "{name}: cycles replayed");
    let path = write_verilog(&replay_dir(&format!("{name}_lint")), &format!("{name}.v"), verilog).unwrap_or_else(|e| panic!("{e}"));
    verilator_lint(&path).unwrap_or_else(|e| panic!("{e}"));
    for family in [Family::Ice40, Family::Ecp5] {
        yosys_synth(&path, family).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Runs `synth_ecp5` on `verilog` and the flow's step that moves block-RAM
/// read registers into the DP16KDs; what it moved.
pub fn ecp5_read_registers_absorbed(verilog: &str, name: &str) -> Absorbed {
    let dir = replay_dir(name);
    let path = write_verilog(&dir, "leaf.v", verilog).unwrap_or_else(|e| panic!("{e}"));
    let top = top_module_of(&path).unwrap_or_else(|e| panic!("{e}"));
    let script = format!("read_verilog leaf.v; hierarchy -check -top {top}; synth_ecp5 -top {top} -json netlist.json");
    let out = std::process::Command::new("yosys").args(["-q", "-p", &script]).current_dir(&dir).output()
        .unwrap_or_else(|e| panic!("yosys (apt-get install yosys): {e}"));
    assert!(out.status.success(), "yosys: {}", String::from_utf8_lossy(&out.stderr));
    let netlist = std::fs::read(dir.join("netlist.json")).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut netlist: serde_json::Value = serde_json::from_slice(&netlist).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    absorb_output_registers(&mut netlist).unwrap_or_else(|e| panic!("{e}"))
}
