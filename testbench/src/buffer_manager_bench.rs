//! Co-simulation adapter of the buffer manager block: ports, stimulus and
//! the reference buffer manager's expected outputs.

use crate::cosim::{port, Harness, Port, Trace};
use hdl::buffer_manager::{BufferManager, LATENCY};
use reference::buffer_manager::{BufferManager as ReferenceManager, BufferParams, ChargedTo, DropReason, EgressMode, Tag};
use reference::classify::{charged_bytes, Classifier, UetCodepoints};
use reference::register_map::{buffer_manager_image, RegisterWrite};

/// One cycle of stimulus.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Idle,
    Reset,
    Write(RegisterWrite),
    /// Reprogram every register (the reference takes the same parameters).
    Program(Box<BufferParams>),
    Arrive { ingress_port: u8, egress_port: u8, dscp: u8, bytes: u16 },
    /// Release the outstanding packet `k mod count` (idle when none).
    Release(usize),
    /// A PFC frame received on `port`.
    Pfc { port: u8, classes: u8, quanta: u16 },
}

/// Simulated time advances this much every cycle.
pub const NS_PER_CYCLE: u64 = 50;
/// The query channel asks about port `cycle % QUERY_PORTS`.
pub const QUERY_PORTS: usize = 3;

/// Wrong reference variants that must make the co-simulation fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Xoff checked on the occupancy before the packet instead of after.
    XoffBeforePacket,
    /// Release takes from occupancy before headroom.
    OccupancyBeforeHeadroom,
    /// A received pause lasts its quanta only, without the link delay.
    PauseWithoutDelay,
    /// Trimming forgotten: a trimmable packet the egress refuses is dropped.
    NoTrimming,
    /// Pauses re-sent every full pause time instead of every half.
    ResendEveryFullPause,
}

/// Output indices (see `OUTPUTS`).
pub mod out {
    pub const VALID: usize = 0;
    pub const RELEASE: usize = 1;
    pub const ADMITTED: usize = 2;
    pub const DROP_REASON: usize = 3;
    pub const TO_HEADROOM: usize = 4;
    pub const TC: usize = 5;
    pub const POOL: usize = 6;
    pub const LOSSLESS: usize = 7;
    pub const CHARGED_BYTES: usize = 8;
    pub const QUEUE_BYTES: usize = 9;
    pub const PAUSE: usize = 10;
    pub const RESUME: usize = 11;
    pub const PFC_CLASSES: usize = 12;
    pub const PFC_RECEIVED: usize = 13;
    pub const PAUSED_UNTIL: usize = 14;
    pub const QUERY_PAUSED: usize = 15;
    pub const QUERY_EGRESS_BYTES: usize = 16;
    pub const TRIMMED: usize = 17;
    pub const TRIMMED_DSCP: usize = 18;
    pub const RESEND: usize = 19;
    pub const RESEND_PORT: usize = 20;
    pub const RESEND_POOL: usize = 21;
    pub const RESEND_CLASSES: usize = 22;
    pub const RESEND_DUE: usize = 23;
    pub const COUNT: usize = 24;
}

#[derive(Clone, Copy, Debug)]
pub struct BufferManagerBench<const A: usize> {
    pub ports: usize,
    pub fault: Option<Fault>,
}

impl<const A: usize> BufferManagerBench<A> {
    pub fn new(ports: usize) -> Self {
        BufferManagerBench { ports, fault: None }
    }
}

const CFG: &str = "configuration";
const EVENT: &str = "event";
const RESULT: &str = "result";
const RESEND: &str = "pause re-send";

impl<const A: usize> Harness for BufferManagerBench<A> {
    type Uut = BufferManager<A>;
    const NAME: &'static str = "buffer_manager";
    const INPUTS: &'static [Port] = &[
        port("reset", 1, "control"),
        port("cfg_write", 1, CFG),
        port("cfg_address", 8, CFG),
        port("cfg_data", 32, CFG),
        port("ev_arrival", 1, EVENT),
        port("ev_release", 1, EVENT),
        port("ev_ingress_port", 8, EVENT),
        port("ev_egress_port", 8, EVENT),
        port("ev_dscp", 6, EVENT),
        port("ev_bytes", 16, EVENT),
        port("ev_pool", 3, EVENT),
        port("ev_lossless", 1, EVENT),
        port("ev_pfc", 1, EVENT),
        port("ev_classes", 8, EVENT),
        port("ev_quanta", 16, EVENT),
        port("now_ns", 32, EVENT),
        port("query_port", 8, "query"),
    ];
    const OUTPUTS: &'static [Port] = &[
        port("result_valid", 1, RESULT),
        port("result_release", 1, RESULT),
        port("admitted", 1, RESULT),
        port("drop_reason", 3, RESULT),
        port("to_headroom", 1, RESULT),
        port("result_tc", 3, RESULT),
        port("result_pool", 3, RESULT),
        port("result_lossless", 1, RESULT),
        port("charged_bytes", 16, RESULT),
        port("queue_bytes", 32, RESULT),
        port("pause_request", 1, RESULT),
        port("resume_request", 1, RESULT),
        port("pfc_classes", 8, RESULT),
        port("result_pfc", 1, RESULT),
        port("paused_until_ns", 32, RESULT),
        port("query_paused", 8, "query"),
        port("query_egress_bytes", 32, "query"),
        port("trimmed", 1, RESULT),
        port("trimmed_dscp", 6, RESULT),
        port("resend_valid", 1, RESEND),
        port("resend_port", 8, RESEND),
        port("resend_pool", 3, RESEND),
        port("resend_classes", 8, RESEND),
        port("resend_due_ns", 32, RESEND),
    ];

    fn build(&self) -> BufferManager<A> {
        BufferManager::new(self.ports).expect("a valid port count")
    }

    fn set_clock(uut: &mut BufferManager<A>, high: bool) {
        uut.clock.next = high.into();
    }

    fn drive(uut: &mut BufferManager<A>, v: &[u64]) {
        uut.reset.next = v[0] != 0;
        uut.cfg_write.next = v[1] != 0;
        uut.cfg_address.next = v[2].into();
        uut.cfg_data.next = v[3].into();
        uut.ev_arrival.next = v[4] != 0;
        uut.ev_release.next = v[5] != 0;
        uut.ev_ingress_port.next = v[6].into();
        uut.ev_egress_port.next = v[7].into();
        uut.ev_dscp.next = v[8].into();
        uut.ev_bytes.next = v[9].into();
        uut.ev_pool.next = v[10].into();
        uut.ev_lossless.next = v[11] != 0;
        uut.ev_pfc.next = v[12] != 0;
        uut.ev_classes.next = v[13].into();
        uut.ev_quanta.next = v[14].into();
        uut.now_ns.next = v[15].into();
        uut.query_port.next = v[16].into();
    }

    fn observe(uut: &BufferManager<A>) -> Vec<u64> {
        vec![
            uut.result_valid.val() as u64,
            uut.result_release.val() as u64,
            uut.admitted.val() as u64,
            uut.drop_reason.val().to_u64(),
            uut.to_headroom.val() as u64,
            uut.result_tc.val().to_u64(),
            uut.result_pool.val().to_u64(),
            uut.result_lossless.val() as u64,
            uut.charged_bytes.val().to_u64(),
            uut.queue_bytes.val().to_u64(),
            uut.pause_request.val() as u64,
            uut.resume_request.val() as u64,
            uut.pfc_classes.val().to_u64(),
            uut.result_pfc.val() as u64,
            uut.paused_until_ns.val().to_u64(),
            uut.query_paused.val().to_u64(),
            uut.query_egress_bytes.val().to_u64(),
            uut.trimmed.val() as u64,
            uut.trimmed_dscp.val().to_u64(),
            uut.resend_valid.val() as u64,
            uut.resend_port.val().to_u64(),
            uut.resend_pool.val().to_u64(),
            uut.resend_classes.val().to_u64(),
            uut.resend_due_ns.val().to_u64(),
        ]
    }
}

/// Parameters with every port at 400 Gbps, 500 ns, facing a NIC, trimming off.
#[allow(clippy::too_many_arguments)]
pub fn params(
    ports: usize,
    pool_size_bytes: [u32; 8],
    headroom: u32,
    xoff: u32,
    xon: u32,
    egress_mode: EgressMode,
    fixed: [u32; 8],
    classifier: Classifier,
) -> BufferParams {
    BufferParams {
        pool_size_bytes,
        headroom_limit_bytes: headroom,
        xoff_bytes: xoff,
        xon_bytes: xon,
        egress_mode,
        fixed_limit_bytes: fixed,
        retransmit_limit_bytes: fixed.map(|f| f.saturating_mul(3) / 2),
        trimming: false,
        classifier,
        quantum_q16: vec![83_886; ports],
        delay_ns: vec![500; ports],
        faces_nic: vec![true; ports],
    }
}

fn zero_params(ports: usize) -> BufferParams {
    let classifier = Classifier { uet_policy: false, tc_pool: [0; 8], pfc_enabled: [false; 8], codepoints: UetCodepoints { no_trim: 0, trimmable: 0, trimmable_retransmit: 0, control: 0, trimmed: 0, trimmed_last_hop: 0 } };
    params(ports, [0; 8], 0, 0, 0, EgressMode::Fixed, [0; 8], classifier)
}

fn inputs(op: &Op) -> Vec<u64> {
    let mut v = vec![0u64; 17];
    match op {
        Op::Reset => v[0] = 1,
        Op::Write(w) => {
            v[1] = 1;
            v[2] = w.address as u64;
            v[3] = w.data as u64;
        }
        Op::Arrive { ingress_port, egress_port, dscp, bytes } => {
            v[4] = 1;
            v[6] = *ingress_port as u64;
            v[7] = *egress_port as u64;
            v[8] = *dscp as u64;
            v[9] = *bytes as u64;
        }
        Op::Pfc { port, classes, quanta } => {
            v[12] = 1;
            v[6] = *port as u64;
            v[13] = *classes as u64;
            v[14] = *quanta as u64;
        }
        _ => {}
    }
    v
}

fn release_inputs(tag: &Tag) -> Vec<u64> {
    let mut v = vec![0u64; 17];
    v[5] = 1;
    v[6] = tag.ingress_port as u64;
    v[7] = tag.egress_port as u64;
    v[9] = tag.charged_bytes as u64;
    v[10] = tag.pool as u64;
    v[11] = tag.lossless as u64;
    v
}

/// The hardware's pause re-send sweep, replayed on the reference's state:
/// the registers the block holds during one cycle.
#[derive(Clone, Copy, Debug, Default)]
struct Sweep {
    /// The address read this cycle when not held.
    next_address: usize,
    /// The (port, pool) address decided this cycle.
    address: usize,
    valid: bool,
}

impl Sweep {
    /// The registers of the next cycle, after a cycle with `stall`/`reset`.
    fn step(self, stall: bool, reset: bool, addresses: usize) -> Sweep {
        let read = if stall { self.address } else { self.next_address };
        let next_address = if reset { 0 } else if stall { self.next_address } else { (self.next_address + 1) % addresses };
        Sweep { next_address, address: read, valid: !reset }
    }
}

/// The block's `drop_reason` code.
fn drop_code(reason: Option<DropReason>) -> u64 {
    match reason {
        None => 0,
        Some(DropReason::HeadroomFull) => 1,
        Some(DropReason::PoolFull) => 2,
        Some(DropReason::EgressLimit) => 3,
        Some(DropReason::EgressPool) => 4,
    }
}

fn idle_expectation() -> Vec<Option<u64>> {
    let mut e = vec![None; out::COUNT];
    for i in [out::VALID, out::PAUSE, out::RESUME, out::TRIMMED] {
        e[i] = Some(0);
    }
    e
}

impl<const A: usize> BufferManagerBench<A> {
    /// Expands programs into register writes and resolves releases, then
    /// expects the reference's answers `LATENCY - 1` samples later. A
    /// reset cancels the events of its own and the previous cycle. Pause
    /// re-sends are expected where the hardware's sweep visits a paused,
    /// due pair (see [`Sweep`]).
    pub fn trace(&self, ops: &[Op]) -> Trace {
        let mut cycles: Vec<Op> = vec![Op::Reset; LATENCY];
        for op in ops {
            match op {
                Op::Program(p) => cycles.extend(buffer_manager_image(p).into_iter().map(Op::Write)),
                other => cycles.push(other.clone()),
            }
        }
        cycles.extend(std::iter::repeat_n(Op::Idle, LATENCY));
        let mut program_at: Vec<Option<BufferParams>> = vec![None; cycles.len()];
        {
            // Parameters take effect where their first write is.
            let mut i = LATENCY;
            for op in ops {
                match op {
                    Op::Program(p) => {
                        program_at[i] = Some((**p).clone());
                        i += buffer_manager_image(p).len();
                    }
                    _ => i += 1,
                }
            }
        }
        let addresses = 1usize << A;
        let mut reference = ReferenceManager::new(zero_params(1 << (A - 3)));
        let mut outstanding: Vec<Tag> = Vec::new();
        let mut expected = vec![idle_expectation(); cycles.len()];
        let mut stimulus = Vec::with_capacity(cycles.len());
        let mut sweep = Sweep::default();
        let mut paused_before = false;
        let is_write = |c: usize| matches!(cycles.get(c), Some(Op::Write(_)));
        for (cycle, op) in cycles.iter().enumerate() {
            if let Some(p) = program_at[cycle].take() {
                *reference.params_mut() = p;
            }
            let cancelled = *op == Op::Reset || cycles.get(cycle + 1) == Some(&Op::Reset);
            let at = cycle + LATENCY - 1;
            let now = cycle as u64 * NS_PER_CYCLE;
            let query_port = cycle % QUERY_PORTS;
            // The query sees every event of earlier cycles.
            let paused = (0..8).filter(|&tc| reference.is_rx_paused(query_port, tc, now)).fold(0u64, |m, tc| m | 1 << tc);
            let port_bytes = reference.port_egress_bytes(query_port);
            // The sweep decides on the next cycle with the events up to this one's predecessor.
            sweep = sweep.step(paused_before || is_write(cycle) || (cycle > 0 && is_write(cycle - 1)), *op == Op::Reset, addresses);
            let next_now = now + NS_PER_CYCLE;
            let candidate = sweep.valid.then(|| reference.resend_due(sweep.address >> 3, sweep.address & 7, next_now)).flatten();
            let mut paused_now = false;
            match op {
                Op::Arrive { ingress_port, egress_port, dscp, bytes } => {
                    stimulus.push(inputs(op));
                    if !cancelled {
                        let e = self.arrival(&mut reference, &mut outstanding, now, *ingress_port, *egress_port, *dscp, *bytes);
                        paused_now = e[out::PAUSE] == Some(1);
                        expected[at] = e;
                    }
                }
                Op::Release(k) if !outstanding.is_empty() => {
                    let index = k % outstanding.len();
                    let tag = outstanding[index];
                    stimulus.push(release_inputs(&tag));
                    if !cancelled {
                        outstanding.swap_remove(index);
                        expected[at] = self.release(&mut reference, &tag);
                    }
                }
                Op::Release(_) => stimulus.push(inputs(&Op::Idle)),
                Op::Pfc { port, classes, quanta } => {
                    stimulus.push(inputs(op));
                    if !cancelled {
                        expected[at] = self.pfc(&mut reference, now, *port, *classes, *quanta);
                    }
                }
                other => stimulus.push(inputs(other)),
            }
            let line = stimulus.last_mut().expect("pushed");
            line[15] = now;
            line[16] = query_port as u64;
            if cycle >= LATENCY && at < expected.len() {
                expected[at][out::QUERY_PAUSED] = Some(paused);
                expected[at][out::QUERY_EGRESS_BYTES] = Some(port_bytes);
            }
            let next_stalls = paused_now || is_write(cycle + 1) || is_write(cycle);
            let next_resets = cycles.get(cycle + 1) == Some(&Op::Reset);
            if cycle + 1 < expected.len() {
                let resent = candidate.filter(|_| !next_stalls && !next_resets);
                if let Some(frame) = resent {
                    reference.advance_resend(frame.port as usize, frame.pool as usize);
                    if self.fault == Some(Fault::ResendEveryFullPause) {
                        reference.advance_resend(frame.port as usize, frame.pool as usize);
                    }
                }
                let e = &mut expected[cycle + 1];
                e[out::RESEND] = Some(resent.is_some() as u64);
                if let Some(f) = resent {
                    e[out::RESEND_PORT] = Some(f.port as u64);
                    e[out::RESEND_POOL] = Some(f.pool as u64);
                    e[out::RESEND_CLASSES] = Some(f.classes as u64);
                    e[out::RESEND_DUE] = Some(f.t_ns);
                }
            }
            paused_before = paused_now;
        }
        for e in expected.iter_mut().take(LATENCY - 1) {
            *e = vec![None; out::COUNT];
        }
        Trace { inputs: stimulus, expected }
    }

    #[allow(clippy::too_many_arguments)]
    fn arrival(&self, r: &mut ReferenceManager, outstanding: &mut Vec<Tag>, now: u64, ingress_port: u8, egress_port: u8, dscp: u8, bytes: u16) -> Vec<Option<u64>> {
        let shift = if self.fault == Some(Fault::XoffBeforePacket) { charged_bytes(bytes as u32) } else { 0 };
        let xoff = r.params().xoff_bytes;
        r.params_mut().xoff_bytes = xoff.saturating_add(shift);
        let ingress = r.ingress(now, ingress_port as usize, dscp, bytes as u32);
        r.params_mut().xoff_bytes = xoff;
        let class = ingress.class;
        let mut drop = drop_code(ingress.drop);
        let mut queued = None;
        let mut trimmed_dscp = None;
        if drop == 0 {
            let trimming = r.params().trimming;
            if self.fault == Some(Fault::NoTrimming) {
                r.params_mut().trimming = false;
            }
            let egress = r.egress(ingress_port as usize, &ingress, egress_port as usize);
            r.params_mut().trimming = trimming;
            match egress.tag {
                Some(tag) => {
                    outstanding.push(tag);
                    queued = Some(tag);
                    trimmed_dscp = egress.trimmed_dscp;
                }
                None => drop = drop_code(egress.drop),
            }
        }
        let (tc, pool, lossless, charged) = match queued {
            Some(t) => (t.tc, t.pool, t.lossless, t.charged_bytes),
            None => (class.tc, class.pool, class.lossless, charged_bytes(bytes as u32)),
        };
        let mut e = vec![None; out::COUNT];
        e[out::VALID] = Some(1);
        e[out::RELEASE] = Some(0);
        e[out::ADMITTED] = Some(queued.is_some() as u64);
        e[out::DROP_REASON] = Some(drop);
        e[out::TO_HEADROOM] = Some((queued.is_some() && ingress.charged_to == Some(ChargedTo::Headroom)) as u64);
        e[out::TC] = Some(tc as u64);
        e[out::POOL] = Some(pool as u64);
        e[out::LOSSLESS] = Some(lossless as u64);
        e[out::CHARGED_BYTES] = Some(charged as u64);
        e[out::QUEUE_BYTES] = Some(r.egress_bytes(egress_port as usize, pool as usize));
        e[out::PAUSE] = Some(ingress.pause_sent as u64);
        e[out::RESUME] = Some(0);
        e[out::PFC_CLASSES] = ingress.pause_sent.then_some(r.params().priority_group(class.pool as usize) as u64);
        e[out::PFC_RECEIVED] = Some(0);
        e[out::TRIMMED] = Some(trimmed_dscp.is_some() as u64);
        e[out::TRIMMED_DSCP] = Some(trimmed_dscp.unwrap_or(0) as u64);
        e
    }

    fn pfc(&self, r: &mut ReferenceManager, now: u64, port: u8, classes: u8, quanta: u16) -> Vec<Option<u64>> {
        let mut until = r.pfc_received(now, port as usize, classes, quanta);
        if self.fault == Some(Fault::PauseWithoutDelay) && quanta != 0 {
            until -= r.params().delay_ns[port as usize] as u64;
        }
        let mut e = vec![None; out::COUNT];
        for i in [out::RELEASE, out::ADMITTED, out::DROP_REASON, out::TO_HEADROOM, out::PAUSE, out::RESUME, out::TRIMMED] {
            e[i] = Some(0);
        }
        e[out::VALID] = Some(1);
        e[out::PFC_RECEIVED] = Some(1);
        e[out::PAUSED_UNTIL] = Some(until);
        e
    }

    fn release(&self, r: &mut ReferenceManager, tag: &Tag) -> Vec<Option<u64>> {
        let wrong = (self.fault == Some(Fault::OccupancyBeforeHeadroom) && tag.lossless).then(|| {
            // The resume decision if occupancy were drained before headroom.
            let (port, pool) = (tag.ingress_port as usize, tag.pool as usize);
            let (occupancy, headroom) = (r.ingress_bytes(port, pool), r.headroom_bytes(port, pool));
            let from_occupancy = (tag.charged_bytes as u64).min(occupancy);
            let headroom_after = headroom - (tag.charged_bytes as u64 - from_occupancy);
            r.xoff_sent(port, pool) && headroom_after == 0 && occupancy - from_occupancy <= r.params().xon_bytes as u64
        });
        let resumed = r.release(tag);
        let resumed = wrong.unwrap_or(resumed);
        let mut e = vec![None; out::COUNT];
        for i in [out::ADMITTED, out::DROP_REASON, out::TO_HEADROOM, out::PAUSE, out::PFC_RECEIVED, out::TRIMMED] {
            e[i] = Some(0);
        }
        e[out::VALID] = Some(1);
        e[out::RELEASE] = Some(1);
        e[out::POOL] = Some(tag.pool as u64);
        e[out::LOSSLESS] = Some(tag.lossless as u64);
        e[out::CHARGED_BYTES] = Some(tag.charged_bytes as u64);
        e[out::QUEUE_BYTES] = Some(r.egress_bytes(tag.egress_port as usize, tag.pool as usize));
        e[out::RESUME] = Some(resumed as u64);
        e[out::PFC_CLASSES] = resumed.then_some(r.params().priority_group(tag.pool as usize) as u64);
        e
    }
}

/// Stimulus generators for proptest.
pub mod strategies {
    use super::{params, Op};
    use hdl::buffer_manager::LATENCY;
    use proptest::prelude::*;
    use reference::buffer_manager::EgressMode;
    use reference::classify::{Classifier, UetCodepoints};

    /// Codepoints: the defaults half the time (arrivals hit them often),
    /// else random, roles sharing values included.
    fn codepoints() -> impl Strategy<Value = UetCodepoints> {
        prop_oneof![
            Just(UetCodepoints::default()),
            prop::array::uniform6(0u8..64).prop_map(|cp| UetCodepoints { no_trim: cp[0], trimmable: cp[1], trimmable_retransmit: cp[2], control: cp[3], trimmed: cp[4], trimmed_last_hop: cp[5] }),
        ]
    }

    /// Random tables, or the UET policy as trimming needs it (no PFC,
    /// default codepoints).
    fn classifier() -> impl Strategy<Value = Classifier> {
        let random = (prop::bool::weighted(0.3), prop::array::uniform8(0u8..8), prop::array::uniform8(prop::bool::weighted(0.4)), codepoints())
            .prop_map(|(uet_policy, tc_pool, pfc_enabled, codepoints)| Classifier { uet_policy, tc_pool, pfc_enabled, codepoints });
        let uet = Classifier { uet_policy: true, tc_pool: [0; 8], pfc_enabled: [false; 8], codepoints: UetCodepoints::default() };
        prop_oneof![3 => random, 1 => Just(uet)]
    }

    /// Byte thresholds; round thousands often, so packets of round sizes
    /// land exactly on them.
    fn bytes() -> impl Strategy<Value = u32> {
        prop_oneof![3 => 0u32..200_000, 1 => Just(0), 1 => 0u32..20_000, 3 => (0u32..200).prop_map(|k| k * 1000)]
    }

    /// Fixed limits: sometimes above any pool, so the pool's egress
    /// capacity is what stops a packet.
    fn limit() -> impl Strategy<Value = u32> {
        prop_oneof![1 => bytes(), 1 => Just(1u32 << 30)]
    }

    /// Random parameters, written with nothing in flight.
    pub fn program(ports: usize) -> impl Strategy<Value = Vec<Op>> {
        let mode = prop_oneof![Just(EgressMode::Fixed), prop::sample::select(vec![1u16, 128, 512, 1024, 2048, 65535]).prop_map(|a| EgressMode::Dynamic { alpha_q10: a })];
        (prop::array::uniform8(bytes()), prop_oneof![0u32..60_000, (0u32..60).prop_map(|k| k * 1000)], bytes(), bytes(), mode, prop::array::uniform8(limit()), classifier())
            .prop_map(move |(pools, headroom, xoff, xon, mode, fixed, classifier)| {
                let mut ops = vec![Op::Idle; LATENCY];
                ops.push(Op::Program(Box::new(params(ports, pools, headroom, xoff, xon, mode, fixed, classifier))));
                ops
            })
            .prop_flat_map(move |ops| {
                // Quanta of 1-16 ns, and short ones so that pauses fall due
                // for re-sending within a few hundred cycles.
                let quantum = prop_oneof![1 => Just(83_886u32), 1 => 0u32..(1 << 20), 2 => 0u32..8_000];
                let delay = prop_oneof![0u32..5_000, 0u32..300];
                let timing = prop::collection::vec((quantum, delay, any::<bool>()), ports);
                (Just(ops), timing, prop::bool::weighted(0.7)).prop_map(|(mut ops, timing, trimming)| {
                    if let Some(Op::Program(p)) = ops.last_mut() {
                        p.quantum_q16 = timing.iter().map(|t| t.0).collect();
                        p.delay_ns = timing.iter().map(|t| t.1).collect();
                        p.faces_nic = timing.iter().map(|t| t.2).collect();
                        p.trimming = trimming;
                    }
                    ops
                })
            })
    }

    /// Arrivals and releases on a few ports (counters hit back to back),
    /// idle gaps, resets and reprogramming.
    pub fn ops(ports: u8, len: usize) -> impl Strategy<Value = Vec<Op>> {
        let size = prop_oneof![4 => 1u16..9217, 1 => 1u16..46, 1 => Just(46), 1 => Just(u16::MAX), 3 => prop::sample::select(vec![500u16, 1000, 2000, 4000])];
        let dscp = prop_oneof![1 => 0u8..64, 2 => prop::sample::select(vec![0u8, 10, 10, 12, 12, 46, 14, 16])];
        let arrival = (0..ports.min(3), 0..ports.min(3), dscp, size)
            .prop_map(|(ingress_port, egress_port, dscp, bytes)| Op::Arrive { ingress_port, egress_port, dscp, bytes });
        let quanta = prop_oneof![Just(0u16), Just(65535), 1u16..200, any::<u16>()];
        let pfc = (0..ports.min(3), any::<u8>(), quanta).prop_map(|(port, classes, quanta)| Op::Pfc { port, classes, quanta });
        let event = prop_oneof![5 => arrival, 4 => any::<usize>().prop_map(Op::Release), 1 => pfc];
        let burst = prop::collection::vec(event, 1..64);
        let gap = (1usize..5).prop_map(|n| vec![Op::Idle; n]);
        let chunk = prop_oneof![10 => burst, 2 => gap, 1 => Just(vec![Op::Reset]), 1 => program(ports as usize)];
        (program(ports as usize), prop::collection::vec(chunk, 1..len)).prop_map(|(first, chunks)| {
            let mut ops = first;
            ops.extend(chunks.into_iter().flatten());
            ops
        })
    }
}
