//! Reads a document into a [`SwitchConfig`] and applies every rule: the
//! document's own form (types, units, values), the documented ranges, and
//! the eleven configuration rules that stop a run. All problems are
//! reported together; warnings name what the switch accepts but the user
//! probably did not mean.

use super::document::{is_attribute, json_kind, show, Document};
use super::lists::{parse_numbers, parse_whole_numbers};
use super::schema::{self, AttrSpec, ATTRIBUTES};
use super::switch_config::*;
use super::units::{decimal_from_json_number, format_time_ps, to_base_units, AttrType, MAX_BYTES};
use rust_decimal::Decimal;
use serde_json::{Map, Value};
use std::fmt;

/// Facts from the topology that some rules need.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Topology {
    /// Ports with a link; None when unknown (the headroom rule is then skipped).
    pub connected_ports: Option<u32>,
    /// NIC models present in the topology, as named by the user.
    pub nic_models: Vec<String>,
}

/// What kind of rule a problem breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// The document's form: unknown key, wrong type, bad unit or value.
    Document,
    /// A value outside the range the configuration page documents.
    Range,
    /// One of the configuration rules that stop a simulation.
    StopRule,
    /// A value the page allows but this model (reference and hardware)
    /// cannot hold: a fixed-point or register width, or a rate or delay
    /// outside [`crate::limits`].
    ModelLimit,
}

/// A broken rule: the attribute(s), the value and the rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub kind: ProblemKind,
    pub path: String,
    pub value: String,
    pub rule: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.kind {
            ProblemKind::Document => "invalid",
            ProblemKind::Range => "out of range",
            ProblemKind::StopRule => "stops the run",
            ProblemKind::ModelLimit => "beyond the model's limits",
        };
        if self.value.is_empty() {
            write!(f, "{label}: {}: {}", self.path, self.rule)
        } else {
            write!(f, "{label}: {} = {}: {}", self.path, self.value, self.rule)
        }
    }
}

/// Something accepted that deserves the user's attention.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    pub path: String,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "warning: {}: {}", self.path, self.message)
    }
}

#[derive(Clone, Debug)]
pub struct Validated {
    pub config: SwitchConfig,
    pub warnings: Vec<Warning>,
}

#[derive(Clone, Debug)]
pub struct Rejected {
    pub problems: Vec<Problem>,
    pub warnings: Vec<Warning>,
}

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.problems.iter().map(|p| p.to_string()).collect();
        f.write_str(&lines.join("\n"))
    }
}

/// An attribute's value in base units.
#[derive(Clone, Debug, PartialEq)]
enum AttrValue {
    Uint(u64),
    Bool(bool),
    Number(Decimal),
    Text(String),
    /// bytes, bits per second or picoseconds
    Base(u64),
}

/// Validates a document against the switch's rules.
pub fn validate(doc: &Document, topology: &Topology) -> Result<Validated, Rejected> {
    let mut v = Validator { problems: Vec::new(), warnings: Vec::new(), values: Vec::new(), shown: Vec::new(), failed: Vec::new() };
    v.check_keys(doc.root(), &[]);
    v.read_attributes(doc);
    let config = v.build_config();
    v.check_rules(doc, &config, topology);
    if v.problems.is_empty() {
        Ok(Validated { config, warnings: v.warnings })
    } else {
        Err(Rejected { problems: v.problems, warnings: v.warnings })
    }
}

struct Validator {
    problems: Vec<Problem>,
    warnings: Vec<Warning>,
    /// Aligned with ATTRIBUTES: the value read (or its default), None if bad.
    values: Vec<Option<AttrValue>>,
    /// Aligned with ATTRIBUTES: the value as written, for messages.
    shown: Vec<String>,
    /// Paths of attributes that broke a rule of their own; they read as
    /// their Default so that every other rule can still be checked, and
    /// the rules that involve them are skipped.
    failed: Vec<String>,
}

impl Validator {
    fn problem(&mut self, kind: ProblemKind, path: impl Into<String>, value: impl Into<String>, rule: impl Into<String>) {
        self.problems.push(Problem { kind, path: path.into(), value: value.into(), rule: rule.into() });
    }

    fn warn(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.warnings.push(Warning { path: path.into(), message: message.into() });
    }

    /// Every key must be a known sub-component or attribute, in its form.
    fn check_keys(&mut self, node: &Map<String, Value>, at: &[&str]) {
        for (key, value) in node {
            let mut path: Vec<&str> = at.to_vec();
            path.push(key);
            let dotted = path.join(".");
            let known_attr = schema::find(at, key).is_some();
            let known_component = schema::is_component(&path);
            match (is_attribute(value), value.as_object()) {
                (true, _) if known_attr => {}
                (true, _) if known_component => self.problem(
                    ProblemKind::Document, dotted, "", "is a sub-component, but an attribute object was sent",
                ),
                (false, Some(inner)) if known_component => self.check_keys(inner, &path),
                (false, Some(_)) if known_attr => self.problem(
                    ProblemKind::Document, dotted, "", "is an attribute, but an object without a string `type` was sent",
                ),
                (false, None) if known_attr || known_component => self.problem(
                    ProblemKind::Document, dotted, show(value),
                    format!("must be an object, found {}", json_kind(value)),
                ),
                _ => self.problem(ProblemKind::Document, dotted, "", "unknown attribute or sub-component of the switch"),
            }
        }
    }

    fn read_attributes(&mut self, doc: &Document) {
        for spec in ATTRIBUTES {
            let (value, shown) = match lookup(doc, spec) {
                Lookup::Present(object) => {
                    let shown = object.get("value").map(show).unwrap_or_default();
                    let value = self.read_attribute(spec, object).unwrap_or_else(|| {
                        self.failed.push(spec.path());
                        default_of(spec)
                    });
                    (Some(value), shown)
                }
                Lookup::Omitted => {
                    self.warn(spec.path(), format!(
                        "omitted from a supplied sub-component: the platform runs the model's built-in value there, \
                         which can differ from the Default; this model uses the Default {}",
                        show(&spec.default_value())
                    ));
                    (Some(default_of(spec)), show(&spec.default_value()))
                }
                Lookup::Defaulted => (Some(default_of(spec)), show(&spec.default_value())),
            };
            self.values.push(value);
            self.shown.push(shown);
        }
    }

    fn read_attribute(&mut self, spec: &AttrSpec, object: &Map<String, Value>) -> Option<AttrValue> {
        let path = spec.path();
        let declared = object.get("type").and_then(Value::as_str).unwrap_or_default();
        if declared != spec.ty.name() {
            self.problem(ProblemKind::Document, &path, format!("{{type: {declared:?}}}"),
                format!("type must be \"{}\"", spec.ty));
            return None;
        }
        let Some(value) = object.get("value") else {
            self.problem(ProblemKind::Document, &path, "", "has no `value`");
            return None;
        };
        match read_value(spec, value, object.get("unit")) {
            Ok(v) => Some(v),
            Err(rule) => {
                let mut shown = show(value);
                if let Some(unit) = object.get("unit") {
                    shown = format!("{shown} {}", show(unit));
                }
                self.problem(ProblemKind::Document, &path, shown, rule);
                None
            }
        }
    }

    fn index(component: &[&str], name: &str) -> usize {
        ATTRIBUTES
            .iter()
            .position(|a| a.component == component && a.name == name)
            .expect("attribute names used by the validator exist in the schema")
    }

    fn get(&self, component: &[&str], name: &str) -> Option<&AttrValue> {
        self.values.get(Self::index(component, name))?.as_ref()
    }

    fn shown(&self, component: &[&str], name: &str) -> String {
        self.shown[Self::index(component, name)].clone()
    }

    fn uint(&self, c: &[&str], n: &str) -> Option<u64> {
        match self.get(c, n)? { AttrValue::Uint(u) | AttrValue::Base(u) => Some(*u), _ => None }
    }
    fn flag(&self, c: &[&str], n: &str) -> Option<bool> {
        match self.get(c, n)? { AttrValue::Bool(b) => Some(*b), _ => None }
    }
    fn number(&self, c: &[&str], n: &str) -> Option<Decimal> {
        match self.get(c, n)? { AttrValue::Number(d) => Some(*d), _ => None }
    }
    fn text(&self, c: &[&str], n: &str) -> Option<String> {
        match self.get(c, n)? { AttrValue::Text(s) => Some(s.clone()), _ => None }
    }

    /// Builds the typed configuration. Broken list attributes (stop rules
    /// 1 and 2) and out-of-range values are reported here.
    fn build_config(&mut self) -> SwitchConfig {
        self.try_build_config().expect("every attribute holds a value of its type")
    }

    fn try_build_config(&mut self) -> Option<SwitchConfig> {
        const SBM: &[&str] = &["SharedBufferManager"];
        const ECN: &[&str] = &["EcnHandler"];
        let pool_allocation = self.pool_allocation().unwrap_or_else(|| {
            self.list_fallback("PoolAllocationMap", |t| parse_numbers(t).ok())
        });
        let tc_pool = self.tc_pool_mapping().unwrap_or_else(|| {
            self.list_fallback("TrafficClassPoolMapping", |t| parse_whole_numbers(t).ok().map(|l| l.map(|p| p as u8)))
        });
        let pfc_enabled = self.enable_pfc().unwrap_or_else(|| {
            self.list_fallback("EnablePFC", |t| parse_whole_numbers(t).ok().map(|l| l.map(|f| f == 1)))
        });
        let ecn = EcnConfig {
            enable: self.flag(ECN, "EnableEcn")?,
            ewma_weight: self.fraction(ECN, "EwmaWeight"),
            min_threshold: self.fraction(ECN, "MinThreshold"),
            max_threshold: self.fraction(ECN, "MaxThreshold"),
            max_mark_probability: self.fraction(ECN, "MaxMarkProbability"),
        };
        let lossy_alpha = self.fraction(SBM, "LossyAlpha");
        let buffer = BufferConfig {
            total_bytes: self.uint(SBM, "TotalSharedBufferSize")?,
            uet_policy: self.flag(SBM, "UETPolicyEnabled")?,
            pool_allocation,
            tc_pool,
            pfc_enabled,
            headroom_per_port_bytes: self.uint(SBM, "HeadRoomPerPortLimit")?,
            xoff_bytes: self.uint(SBM, "StaticPoolXoffThreshold")?,
            xon_bytes: self.uint(SBM, "StaticPoolXonThreshold")?,
            lossy_alpha,
            queue_drop_threshold_enable: self.flag(SBM, "QueueDropThresholdEnable")?,
            queue_drop_threshold: self.uint(SBM, "QueueDropThreshold")?,
            plane_bdp_bytes: self.uint(SBM, "PlaneBDP")?,
            stats_interval_ps: self.uint(SBM, "BufferStatsReportInterval")?,
        };
        let top: &[&str] = &[];
        Some(SwitchConfig {
            num_uplinks: self.uint(top, "NumUpLinks")?,
            num_downlinks: self.uint(top, "NumDownLinks")?,
            num_uplinks_per_switch: self.uint(top, "NumUpLinksPerSwitch")?,
            switching_capacity_bps: self.uint(top, "SwitchingCapacity")?,
            ecmp_hash_method: HashMethod::from_name(&self.text(top, "EcmpHashMethod")?)?,
            load_balancing: match self.text(top, "LoadBalancingMethod")?.as_str() {
                "flowlet" => LoadBalancing::Flowlet,
                _ => LoadBalancing::None,
            },
            lb_stats_enabled: self.flag(top, "EnableLoadBalancingStats")?,
            lb_stats_interval_ps: self.uint(top, "LoadBalancingStatsReportInterval")?,
            uplink_rate_bps: self.uint(&["NetworkInterface", "UplinkNetworkInterface"], "DataRate")?,
            downlink_rate_bps: self.uint(&["NetworkInterface", "DownlinkNetworkInterface"], "DataRate")?,
            uplink_delay_ps: self.uint(&["NetworkInterface", "TransmissionMedium"], "Delay")?,
            trimming_enabled: self.flag(&["PacketTrimmer"], "TrimmingEnabled")?,
            trimming_stats_enabled: self.flag(&["PacketTrimmer"], "TrimmingStatsEnabled")?,
            flowlet: FlowletConfig {
                gap_ps: self.uint(&["LoadBalancingFlowlet"], "Gap")?,
                pfc_aware: self.flag(&["LoadBalancingFlowlet"], "PFCAware")?,
            },
            buffer,
            ecn,
        })
    }

    /// A `double` checked against its documented range (its Default when not).
    fn fraction(&mut self, c: &[&str], n: &str) -> Decimal {
        let spec = schema::find(c, n).expect("known attribute");
        let fallback = || match default_of(spec) {
            AttrValue::Number(d) => d,
            _ => unreachable!("double attributes default to numbers"),
        };
        let Some(value) = self.number(c, n) else { return fallback() };
        let min = spec.min.and_then(decimal_from_json_number);
        let max = spec.max.and_then(decimal_from_json_number);
        let below = min.is_some_and(|m| value < m);
        let above = max.is_some_and(|m| value > m);
        if below || above {
            let range = match (spec.min, spec.max) {
                (Some(lo), Some(hi)) => format!("must be within {lo} to {hi}"),
                (Some(lo), None) => format!("must be at least {lo}"),
                _ => "is out of range".into(),
            };
            self.problem(ProblemKind::Range, spec.path(), value.to_string(), range);
            self.failed.push(spec.path());
            return fallback();
        }
        value
    }

    /// The value of a list attribute that broke its rules: its Default.
    fn list_fallback<T>(&mut self, name: &str, parse: impl Fn(&str) -> Option<T>) -> T {
        self.failed.push(format!("SharedBufferManager.{name}"));
        let spec = schema::find(&["SharedBufferManager"], name).expect("known list");
        let text = spec.default_value();
        parse(text.as_str().expect("lists are strings")).expect("list defaults parse")
    }

    fn has_failed(&self, paths: &[&str]) -> bool {
        paths.iter().any(|p| self.failed.iter().any(|f| f == p))
    }

    fn list_text(&self, name: &str) -> Option<String> {
        self.text(&["SharedBufferManager"], name)
    }

    fn pool_allocation(&mut self) -> Option<[Decimal; CLASSES]> {
        let text = self.list_text("PoolAllocationMap")?;
        let path = "SharedBufferManager.PoolAllocationMap";
        match parse_numbers(&text) {
            Err(e) => {
                self.problem(ProblemKind::StopRule, path, show(&Value::String(text)),
                    format!("{e}: PoolAllocationMap must have exactly eight numeric entries"));
                None
            }
            Ok(entries) => {
                let mut ok = true;
                for (pool, share) in entries.iter().enumerate() {
                    if *share < Decimal::ZERO || *share > Decimal::ONE {
                        self.problem(ProblemKind::Range, format!("{path}[{pool}]"), share.to_string(),
                            "a pool's fraction must be within 0.0 to 1.0");
                        ok = false;
                    }
                }
                ok.then_some(entries)
            }
        }
    }

    fn whole_list(&mut self, name: &str) -> Option<[i64; CLASSES]> {
        let text = self.list_text(name)?;
        match parse_whole_numbers(&text) {
            Ok(entries) => Some(entries),
            Err(e) => {
                self.problem(ProblemKind::StopRule, format!("SharedBufferManager.{name}"),
                    show(&Value::String(text)),
                    format!("{e}: {name} must have exactly eight whole-number entries"));
                None
            }
        }
    }

    fn tc_pool_mapping(&mut self) -> Option<[u8; CLASSES]> {
        let entries = self.whole_list("TrafficClassPoolMapping")?;
        let mut out = [0u8; CLASSES];
        let mut ok = true;
        for (tc, pool) in entries.iter().enumerate() {
            match u8::try_from(*pool) {
                Ok(p) if (p as usize) < CLASSES => out[tc] = p,
                _ => {
                    self.problem(ProblemKind::Range, format!("SharedBufferManager.TrafficClassPoolMapping[{tc}]"),
                        pool.to_string(), "a pool number must be within 0 to 7");
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    fn enable_pfc(&mut self) -> Option<[bool; CLASSES]> {
        let entries = self.whole_list("EnablePFC")?;
        let mut out = [false; CLASSES];
        let mut ok = true;
        for (tc, flag) in entries.iter().enumerate() {
            match flag {
                0 => out[tc] = false,
                1 => out[tc] = true,
                _ => {
                    self.problem(ProblemKind::Range, format!("SharedBufferManager.EnablePFC[{tc}]"),
                        flag.to_string(), "each entry must be 1 (lossless) or 0 (lossy)");
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    /// Stop rules 3 to 11, and the warnings that go with them.
    fn check_rules(&mut self, doc: &Document, config: &SwitchConfig, topology: &Topology) {
        let buffer = &config.buffer;
        let pam_path = "SharedBufferManager.PoolAllocationMap";
        let pam_shown = self.shown(&["SharedBufferManager"], "PoolAllocationMap");
        let last_nonzero = buffer.pool_allocation.iter().rposition(|s| !s.is_zero());
        let sum: Decimal = buffer.pool_allocation.iter().sum();
        match last_nonzero {
            _ if self.has_failed(&[pam_path]) => {}
            None => self.problem(ProblemKind::StopRule, pam_path, &pam_shown,
                "PoolAllocationMap has no non-zero entry"),
            Some(last) => {
                let last_share = buffer.pool_allocation[last];
                if sum - Decimal::ONE > last_share {
                    self.problem(ProblemKind::StopRule, pam_path, &pam_shown, format!(
                        "entries sum to {sum}, more than 1 by more than the last non-zero entry (pool {last}: {last_share})"));
                } else if sum != Decimal::ONE && !buffer.uet_policy {
                    self.warn(pam_path, format!(
                        "entries sum to {sum}, not 1: pool {last} absorbs the difference, but its ECN thresholds \
                         and fixed egress limit still come from its unadjusted size"));
                }
            }
        }

        let sbm = |n: &str| format!("SharedBufferManager.{n}");
        match topology.connected_ports {
            _ if self.has_failed(&["SharedBufferManager.HeadRoomPerPortLimit", "SharedBufferManager.TotalSharedBufferSize"]) => {}
            Some(ports) => {
                let headroom = buffer.headroom_per_port_bytes.saturating_mul(ports as u64);
                if headroom > buffer.total_bytes {
                    self.problem(ProblemKind::StopRule,
                        format!("{} x connected ports, {}", sbm("HeadRoomPerPortLimit"), sbm("TotalSharedBufferSize")),
                        format!("{} B x {ports} = {headroom} B > {} B", buffer.headroom_per_port_bytes, buffer.total_bytes),
                        "the total headroom is larger than TotalSharedBufferSize");
                }
            }
            None => self.warn(sbm("HeadRoomPerPortLimit"),
                "not checked against TotalSharedBufferSize: the number of connected ports is unknown (give --connected-ports)"),
        }

        if config.load_balancing == LoadBalancing::Flowlet && config.ecmp_hash_method.is_dpr()
            && !self.has_failed(&["LoadBalancingMethod", "EcmpHashMethod"])
        {
            self.problem(ProblemKind::StopRule, "LoadBalancingMethod, EcmpHashMethod",
                format!("\"flowlet\", {:?}", config.ecmp_hash_method.name()),
                "flowlet load balancing cannot run with the dpr or dprWithFallback hash");
        }

        let two_seconds = 2_000_000_000_000u64;
        if doc.component(&["LoadBalancingFlowlet"]).is_some() && config.flowlet.gap_ps > two_seconds
            && !self.has_failed(&["LoadBalancingFlowlet.Gap"])
        {
            self.problem(ProblemKind::StopRule, "LoadBalancingFlowlet.Gap", format_time_ps(config.flowlet.gap_ps),
                "Gap must be within 0s to 2s (checked whenever the configuration carries LoadBalancingFlowlet)");
        }

        if config.lb_stats_interval_ps < 10_000_000 && !self.has_failed(&["LoadBalancingStatsReportInterval"]) {
            self.problem(ProblemKind::StopRule, "LoadBalancingStatsReportInterval",
                format_time_ps(config.lb_stats_interval_ps), "must be at least 10us");
        }

        if buffer.uet_policy && !self.has_failed(&["SharedBufferManager.UETPolicyEnabled"]) {
            for nic in &topology.nic_models {
                if !is_uet_capable_nic(nic) {
                    self.problem(ProblemKind::StopRule, sbm("UETPolicyEnabled"), format!("true, NIC {nic:?}"),
                        "the UET policy needs every NIC to be the Scala UET NIC or the Scala MRC NIC");
                }
            }
        }

        let trimming = config.trimming_enabled && !self.has_failed(&["PacketTrimmer.TrimmingEnabled"]);
        if trimming && !buffer.uet_policy && !self.has_failed(&["SharedBufferManager.UETPolicyEnabled"]) {
            self.problem(ProblemKind::StopRule, "PacketTrimmer.TrimmingEnabled, SharedBufferManager.UETPolicyEnabled",
                "true, false", "packet trimming runs only under the UET policy");
        }
        if trimming && buffer.any_pfc() && !self.has_failed(&["SharedBufferManager.EnablePFC"]) {
            self.problem(ProblemKind::StopRule, "PacketTrimmer.TrimmingEnabled, SharedBufferManager.EnablePFC",
                format!("true, {}", self.shown(&["SharedBufferManager"], "EnablePFC")),
                "trimming cannot be combined with PFC: set every EnablePFC entry to 0");
        }

        if buffer.uet_policy && topology.nic_models.is_empty() {
            self.warn(sbm("UETPolicyEnabled"),
                "the NIC rule is not checked: the topology's NIC models are unknown (give --nic for each NIC model)");
        }

        self.check_model_limits(config);
        self.advise(config);
    }

    /// Values the page allows that the model's fixed point, registers or
    /// rate and delay limits cannot hold: refused by every command alike.
    fn check_model_limits(&mut self, config: &SwitchConfig) {
        use crate::limits::{MAX_DELAY_PS, MAX_LINK_RATE_BPS, MAX_REGISTER_BYTES, MIN_LINK_RATE_BPS};
        let buffer = &config.buffer;
        let alpha_path = "SharedBufferManager.LossyAlpha";
        if !buffer.uet_policy && !self.has_failed(&[alpha_path]) {
            if let Err(rule) = crate::buffer_manager::alpha_q10(buffer.lossy_alpha) {
                self.problem(ProblemKind::ModelLimit, alpha_path, buffer.lossy_alpha.to_string(), rule);
            }
        }
        for (component, rate) in [("UplinkNetworkInterface", config.uplink_rate_bps), ("DownlinkNetworkInterface", config.downlink_rate_bps)] {
            let path = format!("NetworkInterface.{component}.DataRate");
            if !(MIN_LINK_RATE_BPS..=MAX_LINK_RATE_BPS).contains(&rate) && !self.has_failed(&[path.as_str()]) {
                self.problem(ProblemKind::ModelLimit, &path, format!("{rate} b/s"), format!(
                    "a link rate must be within {MIN_LINK_RATE_BPS} b/s (0.01 Gbps, where a pause quantum still fits its \
                     32-bit register) and {MAX_LINK_RATE_BPS} b/s (100000 Gbps)"));
            }
        }
        let delay_path = "NetworkInterface.TransmissionMedium.Delay";
        if config.uplink_delay_ps > MAX_DELAY_PS && !self.has_failed(&[delay_path]) {
            self.problem(ProblemKind::ModelLimit, delay_path, format_time_ps(config.uplink_delay_ps), format!(
                "a link delay must be at most {} ns, what the 32-bit nanosecond delay register holds", MAX_DELAY_PS / 1000));
        }
        let fixed_by_qdt = if buffer.uet_policy { !config.trimming_enabled } else { buffer.lossy_alpha.is_zero() && buffer.queue_drop_threshold_enable };
        let qdt_paths = ["SharedBufferManager.QueueDropThreshold", "SharedBufferManager.PlaneBDP"];
        if fixed_by_qdt && !self.has_failed(&qdt_paths) {
            let limit = buffer.queue_drop_threshold as u128 * buffer.plane_bdp_bytes as u128;
            if limit > MAX_REGISTER_BYTES as u128 {
                self.problem(ProblemKind::ModelLimit, "SharedBufferManager.QueueDropThreshold x PlaneBDP",
                    format!("{} x {} B = {limit} B", buffer.queue_drop_threshold, buffer.plane_bdp_bytes),
                    format!("the fixed egress limit must be at most {MAX_REGISTER_BYTES} B, what its 32-bit register holds"));
            }
        }
        if buffer.uet_policy && !self.has_failed(&qdt_paths) {
            let fixed = if config.trimming_enabled { buffer.plane_bdp_bytes as u128 } else { buffer.queue_drop_threshold as u128 * buffer.plane_bdp_bytes as u128 };
            let retransmit = fixed * 3 / 2;
            if fixed <= MAX_REGISTER_BYTES as u128 && retransmit > MAX_REGISTER_BYTES as u128 {
                self.problem(ProblemKind::ModelLimit, "SharedBufferManager.PlaneBDP", format!("{fixed} B x 1.5 = {retransmit} B"),
                    format!("the UET trimmable-retransmit limit (1.5 x the fixed egress limit) must be at most {MAX_REGISTER_BYTES} B, \
                             what its 32-bit register holds"));
            }
        }
    }

    /// Warnings for settings the switch accepts but that rarely mean well.
    fn advise(&mut self, config: &SwitchConfig) {
        let buffer = &config.buffer;
        if config.trimming_stats_enabled && !config.trimming_enabled {
            self.warn("PacketTrimmer.TrimmingStatsEnabled", "has no effect without TrimmingEnabled");
        }
        if buffer.xon_bytes >= buffer.xoff_bytes && buffer.any_pfc() {
            self.warn("SharedBufferManager.StaticPoolXonThreshold", format!(
                "{} B is not below StaticPoolXoffThreshold {} B: no hysteresis band, a paused port resumes as soon as \
                 its headroom drains and the next arrival pauses it again", buffer.xon_bytes, buffer.xoff_bytes));
        }
        if config.ecn.min_threshold > config.ecn.max_threshold {
            self.warn("EcnHandler.MinThreshold", format!(
                "{} is above MaxThreshold {}: packets are marked at MaxThreshold and above, never with a probability",
                config.ecn.min_threshold, config.ecn.max_threshold));
        }
        if buffer.uet_policy {
            return;
        }
        for tc in 0..CLASSES {
            let pool = buffer.tc_pool[tc] as usize;
            if buffer.pfc_enabled[tc] && pool != tc {
                self.warn(format!("SharedBufferManager.TrafficClassPoolMapping[{tc}]"), format!(
                    "lossless TC{tc} maps to pool {pool}: PFC behaves as documented only when lossless class n maps to pool n"));
            }
            if buffer.pool_allocation[pool].is_zero() {
                self.warn(format!("SharedBufferManager.TrafficClassPoolMapping[{tc}]"), format!(
                    "TC{tc} maps to pool {pool}, which PoolAllocationMap leaves empty: every packet of the class is dropped"));
            }
        }
    }
}

/// Whether a NIC model named by the user is one the UET policy allows.
pub fn is_uet_capable_nic(name: &str) -> bool {
    let key: String = name.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
    matches!(key.as_str(), "scalauetnic" | "scalamrcnic" | "uetnic" | "mrcnic" | "uet" | "mrc")
}

enum Lookup<'a> {
    Present(&'a Map<String, Value>),
    /// The sub-component was supplied without this attribute.
    Omitted,
    /// Top-level attribute left out, or the sub-component left out entirely.
    Defaulted,
}

fn lookup<'a>(doc: &'a Document, spec: &AttrSpec) -> Lookup<'a> {
    match doc.component(spec.component) {
        None => Lookup::Defaulted,
        Some(component) => match component.get(spec.name) {
            Some(value) if is_attribute(value) => Lookup::Present(value.as_object().expect("attribute objects")),
            // Present in the wrong form: check_keys reports it; read the default.
            Some(_) => Lookup::Defaulted,
            None if spec.component.is_empty() => Lookup::Defaulted,
            None => Lookup::Omitted,
        },
    }
}

fn default_of(spec: &AttrSpec) -> AttrValue {
    let object = spec.default_object();
    read_value(spec, &object["value"], object.get("unit")).expect("schema defaults are valid")
}

/// Reads an attribute's `value` (and `unit`) as its type demands.
fn read_value(spec: &AttrSpec, value: &Value, unit: Option<&Value>) -> Result<AttrValue, String> {
    let ty = spec.ty;
    match ty {
        AttrType::Bool => value.as_bool().map(AttrValue::Bool).ok_or_else(|| "value must be true or false".into()),
        AttrType::String => {
            let text = value.as_str().ok_or("value must be a string")?;
            if !spec.allowed.is_empty() && !spec.allowed.contains(&text) {
                return Err(format!("value must be one of {}", spec.allowed.join(", ")));
            }
            Ok(AttrValue::Text(text.to_string()))
        }
        AttrType::Uint => {
            let number = exact_number(value)?;
            to_base_units(number, 1).map(AttrValue::Uint).ok_or_else(|| "value must be a whole number, 0 or more".into())
        }
        AttrType::Double => exact_number(value).map(AttrValue::Number),
        AttrType::Bytes | AttrType::Datarate | AttrType::Timeval => {
            let unit = unit.ok_or_else(|| format!("has no `unit` (one of {})", ty.unit_list()))?;
            let unit = unit.as_str().ok_or("unit must be a string")?;
            let factor = ty
                .unit_factor(unit)
                .ok_or_else(|| format!("unit {unit:?} is not one of {}", ty.unit_list()))?;
            let number = exact_number(value)?;
            let base = to_base_units(number, factor).ok_or_else(|| match ty {
                AttrType::Bytes => "value must be a whole number of bytes, 0 or more".to_string(),
                AttrType::Datarate => "value must be a whole number of bits per second, 0 or more".to_string(),
                _ => "value must be a whole number of picoseconds, 0 or more".to_string(),
            })?;
            if ty == AttrType::Bytes && base > MAX_BYTES {
                return Err(format!("{base} bytes is more than the largest bytes value, {MAX_BYTES}"));
            }
            Ok(AttrValue::Base(base))
        }
    }
}

fn exact_number(value: &Value) -> Result<Decimal, String> {
    match value {
        Value::Number(n) => decimal_from_json_number(&n.to_string())
            .ok_or_else(|| format!("value {n} cannot be held exactly")),
        other => Err(format!("value must be a number, found {}", json_kind(other))),
    }
}
