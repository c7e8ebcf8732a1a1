//! Co-simulation adapter of the switch datapath: its ports, the register
//! image and set-table writes it is given, and the schedule of replay
//! events with the answers of `reference::switch::Switch`.
//!
//! The schedule: the register image from cycle 0, the first event once
//! the flowlet table's sweep is over, then each event as soon as the
//! datapath can take it: a streamed event (`tx_start`, `depart`,
//! `pfc_rx`) in the cycle after the one before, an arrival's successor
//! in its tail, [`ARRIVAL_TAIL_CYCLES`] before the arrival's result (see
//! `hdl::switch_datapath`; a `tx_start` taken there for the arrival's
//! egress port, or in the cycle whose command would meet the arrival's
//! update, is held inside until that result); an arrival right after a
//! `pfc_rx` waits inside for it ([`arrival_start_delay`]). A new equal-cost set's writes come just
//! before the first arrival that names it. Every cycle is compared on
//! `ev_ready` and `result_valid`, and the result's fields on its cycle.
//! The pause re-sends are not compared: their timing is the one answer
//! the hardware gives differently (the buffer manager's own bench checks
//! them).

use crate::buffer_manager_bench::{drop_code, pause_expiry};
use crate::cosim::Trace;
use hdl::switch_datapath::port_refresh::RING;
use hdl::switch_datapath::{
    arrival_cycles, arrival_start_delay, walk_cycles, ConfigBlock, EventKind, SwitchDatapath, ARRIVAL_TAIL_CYCLES, STREAMED_EVENT_CYCLES,
};
use reference::buffer_manager::ChargedTo;
use reference::lfsr::ecn_seed;
use reference::register_map::{
    buffer_manager_image, ecmp_hash_image, ecn_marker_image, flowlet_set_writes, flowlet_table_image, RegisterWrite, FLOWLET_SET_SELECT,
};
use reference::replay::Event;
use reference::switch::{Packet, Switch, SwitchIdentity};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug)]
pub struct SwitchDatapathBench<const A: usize, const P: usize, const S: usize, const T: usize, const E: usize> {
    pub ports: usize,
    pub build: DatapathBuild,
}

/// The datapath a bench builds: the real one, or one of the deliberately
/// wrong ones the fault-injection tests must catch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatapathBuild {
    Correct,
    /// Never refreshes the flowlet table's port state
    /// (`SwitchDatapath::without_port_refresh`).
    WithoutPortRefresh,
    /// Starts an arrival while a received PFC frame is in flight
    /// (`SwitchDatapath::without_pfc_drain`).
    WithoutPfcDrain,
    /// Takes the buffer manager's first answer after the ingress probe for
    /// the probe's (`SwitchDatapath::without_probe_pipe`).
    WithoutProbePipe,
    /// Marks a release's or a received frame's port for the refresh with
    /// its answer, too late for an arrival right behind it
    /// (`SwitchDatapath::without_early_stream_mark`).
    WithoutEarlyStreamMark,
    /// Marks an arrival's egress port for the refresh with its answer, too
    /// late for an arrival taken in its tail
    /// (`SwitchDatapath::without_early_mark`).
    WithoutEarlyMark,
    /// Decides a `tx_start` taken in an arrival's tail at once, before the
    /// arrival's update of the average
    /// (`SwitchDatapath::without_tx_start_hold`).
    WithoutTxStartHold,
}

/// 8 ports, 256 sets, 2 flow tables: small enough for rust_hdl, and the
/// build `sswitch verilog --block switch-datapath --ports 8 --tables 2`.
pub type SmallDatapath = SwitchDatapathBench<6, 3, 8, 10, 14>;
/// 16 ports, 256 sets, 2 flow tables.
pub type Datapath16 = SwitchDatapathBench<7, 4, 8, 10, 14>;

const CFG: &str = "configuration";
const EVENT: &str = "event";
const RESULT: &str = "result";
const RESEND: &str = "pause re-send";

crate::harness! {
    impl[const A: usize, const P: usize, const S: usize, const T: usize, const E: usize] Harness for SwitchDatapathBench<A, P, S, T, E> {
        uut: SwitchDatapath<A, P, S, T, E>, name: "switch_datapath",
        build(self) {
            let block = match self.build {
                DatapathBuild::Correct => SwitchDatapath::new(self.ports),
                DatapathBuild::WithoutPortRefresh => SwitchDatapath::without_port_refresh(self.ports),
                DatapathBuild::WithoutPfcDrain => SwitchDatapath::without_pfc_drain(self.ports),
                DatapathBuild::WithoutProbePipe => SwitchDatapath::without_probe_pipe(self.ports),
                DatapathBuild::WithoutEarlyStreamMark => SwitchDatapath::without_early_stream_mark(self.ports),
                DatapathBuild::WithoutEarlyMark => SwitchDatapath::without_early_mark(self.ports),
                DatapathBuild::WithoutTxStartHold => SwitchDatapath::without_tx_start_hold(self.ports),
            };
            block.expect("a valid datapath build")
        }
        inputs {
            reset: 1 => "control",
            cfg_write: 1 => CFG,
            cfg_block: 2 => CFG,
            cfg_address: 8 => CFG,
            cfg_data: 32 => CFG,
            ev_valid: 1 => EVENT,
            ev_kind: 2 => EVENT,
            now_ns: 32 => EVENT,
            ev_port: 8 => EVENT,
            ev_dscp: 6 => EVENT,
            ev_ect: 1 => EVENT,
            ev_bytes: 16 => EVENT,
            ev_proto: 8 => EVENT,
            ev_src: 32 => EVENT,
            ev_dst: 32 => EVENT,
            ev_sport: 16 => EVENT,
            ev_dport: 16 => EVENT,
            ev_set: S => EVENT,
            tag_egress_port: 8 => EVENT,
            tag_pool: 3 => EVENT,
            tag_lossless: 1 => EVENT,
            ev_classes: 8 => EVENT,
            ev_quanta: 16 => EVENT,
        }
        outputs {
            ev_ready: 1 => EVENT,
            result_valid: 1 => RESULT,
            result_kind: 2 => RESULT,
            admitted: 1 => RESULT,
            drop_reason: 3 => RESULT,
            to_headroom: 1 => RESULT,
            tc: 3 => RESULT,
            pool: 3 => RESULT,
            lossless: 1 => RESULT,
            charged_bytes: 16 => RESULT,
            has_egress: 1 => RESULT,
            egress_port: 8 => RESULT,
            flow_hash: 16 => RESULT,
            pause_sent: 1 => RESULT,
            trimmed: 1 => RESULT,
            trimmed_dscp: 6 => RESULT,
            ecn_marked: 1 => RESULT,
            resume_sent: 1 => RESULT,
            paused_until_ns: 32 => RESULT,
            resend_valid: 1 => RESEND,
            resend_port: 8 => RESEND,
            resend_pool: 3 => RESEND,
            resend_classes: 8 => RESEND,
            resend_due_ns: 32 => RESEND,
        }
    }
}

/// What the schedule reached, per kind of answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub arrivals: usize,
    pub admitted: usize,
    pub refused_at_ingress: usize,
    pub dropped_at_egress: usize,
    pub to_headroom: usize,
    pub trimmed: usize,
    pub pauses_sent: usize,
    pub marked: usize,
    pub resumes: usize,
    pub pfc_frames: usize,
    pub sets: usize,
    /// Arrivals whose member differs from hash mod size (flowlet moved them).
    pub balanced: usize,
    /// Refreshes that walked every port (a pause may have ended, or the
    /// ring overflowed) and those that walked only the changed ports.
    pub full_walks: usize,
    pub ring_walks: usize,
    /// Full walks because more ports changed than the ring holds.
    pub overflow_walks: usize,
    /// Events taken in an arrival's tail, before its result; `tx_start`s
    /// among them held until that result, and those that went at once.
    pub taken_in_tail: usize,
    pub tx_starts_held: usize,
    pub tx_starts_not_held: usize,
    /// Arrivals taken while a release was in flight (within
    /// `STREAMED_EVENT_CYCLES` of it).
    pub behind_release: usize,
}

/// Coverage of several schedules: counts add up; `sets`, the sets
/// selected on by one schedule, is the largest of them.
impl std::ops::AddAssign<&Coverage> for Coverage {
    fn add_assign(&mut self, other: &Coverage) {
        self.arrivals += other.arrivals;
        self.admitted += other.admitted;
        self.refused_at_ingress += other.refused_at_ingress;
        self.dropped_at_egress += other.dropped_at_egress;
        self.to_headroom += other.to_headroom;
        self.trimmed += other.trimmed;
        self.pauses_sent += other.pauses_sent;
        self.marked += other.marked;
        self.resumes += other.resumes;
        self.pfc_frames += other.pfc_frames;
        self.sets = self.sets.max(other.sets);
        self.balanced += other.balanced;
        self.full_walks += other.full_walks;
        self.ring_walks += other.ring_walks;
        self.overflow_walks += other.overflow_walks;
        self.taken_in_tail += other.taken_in_tail;
        self.tx_starts_held += other.tx_starts_held;
        self.tx_starts_not_held += other.tx_starts_not_held;
        self.behind_release += other.behind_release;
    }
}

/// The datapath's record of which ports to refresh
/// (`hdl::switch_datapath::port_refresh`), kept alongside the reference.
#[derive(Clone, Debug)]
struct RefreshModel {
    changed: Vec<u16>,
    overflowed: bool,
    expiry: u64,
}

impl RefreshModel {
    fn new() -> Self {
        // The hardware's earliest end powers up at 0: its first refresh
        // walks every port.
        RefreshModel { changed: Vec::new(), overflowed: false, expiry: 0 }
    }

    fn mark(&mut self, port: u16) {
        if self.changed.len() == RING {
            self.overflowed = true;
        } else {
            self.changed.push(port);
        }
    }

    /// The walk before a select at `t` on `switch` (before the arrival):
    /// whether it covers every port, and the model after it.
    fn walk(&self, switch: &Switch, t: u64) -> (bool, RefreshModel) {
        let full = self.overflowed || t >= self.expiry;
        let expiry_of = |p: usize| pause_expiry(&switch.buffer, p, t);
        let expiry = if full {
            (0..switch.ports.len()).map(expiry_of).min().unwrap_or(u32::MAX as u64)
        } else {
            self.changed.iter().map(|&p| expiry_of(p as usize)).fold(self.expiry, u64::min)
        };
        (full, RefreshModel { changed: Vec::new(), overflowed: false, expiry })
    }
}

/// The register writes of a switch's configuration, block by block (no
/// equal-cost sets: they are written as the events name them).
pub fn register_image(switch: &Switch, identity: SwitchIdentity) -> Result<Vec<(ConfigBlock, RegisterWrite)>, String> {
    let mut image = Vec::new();
    image.extend(ecmp_hash_image(&switch.hash).into_iter().map(|w| (ConfigBlock::EcmpHash, w)));
    image.extend(flowlet_table_image(switch.balancer.params(), &[])?.into_iter().map(|w| (ConfigBlock::FlowletTable, w)));
    image.extend(buffer_manager_image(switch.buffer.params()).into_iter().map(|w| (ConfigBlock::BufferManager, w)));
    let ecn_seed = ecn_seed(identity.sim_seed, identity.node_id);
    image.extend(ecn_marker_image(switch.ecn.params(), ecn_seed).into_iter().map(|w| (ConfigBlock::EcnMarker, w)));
    Ok(image)
}

/// The writes that give set `id` its members.
pub fn set_writes(id: usize, members: &[u16]) -> Result<Vec<(ConfigBlock, RegisterWrite)>, String> {
    let writes = flowlet_set_writes(&[members.to_vec()])?;
    Ok(writes
        .into_iter()
        .map(|w| if w.address == FLOWLET_SET_SELECT { RegisterWrite { address: w.address, data: id as u32 } } else { w })
        .map(|w| (ConfigBlock::FlowletTable, w))
        .collect())
}

/// Positions of the configuration inputs.
fn write_cycle(block: ConfigBlock, w: RegisterWrite, now: u64) -> Vec<u64> {
    let mut v = vec![0u64; inputs::COUNT];
    v[inputs::cfg_write] = 1;
    v[inputs::cfg_block] = block.code();
    v[inputs::cfg_address] = w.address as u64;
    v[inputs::cfg_data] = w.data as u64;
    v[inputs::now_ns] = now;
    v
}

fn idle_cycle(now: u64) -> Vec<u64> {
    let mut v = vec![0u64; inputs::COUNT];
    v[inputs::now_ns] = now;
    v
}

/// An arrival's event inputs (`ev_kind` and the packet's fields).
pub fn arrival_inputs(v: &mut [u64], arrival: &reference::switch::Arrival) {
    v[inputs::ev_kind] = EventKind::Arrive.code();
    v[inputs::ev_port] = arrival.port as u64;
    v[inputs::ev_dscp] = arrival.dscp as u64;
    v[inputs::ev_ect] = arrival.ecn.is_ect() as u64;
    v[inputs::ev_bytes] = arrival.bytes as u64;
    v[inputs::ev_proto] = arrival.key.proto as u64;
    v[inputs::ev_src] = arrival.key.src as u64;
    v[inputs::ev_dst] = arrival.key.dst as u64;
    v[inputs::ev_sport] = arrival.key.sport as u64;
    v[inputs::ev_dport] = arrival.key.dport as u64;
    v[inputs::ev_set] = arrival.group as u64;
}

/// A `tx_start`'s or `depart`'s inputs: the admitted packet's tag.
pub fn packet_inputs(v: &mut [u64], packet: &Packet) {
    let tag = &packet.tag;
    v[inputs::ev_port] = tag.ingress_port as u64;
    v[inputs::ev_bytes] = tag.charged_bytes as u64;
    v[inputs::ev_ect] = packet.ect as u64;
    v[inputs::tag_egress_port] = tag.egress_port as u64;
    v[inputs::tag_pool] = tag.pool as u64;
    v[inputs::tag_lossless] = tag.lossless as u64;
}

/// An expectation with only the handshake and result strobe cared for.
fn quiet(ready: bool) -> Vec<Option<u64>> {
    let mut e = vec![None; outputs::COUNT];
    e[outputs::ev_ready] = Some(ready as u64);
    e[outputs::result_valid] = Some(0);
    e
}

/// How an event goes through the datapath: an arrival's steps and its
/// egress port (none: refused at the ingress), or streamed.
enum Step {
    Arrival { cycles: usize, egress: Option<u16> },
    Streamed(Streamed),
}

/// The streamed kinds, as the schedule tells them apart.
#[derive(Clone, Copy)]
enum Streamed {
    TxStart { egress_port: u16 },
    Depart,
    PfcRx,
}

/// A trace as it is laid out cycle by cycle, with the results due in
/// cycles not laid out yet (a streamed event's comes after the events
/// taken behind it).
struct Schedule {
    /// Keep the cycles laid out (a trace), or only count them.
    keep: bool,
    cycles: usize,
    inputs: Vec<Vec<u64>>,
    expected: Vec<Vec<Option<u64>>>,
    due: BTreeMap<usize, Vec<Option<u64>>>,
    /// The cycles the last `pfc_rx` and the last `depart` went on in.
    last_pfc: Option<usize>,
    last_release: Option<usize>,
    /// An arrival waits for a `pfc_rx` in flight (all builds but the one
    /// that must not: its trace keeps its timing).
    arrivals_wait: bool,
    /// The cycle of the last arrival's result: the next event may be
    /// taken in the `ARRIVAL_TAIL_CYCLES` before it.
    arrival_result: Option<usize>,
    /// The last arrival's egress port (none: the ingress refused it, so
    /// it updates no average).
    arrival_egress: Option<u16>,
    /// A `tx_start` taken in an arrival's tail for its egress port waits
    /// for the arrival's average update (all builds but the one that must
    /// not).
    tx_starts_wait: bool,
    /// Events taken in an arrival's tail, `tx_start`s held there and not,
    /// and arrivals taken with a release in flight.
    taken_in_tail: usize,
    tx_starts_held: usize,
    tx_starts_not_held: usize,
    behind_release: usize,
}

impl Schedule {
    fn next_cycle(&self) -> usize {
        self.cycles
    }

    /// Lays out a cycle before the first event (the register image, the
    /// sweep): nothing compared.
    fn push_unchecked(&mut self, inputs: Vec<u64>) {
        if self.keep {
            self.inputs.push(inputs);
            self.expected.push(vec![None; outputs::COUNT]);
        }
        self.cycles += 1;
    }

    /// Counts an event taken now if it is in an arrival's tail.
    fn note_tail(&mut self) {
        if self.arrival_result.is_some_and(|result| self.next_cycle() <= result) {
            self.taken_in_tail += 1;
        }
    }

    /// Lays out the next cycle: `inputs`, and the result due in it or
    /// none, with `ev_ready` as given.
    fn push(&mut self, inputs: Vec<u64>, ready: bool) {
        let mut e = self.due.remove(&self.next_cycle()).unwrap_or_else(|| quiet(ready));
        e[outputs::ev_ready] = Some(ready as u64);
        if self.keep {
            self.inputs.push(inputs);
            self.expected.push(e);
        }
        self.cycles += 1;
    }

    fn expect_result(&mut self, cycle: usize, e: Vec<Option<u64>>) {
        let earlier = self.due.insert(cycle, e);
        assert!(earlier.is_none(), "two results due in cycle {cycle}");
    }

    /// An arrival taken now whose steps take `cycles`, to `egress` (none:
    /// refused at the ingress): busy until its tail (the last
    /// [`ARRIVAL_TAIL_CYCLES`] before its result), later by a `pfc_rx` it
    /// waits for.
    fn arrival(&mut self, inputs: Vec<u64>, cycles: usize, egress: Option<u16>, e: Vec<Option<u64>>, now: u64) {
        self.note_tail();
        let taken = self.next_cycle();
        let wait = match self.last_pfc {
            Some(c) if self.arrivals_wait => arrival_start_delay(taken - c),
            _ => 0,
        };
        self.behind_release += self.last_release.is_some_and(|c| taken - c < STREAMED_EVENT_CYCLES) as usize;
        let result = taken + cycles + wait - 1;
        self.expect_result(result, e);
        self.arrival_result = Some(result);
        self.arrival_egress = egress;
        self.push(inputs, false);
        self.busy_until(result - ARRIVAL_TAIL_CYCLES, now);
    }

    /// Idle cycles, busy until `ready` (the first cycle whose sample shows
    /// `ev_ready` again).
    fn busy_until(&mut self, ready: usize, now: u64) {
        while self.next_cycle() < ready {
            self.push(idle_cycle(now), false);
        }
        self.push(idle_cycle(now), true);
    }

    /// A streamed event taken now: the next event can follow at once. A
    /// `tx_start` taken in an arrival's tail for the arrival's egress port
    /// (or in the tail's third cycle, whose command would come with the
    /// arrival's answer) is held until the arrival's
    /// result, and goes on from there as if taken then.
    fn streamed(&mut self, inputs: Vec<u64>, e: Vec<Option<u64>>, kind: Streamed, now: u64) {
        self.note_tail();
        let taken = self.next_cycle();
        let in_tail = self.arrival_result.filter(|&result| taken < result);
        let held_until = match (kind, in_tail) {
            (Streamed::TxStart { egress_port }, Some(result)) if self.tx_starts_wait => {
                (self.arrival_egress == Some(egress_port) || taken + 1 == result).then_some(result)
            }
            _ => None,
        };
        let starts = held_until.unwrap_or(taken);
        let tx_start_in_tail = matches!(kind, Streamed::TxStart { .. }) && in_tail.is_some();
        self.tx_starts_held += held_until.is_some() as usize;
        self.tx_starts_not_held += (tx_start_in_tail && held_until.is_none()) as usize;
        self.expect_result(starts + STREAMED_EVENT_CYCLES - 1, e);
        match kind {
            Streamed::PfcRx => self.last_pfc = Some(starts),
            Streamed::Depart => self.last_release = Some(starts),
            Streamed::TxStart { .. } => {}
        }
        match held_until {
            None => self.push(inputs, true),
            Some(result) => {
                self.push(inputs, false);
                self.busy_until(result, now);
            }
        }
    }

    /// Idle cycles until every result due has come; the trace (empty when
    /// only counted) and its cycles.
    fn finish(mut self, now: u64) -> (Trace, usize) {
        while !self.due.is_empty() {
            self.push(idle_cycle(now), true);
        }
        (Trace { inputs: self.inputs, expected: self.expected }, self.cycles)
    }
}

impl<const A: usize, const P: usize, const S: usize, const T: usize, const E: usize> SwitchDatapathBench<A, P, S, T, E> {
    pub fn new(ports: usize) -> Self {
        SwitchDatapathBench { ports, build: DatapathBuild::Correct }
    }

    /// Flow tables of the hardware build.
    pub fn tables() -> usize {
        1 << (T - 9)
    }

    /// Cycles after power-up before the first event: the flowlet table's
    /// sweep and a margin.
    pub fn first_event_cycle() -> usize {
        (1 << T) + 4
    }

    /// The reference made to match this build: as many flow tables.
    pub fn fit(&self, switch: &mut Switch) {
        let params = switch.balancer.params().clone();
        switch.balancer = reference::flowlet::LoadBalancer::with_table_limit(params, Self::tables());
    }

    /// The schedule of `events` through `switch` (built with `identity`),
    /// or why it cannot run on this build.
    pub fn trace(&self, switch: Switch, identity: SwitchIdentity, events: &[Event]) -> Result<(Trace, Coverage), String> {
        self.schedule(switch, identity, events, true).map(|(trace, coverage, _)| (trace, coverage))
    }

    /// The cycles this build takes for `events`, from power-up (the
    /// register image and the flowlet table's sweep included) to the last
    /// result, events given as soon as it can take them: the schedule's
    /// count, without laying out its cycles (a whole scenario's trace fits
    /// in memory so).
    pub fn cycles(&self, switch: Switch, identity: SwitchIdentity, events: &[Event]) -> Result<(usize, Coverage), String> {
        self.schedule(switch, identity, events, false).map(|(_, coverage, cycles)| (cycles, coverage))
    }

    fn schedule(&self, mut switch: Switch, identity: SwitchIdentity, events: &[Event], keep: bool) -> Result<(Trace, Coverage, usize), String> {
        if switch.ports.len() > 1 << P {
            return Err(format!("the switch has {} ports; this datapath build holds {}", switch.ports.len(), 1 << P));
        }
        self.fit(&mut switch);
        let mut coverage = Coverage::default();
        let arrivals_wait = self.build != DatapathBuild::WithoutPfcDrain;
        let tx_starts_wait = self.build != DatapathBuild::WithoutTxStartHold;
        let mut schedule = Schedule {
            keep,
            cycles: 0,
            inputs: Vec::new(),
            expected: Vec::new(),
            due: BTreeMap::new(),
            last_pfc: None,
            last_release: None,
            arrivals_wait,
            arrival_result: None,
            arrival_egress: None,
            tx_starts_wait,
            taken_in_tail: 0,
            tx_starts_held: 0,
            tx_starts_not_held: 0,
            behind_release: 0,
        };
        for (block, w) in register_image(&switch, identity)? {
            schedule.push_unchecked(write_cycle(block, w, 0));
        }
        while schedule.next_cycle() < Self::first_event_cycle() - 1 {
            schedule.push_unchecked(idle_cycle(0));
        }
        // The sweep is over: ready for the first event.
        schedule.push(idle_cycle(0), true);
        let mut packets: Vec<Option<Packet>> = vec![None; events.len()];
        let mut now = 0u64;
        let mut refresh = RefreshModel::new();
        for (seq, event) in events.iter().enumerate() {
            let fail = |m: String| format!("event {seq}: {m}");
            let t = reference::limits::hardware_time_ns(event.t_ns()).map_err(fail)? as u64;
            let mut v = idle_cycle(t);
            v[inputs::ev_valid] = 1;
            let mut e = vec![None; outputs::COUNT];
            e[outputs::result_valid] = Some(1);
            let step = match event {
                Event::Arrive { port, dscp, ecn, bytes, key, members, .. } => {
                    let known = switch.balancer.groups().len();
                    let group = switch.register_group(members).map_err(fail)?;
                    if group >= 1 << S {
                        return Err(fail(format!("set {group}: this datapath build holds {} equal-cost sets", 1 << S)));
                    }
                    if group == known {
                        coverage.sets += 1;
                        for (block, w) in set_writes(group, members).map_err(fail)? {
                            schedule.push(write_cycle(block, w, now), true);
                        }
                    }
                    let arrival = reference::switch::Arrival { port: *port, dscp: *dscp, ecn: *ecn, bytes: *bytes, key: *key, group };
                    let (full, after_walk) = refresh.walk(&switch, t);
                    let changed = refresh.changed.len();
                    let o = switch.arrive(t, &arrival);
                    packets[seq] = o.packet;
                    arrival_inputs(&mut v, &arrival);
                    e[outputs::result_kind] = Some(EventKind::Arrive.code());
                    e[outputs::admitted] = Some(o.admitted as u64);
                    e[outputs::drop_reason] = Some(drop_code(o.drop));
                    e[outputs::to_headroom] = Some((o.charged_to == Some(ChargedTo::Headroom)) as u64);
                    e[outputs::tc] = Some(o.tc as u64);
                    e[outputs::pool] = Some(o.pool as u64);
                    e[outputs::has_egress] = Some(o.egress_port.is_some() as u64);
                    e[outputs::egress_port] = o.egress_port.map(u64::from);
                    e[outputs::flow_hash] = Some(o.flow_hash as u64);
                    e[outputs::pause_sent] = Some(o.pause_sent as u64);
                    e[outputs::trimmed] = Some(o.trimmed as u64);
                    if let Some(p) = o.packet {
                        e[outputs::lossless] = Some(p.tag.lossless as u64);
                        e[outputs::charged_bytes] = Some(p.tag.charged_bytes as u64);
                    }
                    coverage.arrivals += 1;
                    coverage.admitted += o.admitted as usize;
                    coverage.refused_at_ingress += o.egress_port.is_none() as usize;
                    coverage.dropped_at_egress += (o.egress_port.is_some() && !o.admitted) as usize;
                    coverage.to_headroom += (o.charged_to == Some(ChargedTo::Headroom)) as usize;
                    coverage.trimmed += o.trimmed as usize;
                    coverage.pauses_sent += o.pause_sent as usize;
                    if let Some(egress) = o.egress_port {
                        let hashed = members[reference::ecmp_hash::member_index(o.flow_hash, members.len())];
                        coverage.balanced += (egress != hashed) as usize;
                    }
                    // Every arrival refreshes, a refused one too: the walk
                    // starts before the ingress answers.
                    coverage.overflow_walks += refresh.overflowed as usize;
                    refresh = after_walk;
                    coverage.full_walks += full as usize;
                    coverage.ring_walks += !full as usize;
                    let walk = walk_cycles(changed, full, P);
                    let cycles = match o.egress_port {
                        None => arrival_cycles(true, walk),
                        Some(egress) => {
                            refresh.mark(egress);
                            arrival_cycles(false, walk)
                        }
                    };
                    Step::Arrival { cycles, egress: o.egress_port }
                }
                Event::TxStart { seq: of, .. } => {
                    let packet = packets.get(*of as usize).copied().flatten().ok_or_else(|| fail(format!("seq {of} is not an admitted packet")))?;
                    let marked = switch.tx_start(&packet);
                    v[inputs::ev_kind] = EventKind::TxStart.code();
                    packet_inputs(&mut v, &packet);
                    e[outputs::result_kind] = Some(EventKind::TxStart.code());
                    e[outputs::ecn_marked] = Some(marked as u64);
                    coverage.marked += marked as usize;
                    Step::Streamed(Streamed::TxStart { egress_port: packet.tag.egress_port })
                }
                Event::Depart { seq: of, .. } => {
                    let packet = packets.get_mut(*of as usize).and_then(Option::take).ok_or_else(|| fail(format!("seq {of} is not a held packet")))?;
                    let resumed = switch.depart(&packet);
                    refresh.mark(packet.tag.egress_port);
                    v[inputs::ev_kind] = EventKind::Depart.code();
                    packet_inputs(&mut v, &packet);
                    e[outputs::result_kind] = Some(EventKind::Depart.code());
                    e[outputs::resume_sent] = Some(resumed as u64);
                    coverage.resumes += resumed as usize;
                    Step::Streamed(Streamed::Depart)
                }
                Event::PfcRx { port, classes, quanta, .. } => {
                    let until = switch.pfc_received(t, *port, *classes, *quanta);
                    let until = reference::limits::hardware_time_ns(until).map_err(|m| fail(format!("the pause's end: {m}")))?;
                    refresh.mark(*port);
                    if until as u64 > t {
                        refresh.expiry = refresh.expiry.min(until as u64);
                    }
                    v[inputs::ev_kind] = EventKind::PfcRx.code();
                    v[inputs::ev_port] = *port as u64;
                    v[inputs::ev_classes] = *classes as u64;
                    v[inputs::ev_quanta] = *quanta as u64;
                    e[outputs::result_kind] = Some(EventKind::PfcRx.code());
                    e[outputs::paused_until_ns] = Some(until as u64);
                    coverage.pfc_frames += 1;
                    Step::Streamed(Streamed::PfcRx)
                }
            };
            // A sample shows the state after the cycle's clock edge: an
            // arrival busy from the cycle it is taken, idle again in its
            // tail, its result `cycles` edges later; a streamed event never
            // busy (a `tx_start` in an arrival's tail until that result),
            // its result `STREAMED_EVENT_CYCLES` edges after it goes on.
            now = t;
            match step {
                Step::Arrival { cycles, egress } => schedule.arrival(v, cycles, egress, e, now),
                Step::Streamed(kind) => schedule.streamed(v, e, kind, now),
            }
        }
        coverage.taken_in_tail = schedule.taken_in_tail;
        coverage.tx_starts_held = schedule.tx_starts_held;
        coverage.tx_starts_not_held = schedule.tx_starts_not_held;
        coverage.behind_release = schedule.behind_release;
        let (trace, cycles) = schedule.finish(now);
        Ok((trace, coverage, cycles))
    }
}

/// Closed-loop traffic through a small switch, for the co-simulation.
pub mod workloads {
    use reference::classify::UetCodepoints;
    use reference::config::{apply_patch, validate, Document, LoadBalancing, Topology};
    use reference::ecn_marker::EcnBand;
    use reference::flowlet::LoadBalancer;
    use reference::ports::PortMap;
    use reference::replay::Event;
    use reference::switch::{Switch, SwitchIdentity};
    use reference::workload::{drive, WorkloadSpec};
    use reference::BufferPlan;

    /// What varies between cases.
    #[derive(Clone, Debug)]
    pub struct Case {
        pub ports: u16,
        pub seed: u64,
        pub arrivals: usize,
        pub gap_ns: u64,
        pub pfc_aware: bool,
        /// UET policy with trimming (DSCPs of the UET codepoints).
        pub uet: bool,
        /// Flow tables of the hardware build.
        pub tables: usize,
        pub pfc_rx_permille: u32,
        pub groups: Vec<Vec<u16>>,
    }

    pub const IDENTITY: SwitchIdentity = SwitchIdentity { node_id: 5, sim_seed: 3, run: 1 };

    /// The default switch (with `uet`: the UET policy and trimming, which
    /// rules out PFC) with received pauses of at most about 1 us and a
    /// buffer of tens of kilobytes (so that a
    /// few dozen packets reach every admission outcome), flowlet balancing
    /// with the case's gap, and as many flow tables as the hardware.
    pub fn switch(case: &Case) -> Switch {
        let doc = if case.uet {
            let patch = serde_json::json!({"SharedBufferManager": {"UETPolicyEnabled": {"value": true, "type": "bool"},
                                                                   "EnablePFC": {"value": "[0, 0, 0, 0, 0, 0, 0, 0]", "type": "string"}},
                                           "PacketTrimmer": {"TrimmingEnabled": {"value": true, "type": "bool"}}});
            apply_patch(&Document::defaults(), &patch).expect("a valid patch").0
        } else {
            Document::defaults()
        };
        let ports = case.ports as u32;
        let config = validate(&doc, &Topology { connected_ports: Some(ports), nic_models: vec![] }).expect("the default document is valid").config;
        let plan = BufferPlan::derive(&config, ports).expect("a plan");
        let map = PortMap::from_config(&config, ports as usize, ports as usize / 2);
        let mut sw = Switch::new(&config, plan, map, IDENTITY, UetCodepoints::default()).expect("a switch");
        let p = sw.buffer.params_mut();
        // UET: pools large enough that the egress limit refuses first (and trims).
        p.pool_size_bytes = if case.uet { [160_000, 40_000, 160_000, 0, 0, 0, 0, 0] } else { [48_000, 16_000, 24_000, 0, 0, 0, 0, 0] };
        p.fixed_limit_bytes = [12_000; 8];
        p.retransmit_limit_bytes = [18_000; 8];
        p.headroom_limit_bytes = 9_000;
        // Received pauses of up to about 1 us (a quantum of 1/64 ns), so
        // that they end within a workload and the refresh must notice.
        p.quantum_q16 = vec![1024; ports as usize];
        p.xoff_bytes = 12_000;
        p.xon_bytes = 6_000;
        let e = sw.ecn.params_mut();
        e.bands[0] = EcnBand::new(2_000, 20_000);
        e.bands[1] = EcnBand::new(1_000, 8_000);
        let mut params = sw.balancer.params().clone();
        params.method = LoadBalancing::Flowlet;
        params.gap_ns = case.gap_ns;
        params.pfc_aware = case.pfc_aware;
        sw.balancer = LoadBalancer::with_table_limit(params, case.tables);
        sw
    }

    /// The events of the case's closed loop (recorded on its own switch).
    pub fn events(case: &Case) -> Vec<Event> {
        let spec = WorkloadSpec {
            seed: case.seed,
            arrivals: case.arrivals,
            load_permille: 1500,
            max_bytes: 3000,
            dscps: if case.uet { vec![0, 10, 10, 12, 46] } else { vec![0, 8, 16, 24, 46] },
            groups: case.groups.clone(),
            ingress_ports: (0..case.ports).collect(),
            flows_per_port: 6,
            honour_pauses: true,
            pause_reaction_bytes: 20_000,
            pfc_rx_permille: case.pfc_rx_permille,
            drain: true,
        };
        let mut recorder = switch(case);
        let mut events = Vec::new();
        drive(&mut recorder, &spec, |e, _| events.push(e.clone()));
        events
    }
}

/// Random cases for the property tests.
pub mod strategies {
    use super::workloads::Case;
    use proptest::prelude::*;

    /// Equal-cost sets of 1 to `ports` distinct members in any order.
    pub fn groups(ports: u16) -> impl Strategy<Value = Vec<Vec<u16>>> {
        let set = prop::sample::subsequence((0..ports).collect::<Vec<u16>>(), 1..=ports as usize).prop_shuffle();
        prop::collection::vec(set, 1..5)
    }

    /// A workload case on `ports` ports for a build with `tables` tables.
    pub fn case(ports: u16, tables: usize, arrivals: std::ops::Range<usize>) -> impl Strategy<Value = Case> {
        let gap = prop::sample::select(vec![0u64, 300, 2_000, 20_000, 1_000_000_000]);
        (any::<u64>(), arrivals, gap, any::<bool>(), prop::bool::weighted(0.3), 0u32..120, groups(ports)).prop_map(
            move |(seed, arrivals, gap_ns, pfc_aware, uet, pfc_rx_permille, groups)| Case {
                ports,
                seed,
                arrivals,
                gap_ns,
                pfc_aware,
                uet,
                tables,
                pfc_rx_permille,
                groups,
            },
        )
    }
}
