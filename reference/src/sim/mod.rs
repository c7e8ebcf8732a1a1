//! The `sim` main job: one switch, event-driven, with the reference blocks,
//! writing the vendor's records.
//!
//! ```text
//!  scenario (JSON / built-in) ─► config_patch on the document ─► validate, plan
//!      ─► ports (link rate = lower end, delays) ─► Switch ─► engine ─► records + summary
//! ```

pub mod engine;
pub mod records;
pub mod scenario;
pub mod wake_queue;

pub use engine::{Progress, ProgressReport, SimOptions, SimResult, Simulation, Summary};
pub use scenario::{built_in, built_in_summary, full_load, CheckedScenario, Scenario, ScenarioError, BUILT_IN};

use crate::classify::UetCodepoints;
use crate::config::{apply_patch, validate, Document, SwitchConfig, Topology};
use crate::ports::{Port, PortMap};
use crate::switch::{Switch, SwitchIdentity};
use crate::BufferPlan;

/// Why a simulation could not start.
#[derive(Debug)]
pub enum SimError {
    Scenario(ScenarioError),
    /// Lines naming the broken rules.
    Config(Vec<String>),
    Io(std::io::Error),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Scenario(e) => write!(f, "{e}"),
            SimError::Config(lines) => write!(f, "{}", lines.join("\n")),
            SimError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SimError {}

/// The configuration a scenario runs: the document with the scenario's
/// patch applied, validated for its port count.
pub fn scenario_config(doc: &Document, scenario: &CheckedScenario) -> Result<(SwitchConfig, BufferPlan), SimError> {
    let doc = match &scenario.config_patch {
        Some(patch) => apply_patch(doc, patch)
            .map_err(|errors| SimError::Config(errors.iter().map(|e| format!("scenario config_patch: {e}")).collect()))?
            .0,
        None => doc.clone(),
    };
    let ports = scenario.ports() as u32;
    let config = validate(&doc, &Topology { connected_ports: Some(ports), nic_models: vec![] })
        .map_err(|r| SimError::Config(r.problems.iter().map(|p| p.to_string()).collect()))?
        .config;
    let plan = BufferPlan::derive(&config, ports).map_err(|e| SimError::Config(vec![e.to_string()]))?;
    Ok((config, plan))
}

/// The scenario's ports: a link runs at the lower end's rate; uplinks use
/// this switch's Delay, downlinks their peer's.
pub fn scenario_ports(config: &SwitchConfig, scenario: &CheckedScenario) -> PortMap {
    let down = Port {
        rate_bps: config.downlink_rate_bps.min(scenario.downlink_peer_rate_bps),
        delay_ps: scenario.downlink_peer_delay_ps,
        faces_nic: true,
    };
    let up = Port { rate_bps: config.uplink_rate_bps.min(scenario.uplink_peer_rate_bps), delay_ps: config.uplink_delay_ps, faces_nic: false };
    let mut ports = vec![down; scenario.downlinks as usize];
    ports.extend(std::iter::repeat_n(up, scenario.uplinks as usize));
    PortMap { ports }
}

/// Refuses a flow faster than its ingress link (each `flows` entry,
/// `count` flows together); returns a warning for each port whose flows
/// together offer more than its link carries (they then share the link).
pub fn check_flow_rates(ports: &PortMap, scenario: &CheckedScenario) -> Result<Vec<String>, ScenarioError> {
    let mut per_spec: Vec<(u16, f64)> = Vec::new();
    for f in &scenario.flows {
        if per_spec.len() <= f.spec_index {
            per_spec.resize(f.spec_index + 1, (f.ingress_port, 0.0));
        }
        per_spec[f.spec_index].1 += f.rate_bps;
    }
    let gbps = |bps: f64| format!("{}", bps / 1e9);
    let mut per_port = vec![0.0f64; ports.len()];
    for (i, &(port, rate)) in per_spec.iter().enumerate() {
        let link = ports.ports[port as usize].rate_bps as f64;
        if rate > link + 0.5 {
            return Err(ScenarioError(format!(
                "flows[{i}].rate_gbps: {} Gbps is above the {} Gbps link of its ingress port {port} (the lower of the two ends' rates)",
                gbps(rate), gbps(link))));
        }
        per_port[port as usize] += rate;
    }
    Ok(per_port
        .iter()
        .enumerate()
        .filter(|&(port, &offered)| offered > ports.ports[port].rate_bps as f64 + 0.5)
        .map(|(port, &offered)| format!(
            "warning: flows on ingress port {port} offer {} Gbps together, above its {} Gbps link: its sender shares the link \
             among them (higher class first, then the flow due earliest)", gbps(offered), gbps(ports.ports[port].rate_bps as f64)))
        .collect())
}

/// Runs a checked scenario on a configuration document.
pub fn run<'a>(
    doc: &Document,
    scenario: &'a CheckedScenario,
    identity: SwitchIdentity,
    options: SimOptions,
    trace: Option<&'a mut dyn std::io::Write>,
) -> Result<SimResult, SimError> {
    let (config, plan) = scenario_config(doc, scenario)?;
    let ports = scenario_ports(&config, scenario);
    let warnings = check_flow_rates(&ports, scenario).map_err(SimError::Scenario)?;
    let switch = Switch::new(&config, plan, ports, identity, UetCodepoints::default())
        .map_err(|e| SimError::Config(vec![e.to_string()]))?;
    let files = match &options.record_files {
        Some((dir, name)) => Some(records::RecordFiles::new(dir, name).map_err(SimError::Io)?),
        None => None,
    };
    let description = RunDescription::new(&config, &switch.plan, scenario, &options);
    let record_files = options.record_files.clone();
    let mut simulation = Simulation::new(switch, &config, scenario, options, trace);
    if let Some(files) = files {
        simulation = simulation.stream_records(files);
    }
    let mut result = simulation.run().map_err(SimError::Io)?;
    result.warnings = warnings;
    if let Some((dir, name)) = record_files {
        result.written.push(description.write(&dir, &name).map_err(SimError::Io)?);
    }
    Ok(result)
}

/// What `sswitch plot` needs to know about a run beyond its records,
/// written beside them as `{simulation}-run.json`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct RunDescription {
    pub scenario: String,
    pub component_name: String,
    pub downlinks: u16,
    pub uplinks: u16,
    pub duration_sec: f64,
    pub ecn_enabled: bool,
    /// The pools that exist (size above 0).
    pub pools: Vec<PoolDescription>,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct PoolDescription {
    pub pool: u8,
    pub size_bytes: u64,
    /// One egress queue's ECN band: no marks below the minimum, every ECT
    /// packet marked at or above the maximum (of the queue's moving average).
    pub ecn_min_bytes: u64,
    pub ecn_max_bytes: u64,
}

impl RunDescription {
    pub fn new(config: &SwitchConfig, plan: &BufferPlan, scenario: &CheckedScenario, options: &SimOptions) -> RunDescription {
        RunDescription {
            scenario: scenario.name.clone(),
            component_name: options.component_name.clone(),
            downlinks: scenario.downlinks,
            uplinks: scenario.uplinks,
            duration_sec: scenario.duration_ps as f64 / 1e12,
            ecn_enabled: config.ecn.enable,
            pools: (0u8..)
                .zip(&plan.pools)
                .filter(|(_, p)| p.size_bytes > 0)
                .map(|(pool, p)| PoolDescription { pool, size_bytes: p.size_bytes, ecn_min_bytes: p.ecn_min_bytes, ecn_max_bytes: p.ecn_max_bytes })
                .collect(),
        }
    }

    pub fn file_name(simulation: &str) -> String {
        format!("{simulation}-run.json")
    }

    /// Writes the description into `dir` (through a `.partial` file, so a
    /// failed write leaves nothing half-written).
    pub fn write(&self, dir: &std::path::Path, simulation: &str) -> std::io::Result<std::path::PathBuf> {
        let path = dir.join(Self::file_name(simulation));
        let partial = path.with_extension("json.partial");
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(&partial, text + "\n")?;
        std::fs::rename(&partial, &path)?;
        Ok(path)
    }
}
