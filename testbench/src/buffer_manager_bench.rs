//! Co-simulation adapter of the buffer manager block: ports, stimulus and
//! the reference buffer manager's expected outputs.

use crate::cosim::{blank_until_reset, framed, write_inputs, ControlOps, Trace};
use hdl::buffer_manager::{BufferManager, MissingForward, LATENCY};
use reference::buffer_manager::{BufferManager as ReferenceManager, BufferParams, ChargedTo, DropReason, EgressMode, Tag};
use reference::classify::{charged_bytes, Classifier, UetCodepoints};
use reference::register_map::{buffer_manager_image, RegisterWrite, BM_PORT_DELAY, BM_PORT_FACES_NIC, BM_PORT_QUANTUM, BM_PORT_SELECT};

/// One cycle of stimulus.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Idle,
    Reset,
    Write(RegisterWrite),
    /// Reprogram every register (the reference takes the same parameters).
    Program(Box<BufferParams>),
    Arrive { ingress_port: u8, egress_port: u8, dscp: u8, bytes: u16 },
    /// An ingress check of that arrival that changes nothing (`ev_probe`).
    Probe { ingress_port: u8, egress_port: u8, dscp: u8, bytes: u16 },
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
    /// The dynamic limit saturates one step late (`alpha_hi > 0x3FF_FFFF`
    /// instead of `>=`): at exactly 2^26 - 1 the 32-bit sum wraps to a
    /// small limit. Only stimulus at that arithmetic edge can see it.
    SaturationOneStepLate,
}

#[derive(Clone, Copy, Debug)]
pub struct BufferManagerBench<const A: usize> {
    pub ports: usize,
    pub fault: Option<Fault>,
    /// Build the hardware without this forwarding path
    /// (`BufferManager::without_forward`).
    pub missing_forward: Option<MissingForward>,
}

impl<const A: usize> BufferManagerBench<A> {
    pub fn new(ports: usize) -> Self {
        BufferManagerBench { ports, fault: None, missing_forward: None }
    }

    fn build_block(&self) -> BufferManager<A> {
        let block = match self.missing_forward {
            Some(missing) => BufferManager::without_forward(self.ports, missing),
            None => BufferManager::new(self.ports),
        };
        block.expect("a valid port count")
    }
}

const CFG: &str = "configuration";
const EVENT: &str = "event";
const RESULT: &str = "result";
const RESEND: &str = "pause re-send";

crate::harness! {
    impl[const A: usize] Harness for BufferManagerBench<A> {
        uut: BufferManager<A>, name: "buffer_manager",
        build(self) { self.build_block() }
        inputs {
            reset: 1 => "control",
            cfg_write: 1 => CFG,
            cfg_address: 8 => CFG,
            cfg_data: 32 => CFG,
            ev_arrival: 1 => EVENT,
            ev_probe: 1 => EVENT,
            ev_release: 1 => EVENT,
            ev_ingress_port: 8 => EVENT,
            ev_egress_port: 8 => EVENT,
            ev_dscp: 6 => EVENT,
            ev_bytes: 16 => EVENT,
            ev_pool: 3 => EVENT,
            ev_lossless: 1 => EVENT,
            ev_pfc: 1 => EVENT,
            ev_classes: 8 => EVENT,
            ev_quanta: 16 => EVENT,
            now_ns: 32 => EVENT,
            query_port: 8 => "query",
        }
        outputs {
            result_valid: 1 => RESULT,
            result_release: 1 => RESULT,
            admitted: 1 => RESULT,
            drop_reason: 3 => RESULT,
            to_headroom: 1 => RESULT,
            result_tc: 3 => RESULT,
            result_pool: 3 => RESULT,
            result_lossless: 1 => RESULT,
            charged_bytes: 16 => RESULT,
            queue_bytes: 32 => RESULT,
            pause_request: 1 => RESULT,
            resume_request: 1 => RESULT,
            pfc_classes: 8 => RESULT,
            result_pfc: 1 => RESULT,
            paused_until_ns: 32 => RESULT,
            query_paused: 8 => "query",
            query_expiry_ns: 32 => "query",
            query_egress_bytes: 32 => "query",
            trimmed: 1 => RESULT,
            trimmed_dscp: 6 => RESULT,
            resend_valid: 1 => RESEND,
            resend_port: 8 => RESEND,
            resend_pool: 3 => RESEND,
            resend_classes: 8 => RESEND,
            resend_due_ns: 32 => RESEND,
        }
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

/// A per-port register write on its own (outside a program, which takes
/// effect whole at its first write) reaches the reference's parameters:
/// `port_select` picks the port the next timing writes go to.
fn apply_port_write(params: &mut BufferParams, port_select: &mut usize, w: RegisterWrite) {
    let port = *port_select;
    match w.address {
        BM_PORT_SELECT => *port_select = (w.data & 0xFF) as usize,
        BM_PORT_QUANTUM if port < params.quantum_q16.len() => params.quantum_q16[port] = w.data,
        BM_PORT_DELAY if port < params.delay_ns.len() => params.delay_ns[port] = w.data,
        BM_PORT_FACES_NIC if port < params.faces_nic.len() => params.faces_nic[port] = w.data & 1 == 1,
        _ => {}
    }
}

fn zero_params(ports: usize) -> BufferParams {
    let classifier = Classifier { uet_policy: false, tc_pool: [0; 8], pfc_enabled: [false; 8], codepoints: UetCodepoints { no_trim: 0, trimmable: 0, trimmable_retransmit: 0, control: 0, trimmed: 0, trimmed_last_hop: 0 } };
    params(ports, [0; 8], 0, 0, 0, EgressMode::Fixed, [0; 8], classifier)
}

impl ControlOps for Op {
    const IDLE: Op = Op::Idle;
    const RESET: Op = Op::Reset;
}

const CFG_PORTS: [usize; 3] = [inputs::cfg_write, inputs::cfg_address, inputs::cfg_data];

fn inputs_of(op: &Op) -> Vec<u64> {
    let mut v = vec![0u64; inputs::COUNT];
    match op {
        Op::Reset => v[inputs::reset] = 1,
        Op::Write(w) => write_inputs(&mut v, *w, CFG_PORTS),
        Op::Arrive { ingress_port, egress_port, dscp, bytes } | Op::Probe { ingress_port, egress_port, dscp, bytes } => {
            v[inputs::ev_arrival] = 1;
            v[inputs::ev_probe] = matches!(op, Op::Probe { .. }) as u64;
            v[inputs::ev_ingress_port] = *ingress_port as u64;
            v[inputs::ev_egress_port] = *egress_port as u64;
            v[inputs::ev_dscp] = *dscp as u64;
            v[inputs::ev_bytes] = *bytes as u64;
        }
        Op::Pfc { port, classes, quanta } => {
            v[inputs::ev_pfc] = 1;
            v[inputs::ev_ingress_port] = *port as u64;
            v[inputs::ev_classes] = *classes as u64;
            v[inputs::ev_quanta] = *quanta as u64;
        }
        _ => {}
    }
    v
}

fn release_inputs(tag: &Tag) -> Vec<u64> {
    let mut v = vec![0u64; inputs::COUNT];
    v[inputs::ev_release] = 1;
    v[inputs::ev_ingress_port] = tag.ingress_port as u64;
    v[inputs::ev_egress_port] = tag.egress_port as u64;
    v[inputs::ev_bytes] = tag.charged_bytes as u64;
    v[inputs::ev_pool] = tag.pool as u64;
    v[inputs::ev_lossless] = tag.lossless as u64;
    v
}

/// When the earliest pause of `port` still running at `now` ends
/// (`NO_EXPIRY` when none): the query's `query_expiry_ns`.
pub fn pause_expiry(r: &ReferenceManager, port: usize, now: u64) -> u64 {
    (0..8).map(|tc| r.rx_pause_until_ns(port, tc)).filter(|&until| until > now).min().unwrap_or(hdl::buffer_manager::pfc_receive::NO_EXPIRY as u64)
}

/// A probe's result: the ingress decision on a copy of the reference,
/// which stays as it was.
fn probe_expectation(r: &ReferenceManager, now: u64, ingress_port: u8, egress_port: u8, dscp: u8, bytes: u16) -> Vec<Option<u64>> {
    let mut copy = r.clone();
    let ingress = copy.ingress(now, ingress_port as usize, dscp, bytes as u32);
    let class = ingress.class;
    let passes = ingress.drop.is_none();
    let mut e = vec![None; outputs::COUNT];
    e[outputs::result_valid] = Some(1);
    e[outputs::result_release] = Some(0);
    e[outputs::admitted] = Some(passes as u64);
    e[outputs::drop_reason] = Some(drop_code(ingress.drop));
    e[outputs::to_headroom] = Some((passes && ingress.charged_to == Some(ChargedTo::Headroom)) as u64);
    e[outputs::result_tc] = Some(class.tc as u64);
    e[outputs::result_pool] = Some(class.pool as u64);
    e[outputs::result_lossless] = Some(class.lossless as u64);
    e[outputs::charged_bytes] = Some(charged_bytes(bytes as u32) as u64);
    e[outputs::queue_bytes] = Some(r.egress_bytes(egress_port as usize, class.pool as usize));
    e[outputs::pause_request] = Some(ingress.pause_sent as u64);
    e[outputs::resume_request] = Some(0);
    e[outputs::pfc_classes] = ingress.pause_sent.then_some(r.params().priority_group(class.pool as usize) as u64);
    e[outputs::result_pfc] = Some(0);
    e[outputs::trimmed] = Some(0);
    e[outputs::trimmed_dscp] = Some(0);
    e
}

/// Whether a dynamic limit that saturated one step late would refuse a
/// packet of `bytes` to (`egress_port`, `pool`) that the right one admits:
/// the limit's two 16 x 16 products, summed in 32 bits, wrap when the high
/// product is exactly 2^26 - 1.
fn late_saturation_drops(r: &ReferenceManager, egress_port: usize, pool: usize, bytes: u32) -> bool {
    let EgressMode::Dynamic { alpha_q10 } = r.params().egress_mode else { return false };
    let free = (r.params().pool_size_bytes[pool] as u64).saturating_sub(r.pool_egress_bytes(pool));
    let alpha_hi = alpha_q10 as u64 * (free >> 16);
    let alpha_lo = alpha_q10 as u64 * (free & 0xFFFF);
    let wrapped_limit = ((alpha_hi << 6) + (alpha_lo >> 10)) & 0xFFFF_FFFF;
    alpha_hi == 0x3FF_FFFF && r.egress_bytes(egress_port, pool) + bytes as u64 > wrapped_limit
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
        let address = if reset { addresses - 1 } else { read };
        Sweep { next_address, address, valid: !reset }
    }
}

/// The block's `drop_reason` code of a reference drop.
pub fn drop_code(reason: Option<DropReason>) -> u64 {
    match reason {
        None => 0,
        Some(DropReason::HeadroomFull) => 1,
        Some(DropReason::PoolFull) => 2,
        Some(DropReason::EgressLimit) => 3,
        Some(DropReason::EgressPool) => 4,
    }
}

fn idle_expectation() -> Vec<Option<u64>> {
    let mut e = vec![None; outputs::COUNT];
    for i in [outputs::result_valid, outputs::pause_request, outputs::resume_request, outputs::trimmed] {
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
        let expanded = ops.iter().flat_map(|op| match op {
            Op::Program(p) => buffer_manager_image(p).into_iter().map(Op::Write).collect(),
            other => vec![other.clone()],
        });
        let cycles: Vec<Op> = framed(expanded, LATENCY);
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
        let mut paused_two_before = false;
        let mut last_expiry: Option<u64> = None;
        let mut port_select = 0usize;
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
            let expiry = pause_expiry(&reference, query_port, now);
            let expiry_before = std::mem::replace(&mut last_expiry, Some(expiry)).filter(|_| cycle > LATENCY);
            let port_bytes = reference.port_egress_bytes(query_port);
            // The sweep decides on the next cycle with the events up to this
            // one's predecessor; a pause holds it a cycle after its own.
            sweep = sweep.step(paused_two_before || is_write(cycle) || (cycle > 0 && is_write(cycle - 1)), *op == Op::Reset, addresses);
            let next_now = now + NS_PER_CYCLE;
            let candidate = sweep.valid.then(|| reference.resend_due(sweep.address >> 3, sweep.address & 7, next_now)).flatten();
            let mut paused_now = false;
            match op {
                Op::Arrive { ingress_port, egress_port, dscp, bytes } => {
                    stimulus.push(inputs_of(op));
                    if !cancelled {
                        let e = self.arrival(&mut reference, &mut outstanding, now, *ingress_port, *egress_port, *dscp, *bytes);
                        paused_now = e[outputs::pause_request] == Some(1);
                        expected[at] = e;
                    }
                }
                Op::Probe { ingress_port, egress_port, dscp, bytes } => {
                    stimulus.push(inputs_of(op));
                    if !cancelled {
                        expected[at] = probe_expectation(&reference, now, *ingress_port, *egress_port, *dscp, *bytes);
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
                Op::Release(_) => stimulus.push(inputs_of(&Op::Idle)),
                Op::Pfc { port, classes, quanta } => {
                    stimulus.push(inputs_of(op));
                    if !cancelled {
                        expected[at] = self.pfc(&mut reference, now, *port, *classes, *quanta);
                    }
                }
                Op::Write(w) => {
                    stimulus.push(inputs_of(op));
                    apply_port_write(reference.params_mut(), &mut port_select, *w);
                }
                other => stimulus.push(inputs_of(other)),
            }
            let line = stimulus.last_mut().expect("pushed");
            line[inputs::now_ns] = reference::limits::hardware_time_ns(now).unwrap_or_else(|e| panic!("the stimulus outran the hardware clock: {e}")) as u64;
            line[inputs::query_port] = query_port as u64;
            if cycle >= LATENCY && at < expected.len() {
                expected[at][outputs::query_paused] = Some(paused);
                // The pause end answers a cycle after the rest: the query of
                // the cycle before.
                expected[at][outputs::query_expiry_ns] = expiry_before;
                expected[at][outputs::query_egress_bytes] = Some(port_bytes);
            }
            let next_stalls = paused_before || is_write(cycle + 1) || is_write(cycle);
            let next_resets = cycles.get(cycle + 1) == Some(&Op::Reset);
            // The re-send decided with the next cycle's time answers with the
            // events (same delay through the block).
            let resend_at = cycle + LATENCY - 1;
            if resend_at < expected.len() {
                let resent = candidate.filter(|_| !next_stalls && !next_resets);
                if let Some(frame) = resent {
                    reference.advance_resend(frame.port as usize, frame.pool as usize);
                    if self.fault == Some(Fault::ResendEveryFullPause) {
                        reference.advance_resend(frame.port as usize, frame.pool as usize);
                    }
                }
                let e = &mut expected[resend_at];
                e[outputs::resend_valid] = Some(resent.is_some() as u64);
                if let Some(f) = resent {
                    e[outputs::resend_port] = Some(f.port as u64);
                    e[outputs::resend_pool] = Some(f.pool as u64);
                    e[outputs::resend_classes] = Some(f.classes as u64);
                    e[outputs::resend_due_ns] = Some(f.t_ns);
                }
            }
            paused_two_before = paused_before;
            paused_before = paused_now;
        }
        blank_until_reset(&mut expected, LATENCY, outputs::COUNT);
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
        let late_saturation_drop = self.fault == Some(Fault::SaturationOneStepLate)
            && !class.lossless
            && late_saturation_drops(r, egress_port as usize, class.pool as usize, charged_bytes(bytes as u32));
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
        let mut e = vec![None; outputs::COUNT];
        e[outputs::result_valid] = Some(1);
        e[outputs::result_release] = Some(0);
        e[outputs::admitted] = Some(queued.is_some() as u64);
        e[outputs::drop_reason] = Some(drop);
        e[outputs::to_headroom] = Some((queued.is_some() && ingress.charged_to == Some(ChargedTo::Headroom)) as u64);
        e[outputs::result_tc] = Some(tc as u64);
        e[outputs::result_pool] = Some(pool as u64);
        e[outputs::result_lossless] = Some(lossless as u64);
        e[outputs::charged_bytes] = Some(charged as u64);
        e[outputs::queue_bytes] = Some(r.egress_bytes(egress_port as usize, pool as usize));
        e[outputs::pause_request] = Some(ingress.pause_sent as u64);
        e[outputs::resume_request] = Some(0);
        e[outputs::pfc_classes] = ingress.pause_sent.then_some(r.params().priority_group(class.pool as usize) as u64);
        e[outputs::result_pfc] = Some(0);
        e[outputs::trimmed] = Some(trimmed_dscp.is_some() as u64);
        e[outputs::trimmed_dscp] = Some(trimmed_dscp.unwrap_or(0) as u64);
        if late_saturation_drop && queued.is_some() && trimmed_dscp.is_none() {
            e[outputs::admitted] = Some(0);
            e[outputs::drop_reason] = Some(drop_code(Some(DropReason::EgressLimit)));
        }
        e
    }

    fn pfc(&self, r: &mut ReferenceManager, now: u64, port: u8, classes: u8, quanta: u16) -> Vec<Option<u64>> {
        let mut until = r.pfc_received(now, port as usize, classes, quanta);
        if self.fault == Some(Fault::PauseWithoutDelay) && quanta != 0 {
            until -= r.params().delay_ns[port as usize] as u64;
        }
        let mut e = vec![None; outputs::COUNT];
        for i in [outputs::result_release, outputs::admitted, outputs::drop_reason, outputs::to_headroom, outputs::pause_request, outputs::resume_request, outputs::trimmed] {
            e[i] = Some(0);
        }
        e[outputs::result_valid] = Some(1);
        e[outputs::result_pfc] = Some(1);
        e[outputs::paused_until_ns] = Some(until);
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
        let mut e = vec![None; outputs::COUNT];
        for i in [outputs::admitted, outputs::drop_reason, outputs::to_headroom, outputs::pause_request, outputs::result_pfc, outputs::trimmed] {
            e[i] = Some(0);
        }
        e[outputs::result_valid] = Some(1);
        e[outputs::result_release] = Some(1);
        e[outputs::result_pool] = Some(tag.pool as u64);
        e[outputs::result_lossless] = Some(tag.lossless as u64);
        e[outputs::charged_bytes] = Some(tag.charged_bytes as u64);
        e[outputs::queue_bytes] = Some(r.egress_bytes(tag.egress_port as usize, tag.pool as usize));
        e[outputs::resume_request] = Some(resumed as u64);
        e[outputs::pfc_classes] = resumed.then_some(r.params().priority_group(tag.pool as usize) as u64);
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

    /// (alpha_q10, k): with a pool of `k x 2^16 + r` bytes and less than
    /// `r` bytes in it, the dynamic limit's high product alpha x (free >>
    /// 16) is exactly 2^26 - 1 (the last value whose shift fits in 32 bits) or
    /// 2^26 (the first that overflows); with alpha 63.999 the sum carries lower.
    const SATURATION_EDGES: &[(u16, u32)] = &[
        (8191, 8193), (8193, 8191), (2731, 24573), (24573, 2731), // 2^26 - 1
        (2048, 32768), (4096, 16384), (16384, 4096), (32768, 2048), // 2^26
        (65535, 1024), // 2^26 - 1024: the 32-bit sum of the products wraps when r > 1024
    ];

    /// Pools and alpha at the dynamic limit's saturation edge: every pool
    /// `k x 2^16 + r` with `r` small, so the first packets land on it.
    fn saturation_edge() -> impl Strategy<Value = (EgressMode, [u32; 8])> {
        (prop::sample::select(SATURATION_EDGES), prop::array::uniform8(prop_oneof![0u32..2_000, 0u32..65_536]))
            .prop_map(|((alpha_q10, k), r)| (EgressMode::Dynamic { alpha_q10 }, r.map(|r| k * 65_536 + r)))
    }

    /// Pools and egress mode: small random ones, or the saturation edge.
    fn pools_and_mode() -> impl Strategy<Value = (EgressMode, [u32; 8])> {
        let mode = prop_oneof![Just(EgressMode::Fixed), prop::sample::select(vec![1u16, 128, 512, 1024, 2048, 65535]).prop_map(|a| EgressMode::Dynamic { alpha_q10: a })];
        prop_oneof![6 => (mode, prop::array::uniform8(bytes())), 1 => saturation_edge()]
    }

    /// Random parameters, written with nothing in flight. Xon equals Xoff
    /// in one program of eight.
    pub fn program(ports: usize) -> impl Strategy<Value = Vec<Op>> {
        let xon = prop_oneof![7 => bytes().prop_map(Some), 1 => Just(None)];
        (pools_and_mode(), prop_oneof![0u32..60_000, (0u32..60).prop_map(|k| k * 1000)], bytes(), xon, prop::array::uniform8(limit()), classifier())
            .prop_map(move |((mode, pools), headroom, xoff, xon, fixed, classifier)| {
                let xon = xon.unwrap_or(xoff);
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
        let arrival = (0..ports.min(3), 0..ports.min(3), dscp, size, prop::bool::weighted(0.1)).prop_map(|(ingress_port, egress_port, dscp, bytes, probe)| {
            if probe {
                Op::Probe { ingress_port, egress_port, dscp, bytes }
            } else {
                Op::Arrive { ingress_port, egress_port, dscp, bytes }
            }
        });
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
