//! The event-driven simulation of one switch with the reference blocks.
//!
//! ```text
//!  flows ─► sender (per ingress port: strict priority TC7..TC0, PFC-paused
//!           classes held, link rate, zero gap) ─► link delay ─► switch.arrive
//!  switch egress port: PFC frames first, then TC7..TC0 skipping classes the
//!  peer paused ─► tx_start (ECN) ─► serialization ─► depart (release, Xon)
//!  PFC frames the switch sends reach the sender after the link delay.
//! ```
//!
//! Every call into the switch is also an event line in the replay format
//! (`--trace`), so a simulation can be replayed through `sswitch replay`
//! and, later, the hardware.

use super::records::*;
use super::scenario::CheckedScenario;
use crate::buffer_manager::{DropReason, PfcFrame};
use crate::classify::{charged_bytes, Classifier};
use crate::config::CLASSES;
use crate::flowlet::GroupId;
use crate::replay::Event;
use crate::switch::{Arrival, Packet, Switch};
use std::cmp::Reverse;
use super::wake_queue::WakeQueue;
use std::collections::VecDeque;
use std::io::Write;

/// Ethernet header and FCS, on top of the frame bytes the switch charges.
pub const ETHERNET_BYTES: u64 = 18;
/// A PFC frame on the wire.
pub const PFC_FRAME_BYTES: u64 = 64;

/// How far a run has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgressReport {
    pub simulated_ps: u64,
    pub duration_ps: u64,
    pub switch_events: u64,
}

/// Where a run reports its progress (the command line draws a bar).
#[derive(Clone)]
pub struct Progress(pub std::sync::Arc<dyn Fn(ProgressReport) + Send + Sync>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress(..)")
    }
}

#[derive(Clone, Debug)]
pub struct SimOptions {
    pub node_id: u32,
    pub component_name: String,
    /// Told how far the run has got, about ten times a second of wall time.
    pub progress: Option<Progress>,
    /// Stream the records to files in this folder, named after this
    /// simulation, as the run makes them (None: keep them in the result).
    pub record_files: Option<(std::path::PathBuf, String)>,
}

/// Totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub arrivals: u64,
    pub admitted: u64,
    pub bytes_in: u64,
    pub bytes_admitted: u64,
    pub drops: [u64; 4],
    pub bytes_dropped: u64,
    pub lossless_drops: u64,
    pub departed: u64,
    pub bytes_out: u64,
    pub marked: u64,
    pub trimmed: u64,
    pub bytes_trimmed_away: u64,
    pub pause_frames_tx: u64,
    pub pause_resends_tx: u64,
    pub resume_frames_tx: u64,
    pub pfc_frames_rx: u64,
    pub bytes_held: u64,
    pub events: u64,
    pub simulated_ps: u64,
}

impl Summary {
    pub fn drops(&self, reason: DropReason) -> u64 {
        self.drops[DropReason::ALL.iter().position(|r| *r == reason).expect("known")]
    }

    /// bytes in = out + dropped + trimmed away + held
    pub fn balances(&self) -> bool {
        self.bytes_in == self.bytes_out + self.bytes_dropped + self.bytes_trimmed_away + self.bytes_held
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "simulated        {} us, {} switch events", self.simulated_ps / 1_000_000, self.events)?;
        writeln!(f, "arrived          {} packets, {} B", self.arrivals, self.bytes_in)?;
        writeln!(f, "admitted         {} packets, {} B", self.admitted, self.bytes_admitted)?;
        let drops: Vec<String> = DropReason::ALL.iter().map(|r| format!("{} {}", r.name(), self.drops(*r))).collect();
        writeln!(f, "dropped          {} packets, {} B ({}; lossless {})", self.drops.iter().sum::<u64>(), self.bytes_dropped, drops.join(", "), self.lossless_drops)?;
        writeln!(f, "departed         {} packets, {} B", self.departed, self.bytes_out)?;
        writeln!(f, "ECN marked       {} packets", self.marked)?;
        writeln!(f, "trimmed          {} packets, {} B cut", self.trimmed, self.bytes_trimmed_away)?;
        writeln!(f, "PFC sent         {} pause ({} re-sent), {} resume; received {}", self.pause_frames_tx, self.pause_resends_tx, self.resume_frames_tx, self.pfc_frames_rx)?;
        write!(f, "conservation     in {} B = out {} + dropped {} + trimmed away {} + held {}: {}",
            self.bytes_in, self.bytes_out, self.bytes_dropped, self.bytes_trimmed_away, self.bytes_held,
            if self.balances() { "balanced" } else { "NOT BALANCED" })
    }
}

/// What a run produced.
pub struct SimResult {
    pub summary: Summary,
    pub buffer_stats: Record,
    pub lb_stats: Option<Record>,
    pub ecn_pfc_stats: Record,
    pub trim_stats: Option<Record>,
    pub pfc_events: Record,
    /// What the user should know about the run (one line each).
    pub warnings: Vec<String>,
    /// The switch's port speeds against its SwitchingCapacity.
    pub capacity: crate::capacity::Oversubscription,
    /// The record files written, when the run streamed its records.
    pub written: Vec<std::path::PathBuf>,
}

impl SimResult {
    pub fn records(&self) -> Vec<&Record> {
        let mut r = vec![&self.buffer_stats, &self.ecn_pfc_stats];
        r.extend(self.lb_stats.as_ref());
        r.extend(self.trim_stats.as_ref());
        r.push(&self.pfc_events);
        r
    }
}

/// What a PFC frame does, as `scala-switch-pfc-events` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PfcFrameKind {
    Pause,
    /// A pause sent again before the last one runs out.
    Resend,
    Resume,
}

impl PfcFrameKind {
    fn name(self) -> &'static str {
        match self {
            PfcFrameKind::Pause => "pause",
            PfcFrameKind::Resend => "resend",
            PfcFrameKind::Resume => "resume",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Wake {
    Report,
    LbReport,
    Resend,
    /// The peer of a port sends the switch a PFC frame.
    PeerPfc(usize),
    /// A PFC frame from the switch reaches the sender behind a port.
    SenderPfc(u16, u8, u16),
    /// A frame finished serializing out of an egress port.
    EgressDone(u16),
    EgressRetry(u16),
    /// A frame from a sender reaches the switch.
    Arrive(u16, usize, u32),
    SenderReady(u16),
}

struct FlowState {
    next_ps: u64,
    step_ps_x1000: u64,
    tc: usize,
    group: GroupId,
}

#[derive(Default)]
struct Sender {
    flows: Vec<usize>,
    busy_until_ps: u64,
    paused_until_ps: [u64; CLASSES],
    wake_at: Option<u64>,
}

enum InFlight {
    Data(u64, Packet),
    Pfc(u8, u16),
}

#[derive(Default)]
struct EgressPort {
    queues: [VecDeque<(u64, Packet)>; CLASSES],
    pfc_frames: VecDeque<(u8, u16)>,
    busy: Option<InFlight>,
    retry_at: Option<u64>,
}

/// Per (port, TC) counters of the ECN/PFC record.
#[derive(Clone, Copy, Default)]
struct PfcCounters {
    xoff_tx: u64,
    xoff_rx: u64,
    xon_tx: u64,
    xon_rx: u64,
    marked: u64,
    clock: PauseClock,
    paused_until_ps: u64,
}

#[derive(Clone, Copy, Default)]
struct TrimCounters {
    trimmed: u64,
    last_hop: u64,
    bytes_removed: u64,
    untrimmable: u64,
    ivl: TrimInterval,
}

/// The trimming counts of the current interval.
#[derive(Clone, Copy, Default)]
struct TrimInterval {
    trimmed: u64,
    last_hop: u64,
    bytes_removed: u64,
    untrimmable: u64,
}

pub struct Simulation<'a> {
    switch: Switch,
    scenario: &'a CheckedScenario,
    options: SimOptions,
    classifier: Classifier,
    flows: Vec<FlowState>,
    senders: Vec<Sender>,
    egress: Vec<EgressPort>,
    delay_ps: Vec<u64>,
    wakes: WakeQueue<Wake>,
    now_ps: u64,
    trace_seq: u64,
    trace: Option<&'a mut dyn Write>,
    io_error: Option<std::io::Error>,
    summary: Summary,
    resend_buffer: Vec<PfcFrame>,
    resend_wake_ns: Option<u64>,
    /// [pool][buff kind: shared, ingress ul, ingress dl, egress ul, egress dl]
    samples: Vec<[Samples; 5]>,
    /// Bytes per (pool, uplink?) on the ingress and egress side.
    ingress_bytes: Vec<[u64; 2]>,
    egress_bytes: Vec<[u64; 2]>,
    pfc: Vec<PfcCounters>,
    trim: Vec<TrimCounters>,
    lb_previous: Vec<Vec<crate::flowlet::MemberStats>>,
    buffer_stats: Record,
    ecn_pfc_stats: Record,
    lb_stats: Record,
    trim_stats: Record,
    pfc_events: Record,
    last_report_ps: u64,
    last_lb_report_ps: Option<u64>,
    stats_interval_ps: u64,
    lb_interval_ps: u64,
    lb_enabled: bool,
    trim_enabled: bool,
    last_progress: std::time::Instant,
    capacity: crate::capacity::Oversubscription,
    /// Where rows go as they are made; None keeps them in the records.
    files: Option<RecordFiles>,
}

fn ser_ps(bytes: u64, rate_bps: u64) -> u64 {
    ((bytes as u128 * 8 * 1_000_000_000_000) / rate_bps.max(1) as u128) as u64
}

impl<'a> Simulation<'a> {
    pub fn new(
        switch: Switch,
        config: &crate::config::SwitchConfig,
        scenario: &'a CheckedScenario,
        options: SimOptions,
        trace: Option<&'a mut dyn Write>,
    ) -> Simulation<'a> {
        let ports = switch.ports.len();
        let classifier = switch.buffer.params().classifier.clone();
        let delay_ps: Vec<u64> = switch.ports.ports.iter().map(|p| p.delay_ps).collect();
        let mut sim = Simulation {
            classifier,
            flows: Vec::new(),
            senders: (0..ports).map(|_| Sender::default()).collect(),
            egress: (0..ports).map(|_| EgressPort::default()).collect(),
            delay_ps,
            wakes: WakeQueue::default(),
            now_ps: 0,
            trace_seq: 0,
            trace,
            io_error: None,
            summary: Summary::default(),
            resend_buffer: Vec::new(),
            resend_wake_ns: None,
            samples: vec![[Samples::default(); 5]; CLASSES],
            ingress_bytes: vec![[0; 2]; CLASSES],
            egress_bytes: vec![[0; 2]; CLASSES],
            pfc: vec![PfcCounters::default(); ports * CLASSES],
            trim: vec![TrimCounters::default(); ports],
            lb_previous: Vec::new(),
            buffer_stats: Record::new(BUFF_STATS, BUFF_COLUMNS),
            ecn_pfc_stats: Record::new(ECN_PFC_STATS, ECN_PFC_COLUMNS),
            lb_stats: Record::new(LB_STATS, LB_COLUMNS),
            trim_stats: Record::new(TRIM_STATS, TRIM_COLUMNS),
            pfc_events: Record::new(PFC_EVENTS, PFC_EVENT_COLUMNS),
            last_report_ps: 0,
            last_lb_report_ps: None,
            stats_interval_ps: config.buffer.stats_interval_ps,
            lb_interval_ps: config.lb_stats_interval_ps,
            lb_enabled: config.lb_stats_enabled,
            trim_enabled: config.trimming_stats_enabled,
            last_progress: std::time::Instant::now(),
            capacity: crate::capacity::Oversubscription::new(config, scenario.downlinks as u32, scenario.uplinks as u32),
            files: None,
            switch,
            scenario,
            options,
        };
        sim.add_flows();
        for (i, _) in scenario.peer_pauses.iter().enumerate() {
            sim.schedule(scenario.peer_pauses[i].0, Wake::PeerPfc(i));
        }
        sim
    }

    fn add_flows(&mut self) {
        for (i, f) in self.scenario.flows.iter().enumerate() {
            let group = self.switch.register_group(&f.members).expect("scenario members are the switch's ports");
            let wire_bits_x1000 = (f.bytes as u64 + ETHERNET_BYTES) * 8 * 1_000;
            let step_ps_x1000 = ((wire_bits_x1000 as u128 * 1_000_000_000_000) / f.rate_bps.max(1.0) as u128) as u64;
            self.flows.push(FlowState { next_ps: f.start_ps, step_ps_x1000, tc: self.classifier.classify(f.dscp).tc as usize, group });
            self.senders[f.ingress_port as usize].flows.push(i);
        }
        for port in 0..self.senders.len() {
            if let Some(first) = self.senders[port].flows.iter().map(|&i| self.flows[i].next_ps).min() {
                self.sender_wake_at(port as u16, first);
            }
        }
    }

    /// Streams every record row to `files` as it is made, instead of
    /// keeping it in the result (a long run's memory stays flat).
    pub fn stream_records(mut self, files: RecordFiles) -> Self {
        self.files = Some(files);
        self
    }

    fn schedule(&mut self, t_ps: u64, wake: Wake) {
        self.wakes.push(t_ps, wake);
    }

    /// Schedules `wake` `delay_ps` from now; a time past 2^64 ps is past
    /// every run's end (at most `limits::MAX_SIM_TIME_PS`), so it never comes.
    fn schedule_after(&mut self, delay_ps: u64, wake: Wake) {
        if let Some(t) = self.now_ps.checked_add(delay_ps) {
            self.schedule(t, wake);
        }
    }

    fn now_ns(&self) -> u64 {
        self.now_ps / 1000
    }

    /// Runs to the end of the scenario's duration.
    pub fn run(mut self) -> Result<SimResult, std::io::Error> {
        let end = self.scenario.duration_ps;
        if self.stats_interval_ps > 0 {
            self.schedule_after(self.stats_interval_ps, Wake::Report);
        }
        if self.lb_interval_ps > 0 && self.lb_enabled {
            self.schedule_after(self.lb_interval_ps, Wake::LbReport);
        }
        while let Some((t, wake)) = self.wakes.pop() {
            if t > end {
                break;
            }
            self.now_ps = t;
            self.handle(wake);
            if let Some(e) = self.io_error.take() {
                return Err(e);
            }
            self.progress(end);
        }
        self.now_ps = end;
        self.finish()
    }

    fn handle(&mut self, wake: Wake) {
        match wake {
            Wake::SenderReady(port) => self.sender_ready(port),
            Wake::Arrive(port, flow, bytes) => self.arrive(port, flow, bytes),
            Wake::EgressDone(port) => self.egress_done(port),
            Wake::EgressRetry(port) => {
                self.egress[port as usize].retry_at = None;
                self.settle_pauses(port as usize);
                self.egress_start(port);
            }
            Wake::SenderPfc(port, classes, quanta) => self.sender_pfc(port, classes, quanta),
            Wake::PeerPfc(i) => self.peer_pfc(i),
            Wake::Resend => {
                self.resend_wake_ns = None;
                self.collect_resends();
            }
            Wake::Report => {
                self.report_buffers_and_pfc();
                self.schedule_after(self.stats_interval_ps, Wake::Report);
            }
            Wake::LbReport => {
                self.report_lb();
                self.schedule_after(self.lb_interval_ps, Wake::LbReport);
            }
        }
    }

    fn progress(&mut self, end: u64) {
        let Some(progress) = &self.options.progress else { return };
        if self.summary.events % 1024 != 0 || self.last_progress.elapsed().as_millis() < 100 {
            return;
        }
        self.last_progress = std::time::Instant::now();
        (progress.0)(ProgressReport { simulated_ps: self.now_ps, duration_ps: end, switch_events: self.summary.events });
    }

    /// Counts a switch event and writes it to the trace, if there is one;
    /// the event is built only then (an arrival's member list is a copy).
    fn log(&mut self, event: impl FnOnce() -> Event) -> u64 {
        let seq = self.trace_seq;
        self.trace_seq += 1;
        self.summary.events += 1;
        if let Some(w) = self.trace.as_mut() {
            if let Err(e) = writeln!(w, "{}", event().to_json()) {
                self.io_error.get_or_insert(e);
            }
        }
        seq
    }

    // ----- senders -----

    fn sender_wake_at(&mut self, port: u16, t: u64) {
        let s = &mut self.senders[port as usize];
        if s.wake_at.is_some_and(|w| w <= t) {
            return;
        }
        s.wake_at = Some(t);
        self.schedule(t, Wake::SenderReady(port));
    }

    fn sender_ready(&mut self, port: u16) {
        let now = self.now_ps;
        let s = &mut self.senders[port as usize];
        if s.wake_at != Some(now) {
            return; // superseded by an earlier wake
        }
        s.wake_at = None;
        if s.busy_until_ps > now {
            let t = s.busy_until_ps;
            return self.sender_wake_at(port, t);
        }
        let mut best: Option<usize> = None;
        let mut next_wake = u64::MAX;
        for &i in &s.flows {
            let f = &self.flows[i];
            let spec = &self.scenario.flows[i];
            if f.next_ps >= spec.stop_ps {
                continue;
            }
            let ready_at = f.next_ps.max(s.paused_until_ps[f.tc]);
            if ready_at > now {
                next_wake = next_wake.min(ready_at);
                continue;
            }
            let better = match best {
                None => true,
                Some(b) => (f.tc, Reverse(f.next_ps)) > (self.flows[b].tc, Reverse(self.flows[b].next_ps)),
            };
            if better {
                best = Some(i);
            }
        }
        let Some(i) = best else {
            if next_wake != u64::MAX {
                self.sender_wake_at(port, next_wake);
            }
            return;
        };
        let bytes = self.scenario.flows[i].bytes;
        let rate = self.switch.ports.ports[port as usize].rate_bps;
        let done = now + ser_ps(bytes as u64 + ETHERNET_BYTES, rate);
        self.senders[port as usize].busy_until_ps = done;
        let f = &mut self.flows[i];
        f.next_ps += f.step_ps_x1000 / 1000;
        let arrival = done + self.delay_ps[port as usize];
        self.schedule(arrival, Wake::Arrive(port, i, bytes));
        self.sender_wake_at(port, done);
    }

    fn sender_pfc(&mut self, port: u16, classes: u8, quanta: u16) {
        let rate = self.switch.ports.ports[port as usize].rate_bps;
        let until = if quanta == 0 { self.now_ps } else { self.now_ps + ser_ps(quanta as u64 * 64, rate) };
        let s = &mut self.senders[port as usize];
        for tc in 0..CLASSES {
            if classes & (1 << tc) != 0 {
                s.paused_until_ps[tc] = until;
            }
        }
        let now = self.now_ps;
        self.sender_wake_at(port, now);
    }

    // ----- the switch -----

    fn collect_resends(&mut self) {
        let now_ns = self.now_ns();
        self.switch.due_resends(now_ns, &mut self.resend_buffer);
        if !self.resend_buffer.is_empty() {
            let mut frames = std::mem::take(&mut self.resend_buffer);
            for f in frames.drain(..) {
                self.summary.pause_resends_tx += 1;
                self.send_pfc(f.port, f.classes, f.quanta, PfcFrameKind::Resend);
            }
            self.resend_buffer = frames;
        }
        if let Some(next_ns) = self.switch.buffer.next_resend_ns() {
            if self.resend_wake_ns.is_none_or(|w| w > next_ns) {
                self.resend_wake_ns = Some(next_ns);
                self.schedule((next_ns * 1000).max(self.now_ps), Wake::Resend);
            }
        }
    }

    fn send_pfc(&mut self, port: u16, classes: u8, quanta: u16, kind: PfcFrameKind) {
        let rate = self.switch.ports.ports[port as usize].rate_bps;
        let end_ps = self.now_ps.saturating_add(ser_ps(quanta as u64 * 64, rate));
        self.log_pfc_event(port, "tx", kind, classes, quanta, end_ps);
        if quanta == 0 {
            self.summary.resume_frames_tx += 1;
        } else {
            self.summary.pause_frames_tx += 1;
        }
        for tc in 0..CLASSES {
            if classes & (1 << tc) != 0 {
                let c = &mut self.pfc[port as usize * CLASSES + tc];
                if quanta == 0 { c.xon_tx += 1 } else { c.xoff_tx += 1 }
            }
        }
        self.egress[port as usize].pfc_frames.push_back((classes, quanta));
        self.egress_start(port);
    }

    fn arrive(&mut self, port: u16, flow: usize, bytes: u32) {
        let spec = &self.scenario.flows[flow];
        let arrival = Arrival { port, dscp: spec.dscp, ecn: spec.ecn, bytes, key: spec.key, group: self.flows[flow].group };
        let now_ns = self.now_ns();
        let event = || Event::Arrive { t_ns: now_ns, port, dscp: spec.dscp, ecn: spec.ecn, bytes, key: spec.key, members: spec.members.clone() };
        let seq = self.log(event);
        self.collect_resends();
        let now_ns = self.now_ns();
        let outcome = self.switch.arrive(now_ns, &arrival);
        let charged = charged_bytes(bytes) as u64;
        let s = &mut self.summary;
        s.arrivals += 1;
        s.bytes_in += charged;
        if outcome.pause_sent {
            let pool = self.classifier.classify(spec.dscp).pool as usize;
            let classes = self.switch.buffer.params().priority_group(pool);
            self.send_pfc(port, classes, crate::ports::PAUSE_QUANTA, PfcFrameKind::Pause);
            self.collect_resends();
        }
        match (outcome.packet, outcome.drop) {
            (Some(packet), _) => {
                let s = &mut self.summary;
                s.admitted += 1;
                s.bytes_admitted += packet.tag.charged_bytes as u64;
                if outcome.trimmed {
                    s.trimmed += 1;
                    s.bytes_trimmed_away += charged - packet.tag.charged_bytes as u64;
                    let egress = packet.tag.egress_port as usize;
                    let t = &mut self.trim[egress];
                    t.trimmed += 1;
                    t.bytes_removed += charged - packet.tag.charged_bytes as u64;
                    let last_hop = self.switch.ports.ports[egress].faces_nic as u64;
                    t.last_hop += last_hop;
                    t.ivl.trimmed += 1;
                    t.ivl.last_hop += last_hop;
                    t.ivl.bytes_removed += charged - packet.tag.charged_bytes as u64;
                }
                self.account_buffers(&packet, true);
                let egress = packet.tag.egress_port;
                let tc = packet.tag.tc as usize;
                self.egress[egress as usize].queues[tc].push_back((seq, packet));
                self.set_occupied(egress as usize, tc);
                self.egress_start(egress);
            }
            (None, Some(reason)) => {
                let s = &mut self.summary;
                s.drops[DropReason::ALL.iter().position(|r| *r == reason).expect("known")] += 1;
                s.bytes_dropped += charged;
                let class = self.classifier.classify(spec.dscp);
                s.lossless_drops += class.lossless as u64;
                if matches!(reason, DropReason::EgressLimit | DropReason::EgressPool) && self.switch.plan.trimming {
                    if let Some(e) = outcome.egress_port {
                        self.trim[e as usize].untrimmable += 1;
                        self.trim[e as usize].ivl.untrimmable += 1;
                    }
                }
            }
            (None, None) => unreachable!("an arrival is admitted or dropped"),
        }
        self.sample_buffers();
    }

    fn account_buffers(&mut self, packet: &Packet, add: bool) {
        let tag = &packet.tag;
        let pool = tag.pool as usize;
        let up_in = !self.switch.ports.ports[tag.ingress_port as usize].faces_nic as usize;
        let up_out = !self.switch.ports.ports[tag.egress_port as usize].faces_nic as usize;
        let b = tag.charged_bytes as u64;
        if add {
            self.ingress_bytes[pool][up_in] += b;
            self.egress_bytes[pool][up_out] += b;
        } else {
            self.ingress_bytes[pool][up_in] -= b;
            self.egress_bytes[pool][up_out] -= b;
        }
    }

    fn sample_buffers(&mut self) {
        for pool in 0..CLASSES {
            if self.switch.plan.pools[pool].size_bytes == 0 {
                continue;
            }
            let values = [
                self.switch.buffer.pool_bytes(pool),
                self.ingress_bytes[pool][1],
                self.ingress_bytes[pool][0],
                self.egress_bytes[pool][1],
                self.egress_bytes[pool][0],
            ];
            for (s, v) in self.samples[pool].iter_mut().zip(values) {
                s.add(v);
            }
        }
    }

    fn egress_start(&mut self, port: u16) {
        let p = port as usize;
        if self.egress[p].busy.is_some() {
            return;
        }
        let rate = self.switch.ports.ports[p].rate_bps;
        if let Some((classes, quanta)) = self.egress[p].pfc_frames.pop_front() {
            self.egress[p].busy = Some(InFlight::Pfc(classes, quanta));
            let done = self.now_ps + ser_ps(PFC_FRAME_BYTES, rate);
            return self.schedule(done, Wake::EgressDone(port));
        }
        let now_ns = self.now_ns();
        let mut paused_until = u64::MAX;
        for tc in (0..CLASSES).rev() {
            let Some(&(seq, packet)) = self.egress[p].queues[tc].front() else { continue };
            if self.switch.buffer.is_rx_paused(p, tc, now_ns) {
                paused_until = paused_until.min(self.switch.buffer.rx_pause_until_ns(p, tc));
                continue;
            }
            self.egress[p].queues[tc].pop_front();
            self.log(|| Event::TxStart { t_ns: now_ns, seq });
            self.collect_resends();
            let marked = self.switch.tx_start(&packet);
            if marked {
                self.summary.marked += 1;
                self.pfc[p * CLASSES + tc].marked += 1;
            }
            self.set_occupied(p, tc);
            self.egress[p].busy = Some(InFlight::Data(seq, packet));
            let done = self.now_ps + ser_ps(packet.tag.charged_bytes as u64 + ETHERNET_BYTES, rate);
            return self.schedule(done, Wake::EgressDone(port));
        }
        if paused_until != u64::MAX && self.egress[p].retry_at.is_none() {
            let t = (paused_until * 1000).max(self.now_ps);
            self.egress[p].retry_at = Some(t);
            self.schedule(t, Wake::EgressRetry(port));
        }
    }

    fn egress_done(&mut self, port: u16) {
        let p = port as usize;
        match self.egress[p].busy.take() {
            Some(InFlight::Data(seq, packet)) => {
                let now_ns = self.now_ns();
                self.log(|| Event::Depart { t_ns: now_ns, seq });
                self.collect_resends();
                let resumed = self.switch.depart(&packet);
                self.summary.departed += 1;
                self.summary.bytes_out += packet.tag.charged_bytes as u64;
                self.account_buffers(&packet, false);
                if resumed {
                    let classes = self.switch.buffer.params().priority_group(packet.tag.pool as usize);
                    self.send_pfc(packet.tag.ingress_port, classes, 0, PfcFrameKind::Resume);
                }
                self.sample_buffers();
            }
            Some(InFlight::Pfc(classes, quanta)) => {
                let arrival = self.now_ps + self.delay_ps[p];
                self.schedule(arrival, Wake::SenderPfc(port, classes, quanta));
            }
            None => {}
        }
        self.egress_start(port);
    }

    fn peer_pfc(&mut self, i: usize) {
        let (_, port, classes, quanta) = self.scenario.peer_pauses[i];
        let now_ns = self.now_ns();
        self.log(|| Event::PfcRx { t_ns: now_ns, port, classes, quanta });
        self.collect_resends();
        self.summary.pfc_frames_rx += 1;
        let until_ns = self.switch.pfc_received(now_ns, port, classes, quanta);
        let kind = if quanta == 0 { PfcFrameKind::Resume } else { PfcFrameKind::Pause };
        self.log_pfc_event(port, "rx", kind, classes, quanta, until_ns.saturating_mul(1000));
        let now = self.now_ps;
        for tc in 0..CLASSES {
            if classes & (1 << tc) != 0 {
                let c = &mut self.pfc[port as usize * CLASSES + tc];
                if quanta == 0 { c.xon_rx += 1 } else { c.xoff_rx += 1 }
                c.paused_until_ps = until_ns * 1000;
                c.clock.set_paused(now, quanta != 0 && until_ns * 1000 > now);
            }
        }
        if quanta != 0 {
            self.schedule(until_ns * 1000, Wake::EgressRetry(port));
        }
        self.egress_start(port);
    }

    /// A row of `scala-switch-pfc-events`.
    fn log_pfc_event(&mut self, port: u16, direction: &str, kind: PfcFrameKind, classes: u8, quanta: u16, end_ps: u64) {
        let (utc, sec) = self.row_time();
        let priorities: Vec<String> = (0..CLASSES).filter(|tc| classes & (1 << tc) != 0).map(|tc| tc.to_string()).collect();
        let row = PfcEventRow {
            time_utc: utc,
            sim_time_sec: sec,
            component_name: self.options.component_name.clone(),
            node_id: self.options.node_id.to_string(),
            ifid: port.to_string(),
            uldl: if self.switch.ports.ports[port as usize].faces_nic { "dl" } else { "ul" }.into(),
            direction: direction.into(),
            frame: kind.name().into(),
            priorities: priorities.join(" "),
            quanta: quanta.to_string(),
            pause_end_sec: sim_time_sec(if kind == PfcFrameKind::Resume { self.now_ps } else { end_ps }),
        }
        .cells();
        if let Err(e) = self.pfc_events.push(row, self.files.as_mut()) {
            self.io_error.get_or_insert(e);
        }
    }

    /// Closes pause episodes that have expired by now.
    fn settle_pauses(&mut self, port: usize) {
        let now = self.now_ps;
        for tc in 0..CLASSES {
            let c = &mut self.pfc[port * CLASSES + tc];
            if c.clock.paused && c.paused_until_ps <= now {
                c.clock.set_paused(c.paused_until_ps, false);
            }
        }
    }

    fn set_occupied(&mut self, port: usize, tc: usize) {
        let occupied = !self.egress[port].queues[tc].is_empty();
        let now = self.now_ps;
        self.pfc[port * CLASSES + tc].clock.set_occupied(now, occupied);
    }

    // ----- records -----

    fn row_time(&self) -> (String, String) {
        (time_utc(self.now_ps), sim_time_sec(self.now_ps))
    }

    fn report_buffers_and_pfc(&mut self) {
        let (utc, sec) = self.row_time();
        let name = self.options.component_name.clone();
        let node = self.options.node_id.to_string();
        for pool in 0..CLASSES {
            let size = self.switch.plan.pools[pool].size_bytes;
            if size == 0 {
                continue;
            }
            for (k, (buff, uldl)) in [("sharedBuffer", "-"), ("ingressUsage", "ul"), ("ingressUsage", "dl"), ("egressQueue", "ul"), ("egressQueue", "dl")].iter().enumerate() {
                let s = self.samples[pool][k];
                let pct = |b: f64| format!("{:.4}", 100.0 * b / size as f64);
                let (min, max, mean) = if s.count > 0 { (s.min, s.max, s.mean()) } else { (s.last, s.last, s.last as f64) };
                let row = BuffRow {
                    time_utc: utc.clone(),
                    sim_time_sec: sec.clone(),
                    component_name: name.clone(),
                    tier: "0".into(),
                    node_id: node.clone(),
                    pool_num: pool.to_string(),
                    buff_id: buff.to_string(),
                    uldl: uldl.to_string(),
                    total_bytes: s.last.to_string(),
                    buffer_limit: size.to_string(),
                    ivl_count: s.count.to_string(),
                    ivl_min_bytes: min.to_string(),
                    ivl_max_bytes: max.to_string(),
                    ivl_mean_bytes: format!("{mean:.3}"),
                    ivl_max_pct_util: pct(max as f64),
                    ivl_mean_pct_util: pct(mean),
                }
                .cells();
                let written = self.buffer_stats.push(row, self.files.as_mut());
                if let Err(e) = written {
                    self.io_error.get_or_insert(e);
                }
                self.samples[pool][k].reset();
            }
        }
        let interval = self.now_ps - self.last_report_ps;
        for port in 0..self.egress.len() {
            self.settle_pauses(port);
            let uldl = if self.switch.ports.ports[port].faces_nic { "dl" } else { "ul" };
            for tc in 0..CLASSES {
                let now = self.now_ps;
                let c = &mut self.pfc[port * CLASSES + tc];
                c.clock.advance(now);
                let k = c.clock;
                let percent_xon = if interval == 0 { 100.0 } else { 100.0 * (interval - k.ivl_ps.min(interval)) as f64 / interval as f64 };
                let ratio = if k.ivl_ps == 0 { 0.0 } else { k.ivl_occupied_ps as f64 / k.ivl_ps as f64 };
                let row = EcnPfcRow {
                    job_id: "sswitch".into(),
                    time_utc: utc.clone(),
                    sim_time_sec: sec.clone(),
                    node_id: node.clone(),
                    component_name: name.clone(),
                    component_type: "ScalaSwitch".into(),
                    ifid: port.to_string(),
                    uldl: uldl.into(),
                    tier: "0".into(),
                    subtier: "0".into(),
                    priority: tc.to_string(),
                    pfcxoff_tx: c.xoff_tx.to_string(),
                    pfcxoff_rx: c.xoff_rx.to_string(),
                    pfcxon_tx: c.xon_tx.to_string(),
                    pfcxon_rx: c.xon_rx.to_string(),
                    pfc_time_paused_usec: usec(k.total_ps),
                    interval_total_time_xoff_usec: usec(k.ivl_ps),
                    interval_max_time_xoff_usec: usec(k.ivl_max_ps),
                    interval_total_time_xoff_egr_occ_usec: usec(k.ivl_occupied_ps),
                    interval_max_time_xoff_egr_occ_usec: usec(k.ivl_max_occupied_ps),
                    total_xoff_time_egr_occ_usec: usec(k.total_occupied_ps),
                    percent_xon: format!("{percent_xon:.3}"),
                    xoff_egr_occ_ratio: format!("{ratio:.4}"),
                    pkts_ecn_marked: c.marked.to_string(),
                }
                .cells();
                let written = self.ecn_pfc_stats.push(row, self.files.as_mut());
                if let Err(e) = written {
                    self.io_error.get_or_insert(e);
                }
                c.clock.start_interval(now);
            }
            if self.switch.plan.trimming && self.trim_enabled {
                let t = &mut self.trim[port];
                let row = TrimRow {
                    time_utc: utc.clone(),
                    sim_time_sec: sec.clone(),
                    component_name: name.clone(),
                    node_id: node.clone(),
                    ifid: port.to_string(),
                    uldl: uldl.into(),
                    trimmed_packets: t.trimmed.to_string(),
                    trimmed_last_hop_packets: t.last_hop.to_string(),
                    trimmed_bytes_removed: t.bytes_removed.to_string(),
                    untrimmable_drops: t.untrimmable.to_string(),
                    ivl_trimmed_packets: t.ivl.trimmed.to_string(),
                    ivl_trimmed_last_hop_packets: t.ivl.last_hop.to_string(),
                    ivl_trimmed_bytes_removed: t.ivl.bytes_removed.to_string(),
                    ivl_untrimmable_drops: t.ivl.untrimmable.to_string(),
                }
                .cells();
                let written = self.trim_stats.push(row, self.files.as_mut());
                if let Err(e) = written {
                    self.io_error.get_or_insert(e);
                }
                t.ivl = TrimInterval::default();
            }
        }
        self.last_report_ps = self.now_ps;
    }

    fn report_lb(&mut self) {
        self.last_lb_report_ps = Some(self.now_ps);
        let (utc, sec) = self.row_time();
        let groups = self.switch.balancer.groups();
        self.lb_previous.resize(groups.len(), Vec::new());
        for (id, g) in groups.iter().enumerate() {
            if g.formed_ns.is_none() {
                continue;
            }
            let previous = &mut self.lb_previous[id];
            previous.resize(g.members.len(), Default::default());
            let ivl_total: u64 = g.stats.iter().zip(previous.iter()).map(|(s, p)| s.bytes - p.bytes).sum();
            let ifids: Vec<String> = g.members.iter().map(|m| m.to_string()).collect();
            for (m, (s, p)) in g.stats.iter().zip(previous.iter()).enumerate() {
                let ivl_bytes = s.bytes - p.bytes;
                let row = LbRow {
                    time_utc: utc.clone(),
                    sim_time_sec: sec.clone(),
                    component_name: self.options.component_name.clone(),
                    component_type: "ScalaSwitch".into(),
                    node_id: self.options.node_id.to_string(),
                    tier: "0".into(),
                    subtier: "0".into(),
                    ifid: g.members[m].to_string(),
                    ecmp_group_id: id.to_string(),
                    ecmp_group_ifids: ifids.join(";"),
                    group_size: g.members.len().to_string(),
                    group_formed_ns: g.formed_ns.map(|t| t.to_string()).unwrap_or_default(),
                    flow_table_slots: if g.table.is_some() { "512" } else { "0" }.into(),
                    bytes: s.bytes.to_string(),
                    packets: s.packets.to_string(),
                    assignments: s.assignments.to_string(),
                    movements_in: s.movements_in.to_string(),
                    movements_out: s.movements_out.to_string(),
                    paused_skips: s.paused_skips.to_string(),
                    paused_selections: s.paused_selections.to_string(),
                    ivl_bytes: ivl_bytes.to_string(),
                    ivl_packets: (s.packets - p.packets).to_string(),
                    ivl_assignments: (s.assignments - p.assignments).to_string(),
                    ivl_movements_in: (s.movements_in - p.movements_in).to_string(),
                    ivl_movements_out: (s.movements_out - p.movements_out).to_string(),
                    ivl_paused_skips: (s.paused_skips - p.paused_skips).to_string(),
                    ivl_paused_selections: (s.paused_selections - p.paused_selections).to_string(),
                    ivl_share: format!("{:.4}", if ivl_total == 0 { 0.0 } else { ivl_bytes as f64 / ivl_total as f64 }),
                }
                .cells();
                let written = self.lb_stats.push(row, self.files.as_mut());
                if let Err(e) = written {
                    self.io_error.get_or_insert(e);
                }
            }
            *previous = g.stats.clone();
        }
    }

    fn finish(mut self) -> Result<SimResult, std::io::Error> {
        if self.now_ps > self.last_report_ps || self.buffer_stats.row_count == 0 {
            self.report_buffers_and_pfc();
        }
        if self.lb_enabled && self.last_lb_report_ps != Some(self.now_ps) {
            self.report_lb();
        }
        // Every admitted, undeparted packet sits in exactly one egress queue.
        self.summary.bytes_held = self.egress_bytes.iter().map(|b| b[0] + b[1]).sum();
        self.summary.simulated_ps = self.now_ps;
        if let Some(e) = self.io_error.take() {
            return Err(e);
        }
        if let Some(w) = self.trace.as_mut() {
            w.flush()?;
        }
        let trim = self.switch.plan.trimming && self.trim_enabled;
        let mut result = SimResult {
            summary: self.summary,
            buffer_stats: self.buffer_stats,
            lb_stats: self.lb_enabled.then_some(self.lb_stats),
            ecn_pfc_stats: self.ecn_pfc_stats,
            trim_stats: trim.then_some(self.trim_stats),
            pfc_events: self.pfc_events,
            warnings: Vec::new(),
            capacity: self.capacity,
            written: Vec::new(),
        };
        if let Some(files) = self.files.take() {
            result.written = files.finish(&result.records())?;
        }
        Ok(result)
    }
}
