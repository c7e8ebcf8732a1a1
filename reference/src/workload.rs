//! Synthetic closed-loop traffic for property tests and benchmarks.
//!
//! Senders behind each ingress port send flows at a chosen load; a sender
//! told to pause a pool (when `honour_pauses`) sends at most
//! `pause_reaction_bytes` more of that pool's lossless traffic until the
//! resume. Each egress port transmits its admitted packets first in, first
//! out at its link rate (zero gap), holding while its peer has paused the
//! head packet's class. Random PFC frames arrive from peers. Every step is
//! an [`Event`] in the replay format, so any run can be replayed.

use crate::buffer_manager::DropReason;
use crate::ecmp_hash::FlowKey;
use crate::flowlet::GroupId;
use crate::lfsr::{mix32, Lfsr};
use crate::replay::Event;
use crate::switch::{Arrival, ArrivalOutcome, Ecn, Packet, Switch};
use std::collections::{BinaryHeap, VecDeque};
use std::cmp::Reverse;

/// Ethernet header and FCS, preamble and gap are not modelled beyond this.
pub const ETHERNET_OVERHEAD_BYTES: u64 = 18;

#[derive(Clone, Debug)]
pub struct WorkloadSpec {
    pub seed: u64,
    /// Arrival attempts (a sender holding a packet back for a pause uses
    /// one too); the run then drains when `drain`.
    pub arrivals: usize,
    /// Offered load of each ingress port, per mille of its line rate.
    pub load_permille: u32,
    /// Frame sizes (without Ethernet header) are uniform in 1..=max_bytes.
    pub max_bytes: u32,
    pub dscps: Vec<u8>,
    pub groups: Vec<Vec<u16>>,
    pub ingress_ports: Vec<u16>,
    pub flows_per_port: usize,
    pub honour_pauses: bool,
    pub pause_reaction_bytes: u64,
    /// Chance, per mille per arrival attempt, that a peer sends a PFC frame.
    pub pfc_rx_permille: u32,
    /// Transmit everything held after the last arrival.
    pub drain: bool,
}

/// The result of one event, as the switch decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Arrival(ArrivalOutcome),
    Marked(bool),
    Resumed(bool),
    PausedUntil(u64),
}

/// Totals over a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkloadStats {
    pub events: u64,
    pub arrivals: u64,
    pub admitted: u64,
    pub drops: [u64; 4],
    pub lossless_drops: u64,
    pub trimmed: u64,
    pub marked: u64,
    pub pauses: u64,
    pub resumes: u64,
    pub bytes_in: u64,
    pub bytes_out: u64,
    pub bytes_dropped: u64,
    /// Bytes cut off trimmed packets.
    pub bytes_trimmed_away: u64,
    /// Charged bytes of admitted packets not yet departed.
    pub bytes_held: u64,
}

impl WorkloadStats {
    pub fn drops(&self, reason: DropReason) -> u64 {
        self.drops[DropReason::ALL.iter().position(|r| *r == reason).expect("known reason")]
    }
}

#[derive(Clone, Copy, Debug)]
struct Flow {
    key: FlowKey,
    dscp: u8,
    ecn: Ecn,
    group: GroupId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Wake {
    /// Serialization on an egress port completes.
    TxDone(u16),
    /// An egress port re-checks a paused head packet.
    Retry(u16),
    Arrival(u16),
}

struct Driver<'a, F: FnMut(&Event, &Outcome)> {
    switch: &'a mut Switch,
    spec: &'a WorkloadSpec,
    rng: Lfsr,
    flows: Vec<Vec<Flow>>,
    queues: Vec<VecDeque<(u64, Packet)>>,
    busy: Vec<Option<(u64, Packet)>>,
    retry_pending: Vec<bool>,
    /// Per (ingress port, pool): lossless bytes sent since a pause, if paused.
    sender_paused: Vec<Option<u64>>,
    wakes: BinaryHeap<Reverse<(u64, Wake)>>,
    seq: u64,
    attempts: usize,
    stats: WorkloadStats,
    sink: F,
}

/// Runs the workload on `switch`, calling `sink` with every event and its
/// outcome, in order.
pub fn drive<F: FnMut(&Event, &Outcome)>(switch: &mut Switch, spec: &WorkloadSpec, sink: F) -> WorkloadStats {
    let ports = switch.ports.len();
    let mut rng = Lfsr::new(mix32(spec.seed as u32) ^ mix32((spec.seed >> 32) as u32 ^ 0x574B));
    let groups: Vec<GroupId> = spec
        .groups
        .iter()
        .map(|g| switch.register_group(g).expect("workload groups use the switch's ports"))
        .collect();
    let flows = (0..ports)
        .map(|_| {
            (0..spec.flows_per_port.max(1))
                .map(|_| Flow {
                    key: FlowKey {
                        proto: if rng.next_u32() & 1 == 0 { 6 } else { 17 },
                        src: rng.next_u32(),
                        dst: rng.next_u32(),
                        sport: rng.next_u16(),
                        dport: rng.next_u16(),
                    },
                    dscp: spec.dscps[rng.next_u32() as usize % spec.dscps.len()],
                    ecn: [Ecn::NotEct, Ecn::Ect0, Ecn::Ect1, Ecn::Ce][rng.next_u32() as usize % 4],
                    group: groups[rng.next_u32() as usize % groups.len()],
                })
                .collect()
        })
        .collect();
    let mut d = Driver {
        switch,
        spec,
        rng,
        flows,
        queues: vec![VecDeque::new(); ports],
        busy: vec![None; ports],
        retry_pending: vec![false; ports],
        sender_paused: vec![None; ports * 8],
        wakes: BinaryHeap::new(),
        seq: 0,
        attempts: 0,
        stats: WorkloadStats::default(),
        sink,
    };
    for &p in &spec.ingress_ports {
        let first = d.rng.next_u32() as u64 % 1000;
        d.wakes.push(Reverse((first, Wake::Arrival(p))));
    }
    d.run();
    d.stats
}

impl<F: FnMut(&Event, &Outcome)> Driver<'_, F> {
    fn run(&mut self) {
        while let Some(Reverse((t, wake))) = self.wakes.pop() {
            match wake {
                Wake::TxDone(port) => self.complete(t, port),
                Wake::Retry(port) => self.retry_pending[port as usize] = false,
                Wake::Arrival(port) => {
                    if self.attempts >= self.spec.arrivals {
                        continue;
                    }
                    self.attempts += 1;
                    self.arrive(t, port);
                }
            }
            self.start_idle_ports(t);
            if !self.spec.drain && self.attempts >= self.spec.arrivals {
                break;
            }
        }
    }

    fn emit(&mut self, event: Event, outcome: Outcome) {
        self.stats.events += 1;
        self.seq += 1;
        (self.sink)(&event, &outcome);
    }

    fn arrive(&mut self, t: u64, port: u16) {
        let flow = self.flows[port as usize][self.rng.next_u32() as usize % self.flows[port as usize].len()];
        let bytes = 1 + self.rng.next_u32() % self.spec.max_bytes.max(1);
        let next = t + self.gap_ns(port, bytes);
        self.wakes.push(Reverse((next, Wake::Arrival(port))));
        if self.spec.pfc_rx_permille > 0 && self.rng.next_u32() % 1000 < self.spec.pfc_rx_permille {
            self.pfc_frame(t);
        }
        let class = self.switch.buffer.params().classifier.classify(flow.dscp);
        let at = port as usize * 8 + class.pool as usize;
        if class.lossless && self.spec.honour_pauses {
            if let Some(sent) = self.sender_paused[at] {
                // Counted as the switch charges it, so headroom >= allowance suffices.
                let charged = crate::classify::charged_bytes(bytes) as u64;
                if sent + charged > self.spec.pause_reaction_bytes {
                    return; // the sender holds this packet back
                }
                self.sender_paused[at] = Some(sent + charged);
            }
        }
        let arrival = Arrival { port, dscp: flow.dscp, ecn: flow.ecn, bytes, key: flow.key, group: flow.group };
        let seq = self.seq;
        let outcome = self.switch.arrive(t, &arrival);
        self.account_arrival(&outcome, class.lossless, bytes);
        if outcome.pause_sent && self.sender_paused[at].is_none() {
            self.sender_paused[at] = Some(0);
        }
        if let (Some(packet), Some(egress)) = (outcome.packet, outcome.egress_port) {
            self.queues[egress as usize].push_back((seq, packet));
        }
        let members = self.switch.balancer.groups()[flow.group].members.clone();
        let event = Event::Arrive { t_ns: t, port, dscp: flow.dscp, ecn: flow.ecn, bytes, key: flow.key, members };
        self.emit(event, Outcome::Arrival(outcome));
    }

    fn account_arrival(&mut self, o: &ArrivalOutcome, lossless: bool, bytes: u32) {
        let charged = crate::classify::charged_bytes(bytes) as u64;
        self.stats.arrivals += 1;
        self.stats.bytes_in += charged;
        self.stats.pauses += o.pause_sent as u64;
        match (o.packet, o.drop) {
            (Some(p), _) => {
                self.stats.admitted += 1;
                self.stats.bytes_held += p.tag.charged_bytes as u64;
                if o.trimmed {
                    self.stats.trimmed += 1;
                    self.stats.bytes_trimmed_away += charged - p.tag.charged_bytes as u64;
                }
            }
            (None, Some(reason)) => {
                self.stats.drops[DropReason::ALL.iter().position(|r| *r == reason).expect("known")] += 1;
                self.stats.bytes_dropped += charged;
                self.stats.lossless_drops += lossless as u64;
            }
            (None, None) => unreachable!("an arrival is admitted or dropped"),
        }
    }

    fn gap_ns(&mut self, port: u16, bytes: u32) -> u64 {
        let wire_ps = self.switch.ports.ports[port as usize].serialization_ps(bytes as u64 + ETHERNET_OVERHEAD_BYTES);
        let mean = wire_ps * 1000 / self.spec.load_permille.max(1) as u64;
        let jitter = 512 + (self.rng.next_u32() % 1024) as u64; // 0.5x .. 1.5x
        (mean * jitter / 1024 / 1000).max(1)
    }

    fn pfc_frame(&mut self, t: u64) {
        let ports = self.switch.ports.len();
        let port = (self.rng.next_u32() as usize % ports) as u16;
        let classes = (self.rng.next_u32() & 0xFF) as u8;
        let quanta = if self.rng.next_u32().is_multiple_of(4) { 0 } else { self.rng.next_u16() };
        let until = self.switch.pfc_received(t, port, classes, quanta);
        self.emit(Event::PfcRx { t_ns: t, port, classes, quanta }, Outcome::PausedUntil(until));
    }

    fn start_idle_ports(&mut self, t: u64) {
        for port in 0..self.queues.len() {
            if self.busy[port].is_some() || self.retry_pending[port] {
                continue;
            }
            let Some(&(seq, packet)) = self.queues[port].front() else { continue };
            let until = self.switch.buffer.rx_pause_until_ns(port, packet.tag.tc as usize);
            if until > t {
                self.retry_pending[port] = true;
                self.wakes.push(Reverse((until, Wake::Retry(port as u16))));
                continue;
            }
            self.queues[port].pop_front();
            let marked = self.switch.tx_start(&packet);
            self.stats.marked += marked as u64;
            self.emit(Event::TxStart { t_ns: t, seq }, Outcome::Marked(marked));
            let wire = packet.tag.charged_bytes as u64 + ETHERNET_OVERHEAD_BYTES;
            let done = t + (self.switch.ports.ports[port].serialization_ps(wire) / 1000).max(1);
            self.busy[port] = Some((seq, packet));
            self.wakes.push(Reverse((done, Wake::TxDone(port as u16))));
        }
    }

    fn complete(&mut self, t: u64, port: u16) {
        let (seq, packet) = self.busy[port as usize].take().expect("a busy port completes");
        let resumed = self.switch.depart(&packet);
        self.stats.bytes_out += packet.tag.charged_bytes as u64;
        self.stats.bytes_held -= packet.tag.charged_bytes as u64;
        if resumed {
            self.stats.resumes += 1;
            self.sender_paused[packet.tag.ingress_port as usize * 8 + packet.tag.pool as usize] = None;
        }
        self.emit(Event::Depart { t_ns: t, seq }, Outcome::Resumed(resumed));
    }
}
