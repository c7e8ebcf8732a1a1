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
//! Sub-blocks, one file each: [`classify`] (class, pool, roles),
//! [`priority_group`] (a pool's lossless classes, twice: results and
//! re-sends), [`egress_limit`] (twice: the packet's pool and pool 1 for
//! trimming), [`pfc_receive`] (received pauses and the query),
//! [`resend_sweep`]; the counters live in forwarding RAMs
//! (`crate::forwarding_ram`, `crate::twin_forwarding_ram`).
//!
//! ```text
//!  event ─► classify ─► counter RAM reads (forwarding) ─►[s1]─► admit / trim / release
//!           (ingress, headroom, xoff at (in port, pool),      │  egress_limit x2, pool registers
//!            egress at (eg port, pool), pool 1 for trimming)  │  ─► RAM writes ─►[s2 result]
//!           pfc_receive: deadlines, query ─────────────────────┘
//!  resend_sweep: pair k ─► due, xoff (B port), timing ─►[s1] due <= now? ─►[s2 re-send]
//! ```
//!
//! Drop reasons are [`DropCode`] values.

use reference::register_map::*;
use rust_hdl::prelude::*;
use crate::build_checks::{c8, check_ports, zero_ram, BuildError};
use crate::forwarding_ram::ForwardingRam;
use crate::twin_forwarding_ram::TwinForwardingRam;
use crate::twin_read_ram::TwinReadRam;
use rust_hdl::widgets::prelude::RAM;

pub mod classify;
pub mod egress_limit;
pub mod pfc_receive;
pub mod priority_group;
pub mod resend_sweep;

use classify::Classify;
use egress_limit::EgressLimit;
use pfc_receive::PfcReceive;
use priority_group::PriorityGroup;
use resend_sweep::ResendSweep;

pub const LATENCY: usize = 2;
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
    // sub-blocks
    classify: Classify,
    group: PriorityGroup,
    limit: EgressLimit,
    trim_limit: EgressLimit,
    pfc: PfcReceive<A>,
    sweep: ResendSweep<A>,
    // registers (docs/register_map.md), the packed ones decoded into fields
    dynamic_limit: DFF<Bit>,
    trimming: DFF<Bit>,
    uet_policy: DFF<Bit>,
    alpha_q10: DFF<Bits<16>>,
    xoff_bytes: DFF<Bits<32>>,
    xon_bytes: DFF<Bits<32>>,
    headroom_limit: DFF<Bits<32>>,
    tc_pool: DFF<Bits<24>>,
    pfc_enabled: DFF<Bits<8>>,
    no_trim_dscp: DFF<Bits<6>>,
    trimmable_dscp: DFF<Bits<6>>,
    retransmit_dscp: DFF<Bits<6>>,
    control_dscp: DFF<Bits<6>>,
    trimmed_dscp_code: DFF<Bits<6>>,
    trimmed_last_hop_dscp: DFF<Bits<6>>,
    pool_size: [DFF<Bits<32>>; 8],
    fixed_limit: [DFF<Bits<32>>; 8],
    retransmit_limit: [DFF<Bits<32>>; 8],
    port_select: DFF<Bits<8>>,
    faces_nic_ram: RAM<Bit, A>,
    // per-port pause timing; read port A for events, B for the re-send sweep
    quantum_ram: TwinReadRam<Bits<32>, A>,
    delay_ram: TwinReadRam<Bits<32>, A>,
    // switch-wide counters
    pool_bytes: [DFF<Bits<32>>; 8],
    pool_egress_bytes: [DFF<Bits<32>>; 8],
    // per (port, pool) and per port counters; read port A for the event,
    // B for pool 1 of the same ports (trimming), the sweep (xoff) or the
    // query channel (port)
    ingress_ram: TwinForwardingRam<Bits<32>, A>,
    headroom_ram: ForwardingRam<Bits<32>, A>,
    xoff_ram: TwinForwardingRam<Bit, A>,
    egress_ram: TwinForwardingRam<Bits<32>, A>,
    port_ram: TwinForwardingRam<Bits<32>, A>,
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
    s1_bytes: DFF<Bits<16>>,
    s1_pfc: DFF<Bit>,
    s1_classes: DFF<Bits<8>>,
    s1_quanta: DFF<Bits<16>>,
    s1_now: DFF<Bits<32>>,
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
    // combinational intermediates
    ev_pool_used: Signal<Local, Bits<3>>,
    ev_in_address: Signal<Local, Bits<A>>,
    ev_eg_address: Signal<Local, Bits<A>>,
    pool_now: Signal<Local, Bits<32>>,
    pool_egress_now: Signal<Local, Bits<32>>,
    pool_size_now: Signal<Local, Bits<32>>,
    fixed_now: Signal<Local, Bits<32>>,
    retransmit_now: Signal<Local, Bits<32>>,
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
    resume_now: Signal<Local, Bit>,
    from_headroom: Signal<Local, Bits<32>>,
    trim_try: Signal<Local, Bit>,
    trim_drop: Signal<Local, Bits<3>>,
    trim_ok: Signal<Local, Bit>,
    limit_fixed_now: Signal<Local, Bits<32>>,
    ingress_write_address: Signal<Local, Bits<A>>,
    ingress_write_data: Signal<Local, Bits<32>>,
    egress_write_address: Signal<Local, Bits<A>>,
    egress_write_data: Signal<Local, Bits<32>>,
    // register addresses and constants
    reg_main: [Constant<Bits<8>>; 9],
    reg_pool_size: [Constant<Bits<8>>; 8],
    reg_fixed: [Constant<Bits<8>>; 8],
    reg_retransmit: [Constant<Bits<8>>; 8],
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
            query_port: Default::default(),
            result_valid: Default::default(), result_release: Default::default(), admitted: Default::default(),
            drop_reason: Default::default(), to_headroom: Default::default(), result_tc: Default::default(),
            result_pool: Default::default(), result_lossless: Default::default(), charged_bytes: Default::default(),
            queue_bytes: Default::default(), pause_request: Default::default(), resume_request: Default::default(),
            pfc_classes: Default::default(), result_pfc: Default::default(), paused_until_ns: Default::default(),
            query_paused: Default::default(), query_egress_bytes: Default::default(),
            trimmed: Default::default(), trimmed_dscp: Default::default(),
            resend_valid: Default::default(), resend_port: Default::default(), resend_pool: Default::default(),
            resend_classes: Default::default(), resend_due_ns: Default::default(),
            classify: Default::default(), group: Default::default(), limit: Default::default(),
            trim_limit: Default::default(), pfc: Default::default(), sweep: Default::default(),
            dynamic_limit: Default::default(), trimming: Default::default(), uet_policy: Default::default(),
            alpha_q10: Default::default(), xoff_bytes: Default::default(), xon_bytes: Default::default(),
            headroom_limit: Default::default(), tc_pool: Default::default(), pfc_enabled: Default::default(),
            no_trim_dscp: Default::default(), trimmable_dscp: Default::default(), retransmit_dscp: Default::default(),
            control_dscp: Default::default(), trimmed_dscp_code: Default::default(), trimmed_last_hop_dscp: Default::default(),
            pool_size: Default::default(), fixed_limit: Default::default(), retransmit_limit: Default::default(),
            port_select: Default::default(), faces_nic_ram: zero_ram(),
            quantum_ram: Default::default(), delay_ram: Default::default(),
            pool_bytes: Default::default(), pool_egress_bytes: Default::default(),
            ingress_ram: Default::default(), headroom_ram: Default::default(), xoff_ram: Default::default(),
            egress_ram: Default::default(), port_ram: Default::default(),
            s1_arrival: Default::default(), s1_release: Default::default(), s1_in_address: Default::default(),
            s1_eg_address: Default::default(), s1_port_address: Default::default(), s1_pool: Default::default(),
            s1_tc: Default::default(), s1_lossless: Default::default(), s1_retransmit: Default::default(),
            s1_trimmable: Default::default(), s1_bytes: Default::default(), s1_pfc: Default::default(),
            s1_classes: Default::default(), s1_quanta: Default::default(), s1_now: Default::default(),
            s2_valid: Default::default(), s2_release: Default::default(), s2_admitted: Default::default(),
            s2_drop: Default::default(), s2_headroom: Default::default(), s2_tc: Default::default(),
            s2_pool: Default::default(), s2_lossless: Default::default(), s2_bytes: Default::default(),
            s2_queue: Default::default(), s2_pause: Default::default(), s2_resume: Default::default(),
            s2_classes: Default::default(), s2_pfc: Default::default(), s2_until: Default::default(),
            s2_query: Default::default(), s2_query_bytes: Default::default(), s2_trimmed: Default::default(),
            s2_trimmed_dscp: Default::default(),
            ev_pool_used: Default::default(), ev_in_address: Default::default(), ev_eg_address: Default::default(),
            pool_now: Default::default(), pool_egress_now: Default::default(), pool_size_now: Default::default(),
            fixed_now: Default::default(), retransmit_now: Default::default(), ingress_drop: Default::default(),
            egress_drop: Default::default(), bytes32: Default::default(), ingress_next: Default::default(),
            headroom_next: Default::default(), xoff_next: Default::default(), egress_next: Default::default(),
            port_next: Default::default(), pool_next: Default::default(), pool_egress_next: Default::default(),
            drop_code: Default::default(), went_headroom: Default::default(), pause_now: Default::default(),
            resume_now: Default::default(), from_headroom: Default::default(), trim_try: Default::default(),
            trim_drop: Default::default(), trim_ok: Default::default(), limit_fixed_now: Default::default(),
            ingress_write_address: Default::default(), ingress_write_data: Default::default(),
            egress_write_address: Default::default(), egress_write_data: Default::default(),
            reg_main: [BM_MODE, BM_ALPHA, BM_XOFF, BM_XON, BM_HEADROOM, BM_TC_POOL, BM_PFC_ENABLED, BM_CODEPOINTS_A, BM_CODEPOINTS_B].map(c8),
            reg_pool_size: std::array::from_fn(|p| c8(BM_POOL_SIZE + p as u8)),
            reg_fixed: std::array::from_fn(|p| c8(BM_FIXED_LIMIT + p as u8)),
            reg_retransmit: std::array::from_fn(|p| c8(BM_RETRANSMIT_LIMIT + p as u8)),
            reg_port: [BM_PORT_SELECT, BM_PORT_QUANTUM, BM_PORT_DELAY, BM_PORT_FACES_NIC].map(c8),
            drop_none: DropCode::None.constant(),
            drop_headroom_full: DropCode::HeadroomFull.constant(),
            drop_pool_full: DropCode::PoolFull.constant(),
            drop_egress_limit: DropCode::EgressLimit.constant(),
            drop_egress_pool: DropCode::EgressPool.constant(),
            min_charge: Constant::new(Bits::<16>::from(MIN_CHARGE as LiteralType)),
            trim_charge: Constant::new(Bits::<32>::from(MIN_CHARGE as LiteralType)),
            trim_pool: Constant::new(Bits::<3>::from(TRIM_POOL as LiteralType)),
            pause_quanta: Constant::new(Bits::<16>::from(PAUSE_QUANTA as LiteralType)),
        })
    }
}

impl<const A: usize> Logic for BufferManager<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, dynamic_limit, trimming, uet_policy, alpha_q10, xoff_bytes, xon_bytes, headroom_limit,
            tc_pool, pfc_enabled, no_trim_dscp, trimmable_dscp, retransmit_dscp, control_dscp, trimmed_dscp_code,
            trimmed_last_hop_dscp, port_select,
            s1_arrival, s1_release, s1_in_address, s1_eg_address, s1_port_address, s1_pool, s1_tc, s1_lossless,
            s1_retransmit, s1_trimmable, s1_bytes, s1_pfc, s1_classes, s1_quanta, s1_now,
            s2_valid, s2_release, s2_admitted, s2_drop, s2_headroom, s2_tc, s2_pool, s2_lossless, s2_bytes, s2_queue,
            s2_pause, s2_resume, s2_classes, s2_pfc, s2_until, s2_query, s2_query_bytes, s2_trimmed, s2_trimmed_dscp);
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
        // Configuration channel: reg_main follows BM_MODE .. BM_CODEPOINTS_B.
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
                self.no_trim_dscp.d.next = self.cfg_data.val().get_bits::<6>(0);
                self.trimmable_dscp.d.next = self.cfg_data.val().get_bits::<6>(6);
                self.retransmit_dscp.d.next = self.cfg_data.val().get_bits::<6>(12);
                self.control_dscp.d.next = self.cfg_data.val().get_bits::<6>(18);
            }
            if self.cfg_address.val() == self.reg_main[8].val() {
                self.trimmed_dscp_code.d.next = self.cfg_data.val().get_bits::<6>(0);
                self.trimmed_last_hop_dscp.d.next = self.cfg_data.val().get_bits::<6>(6);
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
        // Per-port registers, written through port_select: BM_PORT_SELECT,
        // BM_PORT_QUANTUM, BM_PORT_DELAY, BM_PORT_FACES_NIC.
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
        // Stage 0: classify an arrival; a release names its pool.
        self.classify.dscp.next = self.ev_dscp.val();
        self.classify.uet_policy.next = self.uet_policy.q.val();
        self.classify.tc_pool.next = self.tc_pool.q.val();
        self.classify.pfc_enabled.next = self.pfc_enabled.q.val();
        self.classify.no_trim_dscp.next = self.no_trim_dscp.q.val();
        self.classify.trimmable_dscp.next = self.trimmable_dscp.q.val();
        self.classify.retransmit_dscp.next = self.retransmit_dscp.q.val();
        self.classify.control_dscp.next = self.control_dscp.q.val();
        self.classify.trimmed_dscp.next = self.trimmed_dscp_code.q.val();
        self.classify.trimmed_last_hop_dscp.next = self.trimmed_last_hop_dscp.q.val();
        self.ev_pool_used.next = self.classify.pool.val();
        if self.ev_release.val() {
            self.ev_pool_used.next = self.ev_pool.val();
        }
        // Counter addresses: (ingress port, pool), (egress port, pool),
        // egress port; port B of ingress and egress reads pool 1 of the same
        // ports (where a trimmed packet goes).
        self.ev_in_address.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_ingress_port.val()) << 3) | bit_cast::<11, 3>(self.ev_pool_used.val()));
        self.ev_eg_address.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_egress_port.val()) << 3) | bit_cast::<11, 3>(self.ev_pool_used.val()));
        self.ingress_ram.clock.next = self.clock.val();
        self.headroom_ram.clock.next = self.clock.val();
        self.xoff_ram.clock.next = self.clock.val();
        self.egress_ram.clock.next = self.clock.val();
        self.port_ram.clock.next = self.clock.val();
        self.ingress_ram.read_address_a.next = self.ev_in_address.val();
        self.headroom_ram.read_address.next = self.ev_in_address.val();
        self.xoff_ram.read_address_a.next = self.ev_in_address.val();
        self.egress_ram.read_address_a.next = self.ev_eg_address.val();
        self.port_ram.read_address_a.next = bit_cast::<A, 8>(self.ev_egress_port.val());
        self.ingress_ram.read_address_b.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_ingress_port.val()) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
        self.egress_ram.read_address_b.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.ev_egress_port.val()) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
        self.port_ram.read_address_b.next = bit_cast::<A, 8>(self.query_port.val());
        self.s1_in_address.d.next = self.ev_in_address.val();
        self.s1_eg_address.d.next = self.ev_eg_address.val();
        self.s1_port_address.d.next = bit_cast::<A, 8>(self.ev_egress_port.val());
        self.s1_trimmable.d.next = self.classify.trimmable.val();
        self.s1_arrival.d.next = self.ev_arrival.val() & !self.ev_release.val() & !self.reset.val();
        self.s1_release.d.next = self.ev_release.val() & !self.reset.val();
        self.s1_pool.d.next = self.ev_pool_used.val();
        self.s1_tc.d.next = self.classify.tc.val();
        self.s1_lossless.d.next = self.classify.lossless.val();
        self.s1_retransmit.d.next = self.classify.retransmit.val();
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
        // Stage 1: the pool's registers and counters.
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
        self.group.pool.next = self.s1_pool.q.val();
        self.group.uet_policy.next = self.uet_policy.q.val();
        self.group.tc_pool.next = self.tc_pool.q.val();
        self.group.pfc_enabled.next = self.pfc_enabled.q.val();
        self.bytes32.next = bit_cast::<32, 16>(self.s1_bytes.q.val());
        // Defaults: nothing changes.
        self.ingress_next.next = self.ingress_ram.read_data_a.val();
        self.headroom_next.next = self.headroom_ram.read_data.val();
        self.xoff_next.next = self.xoff_ram.read_data_a.val();
        self.egress_next.next = self.egress_ram.read_data_a.val();
        self.port_next.next = self.port_ram.read_data_a.val();
        self.pool_next.next = self.pool_now.val();
        self.pool_egress_next.next = self.pool_egress_now.val();
        self.went_headroom.next = false;
        self.pause_now.next = false;
        self.resume_now.next = false;
        self.from_headroom.next = 0.into();
        // The lossy egress limit of the packet's pool (a retransmission's own when fixed).
        self.limit.dynamic_limit.next = self.dynamic_limit.q.val();
        self.limit.alpha_q10.next = self.alpha_q10.q.val();
        self.limit.pool_size_bytes.next = self.pool_size_now.val();
        self.limit.pool_egress_bytes.next = self.pool_egress_now.val();
        // Sub-block inputs are assigned once (see `crate::forwarding_ram`).
        self.limit_fixed_now.next = self.fixed_now.val();
        if self.s1_retransmit.q.val() {
            self.limit_fixed_now.next = self.retransmit_now.val();
        }
        self.limit.fixed_limit_bytes.next = self.limit_fixed_now.val();
        // Ingress admission.
        self.ingress_drop.next = self.drop_none.val();
        if self.s1_arrival.q.val() {
            if self.s1_lossless.q.val() & self.xoff_ram.read_data_a.val() {
                if self.headroom_ram.read_data.val() + self.bytes32.val() > self.headroom_limit.q.val() {
                    self.ingress_drop.next = self.drop_headroom_full.val();
                } else {
                    self.headroom_next.next = self.headroom_ram.read_data.val() + self.bytes32.val();
                    self.went_headroom.next = true;
                }
            } else {
                if self.s1_lossless.q.val() & (self.ingress_ram.read_data_a.val() + self.bytes32.val() > self.xoff_bytes.q.val()) {
                    self.pause_now.next = true;
                    self.xoff_next.next = true;
                }
                if self.pool_now.val() + self.bytes32.val() > self.pool_size_now.val() {
                    self.ingress_drop.next = self.drop_pool_full.val();
                } else {
                    self.ingress_next.next = self.ingress_ram.read_data_a.val() + self.bytes32.val();
                    self.pool_next.next = self.pool_now.val() + self.bytes32.val();
                }
            }
        }
        // Egress admission: only lossy packets are limited.
        self.egress_drop.next = self.drop_none.val();
        if self.s1_arrival.q.val() & (self.ingress_drop.val() == self.drop_none.val()) & !self.s1_lossless.q.val() {
            if self.egress_ram.read_data_a.val() + self.bytes32.val() > self.limit.limit_bytes.val() {
                self.egress_drop.next = self.drop_egress_limit.val();
            } else if self.pool_egress_now.val() + self.bytes32.val() > self.pool_size_now.val() {
                self.egress_drop.next = self.drop_egress_pool.val();
            }
        }
        // Trimming (UET): a trimmable packet the egress refused gives its
        // charge back and is offered again, cut to 46 B, to TC1 (pool 1) of
        // the same ports. A trimmable packet is TC0, so pool 1 is never the
        // pool it leaves.
        self.trim_limit.dynamic_limit.next = self.dynamic_limit.q.val();
        self.trim_limit.alpha_q10.next = self.alpha_q10.q.val();
        self.trim_limit.pool_size_bytes.next = self.pool_size[1].q.val();
        self.trim_limit.pool_egress_bytes.next = self.pool_egress_bytes[1].q.val();
        self.trim_limit.fixed_limit_bytes.next = self.fixed_limit[1].q.val();
        self.trim_try.next = (self.egress_drop.val() != self.drop_none.val()) & self.trimming.q.val() & self.uet_policy.q.val()
            & self.s1_trimmable.q.val();
        self.trim_drop.next = self.drop_none.val();
        if self.pool_bytes[1].q.val() + self.trim_charge.val() > self.pool_size[1].q.val() {
            self.trim_drop.next = self.drop_pool_full.val();
        } else if self.egress_ram.read_data_b.val() + self.trim_charge.val() > self.trim_limit.limit_bytes.val() {
            self.trim_drop.next = self.drop_egress_limit.val();
        } else if self.pool_egress_bytes[1].q.val() + self.trim_charge.val() > self.pool_size[1].q.val() {
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
            self.ingress_next.next = self.ingress_ram.read_data_a.val();
            self.pool_next.next = self.pool_now.val();
        }
        if self.s1_arrival.q.val() & (self.drop_code.val() == self.drop_none.val()) & !self.trim_try.val() {
            self.egress_next.next = self.egress_ram.read_data_a.val() + self.bytes32.val();
            self.port_next.next = self.port_ram.read_data_a.val() + self.bytes32.val();
            self.pool_egress_next.next = self.pool_egress_now.val() + self.bytes32.val();
        }
        if self.trim_ok.val() {
            self.port_next.next = self.port_ram.read_data_a.val() + self.trim_charge.val();
        }
        // Release: headroom first, then the pool; resume below Xon.
        if self.s1_release.q.val() {
            self.egress_next.next = self.egress_ram.read_data_a.val() - self.bytes32.val();
            self.port_next.next = self.port_ram.read_data_a.val() - self.bytes32.val();
            self.pool_egress_next.next = self.pool_egress_now.val() - self.bytes32.val();
            if self.s1_lossless.q.val() {
                self.from_headroom.next = self.headroom_ram.read_data.val();
                if self.bytes32.val() < self.headroom_ram.read_data.val() {
                    self.from_headroom.next = self.bytes32.val();
                }
            }
            self.headroom_next.next = self.headroom_ram.read_data.val() - self.from_headroom.val();
            self.ingress_next.next = self.ingress_ram.read_data_a.val() - (self.bytes32.val() - self.from_headroom.val());
            self.pool_next.next = self.pool_now.val() - (self.bytes32.val() - self.from_headroom.val());
            if self.s1_lossless.q.val() & self.xoff_ram.read_data_a.val() & (self.headroom_next.val() == 0)
                & (self.ingress_next.val() <= self.xon_bytes.q.val())
            {
                self.resume_now.next = true;
                self.xoff_next.next = false;
            }
        }
        // Received PFC frames, and the query channel's paused classes.
        self.pfc.clock.next = self.clock.val();
        self.pfc.reset.next = self.reset.val();
        self.pfc.frame_valid.next = self.s1_pfc.q.val();
        self.pfc.frame_port.next = self.s1_in_address.q.val() >> 3;
        self.pfc.frame_classes.next = self.s1_classes.q.val();
        self.pfc.frame_quanta.next = self.s1_quanta.q.val();
        self.pfc.now_ns.next = self.s1_now.q.val();
        self.pfc.quantum_q16.next = self.quantum_ram.read_data_a.val();
        self.pfc.delay_ns.next = self.delay_ram.read_data_a.val();
        self.pfc.query_port.next = bit_cast::<A, 8>(self.query_port.val());
        // The counters written (cancelled by reset): pool 1 for a trimmed packet.
        self.ingress_write_address.next = self.s1_in_address.q.val();
        self.ingress_write_data.next = self.ingress_next.val();
        self.egress_write_address.next = self.s1_eg_address.q.val();
        self.egress_write_data.next = self.egress_next.val();
        if self.trim_ok.val() {
            self.ingress_write_address.next = bit_cast::<A, 11>((bit_cast::<11, A>(self.s1_in_address.q.val() >> 3) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
            self.ingress_write_data.next = self.ingress_ram.read_data_b.val() + self.trim_charge.val();
            self.egress_write_address.next = bit_cast::<A, 11>((bit_cast::<11, A>(self.s1_eg_address.q.val() >> 3) << 3) | bit_cast::<11, 3>(self.trim_pool.val()));
            self.egress_write_data.next = self.egress_ram.read_data_b.val() + self.trim_charge.val();
        }
        self.ingress_ram.write_address.next = self.ingress_write_address.val();
        self.ingress_ram.write_data.next = self.ingress_write_data.val();
        self.egress_ram.write_address.next = self.egress_write_address.val();
        self.egress_ram.write_data.next = self.egress_write_data.val();
        self.headroom_ram.write_address.next = self.s1_in_address.q.val();
        self.xoff_ram.write_address.next = self.s1_in_address.q.val();
        self.port_ram.write_address.next = self.s1_port_address.q.val();
        self.headroom_ram.write_data.next = self.headroom_next.val();
        self.xoff_ram.write_data.next = self.xoff_next.val();
        self.port_ram.write_data.next = self.port_next.val();
        self.ingress_ram.write_enable.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.headroom_ram.write_enable.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.xoff_ram.write_enable.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.egress_ram.write_enable.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
        self.port_ram.write_enable.next = (self.s1_arrival.q.val() | self.s1_release.q.val()) & !self.reset.val();
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
        // The re-send sweep; a pause sent now sets the pair's first re-send.
        self.sweep.clock.next = self.clock.val();
        self.sweep.reset.next = self.reset.val();
        self.sweep.cfg_write.next = self.cfg_write.val();
        self.sweep.pause_valid.next = self.pause_now.val();
        self.sweep.pause_address.next = self.s1_in_address.q.val();
        self.sweep.pause_due_ns.next = self.s1_now.q.val() + (self.pfc.pause_ns.val() >> 1);
        self.sweep.now_ns.next = self.now_ns.val();
        self.xoff_ram.read_address_b.next = self.sweep.pair_address.val();
        self.quantum_ram.read_address_b.next = self.sweep.pair_address.val() >> 3;
        self.delay_ram.read_address_b.next = self.sweep.pair_address.val() >> 3;
        self.sweep.pair_xoff.next = self.xoff_ram.read_data_b.val();
        self.sweep.pair_quantum_q16.next = self.quantum_ram.read_data_b.val();
        self.sweep.pair_delay_ns.next = self.delay_ram.read_data_b.val();
        self.sweep.uet_policy.next = self.uet_policy.q.val();
        self.sweep.tc_pool.next = self.tc_pool.q.val();
        self.sweep.pfc_enabled.next = self.pfc_enabled.q.val();
        // Stage 2: the result.
        self.s2_valid.d.next = (self.s1_arrival.q.val() | self.s1_release.q.val() | self.s1_pfc.q.val()) & !self.reset.val();
        self.s2_pfc.d.next = self.s1_pfc.q.val();
        self.s2_until.d.next = self.pfc.paused_until_ns.val();
        self.s2_query.d.next = self.pfc.query_paused.val();
        self.s2_query_bytes.d.next = self.port_ram.read_data_b.val();
        self.s2_release.d.next = self.s1_release.q.val();
        self.s2_admitted.d.next = self.s1_arrival.q.val() & (self.drop_code.val() == self.drop_none.val());
        self.s2_drop.d.next = self.drop_code.val();
        self.s2_headroom.d.next = self.went_headroom.val() & (self.drop_code.val() == self.drop_none.val());
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
            self.s2_trimmed_dscp.d.next = self.trimmed_dscp_code.q.val();
            if self.faces_nic_ram.read_data.val() {
                self.s2_trimmed_dscp.d.next = self.trimmed_last_hop_dscp.q.val();
            }
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
        // Pause re-send channel.
        self.resend_valid.next = self.sweep.resend_valid.val();
        self.resend_port.next = self.sweep.resend_port.val();
        self.resend_pool.next = self.sweep.resend_pool.val();
        self.resend_classes.next = self.sweep.resend_classes.val();
        self.resend_due_ns.next = self.sweep.resend_due_ns.val();
    }
}
