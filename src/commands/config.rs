//! `sswitch config`: the configuration document and its buffer plan.

use super::{check_uplinks, load_document, validated, CommandResult, Failure};
use reference::capacity::Oversubscription;
use clap::Subcommand;
use reference::config::{apply_patch, Topology};
use reference::BufferPlan;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum ConfigCommand {
    /// Print the full default configuration document (every attribute at its Default)
    Defaults,
    /// Check a configuration against every rule; exit 1 with one line per broken rule
    Check {
        /// The switch's `typedParameters` JSON document
        file: PathBuf,
        /// Ports with a link; needed for the headroom rule (skipped with a warning without it)
        #[arg(long, value_name = "N")]
        connected_ports: Option<u32>,
        /// A NIC model in the topology (repeatable), e.g. "Scala UET NIC"; needed for the UET policy rule
        #[arg(long = "nic", value_name = "MODEL")]
        nics: Vec<String>,
        /// How many of the connected ports are uplinks (the rest are downlinks), for the oversubscription report
        #[arg(long, value_name = "K", default_value_t = 0, requires = "connected_ports")]
        uplinks: u32,
    },
    /// Apply a platform parameter patch and print the merged document
    Patch {
        /// The stored `typedParameters` document
        file: PathBuf,
        /// The patch (nested JSON, as sent to PATCH .../parameters)
        patch_file: PathBuf,
    },
    /// Derive the buffer plan (headroom, pools, egress limits, ECN bands, PFC thresholds)
    Plan {
        /// The document; the default configuration when left out
        file: Option<PathBuf>,
        /// Ports with a link
        #[arg(long, value_name = "N")]
        connected_ports: u32,
        /// How many of the connected ports are uplinks (the rest are downlinks), for the oversubscription report
        #[arg(long, value_name = "K", default_value_t = 0)]
        uplinks: u32,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cmd: ConfigCommand) -> CommandResult {
    match cmd {
        ConfigCommand::Defaults => {
            println!("{}", reference::Document::defaults().to_json_pretty());
            Ok(())
        }
        ConfigCommand::Check { file, connected_ports, nics, uplinks } => {
            let doc = load_document(Some(&file))?;
            if let Some(ports) = connected_ports {
                check_uplinks(uplinks, ports)?;
            }
            let config = validated(&doc, &Topology { connected_ports, nic_models: nics })?.config;
            println!("{}: valid", file.display());
            if let Some(ports) = connected_ports {
                println!("capacity: {}", Oversubscription::new(&config, ports - uplinks, uplinks));
            }
            Ok(())
        }
        ConfigCommand::Patch { file, patch_file } => {
            let doc = load_document(Some(&file))?;
            let text = std::fs::read_to_string(&patch_file)
                .map_err(|e| Failure::input(format!("cannot read patch {}: {e}", patch_file.display())))?;
            let patch: serde_json::Value = reference::strict_json::from_str(&text)
                .map_err(|e| Failure::input(format!("{}: not valid JSON: {e}", patch_file.display())))?;
            match apply_patch(&doc, &patch) {
                Ok((merged, warnings)) => {
                    for w in warnings {
                        eprintln!("{w}");
                    }
                    println!("{}", merged.to_json_pretty());
                    Ok(())
                }
                Err(errors) => Err(Failure::rules(errors.iter().map(|e| e.to_string()).collect())),
            }
        }
        ConfigCommand::Plan { file, connected_ports, uplinks, json } => {
            let doc = load_document(file.as_deref())?;
            check_uplinks(uplinks, connected_ports)?;
            let topology = Topology { connected_ports: Some(connected_ports), nic_models: vec![] };
            let config = validated(&doc, &topology)?.config;
            let plan = BufferPlan::derive(&config, connected_ports).map_err(|e| Failure::rules(vec![e.to_string()]))?;
            let capacity = Oversubscription::new(&config, connected_ports - uplinks, uplinks);
            if json {
                let mut value = plan.to_json();
                value["oversubscription"] = capacity.to_json();
                println!("{}", serde_json::to_string_pretty(&value).expect("plan JSON"));
            } else {
                print!("{plan}");
                println!("capacity: {capacity}");
            }
            Ok(())
        }
    }
}
