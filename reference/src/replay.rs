//! Event replay: one JSON event per line in, one JSON result per event out.
//! This is the interface the hardware is checked through, so its field
//! names are fixed (see the README's "Event replay" section).

use crate::buffer_manager::{ChargedTo, PfcFrame};
use crate::config::CLASSES;
use crate::ecmp_hash::FlowKey;
use crate::limits::{MAX_RESENDS_PER_EVENT, MAX_TIME_NS};
use crate::switch::{Arrival, ArrivalOutcome, Ecn, Packet, Switch};
use serde_json::{json, Map, Value};
use std::fmt;
use std::net::Ipv4Addr;

/// A replay stopped at a line; nothing after it was processed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 1-based line number in the file.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} (seq {}): {}", self.line, self.line - 1, self.message)
    }
}

impl std::error::Error for ReplayError {}

/// A parsed event.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Arrive { t_ns: u64, port: u16, dscp: u8, ecn: Ecn, bytes: u32, key: FlowKey, members: Vec<u16> },
    TxStart { t_ns: u64, seq: u64 },
    Depart { t_ns: u64, seq: u64 },
    PfcRx { t_ns: u64, port: u16, classes: u8, quanta: u16 },
}

impl Event {
    /// The event as a replay line.
    pub fn to_json(&self) -> Value {
        match self {
            Event::Arrive { t_ns, port, dscp, ecn, bytes, key, members } => json!({
                "t_ns": t_ns, "kind": "arrive", "port": port, "dscp": dscp, "ecn": ecn_name(*ecn), "bytes": bytes,
                "proto": key.proto, "src": Ipv4Addr::from(key.src).to_string(), "dst": Ipv4Addr::from(key.dst).to_string(),
                "sport": key.sport, "dport": key.dport, "members": members,
            }),
            Event::TxStart { t_ns, seq } => json!({"t_ns": t_ns, "kind": "tx_start", "seq": seq}),
            Event::Depart { t_ns, seq } => json!({"t_ns": t_ns, "kind": "depart", "seq": seq}),
            Event::PfcRx { t_ns, port, classes, quanta } => json!({
                "t_ns": t_ns, "kind": "pfc_rx", "port": port, "classes": class_list(*classes), "quanta": quanta,
            }),
        }
    }

    pub fn t_ns(&self) -> u64 {
        match self {
            Event::Arrive { t_ns, .. } | Event::TxStart { t_ns, .. } | Event::Depart { t_ns, .. } | Event::PfcRx { t_ns, .. } => *t_ns,
        }
    }
}

/// What the replay knows of each seq.
#[derive(Clone, Copy, Debug)]
enum Seen {
    Other,
    Dropped,
    Admitted { packet: Packet, tx_started: bool },
    Departed,
}

/// The state replay lines refer to, kept the same way (and refused with
/// the same messages) by every engine: which seq is an admitted packet,
/// which has started transmission or departed, and the last time.
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    seen: Vec<Seen>,
    last_t_ns: u64,
}

impl Ledger {
    /// The seq of the next line.
    pub fn next_seq(&self) -> usize {
        self.seen.len()
    }

    pub fn last_t_ns(&self) -> u64 {
        self.last_t_ns
    }

    /// Refuses an event before the previous one, or out of order.
    pub fn check(&self, seq: u64, t: u64) -> Result<(), String> {
        if t < self.last_t_ns {
            return Err(format!("time goes backwards: t_ns {t} is before the previous event's {}", self.last_t_ns));
        }
        if seq as usize != self.seen.len() {
            return Err(format!("events must be applied in order: expected seq {}", self.seen.len()));
        }
        Ok(())
    }

    /// The packet of arrival `of`, if it may start transmission
    /// (`starting`) or depart now.
    pub fn admitted(&self, of: u64, starting: bool) -> Result<Packet, String> {
        match self.seen.get(of as usize) {
            None => Err(format!("seq {of} is not an earlier line")),
            Some(Seen::Other) => Err(format!("seq {of} is not an arrival")),
            Some(Seen::Dropped) => Err(format!("seq {of} was dropped, it cannot be transmitted")),
            Some(Seen::Departed) => Err(format!("seq {of} has already departed")),
            Some(Seen::Admitted { tx_started: true, .. }) if starting => Err(format!("seq {of} has already started transmission")),
            Some(Seen::Admitted { packet, .. }) => Ok(*packet),
        }
    }

    /// A blank line, or an event that is not an arrival, at time `t`.
    pub fn record_other(&mut self, t: u64) {
        self.seen.push(Seen::Other);
        self.last_t_ns = self.last_t_ns.max(t);
    }

    /// An arrival at `t`: its packet when admitted.
    pub fn record_arrival(&mut self, t: u64, packet: Option<Packet>) {
        self.seen.push(match packet {
            Some(packet) => Seen::Admitted { packet, tx_started: false },
            None => Seen::Dropped,
        });
        self.last_t_ns = t;
    }

    /// Packet `of` started transmission, as the line at `t`.
    pub fn record_tx_start(&mut self, t: u64, of: u64, packet: Packet) {
        self.seen[of as usize] = Seen::Admitted { packet, tx_started: true };
        self.record_other(t);
    }

    /// Packet `of` departed, as the line at `t`.
    pub fn record_depart(&mut self, t: u64, of: u64) {
        self.seen[of as usize] = Seen::Departed;
        self.record_other(t);
    }
}

/// Feeds events to a [`Switch`] and keeps the state the lines refer to.
pub struct Replayer {
    switch: Switch,
    ledger: Ledger,
    resends: Vec<PfcFrame>,
}

impl Replayer {
    pub fn new(switch: Switch) -> Replayer {
        Replayer { switch, ledger: Ledger::default(), resends: Vec::new() }
    }

    pub fn switch(&self) -> &Switch {
        &self.switch
    }

    /// Processes the next line (its seq is the number of lines before it).
    /// Blank lines count as lines but give no result.
    pub fn line(&mut self, text: &str) -> Result<Option<Value>, ReplayError> {
        let seq = self.ledger.next_seq();
        let fail = |message: String| ReplayError { line: seq + 1, message };
        if text.trim().is_empty() {
            self.ledger.record_other(0);
            return Ok(None);
        }
        let event = parse_event(text, self.switch.ports.len()).map_err(fail)?;
        self.apply(seq as u64, &event).map(Some).map_err(fail)
    }

    /// Applies one event as line `seq`.
    pub fn apply(&mut self, seq: u64, event: &Event) -> Result<Value, String> {
        let t = event.t_ns();
        self.ledger.check(seq, t)?;
        self.check_resend_flood(t)?;
        let mut result = match event {
            Event::Arrive { port, dscp, ecn, bytes, key, members, .. } => {
                let group = self.switch.register_group(members)?;
                let arrival = Arrival { port: *port, dscp: *dscp, ecn: *ecn, bytes: *bytes, key: *key, group };
                self.resend_due(t);
                let outcome = self.switch.arrive(t, &arrival);
                self.ledger.record_arrival(t, outcome.packet);
                arrival_json(seq, &outcome)
            }
            Event::TxStart { seq: of, .. } => {
                let packet = self.ledger.admitted(*of, true)?;
                self.resend_due(t);
                let marked = self.switch.tx_start(&packet);
                self.ledger.record_tx_start(t, *of, packet);
                json!({"seq": seq, "ecn_marked": marked})
            }
            Event::Depart { seq: of, .. } => {
                let packet = self.ledger.admitted(*of, false)?;
                self.resend_due(t);
                let resumed = self.switch.depart(&packet);
                self.ledger.record_depart(t, *of);
                json!({"seq": seq, "resume_sent": resumed})
            }
            Event::PfcRx { port, classes, quanta, .. } => {
                self.resend_due(t);
                let until = self.switch.pfc_received(t, *port, *classes, *quanta);
                self.ledger.record_other(t);
                json!({"seq": seq, "paused_until_ns": until})
            }
        };
        attach_resends(&mut result, &self.resends);
        self.resends.clear();
        Ok(result)
    }

    /// Refuses an event so far after a pause that the re-sends due before it
    /// would not fit in memory (see [`MAX_RESENDS_PER_EVENT`]).
    fn check_resend_flood(&self, t: u64) -> Result<(), String> {
        let due = self.switch.buffer.resends_due_count(t);
        if due > MAX_RESENDS_PER_EVENT {
            return Err(format!(
                "field `t_ns`: {t} ns is {} ns after the previous event while a port stays paused: {due} pause re-sends \
                 would fall due before it, more than the {MAX_RESENDS_PER_EVENT} one event may carry (replay the gap in shorter steps)",
                t - self.ledger.last_t_ns()
            ));
        }
        Ok(())
    }

    fn resend_due(&mut self, t: u64) {
        self.switch.due_resends(t, &mut self.resends);
    }

}

/// Adds the pause re-sends sent with a result line, if any.
pub fn attach_resends(result: &mut Value, frames: &[PfcFrame]) {
    if frames.is_empty() {
        return;
    }
    let frames: Vec<Value> = frames.iter().map(|f| json!({
        "t_ns": f.t_ns, "port": f.port, "pool": f.pool, "classes": class_list(f.classes), "quanta": f.quanta,
    })).collect();
    result.as_object_mut().expect("results are objects").insert("pause_resends".into(), Value::Array(frames));
}

pub fn ecn_name(ecn: Ecn) -> &'static str {
    match ecn {
        Ecn::NotEct => "not_ect",
        Ecn::Ect0 => "ect0",
        Ecn::Ect1 => "ect1",
        Ecn::Ce => "ce",
    }
}

fn class_list(mask: u8) -> Vec<u8> {
    (0..CLASSES as u8).filter(|tc| mask & (1 << tc) != 0).collect()
}

/// The result line of an arrival.
pub fn arrival_json(seq: u64, o: &ArrivalOutcome) -> Value {
    json!({
        "seq": seq,
        "admitted": o.admitted,
        "charged_to": o.charged_to.map(|c| match c { ChargedTo::Pool => "pool", ChargedTo::Headroom => "headroom" }),
        "drop": o.drop.map(|d| d.name()),
        "tc": o.tc,
        "pool": o.pool,
        "egress_port": o.egress_port,
        "flow_hash": o.flow_hash,
        "pause_sent": o.pause_sent,
        "trimmed": o.trimmed,
    })
}

/// Parses one event line for a switch with `ports` ports.
pub fn parse_event(text: &str, ports: usize) -> Result<Event, String> {
    let value: Value = crate::strict_json::from_str(text).map_err(|e| format!("not a JSON event: {e}"))?;
    let obj = value.as_object().ok_or("an event must be a JSON object")?;
    let f = Fields(obj);
    let t_ns = f.uint("t_ns", u64::MAX)?;
    if t_ns > MAX_TIME_NS {
        return Err(format!("field `t_ns`: {t_ns} is later than {MAX_TIME_NS} ns (1,000,000 s), the latest time a replay accepts"));
    }
    let port = |f: &Fields| -> Result<u16, String> {
        let p = f.uint("port", u16::MAX as u64)?;
        if p as usize >= ports {
            return Err(format!("field `port`: {p} is not one of the switch's ports 0..{}", ports.saturating_sub(1)));
        }
        Ok(p as u16)
    };
    let kind = f.text("kind")?;
    f.only(kind)?;
    match kind {
        "arrive" => Ok(Event::Arrive {
            t_ns,
            port: port(&f)?,
            dscp: f.uint("dscp", 63)? as u8,
            ecn: match f.0.get("ecn") {
                None => Ecn::NotEct,
                Some(_) => match f.text("ecn")? {
                    "not_ect" => Ecn::NotEct,
                    "ect0" => Ecn::Ect0,
                    "ect1" => Ecn::Ect1,
                    "ce" => Ecn::Ce,
                    other => return Err(format!("field `ecn`: {other:?} is not one of not_ect, ect0, ect1, ce")),
                },
            },
            bytes: {
                let b = f.uint("bytes", 65_535)?;
                if b == 0 {
                    return Err("field `bytes`: a frame has at least 1 byte".into());
                }
                b as u32
            },
            key: FlowKey {
                proto: f.opt_uint("proto", 255)?.unwrap_or(0) as u8,
                src: f.address("src")?,
                dst: f.address("dst")?,
                sport: f.opt_uint("sport", 65_535)?.unwrap_or(0) as u16,
                dport: f.opt_uint("dport", 65_535)?.unwrap_or(0) as u16,
            },
            members: {
                let list = f.0.get("members").and_then(Value::as_array).ok_or("field `members`: a list of egress ports is required")?;
                let mut members = Vec::with_capacity(list.len());
                for m in list {
                    match m.as_u64() {
                        Some(p) if members.contains(&(p as u16)) && (p as usize) < ports => {
                            return Err(format!("field `members`: port {p} is listed twice; an equal-cost set names each member once"))
                        }
                        Some(p) if (p as usize) < ports => members.push(p as u16),
                        _ => return Err(format!("field `members`: {m} is not one of the switch's ports 0..{}", ports.saturating_sub(1))),
                    }
                }
                members
            },
        }),
        "tx_start" => Ok(Event::TxStart { t_ns, seq: f.uint("seq", u64::MAX)? }),
        "depart" => Ok(Event::Depart { t_ns, seq: f.uint("seq", u64::MAX)? }),
        "pfc_rx" => Ok(Event::PfcRx {
            t_ns,
            port: port(&f)?,
            classes: {
                let list = f.0.get("classes").and_then(Value::as_array).ok_or("field `classes`: a list of traffic classes is required")?;
                let mut mask = 0u8;
                for c in list {
                    match c.as_u64() {
                        Some(tc) if tc < CLASSES as u64 && mask & (1 << tc) != 0 => {
                            return Err(format!("field `classes`: traffic class {tc} is listed twice"))
                        }
                        Some(tc) if tc < CLASSES as u64 => mask |= 1 << tc,
                        _ => return Err(format!("field `classes`: {c} is not a traffic class 0..7")),
                    }
                }
                mask
            },
            quanta: f.uint("quanta", 65_535)? as u16,
        }),
        other => Err(format!("field `kind`: {other:?} is not one of arrive, tx_start, depart, pfc_rx")),
    }
}

struct Fields<'a>(&'a Map<String, Value>);

/// The fields each kind of event may carry.
const EVENT_FIELDS: &[(&str, &[&str])] = &[
    ("arrive", &["t_ns", "kind", "port", "dscp", "ecn", "bytes", "proto", "src", "dst", "sport", "dport", "members"]),
    ("tx_start", &["t_ns", "kind", "seq"]),
    ("depart", &["t_ns", "kind", "seq"]),
    ("pfc_rx", &["t_ns", "kind", "port", "classes", "quanta"]),
];

impl Fields<'_> {
    /// Refuses a field the event's kind does not have (it would be ignored).
    fn only(&self, kind: &str) -> Result<(), String> {
        let Some((_, known)) = EVENT_FIELDS.iter().find(|(k, _)| *k == kind) else { return Ok(()) };
        match self.0.keys().find(|key| !known.contains(&key.as_str())) {
            Some(key) => Err(format!("field `{key}`: not a field of a `{kind}` event, whose fields are {}", known.join(", "))),
            None => Ok(()),
        }
    }

    fn text(&self, name: &str) -> Result<&str, String> {
        self.0.get(name).and_then(Value::as_str).ok_or_else(|| format!("field `{name}`: a string is required"))
    }

    fn opt_uint(&self, name: &str, max: u64) -> Result<Option<u64>, String> {
        match self.0.get(name) {
            None => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) if n <= max => Ok(Some(n)),
                _ => Err(format!("field `{name}`: {v} is not a whole number 0..{max}")),
            },
        }
    }

    fn uint(&self, name: &str, max: u64) -> Result<u64, String> {
        self.opt_uint(name, max)?.ok_or_else(|| format!("field `{name}` is required"))
    }

    fn address(&self, name: &str) -> Result<u32, String> {
        match self.0.get(name) {
            None => Ok(0),
            Some(Value::String(s)) => s
                .parse::<Ipv4Addr>()
                .map(u32::from)
                .map_err(|_| format!("field `{name}`: {s:?} is not an IPv4 address")),
            Some(v) => v
                .as_u64()
                .filter(|&n| n <= u32::MAX as u64)
                .map(|n| n as u32)
                .ok_or_else(|| format!("field `{name}`: {v} is not an IPv4 address")),
        }
    }
}
