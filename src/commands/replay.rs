//! `sswitch replay`: events through the reference datapath, one result per line.

use super::{build_switch, CommandResult, Failure, SwitchArgs};
use reference::replay::Replayer;
use reference::switch::SwitchIdentity;
use testbench::datapath_replay::{hardware_engine, HardwareEngine, LineEngine};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(long_about = "Replays an event file through the reference model.\n\n\
    EVENTS.jsonl holds one JSON event per line (kinds: arrive, tx_start, depart, pfc_rx; see the README). \
    Each event prints one JSON result line; its `seq` is the event's 0-based line number. A malformed line, \
    an unknown seq or time going backwards stops the replay with an error naming the line.\n\n\
    --engine hdl runs the same lines through the hardware switch datapath simulated by rust_hdl, --engine verilog \
    through its generated Verilog compiled by Verilator (the first run compiles the model, a minute or more; it is \
    cached under target/verilator). Both print the same lines as the reference, except that pause re-sends may come \
    on a later line or not at all (the buffer manager's sweep finds them as cycles pass), and that times past \
    2^32 - 1 ns are refused (the hardware clock is 32 bits).")]
pub struct ReplayArgs {
    #[command(flatten)]
    pub switch: SwitchArgs,
    /// The event file (JSON lines); `-` reads standard input
    pub events: PathBuf,
    /// What computes the results: the reference model, the rust_hdl datapath, or its Verilog (Verilator)
    #[arg(long, value_enum, default_value_t = Engine::Reference)]
    pub engine: Engine,
    /// Flow tables of the hardware datapath (hdl, verilog): 2 or 128 (the model's; the hdl engine then
    /// first clears 65,536 slots, about 20 s)
    #[arg(long, value_name = "N", default_value_t = reference::flowlet::MAX_TABLES)]
    pub tables: usize,
}

/// The engines of `replay`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// reference::switch::Switch
    Reference,
    /// the switch datapath in rust_hdl
    Hdl,
    /// the switch datapath's Verilog through Verilator
    Verilog,
}

pub fn run(args: ReplayArgs) -> CommandResult {
    let switch = build_switch(&args.switch)?;
    let reader: Box<dyn BufRead> = if args.events.as_os_str() == "-" {
        Box::new(BufReader::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(&args.events)
            .map_err(|e| Failure::input(format!("cannot read events {}: {e}", args.events.display())))?;
        Box::new(BufReader::new(file))
    };
    let identity = SwitchIdentity { node_id: args.switch.node_id, sim_seed: args.switch.seed, run: args.switch.run };
    let mut engine: Box<dyn LineEngine> = match args.engine {
        Engine::Reference => {
            if args.tables != reference::flowlet::MAX_TABLES {
                return Err(Failure::input(format!("--tables {}: only the hardware engines (hdl, verilog) have a table count", args.tables)));
            }
            Box::new(Replayer::new(switch))
        }
        hardware => {
            let which = if hardware == Engine::Hdl { HardwareEngine::Hdl } else { HardwareEngine::Verilog };
            hardware_engine(which, &switch, identity, args.tables).map_err(Failure::input)?
        }
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let write = |out: &mut BufWriter<_>, results: Vec<serde_json::Value>| -> CommandResult {
        for result in results {
            writeln!(out, "{result}").map_err(|e| Failure::input(format!("cannot write: {e}")))?;
        }
        Ok(())
    };
    for (index, line) in reader.lines().enumerate() {
        let read = line.map_err(|e| Failure::input(format!("line {}: cannot read: {e}", index + 1)));
        let results = read.and_then(|line| engine.line(&line).map_err(|e| Failure::input(format!("{}: {e}", args.events.display()))));
        match results {
            Ok(results) => write(&mut out, results)?,
            Err(failure) => {
                // The lines before the bad one still print (a hardware
                // engine holds streamed events' results).
                if let Ok(held) = engine.finish() {
                    let _ = write(&mut out, held);
                }
                let _ = out.flush();
                return Err(failure);
            }
        }
    }
    let held = engine.finish().map_err(|e| Failure::input(format!("{}: {e}", args.events.display())))?;
    write(&mut out, held)?;
    out.flush().map_err(|e| Failure::input(format!("cannot write: {e}")))?;
    Ok(())
}
