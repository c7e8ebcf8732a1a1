//! Runs the open FPGA tools on generated Verilog.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A tool run that failed, with what it printed.
#[derive(Debug)]
pub struct ToolError(pub String);

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ToolError {}

/// Runs a tool; a tool that is not installed is an error naming the package.
pub fn run(tool: &str, args: &[&str], dir: &Path) -> Result<Output, ToolError> {
    Command::new(tool).args(args).current_dir(dir).output().map_err(|e| {
        ToolError(format!("cannot run `{tool}` ({e}); install it (Debian: apt-get install {})", package_of(tool)))
    })
}

fn package_of(tool: &str) -> &str {
    match tool {
        "iverilog" | "vvp" => "iverilog",
        "xvfb-run" => "xvfb",
        "import" | "identify" => "imagemagick",
        other => other,
    }
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// The name of the first module of a Verilog text: the block's top
/// (rust_hdl writes the top first, its sub-blocks after it).
pub fn top_module(verilog: &str) -> Option<&str> {
    let line = verilog.lines().map(str::trim_start).find(|l| l.starts_with("module "))?;
    let name = line["module ".len()..].split(|c: char| c == '(' || c == ';' || c.is_whitespace()).next()?;
    (!name.is_empty()).then_some(name)
}

/// The top module of a Verilog file.
pub fn top_module_of(path: &Path) -> Result<String, ToolError> {
    let text = std::fs::read_to_string(path).map_err(|e| ToolError(format!("cannot read {}: {e}", path.display())))?;
    top_module(&text).map(str::to_string).ok_or_else(|| ToolError(format!("{} declares no module", path.display())))
}

/// Writes `verilog` as `dir/file` and returns the path.
pub fn write_verilog(dir: &Path, file: &str, verilog: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(file);
    std::fs::write(&path, verilog)?;
    Ok(path)
}

/// Warning classes this project waives in Verilator's -Wall, and why. All
/// come from how rust_hdl writes Verilog, not from the designs.
pub const WAIVED_LINT: &[(&str, &str)] = &[
    ("WIDTH", "rust_hdl writes literals as 32/64-bit numbers (Verilator 5.006 class)"),
    ("WIDTHEXPAND", "rust_hdl writes literals as 32/64-bit numbers and compares narrower signals with them"),
    ("WIDTHTRUNC", "the same literals assigned to narrower registers"),
    ("UNUSEDSIGNAL", "rust_hdl emits every field, including constant parameters and bits a block ignores"),
    ("UNUSEDPARAM", "constants of sub-blocks are emitted as localparams even when unused"),
    ("DECLFILENAME", "the module names (`sswitch_<block>`, or rust_hdl's `top`) differ from the file names"),
    ("BLKSEQ", "rust_hdl's DFFs assign with `<=` but its combinational kernels use blocking `=` in always @(*)"),
    ("VARHIDDEN", "loop variables declared inside generated kernels shadow module-level names"),
    ("UNOPTFLAT", "rust_hdl writes a block's kernel as one always block: a kernel that drives a combinational sub-block and reads its answer looks circular at block granularity; true loops are caught at cell level by Yosys `check -assert`, which every block passes"),
];

/// Verilator `--lint-only -Wall`: Ok with the warning classes seen (each
/// must be waived), Err on any error or unwaived warning.
pub fn verilator_lint(path: &Path) -> Result<BTreeMap<String, usize>, ToolError> {
    let dir = path.parent().expect("a file has a folder");
    let file = path.file_name().expect("a file").to_string_lossy().to_string();
    let top = top_module_of(path)?;
    let out = run("verilator", &["--lint-only", "-Wall", "-Wno-fatal", "--top-module", &top, &file], dir)?;
    let log = text(&out);
    let mut classes = BTreeMap::new();
    for line in log.lines() {
        if let Some(rest) = line.strip_prefix("%Warning-") {
            let class = rest.split(':').next().unwrap_or("").to_string();
            *classes.entry(class).or_insert(0) += 1;
        }
        if line.starts_with("%Error") {
            return Err(ToolError(format!("verilator reports an error in {}:\n{log}", path.display())));
        }
    }
    if !out.status.success() {
        return Err(ToolError(format!("verilator failed on {}:\n{log}", path.display())));
    }
    let unwaived: Vec<&String> = classes.keys().filter(|c| !WAIVED_LINT.iter().any(|(w, _)| w == c)).collect();
    if !unwaived.is_empty() {
        return Err(ToolError(format!("verilator warnings not waived: {unwaived:?}\n{log}")));
    }
    Ok(classes)
}

/// FPGA families Yosys synthesizes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Ice40,
    Ecp5,
}

impl Family {
    pub fn synth_command(self) -> &'static str {
        match self {
            Family::Ice40 => "synth_ice40",
            Family::Ecp5 => "synth_ecp5",
        }
    }

    /// The block-RAM cell of the family.
    pub fn bram_cell(self) -> &'static str {
        match self {
            Family::Ice40 => "SB_RAM40_4K",
            Family::Ecp5 => "DP16KD",
        }
    }
}

/// Cell counts of a synthesized design.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SynthReport {
    pub cells: BTreeMap<String, usize>,
}

impl SynthReport {
    pub fn count(&self, cell: &str) -> usize {
        self.cells.get(cell).copied().unwrap_or(0)
    }
    pub fn total(&self) -> usize {
        self.cells.values().sum()
    }
}

/// Yosys: read, check for loops and undriven logic, synthesize, report.
///
/// The family's script runs up to its `check` step, which is then done
/// here without its first command, `autoname`: that only names internal
/// wires for a reader of the netlist (about 13% of the datapath's
/// synthesis), and the report is cell counts. `sswitch synth` keeps it, as
/// its timing report names registers.
pub fn yosys_synth(path: &Path, family: Family) -> Result<SynthReport, ToolError> {
    let dir = path.parent().expect("a file has a folder");
    let file = path.file_name().expect("a file").to_string_lossy().to_string();
    let top = top_module_of(path)?;
    let script = format!(
        "read_verilog {file}; hierarchy -check -top {top}; proc; check -assert; {} -top {top} -run :check; hierarchy -check; tee -o yosys_stat.txt stat; check -noinit",
        family.synth_command()
    );
    let out = run("yosys", &["-q", "-p", &script], dir)?;
    if !out.status.success() {
        return Err(ToolError(format!("yosys {} failed on {}:\n{}", family.synth_command(), path.display(), text(&out))));
    }
    let stat = std::fs::read_to_string(dir.join("yosys_stat.txt")).map_err(|e| ToolError(e.to_string()))?;
    Ok(parse_stat(&stat))
}

fn parse_stat(stat: &str) -> SynthReport {
    let mut report = SynthReport::default();
    let mut in_cells = false;
    for line in stat.lines() {
        let t = line.trim();
        if t.starts_with("Number of cells:") {
            in_cells = true;
            continue;
        }
        if in_cells {
            let mut parts = t.split_whitespace();
            match (parts.next(), parts.next()) {
                (Some(name), Some(n)) if n.parse::<usize>().is_ok() => {
                    *report.cells.entry(name.to_string()).or_insert(0) += n.parse::<usize>().unwrap_or(0);
                }
                _ => in_cells = false,
            }
        }
    }
    report
}

/// Icarus: compile the files and run the simulation; returns what it printed.
pub fn icarus_run(dir: &Path, files: &[&str], top: &str) -> Result<String, ToolError> {
    let mut args = vec!["-g2005", "-s", top, "-o", "replay.vvp"];
    args.extend_from_slice(files);
    let compiled = run("iverilog", &args, dir)?;
    if !compiled.status.success() {
        return Err(ToolError(format!("iverilog failed:\n{}", text(&compiled))));
    }
    let ran = run("vvp", &["-n", "replay.vvp"], dir)?;
    let log = text(&ran);
    if !ran.status.success() {
        return Err(ToolError(format!("vvp failed:\n{log}")));
    }
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_module_is_the_first_declared() {
        assert_eq!(top_module("// x\nmodule sswitch_ecmp_hash(clock, reset);\nendmodule\nmodule sswitch_ecmp_hash$s1(d);"), Some("sswitch_ecmp_hash"));
        assert_eq!(top_module("module top;"), Some("top"));
        assert_eq!(top_module("wire x;"), None);
    }
}
