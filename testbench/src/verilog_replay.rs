//! Replays a recorded trace through a block's generated Verilog in Icarus.
//!
//! The trace's inputs and expected outputs become two `$readmemh` files;
//! a generated testbench applies each cycle's inputs with the clock low,
//! raises the clock, samples after the edge (as the stepper does) and
//! stops at the first output that differs where the trace cares, printing
//! `MISMATCH cycle signal expected actual`. Catches the ways rust_hdl's
//! simulation and its Verilog disagree (widths, truncation, loops).

use crate::cosim::{Harness, Mismatch, Port, Trace};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use synth::tools::{icarus_run, write_verilog, ToolError};

/// Where a block's replay files go: `target/verilog-replay/<test>/`.
pub fn replay_dir(test: &str) -> PathBuf {
    crate::waves::vcd_dir().parent().expect("target").join("verilog-replay").join(test)
}

fn hex_digits(width: usize) -> usize {
    width.div_ceil(4)
}

fn packed_width(ports: &[Port]) -> usize {
    ports.iter().map(|p| hex_digits(p.width) * 4).sum()
}

/// One memory line: each port's value in its own hex digits, first port first.
fn pack(ports: &[Port], values: impl Iterator<Item = u64>) -> String {
    ports.iter().zip(values).map(|(p, v)| format!("{:0width$x}", v, width = hex_digits(p.width))).collect()
}

fn testbench<H: Harness>(top: &str, cycles: usize) -> String {
    let in_w = packed_width(H::INPUTS);
    let out_w = packed_width(H::OUTPUTS);
    let mut tb = String::new();
    let _ = writeln!(tb, "`timescale 1ns/1ps\nmodule replay;");
    let _ = writeln!(tb, "  reg clock = 1'b0;");
    for p in H::INPUTS {
        let _ = writeln!(tb, "  reg [{}:0] {};", p.width - 1, p.name);
    }
    for p in H::OUTPUTS {
        let _ = writeln!(tb, "  wire [{}:0] {};", p.width - 1, p.name);
    }
    let _ = writeln!(tb, "  reg [{}:0] stimulus [0:{}];", in_w - 1, cycles - 1);
    let _ = writeln!(tb, "  reg [{}:0] expected [0:{}];", out_w - 1, cycles - 1);
    let _ = writeln!(tb, "  reg [{}:0] care [0:{}];", out_w - 1, cycles - 1);
    let _ = writeln!(tb, "  integer i;");
    let mut conns: Vec<String> = vec![".clock(clock)".into()];
    conns.extend(H::INPUTS.iter().chain(H::OUTPUTS).map(|p| format!(".{0}({0})", p.name)));
    let _ = writeln!(tb, "  {top} uut({});", conns.join(", "));
    let _ = writeln!(tb, "  initial begin");
    let _ = writeln!(tb, "    $readmemh(\"stimulus.hex\", stimulus);\n    $readmemh(\"expected.hex\", expected);\n    $readmemh(\"care.hex\", care);");
    let _ = writeln!(tb, "    for (i = 0; i < {cycles}; i = i + 1) begin");
    let mut offset = in_w;
    for p in H::INPUTS {
        let slot = hex_digits(p.width) * 4;
        offset -= slot;
        let _ = writeln!(tb, "      {} = stimulus[i][{}:{}];", p.name, offset + p.width - 1, offset);
    }
    let _ = writeln!(tb, "      #5 clock = 1'b1;\n      #1;");
    let mut offset = out_w;
    for p in H::OUTPUTS {
        let slot = hex_digits(p.width) * 4;
        offset -= slot;
        let (hi, lo) = (offset + p.width - 1, offset);
        let _ = writeln!(tb,
            "      if (care[i][{lo}] && ({name} !== expected[i][{hi}:{lo}])) begin\n        $display(\"MISMATCH %0d {name} %h %h\", i, expected[i][{hi}:{lo}], {name});\n        $finish;\n      end",
            name = p.name);
    }
    let _ = writeln!(tb, "      #4 clock = 1'b0;\n    end\n    $display(\"REPLAY PASSED %0d cycles\", {cycles});\n    $finish;\n  end\nendmodule");
    tb
}

/// What a replay found.
#[derive(Debug)]
pub enum ReplayError {
    Tool(ToolError),
    Mismatch(Mismatch),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Tool(e) => write!(f, "{e}"),
            ReplayError::Mismatch(m) => write!(f, "Verilog replay: {m}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Replays `trace` through `verilog` (its first module is the block) in Icarus.
pub fn replay<H: Harness>(verilog: &str, trace: &Trace, dir: &Path) -> Result<usize, ReplayError> {
    let tool = |e: std::io::Error| ReplayError::Tool(ToolError(e.to_string()));
    let top = synth::tools::top_module(verilog).ok_or_else(|| ReplayError::Tool(ToolError("the Verilog declares no module".into())))?;
    write_verilog(dir, "top.v", verilog).map_err(tool)?;
    write_verilog(dir, "replay.v", &testbench::<H>(top, trace.cycles())).map_err(tool)?;
    let stim: Vec<String> = trace.inputs.iter().map(|v| pack(H::INPUTS, v.iter().copied())).collect();
    let expect: Vec<String> = trace.expected.iter().map(|v| pack(H::OUTPUTS, v.iter().map(|x| x.unwrap_or(0)))).collect();
    let care: Vec<String> = trace.expected.iter().map(|v| pack(H::OUTPUTS, v.iter().map(|x| x.is_some() as u64))).collect();
    std::fs::write(dir.join("stimulus.hex"), stim.join("\n") + "\n").map_err(tool)?;
    std::fs::write(dir.join("expected.hex"), expect.join("\n") + "\n").map_err(tool)?;
    std::fs::write(dir.join("care.hex"), care.join("\n") + "\n").map_err(tool)?;
    let log = icarus_run(dir, &["top.v", "replay.v"], "replay").map_err(ReplayError::Tool)?;
    if let Some(line) = log.lines().find(|l| l.starts_with("MISMATCH")) {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let signal = H::OUTPUTS.iter().find(|p| p.name == parts[2]).map(|p| p.name).unwrap_or("?");
        let value = |s: &str| u64::from_str_radix(s, 16).unwrap_or(u64::MAX);
        return Err(ReplayError::Mismatch(Mismatch {
            block: H::NAME,
            cycle: parts[1].parse().unwrap_or(0),
            signal,
            expected: value(parts[3]),
            actual: value(parts[4]),
        }));
    }
    if !log.contains("REPLAY PASSED") {
        return Err(ReplayError::Tool(ToolError(format!("the replay did not finish:\n{log}"))));
    }
    Ok(trace.cycles())
}

/// Shows that the Icarus replay can fail: flips `flip` in the expected
/// `signal` of the first cycle whose `valid` output is set, replays
/// `trace` through `verilog` (files in [`replay_dir`]`(test)`) and asserts
/// that the replay stops at that cycle, naming that signal.
pub fn assert_icarus_catches_corruption<H: Harness>(verilog: &str, mut trace: Trace, valid: usize, signal: usize, flip: u64, test: &str) {
    let cycle = trace.expected.iter().position(|e| e[valid] == Some(1)).expect("a cycle with a result");
    let wanted = trace.expected[cycle][signal].expect("the result is expected");
    trace.expected[cycle][signal] = Some(wanted ^ flip);
    match replay::<H>(verilog, &trace, &replay_dir(test)) {
        Err(ReplayError::Mismatch(m)) => assert_eq!((m.cycle, m.signal), (cycle, H::OUTPUTS[signal].name)),
        other => panic!("expected a mismatch, got {other:?}"),
    }
}
