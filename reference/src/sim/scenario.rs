//! Simulation scenarios: the ports, the traffic and the peers' PFC frames,
//! as a documented JSON file or one of the built-ins.
//!
//! ```json
//! {
//!   "name": "incast",
//!   "duration": "1ms",
//!   "config_patch": { "LoadBalancingMethod": {"value": "flowlet", "type": "string"} },
//!   "ports": { "downlinks": 8, "uplinks": 4, "downlink_peer_rate_gbps": 400,
//!              "uplink_peer_rate_gbps": 400, "downlink_peer_delay": "500ns" },
//!   "flows": [
//!     { "name": "a", "ingress_port": 0, "members": [7], "dscp": 0, "ecn": "ect0",
//!       "bytes": 4000, "rate_gbps": 400, "start": "0us", "stop": "1ms", "count": 1 }
//!   ],
//!   "peer_pauses": [ { "port": 7, "classes": [2], "quanta": 65535, "at": "100us",
//!                      "every": "40us", "until": "300us" } ]
//! }
//! ```
//!
//! Ports `0..downlinks-1` face NICs, the next `uplinks` face switches. A
//! link runs at the lower of the two ends' rates; uplinks use this
//! switch's `Delay`, downlinks their peer's (`downlink_peer_delay`).
//! `count` > 1 makes that many flows differing in source port (sport,
//! sport+1, ...), sharing `rate_gbps` equally. A flow's rate counts wire
//! bytes (frame + 18 B Ethernet header and FCS).

use crate::config::units::{format_time_ps, AttrType};
use crate::limits::{
    MAX_DELAY_PS, MAX_LINK_RATE_BPS, MAX_PEER_PAUSE_FRAMES, MAX_PORTS, MAX_SIM_TIME_PS, MIN_FLOW_RATE_BPS, MIN_LINK_RATE_BPS,
};
use serde::Deserialize;
use serde_json::Value;
use std::net::Ipv4Addr;

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    #[serde(default = "default_duration")]
    pub duration: String,
    /// A platform patch applied to the configuration before the run.
    #[serde(default)]
    pub config_patch: Option<Value>,
    pub ports: PortsSpec,
    pub flows: Vec<FlowSpec>,
    #[serde(default)]
    pub peer_pauses: Vec<PeerPauseSpec>,
}

fn default_duration() -> String {
    "1ms".into()
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PortsSpec {
    pub downlinks: u16,
    #[serde(default)]
    pub uplinks: u16,
    #[serde(default = "default_rate")]
    pub downlink_peer_rate_gbps: f64,
    #[serde(default = "default_rate")]
    pub uplink_peer_rate_gbps: f64,
    #[serde(default = "default_delay")]
    pub downlink_peer_delay: String,
}

fn default_rate() -> f64 {
    400.0
}

fn default_delay() -> String {
    "500ns".into()
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    #[serde(default)]
    pub name: String,
    pub ingress_port: u16,
    pub members: Vec<u16>,
    #[serde(default)]
    pub dscp: u8,
    #[serde(default = "default_ecn")]
    pub ecn: String,
    pub bytes: u32,
    pub rate_gbps: f64,
    #[serde(default = "zero_time")]
    pub start: String,
    #[serde(default)]
    pub stop: Option<String>,
    #[serde(default = "default_proto")]
    pub proto: u8,
    #[serde(default = "default_src")]
    pub src: String,
    #[serde(default = "default_dst")]
    pub dst: String,
    #[serde(default = "default_sport")]
    pub sport: u16,
    #[serde(default = "default_dport")]
    pub dport: u16,
    #[serde(default = "one")]
    pub count: u16,
}

fn default_ecn() -> String {
    "ect0".into()
}
fn zero_time() -> String {
    "0ns".into()
}
fn default_proto() -> u8 {
    17
}
fn default_src() -> String {
    "10.0.0.1".into()
}
fn default_dst() -> String {
    "10.1.0.1".into()
}
fn default_sport() -> u16 {
    10_000
}
fn default_dport() -> u16 {
    4791
}
fn one() -> u16 {
    1
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PeerPauseSpec {
    pub port: u16,
    pub classes: Vec<u8>,
    #[serde(default = "full_quanta")]
    pub quanta: u16,
    pub at: String,
    #[serde(default)]
    pub every: Option<String>,
    #[serde(default)]
    pub until: Option<String>,
}

fn full_quanta() -> u16 {
    65535
}

/// A scenario problem, naming the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError(pub String);

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScenarioError {}

/// Parses `"500ns"`, `"1.5us"`, `"2ms"` into picoseconds.
pub fn parse_time_ps(field: &str, text: &str) -> Result<u64, ScenarioError> {
    let text = text.trim();
    let split = text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let bad = || ScenarioError(format!("{field}: {text:?} is not a time such as \"500ns\", \"10us\" or \"1ms\" (units ps, ns, us, ms, s)"));
    let factor = AttrType::Timeval.unit_factor(unit).ok_or_else(bad)?;
    let value = crate::config::units::decimal_from_json_number(number).ok_or_else(bad)?;
    crate::config::units::to_base_units(value, factor).ok_or_else(|| ScenarioError(format!(
        "{field}: {text:?} is negative, finer than 1 ps, or longer than a scenario may run ({}s)", MAX_SIM_TIME_PS / 1_000_000_000_000)))
}

/// A flow ready to run: times in ps, addresses as integers.
#[derive(Clone, Debug, PartialEq)]
pub struct Flow {
    pub name: String,
    /// The index of the `flows` entry it came from (`count` makes several).
    pub spec_index: usize,
    pub ingress_port: u16,
    pub members: Vec<u16>,
    pub dscp: u8,
    pub ecn: crate::switch::Ecn,
    pub bytes: u32,
    pub rate_bps: f64,
    pub start_ps: u64,
    pub stop_ps: u64,
    pub key: crate::ecmp_hash::FlowKey,
}

/// A scenario checked against itself: every field named in its errors.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedScenario {
    pub name: String,
    pub duration_ps: u64,
    pub config_patch: Option<Value>,
    pub downlinks: u16,
    pub uplinks: u16,
    pub downlink_peer_rate_bps: u64,
    pub uplink_peer_rate_bps: u64,
    pub downlink_peer_delay_ps: u64,
    pub flows: Vec<Flow>,
    pub peer_pauses: Vec<(u64, u16, u8, u16)>,
}

impl CheckedScenario {
    pub fn ports(&self) -> u16 {
        self.downlinks + self.uplinks
    }
}

/// A rate in Gbps as whole bits per second within `min_bps..=max_bps`.
fn gbps(field: &str, rate: f64, min_bps: u64, max_bps: u64) -> Result<u64, ScenarioError> {
    let gbps = |bps: u64| bps as f64 / 1e9;
    if rate.is_finite() && rate * 1e9 >= min_bps as f64 && rate * 1e9 <= max_bps as f64 {
        Ok((rate * 1e9).round() as u64)
    } else {
        Err(ScenarioError(format!("{field}: {rate} is not a rate in Gbps from {} to {}", gbps(min_bps), gbps(max_bps))))
    }
}

/// A scenario time, at most [`MAX_SIM_TIME_PS`].
fn time_ps(field: &str, text: &str) -> Result<u64, ScenarioError> {
    let ps = parse_time_ps(field, text)?;
    if ps > MAX_SIM_TIME_PS {
        return Err(ScenarioError(format!("{field}: {text:?} is later than {}s, the longest time a scenario may name", MAX_SIM_TIME_PS / 1_000_000_000_000)));
    }
    Ok(ps)
}

/// A simulation's name becomes part of its record files' names, so it may
/// hold only letters, digits, `.`, `_` and `-`, and starts with a letter or
/// digit: it can name no folder, and no file that looks like an option.
pub fn check_simulation_name(field: &str, name: &str) -> Result<(), ScenarioError> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    let starts_well = name.chars().next().is_some_and(|c| c.is_ascii_alphanumeric());
    if !starts_well || !name.chars().all(allowed) || name.len() > 100 {
        return Err(ScenarioError(format!(
            "{field}: {name:?} is not a simulation name: 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit \
             (it becomes part of the record files' names)")));
    }
    Ok(())
}

/// serde's words for integer types, as the ranges they mean.
fn readable_serde_error(message: &str) -> String {
    [("expected u8", "expected a whole number 0 to 255"), ("expected u16", "expected a whole number 0 to 65535"),
     ("expected u32", "expected a whole number 0 to 4294967295"), ("expected f64", "expected a number")]
        .iter()
        .fold(message.to_string(), |m, (from, to)| m.replace(from, to))
}

impl Scenario {
    /// Reads a scenario document; errors name the field path
    /// (`flows[0].ingress_port`) or the line and column of bad JSON.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        crate::strict_json::from_str(text).map_err(|e| ScenarioError(format!("scenario: not valid JSON: {e}")))?;
        // Read from the text, not the value: serde then names the number it refused.
        let mut deserializer = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
            let path = e.path().to_string();
            let message = readable_serde_error(&e.inner().to_string());
            if path == "." {
                ScenarioError(format!("scenario: {message}"))
            } else {
                ScenarioError(format!("scenario: {path}: {message}"))
            }
        })
    }

    /// Checks ranges and cross-references, and converts units.
    pub fn check(&self) -> Result<CheckedScenario, ScenarioError> {
        check_simulation_name("name", &self.name)?;
        let ports = self.ports.downlinks as u32 + self.ports.uplinks as u32;
        if !(1..=MAX_PORTS).contains(&ports) {
            return Err(ScenarioError(format!("ports: downlinks + uplinks = {ports}, must be 1 to {MAX_PORTS}")));
        }
        let duration_ps = time_ps("duration", &self.duration)?;
        if duration_ps == 0 {
            return Err(ScenarioError("duration: must be above 0".into()));
        }
        let port_ok = |field: String, p: u16| {
            if (p as u32) < ports { Ok(p) } else { Err(ScenarioError(format!("{field}: port {p} is not one of 0..{}", ports - 1))) }
        };
        let mut flows = Vec::new();
        for (i, f) in self.flows.iter().enumerate() {
            let at = |field: &str| format!("flows[{i}].{field}");
            port_ok(at("ingress_port"), f.ingress_port)?;
            if f.members.is_empty() || f.members.len() > crate::flowlet::MAX_MEMBERS {
                return Err(ScenarioError(format!("{}: 1 to 64 egress ports, not {}", at("members"), f.members.len())));
            }
            for (k, &m) in f.members.iter().enumerate() {
                port_ok(at("members"), m)?;
                if f.members[..k].contains(&m) {
                    return Err(ScenarioError(format!("{}: port {m} is listed twice; an equal-cost set names each member once", at("members"))));
                }
            }
            if f.dscp > 63 {
                return Err(ScenarioError(format!("{}: {} is not a DSCP value 0..63", at("dscp"), f.dscp)));
            }
            let ecn = match f.ecn.as_str() {
                "not_ect" => crate::switch::Ecn::NotEct,
                "ect0" => crate::switch::Ecn::Ect0,
                "ect1" => crate::switch::Ecn::Ect1,
                "ce" => crate::switch::Ecn::Ce,
                other => return Err(ScenarioError(format!("{}: {other:?} is not one of not_ect, ect0, ect1, ce", at("ecn")))),
            };
            if !(1..=9216).contains(&f.bytes) {
                return Err(ScenarioError(format!("{}: {} is not a frame size 1..9216 (bytes without Ethernet header)", at("bytes"), f.bytes)));
            }
            if f.count == 0 {
                return Err(ScenarioError(format!("{}: at least 1", at("count"))));
            }
            let rate = gbps(&at("rate_gbps"), f.rate_gbps, MIN_FLOW_RATE_BPS, MAX_LINK_RATE_BPS)? as f64;
            let start_ps = time_ps(&at("start"), &f.start)?;
            let stop_ps = match &f.stop {
                Some(s) => time_ps(&at("stop"), s)?,
                None => duration_ps,
            };
            if start_ps >= duration_ps {
                return Err(ScenarioError(format!("{}: {:?} is not before the end of the run ({})", at("start"), f.start, format_time_ps(duration_ps))));
            }
            if start_ps >= stop_ps {
                return Err(ScenarioError(format!("{}: {:?} is not before the flow's stop ({})", at("start"), f.start, format_time_ps(stop_ps))));
            }
            if f.sport as u32 + f.count as u32 - 1 > u16::MAX as u32 {
                return Err(ScenarioError(format!("{}: {} flows from sport {} would run past port 65535", at("count"), f.count, f.sport)));
            }
            let address = |field: &str, s: &str| {
                s.parse::<Ipv4Addr>().map(u32::from).map_err(|_| ScenarioError(format!("{}: {s:?} is not an IPv4 address", at(field))))
            };
            let (src, dst) = (address("src", &f.src)?, address("dst", &f.dst)?);

            for k in 0..f.count {
                flows.push(Flow {
                    name: if f.count == 1 { f.name.clone() } else { format!("{}#{k}", f.name) },
                    spec_index: i,
                    ingress_port: f.ingress_port,
                    members: f.members.clone(),
                    dscp: f.dscp,
                    ecn,
                    bytes: f.bytes,
                    rate_bps: rate / f.count as f64,
                    start_ps,
                    stop_ps,
                    key: crate::ecmp_hash::FlowKey { proto: f.proto, src, dst, sport: f.sport + k, dport: f.dport },
                });
            }
        }
        let mut peer_pauses = Vec::new();
        for (i, p) in self.peer_pauses.iter().enumerate() {
            let at = |field: &str| format!("peer_pauses[{i}].{field}");
            port_ok(at("port"), p.port)?;
            let mut mask = 0u8;
            for &c in &p.classes {
                if c > 7 {
                    return Err(ScenarioError(format!("{}: {c} is not a traffic class 0..7", at("classes"))));
                }
                if mask & (1 << c) != 0 {
                    return Err(ScenarioError(format!("{}: traffic class {c} is listed twice", at("classes"))));
                }
                mask |= 1 << c;
            }
            // A pause after the run's end (a shortened --duration) never comes.
            let first = time_ps(&at("at"), &p.at)?;
            match (&p.every, &p.until) {
                (None, None) => peer_pauses.push((first, p.port, mask, p.quanta)),
                (None, Some(_)) => {
                    return Err(ScenarioError(format!("{}: needs `every` (a single pause has no end time of its own)", at("until"))))
                }
                (Some(every), until) => {
                    let every = time_ps(&at("every"), every)?;
                    if every == 0 {
                        return Err(ScenarioError(format!("{}: must be above 0", at("every"))));
                    }
                    let until = match until {
                        Some(u) => time_ps(&at("until"), u)?,
                        None => duration_ps,
                    };
                    if until < first {
                        return Err(ScenarioError(format!("{}: {} is before `at` ({})", at("until"), format_time_ps(until), p.at)));
                    }
                    let frames = match until.min(duration_ps).checked_sub(first) {
                        Some(span) => span / every + 1,
                        None => 0,
                    };
                    if frames > MAX_PEER_PAUSE_FRAMES {
                        return Err(ScenarioError(format!(
                            "{}: every {} from {} makes {frames} pause frames, more than the {MAX_PEER_PAUSE_FRAMES} one entry may make",
                            at("every"), format_time_ps(every), p.at)));
                    }
                    peer_pauses.extend((0..frames).map(|k| (first + k * every, p.port, mask, p.quanta)));
                }
            }
        }
        peer_pauses.sort();
        Ok(CheckedScenario {
            name: self.name.clone(),
            duration_ps,
            config_patch: self.config_patch.clone(),
            downlinks: self.ports.downlinks,
            uplinks: self.ports.uplinks,
            downlink_peer_rate_bps: gbps("ports.downlink_peer_rate_gbps", self.ports.downlink_peer_rate_gbps, MIN_LINK_RATE_BPS, MAX_LINK_RATE_BPS)?,
            uplink_peer_rate_bps: gbps("ports.uplink_peer_rate_gbps", self.ports.uplink_peer_rate_gbps, MIN_LINK_RATE_BPS, MAX_LINK_RATE_BPS)?,
            downlink_peer_delay_ps: {
                let delay = parse_time_ps("ports.downlink_peer_delay", &self.ports.downlink_peer_delay)?;
                if delay > MAX_DELAY_PS {
                    return Err(ScenarioError(format!("ports.downlink_peer_delay: {:?} is longer than {} ns, what the 32-bit delay register holds",
                        self.ports.downlink_peer_delay, MAX_DELAY_PS / 1000)));
                }
                delay
            },
            flows,
            peer_pauses,
        })
    }
}

/// Names of the built-in scenarios.
pub const BUILT_IN: &[&str] = &["default", "full-load", "mixed-12port", "incast", "incast-small-headroom", "fanout-none", "fanout-flowlet", "uet-trimming"];

/// What a built-in scenario is for, in one line.
pub fn built_in_summary(name: &str) -> Option<&'static str> {
    Some(match name {
        "default" => "the vendor's 128-port switch: background both ways, lossless and lossy incasts, flowlet over 64 uplinks, a pausing peer (500 us)",
        "full-load" => "128 ports at 100% offered load, flowlet over 64 uplinks (1 ms, the speed workload)",
        "mixed-12port" => "12 ports: lossless and lossy incast into one port, flowlet over 4 uplinks, a pausing peer (2 ms)",
        "incast" => "8 ports: six senders into one port, pauses, headroom, egress-limit drops, ECN marks (500 us)",
        "incast-small-headroom" => "8 ports: an incast with too little headroom for the round trip, lossless drops (300 us)",
        "fanout-none" => "12 ports: 32 flows over 4 uplinks by hash only (300 us)",
        "fanout-flowlet" => "12 ports: the same fan-out with flowlet balancing (300 us)",
        "uet-trimming" => "8 ports: UET policy with trimming into a congested port (300 us)",
        _ => return None,
    })
}

/// A built-in scenario by name. Built-ins report every 50 us unless they
/// say otherwise (the configuration's 1 ms default is longer than they run).
pub fn built_in(name: &str) -> Option<Scenario> {
    let text: &str = match name {
        "default" => &default_128_ports(),
        "full-load" => &full_load(128, "1ms"),
        "mixed-12port" => MIXED_12PORT,
        "incast" => INCAST,
        "incast-small-headroom" => INCAST_SMALL_HEADROOM,
        "fanout-none" => &FANOUT_NONE.replace("__FLOWS__", FANOUT_FLOWS),
        "fanout-flowlet" => &FANOUT_FLOWLET.replace("__FLOWS__", FANOUT_FLOWS),
        "uet-trimming" => UET_TRIMMING,
        _ => return None,
    };
    let mut scenario = Scenario::from_json(text).expect("built-in scenarios parse");
    let patch = scenario.config_patch.get_or_insert_with(|| serde_json::json!({}));
    let interval = serde_json::json!({"value": 50, "unit": "us", "type": "timeval"});
    let patch = patch.as_object_mut().expect("patches are objects");
    patch.entry("LoadBalancingStatsReportInterval").or_insert_with(|| interval.clone());
    let sbm = patch.entry("SharedBufferManager").or_insert_with(|| serde_json::json!({}));
    sbm.as_object_mut().expect("patches are objects").entry("BufferStatsReportInterval").or_insert(interval);
    Some(scenario)
}

/// The vendor's default switch: 64 downlinks (ports 0-63) and 64 uplinks
/// (64-127) at 400 Gbps, the uplinks being 8 peers x 8 parallel links, so
/// the equal-cost set towards the fabric is all 64 uplinks. The workload
/// gives every record something to say:
///
/// - background: downlinks 7-63 spray TC3 over the 64 uplinks with
///   flowlet balancing (a 2 us gap; each of a port's 32 flows sends a
///   frame every 5.3 us, so flowlets end between frames and move), and
///   uplinks 72-127 send TC3 down to downlinks 8-63;
/// - a lossless incast: uplinks 64-71 send TC0 to downlinks 0 and 1, four
///   senders at 300 Gbps onto each 400 Gbps port, which pause and resume;
/// - a lossy incast: downlinks 3-6 send TC2 to downlink 2 at 300 Gbps
///   each, which meets the egress limit, drops and is ECN-marked;
/// - the last uplink peer (ports 120-127) pauses TC3 every 40 us for
///   25.6 us until 300 us, so PFC-aware flowlet selection steers around it.
///
/// Statistics every 10 us, so that the figures of `sswitch plot` have 50
/// points.
fn default_128_ports() -> String {
    use serde_json::json;
    const DOWNLINKS: u16 = 64;
    let uplinks: Vec<u16> = (DOWNLINKS..2 * DOWNLINKS).collect();
    let host = |net: u16, p: u16| format!("10.{net}.{}.{}", p / 200, p % 200 + 1);
    let mut flows = Vec::new();
    for p in 7..DOWNLINKS {
        flows.push(json!({"name": "up", "ingress_port": p, "members": uplinks, "dscp": 24, "bytes": 4000,
            "rate_gbps": 200, "count": 32, "src": host(0, p), "dst": "10.9.0.1"}));
    }
    for (i, p) in (72..2 * DOWNLINKS).enumerate() {
        flows.push(json!({"name": "down", "ingress_port": p, "members": [8 + i as u16], "dscp": 24, "bytes": 4000,
            "rate_gbps": 200, "count": 4, "src": host(8, p), "dst": host(1, 8 + i as u16)}));
    }
    for (i, p) in (64..72u16).enumerate() {
        flows.push(json!({"name": "incast-lossless", "ingress_port": p, "members": [i as u16 % 2], "dscp": 0, "bytes": 4000,
            "rate_gbps": 300, "count": 2, "src": host(8, p), "dst": host(1, i as u16 % 2)}));
    }
    for p in 3..7u16 {
        flows.push(json!({"name": "incast-lossy", "ingress_port": p, "members": [2], "dscp": 16, "bytes": 1500,
            "rate_gbps": 300, "src": host(0, p), "dst": host(1, 2)}));
    }
    let peer_pauses: Vec<_> = (120..2 * DOWNLINKS)
        .map(|p| json!({"port": p, "classes": [3], "quanta": 20000, "at": "50us", "every": "40us", "until": "300us"}))
        .collect();
    let interval = json!({"value": 10, "unit": "us", "type": "timeval"});
    json!({
        "name": "default",
        "duration": "500us",
        "config_patch": {
            "LoadBalancingMethod": {"value": "flowlet", "type": "string"},
            "LoadBalancingFlowlet": {"Gap": {"value": 2, "unit": "us", "type": "timeval"}},
            "LoadBalancingStatsReportInterval": interval,
            "SharedBufferManager": {"LossyAlpha": {"value": 0, "type": "double"},
                                    "QueueDropThresholdEnable": {"value": true, "type": "bool"},
                                    "BufferStatsReportInterval": interval}},
        "ports": {"downlinks": DOWNLINKS, "uplinks": DOWNLINKS},
        "flows": flows,
        "peer_pauses": peer_pauses,
    })
    .to_string()
}

/// The switch of `ports` ports (half downlinks, half uplinks) at 100%
/// offered load for `duration`: every downlink sends 400 Gbps of TC3 in 8
/// flows sprayed over every uplink (at most 64) with flowlet balancing, and
/// every uplink sends 400 Gbps down to one downlink; 4,000 B frames. At 128
/// ports that is 51.2 Tb/s, about 1.6 M frames per ms. The speed workload of
/// `cargo bench --bench sim_speed`, and the built-in `full-load` (128 ports,
/// 1 ms).
pub fn full_load(ports: u16, duration: &str) -> String {
    use serde_json::json;
    let half = ports / 2;
    let uplinks: Vec<u16> = (half..ports).take(64).collect();
    let host = |net: u16, p: u16| format!("10.{net}.{}.{}", p / 200, p % 200 + 1);
    let mut flows = Vec::new();
    for p in 0..half {
        flows.push(json!({"name": "up", "ingress_port": p, "members": uplinks, "dscp": 24, "bytes": 4000, "rate_gbps": 400,
            "count": 8, "src": host(0, p), "dst": "10.9.0.1"}));
        flows.push(json!({"name": "down", "ingress_port": half + p, "members": [p], "dscp": 0, "bytes": 4000, "rate_gbps": 400,
            "src": host(8, p), "dst": host(1, p)}));
    }
    json!({
        "name": "full-load", "duration": duration,
        "config_patch": {"LoadBalancingMethod": {"value": "flowlet", "type": "string"},
                         "LoadBalancingFlowlet": {"Gap": {"value": 5, "unit": "us", "type": "timeval"}}},
        "ports": {"downlinks": half, "uplinks": half},
        "flows": flows,
    })
    .to_string()
}

/// The 12-port switch that was the default before the vendor's 128-port
/// one: incast of lossless TC0 and lossy TC2 into port 7 (pauses,
/// headroom, ECN marks, lossy drops at the fixed 1.5 MB queue limit), and a
/// flowlet fan-out over the four uplinks while a peer keeps pausing TC3 on
/// uplink 11 (PFC-aware selection).
const MIXED_12PORT: &str = r#"{
  "name": "mixed-12port",
  "duration": "2ms",
  "config_patch": {
    "LoadBalancingMethod": {"value": "flowlet", "type": "string"},
    "LoadBalancingFlowlet": {"Gap": {"value": 5, "unit": "us", "type": "timeval"}},
    "SharedBufferManager": {"TotalSharedBufferSize": {"value": 24, "unit": "MB", "type": "bytes"},
                            "LossyAlpha": {"value": 0, "type": "double"},
                            "QueueDropThresholdEnable": {"value": true, "type": "bool"}}},
  "ports": {"downlinks": 8, "uplinks": 4},
  "flows": [
    {"name": "incast-lossless", "ingress_port": 0, "members": [7], "dscp": 0, "bytes": 4000, "rate_gbps": 300, "count": 3},
    {"name": "incast-lossless", "ingress_port": 1, "members": [7], "dscp": 0, "bytes": 4000, "rate_gbps": 300, "count": 3, "src": "10.0.0.2"},
    {"name": "incast-lossy", "ingress_port": 2, "members": [7], "dscp": 16, "bytes": 1500, "rate_gbps": 200, "src": "10.0.0.3"},
    {"name": "fanout", "ingress_port": 3, "members": [8, 9, 10, 11], "dscp": 24, "bytes": 4000, "rate_gbps": 390, "count": 16, "src": "10.0.0.4", "dst": "10.2.0.1"},
    {"name": "fanout", "ingress_port": 4, "members": [8, 9, 10, 11], "dscp": 24, "bytes": 4000, "rate_gbps": 390, "count": 16, "src": "10.0.0.5", "dst": "10.2.0.2"},
    {"name": "fanout", "ingress_port": 5, "members": [8, 9, 10, 11], "dscp": 24, "bytes": 4000, "rate_gbps": 390, "count": 16, "src": "10.0.0.6", "dst": "10.2.0.3"}
  ],
  "peer_pauses": [{"port": 11, "classes": [3], "quanta": 20000, "at": "50us", "every": "40us", "until": "1ms"}]
}"#;

/// Six senders into one port: lossless TC0 pauses and uses headroom,
/// lossy TC2 fills the queue to the egress limit and drops, ECN marks.
const INCAST: &str = r#"{
  "name": "incast",
  "duration": "500us",
  "config_patch": {"SharedBufferManager": {"TotalSharedBufferSize": {"value": 16, "unit": "MB", "type": "bytes"}}},
  "ports": {"downlinks": 8},
  "flows": [
    {"name": "lossless", "ingress_port": 0, "members": [7], "dscp": 0, "bytes": 4000, "rate_gbps": 380, "count": 2},
    {"name": "lossless", "ingress_port": 1, "members": [7], "dscp": 0, "bytes": 4000, "rate_gbps": 380, "count": 2, "src": "10.0.0.2"},
    {"name": "lossless", "ingress_port": 2, "members": [7], "dscp": 0, "bytes": 4000, "rate_gbps": 380, "count": 2, "src": "10.0.0.3"},
    {"name": "lossy", "ingress_port": 3, "members": [7], "dscp": 16, "bytes": 1500, "rate_gbps": 380, "src": "10.0.0.4"},
    {"name": "lossy", "ingress_port": 4, "members": [7], "dscp": 16, "bytes": 1500, "rate_gbps": 380, "src": "10.0.0.5"},
    {"name": "lossy", "ingress_port": 5, "members": [7], "dscp": 16, "bytes": 1500, "rate_gbps": 380, "src": "10.0.0.6"}
  ]
}"#;

/// The incast with too little headroom for the link's round trip: the
/// sizing condition fails and lossless packets are dropped.
const INCAST_SMALL_HEADROOM: &str = r#"{
  "name": "incast-small-headroom",
  "duration": "300us",
  "config_patch": {"SharedBufferManager": {
    "TotalSharedBufferSize": {"value": 16, "unit": "MB", "type": "bytes"},
    "HeadRoomPerPortLimit": {"value": 12, "unit": "KB", "type": "bytes"}}},
  "ports": {"downlinks": 8, "downlink_peer_delay": "2us"},
  "flows": [
    {"name": "lossless", "ingress_port": 0, "members": [7], "dscp": 0, "bytes": 4000, "rate_gbps": 390},
    {"name": "lossless", "ingress_port": 1, "members": [7], "dscp": 0, "bytes": 4000, "rate_gbps": 390, "src": "10.0.0.2"},
    {"name": "lossless", "ingress_port": 2, "members": [7], "dscp": 0, "bytes": 4000, "rate_gbps": 390, "src": "10.0.0.3"}
  ]
}"#;

const FANOUT_FLOWS: &str = r#"[
    {"name": "fanout", "ingress_port": 0, "members": [8, 9, 10, 11], "dscp": 24, "bytes": 4000, "rate_gbps": 390, "count": 8, "src": "10.0.0.1"},
    {"name": "fanout", "ingress_port": 1, "members": [8, 9, 10, 11], "dscp": 24, "bytes": 4000, "rate_gbps": 390, "count": 8, "src": "10.0.0.2"},
    {"name": "fanout", "ingress_port": 2, "members": [8, 9, 10, 11], "dscp": 24, "bytes": 4000, "rate_gbps": 390, "count": 8, "src": "10.0.0.3"},
    {"name": "fanout", "ingress_port": 3, "members": [8, 9, 10, 11], "dscp": 24, "bytes": 4000, "rate_gbps": 390, "count": 8, "src": "10.0.0.4"}
  ]"#;

/// Four downlinks spraying 32 flows over four uplinks, hash only.
const FANOUT_NONE: &str = r#"{
  "name": "fanout-none",
  "duration": "300us",
  "config_patch": {"LoadBalancingMethod": {"value": "none", "type": "string"}},
  "ports": {"downlinks": 8, "uplinks": 4},
  "flows": __FLOWS__}"#;

/// The same fan-out with flowlet balancing. Each flow sends a frame every
/// 660 ns, so a 500 ns gap lets it move between frames.
const FANOUT_FLOWLET: &str = r#"{
  "name": "fanout-flowlet",
  "duration": "300us",
  "config_patch": {"LoadBalancingMethod": {"value": "flowlet", "type": "string"},
                   "LoadBalancingFlowlet": {"Gap": {"value": 500, "unit": "ns", "type": "timeval"}}},
  "ports": {"downlinks": 8, "uplinks": 4},
  "flows": __FLOWS__}"#;

/// UET policy with trimming: trimmable traffic into a congested port is
/// cut to headers and re-queued on TC1.
const UET_TRIMMING: &str = r#"{
  "name": "uet-trimming",
  "duration": "300us",
  "config_patch": {
    "SharedBufferManager": {"UETPolicyEnabled": {"value": true, "type": "bool"},
                            "EnablePFC": {"value": "[0, 0, 0, 0, 0, 0, 0, 0]", "type": "string"}},
    "PacketTrimmer": {"TrimmingEnabled": {"value": true, "type": "bool"},
                      "TrimmingStatsEnabled": {"value": true, "type": "bool"}}},
  "ports": {"downlinks": 8},
  "flows": [
    {"name": "trimmable", "ingress_port": 0, "members": [7], "dscp": 10, "bytes": 4000, "rate_gbps": 390},
    {"name": "trimmable", "ingress_port": 1, "members": [7], "dscp": 10, "bytes": 4000, "rate_gbps": 390, "src": "10.0.0.2"},
    {"name": "retransmit", "ingress_port": 2, "members": [7], "dscp": 12, "bytes": 4000, "rate_gbps": 200, "src": "10.0.0.3"},
    {"name": "no-trim", "ingress_port": 3, "members": [7], "dscp": 0, "bytes": 4000, "rate_gbps": 200, "src": "10.0.0.4"}
  ]
}"#;
