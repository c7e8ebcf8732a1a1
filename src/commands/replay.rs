//! `sswitch replay`: events through the reference datapath, one result per line.

use super::{build_switch, CommandResult, Failure, SwitchArgs};
use reference::replay::Replayer;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(long_about = "Replays an event file through the reference model.\n\n\
    EVENTS.jsonl holds one JSON event per line (kinds: arrive, tx_start, depart, pfc_rx; see the README). \
    Each event prints one JSON result line; its `seq` is the event's 0-based line number. A malformed line, \
    an unknown seq or time going backwards stops the replay with an error naming the line.")]
pub struct ReplayArgs {
    #[command(flatten)]
    pub switch: SwitchArgs,
    /// The event file (JSON lines); `-` reads standard input
    pub events: PathBuf,
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
    let mut replayer = Replayer::new(switch);
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for (index, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| Failure::input(format!("line {}: cannot read: {e}", index + 1)))?;
        match replayer.line(&line) {
            Ok(Some(result)) => writeln!(out, "{result}").map_err(|e| Failure::input(format!("cannot write: {e}")))?,
            Ok(None) => {}
            Err(e) => {
                let _ = out.flush();
                return Err(Failure::input(format!("{}: {e}", args.events.display())));
            }
        }
    }
    out.flush().map_err(|e| Failure::input(format!("cannot write: {e}")))?;
    Ok(())
}
