//! Replay lines through the hardware switch datapath: the engines `hdl`
//! (rust_hdl) and `verilog` (its generated Verilog, compiled by
//! Verilator) of `sswitch replay`.
//!
//! ```text
//!  line ─► parse_event, Ledger (the reference's checks and messages)
//!       ─► tx_start, depart, pfc_rx: one input cycle each in the batch,
//!          one per clock, results held
//!       ─► arrive (or finish, or a full batch): the batch runs, idle until
//!          its last result; then the arrival alone: new set's writes, the
//!          event, idle until its result ─► CycleRunner (stepper | session)
//!       ─► result_valid cycles, in order ─► the same JSON as the
//!          reference's lines; resend_valid cycles ─► pause_resends
//! ```
//!
//! What differs from the reference, by design (see [`compare_engines`]):
//! * the pause re-sends come from the buffer manager's sweep as cycles
//!   pass, so a re-send can be reported on a later line than the
//!   reference reports it (a batch's re-sends go on its last line), or
//!   not at all when its pair resumed before the sweep reached it;
//! * times past 2^32 - 1 ns are refused (the hardware clock is 32 bits).

use crate::cosim::{Harness, Stepper};
use crate::switch_datapath_bench::{arrival_inputs, outputs, packet_inputs, register_image, set_writes, SwitchDatapathBench};
pub use crate::verilator::Until;
use crate::verilator::{VerilatedModel, VerilatedSession};
use hdl::switch_datapath::{arrival_cycles, longest_arrival_cycles, ConfigBlock, EventKind, STREAMED_EVENT_CYCLES};
use reference::buffer_manager::{ChargedTo, DropReason, PfcFrame, Tag};
use reference::config::LoadBalancing;
use reference::register_map::RegisterWrite;
use reference::replay::{arrival_json, attach_resends, parse_event, Event, Ledger, ReplayError, Replayer};
use reference::switch::{Arrival, ArrivalOutcome, Packet, Switch, SwitchIdentity};
use serde_json::{json, Value};
use std::collections::HashMap;

/// Runs windows of cycles and reports the cycles with something to say.
pub trait CycleRunner {
    /// Runs `window`, then its last cycle again as `until` asks (see
    /// [`Until`]); returns (cycle from the window's start, outputs) of the
    /// cycles in which `result_valid` or `resend_valid` is set.
    fn run(&mut self, window: &[Vec<u64>], until: Option<Until>) -> Result<Vec<(usize, Vec<u64>)>, String>;
}

const WATCHED: [usize; 2] = [outputs::result_valid, outputs::resend_valid];

/// The rust_hdl engine.
pub struct StepperRunner<H: Harness>(Stepper<H>);

impl<H: Harness> StepperRunner<H> {
    pub fn new(harness: &H) -> Self {
        StepperRunner(Stepper::new(harness, None))
    }
}

impl<H: Harness> CycleRunner for StepperRunner<H> {
    fn run(&mut self, window: &[Vec<u64>], until: Option<Until>) -> Result<Vec<(usize, Vec<u64>)>, String> {
        let mut seen = Vec::new();
        let mut fired = false;
        let mut step = |k: usize, inputs: &[u64], seen: &mut Vec<(usize, Vec<u64>)>| {
            let out = self.0.step(inputs);
            let now_fired = until.is_some_and(|u| out[u.output] != 0);
            if WATCHED.iter().any(|&i| out[i] != 0) {
                seen.push((k, out));
            }
            now_fired
        };
        for (k, inputs) in window.iter().enumerate() {
            fired |= step(k, inputs, &mut seen);
        }
        if let (Some(u), Some(last)) = (until, window.last()) {
            let mut k = window.len();
            while !fired && k < window.len() + u.more_cycles {
                fired = step(k, last, &mut seen);
                k += 1;
            }
        }
        Ok(seen)
    }
}

/// The Verilog engine: a Verilator session.
pub struct SessionRunner(VerilatedSession);

impl SessionRunner {
    /// Compiles (or reuses the cached model of) `verilog`, a datapath
    /// whose ports are those of harness `H`.
    pub fn new<H: Harness>(verilog: &str) -> Result<SessionRunner, String> {
        let model = VerilatedModel::build::<H>(verilog).map_err(|e| e.to_string())?;
        VerilatedSession::start::<H>(&model).map(SessionRunner)
    }
}

impl CycleRunner for SessionRunner {
    fn run(&mut self, window: &[Vec<u64>], until: Option<Until>) -> Result<Vec<(usize, Vec<u64>)>, String> {
        self.0.run(window, &WATCHED, until)
    }
}

/// The inputs of one cycle, all zero but the time.
fn idle(now: u64) -> Vec<u64> {
    let mut v = vec![0u64; crate::switch_datapath_bench::inputs::COUNT];
    v[crate::switch_datapath_bench::inputs::now_ns] = now;
    v
}

fn write(block: ConfigBlock, w: RegisterWrite, now: u64) -> Vec<u64> {
    use crate::switch_datapath_bench::inputs;
    let mut v = idle(now);
    v[inputs::cfg_write] = 1;
    v[inputs::cfg_block] = block.code();
    v[inputs::cfg_address] = w.address as u64;
    v[inputs::cfg_data] = w.data as u64;
    v
}

fn drop_reason(code: u64) -> Result<Option<DropReason>, String> {
    Ok(match code {
        0 => None,
        1 => Some(DropReason::HeadroomFull),
        2 => Some(DropReason::PoolFull),
        3 => Some(DropReason::EgressLimit),
        4 => Some(DropReason::EgressPool),
        other => return Err(format!("the hardware answered drop reason {other}, which has no name")),
    })
}

/// Replays lines through a datapath of `2^port_bits` ports and `tables`
/// flow tables, as [`reference::replay::Replayer`] does through the
/// reference.
pub struct DatapathReplayer<R: CycleRunner> {
    runner: R,
    ledger: Ledger,
    ports: usize,
    port_bits: usize,
    tables: usize,
    flowlet: bool,
    sets: Vec<Vec<u16>>,
    set_ids: HashMap<Vec<u16>, usize>,
    selected_sets: Vec<bool>,
    selected_count: usize,
    resends: Vec<PfcFrame>,
    /// Streamed events sent (their input cycles) whose results are not
    /// read yet, and the last one's time.
    batch: Vec<Vec<u64>>,
    held: Vec<Held>,
    batch_now: u64,
    /// Result lines complete and not returned yet.
    ready: Vec<Value>,
}

/// A streamed event in the batch: its line and kind.
struct Held {
    seq: u64,
    kind: EventKind,
}

/// Streamed events sent before their results are read (bounds the batch's
/// memory; a batch costs 6 idle cycles at its end).
pub const STREAM_BATCH: usize = 4096;

/// `n` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st, ...
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Equal-cost sets the datapath holds (its `ev_set` is 8 bits).
pub const DATAPATH_SETS: usize = 256;

impl<R: CycleRunner> DatapathReplayer<R> {
    /// Programs the datapath with `switch`'s registers and waits out the
    /// flowlet table's sweep (`2^(9 + log2 tables)` cycles).
    pub fn new(mut runner: R, switch: &Switch, identity: SwitchIdentity, port_bits: usize, tables: usize) -> Result<Self, String> {
        let mut window: Vec<Vec<u64>> = register_image(switch, identity)?.into_iter().map(|(b, w)| write(b, w, 0)).collect();
        let sweep = (512 * tables) + 4;
        while window.len() < sweep {
            window.push(idle(0));
        }
        runner.run(&window, None)?;
        Ok(DatapathReplayer {
            runner,
            ledger: Ledger::default(),
            ports: switch.ports.len(),
            port_bits,
            tables,
            flowlet: switch.balancer.params().method == LoadBalancing::Flowlet,
            sets: Vec::new(),
            set_ids: HashMap::new(),
            selected_sets: Vec::new(),
            selected_count: 0,
            resends: Vec::new(),
            batch: Vec::new(),
            held: Vec::new(),
            batch_now: 0,
            ready: Vec::new(),
        })
    }

    /// Processes the next line, as `Replayer::line` does, and returns the
    /// result lines complete now, in line order: streamed events'
    /// (`tx_start`, `depart`, `pfc_rx`) go to the datapath one per clock
    /// and their results are held until the next arrival, a full batch
    /// ([`STREAM_BATCH`]) or [`DatapathReplayer::finish`]. After an error
    /// `finish` still gives the results of the lines before the bad one.
    pub fn line(&mut self, text: &str) -> Result<Vec<Value>, ReplayError> {
        let seq = self.ledger.next_seq();
        let fail = |message: String| ReplayError { line: seq + 1, message };
        if text.trim().is_empty() {
            self.ledger.record_other(0);
            return Ok(Vec::new());
        }
        let event = parse_event(text, self.ports).map_err(fail)?;
        self.apply(seq as u64, &event).map_err(fail)?;
        Ok(std::mem::take(&mut self.ready))
    }

    /// Runs the streamed events still held and returns every result line
    /// not returned yet.
    pub fn finish(&mut self) -> Result<Vec<Value>, ReplayError> {
        let line = self.held.last().map_or(self.ledger.next_seq(), |h| h.seq as usize + 1);
        self.flush_streamed().map_err(|message| ReplayError { line, message })?;
        Ok(std::mem::take(&mut self.ready))
    }

    /// Applies one event as line `seq`; its result line, and those of the
    /// streamed events before it, go to the results ready (an arrival's at
    /// once, a streamed event's when its batch runs).
    pub fn apply(&mut self, seq: u64, event: &Event) -> Result<(), String> {
        let t = event.t_ns();
        self.ledger.check(seq, t)?;
        let now = reference::limits::hardware_time_ns(t)? as u64;
        use crate::switch_datapath_bench::inputs;
        let mut v = idle(now);
        v[inputs::ev_valid] = 1;
        let kind = match event {
            Event::Arrive { .. } => return self.arrive(seq, event, v, now),
            Event::TxStart { seq: of, .. } => {
                let packet = self.ledger.admitted(*of, true)?;
                packet_inputs(&mut v, &packet);
                self.ledger.record_tx_start(t, *of, packet);
                EventKind::TxStart
            }
            Event::Depart { seq: of, .. } => {
                let packet = self.ledger.admitted(*of, false)?;
                packet_inputs(&mut v, &packet);
                self.ledger.record_depart(t, *of);
                EventKind::Depart
            }
            Event::PfcRx { port, classes, quanta, .. } => {
                v[inputs::ev_port] = *port as u64;
                v[inputs::ev_classes] = *classes as u64;
                v[inputs::ev_quanta] = *quanta as u64;
                self.ledger.record_other(t);
                EventKind::PfcRx
            }
        };
        v[inputs::ev_kind] = kind.code();
        self.batch.push(v);
        self.held.push(Held { seq, kind });
        self.batch_now = now;
        if self.held.len() >= STREAM_BATCH {
            self.flush_streamed()?;
        }
        Ok(())
    }

    /// Runs the batch of streamed events, one per clock, then idle cycles
    /// until the last one's result, and reads their results in order. The
    /// pause re-sends seen on the way go on the batch's last line.
    fn flush_streamed(&mut self) -> Result<(), String> {
        if self.held.is_empty() {
            return Ok(());
        }
        let mut window = std::mem::take(&mut self.batch);
        window.extend((1..STREAMED_EVENT_CYCLES).map(|_| idle(self.batch_now)));
        let held = std::mem::take(&mut self.held);
        let seen = self.runner.run(&window, None)?;
        let results: Vec<&Vec<u64>> = self.note_resends(&seen).into_iter().collect();
        if results.len() != held.len() {
            return Err(format!("the hardware answered {} of {} streamed events (lines {} to {})", results.len(), held.len(),
                held[0].seq + 1, held[held.len() - 1].seq + 1));
        }
        for (h, out) in held.iter().zip(results) {
            if out[outputs::result_kind] != h.kind.code() {
                return Err(format!("line {}: the hardware answered an event of kind {} in its place", h.seq + 1, out[outputs::result_kind]));
            }
            let seq = h.seq;
            let line = match h.kind {
                EventKind::TxStart => json!({"seq": seq, "ecn_marked": out[outputs::ecn_marked] != 0}),
                EventKind::Depart => json!({"seq": seq, "resume_sent": out[outputs::resume_sent] != 0}),
                _ => json!({"seq": seq, "paused_until_ns": out[outputs::paused_until_ns]}),
            };
            self.ready.push(line);
        }
        if let Some(last) = self.ready.last_mut() {
            attach_resends(last, &self.resends);
        }
        self.resends.clear();
        Ok(())
    }

    /// Keeps the pause re-sends among `seen` and returns its results.
    fn note_resends<'a>(&mut self, seen: &'a [(usize, Vec<u64>)]) -> Vec<&'a Vec<u64>> {
        let mut results = Vec::new();
        for (_, out) in seen {
            if out[outputs::resend_valid] != 0 {
                self.resends.push(PfcFrame {
                    t_ns: out[outputs::resend_due_ns],
                    port: out[outputs::resend_port] as u16,
                    pool: out[outputs::resend_pool] as u8,
                    classes: out[outputs::resend_classes] as u8,
                    quanta: reference::ports::PAUSE_QUANTA,
                });
            }
            if out[outputs::result_valid] != 0 {
                results.push(out);
            }
        }
        results
    }

    /// An arrival, after the streamed events held: alone in the datapath,
    /// idle until its result (the refresh takes as many cycles as ports
    /// changed: the window's last idle cycle runs on until the result, and
    /// no longer than the longest arrival).
    fn arrive(&mut self, seq: u64, event: &Event, mut v: Vec<u64>, now: u64) -> Result<(), String> {
        let Event::Arrive { t_ns: t, port, dscp, ecn, bytes, key, members } = event else {
            return Err("an arrival was expected".into());
        };
        self.flush_streamed()?;
        let mut window = Vec::new();
        let set = self.set_of(members, now, &mut window)?;
        arrival_inputs(&mut v, &Arrival { port: *port, dscp: *dscp, ecn: *ecn, bytes: *bytes, key: *key, group: set });
        // The shortest an arrival takes; more cycles follow until it answers.
        let cycles = arrival_cycles(true, 0);
        window.push(v);
        window.extend((1..cycles).map(|_| idle(now)));
        let until = Until { output: outputs::result_valid, more_cycles: longest_arrival_cycles(self.port_bits) - cycles };
        let seen = self.runner.run(&window, Some(until))?;
        let results = self.note_resends(&seen);
        let out = match results.as_slice() {
            [out] => (*out).clone(),
            [] => return Err("the hardware gave no result within the event's cycles".into()),
            _ => return Err("the hardware answered one event twice".into()),
        };
        if out[outputs::result_kind] != EventKind::Arrive.code() {
            return Err(format!("the hardware answered an event of kind {} for an arrival", out[outputs::result_kind]));
        }
        let outcome = self.arrival_outcome(*port, &out)?;
        let packet = outcome.packet.map(|p| Packet { ect: ecn.is_ect(), ..p });
        if outcome.egress_port.is_some() {
            self.note_selected(members)?;
        }
        self.ledger.record_arrival(*t, packet);
        let mut line = arrival_json(seq, &outcome);
        attach_resends(&mut line, &self.resends);
        self.resends.clear();
        self.ready.push(line);
        Ok(())
    }

    /// The set id of `members`: a new set gets the next id and its writes.
    fn set_of(&mut self, members: &[u16], now: u64, window: &mut Vec<Vec<u64>>) -> Result<usize, String> {
        if members.is_empty() || members.len() > reference::flowlet::MAX_MEMBERS {
            return Err(format!("an equal-cost set has 1 to {} members, not {}", reference::flowlet::MAX_MEMBERS, members.len()));
        }
        if let Some(&id) = self.set_ids.get(members) {
            return Ok(id);
        }
        let id = self.sets.len();
        if id >= DATAPATH_SETS {
            return Err(format!("field `members`: a {} equal-cost set; the hardware datapath holds {DATAPATH_SETS}", ordinal(id + 1)));
        }
        window.extend(set_writes(id, members)?.into_iter().map(|(b, w)| write(b, w, now)));
        self.sets.push(members.to_vec());
        self.set_ids.insert(members.to_vec(), id);
        self.selected_sets.push(false);
        Ok(id)
    }

    /// A set selected on for the first time gets a flow table, as far as
    /// the build has them: refuses the first set the build cannot give one
    /// that the reference would.
    fn note_selected(&mut self, members: &[u16]) -> Result<(), String> {
        let id = self.set_ids[members];
        if self.selected_sets[id] {
            return Ok(());
        }
        self.selected_sets[id] = true;
        self.selected_count += 1;
        if self.flowlet && self.selected_count > self.tables && self.selected_count <= reference::flowlet::MAX_TABLES {
            return Err(format!(
                "field `members`: the {} set selected on would get a flow table, and this hardware build has {} (use --tables {})",
                ordinal(self.selected_count),
                self.tables,
                reference::flowlet::MAX_TABLES
            ));
        }
        Ok(())
    }

    fn arrival_outcome(&self, port: u16, out: &[u64]) -> Result<ArrivalOutcome, String> {
        let admitted = out[outputs::admitted] != 0;
        let drop = drop_reason(out[outputs::drop_reason])?;
        let egress_port = (out[outputs::has_egress] != 0).then_some(out[outputs::egress_port] as u16);
        let tag = Tag {
            ingress_port: port,
            egress_port: egress_port.unwrap_or(0),
            tc: out[outputs::tc] as u8,
            pool: out[outputs::pool] as u8,
            lossless: out[outputs::lossless] != 0,
            charged_bytes: out[outputs::charged_bytes] as u32,
        };
        Ok(ArrivalOutcome {
            admitted,
            charged_to: admitted.then_some(if out[outputs::to_headroom] != 0 { ChargedTo::Headroom } else { ChargedTo::Pool }),
            drop,
            tc: tag.tc,
            pool: tag.pool,
            egress_port,
            flow_hash: out[outputs::flow_hash] as u16,
            pause_sent: out[outputs::pause_sent] != 0,
            trimmed: out[outputs::trimmed] != 0,
            packet: admitted.then_some(Packet { tag, ect: false }),
        })
    }
}

/// How two engines' replays of one file compare: every line equal but
/// for `pause_resends`; every re-send the hardware reports is one the
/// reference reported on the same or an earlier line (each matched once).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineComparison {
    pub lines: usize,
    /// Re-sends both reported.
    pub resends_matched: usize,
    /// Re-sends the reference reported and the hardware did not.
    pub resends_not_reported: usize,
}

/// Compares the result lines of the reference (`expected`) with those of
/// a hardware engine (`actual`), as the project defines engine agreement.
pub fn compare_engines(expected: &[Value], actual: &[Value]) -> Result<EngineComparison, String> {
    if expected.len() != actual.len() {
        return Err(format!("{} result lines from the reference, {} from the hardware", expected.len(), actual.len()));
    }
    let resends_of = |line: &Value| -> Vec<String> {
        line.get("pause_resends").and_then(Value::as_array).map(|a| a.iter().map(Value::to_string).collect()).unwrap_or_default()
    };
    let without_resends = |line: &Value| -> Value {
        let mut line = line.clone();
        if let Some(o) = line.as_object_mut() {
            o.remove("pause_resends");
        }
        line
    };
    let mut outstanding: HashMap<String, usize> = HashMap::new();
    let mut c = EngineComparison { lines: expected.len(), ..Default::default() };
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        let (e_line, a_line) = (without_resends(e), without_resends(a));
        if e_line != a_line {
            return Err(format!("result line {}: the reference gave {e_line}, the hardware {a_line}", i + 1));
        }
        for r in resends_of(e) {
            *outstanding.entry(r).or_default() += 1;
        }
        for r in resends_of(a) {
            match outstanding.get_mut(&r) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    c.resends_matched += 1;
                }
                _ => return Err(format!("result line {}: the hardware re-sent {r}, which the reference had not by then", i + 1)),
            }
        }
    }
    c.resends_not_reported = outstanding.values().sum();
    Ok(c)
}

/// The harness type every build shares (the ports do not depend on the
/// generics but for `ev_set`, 8 bits in every build here).
pub type DatapathPorts = SwitchDatapathBench<6, 3, 8, 10, 14>;

/// A replay engine fed line by line (`sswitch replay`'s engines).
pub trait LineEngine {
    /// Takes the next line and returns the result lines complete now, in
    /// line order. A hardware engine holds streamed events' results until
    /// the next arrival or `finish`.
    fn line(&mut self, text: &str) -> Result<Vec<Value>, ReplayError>;
    /// The result lines still held; after an error, those of the lines
    /// before the bad one.
    fn finish(&mut self) -> Result<Vec<Value>, ReplayError>;
}

impl LineEngine for Replayer {
    fn line(&mut self, text: &str) -> Result<Vec<Value>, ReplayError> {
        Replayer::line(self, text).map(|v| v.into_iter().collect())
    }

    fn finish(&mut self) -> Result<Vec<Value>, ReplayError> {
        Ok(Vec::new())
    }
}

impl<R: CycleRunner> LineEngine for DatapathReplayer<R> {
    fn line(&mut self, text: &str) -> Result<Vec<Value>, ReplayError> {
        DatapathReplayer::line(self, text)
    }

    fn finish(&mut self) -> Result<Vec<Value>, ReplayError> {
        DatapathReplayer::finish(self)
    }
}

/// Every line through `engine`: the result lines, or the first error.
pub fn replay_lines(engine: &mut dyn LineEngine, lines: &[String]) -> Result<Vec<Value>, ReplayError> {
    let mut results = Vec::new();
    for line in lines {
        results.extend(engine.line(line)?);
    }
    results.extend(engine.finish()?);
    Ok(results)
}

/// Which hardware engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HardwareEngine {
    /// The datapath simulated by rust_hdl.
    Hdl,
    /// Its generated Verilog compiled by Verilator.
    Verilog,
}

/// A hardware engine for `switch` (its registers) with `tables` flow
/// tables (2 or 128).
pub fn hardware_engine(engine: HardwareEngine, switch: &Switch, identity: SwitchIdentity, tables: usize) -> Result<Box<dyn LineEngine>, String> {
    let ports = switch.ports.len();
    let port_bits = synth::blocks::port_bits(ports);
    let block = synth::HardwareBlock::SwitchDatapath { ports, tables };
    if engine == HardwareEngine::Verilog {
        let verilog = block.verilog()?;
        let runner = SessionRunner::new::<DatapathPorts>(&verilog)?;
        return Ok(Box::new(DatapathReplayer::new(runner, switch, identity, port_bits, tables)?));
    }
    macro_rules! stepped {
        ($a:literal, $p:literal) => {
            if tables == reference::flowlet::MAX_TABLES {
                let runner = StepperRunner::new(&SwitchDatapathBench::<$a, $p, 8, 16, 14>::new(ports));
                Ok(Box::new(DatapathReplayer::new(runner, switch, identity, port_bits, tables)?) as Box<dyn LineEngine>)
            } else {
                let runner = StepperRunner::new(&SwitchDatapathBench::<$a, $p, 8, 10, 14>::new(ports));
                Ok(Box::new(DatapathReplayer::new(runner, switch, identity, port_bits, tables)?) as Box<dyn LineEngine>)
            }
        };
    }
    synth::blocks::check_datapath(ports, tables)?;
    match port_bits {
        1 => stepped!(4, 1),
        2 => stepped!(5, 2),
        3 => stepped!(6, 3),
        4 => stepped!(7, 4),
        5 => stepped!(8, 5),
        6 => stepped!(9, 6),
        7 => stepped!(10, 7),
        _ => stepped!(11, 8),
    }
}
