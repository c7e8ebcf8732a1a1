//! Shared buffer manager block: classification, ingress admission with PFC
//! and headroom, pools, egress admission against the egress limit (dynamic
//! `alpha x free` or fixed, 1.5x for UET trimmable retransmissions),
//! trimming to TC1, release with headroom first and the resume check, and
//! the pause re-send scheduler. One event per clock; bit-exact with
//! `reference::buffer_manager`.
//!
//! Received PFC frames set per-(port, class) pause deadlines; a query
//! channel exports them and each port's egress occupancy for the flowlet
//! block.
//!
//! Parameters: `A`, the RAM address width: `A - 3` port bits and 3 pool
//! bits (up to `2^(A-3)` ports); [`BufferManager::new`] checks the ports.
//!
//! Ports, by channel (all synchronous to `clock`):
//! * control: `reset` (synchronous; cancels events in flight and restarts
//!   the re-send sweep at (port 0, pool 0), keeps counters)
//! * configuration: `cfg_write`, `cfg_address` (8 bits), `cfg_data` (32);
//!   see `docs/register_map.md`
//! * event (one per clock): `ev_arrival` (a data frame: `ev_ingress_port`,
//!   `ev_egress_port` already chosen, `ev_dscp`, `ev_bytes` without the
//!   Ethernet header; with `ev_probe` also set, an ingress check that
//!   changes nothing: the result is the ingress decision and the class,
//!   no counter is written, no pause sent, the egress port not looked at;
//!   the switch datapath asks it before choosing the egress port) or `ev_release` (a departed packet's tag:
//!   `ev_ingress_port`, `ev_egress_port`, `ev_pool`, `ev_lossless`,
//!   `ev_bytes` as charged) or `ev_pfc` (a PFC frame received on
//!   `ev_ingress_port` for `ev_classes` with `ev_quanta`); `now_ns` (32-bit
//!   ns: runs up to 4.29 s)
//! * query (for the flowlet block): `query_port` -> `query_paused` (bit n:
//!   class n paused by the peer at `now_ns`) and `query_egress_bytes` (the
//!   port's egress bytes over all pools, the frame in transmission
//!   included), after all events of earlier cycles; a cycle after them
//!   `query_expiry_ns` (when the earliest of those pauses ends;
//!   `pfc_receive::NO_EXPIRY` when none)
//! * result: `result_valid`, `result_release`, `admitted`, `drop_reason`
//!   (0 none, 1 headroom full, 2 pool full, 3 egress limit, 4 egress pool),
//!   `to_headroom`, `result_tc`, `result_pool`, `result_lossless`,
//!   `charged_bytes`, `queue_bytes` (the egress queue after the packet),
//!   `trimmed` with `trimmed_dscp` (the packet was cut to 46 B and queued
//!   as TC1 in pool 1; its new codepoint, trimmed-last-hop towards a port
//!   facing a NIC; tc, pool, bytes and queue describe the trimmed packet);
//!   `pause_request` / `resume_request` with `pfc_classes` for the event's
//!   ingress port (a pause frame asks for 65535 quanta, a resume for 0);
//!   `result_pfc` with `paused_until_ns`
//! * pause re-send: `resend_valid`, `resend_port`, `resend_pool`,
//!   `resend_classes`, `resend_due_ns` (when the re-send fell due)
//!
//! Latency 4 cycles ([`LATENCY`]), one event per cycle, back to back on
//! the same counters. The stages: I registers the inputs; C1 classifies,
//! reads the counter RAMs and starts the egress limits of every way the two
//! events ahead can turn out ([`limit_lookahead`]); C2 registers the RAMs'
//! data (a register on each RAM's output), finishes those limits and picks
//! the event's pool counters as the decision in D leaves them; D forwards the
//! two writes the reads missed (`crate::registered_forwarding_ram`),
//! decides and writes; the result follows. Everything after I is
//! the inputs delayed by two cycles (reset, configuration, query and time
//! included), so the block behaves as its one-cycle decision delayed.
//! Configuration: C1 reads a copy of the registers that a write reaches in
//! its C1 cycle, the rest a copy written in its C2 cycle; the per-port
//! registers (the selected port's pause quantum, link delay, faces-NIC
//! flag) are written in C1, except the events' copies of the pause timing
//! (quantum and delay), which the inputs write and address directly (the
//! RAMs' own address and write registers serve as stage I), so that they
//! answer in C2 through the block RAM's output register and the pause's
//! length ([`pause_time`]) is ready before D. An event sees
//! the writes of earlier cycles (a write and an event in one cycle are not
//! supported: the classification and the limit see the old value, the
//! decision the new). Trimming reads pool 1 of both ports in the same cycle from
//! copies of the ingress and egress RAMs (a trimmable packet is TC0, so
//! it never leaves pool 1) and writes pool 1 instead of the packet's pool.
//!
//! The re-send scheduler sweeps the `2^A` (port, pool) pairs round robin,
//! one per cycle: a paused pair whose due time has come emits one re-send
//! (at most one per cycle, so none is lost when many fall due together)
//! and its due time moves on by half a full pause (written a cycle later).
//! It decides with the events up to two cycles back; it holds its place
//! (no emission) in the cycle after an event sends a pause (when the
//! pause's first due time is written), and in the cycle of and after a
//! configuration write. A pair is seen again after `2^A` cycles plus
//! holds: with re-send intervals of at least `2^A` clock periods (half a
//! full pause is 10.5 us or more up to 1.6 Tb/s; 2^A = 2048 cycles at 256
//! ports take 6.6 us at 312 MHz) every re-send goes out within one sweep
//! of falling due. A pair that resumes before the sweep reaches it sends no
//! late re-send.
//!
//! Sub-blocks, one file each: [`registers`] (twice: the C1 and the C2
//! copy), [`classify`] (class, pool, roles), [`limit_lookahead`] (eight
//! [`egress_limit`]s), [`priority_group`] (a pool's lossless classes,
//! twice: results and re-sends), [`pause_time`] (a pause's length, in C2),
//! [`pfc_receive`] (received pauses and the
//! query), [`resend_sweep`]; the counters live in forwarding RAMs
//! (`crate::registered_forwarding_ram`, `crate::forwarding_ram`), the
//! events' pause timing in `crate::output_registered_ram`s.
//!
//! ```text
//!  inputs ─►[I]─► classify, counter RAM reads, limit candidates ─►[C1]─► RAM data, limits x8 ─►[C2]
//!   ─► forwarding, pick the limit (outcomes of the two events before),
//!      admit / trim / release, pool registers, RAM writes ─►[D]─► result
//!  ev_ingress_port ─► quantum, delay RAMs (I, C1) ─► pause_time: quanta x quantum + delay (C2)
//!     ─► pfc_receive: deadlines, query (C2, D)
//!  resend_sweep: pair k ─► due, xoff, the sweep's timing copies ─► due <= now? ─► re-send
//! ```
//!
//! Fmax and size (LFE5U-85F, out of context, seed 1, Yosys 0.23, nextpnr-ecp5
//! 0.11): 16 ports 69.9 MHz at speed 8, 8,735 LUT4, 4,616 FF, 20 DP16KD,
//! 18 MULT18X18D, 1,739 CCU2C; 128 ports 67.3 MHz, 7,980 LUT4, 4,665 FF,
//! 43 DP16KD (speed 6: see the README). The arrival's decision in D sets
//! the pace at both sizes: the twelve slowest registers are its own (its
//! pool registers and the next event's pool counters picked in C2, the
//! trimmed counter's forwarding, the query copy) but for the look-ahead's
//! last candidate, which waits for the classified pool. The feed-forward
//! paths that led beside it (the query's earliest pause end, the pause's
//! length from an unregistered RAM, the trimmed codepoint, the result's
//! queue bytes, the sweep's due-time write and its hold on the decision's
//! pause) are cut; what is left in one cycle is the decision's loop.
//!
//! Drop reasons are [`DropCode`] values.

use reference::register_map::*;
use rust_hdl::prelude::*;
use crate::build_checks::{c8, check_ports, zero_ram, BuildError};
use crate::forwarding_ram::ForwardingRam;
use crate::registered_forwarding_ram::RegisteredForwardingRam;
use crate::output_registered_ram::OutputRegisteredRam;
use rust_hdl::widgets::prelude::RAM;

pub mod classify;
pub mod egress_limit;
pub mod limit_lookahead;
pub mod pause_time;
pub mod pfc_receive;
pub mod priority_group;
pub mod registers;
pub mod resend_sweep;

use classify::Classify;
use limit_lookahead::LimitLookahead;
use pause_time::PauseTime;
use pfc_receive::PfcReceive;
use priority_group::PriorityGroup;
use registers::Registers;
use resend_sweep::ResendSweep;

/// Cycles from an event to its result: the input register, two stages of
/// look-ahead, the decision and the result register.
pub const LATENCY: usize = 4;
/// Cycles by which everything after the input register is delayed.
const DELAY: usize = 2;
const _: () = assert!(LATENCY == DELAY + 2);
const MIN_CHARGE: u32 = 46;
/// Trimmed packets go to TC1, pool 1.
const TRIM_POOL: u32 = 1;
const PAUSE_QUANTA: u32 = reference::ports::PAUSE_QUANTA as u32;

/// The block's `drop_reason` codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropCode {
    None = 0,
    HeadroomFull = 1,
    PoolFull = 2,
    EgressLimit = 3,
    EgressPool = 4,
}

impl DropCode {
    fn constant(self) -> Constant<Bits<3>> {
        Constant::new(Bits::<3>::from(self as u8 as LiteralType))
    }
}

#[derive(LogicBlock)]
pub struct BufferManager<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // configuration channel
    pub cfg_write: Signal<In, Bit>,
    pub cfg_address: Signal<In, Bits<8>>,
    pub cfg_data: Signal<In, Bits<32>>,
    // event channel
    pub ev_arrival: Signal<In, Bit>,
    pub ev_probe: Signal<In, Bit>,
    pub ev_release: Signal<In, Bit>,
    pub ev_ingress_port: Signal<In, Bits<8>>,
    pub ev_egress_port: Signal<In, Bits<8>>,
    pub ev_dscp: Signal<In, Bits<6>>,
    pub ev_bytes: Signal<In, Bits<16>>,
    pub ev_pool: Signal<In, Bits<3>>,
    pub ev_lossless: Signal<In, Bit>,
    pub ev_pfc: Signal<In, Bit>,
    pub ev_classes: Signal<In, Bits<8>>,
    pub ev_quanta: Signal<In, Bits<16>>,
    pub now_ns: Signal<In, Bits<32>>,
    // pause query channel (for the flowlet block)
    pub query_port: Signal<In, Bits<8>>,
    // result channel
    pub result_valid: Signal<Out, Bit>,
    pub result_release: Signal<Out, Bit>,
    pub admitted: Signal<Out, Bit>,
    pub drop_reason: Signal<Out, Bits<3>>,
    pub to_headroom: Signal<Out, Bit>,
    pub result_tc: Signal<Out, Bits<3>>,
    pub result_pool: Signal<Out, Bits<3>>,
    pub result_lossless: Signal<Out, Bit>,
    pub charged_bytes: Signal<Out, Bits<16>>,
    pub queue_bytes: Signal<Out, Bits<32>>,
    pub pause_request: Signal<Out, Bit>,
    pub resume_request: Signal<Out, Bit>,
    pub pfc_classes: Signal<Out, Bits<8>>,
    pub result_pfc: Signal<Out, Bit>,
    pub paused_until_ns: Signal<Out, Bits<32>>,
    pub query_paused: Signal<Out, Bits<8>>,
    pub query_expiry_ns: Signal<Out, Bits<32>>,
    pub query_egress_bytes: Signal<Out, Bits<32>>,
    pub trimmed: Signal<Out, Bit>,
    pub trimmed_dscp: Signal<Out, Bits<6>>,
    // pause re-send channel
    pub resend_valid: Signal<Out, Bit>,
    pub resend_port: Signal<Out, Bits<8>>,
    pub resend_pool: Signal<Out, Bits<3>>,
    pub resend_classes: Signal<Out, Bits<8>>,
    pub resend_due_ns: Signal<Out, Bits<32>>,
    // sub-blocks
    early_regs: Registers,
    regs: Registers,
    classify: Classify,
    lookahead: LimitLookahead,
    group: PriorityGroup,
    pause_time: PauseTime,
    pfc: PfcReceive<A>,
    sweep: ResendSweep<A>,
    port_select: DFF<Bits<8>>,
    faces_nic_ram: RAM<Bit, A>,
    // per-port pause timing: the events' copies, addressed by the input
    // port itself and read through the block RAM's output register, and
    // the re-send sweep's copies, written a cycle later
    quantum_ram: OutputRegisteredRam<Bits<32>, A>,
    delay_ram: OutputRegisteredRam<Bits<32>, A>,
    quantum_sweep_ram: RAM<Bits<32>, A>,
    delay_sweep_ram: RAM<Bits<32>, A>,
    // switch-wide counters
    pool_bytes: [DFF<Bits<32>>; 8],
    pool_egress_bytes: [DFF<Bits<32>>; 8],
    // per (port, pool) and per port counters, read two cycles ahead of the
    // decision, registered after the block RAMs; copies written
    // with them serve pool 1 of the same ports (trimming), the sweep
    // (xoff) and the query channel (port)
    ingress_ram: RegisteredForwardingRam<Bits<32>, A>,
    ingress1_ram: RegisteredForwardingRam<Bits<32>, A>,
    headroom_ram: RegisteredForwardingRam<Bits<32>, A>,
    xoff_ram: RegisteredForwardingRam<Bit, A>,
    xoff_sweep_ram: ForwardingRam<Bit, A>,
    egress_ram: RegisteredForwardingRam<Bits<32>, A>,
    egress1_ram: RegisteredForwardingRam<Bits<32>, A>,
    port_ram: RegisteredForwardingRam<Bits<32>, A>,
    port_query_ram: ForwardingRam<Bits<32>, A>,
    // stage I: the inputs registered
    in_reset: DFF<Bit>,
    in_cfg_write: DFF<Bit>,
    in_cfg_address: DFF<Bits<8>>,
    in_cfg_data: DFF<Bits<32>>,
    in_arrival: DFF<Bit>,
    in_probe: DFF<Bit>,
    in_release: DFF<Bit>,
    in_ingress_port: DFF<Bits<8>>,
    in_egress_port: DFF<Bits<8>>,
    in_dscp: DFF<Bits<6>>,
    in_bytes: DFF<Bits<16>>,
    in_pool: DFF<Bits<3>>,
    in_lossless: DFF<Bit>,
    in_pfc: DFF<Bit>,
    in_classes: DFF<Bits<8>>,
    in_quanta: DFF<Bits<16>>,
    in_now: DFF<Bits<32>>,
    in_query_port: DFF<Bits<8>>,
    // stage C1: the inputs two cycles late, and the classification
    c1_reset: DFF<Bit>,
    c1_cfg_write: DFF<Bit>,
    c1_cfg_address: DFF<Bits<8>>,
    c1_cfg_data: DFF<Bits<32>>,
    c1_arrival: DFF<Bit>,
    c1_probe: DFF<Bit>,
    c1_release: DFF<Bit>,
    c1_ingress_port: DFF<Bits<8>>,
    c1_egress_port: DFF<Bits<8>>,
    /// The bytes the event is charged (an arrival at least `MIN_CHARGE`).
    c1_charged_bytes: DFF<Bits<16>>,
    c1_lossless: DFF<Bit>,
    c1_pfc: DFF<Bit>,
    c1_classes: DFF<Bits<8>>,
    c1_quanta: DFF<Bits<16>>,
    c1_now: DFF<Bits<32>>,
    c1_query_port: DFF<Bits<8>>,
    c1_tc: DFF<Bits<3>>,
    c1_pool: DFF<Bits<3>>,
    c1_class_lossless: DFF<Bit>,
    c1_retransmit: DFF<Bit>,
    c1_trimmable: DFF<Bit>,
    c1_in_address: DFF<Bits<A>>,
    c1_eg_address: DFF<Bits<A>>,
    // stage D (registered at the end of C2)
    s1_arrival: DFF<Bit>,
    s1_probe: DFF<Bit>,
    s1_release: DFF<Bit>,
    s1_in_address: DFF<Bits<A>>,
    s1_eg_address: DFF<Bits<A>>,
    s1_port_address: DFF<Bits<A>>,
    s1_pool: DFF<Bits<3>>,
    s1_pool_size: DFF<Bits<32>>,
    /// The event's pool counters (bytes) as the decision before it leaves
    /// them: picked in C2 with that decision forwarded, so that stage D
    /// starts from a register instead of an 8:1 mux of the pool registers.
    s1_pool_bytes: DFF<Bits<32>>,
    s1_pool_egress_bytes: DFF<Bits<32>>,
    s1_tc: DFF<Bits<3>>,
    s1_lossless: DFF<Bit>,
    s1_trimmable: DFF<Bit>,
    s1_bytes: DFF<Bits<16>>,
    s1_pfc: DFF<Bit>,
    s1_classes: DFF<Bits<8>>,
    s1_now: DFF<Bits<32>>,
    // the result (registered at the end of D)
    s2_valid: DFF<Bit>,
    s2_release: DFF<Bit>,
    s2_admitted: DFF<Bit>,
    s2_drop: DFF<Bits<3>>,
    s2_headroom: DFF<Bit>,
    s2_tc: DFF<Bits<3>>,
    s2_pool: DFF<Bits<3>>,
    s2_lossless: DFF<Bit>,
    s2_bytes: DFF<Bits<16>>,
    /// The egress queue's bytes as each outcome leaves them (unchanged,
    /// the packet added, released, trimmed into pool 1), registered beside
    /// the outcome and picked on the output, so the decision's outcome
    /// ends at a bit and not at a 32-bit multiplexer.
    s2_queue_unchanged: DFF<Bits<32>>,
    s2_queue_added: DFF<Bits<32>>,
    s2_queue_released: DFF<Bits<32>>,
    s2_queue_trimmed: DFF<Bits<32>>,
    s2_added_at_egress: DFF<Bit>,
    s2_pause: DFF<Bit>,
    s2_resume: DFF<Bit>,
    s2_classes: DFF<Bits<8>>,
    s2_pfc: DFF<Bit>,
    s2_until: DFF<Bits<32>>,
    s2_query: DFF<Bits<8>>,
    s2_query_expiry: DFF<Bits<32>>,
    s2_query_bytes: DFF<Bits<32>>,
    s2_trimmed: DFF<Bit>,
    /// The codepoint a trimmed packet gets (trimmed, or trimmed-last-hop
    /// towards a port facing a NIC), registered whether or not the packet
    /// is trimmed: the trim decision comes late in D and only gates it on
    /// the output.
    s2_trim_codepoint: DFF<Bits<6>>,
    // combinational intermediates
    in_pool_used: Signal<Local, Bits<3>>,
    ev_in_address: Signal<Local, Bits<A>>,
    ev_eg_address: Signal<Local, Bits<A>>,
    pool_now: Signal<Local, Bits<32>>,
    pool_egress_now: Signal<Local, Bits<32>>,
    pool_after: Signal<Local, Bits<32>>,
    pool_egress_after: Signal<Local, Bits<32>>,
    ingress_drop: Signal<Local, Bits<3>>,
    egress_drop: Signal<Local, Bits<3>>,
    bytes32: Signal<Local, Bits<32>>,
    ingress_next: Signal<Local, Bits<32>>,
    headroom_next: Signal<Local, Bits<32>>,
    xoff_next: Signal<Local, Bit>,
    egress_next: Signal<Local, Bits<32>>,
    port_next: Signal<Local, Bits<32>>,
    pool_next: Signal<Local, Bits<32>>,
    pool_egress_next: Signal<Local, Bits<32>>,
    drop_code: Signal<Local, Bits<3>>,
    went_headroom: Signal<Local, Bit>,
    pause_now: Signal<Local, Bit>,
    pause_quanta_now: Signal<Local, Bits<16>>,
    resume_now: Signal<Local, Bit>,
    /// A lossless release's bytes cover its port's headroom (which it
    /// empties, the rest leaving the pool).
    covers_headroom: Signal<Local, Bit>,
    /// The ingress counter and the pool after a release that covers the
    /// headroom: `+ headroom - bytes`.
    ingress_after_cover: Signal<Local, Bits<32>>,
    pool_after_cover: Signal<Local, Bits<32>>,
    trim_try: Signal<Local, Bit>,
    trim_drop: Signal<Local, Bits<3>>,
    trim_ok: Signal<Local, Bit>,
    added_at_egress: Signal<Local, Bit>,
    counters_write: Signal<Local, Bit>,
    limit_fixed_now: Signal<Local, Bits<32>>,
    ingress_pool1_address: Signal<Local, Bits<A>>,
    ingress_write_data: Signal<Local, Bits<32>>,
    egress_pool1_address: Signal<Local, Bits<A>>,
    egress_write_data: Signal<Local, Bits<32>>,
    // register addresses and constants
    reg_port: [Constant<Bits<8>>; 4],
    drop_none: Constant<Bits<3>>,
    drop_headroom_full: Constant<Bits<3>>,
    drop_pool_full: Constant<Bits<3>>,
    drop_egress_limit: Constant<Bits<3>>,
    drop_egress_pool: Constant<Bits<3>>,
    min_charge: Constant<Bits<16>>,
    trim_charge: Constant<Bits<32>>,
    trim_pool: Constant<Bits<3>>,
    pause_quanta: Constant<Bits<16>>,
    /// False only in the fault-injection build without the C2 pick's
    /// forwarding of D's pool writes.
    pool_pick_forward: Constant<Bit>,
}

/// A forwarding path that a fault-injection build leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissingForward {
    /// The egress limit ignores the outcome of the event two ahead
    /// (`limit_lookahead`'s older outcome).
    OlderLookahead,
    /// Stage C2 picks the next event's pool counters from the pool
    /// registers without the write stage D makes in the same cycle.
    PoolPick,
    /// The re-send sweep loses a re-send's due-time write that waits
    /// behind a pause (`resend_sweep`).
    WaitingDueWrite,
}

impl<const A: usize> BufferManager<A> {
    /// A buffer manager for `ports` ports.
    pub fn new(ports: usize) -> Result<BufferManager<A>, BuildError> {
        Self::build(ports, None)
    }

    /// A buffer manager without one of its forwarding paths: wrong on
    /// purpose, for the fault-injection tests (the co-simulation must
    /// catch every one).
    pub fn without_forward(ports: usize, missing: MissingForward) -> Result<BufferManager<A>, BuildError> {
        Self::build(ports, Some(missing))
    }

    fn build(ports: usize, missing: Option<MissingForward>) -> Result<BufferManager<A>, BuildError> {
        check_ports::<A>("buffer manager", ports)?;
        let older_lookahead = missing != Some(MissingForward::OlderLookahead);
        let pool_pick_forward = missing != Some(MissingForward::PoolPick);
        let keep_waiting_due_write = missing != Some(MissingForward::WaitingDueWrite);
        Ok(BufferManager {
            clock: Default::default(), reset: Default::default(),
            cfg_write: Default::default(), cfg_address: Default::default(), cfg_data: Default::default(),
            ev_arrival: Default::default(), ev_probe: Default::default(), ev_release: Default::default(), ev_ingress_port: Default::default(),
            ev_egress_port: Default::default(), ev_dscp: Default::default(), ev_bytes: Default::default(),
            ev_pool: Default::default(), ev_lossless: Default::default(), ev_pfc: Default::default(),
            ev_classes: Default::default(), ev_quanta: Default::default(), now_ns: Default::default(),
            query_port: Default::default(),
            result_valid: Default::default(), result_release: Default::default(), admitted: Default::default(),
            drop_reason: Default::default(), to_headroom: Default::default(), result_tc: Default::default(),
            result_pool: Default::default(), result_lossless: Default::default(), charged_bytes: Default::default(),
            queue_bytes: Default::default(), pause_request: Default::default(), resume_request: Default::default(),
            pfc_classes: Default::default(), result_pfc: Default::default(), paused_until_ns: Default::default(),
            query_paused: Default::default(), query_expiry_ns: Default::default(), query_egress_bytes: Default::default(),
            trimmed: Default::default(), trimmed_dscp: Default::default(),
            resend_valid: Default::default(), resend_port: Default::default(), resend_pool: Default::default(),
            resend_classes: Default::default(), resend_due_ns: Default::default(),
            early_regs: Default::default(), regs: Default::default(), classify: Default::default(),
            lookahead: LimitLookahead::new(older_lookahead), group: Default::default(),
            pause_time: Default::default(), pfc: Default::default(), sweep: ResendSweep::new(keep_waiting_due_write),
            port_select: Default::default(), faces_nic_ram: zero_ram(),
            quantum_ram: OutputRegisteredRam::new(true), delay_ram: OutputRegisteredRam::new(true),
            quantum_sweep_ram: zero_ram(), delay_sweep_ram: zero_ram(),
            pool_bytes: Default::default(), pool_egress_bytes: Default::default(),
            ingress_ram: Default::default(), ingress1_ram: Default::default(), headroom_ram: Default::default(),
            xoff_ram: Default::default(), xoff_sweep_ram: Default::default(), egress_ram: Default::default(),
            egress1_ram: Default::default(), port_ram: Default::default(), port_query_ram: Default::default(),
            in_reset: Default::default(), in_cfg_write: Default::default(), in_cfg_address: Default::default(),
            in_cfg_data: Default::default(), in_arrival: Default::default(), in_probe: Default::default(), in_release: Default::default(),
            in_ingress_port: Default::default(), in_egress_port: Default::default(), in_dscp: Default::default(),
            in_bytes: Default::default(), in_pool: Default::default(), in_lossless: Default::default(),
            in_pfc: Default::default(), in_classes: Default::default(), in_quanta: Default::default(),
            in_now: Default::default(), in_query_port: Default::default(),
            c1_reset: Default::default(), c1_cfg_write: Default::default(), c1_cfg_address: Default::default(),
            c1_cfg_data: Default::default(), c1_arrival: Default::default(), c1_probe: Default::default(), c1_release: Default::default(),
            c1_ingress_port: Default::default(), c1_egress_port: Default::default(), c1_charged_bytes: Default::default(),
            c1_lossless: Default::default(), c1_pfc: Default::default(), c1_classes: Default::default(),
            c1_quanta: Default::default(), c1_now: Default::default(), c1_query_port: Default::default(),
            c1_tc: Default::default(), c1_pool: Default::default(), c1_class_lossless: Default::default(),
            c1_retransmit: Default::default(), c1_trimmable: Default::default(),
            c1_in_address: Default::default(), c1_eg_address: Default::default(),
            s1_arrival: Default::default(), s1_probe: Default::default(), s1_release: Default::default(), s1_in_address: Default::default(),
            s1_eg_address: Default::default(), s1_port_address: Default::default(), s1_pool: Default::default(),
            s1_pool_size: Default::default(), s1_pool_bytes: Default::default(), s1_pool_egress_bytes: Default::default(), s1_tc: Default::default(), s1_lossless: Default::default(),
            s1_trimmable: Default::default(), s1_bytes: Default::default(), s1_pfc: Default::default(),
            s1_classes: Default::default(), s1_now: Default::default(),
            s2_valid: Default::default(), s2_release: Default::default(), s2_admitted: Default::default(),
            s2_drop: Default::default(), s2_headroom: Default::default(), s2_tc: Default::default(),
            s2_pool: Default::default(), s2_lossless: Default::default(), s2_bytes: Default::default(),
            s2_queue_unchanged: Default::default(), s2_queue_added: Default::default(),
            s2_queue_released: Default::default(), s2_queue_trimmed: Default::default(),
            s2_added_at_egress: Default::default(), s2_pause: Default::default(), s2_resume: Default::default(),
            s2_classes: Default::default(), s2_pfc: Default::default(), s2_until: Default::default(),
            s2_query: Default::default(), s2_query_expiry: Default::default(), s2_query_bytes: Default::default(), s2_trimmed: Default::default(),
            s2_trim_codepoint: Default::default(),
            in_pool_used: Default::default(),
            ev_in_address: Default::default(), ev_eg_address: Default::default(),
            pool_now: Default::default(), pool_egress_now: Default::default(),
            pool_after: Default::default(), pool_egress_after: Default::default(), ingress_drop: Default::default(),
            egress_drop: Default::default(), bytes32: Default::default(), ingress_next: Default::default(),
            headroom_next: Default::default(), xoff_next: Default::default(), egress_next: Default::default(),
            port_next: Default::default(), pool_next: Default::default(), pool_egress_next: Default::default(),
            drop_code: Default::default(), went_headroom: Default::default(), pause_now: Default::default(), pause_quanta_now: Default::default(),
            resume_now: Default::default(), covers_headroom: Default::default(),
            ingress_after_cover: Default::default(), pool_after_cover: Default::default(), trim_try: Default::default(),
            trim_drop: Default::default(), trim_ok: Default::default(), added_at_egress: Default::default(), counters_write: Default::default(),
            limit_fixed_now: Default::default(),
            ingress_pool1_address: Default::default(), ingress_write_data: Default::default(),
            egress_pool1_address: Default::default(), egress_write_data: Default::default(),
            reg_port: [BM_PORT_SELECT, BM_PORT_QUANTUM, BM_PORT_DELAY, BM_PORT_FACES_NIC].map(c8),
            drop_none: DropCode::None.constant(),
            drop_headroom_full: DropCode::HeadroomFull.constant(),
            drop_pool_full: DropCode::PoolFull.constant(),
            drop_egress_limit: DropCode::EgressLimit.constant(),
            drop_egress_pool: DropCode::EgressPool.constant(),
            min_charge: Constant::new(Bits::<16>::from(MIN_CHARGE as LiteralType)),
            trim_charge: Constant::new(Bits::<32>::from(MIN_CHARGE as LiteralType)),
            trim_pool: Constant::new(Bits::<3>::from(TRIM_POOL as LiteralType)),
            pool_pick_forward: Constant::new(pool_pick_forward),
            pause_quanta: Constant::new(Bits::<16>::from(PAUSE_QUANTA as LiteralType)),
        })
    }
}

impl<const A: usize> Logic for BufferManager<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, port_select,
            in_reset, in_cfg_write, in_cfg_address, in_cfg_data, in_arrival, in_probe, in_release, in_ingress_port,
            in_egress_port, in_dscp, in_bytes, in_pool, in_lossless, in_pfc, in_classes, in_quanta, in_now, in_query_port,
            c1_reset, c1_cfg_write, c1_cfg_address, c1_cfg_data, c1_arrival, c1_probe, c1_release, c1_ingress_port,
            c1_egress_port, c1_charged_bytes, c1_lossless, c1_pfc, c1_classes, c1_quanta, c1_now, c1_query_port,
            c1_tc, c1_pool, c1_class_lossless, c1_retransmit, c1_trimmable, c1_in_address, c1_eg_address,
            s1_arrival, s1_probe, s1_release, s1_in_address, s1_eg_address, s1_port_address, s1_pool, s1_pool_size, s1_pool_bytes, s1_pool_egress_bytes, s1_tc,
            s1_lossless, s1_trimmable, s1_bytes, s1_pfc, s1_classes, s1_now,
            s2_valid, s2_release, s2_admitted, s2_drop, s2_headroom, s2_tc, s2_pool, s2_lossless, s2_bytes,
            s2_queue_unchanged, s2_queue_added, s2_queue_released, s2_queue_trimmed, s2_added_at_egress, s2_pause, s2_resume, s2_classes, s2_pfc, s2_until, s2_query, s2_query_expiry, s2_query_bytes, s2_trimmed, s2_trim_codepoint);
        for p in 0..8 {
            self.pool_bytes[p].clock.next = self.clock.val();
            self.pool_bytes[p].d.next = self.pool_bytes[p].q.val();
            self.pool_egress_bytes[p].clock.next = self.clock.val();
            self.pool_egress_bytes[p].d.next = self.pool_egress_bytes[p].q.val();
        }
        // Stage I: every input registered.
        self.in_reset.d.next = self.reset.val();
        self.in_cfg_write.d.next = self.cfg_write.val();
        self.in_cfg_address.d.next = self.cfg_address.val();
        self.in_cfg_data.d.next = self.cfg_data.val();
        self.in_arrival.d.next = self.ev_arrival.val();
        self.in_probe.d.next = self.ev_arrival.val() & self.ev_probe.val();
        self.in_release.d.next = self.ev_release.val();
        self.in_ingress_port.d.next = self.ev_ingress_port.val();
        self.in_egress_port.d.next = self.ev_egress_port.val();
        self.in_dscp.d.next = self.ev_dscp.val();
        self.in_bytes.d.next = self.ev_bytes.val();
        self.in_pool.d.next = self.ev_pool.val();
        self.in_lossless.d.next = self.ev_lossless.val();
        self.in_pfc.d.next = self.ev_pfc.val();
        self.in_classes.d.next = self.ev_classes.val();
        self.in_quanta.d.next = self.ev_quanta.val();
        self.in_now.d.next = self.now_ns.val();
        self.in_query_port.d.next = self.query_port.val();
        // Stage C1: the registers a write reaches in this stage; classify.
        self.early_regs.clock.next = self.clock.val();
        self.early_regs.cfg_write.next = self.in_cfg_write.q.val();
        self.early_regs.cfg_address.next = self.in_cfg_address.q.val();
        self.early_regs.cfg_data.next = self.in_cfg_data.q.val();
        self.classify.dscp.next = self.in_dscp.q.val();
        self.classify.uet_policy.next = self.early_regs.uet_policy.val();
        self.classify.tc_pool.next = self.early_regs.tc_pool.val();
        self.classify.pfc_enabled.next = self.early_regs.pfc_enabled.val();
        self.classify.no_trim_dscp.next = self.early_regs.no_trim_dscp.val();
        self.classify.trimmable_dscp.next = self.early_regs.trimmable_dscp.val();
        self.classify.retransmit_dscp.next = self.early_regs.retransmit_dscp.val();
        self.classify.control_dscp.next = self.early_regs.control_dscp.val();
        self.classify.trimmed_dscp.next = self.early_regs.trimmed_dscp.val();
        self.classify.trimmed_last_hop_dscp.next = self.early_regs.trimmed_last_hop_dscp.val();
        // The pause timing RAMs of the events are written and addressed by
        // the inputs themselves (stage I is the RAMs' own input register),
        // so that their words leave through the block RAM's output register
        // in C2, for the pause's length; the port select is written with
        // them. The sweep's copies and the faces-NIC flags are written here,
        // where all other registers are, and still see every earlier select.
        if self.cfg_write.val() & (self.cfg_address.val() == self.reg_port[0].val()) {
            self.port_select.d.next = self.cfg_data.val().get_bits::<8>(0);
        }
        self.quantum_ram.clock.next = self.clock.val();
        self.delay_ram.clock.next = self.clock.val();
        self.quantum_ram.write_address.next = bit_cast::<A, 8>(self.port_select.q.val());
        self.delay_ram.write_address.next = bit_cast::<A, 8>(self.port_select.q.val());
        self.quantum_ram.write_data.next = self.cfg_data.val();
        self.delay_ram.write_data.next = self.cfg_data.val();
        self.quantum_ram.write_enable.next = self.cfg_write.val() & (self.cfg_address.val() == self.reg_port[1].val());
        self.delay_ram.write_enable.next = self.cfg_write.val() & (self.cfg_address.val() == self.reg_port[2].val());
        self.quantum_ram.read_address.next = bit_cast::<A, 8>(self.ev_ingress_port.val());
        self.delay_ram.read_address.next = bit_cast::<A, 8>(self.ev_ingress_port.val());
        self.quantum_sweep_ram.write_clock.next = self.clock.val();
        self.quantum_sweep_ram.read_clock.next = self.clock.val();
        self.delay_sweep_ram.write_clock.next = self.clock.val();
        self.delay_sweep_ram.read_clock.next = self.clock.val();
        self.quantum_sweep_ram.write_address.next = bit_cast::<A, 8>(self.port_select.q.val());
        self.delay_sweep_ram.write_address.next = bit_cast::<A, 8>(self.port_select.q.val());
        self.quantum_sweep_ram.write_data.next = self.in_cfg_data.q.val();
        self.delay_sweep_ram.write_data.next = self.in_cfg_data.q.val();
        self.quantum_sweep_ram.write_enable.next = self.in_cfg_write.q.val() & (self.in_cfg_address.q.val() == self.reg_port[1].val());
        self.delay_sweep_ram.write_enable.next = self.in_cfg_write.q.val() & (self.in_cfg_address.q.val() == self.reg_port[2].val());
        self.faces_nic_ram.write_clock.next = self.clock.val();
        self.faces_nic_ram.read_clock.next = self.clock.val();
        self.faces_nic_ram.write_address.next = bit_cast::<A, 8>(self.port_select.q.val());
        self.faces_nic_ram.write_data.next = self.in_cfg_data.q.val().get_bit(0);
        self.faces_nic_ram.write_enable.next = self.in_cfg_write.q.val() & (self.in_cfg_address.q.val() == self.reg_port[3].val());
        // A release names its pool.
        if self.in_release.q.val() {
            self.in_pool_used.next = self.in_pool.q.val();
        } else {
            self.in_pool_used.next = self.classify.pool.val();
        }
        self.early_regs.pool_select.next = self.in_pool_used.val();
        // The limits' look-ahead: this event's pool as of the event in D
        // (two ahead) and the event in C2 (one ahead).
        self.lookahead.clock.next = self.clock.val();
        self.lookahead.pool.next = self.in_pool_used.val();
        for p in 0..8 {
            self.lookahead.pool_size_of[p].next = self.early_regs.pool_size_of[p].val();
            self.lookahead.pool_egress_of[p].next = self.pool_egress_bytes[p].q.val();
        }
        self.lookahead.older_arrival.next = self.s1_arrival.q.val();
        self.lookahead.older_release.next = self.s1_release.q.val();
        self.lookahead.older_pool.next = self.s1_pool.q.val();
        self.lookahead.older_bytes.next = bit_cast::<32, 16>(self.s1_bytes.q.val());
        self.lookahead.newer_arrival.next = self.c1_arrival.q.val() & !self.c1_release.q.val();
        self.lookahead.newer_release.next = self.c1_release.q.val();
        self.lookahead.newer_pool.next = self.c1_pool.q.val();
        self.lookahead.newer_bytes.next = bit_cast::<32, 16>(self.c1_charged_bytes.q.val());
        // Counter reads, two cycles ahead of the decision: (ingress port,
        // pool), (egress port, pool), egress port, and pool 1 of both ports
        // (where a trimmed packet goes).
        self.ev_in_address.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.in_ingress_port.q.val()) << 3) | bit_cast::<11, 3>(self.in_pool_used.val()));
        self.ev_eg_address.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.in_egress_port.q.val()) << 3) | bit_cast::<11, 3>(self.in_pool_used.val()));
        self.ingress_ram.clock.next = self.clock.val();
        self.ingress1_ram.clock.next = self.clock.val();
        self.headroom_ram.clock.next = self.clock.val();
        self.xoff_ram.clock.next = self.clock.val();
        self.xoff_sweep_ram.clock.next = self.clock.val();
        self.egress_ram.clock.next = self.clock.val();
        self.egress1_ram.clock.next = self.clock.val();
        self.port_ram.clock.next = self.clock.val();
        self.ingress_ram.read_address.next = self.ev_in_address.val();
        self.headroom_ram.read_address.next = self.ev_in_address.val();
        self.xoff_ram.read_address.next = self.ev_in_address.val();
        self.egress_ram.read_address.next = self.ev_eg_address.val();
        self.port_ram.read_address.next = bit_cast::<A, 8>(self.in_egress_port.q.val());
        self.ingress1_ram.read_address.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.in_ingress_port.q.val()) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
        self.egress1_ram.read_address.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.in_egress_port.q.val()) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
        self.c1_in_address.d.next = self.ev_in_address.val();
        self.c1_eg_address.d.next = self.ev_eg_address.val();
        self.c1_reset.d.next = self.in_reset.q.val();
        self.c1_cfg_write.d.next = self.in_cfg_write.q.val();
        self.c1_cfg_address.d.next = self.in_cfg_address.q.val();
        self.c1_cfg_data.d.next = self.in_cfg_data.q.val();
        self.c1_arrival.d.next = self.in_arrival.q.val();
        self.c1_probe.d.next = self.in_probe.q.val();
        self.c1_release.d.next = self.in_release.q.val();
        self.c1_ingress_port.d.next = self.in_ingress_port.q.val();
        self.c1_egress_port.d.next = self.in_egress_port.q.val();
        // Charged a stage ahead of its use: the look-ahead sums it in C1.
        self.c1_charged_bytes.d.next = self.in_bytes.q.val();
        if self.in_arrival.q.val() & (self.in_bytes.q.val() < self.min_charge.val()) {
            self.c1_charged_bytes.d.next = self.min_charge.val();
        }
        self.c1_lossless.d.next = self.in_lossless.q.val();
        self.c1_pfc.d.next = self.in_pfc.q.val();
        self.c1_classes.d.next = self.in_classes.q.val();
        self.c1_quanta.d.next = self.in_quanta.q.val();
        self.c1_now.d.next = self.in_now.q.val();
        self.c1_query_port.d.next = self.in_query_port.q.val();
        self.c1_tc.d.next = self.classify.tc.val();
        self.c1_pool.d.next = self.in_pool_used.val();
        self.c1_class_lossless.d.next = self.classify.lossless.val();
        self.c1_retransmit.d.next = self.classify.retransmit.val();
        self.c1_trimmable.d.next = self.classify.trimmable.val();
        // Stage C2: the registers a write reaches in this stage (all but
        // classification and pool sizes of the limits), per-port registers.
        self.regs.clock.next = self.clock.val();
        self.regs.cfg_write.next = self.c1_cfg_write.q.val();
        self.regs.cfg_address.next = self.c1_cfg_address.q.val();
        self.regs.cfg_data.next = self.c1_cfg_data.q.val();
        self.regs.pool_select.next = self.c1_pool.q.val();
        self.faces_nic_ram.read_address.next = bit_cast::<A, 8>(self.c1_egress_port.q.val());
        // The limits of the look-ahead's candidates.
        self.lookahead.dynamic_limit.next = self.regs.dynamic_limit.val();
        self.lookahead.alpha_q10.next = self.regs.alpha_q10.val();
        if self.c1_retransmit.q.val() {
            self.limit_fixed_now.next = self.regs.retransmit_limit_bytes.val();
        } else {
            self.limit_fixed_now.next = self.regs.fixed_limit_bytes.val();
        }
        self.lookahead.fixed_limit_bytes.next = self.limit_fixed_now.val();
        self.lookahead.pool1_fixed_bytes.next = self.regs.pool1_fixed_bytes.val();
        self.port_query_ram.clock.next = self.clock.val();
        self.port_query_ram.read_address.next = bit_cast::<A, 8>(self.c1_query_port.q.val());
        self.s1_in_address.d.next = self.c1_in_address.q.val();
        self.s1_eg_address.d.next = self.c1_eg_address.q.val();
        self.s1_port_address.d.next = bit_cast::<A, 8>(self.c1_egress_port.q.val());
        self.s1_trimmable.d.next = self.c1_trimmable.q.val();
        self.s1_arrival.d.next = self.c1_arrival.q.val() & !self.c1_release.q.val() & !self.c1_reset.q.val();
        self.s1_probe.d.next = self.c1_probe.q.val() & !self.c1_release.q.val();
        self.s1_release.d.next = self.c1_release.q.val() & !self.c1_reset.q.val();
        self.s1_pool.d.next = self.c1_pool.q.val();
        self.s1_pool_size.d.next = self.regs.pool_size_bytes.val();
        self.s1_tc.d.next = self.c1_tc.q.val();
        self.s1_lossless.d.next = self.c1_class_lossless.q.val();
        if self.c1_release.q.val() {
            self.s1_lossless.d.next = self.c1_lossless.q.val();
        }
        self.s1_bytes.d.next = self.c1_charged_bytes.q.val();
        self.s1_pfc.d.next = self.c1_pfc.q.val() & !self.c1_arrival.q.val() & !self.c1_release.q.val() & !self.c1_reset.q.val();
        self.s1_classes.d.next = self.c1_classes.q.val();
        // The pause's length for the decision stage. An arrival may send a
        // pause: its first re-send falls due after half of a full pause.
        self.pause_quanta_now.next = self.c1_quanta.q.val();
        if self.c1_arrival.q.val() {
            self.pause_quanta_now.next = self.pause_quanta.val();
        }
        self.pause_time.clock.next = self.clock.val();
        self.pause_time.quanta.next = self.pause_quanta_now.val();
        self.pause_time.quantum_q16.next = self.quantum_ram.read_data.val();
        self.pause_time.delay_ns.next = self.delay_ram.read_data.val();
        self.s1_now.d.next = self.c1_now.q.val();
        // Stage D: the pool's counters (picked in C2, below).
        self.pool_now.next = self.s1_pool_bytes.q.val();
        self.pool_egress_now.next = self.s1_pool_egress_bytes.q.val();
        self.group.pool.next = self.s1_pool.q.val();
        self.group.uet_policy.next = self.regs.uet_policy.val();
        self.group.tc_pool.next = self.regs.tc_pool.val();
        self.group.pfc_enabled.next = self.regs.pfc_enabled.val();
        self.bytes32.next = bit_cast::<32, 16>(self.s1_bytes.q.val());
        // Defaults: nothing changes.
        self.ingress_next.next = self.ingress_ram.read_data.val();
        self.headroom_next.next = self.headroom_ram.read_data.val();
        self.xoff_next.next = self.xoff_ram.read_data.val();
        self.egress_next.next = self.egress_ram.read_data.val();
        self.port_next.next = self.port_ram.read_data.val();
        self.pool_next.next = self.pool_now.val();
        self.pool_egress_next.next = self.pool_egress_now.val();
        self.went_headroom.next = false;
        self.pause_now.next = false;
        self.resume_now.next = false;
        // Ingress admission.
        self.ingress_drop.next = self.drop_none.val();
        if self.s1_arrival.q.val() {
            if self.s1_lossless.q.val() & self.xoff_ram.read_data.val() {
                if self.headroom_ram.read_data.val() + self.bytes32.val() > self.regs.headroom_limit_bytes.val() {
                    self.ingress_drop.next = self.drop_headroom_full.val();
                } else {
                    self.headroom_next.next = self.headroom_ram.read_data.val() + self.bytes32.val();
                    self.went_headroom.next = true;
                }
            } else {
                if self.s1_lossless.q.val() & (self.ingress_ram.read_data.val() + self.bytes32.val() > self.regs.xoff_bytes.val()) {
                    self.pause_now.next = true;
                    self.xoff_next.next = true;
                }
                if self.pool_now.val() + self.bytes32.val() > self.s1_pool_size.q.val() {
                    self.ingress_drop.next = self.drop_pool_full.val();
                } else {
                    self.ingress_next.next = self.ingress_ram.read_data.val() + self.bytes32.val();
                    self.pool_next.next = self.pool_now.val() + self.bytes32.val();
                }
            }
        }
        // Egress admission: only lossy packets are limited.
        self.egress_drop.next = self.drop_none.val();
        if self.s1_arrival.q.val() & !self.s1_probe.q.val() & (self.ingress_drop.val() == self.drop_none.val()) & !self.s1_lossless.q.val() {
            if self.egress_ram.read_data.val() + self.bytes32.val() > self.lookahead.limit_bytes.val() {
                self.egress_drop.next = self.drop_egress_limit.val();
            } else if self.pool_egress_now.val() + self.bytes32.val() > self.s1_pool_size.q.val() {
                self.egress_drop.next = self.drop_egress_pool.val();
            }
        }
        // Trimming (UET): a trimmable packet the egress refused gives its
        // charge back and is offered again, cut to 46 B, to TC1 (pool 1) of
        // the same ports. A trimmable packet is TC0, so pool 1 is never the
        // pool it leaves.
        self.trim_try.next = (self.egress_drop.val() != self.drop_none.val()) & self.regs.trimming.val() & self.regs.uet_policy.val()
            & self.s1_trimmable.q.val();
        self.trim_drop.next = self.drop_none.val();
        if self.pool_bytes[1].q.val() + self.trim_charge.val() > self.regs.pool1_size_bytes.val() {
            self.trim_drop.next = self.drop_pool_full.val();
        } else if self.egress1_ram.read_data.val() + self.trim_charge.val() > self.lookahead.trim_limit_bytes.val() {
            self.trim_drop.next = self.drop_egress_limit.val();
        } else if self.pool_egress_bytes[1].q.val() + self.trim_charge.val() > self.regs.pool1_size_bytes.val() {
            self.trim_drop.next = self.drop_egress_pool.val();
        }
        self.trim_ok.next = self.trim_try.val() & (self.trim_drop.val() == self.drop_none.val());
        self.drop_code.next = self.ingress_drop.val();
        if self.ingress_drop.val() == self.drop_none.val() {
            self.drop_code.next = self.egress_drop.val();
        }
        if self.trim_try.val() {
            self.drop_code.next = self.trim_drop.val();
        }
        if self.egress_drop.val() != self.drop_none.val() {
            // A lossy packet dropped at egress gives its ingress charge back.
            self.ingress_next.next = self.ingress_ram.read_data.val();
            self.pool_next.next = self.pool_now.val();
        }
        self.added_at_egress.next = self.s1_arrival.q.val() & !self.s1_probe.q.val() & (self.drop_code.val() == self.drop_none.val()) & !self.trim_try.val();
        if self.added_at_egress.val() {
            self.egress_next.next = self.egress_ram.read_data.val() + self.bytes32.val();
            self.port_next.next = self.port_ram.read_data.val() + self.bytes32.val();
            self.pool_egress_next.next = self.pool_egress_now.val() + self.bytes32.val();
        }
        if self.trim_ok.val() {
            self.port_next.next = self.port_ram.read_data.val() + self.trim_charge.val();
        }
        // Release: headroom first, then the pool; resume below Xon. The
        // headroom's share is min(bytes, headroom); the two cases are
        // worked out side by side, so that the resume check is a sum of
        // three and a compare, not a compare, a mux, two differences and a
        // compare in a row.
        self.covers_headroom.next = self.bytes32.val() >= self.headroom_ram.read_data.val();
        self.ingress_after_cover.next = self.ingress_ram.read_data.val() + self.headroom_ram.read_data.val() - self.bytes32.val();
        self.pool_after_cover.next = self.pool_now.val() + self.headroom_ram.read_data.val() - self.bytes32.val();
        if self.s1_release.q.val() {
            self.egress_next.next = self.egress_ram.read_data.val() - self.bytes32.val();
            self.port_next.next = self.port_ram.read_data.val() - self.bytes32.val();
            self.pool_egress_next.next = self.pool_egress_now.val() - self.bytes32.val();
            self.ingress_next.next = self.ingress_ram.read_data.val() - self.bytes32.val();
            self.pool_next.next = self.pool_now.val() - self.bytes32.val();
            if self.s1_lossless.q.val() {
                if self.covers_headroom.val() {
                    self.headroom_next.next = 0.into();
                    self.ingress_next.next = self.ingress_after_cover.val();
                    self.pool_next.next = self.pool_after_cover.val();
                } else {
                    self.headroom_next.next = self.headroom_ram.read_data.val() - self.bytes32.val();
                    self.ingress_next.next = self.ingress_ram.read_data.val();
                    self.pool_next.next = self.pool_now.val();
                }
            }
            // The headroom is left empty exactly when the bytes cover it.
            if self.s1_lossless.q.val() & self.xoff_ram.read_data.val() & self.covers_headroom.val()
                & (self.ingress_after_cover.val() <= self.regs.xon_bytes.val())
            {
                self.resume_now.next = true;
                self.xoff_next.next = false;
            }
        }
        // The outcome, for the look-ahead of the next two events' limits.
        self.lookahead.decided_added.next = self.added_at_egress.val() & !self.c1_reset.q.val();
        self.lookahead.decided_trimmed.next = self.trim_ok.val() & !self.c1_reset.q.val();
        self.lookahead.decided_released.next = self.s1_release.q.val() & !self.c1_reset.q.val();
        // Received PFC frames, and the query channel's paused classes.
        self.pfc.clock.next = self.clock.val();
        self.pfc.reset.next = self.c1_reset.q.val();
        self.pfc.frame_valid.next = self.s1_pfc.q.val();
        self.pfc.frame_port.next = self.s1_in_address.q.val() >> 3;
        self.pfc.frame_classes.next = self.s1_classes.q.val();
        self.pfc.pause_ns.next = self.pause_time.pause_ns.val();
        self.pfc.now_ns.next = self.s1_now.q.val();
        self.pfc.query_port.next = bit_cast::<A, 8>(self.c1_query_port.q.val());
        // The counters written (cancelled by reset): pool 1 for a trimmed
        // packet, an address the RAMs take as their alternate (trimming
        // decides late; they compare both addresses ahead of it).
        self.ingress_pool1_address.next = bit_cast::<A, 11>((bit_cast::<11, A>(self.s1_in_address.q.val() >> 3) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
        self.egress_pool1_address.next = bit_cast::<A, 11>((bit_cast::<11, A>(self.s1_eg_address.q.val() >> 3) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
        self.ingress_write_data.next = self.ingress_next.val();
        self.egress_write_data.next = self.egress_next.val();
        if self.trim_ok.val() {
            self.ingress_write_data.next = self.ingress1_ram.read_data.val() + self.trim_charge.val();
            self.egress_write_data.next = self.egress1_ram.read_data.val() + self.trim_charge.val();
        }
        // Sub-block inputs are assigned once (see `crate::forwarding_ram`).
        // A probe writes nothing.
        self.counters_write.next = ((self.s1_arrival.q.val() & !self.s1_probe.q.val()) | self.s1_release.q.val()) & !self.c1_reset.q.val();
        self.ingress_ram.write_address.next = self.s1_in_address.q.val();
        self.ingress_ram.alternate_address.next = self.ingress_pool1_address.val();
        self.ingress_ram.write_alternate.next = self.trim_ok.val();
        self.ingress_ram.write_data.next = self.ingress_write_data.val();
        self.ingress_ram.write_enable.next = self.counters_write.val();
        self.ingress1_ram.write_address.next = self.s1_in_address.q.val();
        self.ingress1_ram.alternate_address.next = self.ingress_pool1_address.val();
        self.ingress1_ram.write_alternate.next = self.trim_ok.val();
        self.ingress1_ram.write_data.next = self.ingress_write_data.val();
        self.ingress1_ram.write_enable.next = self.counters_write.val();
        self.egress_ram.write_address.next = self.s1_eg_address.q.val();
        self.egress_ram.alternate_address.next = self.egress_pool1_address.val();
        self.egress_ram.write_alternate.next = self.trim_ok.val();
        self.egress_ram.write_data.next = self.egress_write_data.val();
        self.egress_ram.write_enable.next = self.counters_write.val();
        self.egress1_ram.write_address.next = self.s1_eg_address.q.val();
        self.egress1_ram.alternate_address.next = self.egress_pool1_address.val();
        self.egress1_ram.write_alternate.next = self.trim_ok.val();
        self.egress1_ram.write_data.next = self.egress_write_data.val();
        self.egress1_ram.write_enable.next = self.counters_write.val();
        self.headroom_ram.write_address.next = self.s1_in_address.q.val();
        self.headroom_ram.write_data.next = self.headroom_next.val();
        self.headroom_ram.write_enable.next = self.counters_write.val();
        self.headroom_ram.write_alternate.next = false;
        self.headroom_ram.alternate_address.next = 0.into();
        self.xoff_ram.write_address.next = self.s1_in_address.q.val();
        self.xoff_ram.write_data.next = self.xoff_next.val();
        self.xoff_ram.write_enable.next = self.counters_write.val();
        self.xoff_ram.write_alternate.next = false;
        self.xoff_ram.alternate_address.next = 0.into();
        self.xoff_sweep_ram.write_address.next = self.s1_in_address.q.val();
        self.xoff_sweep_ram.write_data.next = self.xoff_next.val();
        self.xoff_sweep_ram.write_enable.next = self.counters_write.val();
        self.port_ram.write_address.next = self.s1_port_address.q.val();
        self.port_ram.write_data.next = self.port_next.val();
        self.port_ram.write_enable.next = self.counters_write.val();
        self.port_ram.write_alternate.next = false;
        self.port_ram.alternate_address.next = 0.into();
        self.port_query_ram.write_address.next = self.s1_port_address.q.val();
        self.port_query_ram.write_data.next = self.port_next.val();
        self.port_query_ram.write_enable.next = self.counters_write.val();
        if self.counters_write.val() {
            for p in 0..8 {
                if self.s1_pool.q.val().index() == p {
                    self.pool_bytes[p].d.next = self.pool_next.val();
                    self.pool_egress_bytes[p].d.next = self.pool_egress_next.val();
                }
            }
        }
        if self.trim_ok.val() & !self.c1_reset.q.val() {
            self.pool_bytes[1].d.next = self.pool_bytes[1].q.val() + self.trim_charge.val();
            self.pool_egress_bytes[1].d.next = self.pool_egress_bytes[1].q.val() + self.trim_charge.val();
        }
        // Stage C2: the next event's pool counters as this decision leaves
        // them (the same writes as above, forwarded).
        self.pool_after.next = self.pool_bytes[0].q.val();
        self.pool_egress_after.next = self.pool_egress_bytes[0].q.val();
        for p in 1..8 {
            if self.c1_pool.q.val().index() == p {
                self.pool_after.next = self.pool_bytes[p].q.val();
                self.pool_egress_after.next = self.pool_egress_bytes[p].q.val();
            }
        }
        if self.pool_pick_forward.val() & self.counters_write.val() & (self.s1_pool.q.val() == self.c1_pool.q.val()) {
            self.pool_after.next = self.pool_next.val();
            self.pool_egress_after.next = self.pool_egress_next.val();
        }
        if self.pool_pick_forward.val() & self.trim_ok.val() & !self.c1_reset.q.val() & (self.c1_pool.q.val() == self.trim_pool.val()) {
            self.pool_after.next = self.pool_bytes[1].q.val() + self.trim_charge.val();
            self.pool_egress_after.next = self.pool_egress_bytes[1].q.val() + self.trim_charge.val();
        }
        self.s1_pool_bytes.d.next = self.pool_after.val();
        self.s1_pool_egress_bytes.d.next = self.pool_egress_after.val();
        // The re-send sweep; a pause sent now sets the pair's first re-send.
        self.sweep.clock.next = self.clock.val();
        self.sweep.reset.next = self.c1_reset.q.val();
        self.sweep.cfg_write.next = self.c1_cfg_write.q.val();
        self.sweep.pause_valid.next = self.pause_now.val() & !self.s1_probe.q.val();
        self.sweep.pause_address.next = self.s1_in_address.q.val();
        self.sweep.pause_due_ns.next = self.s1_now.q.val() + (self.pause_time.pause_ns.val() >> 1);
        self.sweep.now_ns.next = self.c1_now.q.val();
        self.xoff_sweep_ram.read_address.next = self.sweep.pair_address.val();
        self.quantum_sweep_ram.read_address.next = self.sweep.pair_address.val() >> 3;
        self.delay_sweep_ram.read_address.next = self.sweep.pair_address.val() >> 3;
        self.sweep.pair_xoff.next = self.xoff_sweep_ram.read_data.val();
        self.sweep.pair_quantum_q16.next = self.quantum_sweep_ram.read_data.val();
        self.sweep.pair_delay_ns.next = self.delay_sweep_ram.read_data.val();
        self.sweep.uet_policy.next = self.regs.uet_policy.val();
        self.sweep.tc_pool.next = self.regs.tc_pool.val();
        self.sweep.pfc_enabled.next = self.regs.pfc_enabled.val();
        // The result.
        self.s2_valid.d.next = (self.s1_arrival.q.val() | self.s1_release.q.val() | self.s1_pfc.q.val()) & !self.c1_reset.q.val();
        self.s2_pfc.d.next = self.s1_pfc.q.val();
        self.s2_until.d.next = self.pfc.paused_until_ns.val();
        self.s2_query.d.next = self.pfc.query_paused.val();
        self.s2_query_expiry.d.next = self.pfc.query_expiry_ns.val();
        self.s2_query_bytes.d.next = self.port_query_ram.read_data.val();
        self.s2_release.d.next = self.s1_release.q.val();
        self.s2_admitted.d.next = self.s1_arrival.q.val() & (self.drop_code.val() == self.drop_none.val());
        self.s2_drop.d.next = self.drop_code.val();
        self.s2_headroom.d.next = self.went_headroom.val() & (self.drop_code.val() == self.drop_none.val());
        self.s2_tc.d.next = self.s1_tc.q.val();
        self.s2_pool.d.next = self.s1_pool.q.val();
        self.s2_lossless.d.next = self.s1_lossless.q.val();
        self.s2_bytes.d.next = self.s1_bytes.q.val();
        self.s2_queue_unchanged.d.next = self.egress_ram.read_data.val();
        self.s2_queue_added.d.next = self.egress_ram.read_data.val() + self.bytes32.val();
        self.s2_queue_released.d.next = self.egress_ram.read_data.val() - self.bytes32.val();
        self.s2_queue_trimmed.d.next = self.egress1_ram.read_data.val() + self.trim_charge.val();
        self.s2_added_at_egress.d.next = self.added_at_egress.val();
        self.s2_trimmed.d.next = self.trim_ok.val();
        self.s2_trim_codepoint.d.next = self.regs.trimmed_dscp.val();
        if self.faces_nic_ram.read_data.val() {
            self.s2_trim_codepoint.d.next = self.regs.trimmed_last_hop_dscp.val();
        }
        if self.trim_ok.val() {
            self.s2_tc.d.next = self.trim_pool.val();
            self.s2_pool.d.next = self.trim_pool.val();
            self.s2_lossless.d.next = false;
            self.s2_bytes.d.next = self.min_charge.val();
        }
        self.s2_pause.d.next = self.pause_now.val();
        self.s2_resume.d.next = self.resume_now.val();
        self.s2_classes.d.next = self.group.classes.val();
        // Result channel.
        self.result_valid.next = self.s2_valid.q.val();
        self.result_release.next = self.s2_release.q.val();
        self.admitted.next = self.s2_admitted.q.val();
        self.drop_reason.next = self.s2_drop.q.val();
        self.to_headroom.next = self.s2_headroom.q.val();
        self.result_tc.next = self.s2_tc.q.val();
        self.result_pool.next = self.s2_pool.q.val();
        self.result_lossless.next = self.s2_lossless.q.val();
        self.charged_bytes.next = self.s2_bytes.q.val();
        if self.s2_trimmed.q.val() {
            self.queue_bytes.next = self.s2_queue_trimmed.q.val();
        } else if self.s2_release.q.val() {
            self.queue_bytes.next = self.s2_queue_released.q.val();
        } else if self.s2_added_at_egress.q.val() {
            self.queue_bytes.next = self.s2_queue_added.q.val();
        } else {
            self.queue_bytes.next = self.s2_queue_unchanged.q.val();
        }
        self.pause_request.next = self.s2_pause.q.val() & self.s2_valid.q.val();
        self.resume_request.next = self.s2_resume.q.val() & self.s2_valid.q.val();
        self.pfc_classes.next = self.s2_classes.q.val();
        self.result_pfc.next = self.s2_pfc.q.val();
        self.paused_until_ns.next = self.s2_until.q.val();
        self.query_paused.next = self.s2_query.q.val();
        self.query_expiry_ns.next = self.s2_query_expiry.q.val();
        self.query_egress_bytes.next = self.s2_query_bytes.q.val();
        self.trimmed.next = self.s2_trimmed.q.val() & self.s2_valid.q.val();
        if self.s2_trimmed.q.val() {
            self.trimmed_dscp.next = self.s2_trim_codepoint.q.val();
        } else {
            self.trimmed_dscp.next = 0.into();
        }
        // Pause re-send channel.
        self.resend_valid.next = self.sweep.resend_valid.val();
        self.resend_port.next = self.sweep.resend_port.val();
        self.resend_pool.next = self.sweep.resend_pool.val();
        self.resend_classes.next = self.sweep.resend_classes.val();
        self.resend_due_ns.next = self.sweep.resend_due_ns.val();
    }
}
