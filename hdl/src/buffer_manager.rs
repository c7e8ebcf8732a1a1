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
//!   Ethernet header) or `ev_release` (a departed packet's tag:
//!   `ev_ingress_port`, `ev_egress_port`, `ev_pool`, `ev_lossless`,
//!   `ev_bytes` as charged) or `ev_pfc` (a PFC frame received on
//!   `ev_ingress_port` for `ev_classes` with `ev_quanta`); `now_ns` (32-bit
//!   ns: runs up to 4.29 s)
//! * query (for the flowlet block): `query_port` -> `query_paused` (bit n:
//!   class n paused by the peer at `now_ns`) and `query_egress_bytes` (the
//!   port's egress bytes over all pools, the frame in transmission
//!   included), after all events of earlier cycles
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
//! Latency 2 cycles, one event per cycle, back to back on the same
//! counters. Trimming reads pool 1 of both ports in the same cycle from
//! copies of the ingress and egress RAMs (a trimmable packet is TC0, so
//! it never leaves pool 1) and writes pool 1 instead of the packet's pool.
//!
//! The re-send scheduler sweeps the `2^A` (port, pool) pairs round robin,
//! one per cycle: a paused pair whose due time has come emits one re-send
//! (at most one per cycle, so none is lost when many fall due together)
//! and its due time moves on by half a full pause. It decides with the
//! events up to two cycles back; it holds its place (no emission) in a
//! cycle in which an event sends a pause, and in the cycle of and after a
//! configuration write. A pair is seen again after `2^A` cycles plus
//! holds: with re-send intervals of at least `2^A` clock periods (half a
//! full pause is 10.5 us or more up to 1.6 Tb/s; 2^A = 2048 cycles at 256
//! ports take 6.6 us at 312 MHz) every re-send goes out within one sweep
//! of falling due. A pair that resumes before the sweep reaches it sends no
//! late re-send.
//!
//! ```text
//!  event ─► classify, RAM reads ─►[s1]─► counters (forwarded | RAM) ─► admit / trim / release
//!           (ingress, headroom, xoff    │   ─► RAM writes, pool registers ─►[s2 result]
//!            at (in port, pool) and     │
//!            (in port, 1); egress at    └─ last writes kept for read-after-write
//!            (eg port, pool), (eg, 1))
//!  sweep ──► due_ram, xoff copy, timing copies at pair k ─►[s1] due <= now? ─►[s2 re-send]
//!            k = k + 1 unless held        └─ due_ram <- due + interval
//! ```

use reference::register_map::*;
use rust_hdl::prelude::*;
use crate::build_checks::{c8, check_ports, zero_ram, BuildError};
use crate::twin_read_ram::TwinReadRam;
use rust_hdl::widgets::prelude::RAM;

pub const LATENCY: usize = 2;
const MIN_CHARGE: u32 = 46;
/// Trimmed packets go to TC1, pool 1.
const TRIM_POOL: u32 = 1;
const PAUSE_QUANTA: u32 = reference::ports::PAUSE_QUANTA as u32;

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
    pub query_egress_bytes: Signal<Out, Bits<32>>,
    pub trimmed: Signal<Out, Bit>,
    pub trimmed_dscp: Signal<Out, Bits<6>>,
    // pause re-send channel
    pub resend_valid: Signal<Out, Bit>,
    pub resend_port: Signal<Out, Bits<8>>,
    pub resend_pool: Signal<Out, Bits<3>>,
    pub resend_classes: Signal<Out, Bits<8>>,
    pub resend_due_ns: Signal<Out, Bits<32>>,
    // registers
    dynamic_limit: DFF<Bit>,
    trimming: DFF<Bit>,
    faces_nic_ram: RAM<Bit, A>,
    uet_policy: DFF<Bit>,
    alpha_q10: DFF<Bits<16>>,
    xoff_bytes: DFF<Bits<32>>,
    xon_bytes: DFF<Bits<32>>,
    headroom_limit: DFF<Bits<32>>,
    tc_pool: DFF<Bits<24>>,
    pfc_enabled: DFF<Bits<8>>,
    codepoints_a: DFF<Bits<24>>,
    codepoints_b: DFF<Bits<12>>,
    pool_size: [DFF<Bits<32>>; 8],
    fixed_limit: [DFF<Bits<32>>; 8],
    retransmit_limit: [DFF<Bits<32>>; 8],
    port_select: DFF<Bits<8>>,
    // per-port pause timing; read port A for events, B for the re-send sweep
    quantum_ram: TwinReadRam<Bits<32>, A>,
    delay_ram: TwinReadRam<Bits<32>, A>,
    // received pauses: when each (port, class) pause ends, one RAM per class
    deadline_ram: [RAM<Bits<32>, A>; 8],
    // switch-wide counters
    pool_bytes: [DFF<Bits<32>>; 8],
    pool_egress_bytes: [DFF<Bits<32>>; 8],
    // per (port, pool) and per port counters; read port A for the event,
    // B for pool 1 of the same ports (trimming), the sweep (xoff) or the
    // query channel (port)
    ingress_ram: TwinReadRam<Bits<32>, A>,
    headroom_ram: RAM<Bits<32>, A>,
    xoff_ram: TwinReadRam<Bit, A>,
    egress_ram: TwinReadRam<Bits<32>, A>,
    port_ram: TwinReadRam<Bits<32>, A>,
    // pause re-send scheduler: next due time per (port, pool)
    due_ram: RAM<Bits<32>, A>,
    sweep_ptr: DFF<Bits<A>>,
    s1_sweep_address: DFF<Bits<A>>,
    s1_sweep_valid: DFF<Bit>,
    cfg_write_q: DFF<Bit>,
    fw_due_valid: DFF<Bit>,
    fw_due_address: DFF<Bits<A>>,
    fw_due: DFF<Bits<32>>,
    s2_resend: DFF<Bit>,
    s2_resend_port: DFF<Bits<8>>,
    s2_resend_pool: DFF<Bits<3>>,
    s2_resend_classes: DFF<Bits<8>>,
    s2_resend_due: DFF<Bits<32>>,
    // stage 1
    s1_arrival: DFF<Bit>,
    s1_release: DFF<Bit>,
    s1_in_address: DFF<Bits<A>>,
    s1_eg_address: DFF<Bits<A>>,
    s1_port_address: DFF<Bits<A>>,
    s1_pool: DFF<Bits<3>>,
    s1_tc: DFF<Bits<3>>,
    s1_lossless: DFF<Bit>,
    s1_retransmit: DFF<Bit>,
    s1_trimmable: DFF<Bit>,
    s1_in1_address: DFF<Bits<A>>,
    s1_eg1_address: DFF<Bits<A>>,
    s1_bytes: DFF<Bits<16>>,
    s1_pfc: DFF<Bit>,
    s1_classes: DFF<Bits<8>>,
    s1_quanta: DFF<Bits<16>>,
    s1_now: DFF<Bits<32>>,
    s1_query_address: DFF<Bits<A>>,
    fw_pfc_valid: DFF<Bit>,
    fw_pfc_address: DFF<Bits<A>>,
    fw_pfc_classes: DFF<Bits<8>>,
    fw_pfc_until: DFF<Bits<32>>,
    // last writes, for read-after-write
    fw_in_valid: DFF<Bit>,
    fw_in_address: DFF<Bits<A>>,
    fw_ingress_address: DFF<Bits<A>>,
    fw_ingress: DFF<Bits<32>>,
    fw_headroom: DFF<Bits<32>>,
    fw_xoff: DFF<Bit>,
    fw_eg_valid: DFF<Bit>,
    fw_eg_address: DFF<Bits<A>>,
    fw_egress: DFF<Bits<32>>,
    fw_port_valid: DFF<Bit>,
    fw_port_address: DFF<Bits<A>>,
    fw_port: DFF<Bits<32>>,
    // stage 2: result
    s2_valid: DFF<Bit>,
    s2_release: DFF<Bit>,
    s2_admitted: DFF<Bit>,
    s2_drop: DFF<Bits<3>>,
    s2_headroom: DFF<Bit>,
    s2_tc: DFF<Bits<3>>,
    s2_pool: DFF<Bits<3>>,
    s2_lossless: DFF<Bit>,
    s2_bytes: DFF<Bits<16>>,
    s2_queue: DFF<Bits<32>>,
    s2_pause: DFF<Bit>,
    s2_resume: DFF<Bit>,
    s2_classes: DFF<Bits<8>>,
    s2_pfc: DFF<Bit>,
    s2_until: DFF<Bits<32>>,
    s2_query: DFF<Bits<8>>,
    s2_query_bytes: DFF<Bits<32>>,
    s2_trimmed: DFF<Bit>,
    s2_trimmed_dscp: DFF<Bits<6>>,
    // combinational intermediates: received pauses
    pause_hi: Signal<Local, Bits<32>>,
    pause_lo: Signal<Local, Bits<32>>,
    pause_total: Signal<Local, Bits<32>>,
    until_now: Signal<Local, Bits<32>>,
    query_bit: [Signal<Local, Bits<8>>; 8],
    // combinational intermediates: classification
    cl_tc: Signal<Local, Bits<3>>,
    cl_pool: Signal<Local, Bits<3>>,
    cl_lossless: Signal<Local, Bit>,
    cl_retransmit: Signal<Local, Bit>,
    cl_trimmable: Signal<Local, Bit>,
    ev_pool_used: Signal<Local, Bits<3>>,
    // combinational intermediates: counters now
    ingress_now: Signal<Local, Bits<32>>,
    headroom_now: Signal<Local, Bits<32>>,
    xoff_now: Signal<Local, Bit>,
    egress_now: Signal<Local, Bits<32>>,
    port_now: Signal<Local, Bits<32>>,
    pool_now: Signal<Local, Bits<32>>,
    pool_egress_now: Signal<Local, Bits<32>>,
    pool_size_now: Signal<Local, Bits<32>>,
    fixed_now: Signal<Local, Bits<32>>,
    retransmit_now: Signal<Local, Bits<32>>,
    group_classes: Signal<Local, Bits<8>>,
    class_in_group: [Signal<Local, Bits<8>>; 8],
    ingress_drop: Signal<Local, Bits<3>>,
    egress_drop: Signal<Local, Bits<3>>,
    bytes32: Signal<Local, Bits<32>>,
    // combinational intermediates: the decision
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
    resume_now: Signal<Local, Bit>,
    free_bytes: Signal<Local, Bits<32>>,
    alpha_hi: Signal<Local, Bits<32>>,
    alpha_lo: Signal<Local, Bits<32>>,
    limit: Signal<Local, Bits<32>>,
    from_headroom: Signal<Local, Bits<32>>,
    // combinational intermediates: trimming (pool 1)
    ingress1_now: Signal<Local, Bits<32>>,
    egress1_now: Signal<Local, Bits<32>>,
    free1_bytes: Signal<Local, Bits<32>>,
    alpha1_hi: Signal<Local, Bits<32>>,
    alpha1_lo: Signal<Local, Bits<32>>,
    limit1: Signal<Local, Bits<32>>,
    trim_try: Signal<Local, Bit>,
    trim_drop: Signal<Local, Bits<3>>,
    trim_ok: Signal<Local, Bit>,
    ingress_write_address: Signal<Local, Bits<A>>,
    ingress_write_data: Signal<Local, Bits<32>>,
    egress_write_address: Signal<Local, Bits<A>>,
    egress_write_data: Signal<Local, Bits<32>>,
    // combinational intermediates: the re-send sweep
    sweep_stall: Signal<Local, Bit>,
    sweep_read_address: Signal<Local, Bits<A>>,
    sweep_xoff: Signal<Local, Bit>,
    sweep_due: Signal<Local, Bits<32>>,
    sweep_fraction: Signal<Local, Bits<32>>,
    sweep_pause: Signal<Local, Bits<32>>,
    sweep_emit: Signal<Local, Bit>,
    sweep_pool: Signal<Local, Bits<3>>,
    sweep_in_group: [Signal<Local, Bits<8>>; 8],
    // register addresses
    reg_main: [Constant<Bits<8>>; 9],
    reg_pool_size: [Constant<Bits<8>>; 8],
    reg_fixed: [Constant<Bits<8>>; 8],
    reg_retransmit: [Constant<Bits<8>>; 8],
    reg_port: [Constant<Bits<8>>; 4],
    min_charge: Constant<Bits<16>>,
    trim_charge: Constant<Bits<32>>,
    trim_pool: Constant<Bits<3>>,
    pause_quanta: Constant<Bits<16>>,
    limit_saturated: Constant<Bits<32>>,
}

impl<const A: usize> BufferManager<A> {
    pub fn new(ports: usize) -> Result<BufferManager<A>, BuildError> {
        check_ports::<A>("buffer manager", ports)?;
        Ok(BufferManager {
            clock: Default::default(), reset: Default::default(),
            cfg_write: Default::default(), cfg_address: Default::default(), cfg_data: Default::default(),
            ev_arrival: Default::default(), ev_release: Default::default(), ev_ingress_port: Default::default(),
            ev_egress_port: Default::default(), ev_dscp: Default::default(), ev_bytes: Default::default(),
            ev_pool: Default::default(), ev_lossless: Default::default(), ev_pfc: Default::default(),
            ev_classes: Default::default(), ev_quanta: Default::default(), now_ns: Default::default(),
            query_port: Default::default(), result_pfc: Default::default(), paused_until_ns: Default::default(),
            query_paused: Default::default(), port_select: Default::default(), quantum_ram: Default::default(),
            delay_ram: Default::default(), deadline_ram: std::array::from_fn(|_| zero_ram()),
            s1_pfc: Default::default(), s1_classes: Default::default(), s1_quanta: Default::default(),
            s1_now: Default::default(), s1_query_address: Default::default(), fw_pfc_valid: Default::default(),
            fw_pfc_address: Default::default(), fw_pfc_classes: Default::default(), fw_pfc_until: Default::default(),
            s2_pfc: Default::default(), s2_until: Default::default(), s2_query: Default::default(),
            pause_hi: Default::default(), pause_lo: Default::default(), until_now: Default::default(),
            query_bit: Default::default(), query_egress_bytes: Default::default(), s2_query_bytes: Default::default(),
            trimmed: Default::default(), trimmed_dscp: Default::default(), resend_valid: Default::default(),
            resend_port: Default::default(), resend_pool: Default::default(), resend_classes: Default::default(),
            resend_due_ns: Default::default(), trimming: Default::default(), faces_nic_ram: zero_ram(),
            due_ram: zero_ram(), sweep_ptr: Default::default(),
            s1_sweep_address: Default::default(), s1_sweep_valid: Default::default(), cfg_write_q: Default::default(),
            fw_due_valid: Default::default(), fw_due_address: Default::default(), fw_due: Default::default(),
            s2_resend: Default::default(), s2_resend_port: Default::default(), s2_resend_pool: Default::default(),
            s2_resend_classes: Default::default(), s2_resend_due: Default::default(), s1_trimmable: Default::default(),
            s1_in1_address: Default::default(), s1_eg1_address: Default::default(), fw_ingress_address: Default::default(),
            s2_trimmed: Default::default(), s2_trimmed_dscp: Default::default(), pause_total: Default::default(),
            cl_trimmable: Default::default(), ingress1_now: Default::default(), egress1_now: Default::default(),
            free1_bytes: Default::default(), alpha1_hi: Default::default(), alpha1_lo: Default::default(),
            limit1: Default::default(), trim_try: Default::default(), trim_drop: Default::default(), trim_ok: Default::default(),
            ingress_write_address: Default::default(), ingress_write_data: Default::default(),
            egress_write_address: Default::default(), egress_write_data: Default::default(),
            sweep_stall: Default::default(), sweep_read_address: Default::default(), sweep_xoff: Default::default(),
            sweep_due: Default::default(), sweep_fraction: Default::default(), sweep_pause: Default::default(),
            sweep_emit: Default::default(), sweep_pool: Default::default(), sweep_in_group: Default::default(),
            result_valid: Default::default(), result_release: Default::default(), admitted: Default::default(),
            drop_reason: Default::default(), to_headroom: Default::default(), result_tc: Default::default(),
            result_pool: Default::default(), result_lossless: Default::default(), charged_bytes: Default::default(),
            queue_bytes: Default::default(), pause_request: Default::default(), resume_request: Default::default(),
            pfc_classes: Default::default(),
            dynamic_limit: Default::default(), uet_policy: Default::default(), alpha_q10: Default::default(),
            xoff_bytes: Default::default(), xon_bytes: Default::default(), headroom_limit: Default::default(),
            tc_pool: Default::default(), pfc_enabled: Default::default(), codepoints_a: Default::default(),
            codepoints_b: Default::default(), pool_size: Default::default(), fixed_limit: Default::default(),
            retransmit_limit: Default::default(), pool_bytes: Default::default(), pool_egress_bytes: Default::default(),
            ingress_ram: Default::default(), headroom_ram: zero_ram(), xoff_ram: Default::default(), egress_ram: Default::default(), port_ram: Default::default(),
            s1_arrival: Default::default(), s1_release: Default::default(), s1_in_address: Default::default(),
            s1_eg_address: Default::default(), s1_port_address: Default::default(), s1_pool: Default::default(),
            s1_tc: Default::default(), s1_lossless: Default::default(), s1_retransmit: Default::default(), s1_bytes: Default::default(),
            fw_in_valid: Default::default(), fw_in_address: Default::default(), fw_ingress: Default::default(),
            fw_headroom: Default::default(), fw_xoff: Default::default(), fw_eg_valid: Default::default(),
            fw_eg_address: Default::default(), fw_egress: Default::default(), fw_port_valid: Default::default(),
            fw_port_address: Default::default(), fw_port: Default::default(),
            s2_valid: Default::default(), s2_release: Default::default(), s2_admitted: Default::default(),
            s2_drop: Default::default(), s2_headroom: Default::default(), s2_tc: Default::default(), s2_pool: Default::default(),
            s2_lossless: Default::default(), s2_bytes: Default::default(), s2_queue: Default::default(),
            s2_pause: Default::default(), s2_resume: Default::default(), s2_classes: Default::default(),
            cl_tc: Default::default(), cl_pool: Default::default(), cl_lossless: Default::default(),
            cl_retransmit: Default::default(), ev_pool_used: Default::default(),
            ingress_now: Default::default(), headroom_now: Default::default(), xoff_now: Default::default(),
            egress_now: Default::default(), port_now: Default::default(), pool_now: Default::default(),
            pool_egress_now: Default::default(), pool_size_now: Default::default(), fixed_now: Default::default(),
            retransmit_now: Default::default(), group_classes: Default::default(), bytes32: Default::default(),
            class_in_group: Default::default(), ingress_drop: Default::default(), egress_drop: Default::default(),
            ingress_next: Default::default(), headroom_next: Default::default(), xoff_next: Default::default(),
            egress_next: Default::default(), port_next: Default::default(), pool_next: Default::default(),
            pool_egress_next: Default::default(), drop_code: Default::default(), went_headroom: Default::default(),
            pause_now: Default::default(), resume_now: Default::default(), free_bytes: Default::default(),
            alpha_hi: Default::default(), alpha_lo: Default::default(), limit: Default::default(),
            from_headroom: Default::default(),
            reg_main: [BM_MODE, BM_ALPHA, BM_XOFF, BM_XON, BM_HEADROOM, BM_TC_POOL, BM_PFC_ENABLED, BM_CODEPOINTS_A, BM_CODEPOINTS_B].map(c8),
            reg_pool_size: std::array::from_fn(|p| c8(BM_POOL_SIZE + p as u8)),
            reg_fixed: std::array::from_fn(|p| c8(BM_FIXED_LIMIT + p as u8)),
            reg_retransmit: std::array::from_fn(|p| c8(BM_RETRANSMIT_LIMIT + p as u8)),
            reg_port: [BM_PORT_SELECT, BM_PORT_QUANTUM, BM_PORT_DELAY, BM_PORT_FACES_NIC].map(c8),
            min_charge: Constant::new(Bits::<16>::from(MIN_CHARGE as LiteralType)),
            trim_charge: Constant::new(Bits::<32>::from(MIN_CHARGE as LiteralType)),
            trim_pool: Constant::new(Bits::<3>::from(TRIM_POOL as LiteralType)),
            pause_quanta: Constant::new(Bits::<16>::from(PAUSE_QUANTA as LiteralType)),
            limit_saturated: Constant::new(Bits::<32>::from(u32::MAX as LiteralType)),
        })
    }
}

impl<const A: usize> Logic for BufferManager<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, dynamic_limit, uet_policy, alpha_q10, xoff_bytes, xon_bytes, headroom_limit,
            tc_pool, pfc_enabled, codepoints_a, codepoints_b,
            s1_arrival, s1_release, s1_in_address, s1_eg_address, s1_port_address, s1_pool, s1_tc, s1_lossless,
            s1_retransmit, s1_bytes, fw_in_valid, fw_in_address, fw_ingress, fw_headroom, fw_xoff, fw_eg_valid,
            fw_eg_address, fw_egress, fw_port_valid, fw_port_address, fw_port,
            s2_valid, s2_release, s2_admitted, s2_drop, s2_headroom, s2_tc, s2_pool, s2_lossless, s2_bytes, s2_queue,
            s2_pause, s2_resume, s2_classes, port_select, s1_pfc, s1_classes, s1_quanta, s1_now, s1_query_address,
            fw_pfc_valid, fw_pfc_address, fw_pfc_classes, fw_pfc_until, s2_pfc, s2_until, s2_query, s2_query_bytes,
            trimming, s1_trimmable, s1_in1_address, s1_eg1_address, fw_ingress_address, s2_trimmed, s2_trimmed_dscp,
            sweep_ptr, s1_sweep_address, s1_sweep_valid, cfg_write_q, fw_due_valid, fw_due_address, fw_due,
            s2_resend, s2_resend_port, s2_resend_pool, s2_resend_classes, s2_resend_due);
        for p in 0..8 {
            self.pool_size[p].clock.next = self.clock.val();
            self.pool_size[p].d.next = self.pool_size[p].q.val();
            self.fixed_limit[p].clock.next = self.clock.val();
            self.fixed_limit[p].d.next = self.fixed_limit[p].q.val();
            self.retransmit_limit[p].clock.next = self.clock.val();
            self.retransmit_limit[p].d.next = self.retransmit_limit[p].q.val();
            self.pool_bytes[p].clock.next = self.clock.val();
            self.pool_bytes[p].d.next = self.pool_bytes[p].q.val();
            self.pool_egress_bytes[p].clock.next = self.clock.val();
            self.pool_egress_bytes[p].d.next = self.pool_egress_bytes[p].q.val();
        }
        // Configuration channel.
        if self.cfg_write.val() {
            if self.cfg_address.val() == self.reg_main[0].val() {
                self.dynamic_limit.d.next = self.cfg_data.val().get_bit(0);
                self.uet_policy.d.next = self.cfg_data.val().get_bit(1);
                self.trimming.d.next = self.cfg_data.val().get_bit(2);
            }
            if self.cfg_address.val() == self.reg_main[1].val() {
                self.alpha_q10.d.next = self.cfg_data.val().get_bits::<16>(0);
            }
            if self.cfg_address.val() == self.reg_main[2].val() {
                self.xoff_bytes.d.next = self.cfg_data.val();
            }
            if self.cfg_address.val() == self.reg_main[3].val() {
                self.xon_bytes.d.next = self.cfg_data.val();
            }
            if self.cfg_address.val() == self.reg_main[4].val() {
                self.headroom_limit.d.next = self.cfg_data.val();
            }
            if self.cfg_address.val() == self.reg_main[5].val() {
                self.tc_pool.d.next = self.cfg_data.val().get_bits::<24>(0);
            }
            if self.cfg_address.val() == self.reg_main[6].val() {
                self.pfc_enabled.d.next = self.cfg_data.val().get_bits::<8>(0);
            }
            if self.cfg_address.val() == self.reg_main[7].val() {
                self.codepoints_a.d.next = self.cfg_data.val().get_bits::<24>(0);
            }
            if self.cfg_address.val() == self.reg_main[8].val() {
                self.codepoints_b.d.next = self.cfg_data.val().get_bits::<12>(0);
            }
            for p in 0..8 {
                if self.cfg_address.val() == self.reg_pool_size[p].val() {
                    self.pool_size[p].d.next = self.cfg_data.val();
                }
                if self.cfg_address.val() == self.reg_fixed[p].val() {
                    self.fixed_limit[p].d.next = self.cfg_data.val();
                }
                if self.cfg_address.val() == self.reg_retransmit[p].val() {
                    self.retransmit_limit[p].d.next = self.cfg_data.val();
                }
            }
        }
        // Per-port pause timing, written through port_select.
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
        self.quantum_ram.read_address_a.next = bit_cast::<A, 8>(self.ev_ingress_port.val());
        self.delay_ram.read_address_a.next = bit_cast::<A, 8>(self.ev_ingress_port.val());
        self.faces_nic_ram.write_clock.next = self.clock.val();
        self.faces_nic_ram.read_clock.next = self.clock.val();
        self.faces_nic_ram.write_address.next = bit_cast::<A, 8>(self.port_select.q.val());
        self.faces_nic_ram.write_data.next = self.cfg_data.val().get_bit(0);
        self.faces_nic_ram.write_enable.next = self.cfg_write.val() & (self.cfg_address.val() == self.reg_port[3].val());
        self.faces_nic_ram.read_address.next = bit_cast::<A, 8>(self.ev_egress_port.val());
        // Stage 0: classify an arrival (DSCP / 8, or the UET codepoint role:
        // the first matching role wins, so the roles are tested last-first).
        self.cl_tc.next = bit_cast::<3, 6>(self.ev_dscp.val() >> 3);
        self.cl_retransmit.next = false;
        self.cl_trimmable.next = false;
        if self.uet_policy.q.val() {
            self.cl_tc.next = 0.into();
            if self.ev_dscp.val() == self.codepoints_b.q.val().get_bits::<6>(6) {
                self.cl_tc.next = 1.into();
            }
            if self.ev_dscp.val() == self.codepoints_b.q.val().get_bits::<6>(0) {
                self.cl_tc.next = 1.into();
            }
            if self.ev_dscp.val() == self.codepoints_a.q.val().get_bits::<6>(18) {
                self.cl_tc.next = 2.into();
            }
            if self.ev_dscp.val() == self.codepoints_a.q.val().get_bits::<6>(12) {
                self.cl_tc.next = 0.into();
                self.cl_retransmit.next = true;
                self.cl_trimmable.next = true;
            }
            if self.ev_dscp.val() == self.codepoints_a.q.val().get_bits::<6>(6) {
                self.cl_tc.next = 0.into();
                self.cl_retransmit.next = false;
                self.cl_trimmable.next = true;
            }
            if self.ev_dscp.val() == self.codepoints_a.q.val().get_bits::<6>(0) {
                self.cl_tc.next = 0.into();
                self.cl_retransmit.next = false;
                self.cl_trimmable.next = false;
            }
        }
        self.cl_pool.next = self.cl_tc.val();
        if !self.uet_policy.q.val() {
            for t in 0..8 {
                if self.cl_tc.val().index() == t {
                    self.cl_pool.next = self.tc_pool.q.val().get_bits::<3>(3 * t);
                }
            }
        }
        self.cl_lossless.next = false;
        for t in 0..8 {
            if self.cl_tc.val().index() == t {
                self.cl_lossless.next = self.pfc_enabled.q.val().get_bit(t);
            }
        }
        self.ev_pool_used.next = self.cl_pool.val();
        if self.ev_release.val() {
            self.ev_pool_used.next = self.ev_pool.val();
        }
        // Counter addresses: (ingress port, pool), (egress port, pool), egress port.
        self.ingress_ram.clock.next = self.clock.val();
        self.headroom_ram.read_clock.next = self.clock.val();
        self.xoff_ram.clock.next = self.clock.val();
        self.egress_ram.clock.next = self.clock.val();
        self.port_ram.clock.next = self.clock.val();
        self.headroom_ram.write_clock.next = self.clock.val();
        self.s1_in_address.d.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_ingress_port.val()) << 3) | bit_cast::<11, 3>(self.ev_pool_used.val()));
        self.s1_eg_address.d.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_egress_port.val()) << 3) | bit_cast::<11, 3>(self.ev_pool_used.val()));
        self.s1_port_address.d.next = bit_cast::<A, 8>(self.ev_egress_port.val());
        self.ingress_ram.read_address_a.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_ingress_port.val()) << 3) | bit_cast::<11, 3>(self.ev_pool_used.val()));
        self.headroom_ram.read_address.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_ingress_port.val()) << 3) | bit_cast::<11, 3>(self.ev_pool_used.val()));
        self.xoff_ram.read_address_a.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_ingress_port.val()) << 3) | bit_cast::<11, 3>(self.ev_pool_used.val()));
        self.egress_ram.read_address_a.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_egress_port.val()) << 3) | bit_cast::<11, 3>(self.ev_pool_used.val()));
        self.port_ram.read_address_a.next = bit_cast::<A, 8>(self.ev_egress_port.val());
        // Pool 1 of both ports, where a trimmed packet goes.
        self.s1_in1_address.d.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_ingress_port.val()) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
        self.s1_eg1_address.d.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_egress_port.val()) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
        self.ingress_ram.read_address_b.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_ingress_port.val()) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
        self.egress_ram.read_address_b.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_egress_port.val()) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
        self.s1_trimmable.d.next = self.cl_trimmable.val();
        self.s1_arrival.d.next = self.ev_arrival.val() & !self.ev_release.val() & !self.reset.val();
        self.s1_release.d.next = self.ev_release.val() & !self.reset.val();
        self.s1_pool.d.next = self.ev_pool_used.val();
        self.s1_tc.d.next = self.cl_tc.val();
        self.s1_lossless.d.next = self.cl_lossless.val();
        self.s1_retransmit.d.next = self.cl_retransmit.val();
        self.s1_bytes.d.next = self.ev_bytes.val();
        if self.ev_arrival.val() & (self.ev_bytes.val() < self.min_charge.val()) {
            self.s1_bytes.d.next = self.min_charge.val();
        }
        if self.ev_release.val() {
            self.s1_lossless.d.next = self.ev_lossless.val();
        }
        self.s1_pfc.d.next = self.ev_pfc.val() & !self.ev_arrival.val() & !self.ev_release.val() & !self.reset.val();
        self.s1_classes.d.next = self.ev_classes.val();
        self.s1_quanta.d.next = self.ev_quanta.val();
        if self.ev_arrival.val() {
            // An arrival may send a pause: its first re-send falls due after
            // half of a full pause.
            self.s1_quanta.d.next = self.pause_quanta.val();
        }
        self.s1_now.d.next = self.now_ns.val();
        self.s1_query_address.d.next = bit_cast::<A, 8>(self.query_port.val());
        for t in 0..8 {
            self.deadline_ram[t].read_clock.next = self.clock.val();
            self.deadline_ram[t].write_clock.next = self.clock.val();
            self.deadline_ram[t].read_address.next = bit_cast::<A, 8>(self.query_port.val());
        }
        // Stage 1: the counters as of now.
        self.ingress_now.next = self.ingress_ram.read_data_a.val();
        self.headroom_now.next = self.headroom_ram.read_data.val();
        self.xoff_now.next = self.xoff_ram.read_data_a.val();
        if self.fw_in_valid.q.val() & (self.fw_ingress_address.q.val() == self.s1_in_address.q.val()) {
            self.ingress_now.next = self.fw_ingress.q.val();
        }
        if self.fw_in_valid.q.val() & (self.fw_in_address.q.val() == self.s1_in_address.q.val()) {
            self.headroom_now.next = self.fw_headroom.q.val();
            self.xoff_now.next = self.fw_xoff.q.val();
        }
        self.egress_now.next = self.egress_ram.read_data_a.val();
        if self.fw_eg_valid.q.val() & (self.fw_eg_address.q.val() == self.s1_eg_address.q.val()) {
            self.egress_now.next = self.fw_egress.q.val();
        }
        self.port_now.next = self.port_ram.read_data_a.val();
        if self.fw_port_valid.q.val() & (self.fw_port_address.q.val() == self.s1_port_address.q.val()) {
            self.port_now.next = self.fw_port.q.val();
        }
        self.pool_now.next = self.pool_bytes[0].q.val();
        self.pool_egress_now.next = self.pool_egress_bytes[0].q.val();
        self.pool_size_now.next = self.pool_size[0].q.val();
        self.fixed_now.next = self.fixed_limit[0].q.val();
        self.retransmit_now.next = self.retransmit_limit[0].q.val();
        for p in 1..8 {
            if self.s1_pool.q.val().index() == p {
                self.pool_now.next = self.pool_bytes[p].q.val();
                self.pool_egress_now.next = self.pool_egress_bytes[p].q.val();
                self.pool_size_now.next = self.pool_size[p].q.val();
                self.fixed_now.next = self.fixed_limit[p].q.val();
                self.retransmit_now.next = self.retransmit_limit[p].q.val();
            }
        }
        // The pool's priority group: its lossless classes (one term per
        // class, combined below; a local never reads itself).
        for t in 0..8 {
            self.class_in_group[t].next = 0.into();
            if self.pfc_enabled.q.val().get_bit(t) {
                if self.uet_policy.q.val() {
                    if self.s1_pool.q.val().index() == t {
                        self.class_in_group[t].next = (1 << t).into();
                    }
                } else if self.tc_pool.q.val().get_bits::<3>(3 * t) == self.s1_pool.q.val() {
                    self.class_in_group[t].next = (1 << t).into();
                }
            }
        }
        self.group_classes.next = self.class_in_group[0].val() | self.class_in_group[1].val() | self.class_in_group[2].val()
            | self.class_in_group[3].val() | self.class_in_group[4].val() | self.class_in_group[5].val()
            | self.class_in_group[6].val() | self.class_in_group[7].val();
        self.bytes32.next = bit_cast::<32, 16>(self.s1_bytes.q.val());
        // Defaults: nothing changes.
        self.ingress_next.next = self.ingress_now.val();
        self.headroom_next.next = self.headroom_now.val();
        self.xoff_next.next = self.xoff_now.val();
        self.egress_next.next = self.egress_now.val();
        self.port_next.next = self.port_now.val();
        self.pool_next.next = self.pool_now.val();
        self.pool_egress_next.next = self.pool_egress_now.val();
        self.went_headroom.next = false;
        self.pause_now.next = false;
        self.resume_now.next = false;
        self.from_headroom.next = 0.into();
        // The lossy egress limit: (alpha x free) >> 10 from 16 x 16 products, or fixed.
        self.free_bytes.next = 0.into();
        if self.pool_size_now.val() > self.pool_egress_now.val() {
            self.free_bytes.next = self.pool_size_now.val() - self.pool_egress_now.val();
        }
        self.alpha_hi.next = self.alpha_q10.q.val() * self.free_bytes.val().get_bits::<16>(16);
        self.alpha_lo.next = self.alpha_q10.q.val() * self.free_bytes.val().get_bits::<16>(0);
        self.limit.next = (self.alpha_hi.val() << 6) + (self.alpha_lo.val() >> 10);
        if self.alpha_hi.val() >= 0x3FF_FFFF {
            self.limit.next = self.limit_saturated.val();
        }
        if !self.dynamic_limit.q.val() {
            self.limit.next = self.fixed_now.val();
            if self.s1_retransmit.q.val() {
                self.limit.next = self.retransmit_now.val();
            }
        }
        // Ingress admission.
        self.ingress_drop.next = 0.into();
        if self.s1_arrival.q.val() {
            if self.s1_lossless.q.val() & self.xoff_now.val() {
                if self.headroom_now.val() + self.bytes32.val() > self.headroom_limit.q.val() {
                    self.ingress_drop.next = 1.into();
                } else {
                    self.headroom_next.next = self.headroom_now.val() + self.bytes32.val();
                    self.went_headroom.next = true;
                }
            } else {
                if self.s1_lossless.q.val() & (self.ingress_now.val() + self.bytes32.val() > self.xoff_bytes.q.val()) {
                    self.pause_now.next = true;
                    self.xoff_next.next = true;
                }
                if self.pool_now.val() + self.bytes32.val() > self.pool_size_now.val() {
                    self.ingress_drop.next = 2.into();
                } else {
                    self.ingress_next.next = self.ingress_now.val() + self.bytes32.val();
                    self.pool_next.next = self.pool_now.val() + self.bytes32.val();
                }
            }
        }
        // Egress admission: only lossy packets are limited.
        self.egress_drop.next = 0.into();
        if self.s1_arrival.q.val() & (self.ingress_drop.val() == 0) & !self.s1_lossless.q.val() {
            if self.egress_now.val() + self.bytes32.val() > self.limit.val() {
                self.egress_drop.next = 3.into();
            } else if self.pool_egress_now.val() + self.bytes32.val() > self.pool_size_now.val() {
                self.egress_drop.next = 4.into();
            }
        }
        // Trimming (UET): a trimmable packet the egress refused gives its
        // charge back and is offered again, cut to 46 B, to TC1 (pool 1) of
        // the same ports. A trimmable packet is TC0, so pool 1 is never the
        // pool it leaves.
        self.ingress1_now.next = self.ingress_ram.read_data_b.val();
        if self.fw_in_valid.q.val() & (self.fw_ingress_address.q.val() == self.s1_in1_address.q.val()) {
            self.ingress1_now.next = self.fw_ingress.q.val();
        }
        self.egress1_now.next = self.egress_ram.read_data_b.val();
        if self.fw_eg_valid.q.val() & (self.fw_eg_address.q.val() == self.s1_eg1_address.q.val()) {
            self.egress1_now.next = self.fw_egress.q.val();
        }
        self.free1_bytes.next = 0.into();
        if self.pool_size[1].q.val() > self.pool_egress_bytes[1].q.val() {
            self.free1_bytes.next = self.pool_size[1].q.val() - self.pool_egress_bytes[1].q.val();
        }
        self.alpha1_hi.next = self.alpha_q10.q.val() * self.free1_bytes.val().get_bits::<16>(16);
        self.alpha1_lo.next = self.alpha_q10.q.val() * self.free1_bytes.val().get_bits::<16>(0);
        self.limit1.next = (self.alpha1_hi.val() << 6) + (self.alpha1_lo.val() >> 10);
        if self.alpha1_hi.val() >= 0x3FF_FFFF {
            self.limit1.next = self.limit_saturated.val();
        }
        if !self.dynamic_limit.q.val() {
            self.limit1.next = self.fixed_limit[1].q.val();
        }
        self.trim_try.next = (self.egress_drop.val() != 0) & self.trimming.q.val() & self.uet_policy.q.val() & self.s1_trimmable.q.val();
        self.trim_drop.next = 0.into();
        if self.pool_bytes[1].q.val() + self.trim_charge.val() > self.pool_size[1].q.val() {
            self.trim_drop.next = 2.into();
        } else if self.egress1_now.val() + self.trim_charge.val() > self.limit1.val() {
            self.trim_drop.next = 3.into();
        } else if self.pool_egress_bytes[1].q.val() + self.trim_charge.val() > self.pool_size[1].q.val() {
            self.trim_drop.next = 4.into();
        }
        self.trim_ok.next = self.trim_try.val() & (self.trim_drop.val() == 0);
        self.drop_code.next = self.ingress_drop.val();
        if self.ingress_drop.val() == 0 {
            self.drop_code.next = self.egress_drop.val();
        }
        if self.trim_try.val() {
            self.drop_code.next = self.trim_drop.val();
        }
        if self.egress_drop.val() != 0 {
            // A lossy packet dropped at egress gives its ingress charge back.
            self.ingress_next.next = self.ingress_now.val();
            self.pool_next.next = self.pool_now.val();
        }
        if self.s1_arrival.q.val() & (self.drop_code.val() == 0) & !self.trim_try.val() {
            self.egress_next.next = self.egress_now.val() + self.bytes32.val();
            self.port_next.next = self.port_now.val() + self.bytes32.val();
            self.pool_egress_next.next = self.pool_egress_now.val() + self.bytes32.val();
        }
        if self.trim_ok.val() {
            self.port_next.next = self.port_now.val() + self.trim_charge.val();
        }
        if self.s1_release.q.val() {
            self.egress_next.next = self.egress_now.val() - self.bytes32.val();
            self.port_next.next = self.port_now.val() - self.bytes32.val();
            self.pool_egress_next.next = self.pool_egress_now.val() - self.bytes32.val();
            if self.s1_lossless.q.val() {
                self.from_headroom.next = self.headroom_now.val();
                if self.bytes32.val() < self.headroom_now.val() {
                    self.from_headroom.next = self.bytes32.val();
                }
            }
            self.headroom_next.next = self.headroom_now.val() - self.from_headroom.val();
            self.ingress_next.next = self.ingress_now.val() - (self.bytes32.val() - self.from_headroom.val());
            self.pool_next.next = self.pool_now.val() - (self.bytes32.val() - self.from_headroom.val());
            if self.s1_lossless.q.val() & self.xoff_now.val() & (self.headroom_next.val() == 0)
                & (self.ingress_next.val() <= self.xon_bytes.q.val())
            {
                self.resume_now.next = true;
                self.xoff_next.next = false;
            }
        }
        // A received PFC frame: the named classes of the port are paused
        // until now + ((quanta x quantum_q16) >> 16) + delay (now for quanta 0).
        self.pause_hi.next = self.s1_quanta.q.val() * self.quantum_ram.read_data_a.val().get_bits::<16>(16);
        self.pause_lo.next = self.s1_quanta.q.val() * self.quantum_ram.read_data_a.val().get_bits::<16>(0);
        self.pause_total.next = self.pause_hi.val() + (self.pause_lo.val() >> 16) + self.delay_ram.read_data_a.val();
        self.until_now.next = self.s1_now.q.val() + self.pause_total.val();
        if self.s1_quanta.q.val() == 0 {
            self.until_now.next = self.s1_now.q.val();
        }
        for t in 0..8 {
            self.deadline_ram[t].write_address.next = self.s1_in_address.q.val() >> 3;
            self.deadline_ram[t].write_data.next = self.until_now.val();
            self.deadline_ram[t].write_enable.next = self.s1_pfc.q.val() & self.s1_classes.q.val().get_bit(t) & !self.reset.val();
            // The query: paused while now is before the deadline (forwarded when just written).
            self.query_bit[t].next = 0.into();
            if self.fw_pfc_valid.q.val() & (self.fw_pfc_address.q.val() == self.s1_query_address.q.val()) & self.fw_pfc_classes.q.val().get_bit(t) {
                if self.s1_now.q.val() < self.fw_pfc_until.q.val() {
                    self.query_bit[t].next = (1 << t).into();
                }
            } else if self.s1_now.q.val() < self.deadline_ram[t].read_data.val() {
                self.query_bit[t].next = (1 << t).into();
            }
        }
        self.fw_pfc_valid.d.next = self.s1_pfc.q.val() & !self.reset.val();
        self.fw_pfc_address.d.next = self.s1_in_address.q.val() >> 3;
        self.fw_pfc_classes.d.next = self.s1_classes.q.val();
        self.fw_pfc_until.d.next = self.until_now.val();
        // The ingress and egress counters written: pool 1 for a trimmed packet.
        self.ingress_write_address.next = self.s1_in_address.q.val();
        self.ingress_write_data.next = self.ingress_next.val();
        self.egress_write_address.next = self.s1_eg_address.q.val();
        self.egress_write_data.next = self.egress_next.val();
        if self.trim_ok.val() {
            self.ingress_write_address.next = self.s1_in1_address.q.val();
            self.ingress_write_data.next = self.ingress1_now.val() + self.trim_charge.val();
            self.egress_write_address.next = self.s1_eg1_address.q.val();
            self.egress_write_data.next = self.egress1_now.val() + self.trim_charge.val();
        }
        // Writes (cancelled by reset).
        self.ingress_ram.write_address.next = self.ingress_write_address.val();
        self.headroom_ram.write_address.next = self.s1_in_address.q.val();
        self.xoff_ram.write_address.next = self.s1_in_address.q.val();
        self.egress_ram.write_address.next = self.egress_write_address.val();
        self.port_ram.write_address.next = self.s1_port_address.q.val();
        self.ingress_ram.write_data.next = self.ingress_write_data.val();
        self.headroom_ram.write_data.next = self.headroom_next.val();
        self.xoff_ram.write_data.next = self.xoff_next.val();
        self.egress_ram.write_data.next = self.egress_write_data.val();
        self.port_ram.write_data.next = self.port_next.val();
        self.ingress_ram.write_enable.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.headroom_ram.write_enable.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.xoff_ram.write_enable.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.egress_ram.write_enable.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.port_ram.write_enable.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.port_ram.read_address_b.next = bit_cast::<A, 8>(self.query_port.val());
        // The query: the port's egress bytes over all pools (forwarded when just written).
        self.s2_query_bytes.d.next = self.port_ram.read_data_b.val();
        if self.fw_port_valid.q.val() & (self.fw_port_address.q.val() == self.s1_query_address.q.val()) {
            self.s2_query_bytes.d.next = self.fw_port.q.val();
        }
        self.fw_in_valid.d.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.fw_in_address.d.next = self.s1_in_address.q.val();
        self.fw_ingress_address.d.next = self.ingress_write_address.val();
        self.fw_ingress.d.next = self.ingress_write_data.val();
        self.fw_headroom.d.next = self.headroom_next.val();
        self.fw_xoff.d.next = self.xoff_next.val();
        self.fw_eg_valid.d.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.fw_eg_address.d.next = self.egress_write_address.val();
        self.fw_egress.d.next = self.egress_write_data.val();
        self.fw_port_valid.d.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.fw_port_address.d.next = self.s1_port_address.q.val();
        self.fw_port.d.next = self.port_next.val();
        if (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val() {
            for p in 0..8 {
                if self.s1_pool.q.val().index() == p {
                    self.pool_bytes[p].d.next = self.pool_next.val();
                    self.pool_egress_bytes[p].d.next = self.pool_egress_next.val();
                }
            }
        }
        if self.trim_ok.val() & !self.reset.val() {
            self.pool_bytes[1].d.next = self.pool_bytes[1].q.val() + self.trim_charge.val();
            self.pool_egress_bytes[1].d.next = self.pool_egress_bytes[1].q.val() + self.trim_charge.val();
        }
        // Stage 2: the result.
        self.s2_valid.d.next = (self.s1_arrival.q.val() | self.s1_release.q.val() | self.s1_pfc.q.val()) & !self.reset.val();
        self.s2_pfc.d.next = self.s1_pfc.q.val();
        self.s2_until.d.next = self.until_now.val();
        self.s2_query.d.next = self.query_bit[0].val() | self.query_bit[1].val() | self.query_bit[2].val() | self.query_bit[3].val()
            | self.query_bit[4].val() | self.query_bit[5].val() | self.query_bit[6].val() | self.query_bit[7].val();
        self.s2_release.d.next = self.s1_release.q.val();
        self.s2_admitted.d.next = self.s1_arrival.q.val() & (self.drop_code.val() == 0);
        self.s2_drop.d.next = self.drop_code.val();
        self.s2_headroom.d.next = self.went_headroom.val() & (self.drop_code.val() == 0);
        self.s2_tc.d.next = self.s1_tc.q.val();
        self.s2_pool.d.next = self.s1_pool.q.val();
        self.s2_lossless.d.next = self.s1_lossless.q.val();
        self.s2_bytes.d.next = self.s1_bytes.q.val();
        self.s2_queue.d.next = self.egress_next.val();
        self.s2_trimmed.d.next = self.trim_ok.val();
        self.s2_trimmed_dscp.d.next = 0.into();
        if self.trim_ok.val() {
            self.s2_tc.d.next = self.trim_pool.val();
            self.s2_pool.d.next = self.trim_pool.val();
            self.s2_lossless.d.next = false;
            self.s2_bytes.d.next = self.min_charge.val();
            self.s2_queue.d.next = self.egress_write_data.val();
            self.s2_trimmed_dscp.d.next = self.codepoints_b.q.val().get_bits::<6>(0);
            if self.faces_nic_ram.read_data.val() {
                self.s2_trimmed_dscp.d.next = self.codepoints_b.q.val().get_bits::<6>(6);
            }
        }
        self.s2_pause.d.next = self.pause_now.val();
        self.s2_resume.d.next = self.resume_now.val();
        self.s2_classes.d.next = self.group_classes.val();
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
        self.queue_bytes.next = self.s2_queue.q.val();
        self.pause_request.next = self.s2_pause.q.val() & self.s2_valid.q.val();
        self.resume_request.next = self.s2_resume.q.val() & self.s2_valid.q.val();
        self.pfc_classes.next = self.s2_classes.q.val();
        self.result_pfc.next = self.s2_pfc.q.val();
        self.paused_until_ns.next = self.s2_until.q.val();
        self.query_paused.next = self.s2_query.q.val();
        self.query_egress_bytes.next = self.s2_query_bytes.q.val();
        self.trimmed.next = self.s2_trimmed.q.val() & self.s2_valid.q.val();
        self.trimmed_dscp.next = self.s2_trimmed_dscp.q.val();
        // The pause re-send sweep: one (port, pool) per cycle, round robin.
        // It holds still (and emits nothing) while an event sends a pause,
        // as both write due_ram, and around configuration writes, so a
        // re-send never mixes old and new registers. A pair that is paused
        // and due emits one re-send and moves its due time on by half a
        // full pause of the port: (65535 x quantum_q16) >> 16 + delay,
        // computed as quantum - ceil(quantum / 2^16) + delay.
        self.sweep_stall.next = (self.pause_now.val() & !self.reset.val()) | self.cfg_write.val() | self.cfg_write_q.q.val();
        self.cfg_write_q.d.next = self.cfg_write.val();
        self.sweep_read_address.next = self.sweep_ptr.q.val();
        if self.sweep_stall.val() {
            self.sweep_read_address.next = self.s1_sweep_address.q.val();
        }
        self.sweep_ptr.d.next = self.sweep_ptr.q.val() + 1;
        if self.sweep_stall.val() {
            self.sweep_ptr.d.next = self.sweep_ptr.q.val();
        }
        if self.reset.val() {
            self.sweep_ptr.d.next = 0.into();
        }
        self.s1_sweep_address.d.next = self.sweep_read_address.val();
        self.s1_sweep_valid.d.next = !self.reset.val();
        self.due_ram.read_clock.next = self.clock.val();
        self.due_ram.write_clock.next = self.clock.val();
        self.due_ram.read_address.next = self.sweep_read_address.val();
        self.xoff_ram.read_address_b.next = self.sweep_read_address.val();
        self.quantum_ram.read_address_b.next = self.sweep_read_address.val() >> 3;
        self.delay_ram.read_address_b.next = self.sweep_read_address.val() >> 3;
        self.sweep_xoff.next = self.xoff_ram.read_data_b.val();
        if self.fw_in_valid.q.val() & (self.fw_in_address.q.val() == self.s1_sweep_address.q.val()) {
            self.sweep_xoff.next = self.fw_xoff.q.val();
        }
        self.sweep_due.next = self.due_ram.read_data.val();
        if self.fw_due_valid.q.val() & (self.fw_due_address.q.val() == self.s1_sweep_address.q.val()) {
            self.sweep_due.next = self.fw_due.q.val();
        }
        self.sweep_fraction.next = 0.into();
        if self.quantum_ram.read_data_b.val().get_bits::<16>(0) != 0 {
            self.sweep_fraction.next = 1.into();
        }
        self.sweep_pause.next = self.quantum_ram.read_data_b.val() - (self.quantum_ram.read_data_b.val() >> 16)
            - self.sweep_fraction.val() + self.delay_ram.read_data_b.val();
        self.sweep_emit.next = self.s1_sweep_valid.q.val() & !self.sweep_stall.val() & !self.reset.val() & self.sweep_xoff.val()
            & (self.sweep_due.val() <= self.now_ns.val());
        self.sweep_pool.next = bit_cast::<3, A>(self.s1_sweep_address.q.val());
        for t in 0..8 {
            self.sweep_in_group[t].next = 0.into();
            if self.pfc_enabled.q.val().get_bit(t) {
                if self.uet_policy.q.val() {
                    if self.sweep_pool.val().index() == t {
                        self.sweep_in_group[t].next = (1 << t).into();
                    }
                } else if self.tc_pool.q.val().get_bits::<3>(3 * t) == self.sweep_pool.val() {
                    self.sweep_in_group[t].next = (1 << t).into();
                }
            }
        }
        // due_ram: a new pause sets the first re-send; an emitted re-send the next.
        self.due_ram.write_enable.next = false;
        self.due_ram.write_address.next = self.s1_sweep_address.q.val();
        self.due_ram.write_data.next = self.sweep_due.val() + (self.sweep_pause.val() >> 1);
        if self.sweep_emit.val() {
            self.due_ram.write_enable.next = true;
        }
        if self.pause_now.val() & !self.reset.val() {
            self.due_ram.write_enable.next = true;
            self.due_ram.write_address.next = self.s1_in_address.q.val();
            self.due_ram.write_data.next = self.s1_now.q.val() + (self.pause_total.val() >> 1);
        }
        self.fw_due_valid.d.next = (self.pause_now.val() & !self.reset.val()) | self.sweep_emit.val();
        self.fw_due_address.d.next = self.s1_sweep_address.q.val();
        self.fw_due.d.next = self.sweep_due.val() + (self.sweep_pause.val() >> 1);
        if self.pause_now.val() & !self.reset.val() {
            self.fw_due_address.d.next = self.s1_in_address.q.val();
            self.fw_due.d.next = self.s1_now.q.val() + (self.pause_total.val() >> 1);
        }
        self.s2_resend.d.next = self.sweep_emit.val();
        self.s2_resend_port.d.next = bit_cast::<8, A>(self.s1_sweep_address.q.val() >> 3);
        self.s2_resend_pool.d.next = self.sweep_pool.val();
        self.s2_resend_due.d.next = self.sweep_due.val();
        self.s2_resend_classes.d.next = self.sweep_in_group[0].val() | self.sweep_in_group[1].val() | self.sweep_in_group[2].val()
            | self.sweep_in_group[3].val() | self.sweep_in_group[4].val() | self.sweep_in_group[5].val()
            | self.sweep_in_group[6].val() | self.sweep_in_group[7].val();
        self.resend_valid.next = self.s2_resend.q.val();
        self.resend_port.next = self.s2_resend_port.q.val();
        self.resend_pool.next = self.s2_resend_pool.q.val();
        self.resend_due_ns.next = self.s2_resend_due.q.val();
        self.resend_classes.next = self.s2_resend_classes.q.val();
    }
}
