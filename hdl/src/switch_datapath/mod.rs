//! The switch datapath: the four blocks joined as the reference's
//! `reference::switch::Switch` joins its models, bit-exact with it:
//! `tx_start`, `depart` and `pfc_rx` one per clock, an arrival alone up
//! to its command to the buffer manager, the next event in its tail.
//!
//! ```text
//!            ┌─ sequencer (streamed events one per clock; arrivals alone to the tail) ─┐
//!  arrive ─► ecmp_hash ─► flow hash ─┐                                   │
//!        └─► buffer_manager probe ─► class, ingress refused? ─┐          │
//!            refresh: buffer_manager query (egress bytes, paused classes
//!                     at now) ─► flowlet_table port state, for the ports
//!                     port_refresh names (changed, or all once a received
//!                     pause may have ended)                              │
//!            flowlet_table select ─► egress port ─► buffer_manager arrival
//!                     admitted ─► flowlet_table commit, ecn_marker update
//!  tx_start ─► ecn_marker decide      depart ─► buffer_manager release
//!  pfc_rx   ─► buffer_manager (pause deadlines; the refresh carries them
//!              to the flowlet table)
//! ```
//!
//! Parameters (checked by [`SwitchDatapath::new`]): `A = P + 3`, the
//! buffer manager's and ECN marker's (port, pool) address bits; `P`, port
//! bits (up to 2^P ports); `S`, `T`, `E = S + 6`: the flowlet table's set
//! id bits, slot address bits (2^(T-9) flow tables) and lookup bits.
//!
//! Ports, by channel (all synchronous to `clock`):
//! * control: `reset` (synchronous: back to idle; every block drops what
//!   it has in flight; the flowlet table forgets its flows and sweeps)
//! * configuration: `cfg_write`, `cfg_block` ([`ConfigBlock`]: which
//!   block's register map), `cfg_address` (8 bits), `cfg_data` (32); see
//!   `docs/register_map.md`. The flowlet table's set-size writes are also
//!   kept here, for the hash's `dpr` fallback. Writes are meant for idle
//!   cycles (`ev_ready` high), as the replay gives them.
//! * event (taken in a cycle with `ev_valid` and `ev_ready`; `ev_ready`
//!   stays high after a `tx_start`, `depart` or `pfc_rx`, falls after an
//!   arrival until its tail, [`ARRIVAL_TAIL_CYCLES`] before its result,
//!   and after a `tx_start` taken in that tail until the arrival's
//!   result): `ev_kind` ([`EventKind`]), `now_ns`
//!   (32 bits, ns, read in the cycle the event is taken), `ev_port` (an arrival's ingress port; a PFC
//!   frame's port; a packet's ingress port on `tx_start` and `depart`),
//!   `ev_dscp`, `ev_ect`, `ev_bytes` (an arrival's bytes without the
//!   Ethernet header; a packet's charged bytes), the flow key `ev_proto`,
//!   `ev_src`, `ev_dst`, `ev_sport`, `ev_dport`, `ev_set` (S bits: the
//!   equal-cost set), the tag of an admitted packet `tag_egress_port`,
//!   `tag_pool`, `tag_lossless` (kept by the harness, next to the packet,
//!   as a real design would), and `ev_classes`, `ev_quanta` of a PFC frame
//! * result (one cycle, `result_valid`, in the order the events were
//!   taken; a field not of the result's kind holds an older value):
//!   `result_kind`, `admitted`,
//!   `drop_reason` (the buffer manager's codes), `to_headroom`, `tc`,
//!   `pool`, `lossless`, `charged_bytes`, `has_egress` with `egress_port`,
//!   `flow_hash`, `pause_sent`, `trimmed`, `trimmed_dscp`, `ecn_marked`
//!   (tx_start), `resume_sent` (depart), `paused_until_ns` (pfc_rx)
//! * pause re-send, from the buffer manager's sweep: `resend_valid`,
//!   `resend_port`, `resend_pool`, `resend_classes`, `resend_due_ns`
//!
//! Latency, from the cycle the event is taken to `result_valid`
//! ([`arrival_cycles`], [`STREAMED_EVENT_CYCLES`], [`arrival_start_delay`],
//! [`ARRIVAL_TAIL_CYCLES`]):
//! `tx_start`, `depart` and `pfc_rx` 7 cycles, one per clock back to back
//! (throughput 1 per cycle); an arrival max(28, 27 + d) cycles, d the ports changed since the last
//! arrival's refresh (an admission or release on them, a PFC frame
//! received on them; at most 16), with 2^P + 1 more when a received pause
//! may have ended since the last walk over every port or more than 16
//! ports changed (the key goes to the hash in the cycle the arrival is
//! taken, the refresh starts with the ingress probe a cycle later; the
//! hash's early answer, the flow hash alone, is in after 6 cycles, with
//! the refresh of one changed port: the ECMP block's member is not used,
//! the flowlet table picks the member); max(11, 10 + d) when the ingress
//! refuses it (it refreshes too), and up to 5 more when it is taken right
//! behind a `pfc_rx` (it starts once that has answered); it follows
//! `tx_start` and `depart` at once.
//! Of an arrival's cycles the member selection takes the most: the
//! flowlet table is built shallow here ([`FLOWLET_WIRED`]), two of its
//! reduction stages in each cycle of this slower clock, 17 cycles instead
//! of its own 24. The next event can be taken in an arrival's tail, from
//! 4 cycles before its result (the arrival's command is then on its way
//! through the buffer manager): an arrival takes the datapath for 24
//! cycles or more, 7 or more when refused. A `tx_start` taken there for
//! the arrival's egress port (or in the tail's third cycle) waits inside
//! until the arrival's result (the ECN marker must see the arrival's
//! update of the average first) and answers 6 cycles after it; any other
//! goes at once. See [`sequencer`] for why arrivals overlap no more and
//! wait for a `pfc_rx`, and why the tail is exact, [`port_refresh`] for why
//! the refresh is exact. A configuration write (meant for a cycle with
//! `ev_ready` high) reaches the events taken in its cycle and later, never
//! one taken before: a streamed event's command goes to its block the
//! cycle after it is taken, and a block's event sees the writes of
//! earlier cycles, not of its own. One exception: an arrival's update of
//! the ECN marker's average goes with its answer, at the end of its tail,
//! so an ECN marker write given in the tail (`ev_ready` is high there)
//! reaches that update; write the ECN marker outside an arrival's tail
//! (the replay writes only the set tables between events).
//!
//! Pause re-sends come from the buffer manager's sweep as time passes
//! (its `now_ns` is the last event's time): they are the one answer whose
//! timing differs from the reference's, which emits them before the event
//! at or after their due time.
//!
//! Size and Fmax (2 flow tables, Yosys 0.23 `synth_ecp5`, nextpnr-ecp5
//! 0.11 out of context on an LFE5U-85F, seed 1, speed 8; routed Dec 6,
//! evening, with the next event taken in an arrival's tail and the
//! flowlet table built shallow): 16 ports 54.9 MHz (56.0 the afternoon's
//! build without the tail; 43.4 that build at speed 6), the critical path
//! in the buffer manager's decision (`s1_in_address` ->
//! `port_query_ram.last_write_data`); 23,825 LUT4, 21,466 FF, 36 DP16KD,
//! 24 MULT18X18D, 3,071 CCU2C, 1,688 TRELLIS_DPR16X4. 128 ports 61.0 MHz
//! (47.5 at speed 6; 62.1 and 48.1 the afternoon's build without the
//! tail), the buffer manager's
//! forwarding into its Xoff flags (`headroom_ram.hits_newer` ->
//! `xoff_ram.forward_newer_data`); 26,764 LUT4, 17,141 FF, 188 DP16KD, 24
//! MULT18X18D, 3,088 CCU2C, 1,024 TRELLIS_DPR16X4. The flowlet table's
//! slowest registers (two least-occupied levels in a cycle) are at
//! 12.2-13.3 ns, the port refresh's ring at 10.1-10.8, the sequencer's
//! at 6.9-7.2 ns (these routes are of the build before the arrival
//! followed streamed events at once and the key went to the hash as the
//! arrival is taken; those changes add a few registers and comparisons
//! away from those paths. This build, routed Dec 6, late, at speed 8: 16
//! ports 55.4 MHz (`s1_in_address` -> `pool_egress_bytes[1]`, 18.05 ns;
//! 25,355 LUT4, 21,324 FF); 128 ports 58.2 MHz, the buffer manager's decision `s1_in_address` ->
//! `s2_trimmed_dscp` at 16.9 ns and the twelve slowest registers all in
//! the buffer manager, which is placed anew each time; 25,803 LUT4, 16,994
//! FF). An arrival takes the datapath for 24 cycles or
//! more and a streamed event for one, so at 61.0 MHz about 2.5 M
//! arrivals/s; the default scenario's trace (a third arrivals) takes
//! 11,632,222 cycles for 1,174,871 events, counted exactly by the
//! co-simulation's schedule (`cargo bench --bench replay_engines`): 6.16 M
//! events/s at that clock, 5.88 M at this build's own 58.2 MHz
//! (12,478,997 cycles, 5.74 M events/s at 61.0 MHz, before those two
//! changes). With the buffer manager of d193033 (Dec 7; same latency,
//! same schedule) the datapath routes at 61.3 MHz at 16 ports and 63.7 at
//! 128 (`quantum_ram` -> `sweep.due_ram`, 15.7 ns): 6.43 M events/s. The
//! model's 128 flow tables do not fit this
//! device beside the rest: their 64 Ki slots of 57 bits need at least 204
//! of its 208 DP16KD.

pub mod port_refresh;
pub mod sequencer;

use crate::buffer_manager::{BufferManager, DropCode};
use crate::build_checks::{check_ports, zero_ram, BuildError};
use crate::ecmp_hash::EcmpHash;
use crate::ecn_marker::EcnMarker;
use crate::flowlet_table::registers::Registers as FlowletRegisters;
use crate::flowlet_table::{FlowletTable, TIME_BITS};
use crate::stage_register::WiredRanks;

// The kernel writes the flowlet table's time width as a literal (a Rust
// constant would become a bare Verilog name).
const _: () = assert!(TIME_BITS == 50);
use reference::register_map::{CFG_BLOCK_BUFFER_MANAGER, CFG_BLOCK_ECMP_HASH, CFG_BLOCK_ECN_MARKER, CFG_BLOCK_FLOWLET_TABLE};
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::RAM;
pub use sequencer::EventKind;
use port_refresh::PortRefresh;
use sequencer::Sequencer;

/// Which block a configuration write goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigBlock {
    EcmpHash = CFG_BLOCK_ECMP_HASH as isize,
    FlowletTable = CFG_BLOCK_FLOWLET_TABLE as isize,
    BufferManager = CFG_BLOCK_BUFFER_MANAGER as isize,
    EcnMarker = CFG_BLOCK_ECN_MARKER as isize,
}

impl ConfigBlock {
    pub fn code(self) -> u64 {
        self as u64
    }

    fn constant(self) -> Constant<Bits<2>> {
        Constant::new(Bits::<2>::from(self as u8 as LiteralType))
    }
}

/// The flowlet table's cycles whose registers the datapath's build leaves
/// out: every second reduction stage, so that two do their work in one
/// cycle of the datapath's clock (about 56 MHz, set by the buffer
/// manager; a stage of the flowlet table takes 6.3 ns at most).
pub const FLOWLET_WIRED: WiredRanks = WiredRanks::of(&[10, 12, 14, 16, 18, 20, 22]);
/// Cycles from a select to the flowlet table's answer in the datapath.
pub const FLOWLET_LATENCY: usize = crate::flowlet_table::latency(FLOWLET_WIRED);

/// Cycles from taking an arrival to its result; `refused`: the ingress
/// refused it (no select); `walk`: the cycle of the refresh's last query
/// ([`walk_cycles`]; 0 without one). The steps: taken, the key to the
/// hash (cycle 0); the ingress probe issued in cycle 1, where the
/// refresh's walk starts too; the select (or, refused, the arrival) once the walk's last
/// answer is written (buffer-manager latency after its query), the hash
/// has answered (the select may take it in its own cycle) and the probe's
/// answer is latched; then, unless refused, the arrival in the cycle the
/// flowlet table answers; the buffer manager's answer; the result.
pub const fn arrival_cycles(refused: bool, walk: usize) -> usize {
    let to_hash_answer = crate::ecmp_hash::HASH_LATENCY;
    let to_probe_latched = 1 + crate::buffer_manager::LATENCY + 1;
    let to_refresh_written = if walk == 0 { 0 } else { walk + crate::buffer_manager::LATENCY + 1 };
    let to_decide = later(to_hash_answer, later(to_probe_latched, to_refresh_written));
    let arrival = crate::buffer_manager::LATENCY + 1;
    if refused {
        to_decide + arrival
    } else {
        to_decide + FLOWLET_LATENCY + arrival
    }
}

const fn later(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// The cycle of the refresh's last query, counted from the arrival's
/// (0: no query): one per changed port from cycle 1; a walk over every
/// port (2^`port_bits` queries) after a cycle that decides it.
pub const fn walk_cycles(changed_ports: usize, full: bool, port_bits: usize) -> usize {
    changed_ports + if full { 1 + (1 << port_bits) } else { 0 }
}

/// The most cycles an arrival takes on a datapath of 2^`port_bits` ports.
pub const fn longest_arrival_cycles(port_bits: usize) -> usize {
    arrival_cycles(false, walk_cycles(port_refresh::RING, true, port_bits))
}

/// Cycles from taking a streamed event (`tx_start`, `depart`, `pfc_rx`)
/// to its result: its command the next cycle, the answer
/// [`sequencer::STREAM_STAGES`] - 1 cycles after that, the result
/// registered. Streamed events can be taken back to back, one per clock.
pub const STREAMED_EVENT_CYCLES: usize = 1 + sequencer::STREAM_STAGES;

/// The last cycles of an arrival (from its command to the buffer manager
/// to its result) in which the datapath takes the next event: it is ready
/// again `arrival_cycles - ARRIVAL_TAIL_CYCLES` cycles after taking the
/// arrival. A `tx_start` taken then for the arrival's egress port, or in
/// the tail's third cycle (its command would come with the arrival's
/// answer), is held
/// inside until the arrival's update of the queue's average has gone to
/// the ECN marker: the datapath is busy until the arrival's result, and
/// the `tx_start` answers [`STREAMED_EVENT_CYCLES`] - 1 cycles after it.
/// Any other `tx_start` goes on at once.
pub const ARRIVAL_TAIL_CYCLES: usize = sequencer::ARRIVAL_TAIL;

/// Cycles an arrival waits for a received PFC frame still in flight
/// before its steps ([`arrival_cycles`]) begin, when the last `pfc_rx`
/// went on `cycles_since` cycles before it (at least 1): the pause's end
/// must have reached the port refresh. It does not wait for `tx_start` or
/// `depart`.
pub const fn arrival_start_delay(cycles_since: usize) -> usize {
    (STREAMED_EVENT_CYCLES - 1).saturating_sub(cycles_since)
}

#[derive(LogicBlock)]
pub struct SwitchDatapath<const A: usize, const P: usize, const S: usize, const T: usize, const E: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // configuration channel
    pub cfg_write: Signal<In, Bit>,
    pub cfg_block: Signal<In, Bits<2>>,
    pub cfg_address: Signal<In, Bits<8>>,
    pub cfg_data: Signal<In, Bits<32>>,
    // event channel
    pub ev_valid: Signal<In, Bit>,
    pub ev_ready: Signal<Out, Bit>,
    pub ev_kind: Signal<In, Bits<2>>,
    pub now_ns: Signal<In, Bits<32>>,
    pub ev_port: Signal<In, Bits<8>>,
    pub ev_dscp: Signal<In, Bits<6>>,
    pub ev_ect: Signal<In, Bit>,
    pub ev_bytes: Signal<In, Bits<16>>,
    pub ev_proto: Signal<In, Bits<8>>,
    pub ev_src: Signal<In, Bits<32>>,
    pub ev_dst: Signal<In, Bits<32>>,
    pub ev_sport: Signal<In, Bits<16>>,
    pub ev_dport: Signal<In, Bits<16>>,
    pub ev_set: Signal<In, Bits<S>>,
    pub tag_egress_port: Signal<In, Bits<8>>,
    pub tag_pool: Signal<In, Bits<3>>,
    pub tag_lossless: Signal<In, Bit>,
    pub ev_classes: Signal<In, Bits<8>>,
    pub ev_quanta: Signal<In, Bits<16>>,
    // result channel
    pub result_valid: Signal<Out, Bit>,
    pub result_kind: Signal<Out, Bits<2>>,
    pub admitted: Signal<Out, Bit>,
    pub drop_reason: Signal<Out, Bits<3>>,
    pub to_headroom: Signal<Out, Bit>,
    pub tc: Signal<Out, Bits<3>>,
    pub pool: Signal<Out, Bits<3>>,
    pub lossless: Signal<Out, Bit>,
    pub charged_bytes: Signal<Out, Bits<16>>,
    pub has_egress: Signal<Out, Bit>,
    pub egress_port: Signal<Out, Bits<8>>,
    pub flow_hash: Signal<Out, Bits<16>>,
    pub pause_sent: Signal<Out, Bit>,
    pub trimmed: Signal<Out, Bit>,
    pub trimmed_dscp: Signal<Out, Bits<6>>,
    pub ecn_marked: Signal<Out, Bit>,
    pub resume_sent: Signal<Out, Bit>,
    pub paused_until_ns: Signal<Out, Bits<32>>,
    // pause re-send channel
    pub resend_valid: Signal<Out, Bit>,
    pub resend_port: Signal<Out, Bits<8>>,
    pub resend_pool: Signal<Out, Bits<3>>,
    pub resend_classes: Signal<Out, Bits<8>>,
    pub resend_due_ns: Signal<Out, Bits<32>>,
    // the blocks
    sequencer: Sequencer<P>,
    port_refresh: PortRefresh,
    hash: EcmpHash,
    flowlet: FlowletTable<P, S, T, E>,
    buffer: BufferManager<A>,
    ecn: EcnMarker<A>,
    set_registers: FlowletRegisters<S>,
    set_size_ram: RAM<Bits<7>, S>,
    // the event taken, held until its result (an arrival's) or its command
    // (a streamed event's)
    kind_held: DFF<Bits<2>>,
    now_held: DFF<Bits<32>>,
    port_held: DFF<Bits<8>>,
    dscp_held: DFF<Bits<6>>,
    ect_held: DFF<Bit>,
    bytes_held: DFF<Bits<16>>,
    set_held: DFF<Bits<S>>,
    tag_egress_held: DFF<Bits<8>>,
    tag_pool_held: DFF<Bits<3>>,
    tag_lossless_held: DFF<Bit>,
    classes_held: DFF<Bits<8>>,
    quanta_held: DFF<Bits<16>>,
    // what the blocks answered on the way
    flow_hash_held: DFF<Bits<16>>,
    class_tc_held: DFF<Bits<3>>,
    member_held: DFF<Bits<6>>,
    egress_held: DFF<Bits<8>>,
    has_slot_held: DFF<Bit>,
    slot_held: DFF<Bits<16>>,
    /// The arrival's time (ns), kept from its select for its commit: the
    /// next event may be taken in the arrival's tail.
    select_now_held: DFF<Bits<32>>,
    /// The arrival passed the ingress (its egress port was chosen), kept
    /// from its command to its result.
    has_egress_held: DFF<Bit>,
    /// Set: an arrival marks its egress port for the refresh with its
    /// command, before an arrival taken in its tail walks the ring. Clear
    /// (a fault-injection build): with its answer, too late for that.
    mark_with_command: Constant<Bit>,
    /// Set: a release or a received PFC frame marks its port for the
    /// refresh with its command, before an arrival taken right behind it
    /// walks the ring. Clear (a fault-injection build): with its answer.
    stream_mark_with_command: Constant<Bit>,
    /// A release or a received PFC frame marks its port this cycle.
    stream_mark: Signal<Local, Bit>,
    /// A streamed event's port to refresh (a release's egress port, a
    /// received pause's port) and its time (ns), carried to its answer
    /// beside the sequencer's pipe (stage k: k cycles after its command).
    stream_port: [DFF<Bits<8>>; sequencer::STREAM_STAGES],
    stream_now: [DFF<Bits<32>>; sequencer::STREAM_STAGES],
    /// The buffer manager's answers to a release or a PFC frame, held a
    /// cycle to come out with the ECN marker's (a streamed event's answer).
    resume_late: DFF<Bit>,
    until_late: DFF<Bits<32>>,
    /// A port's state was written last cycle: its pause end answers now.
    expiry_answer_due: DFF<Bit>,
    // the result
    result_ready: DFF<Bit>,
    kind_result: DFF<Bits<2>>,
    admitted_held: DFF<Bit>,
    drop_held: DFF<Bits<3>>,
    headroom_held: DFF<Bit>,
    tc_held: DFF<Bits<3>>,
    pool_held: DFF<Bits<3>>,
    lossless_held: DFF<Bit>,
    charged_held: DFF<Bits<16>>,
    pause_held: DFF<Bit>,
    trimmed_held: DFF<Bit>,
    trimmed_dscp_held: DFF<Bits<6>>,
    marked_held: DFF<Bit>,
    resume_held: DFF<Bit>,
    until_held: DFF<Bits<32>>,
    // codes
    block_hash: Constant<Bits<2>>,
    block_flowlet: Constant<Bits<2>>,
    block_buffer: Constant<Bits<2>>,
    block_ecn: Constant<Bits<2>>,
    kind_arrive: Constant<Bits<2>>,
    kind_depart: Constant<Bits<2>>,
    kind_tx_start: Constant<Bits<2>>,
    kind_pfc_rx: Constant<Bits<2>>,
    drop_headroom_full: Constant<Bits<3>>,
    drop_pool_full: Constant<Bits<3>>,
}

fn code3(code: DropCode) -> Constant<Bits<3>> {
    Constant::new(Bits::<3>::from(code as u8 as LiteralType))
}

fn kind2(kind: EventKind) -> Constant<Bits<2>> {
    Constant::new(Bits::<2>::from(kind as u8 as LiteralType))
}

impl<const A: usize, const P: usize, const S: usize, const T: usize, const E: usize> SwitchDatapath<A, P, S, T, E> {
    /// The datapath of a switch with `ports` ports.
    pub fn new(ports: usize) -> Result<Self, BuildError> {
        Self::build(ports, Sequencer::default())
    }

    /// A deliberately wrong build for the fault-injection tests: the port
    /// state is never refreshed, so the flowlet table selects on stale
    /// (zero) occupancy and pause state.
    pub fn without_port_refresh(ports: usize) -> Result<Self, BuildError> {
        Self::build(ports, Sequencer::without_refresh())
    }

    /// A deliberately wrong build for the fault-injection tests: an
    /// arrival starts while a received PFC frame is in flight
    /// ([`Sequencer::without_drain`]).
    pub fn without_pfc_drain(ports: usize) -> Result<Self, BuildError> {
        Self::build(ports, Sequencer::without_drain())
    }

    /// A deliberately wrong build for the fault-injection tests: the
    /// ingress probe's answer is the buffer manager's first answer after
    /// it ([`Sequencer::without_probe_pipe`]), a streamed event's when one
    /// is in flight.
    pub fn without_probe_pipe(ports: usize) -> Result<Self, BuildError> {
        Self::build(ports, Sequencer::without_probe_pipe())
    }

    /// A deliberately wrong build for the fault-injection tests: a release
    /// or a received PFC frame marks its port for the refresh with its
    /// answer, so an arrival taken right behind it misses the mark.
    pub fn without_early_stream_mark(ports: usize) -> Result<Self, BuildError> {
        let mut datapath = Self::build(ports, Sequencer::default())?;
        datapath.stream_mark_with_command = Constant::new(false);
        Ok(datapath)
    }

    /// A deliberately wrong build for the fault-injection tests: an
    /// arrival marks its egress port for the refresh with its answer, so
    /// an arrival taken in its tail misses it and selects on that port's
    /// occupancy before the admission.
    pub fn without_early_mark(ports: usize) -> Result<Self, BuildError> {
        let mut datapath = Self::build(ports, Sequencer::default())?;
        datapath.mark_with_command = Constant::new(false);
        Ok(datapath)
    }

    /// A deliberately wrong build for the fault-injection tests: a
    /// `tx_start` taken in an arrival's tail is decided before the
    /// arrival's update of the average ([`Sequencer::without_tx_start_hold`]).
    pub fn without_tx_start_hold(ports: usize) -> Result<Self, BuildError> {
        Self::build(ports, Sequencer::without_tx_start_hold())
    }

    fn build(ports: usize, sequencer: Sequencer<P>) -> Result<Self, BuildError> {
        if A != P + 3 {
            return Err(BuildError(format!("switch datapath: A = {A} address bits: must be P + 3 = {} (port and pool)", P + 3)));
        }
        check_ports::<A>("switch datapath", ports)?;
        let flowlet = FlowletTable::<P, S, T, E>::shallow(FLOWLET_WIRED)?;
        let buffer = BufferManager::<A>::new(ports)?;
        let ecn = EcnMarker::<A>::new(ports)?;
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            cfg_write: Default::default(),
            cfg_block: Default::default(),
            cfg_address: Default::default(),
            cfg_data: Default::default(),
            ev_valid: Default::default(),
            ev_ready: Default::default(),
            ev_kind: Default::default(),
            now_ns: Default::default(),
            ev_port: Default::default(),
            ev_dscp: Default::default(),
            ev_ect: Default::default(),
            ev_bytes: Default::default(),
            ev_proto: Default::default(),
            ev_src: Default::default(),
            ev_dst: Default::default(),
            ev_sport: Default::default(),
            ev_dport: Default::default(),
            ev_set: Default::default(),
            tag_egress_port: Default::default(),
            tag_pool: Default::default(),
            tag_lossless: Default::default(),
            ev_classes: Default::default(),
            ev_quanta: Default::default(),
            result_valid: Default::default(),
            result_kind: Default::default(),
            admitted: Default::default(),
            drop_reason: Default::default(),
            to_headroom: Default::default(),
            tc: Default::default(),
            pool: Default::default(),
            lossless: Default::default(),
            charged_bytes: Default::default(),
            has_egress: Default::default(),
            egress_port: Default::default(),
            flow_hash: Default::default(),
            pause_sent: Default::default(),
            trimmed: Default::default(),
            trimmed_dscp: Default::default(),
            ecn_marked: Default::default(),
            resume_sent: Default::default(),
            paused_until_ns: Default::default(),
            resend_valid: Default::default(),
            resend_port: Default::default(),
            resend_pool: Default::default(),
            resend_classes: Default::default(),
            resend_due_ns: Default::default(),
            sequencer,
            port_refresh: Default::default(),
            hash: EcmpHash::with_late_set_size(),
            flowlet,
            buffer,
            ecn,
            set_registers: Default::default(),
            set_size_ram: zero_ram(),
            kind_held: Default::default(),
            now_held: Default::default(),
            port_held: Default::default(),
            dscp_held: Default::default(),
            ect_held: Default::default(),
            bytes_held: Default::default(),
            set_held: Default::default(),
            tag_egress_held: Default::default(),
            tag_pool_held: Default::default(),
            tag_lossless_held: Default::default(),
            classes_held: Default::default(),
            quanta_held: Default::default(),
            flow_hash_held: Default::default(),
            class_tc_held: Default::default(),
            member_held: Default::default(),
            egress_held: Default::default(),
            has_slot_held: Default::default(),
            slot_held: Default::default(),
            select_now_held: Default::default(),
            has_egress_held: Default::default(),
            mark_with_command: Constant::new(true),
            stream_mark_with_command: Constant::new(true),
            stream_mark: Default::default(),
            stream_port: Default::default(),
            stream_now: Default::default(),
            resume_late: Default::default(),
            until_late: Default::default(),
            expiry_answer_due: Default::default(),
            result_ready: Default::default(),
            kind_result: Default::default(),
            admitted_held: Default::default(),
            drop_held: Default::default(),
            headroom_held: Default::default(),
            tc_held: Default::default(),
            pool_held: Default::default(),
            lossless_held: Default::default(),
            charged_held: Default::default(),
            pause_held: Default::default(),
            trimmed_held: Default::default(),
            trimmed_dscp_held: Default::default(),
            marked_held: Default::default(),
            resume_held: Default::default(),
            until_held: Default::default(),
            block_hash: ConfigBlock::EcmpHash.constant(),
            block_flowlet: ConfigBlock::FlowletTable.constant(),
            block_buffer: ConfigBlock::BufferManager.constant(),
            block_ecn: ConfigBlock::EcnMarker.constant(),
            kind_arrive: kind2(EventKind::Arrive),
            kind_depart: kind2(EventKind::Depart),
            kind_tx_start: kind2(EventKind::TxStart),
            kind_pfc_rx: kind2(EventKind::PfcRx),
            drop_headroom_full: code3(DropCode::HeadroomFull),
            drop_pool_full: code3(DropCode::PoolFull),
        })
    }

    /// How many flow tables the flowlet table holds.
    pub const fn tables() -> usize {
        FlowletTable::<P, S, T, E>::tables()
    }
}

impl<const A: usize, const P: usize, const S: usize, const T: usize, const E: usize> Logic for SwitchDatapath<A, P, S, T, E> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, kind_held, now_held, port_held, dscp_held, ect_held, bytes_held,
            set_held, tag_egress_held, tag_pool_held, tag_lossless_held, classes_held, quanta_held,
            flow_hash_held, class_tc_held, member_held, egress_held, has_slot_held, slot_held, select_now_held, has_egress_held, resume_late, until_late,
            expiry_answer_due, result_ready, kind_result, admitted_held, drop_held, headroom_held, tc_held, pool_held, lossless_held, charged_held,
            pause_held, trimmed_held, trimmed_dscp_held, marked_held, resume_held, until_held);
        // Clocks and resets.
        self.sequencer.clock.next = self.clock.val();
        self.port_refresh.clock.next = self.clock.val();
        self.hash.clock.next = self.clock.val();
        self.flowlet.clock.next = self.clock.val();
        self.buffer.clock.next = self.clock.val();
        self.ecn.clock.next = self.clock.val();
        self.set_registers.clock.next = self.clock.val();
        self.set_size_ram.read_clock.next = self.clock.val();
        self.set_size_ram.write_clock.next = self.clock.val();
        self.sequencer.reset.next = self.reset.val();
        self.port_refresh.reset.next = self.reset.val();
        self.hash.reset.next = self.reset.val();
        self.flowlet.reset.next = self.reset.val();
        self.buffer.reset.next = self.reset.val();
        self.ecn.reset.next = self.reset.val();
        // Configuration: one block's register map per write.
        self.hash.cfg_write.next = self.cfg_write.val() & (self.cfg_block.val() == self.block_hash.val());
        self.flowlet.cfg_write.next = self.cfg_write.val() & (self.cfg_block.val() == self.block_flowlet.val());
        self.set_registers.cfg_write.next = self.cfg_write.val() & (self.cfg_block.val() == self.block_flowlet.val());
        self.buffer.cfg_write.next = self.cfg_write.val() & (self.cfg_block.val() == self.block_buffer.val());
        self.ecn.cfg_write.next = self.cfg_write.val() & (self.cfg_block.val() == self.block_ecn.val());
        self.hash.cfg_address.next = self.cfg_address.val();
        self.flowlet.cfg_address.next = self.cfg_address.val();
        self.set_registers.cfg_address.next = self.cfg_address.val();
        self.buffer.cfg_address.next = self.cfg_address.val();
        self.ecn.cfg_address.next = self.cfg_address.val();
        self.hash.cfg_data.next = self.cfg_data.val();
        self.flowlet.cfg_data.next = self.cfg_data.val();
        self.set_registers.cfg_data.next = self.cfg_data.val();
        self.buffer.cfg_data.next = self.cfg_data.val();
        self.ecn.cfg_data.next = self.cfg_data.val();
        // The set sizes, for the hash (read in the cycle the event is taken).
        self.set_size_ram.write_enable.next = self.set_registers.size_write.val();
        self.set_size_ram.write_address.next = self.set_registers.set_select.val();
        self.set_size_ram.write_data.next = self.set_registers.set_size.val();
        self.set_size_ram.read_address.next = self.ev_set.val();
        // The sequencer: handshake and the blocks' answers.
        self.sequencer.ev_valid.next = self.ev_valid.val();
        self.sequencer.ev_kind.next = self.ev_kind.val();
        self.ev_ready.next = self.sequencer.ev_ready.val();
        self.sequencer.flowlet_ready.next = self.flowlet.ready.val();
        self.sequencer.hash_answered.next = self.hash.early_valid.val();
        self.sequencer.probe_answered.next = self.buffer.result_valid.val();
        self.sequencer.tail_has_egress.next = self.has_egress_held.q.val();
        self.sequencer.tx_same_port.next = self.tag_egress_port.val() == self.egress_held.q.val();
        self.sequencer.ingress_refused.next =
            (self.buffer.drop_reason.val() == self.drop_headroom_full.val()) | (self.buffer.drop_reason.val() == self.drop_pool_full.val());
        self.sequencer.select_answered.next = self.flowlet.result_valid.val();
        self.sequencer.dirty_count.next = self.port_refresh.dirty_count.val();
        self.sequencer.dirty_head.next = self.port_refresh.dirty_head.val();
        self.sequencer.full_walk_due.next = self.port_refresh.full_walk_due.val();
        // The streamed events' ports to refresh and times, beside the
        // sequencer's pipe; the buffer manager's answers held a cycle.
        for k in 0..6 {
            self.stream_port[k].clock.next = self.clock.val();
            self.stream_now[k].clock.next = self.clock.val();
        }
        for k in 1..6 {
            self.stream_port[k].d.next = self.stream_port[k - 1].q.val();
            self.stream_now[k].d.next = self.stream_now[k - 1].q.val();
        }
        if self.ev_kind.val() == self.kind_depart.val() {
            self.stream_port[0].d.next = self.tag_egress_port.val();
        } else {
            self.stream_port[0].d.next = self.ev_port.val();
        }
        self.stream_now[0].d.next = self.now_ns.val();
        self.resume_late.d.next = self.buffer.resume_request.val();
        self.until_late.d.next = self.buffer.paused_until_ns.val();
        // The ports to refresh: marked when an event changes them, with its
        // command (an arrival's egress port, whatever the buffer manager
        // answers; a release's port; a received PFC frame's). A query comes
        // after the command, so it sees it. A streamed command never meets
        // an arrival's: the arrival's comes after the walk, which starts
        // after the streamed events taken before it were commanded, and the
        // events taken in its tail are commanded after it.
        self.stream_mark.next = ((self.sequencer.issue_release.val() | self.sequencer.issue_pfc.val()) & self.stream_mark_with_command.val())
            | (self.sequencer.streamed_finish.val()
                & (self.sequencer.streamed_kind.val() != self.kind_tx_start.val())
                & !self.stream_mark_with_command.val());
        self.port_refresh.mark_valid.next = (self.sequencer.issue_arrival.val() & !self.sequencer.refused.val() & self.mark_with_command.val())
            | (self.sequencer.finish.val() & self.has_egress_held.q.val() & !self.mark_with_command.val())
            | self.stream_mark.val();
        if self.stream_mark.val() & self.stream_mark_with_command.val() {
            self.port_refresh.mark_port.next = self.stream_port[0].q.val();
        } else if self.stream_mark.val() {
            self.port_refresh.mark_port.next = self.stream_port[5].q.val();
        } else if self.mark_with_command.val() {
            self.port_refresh.mark_port.next = self.flowlet.egress_port.val();
        } else {
            self.port_refresh.mark_port.next = self.egress_held.q.val();
        }
        self.port_refresh.pause_valid.next =
            self.sequencer.streamed_finish.val() & (self.sequencer.streamed_kind.val() == self.kind_pfc_rx.val());
        self.port_refresh.pause_until_ns.next = self.until_late.q.val();
        self.port_refresh.pause_now_ns.next = self.stream_now[5].q.val();
        self.port_refresh.now_ns.next = self.now_held.q.val();
        self.port_refresh.pop.next = self.sequencer.pop.val();
        self.port_refresh.start_full.next = self.sequencer.start_full.val();
        // The buffer manager answers a query's earliest pause end a cycle
        // after its occupancy and paused classes.
        self.expiry_answer_due.d.next = self.sequencer.port_write.val();
        self.port_refresh.answer_valid.next = self.expiry_answer_due.q.val();
        self.port_refresh.answer_expiry_ns.next = self.buffer.query_expiry_ns.val();
        // The event taken.
        if self.sequencer.accept.val() {
            self.kind_held.d.next = self.ev_kind.val();
            self.now_held.d.next = self.now_ns.val();
            self.port_held.d.next = self.ev_port.val();
            self.dscp_held.d.next = self.ev_dscp.val();
            self.ect_held.d.next = self.ev_ect.val();
            self.bytes_held.d.next = self.ev_bytes.val();
            self.set_held.d.next = self.ev_set.val();
            self.tag_egress_held.d.next = self.tag_egress_port.val();
            self.tag_pool_held.d.next = self.tag_pool.val();
            self.tag_lossless_held.d.next = self.tag_lossless.val();
            self.classes_held.d.next = self.ev_classes.val();
            self.quanta_held.d.next = self.ev_quanta.val();
        }
        // ECMP hash: the key in the cycle the arrival is taken, the set's
        // size (for dprWithFallback) a cycle later from its RAM (the block
        // is built to take it so). Only its early flow hash is used: the
        // flowlet table picks the member.
        self.hash.key_valid.next = self.sequencer.issue_hash.val();
        self.hash.key_proto.next = self.ev_proto.val();
        self.hash.key_src.next = self.ev_src.val();
        self.hash.key_dst.next = self.ev_dst.val();
        self.hash.key_sport.next = self.ev_sport.val();
        self.hash.key_dport.next = self.ev_dport.val();
        self.hash.set_size.next = self.set_size_ram.read_data.val();
        if self.hash.early_valid.val() {
            self.flow_hash_held.d.next = self.hash.early_flow_hash.val();
        }
        // Buffer manager: the probe, the arrival, release and PFC frames,
        // and the refresh's queries.
        self.buffer.ev_arrival.next = self.sequencer.issue_probe.val() | self.sequencer.issue_arrival.val();
        self.buffer.ev_probe.next = self.sequencer.issue_probe.val();
        self.buffer.ev_release.next = self.sequencer.issue_release.val();
        self.buffer.ev_pfc.next = self.sequencer.issue_pfc.val();
        self.buffer.ev_ingress_port.next = self.port_held.q.val();
        // The arrival goes in the cycle the flowlet table answers (one
        // assignment per branch, as for the select's flow hash below).
        if self.kind_held.q.val() == self.kind_depart.val() {
            self.buffer.ev_egress_port.next = self.tag_egress_held.q.val();
        } else if self.sequencer.issue_arrival.val() & !self.sequencer.refused.val() {
            self.buffer.ev_egress_port.next = self.flowlet.egress_port.val();
        } else {
            self.buffer.ev_egress_port.next = 0.into();
        }
        self.buffer.ev_dscp.next = self.dscp_held.q.val();
        self.buffer.ev_bytes.next = self.bytes_held.q.val();
        self.buffer.ev_pool.next = self.tag_pool_held.q.val();
        self.buffer.ev_lossless.next = self.tag_lossless_held.q.val();
        self.buffer.ev_classes.next = self.classes_held.q.val();
        self.buffer.ev_quanta.next = self.quanta_held.q.val();
        self.buffer.now_ns.next = self.now_held.q.val();
        self.buffer.query_port.next = self.sequencer.query_port.val();
        if self.sequencer.latch_probe.val() {
            self.class_tc_held.d.next = self.buffer.result_tc.val();
        }
        // Flowlet table: port state from the queries, then the select.
        self.flowlet.occupancy_write.next = self.sequencer.port_write.val();
        self.flowlet.occupancy_port.next = self.sequencer.port_written.val();
        self.flowlet.occupancy_bytes.next = self.buffer.query_egress_bytes.val();
        self.flowlet.pause_write.next = self.sequencer.port_write.val();
        self.flowlet.pause_port.next = self.sequencer.port_written.val();
        self.flowlet.paused_classes.next = self.buffer.query_paused.val();
        self.flowlet.select_valid.next = self.sequencer.issue_select.val();
        self.flowlet.select_set.next = self.set_held.q.val();
        // The select may go in the cycle the hash answers. Written as one
        // assignment per branch: a default overwritten in the same
        // combinational block changes the signal twice per evaluation, and
        // Icarus then wakes the flowlet table's block, whose outputs wake
        // this one again, without end (the Verilog replay hung so).
        if self.hash.early_valid.val() {
            self.flowlet.flow_hash.next = self.hash.early_flow_hash.val();
        } else {
            self.flowlet.flow_hash.next = self.flow_hash_held.q.val();
        }
        self.flowlet.tc.next = self.class_tc_held.q.val();
        self.flowlet.now_ns.next = bit_cast::<50, 32>(self.now_held.q.val());
        if self.sequencer.latch_select.val() {
            self.member_held.d.next = self.flowlet.member.val();
            self.egress_held.d.next = self.flowlet.egress_port.val();
            self.has_slot_held.d.next = self.flowlet.has_slot.val();
            self.slot_held.d.next = self.flowlet.slot.val();
            self.select_now_held.d.next = self.now_held.q.val();
        }
        if self.sequencer.issue_arrival.val() {
            self.has_egress_held.d.next = !self.sequencer.refused.val();
        }
        // An admitted arrival: the slot, and the queue's average (with the
        // arrival's own egress port and pool, whatever was taken since).
        self.flowlet.commit_valid.next = self.sequencer.finish.val() & self.buffer.admitted.val() & self.has_slot_held.q.val();
        self.flowlet.commit_slot.next = self.slot_held.q.val();
        self.flowlet.commit_member.next = self.member_held.q.val();
        self.flowlet.commit_ns.next = bit_cast::<50, 32>(self.select_now_held.q.val());
        self.ecn.op_update.next = self.sequencer.finish.val() & self.buffer.admitted.val();
        self.ecn.op_decide.next = self.sequencer.issue_decide.val();
        if self.sequencer.finish.val() {
            self.ecn.queue_port.next = self.egress_held.q.val();
            self.ecn.queue_pool.next = self.buffer.result_pool.val();
        } else {
            self.ecn.queue_port.next = self.tag_egress_held.q.val();
            self.ecn.queue_pool.next = self.tag_pool_held.q.val();
        }
        self.ecn.queue_bytes.next = self.buffer.queue_bytes.val();
        self.ecn.ect.next = self.ect_held.q.val();
        // The result, registered when an event finishes: an arrival's from
        // the buffer manager's answer, a streamed event's from the ECN
        // marker's and the buffer manager's held one (never both in one
        // cycle: an arrival starts once the streamed events are out).
        self.result_ready.d.next = self.sequencer.finish.val() | self.sequencer.streamed_finish.val();
        if self.sequencer.finish.val() {
            self.kind_result.d.next = self.kind_arrive.val();
            self.admitted_held.d.next = self.buffer.admitted.val();
            self.drop_held.d.next = self.buffer.drop_reason.val();
            self.headroom_held.d.next = self.buffer.to_headroom.val();
            self.tc_held.d.next = self.buffer.result_tc.val();
            self.pool_held.d.next = self.buffer.result_pool.val();
            self.lossless_held.d.next = self.buffer.result_lossless.val();
            self.charged_held.d.next = self.buffer.charged_bytes.val();
            self.pause_held.d.next = self.buffer.pause_request.val();
            self.trimmed_held.d.next = self.buffer.trimmed.val();
            self.trimmed_dscp_held.d.next = self.buffer.trimmed_dscp.val();
        }
        if self.sequencer.streamed_finish.val() {
            self.kind_result.d.next = self.sequencer.streamed_kind.val();
            self.marked_held.d.next = self.ecn.marked.val();
            self.resume_held.d.next = self.resume_late.q.val();
            self.until_held.d.next = self.until_late.q.val();
        }
        self.result_valid.next = self.result_ready.q.val();
        self.result_kind.next = self.kind_result.q.val();
        self.admitted.next = self.admitted_held.q.val();
        self.drop_reason.next = self.drop_held.q.val();
        self.to_headroom.next = self.headroom_held.q.val();
        self.tc.next = self.tc_held.q.val();
        self.pool.next = self.pool_held.q.val();
        self.lossless.next = self.lossless_held.q.val();
        self.charged_bytes.next = self.charged_held.q.val();
        self.has_egress.next = self.has_egress_held.q.val();
        self.egress_port.next = self.egress_held.q.val();
        self.flow_hash.next = self.flow_hash_held.q.val();
        self.pause_sent.next = self.pause_held.q.val();
        self.trimmed.next = self.trimmed_held.q.val();
        self.trimmed_dscp.next = self.trimmed_dscp_held.q.val();
        self.ecn_marked.next = self.marked_held.q.val();
        self.resume_sent.next = self.resume_held.q.val();
        self.paused_until_ns.next = self.until_held.q.val();
        // Pause re-sends, as the buffer manager's sweep finds them.
        self.resend_valid.next = self.buffer.resend_valid.val();
        self.resend_port.next = self.buffer.resend_port.val();
        self.resend_pool.next = self.buffer.resend_pool.val();
        self.resend_classes.next = self.buffer.resend_classes.val();
        self.resend_due_ns.next = self.buffer.resend_due_ns.val();
    }
}
