//! Subcommands of `sswitch`, one module each.

pub mod config;
pub mod hardware;
pub mod hash;
pub mod plot;
pub mod replay;
pub mod sim;

use reference::classify::UetCodepoints;
use reference::config::{validate, Document, Topology, Validated};
use reference::ports::PortMap;
use reference::switch::{Switch, SwitchIdentity};
use reference::BufferPlan;
use std::path::PathBuf;
use std::fmt::Display;
use std::path::Path;

/// A failed command: lines for stderr and the exit code.
#[derive(Debug)]
pub struct Failure {
    pub lines: Vec<String>,
    pub code: u8,
}

impl Failure {
    /// Bad input (file, document, arguments): exit code 2.
    pub fn input(message: impl Display) -> Failure {
        Failure { lines: vec![format!("error: {message}")], code: 2 }
    }

    /// The configuration breaks rules: exit code 1, one line per rule.
    pub fn rules(lines: Vec<String>) -> Failure {
        Failure { lines, code: 1 }
    }
}

pub type CommandResult = Result<(), Failure>;

/// Reads a configuration document, or the default one when no file is given.
pub fn load_document(path: Option<&Path>) -> Result<Document, Failure> {
    let Some(path) = path else { return Ok(Document::defaults()) };
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("cannot read configuration {}: {e}", path.display())))?;
    Document::from_json_str(&text).map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

/// Validates a document; warnings go to stderr, broken rules become the failure.
pub fn validated(doc: &Document, topology: &Topology) -> Result<Validated, Failure> {
    match validate(doc, topology) {
        Ok(validated) => {
            for warning in &validated.warnings {
                eprintln!("{warning}");
            }
            Ok(validated)
        }
        Err(rejected) => {
            let mut lines: Vec<String> = rejected.warnings.iter().map(|w| w.to_string()).collect();
            lines.extend(rejected.problems.iter().map(|p| p.to_string()));
            Err(Failure::rules(lines))
        }
    }
}

/// The switch a replay or simulation runs: configuration, ports, identity.
#[derive(clap::Args, Clone, Debug)]
pub struct SwitchArgs {
    /// The switch's `typedParameters` JSON; the default configuration when left out
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Ports with a link, numbered 0..N-1
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=reference::limits::MAX_PORTS as i64))]
    pub connected_ports: u32,
    /// How many of the ports (the highest-numbered) are uplinks; the rest face NICs
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub uplinks: u32,
    /// Node id: sets the ECMP salt and the random seeds
    #[arg(long, value_name = "ID", default_value_t = 0)]
    pub node_id: u32,
    /// Simulation seed of the random draws (ECN marking, flowlet ties)
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Run number, mixed into the flowlet draw's seed
    #[arg(long, value_name = "R", default_value_t = 0)]
    pub run: u32,
}

/// Refuses more uplinks than connected ports.
pub fn check_uplinks(uplinks: u32, connected_ports: u32) -> Result<(), Failure> {
    if uplinks > connected_ports {
        return Err(Failure::input(format!(
            "--uplinks {uplinks}: more uplinks than the {connected_ports} connected ports (--connected-ports)")));
    }
    Ok(())
}

/// Loads, validates and plans the configuration and builds the switch.
pub fn build_switch(args: &SwitchArgs) -> Result<Switch, Failure> {
    let doc = load_document(args.config.as_deref())?;
    let ports = args.connected_ports;
    check_uplinks(args.uplinks, ports)?;
    let config = validated(&doc, &Topology { connected_ports: Some(ports), nic_models: vec![] })?.config;
    let plan = BufferPlan::derive(&config, ports).map_err(|e| Failure::rules(vec![e.to_string()]))?;
    let port_map = PortMap::from_config(&config, ports as usize, args.uplinks as usize);
    let identity = SwitchIdentity { node_id: args.node_id, sim_seed: args.seed, run: args.run };
    Switch::new(&config, plan, port_map, identity, UetCodepoints::default())
        .map_err(|e| Failure::rules(vec![e.to_string()]))
}
