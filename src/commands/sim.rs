//! `sswitch sim`: the main job, and `sswitch scenario`: the built-ins.

use super::{load_document, CommandResult, Failure};
use reference::sim::scenario::{check_simulation_name, parse_time_ps};
use reference::sim::{built_in, built_in_summary, Progress, ProgressReport, Scenario, SimError, SimOptions, BUILT_IN};
use reference::switch::SwitchIdentity;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
#[command(long_about = "Simulates one switch with the reference blocks: senders behind its ports that honour \
    PFC, strict-priority egress that honours received pauses, ECN marking, ECMP/flowlet balancing, trimming. \
    Writes the vendor's records as CSV ({simulation}-{record}-0.csv) and prints a summary whose \
    conservation line must balance. Scenarios: a built-in name (see `sswitch scenario`) or a JSON file.")]
pub struct SimArgs {
    /// The switch's `typedParameters`; the default configuration when left out
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// A built-in scenario name or a scenario JSON file
    #[arg(long, value_name = "NAME|FILE", default_value = "default")]
    pub scenario: String,
    /// Folder for the CSV records
    #[arg(long = "out", value_name = "DIR", default_value = "sim-out")]
    pub out: PathBuf,
    /// Simulation seed (ECN draws, flowlet ties)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run number, mixed into the flowlet draw's seed
    #[arg(long, default_value_t = 0)]
    pub run: u32,
    /// Node id of the switch (ECMP salt, seeds)
    #[arg(long, default_value_t = 1)]
    pub node_id: u32,
    /// Simulated time, overriding the scenario's, e.g. 200us
    #[arg(long, value_name = "T")]
    pub duration: Option<String>,
    /// Also write every switch event in the replay format (JSON lines)
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// The simulation's name in file names; the scenario's name by default
    #[arg(long)]
    pub name: Option<String>,
    /// Also draw the run's figures into OUT/figures (as `sswitch plot`)
    #[arg(long)]
    pub plot: bool,
    /// No progress bar (it is drawn only when stderr is a terminal)
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// A progress bar on stderr in simulated time, with events/s and the time
/// left, when stderr is a terminal and the user did not ask for quiet.
fn progress_bar(quiet: bool, duration_ps: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(duration_ps / 1_000_000);
    let style = indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} us simulated, {msg}, {eta} left")
        .expect("a valid template");
    bar.set_style(style);
    bar.set_message("starting");
    Some(bar)
}

fn progress_of(bar: &indicatif::ProgressBar) -> Progress {
    let bar = bar.clone();
    let started = std::time::Instant::now();
    Progress(std::sync::Arc::new(move |r: ProgressReport| {
        bar.set_position(r.simulated_ps / 1_000_000);
        bar.set_message(format!("{:.2} M events/s", r.switch_events as f64 / started.elapsed().as_secs_f64() / 1e6));
    }))
}

fn load_scenario(spec: &str) -> Result<Scenario, Failure> {
    if let Some(s) = built_in(spec) {
        return Ok(s);
    }
    let path = Path::new(spec);
    if !path.exists() {
        return Err(Failure::input(format!("scenario {spec:?} is neither a built-in ({}) nor a file", BUILT_IN.join(", "))));
    }
    let text = std::fs::read_to_string(path).map_err(|e| Failure::input(format!("cannot read scenario {spec}: {e}")))?;
    Scenario::from_json(&text).map_err(|e| Failure::input(format!("{spec}: {e}")))
}

pub fn run(a: SimArgs) -> CommandResult {
    let doc = load_document(a.config.as_deref())?;
    let mut scenario = load_scenario(&a.scenario)?;
    if let Some(d) = &a.duration {
        parse_time_ps("--duration", d).map_err(Failure::input)?;
        scenario.duration = d.clone();
    }
    let checked = scenario.check().map_err(|e| Failure::input(format!("{}: {e}", a.scenario)))?;
    if let Some(name) = &a.name {
        check_simulation_name("--name", name).map_err(Failure::input)?;
    }
    let name = a.name.clone().unwrap_or_else(|| checked.name.clone());
    let identity = SwitchIdentity { node_id: a.node_id, sim_seed: a.seed, run: a.run };
    let bar = progress_bar(a.quiet, checked.duration_ps);
    let options = SimOptions {
        node_id: a.node_id,
        component_name: format!("switch-{}", a.node_id),
        progress: bar.as_ref().map(progress_of),
        record_files: Some((a.out.clone(), name.clone())),
    };
    let trace_partial = a.trace.as_ref().map(|p| p.with_extension("jsonl.partial"));
    if let Some(parent) = trace_partial.as_ref().and_then(|p| p.parent()).filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| Failure::input(format!("cannot create {}: {e}", parent.display())))?;
    }
    let mut trace_file = match &trace_partial {
        Some(p) => Some(BufWriter::new(std::fs::File::create(p).map_err(|e| Failure::input(format!("cannot write {}: {e}", p.display())))?)),
        None => None,
    };
    let trace: Option<&mut dyn std::io::Write> = trace_file.as_mut().map(|w| w as &mut dyn std::io::Write);
    let result = reference::sim::run(&doc, &checked, identity, options, trace).map_err(|e| match e {
        SimError::Config(lines) => Failure::rules(lines),
        SimError::Scenario(e) => Failure::input(format!("{}: {e}", a.scenario)),
        SimError::Io(e) => Failure::input(format!("cannot write the trace or the records to {}: {e}", a.out.display())),
    });
    drop(trace_file);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let result = match result {
        Ok(r) => r,
        Err(f) => {
            if let Some(p) = &trace_partial {
                let _ = std::fs::remove_file(p);
            }
            return Err(f);
        }
    };
    if let (Some(partial), Some(path)) = (&trace_partial, &a.trace) {
        std::fs::rename(partial, path).map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))?;
    }
    for warning in &result.warnings {
        eprintln!("{warning}");
    }
    println!("scenario {name}: {} ports", checked.ports());
    println!("capacity         {}", result.capacity);
    println!("{}", result.summary);
    for path in &result.written {
        println!("wrote {}", path.display());
    }
    if !result.summary.balances() {
        return Err(Failure::rules(vec!["error: the conservation line does not balance (a model bug: please report it)".into()]));
    }
    if a.plot {
        let plotted = super::plot::draw(&a.out, &name, &a.out.join("figures"))?;
        for figure in &plotted.figures {
            println!("wrote {}", figure.png.display());
            println!("wrote {}", figure.svg.display());
        }
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct ScenarioArgs {
    /// A built-in scenario to print as JSON (a template for your own); lists them when left out
    pub name: Option<String>,
}

pub fn show(a: ScenarioArgs) -> CommandResult {
    match a.name {
        None => {
            for name in BUILT_IN {
                println!("{name:<22} {}", built_in_summary(name).unwrap_or_default());
            }
            Ok(())
        }
        Some(name) => {
            let s = built_in(&name).ok_or_else(|| Failure::input(format!("{name:?} is not one of {}", BUILT_IN.join(", "))))?;
            let value = serde_json::json!({
                "name": s.name, "duration": s.duration, "config_patch": s.config_patch,
                "ports": {"downlinks": s.ports.downlinks, "uplinks": s.ports.uplinks,
                          "downlink_peer_rate_gbps": s.ports.downlink_peer_rate_gbps,
                          "uplink_peer_rate_gbps": s.ports.uplink_peer_rate_gbps,
                          "downlink_peer_delay": s.ports.downlink_peer_delay},
                "flows": s.flows.iter().map(|f| serde_json::json!({
                    "name": f.name, "ingress_port": f.ingress_port, "members": f.members, "dscp": f.dscp, "ecn": f.ecn,
                    "bytes": f.bytes, "rate_gbps": f.rate_gbps, "start": f.start, "stop": f.stop, "proto": f.proto,
                    "src": f.src, "dst": f.dst, "sport": f.sport, "dport": f.dport, "count": f.count,
                })).collect::<Vec<_>>(),
                "peer_pauses": s.peer_pauses.iter().map(|p| serde_json::json!({
                    "port": p.port, "classes": p.classes, "quanta": p.quanta, "at": p.at, "every": p.every, "until": p.until,
                })).collect::<Vec<_>>(),
            });
            println!("{}", serde_json::to_string_pretty(&value).expect("JSON"));
            Ok(())
        }
    }
}
