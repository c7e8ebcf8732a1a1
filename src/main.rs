//! `sswitch`: the command-line tool of the Scala Switch datapath model.
//!
//! Configuration documents, buffer plans, event replay through the
//! reference model, and hash studies. Every failure is one clear line on
//! stderr and a non-zero exit, never a panic.

mod commands;
mod plot;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "sswitch",
    version,
    about = "Model of a shared-buffer datacenter switch: PFC, ECN, trimming, ECMP and flowlet balancing",
    long_about = "Model of the Scala Switch's admission and load-balancing datapath.\n\n\
        Configurations are the platform's `typedParameters` JSON documents; `sswitch config defaults` \
        prints the default one. Byte units: B, KB (1,000), MB (1,000,000); rates in Gbps; times in ps, ns, us, ms, s."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Simulate one switch on a scenario and write the vendor's records (the main job)
    Sim(commands::sim::SimArgs),
    /// Draw a run's records as figures (PNG and SVG)
    Plot(commands::plot::PlotArgs),
    /// List the built-in scenarios, or print one as JSON
    Scenario(commands::sim::ScenarioArgs),
    /// Configuration documents: defaults, rule checks, patches, buffer plans
    #[command(subcommand)]
    Config(commands::config::ConfigCommand),
    /// Replay an event file (JSON lines) through the reference datapath
    Replay(commands::replay::ReplayArgs),
    /// Print the ECMP flow hash of one five-tuple
    Hash(commands::hash::HashArgs),
    /// Measure tier-to-tier hash polarization with random flows
    Polarization(commands::hash::PolarizationArgs),
    /// Write a hardware block's Verilog for FPGA flows
    Verilog(commands::hardware::VerilogArgs),
    /// Place and route a hardware block (Yosys + nextpnr): Fmax, critical path, cells
    Synth(commands::hardware::SynthArgs),
    /// The hardware register map, and a configuration's register image
    #[command(subcommand)]
    Registers(commands::hardware::RegistersCommand),
}

/// Stack of the thread that runs a hardware command: building the larger
/// blocks (the flowlet table's and the datapath's rust_hdl structures) is
/// deeply recursive and overflows the main thread's 8 MiB. Other commands
/// run on the main thread (`sim` keeps its memory small, and tests cap it).
const HARDWARE_STACK_BYTES: usize = 256 << 20;

fn builds_hardware(command: &Command) -> bool {
    match command {
        Command::Verilog(_) | Command::Synth(_) => true,
        Command::Replay(args) => args.engine != commands::replay::Engine::Reference,
        _ => false,
    }
}

fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = Cli::parse();
    if !builds_hardware(&cli.command) {
        return run(cli);
    }
    let worker = std::thread::Builder::new().name("sswitch".into()).stack_size(HARDWARE_STACK_BYTES).spawn(move || run(cli));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => {
            eprintln!("cannot start the command's thread: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Sim(args) => commands::sim::run(args),
        Command::Plot(args) => commands::plot::run(args),
        Command::Scenario(args) => commands::sim::show(args),
        Command::Config(cmd) => commands::config::run(cmd),
        Command::Replay(args) => commands::replay::run(args),
        Command::Hash(args) => commands::hash::run_hash(args),
        Command::Polarization(args) => commands::hash::run_polarization(args),
        Command::Verilog(args) => commands::hardware::run_verilog(args),
        Command::Synth(args) => commands::hardware::run_synth(args),
        Command::Registers(args) => commands::hardware::run_registers(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            for line in &failure.lines {
                eprintln!("{line}");
            }
            ExitCode::from(failure.code)
        }
    }
}

/// A command line tool should end quietly when its reader goes away
/// (`sswitch ... | head`); Rust ignores SIGPIPE and would panic instead.
fn restore_default_sigpipe() {
    // SAFETY: called once at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
