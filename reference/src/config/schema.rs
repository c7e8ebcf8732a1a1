//! The switch's attribute table: every attribute of the configuration page,
//! where it sits, its type, unit, default, description, range and allowed
//! values. The default document is generated from this table.

use super::units::AttrType;
use serde_json::{Map, Value};

/// A default value, written as the platform writes it.
#[derive(Clone, Copy, Debug)]
pub enum DefaultValue {
    /// A JSON number, kept as text so it stays exact (`0.10`, `51200`).
    Number(&'static str),
    Bool(bool),
    Text(&'static str),
}

/// One attribute of the switch component.
#[derive(Clone, Copy, Debug)]
pub struct AttrSpec {
    /// Sub-component path from the top of `typedParameters` (empty: top level).
    pub component: &'static [&'static str],
    pub name: &'static str,
    pub ty: AttrType,
    pub unit: Option<&'static str>,
    pub default: DefaultValue,
    /// Allowed range, as JSON number text in the attribute's default unit.
    pub min: Option<&'static str>,
    pub max: Option<&'static str>,
    pub allowed: &'static [&'static str],
    /// True for the eight-entry list attributes (strings like `[0, 1, ...]`).
    pub is_list: bool,
    pub description: &'static str,
}

impl AttrSpec {
    /// Dotted path, e.g. `SharedBufferManager.PoolAllocationMap`.
    pub fn path(&self) -> std::string::String {
        let mut parts: Vec<&str> = self.component.to_vec();
        parts.push(self.name);
        parts.join(".")
    }

    pub fn default_value(&self) -> Value {
        default_to_value(self.default)
    }

    /// The attribute object as the platform writes it in a new switch.
    pub fn default_object(&self) -> Value {
        let mut object = Map::new();
        object.insert("value".into(), self.default_value());
        object.insert("type".into(), Value::String(self.ty.name().into()));
        if let Some(unit) = self.unit {
            object.insert("unit".into(), Value::String(unit.into()));
        }
        object.insert("default".into(), self.default_value());
        object.insert("description".into(), Value::String(self.description.into()));
        if let Some(min) = self.min {
            object.insert("min".into(), number(min));
        }
        if let Some(max) = self.max {
            object.insert("max".into(), number(max));
        }
        if !self.allowed.is_empty() {
            let values = self.allowed.iter().map(|v| Value::String((*v).into())).collect();
            object.insert("enum".into(), Value::Array(values));
        }
        Value::Object(object)
    }
}

fn number(text: &str) -> Value {
    serde_json::from_str(text).expect("schema numbers are valid JSON")
}

fn default_to_value(default: DefaultValue) -> Value {
    match default {
        DefaultValue::Number(text) => number(text),
        DefaultValue::Bool(b) => Value::Bool(b),
        DefaultValue::Text(s) => Value::String(s.into()),
    }
}

/// Component paths, outermost first. `NetworkInterface` holds only
/// sub-components.
pub const COMPONENTS: &[&[&str]] = &[
    &["NetworkInterface"],
    &["NetworkInterface", "UplinkNetworkInterface"],
    &["NetworkInterface", "DownlinkNetworkInterface"],
    &["NetworkInterface", "TransmissionMedium"],
    &["PacketTrimmer"],
    &["LoadBalancingFlowlet"],
    &["SharedBufferManager"],
    &["EcnHandler"],
];

pub const HASH_METHODS: &[&str] =
    &["dpr", "hash", "hashWithSalt", "crc32", "crc32WithSalt", "dprWithFallback"];
pub const LOAD_BALANCING_METHODS: &[&str] = &["none", "flowlet"];

const TOP: &[&str] = &[];
const UPLINK: &[&str] = &["NetworkInterface", "UplinkNetworkInterface"];
const DOWNLINK: &[&str] = &["NetworkInterface", "DownlinkNetworkInterface"];
const MEDIUM: &[&str] = &["NetworkInterface", "TransmissionMedium"];
const TRIMMER: &[&str] = &["PacketTrimmer"];
const FLOWLET: &[&str] = &["LoadBalancingFlowlet"];
const SBM: &[&str] = &["SharedBufferManager"];
const ECN: &[&str] = &["EcnHandler"];

const fn attr(
    component: &'static [&'static str],
    name: &'static str,
    ty: AttrType,
    unit: Option<&'static str>,
    default: DefaultValue,
    description: &'static str,
) -> AttrSpec {
    AttrSpec {
        component,
        name,
        ty,
        unit,
        default,
        min: None,
        max: None,
        allowed: &[],
        is_list: false,
        description,
    }
}

const fn ranged(mut spec: AttrSpec, min: &'static str, max: Option<&'static str>) -> AttrSpec {
    spec.min = Some(min);
    spec.max = max;
    spec
}

const fn one_of(mut spec: AttrSpec, allowed: &'static [&'static str]) -> AttrSpec {
    spec.allowed = allowed;
    spec
}

const fn list(mut spec: AttrSpec) -> AttrSpec {
    spec.is_list = true;
    spec
}

use AttrType::*;
use DefaultValue::{Bool as B, Number as N, Text as T};

/// Every attribute of the configuration page, in the page's order.
pub const ATTRIBUTES: &[AttrSpec] = &[
    attr(TOP, "NumUpLinks", Uint, None, N("64"), "Number of uplink ports (advisory)."),
    attr(TOP, "NumDownLinks", Uint, None, N("64"), "Number of downlink ports (advisory)."),
    attr(TOP, "NumUpLinksPerSwitch", Uint, None, N("8"), "Parallel uplink connections to each uplink peer switch."),
    attr(TOP, "SwitchingCapacity", Datarate, Some("Gbps"), N("51200"), "Compared with the sum of port speeds to report oversubscription; does not limit forwarding."),
    one_of(attr(TOP, "EcmpHashMethod", String, None, T("crc32WithSalt"), "Hash that sets a flow's identity for equal-cost path selection."), HASH_METHODS),
    one_of(attr(TOP, "LoadBalancingMethod", String, None, T("none"), "Load balancing across an equal-cost set: none (hash modulo set size) or flowlet."), LOAD_BALANCING_METHODS),
    attr(TOP, "EnableLoadBalancingStats", Bool, None, B(true), "Write the load balancing interval record."),
    ranged(attr(TOP, "LoadBalancingStatsReportInterval", Timeval, Some("ms"), N("1"), "Spacing between rows of the load balancing record; minimum 10us."), "0.01", None),
    attr(UPLINK, "DataRate", Datarate, Some("Gbps"), N("400"), "Link speed of the uplink interfaces."),
    attr(DOWNLINK, "DataRate", Datarate, Some("Gbps"), N("400"), "Link speed of the downlink interfaces."),
    attr(MEDIUM, "Delay", Timeval, Some("ns"), N("500"), "Propagation delay of the links to this switch's uplink peers."),
    attr(TRIMMER, "TrimmingEnabled", Bool, None, B(false), "Reduce eligible packets to headers during congestion instead of dropping them."),
    attr(TRIMMER, "TrimmingStatsEnabled", Bool, None, B(false), "Report packet trimming statistics."),
    ranged(attr(FLOWLET, "Gap", Timeval, Some("us"), N("100"), "Idle period after which a flow's equal-cost member is selected again; 0s selects per packet."), "0", Some("2000000")),
    attr(FLOWLET, "PFCAware", Bool, None, B(true), "Prefer members whose egress port is not PFC-paused for the packet's class."),
    attr(SBM, "TotalSharedBufferSize", Bytes, Some("MB"), N("256"), "Total packet buffer; headroom is reserved first, pools share the rest."),
    attr(SBM, "UETPolicyEnabled", Bool, None, B(false), "Partition the buffer as UET 1.0 recommends: three pools 1.5 : 1 : 1, classes from DSCP codepoints."),
    list(attr(SBM, "PoolAllocationMap", String, None, T("[0.9, 0.1, 0, 0, 0, 0, 0, 0]"), "Fraction of the buffer after headroom given to each pool (index = pool)."),),
    list(attr(SBM, "TrafficClassPoolMapping", String, None, T("[0, 1, 0, 0, 0, 0, 0, 0]"), "Pool of each traffic class (index = traffic class)."),),
    list(attr(SBM, "EnablePFC", String, None, T("[1, 1, 0, 0, 0, 0, 0, 0]"), "1 makes the traffic class at that index lossless (PFC), 0 lossy."),),
    attr(SBM, "HeadRoomPerPortLimit", Bytes, Some("KB"), N("256"), "Headroom reserved per connected port; a paused port may hold this much per lossless pool."),
    attr(SBM, "StaticPoolXoffThreshold", Bytes, Some("KB"), N("700"), "Ingress occupancy per port and pool above which a PFC pause is sent."),
    attr(SBM, "StaticPoolXonThreshold", Bytes, Some("KB"), N("300"), "Ingress occupancy per port and pool at or below which a PFC resume is sent."),
    ranged(attr(SBM, "LossyAlpha", Double, None, N("1.0"), "Multiplier on a pool's free egress space giving a lossy queue's limit; 0 selects a fixed limit."), "0", None),
    attr(SBM, "QueueDropThresholdEnable", Bool, None, B(false), "With LossyAlpha 0: cap each lossy queue at QueueDropThreshold x PlaneBDP instead of pool / ports."),
    attr(SBM, "QueueDropThreshold", Uint, None, N("5"), "Lossy egress queue size as a multiple of PlaneBDP."),
    attr(SBM, "PlaneBDP", Bytes, Some("KB"), N("300"), "The fabric's bandwidth-delay product."),
    attr(SBM, "BufferStatsReportInterval", Timeval, Some("ms"), N("1"), "Spacing between rows of the buffer statistics record."),
    attr(ECN, "EnableEcn", Bool, None, B(true), "Consider ECT packets for ECN marking."),
    ranged(attr(ECN, "EwmaWeight", Double, None, N("0.10"), "Weight of the moving average of egress queue usage."), "0", Some("1")),
    ranged(attr(ECN, "MinThreshold", Double, None, N("0.2"), "Fraction of the static queue limit below which no packet is marked."), "0", Some("1")),
    ranged(attr(ECN, "MaxThreshold", Double, None, N("0.8"), "Fraction of the static queue limit at or above which every ECT packet is marked."), "0", Some("1")),
    ranged(attr(ECN, "MaxMarkProbability", Double, None, N("1.0"), "Highest marking probability between the two thresholds."), "0", Some("1")),
];

/// The attribute at a dotted path, if the switch has one.
pub fn find(component: &[&str], name: &str) -> Option<&'static AttrSpec> {
    ATTRIBUTES.iter().find(|a| a.component == component && a.name == name)
}

/// Whether `path` names a sub-component of the switch.
pub fn is_component(path: &[&str]) -> bool {
    COMPONENTS.contains(&path)
}

/// The full default `typedParameters` document.
pub fn default_document() -> Value {
    let mut root = Value::Object(Map::new());
    for spec in ATTRIBUTES {
        let mut node = &mut root;
        for part in spec.component {
            node = node
                .as_object_mut()
                .expect("components are objects")
                .entry(part.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
        }
        node.as_object_mut()
            .expect("components are objects")
            .insert(spec.name.into(), spec.default_object());
    }
    root
}
