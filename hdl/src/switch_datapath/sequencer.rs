//! The switch datapath's sequencer: takes the events and steps each
//! through the blocks in the reference's order, one command per cycle.
//! `tx_start`, `depart` and `pfc_rx` stream, one per clock; an arrival
//! takes the datapath alone until its command goes to the buffer manager,
//! and the next event is taken in its tail.
//!
//! Parameters: `P`, port bits (the port-state refresh walks 2^P ports).
//!
//! Ports (all on `clock`):
//! * control: `reset` (back to idle; the blocks drop what is in flight)
//! * event handshake: `ev_valid`, `ev_kind` ([`EventKind`]), `ev_ready`
//!   (out: no arrival before its command, no `tx_start` held, and the
//!   flowlet table's sweep is over), `flowlet_ready`
//! * answers of the blocks: `hash_answered`, `probe_answered` with
//!   `ingress_refused` (the probe's drop is an ingress drop; the probe's
//!   answer is the one B cycles after it, `probe_answered` serves only a
//!   fault-injection build), `select_answered`
//! * the arrival in its tail: `tail_has_egress` (it passed the ingress, so
//!   it updates a queue's average), `tx_same_port` (the event's
//!   `tag_egress_port` is that arrival's egress port)
//! * ports to refresh ([`super::port_refresh`]): `dirty_count`,
//!   `dirty_head`, `full_walk_due`
//! * commands, each a one-cycle strobe: `accept` (latch the event),
//!   `issue_hash` (an arrival's flow key to the hash, in the cycle it is
//!   taken), `issue_probe` (the ingress probe to the buffer manager), `latch_probe`, `query_valid` with `query_port` (8 bits),
//!   `pop` (the ring's head is queried), `start_full` (a walk over every
//!   port begins), `port_write` with `port_written` (8 bits: the buffer
//!   manager's answer for that port goes into the flowlet table's port
//!   state, B cycles after its query),
//!   `issue_select`, `latch_select`, `issue_arrival` (with `refused`: the
//!   ingress refused it, so no egress port was chosen), `issue_decide`,
//!   `issue_release`, `issue_pfc`, `finish` (an arrival's answer is on
//!   the blocks' outputs this cycle), `streamed_finish` with
//!   `streamed_kind` (a streamed event's answer: the ECN marker's on its
//!   outputs, the buffer manager's a cycle old)
//!
//! Streamed events (`tx_start`, `depart`, `pfc_rx`), in cycles after
//! `accept`: the command in cycle 1 (`issue_decide`, `issue_release`,
//! `issue_pfc`), the answer in cycle 1 + [`STREAM_STAGES`] - 1 = 6, when
//! the ECN marker (latency 5) answers; the buffer manager answers a cycle
//! earlier (latency 4) and the datapath holds that answer a cycle, so
//! that every streamed event answers 6 cycles after it is taken and the
//! answers leave in the order the events came. The sequencer stays idle:
//! the next event can be taken in the next cycle. Each block takes one
//! event per clock back to back, and the three kinds touch no state an
//! earlier streamed event has yet to write that the blocks do not forward
//! themselves (the ECN marker's averages, the buffer manager's counters
//! and pause deadlines).
//!
//! An arrival, in cycles after `accept` (B = buffer-manager latency 4,
//! H = the hash's early latency 6, F = the flowlet table's latency in the
//! datapath's shallow build 17, W the cycle of the refresh's last query, 0
//! without one), once no received PFC frame is in flight (`drained`; up to
//! 5 cycles after `accept`, see [`super::arrival_start_delay`]):
//!
//! ```text
//!  accept: the key to the hash (its answer at H, latched whenever it
//!         comes: `hash_done`)
//!  Start: the probe (its answer at 1 + B, by `probe_pipe`), and the
//!         ring's first port queried
//!    ─► WalkDirty: query each port of the ring, then decide
//!    ─► WalkAll when a full walk is due: query port 0 .. 2^P - 1
//!    ─► Wait: until the last answer is written (B + 1 after its query),
//!       the hash is in (its own cycle will do) and the probe is latched
//!    ─► refused: arrival ─► Idle, tail ─► finish       max(H, W + B + 1) + B + 1
//!    ─► passed:  select ─► WaitSelect (F) ─► arrival, with the flowlet
//!       table's egress port as it answers ─► Idle, tail ─► finish
//!                                                      max(H, W + B + 1) + F + B + 1
//! ```
//!
//! The tail: the arrival's command goes to the buffer manager, which
//! answers B cycles later (`finish`, carried by `tail_valid`, the arrival's
//! result the cycle after); the sequencer is idle from the cycle after the
//! command and takes the next event. Three things make that exact:
//! * the arrival marks its egress port for the refresh with its command
//!   (the datapath does), so an arrival taken in the tail queries it, after
//!   the command: the buffer manager answers a query with every event of
//!   earlier cycles;
//! * an ingress probe's answer is the buffer manager's answer B cycles
//!   after the probe, never the arrival's in its `finish` cycle;
//! * a `tx_start` taken while the arrival's update of the queue's average
//!   is still to come (`update_ahead`), for the arrival's egress port,
//!   waits in `HoldTxStart` and goes the cycle after `finish`, so the ECN
//!   marker decides on the updated average (a build without the hold,
//!   [`Sequencer::without_tx_start_hold`], fails the co-simulation). So
//!   does any `tx_start` taken in the tail's third cycle, whose command
//!   would come in the `finish` cycle, when the ECN marker's queue inputs
//!   are the arrival's. Any other `tx_start` goes at once: its queue is on
//!   another port, which the update does not touch (an arrival the
//!   ingress refused updates none), and the marker's draws follow the
//!   decisions alone. `depart` and
//!   `pfc_rx` go at once: they reach the buffer manager after the
//!   arrival's command, and the ECN marker not at all.
//!
//! The hash needs nothing but the key, so it goes in the cycle the
//! arrival is taken (the set's size, which `dprWithFallback` needs, comes
//! a cycle later from its RAM: the ECMP block is built to take it so).
//! The refresh needs neither the hash nor the ingress's answer, so it
//! starts with the probe. A refused arrival waits for it too:
//! its copies are as exact as any (they are the buffer manager's state
//! after every earlier event), and the next arrival refreshes only what
//! changed after them. The datapath takes the hash's early answer (the
//! flow hash, before the ECMP block's own member, which nothing here
//! needs). With one changed port (most arrivals: the one the last arrival
//! went to) the hash and the refresh are in together, 6 cycles after the
//! arrival is taken: an arrival that passes the ingress takes 28 cycles,
//! and 27 + d with d changed ports; a refused one 11, or 10 + d.
//!
//! An arrival follows streamed events at once. A release or a received
//! PFC frame marks its port for the refresh with its command (the
//! datapath does), so the walk, which starts after that command, queries
//! it; the probe's answer is picked by its cycle (`probe_pipe`), not as
//! the first answer after it, which may be a release's (a build that takes
//! that one, [`Sequencer::without_probe_pipe`], fails the co-simulation).
//! One wait is left: behind a received PFC frame the arrival starts once
//! the frame has answered (up to 5 cycles), because the pause's end
//! reaches the port refresh with the answer, and whether the walk covers
//! every port depends on it. PFC frames are rare (56 of the default
//! scenario's 1.17 M events). A build that starts at once
//! ([`Sequencer::without_drain`]) fails an arrival right behind a pause
//! that has already ended.
//!
//! Why arrivals overlap no more than the tail: the reference selects each
//! packet's member with the egress occupancy after every earlier packet's
//! admission, and with its pause state at the packet's own time. The
//! refresh copies both from the buffer manager for every port that may
//! have changed, after the command of the arrival before, so the flowlet
//! table's view is exact; a select before that command would miss its
//! admission.

use rust_hdl::prelude::*;

/// Event kinds on `ev_kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    Arrive = 0,
    TxStart = 1,
    Depart = 2,
    PfcRx = 3,
}

impl EventKind {
    pub fn code(self) -> u64 {
        self as u64
    }

    fn constant(self) -> Constant<Bits<2>> {
        Constant::new(Bits::<2>::from(self as u8 as LiteralType))
    }
}

/// Buffer-manager latency the refresh waits for (its query answers then).
const BUFFER_LATENCY: usize = 4;
const _: () = assert!(BUFFER_LATENCY == crate::buffer_manager::LATENCY);

/// Cycles a streamed event spends in the sequencer's pipe: from its
/// command (the cycle after it is taken) to its answer, the ECN marker's
/// latency later. The buffer manager answers a cycle sooner; the datapath
/// holds its answer one cycle to line the two up.
pub const STREAM_STAGES: usize = 1 + crate::ecn_marker::LATENCY;
// The kernel writes the pipe's length and last stage as literals.
const _: () = assert!(STREAM_STAGES == 6);
const _: () = assert!(crate::ecn_marker::LATENCY == crate::buffer_manager::LATENCY + 1);

/// Cycles from an arrival's command to the buffer manager's answer (its
/// result the cycle after): the arrival's tail, which overlaps the next
/// event. The kernel writes the pipe's length and last stage as literals.
pub const ARRIVAL_TAIL: usize = BUFFER_LATENCY;
const _: () = assert!(ARRIVAL_TAIL == 4);

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum SequencerState {
    Idle,
    Start,
    WalkDirty,
    WalkAll,
    Wait,
    WaitSelect,
    /// A `tx_start` taken in an arrival's tail waits for its average update.
    HoldTxStart,
}

#[derive(LogicBlock)]
pub struct Sequencer<const P: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // event handshake
    pub ev_valid: Signal<In, Bit>,
    pub ev_kind: Signal<In, Bits<2>>,
    pub ev_ready: Signal<Out, Bit>,
    pub flowlet_ready: Signal<In, Bit>,
    // answers of the blocks
    pub hash_answered: Signal<In, Bit>,
    pub probe_answered: Signal<In, Bit>,
    pub tail_has_egress: Signal<In, Bit>,
    pub tx_same_port: Signal<In, Bit>,
    pub ingress_refused: Signal<In, Bit>,
    pub select_answered: Signal<In, Bit>,
    // ports to refresh
    pub dirty_count: Signal<In, Bits<5>>,
    pub dirty_head: Signal<In, Bits<8>>,
    pub full_walk_due: Signal<In, Bit>,
    // commands
    pub accept: Signal<Out, Bit>,
    pub issue_hash: Signal<Out, Bit>,
    pub issue_probe: Signal<Out, Bit>,
    pub latch_probe: Signal<Out, Bit>,
    pub query_valid: Signal<Out, Bit>,
    pub query_port: Signal<Out, Bits<8>>,
    pub pop: Signal<Out, Bit>,
    pub start_full: Signal<Out, Bit>,
    pub port_write: Signal<Out, Bit>,
    pub port_written: Signal<Out, Bits<8>>,
    pub issue_select: Signal<Out, Bit>,
    pub latch_select: Signal<Out, Bit>,
    pub issue_arrival: Signal<Out, Bit>,
    pub refused: Signal<Out, Bit>,
    pub issue_decide: Signal<Out, Bit>,
    pub issue_release: Signal<Out, Bit>,
    pub issue_pfc: Signal<Out, Bit>,
    pub finish: Signal<Out, Bit>,
    pub streamed_finish: Signal<Out, Bit>,
    pub streamed_kind: Signal<Out, Bits<2>>,
    // state
    state: DFF<SequencerState>,
    /// WalkAll: the port queried.
    walk_step: DFF<Bits<8>>,
    /// The ports queried, B cycles deep: their answers come out together.
    query_pipe_valid: [DFF<Bit>; BUFFER_LATENCY],
    query_pipe_port: [DFF<Bits<8>>; BUFFER_LATENCY],
    refused_flag: DFF<Bit>,
    /// The hash has answered (it may answer while the refresh walks).
    hash_done: DFF<Bit>,
    /// The ingress probe is issued and has not answered yet.
    probe_pending: DFF<Bit>,
    /// The probe, by cycles since it was issued: stage 3 is the cycle
    /// the buffer manager answers it.
    probe_pipe: [DFF<Bit>; BUFFER_LATENCY],
    /// The buffer manager answers the probe this cycle.
    probe_due: Signal<Local, Bit>,
    /// No refresh query is in flight: every answer asked for is written.
    refresh_written: Signal<Local, Bit>,
    /// The streamed events in flight, by cycles since their command:
    /// stage 0 is the command's cycle, stage 5 the answer's.
    stream_valid: [DFF<Bit>; STREAM_STAGES],
    stream_kind: [DFF<Bits<2>>; STREAM_STAGES],
    /// A received PFC frame is in the streamed events' pipe.
    pfc_in_flight: Signal<Local, Bit>,
    /// No received PFC frame is in flight: its pause's end has reached the
    /// port refresh.
    drained: Signal<Local, Bit>,
    /// The arrival in its tail, by cycles since its command: stage 0 the
    /// cycle after it, stage 3 the buffer manager's answer (`finish`).
    tail_valid: [DFF<Bit>; ARRIVAL_TAIL],
    /// The ECN marker's average update is still to come: a `tx_start`'s
    /// decision must wait for it.
    update_ahead: Signal<Local, Bit>,
    /// A `tx_start` taken now must wait for that update: its queue may be
    /// the arrival's (same egress port), or its command would come with the
    /// arrival's answer (the ECN marker's queue inputs are the arrival's in
    /// that cycle).
    tx_start_waits: Signal<Local, Bit>,
    /// Clear: a `tx_start` taken in an arrival's tail is decided at once
    /// (a fault-injection build).
    hold_enabled: Constant<Bit>,
    /// Clear: an arrival starts without waiting for a received PFC frame
    /// in flight (a fault-injection build).
    drain_enabled: Constant<Bit>,
    /// Clear: the probe's answer is the buffer manager's first answer
    /// after it, not the one of its own cycle (a fault-injection build).
    probe_by_pipe: Constant<Bit>,
    last_port: Constant<Bits<8>>,
    /// Clear: the answers are never written (a fault-injection build).
    refresh_enabled: Constant<Bit>,
    kind_arrive: Constant<Bits<2>>,
    kind_tx_start: Constant<Bits<2>>,
    kind_depart: Constant<Bits<2>>,
    kind_pfc_rx: Constant<Bits<2>>,
}

impl<const P: usize> Default for Sequencer<P> {
    fn default() -> Self {
        assert!((1..=8).contains(&P), "the sequencer walks 2^P ports, P = {P} is outside 1..8");
        let ports = 1u64 << P;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ev_valid: Default::default(),
            ev_kind: Default::default(),
            ev_ready: Default::default(),
            flowlet_ready: Default::default(),
            hash_answered: Default::default(),
            probe_answered: Default::default(),
            tail_has_egress: Default::default(),
            tx_same_port: Default::default(),
            ingress_refused: Default::default(),
            select_answered: Default::default(),
            dirty_count: Default::default(),
            dirty_head: Default::default(),
            full_walk_due: Default::default(),
            accept: Default::default(),
            issue_hash: Default::default(),
            issue_probe: Default::default(),
            latch_probe: Default::default(),
            query_valid: Default::default(),
            query_port: Default::default(),
            pop: Default::default(),
            start_full: Default::default(),
            port_write: Default::default(),
            port_written: Default::default(),
            issue_select: Default::default(),
            latch_select: Default::default(),
            issue_arrival: Default::default(),
            refused: Default::default(),
            issue_decide: Default::default(),
            issue_release: Default::default(),
            issue_pfc: Default::default(),
            finish: Default::default(),
            streamed_finish: Default::default(),
            streamed_kind: Default::default(),
            state: Default::default(),
            walk_step: Default::default(),
            query_pipe_valid: Default::default(),
            query_pipe_port: Default::default(),
            refused_flag: Default::default(),
            hash_done: Default::default(),
            probe_pending: Default::default(),
            probe_pipe: Default::default(),
            probe_due: Default::default(),
            refresh_written: Default::default(),
            stream_valid: Default::default(),
            stream_kind: Default::default(),
            pfc_in_flight: Default::default(),
            drained: Default::default(),
            tail_valid: Default::default(),
            update_ahead: Default::default(),
            tx_start_waits: Default::default(),
            hold_enabled: Constant::new(true),
            drain_enabled: Constant::new(true),
            probe_by_pipe: Constant::new(true),
            last_port: Constant::new(Bits::<8>::from((ports - 1) as LiteralType)),
            refresh_enabled: Constant::new(true),
            kind_arrive: EventKind::Arrive.constant(),
            kind_tx_start: EventKind::TxStart.constant(),
            kind_depart: EventKind::Depart.constant(),
            kind_pfc_rx: EventKind::PfcRx.constant(),
        }
    }
}

impl<const P: usize> Sequencer<P> {
    /// Wrong on purpose, for the fault-injection test: the refresh's
    /// answers are never written, so the flowlet table's port state stays
    /// as it powered up.
    pub fn without_refresh() -> Self {
        let mut sequencer = Self::default();
        sequencer.refresh_enabled = Constant::new(false);
        sequencer
    }

    /// Wrong on purpose, for the fault-injection test: an arrival starts
    /// while a received PFC frame is still in flight, so its refresh
    /// decides on a full walk without that pause's end.
    pub fn without_drain() -> Self {
        let mut sequencer = Self::default();
        sequencer.drain_enabled = Constant::new(false);
        sequencer
    }

    /// Wrong on purpose, for the fault-injection test: the probe's answer
    /// is taken as the buffer manager's first answer after the probe, which
    /// is a streamed event's when one is in flight.
    pub fn without_probe_pipe() -> Self {
        let mut sequencer = Self::default();
        sequencer.probe_by_pipe = Constant::new(false);
        sequencer
    }

    /// Wrong on purpose, for the fault-injection test: a `tx_start` taken
    /// in an arrival's tail is decided at once, before the arrival's
    /// admission reaches the queue's average.
    pub fn without_tx_start_hold() -> Self {
        let mut sequencer = Self::default();
        sequencer.hold_enabled = Constant::new(false);
        sequencer
    }
}

impl<const P: usize> Logic for Sequencer<P> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, walk_step, refused_flag, hash_done, probe_pending);
        for k in 0..4 {
            self.query_pipe_valid[k].clock.next = self.clock.val();
            self.query_pipe_port[k].clock.next = self.clock.val();
        }
        for k in 1..4 {
            self.query_pipe_valid[k].d.next = self.query_pipe_valid[k - 1].q.val();
            self.query_pipe_port[k].d.next = self.query_pipe_port[k - 1].q.val();
        }
        self.refresh_written.next = !(self.query_pipe_valid[0].q.val() | self.query_pipe_valid[1].q.val()
            | self.query_pipe_valid[2].q.val() | self.query_pipe_valid[3].q.val());
        // The streamed events' pipe: a command in stage 0, the answer in 5.
        for k in 0..6 {
            self.stream_valid[k].clock.next = self.clock.val();
            self.stream_kind[k].clock.next = self.clock.val();
        }
        for k in 1..6 {
            self.stream_valid[k].d.next = self.stream_valid[k - 1].q.val();
            self.stream_kind[k].d.next = self.stream_kind[k - 1].q.val();
        }
        self.stream_valid[0].d.next = false;
        self.stream_kind[0].d.next = self.ev_kind.val();
        self.pfc_in_flight.next = false;
        for k in 0..6 {
            if self.stream_valid[k].q.val() & (self.stream_kind[k].q.val() == self.kind_pfc_rx.val()) {
                self.pfc_in_flight.next = true;
            }
        }
        self.drained.next = !self.pfc_in_flight.val() | !self.drain_enabled.val();
        // The probe's pipe: stage 0 the cycle after the probe, stage 3 its
        // answer.
        for k in 0..4 {
            self.probe_pipe[k].clock.next = self.clock.val();
        }
        for k in 1..4 {
            self.probe_pipe[k].d.next = self.probe_pipe[k - 1].q.val();
        }
        // The arrival's tail: its command in flight to the buffer manager.
        for k in 0..4 {
            self.tail_valid[k].clock.next = self.clock.val();
        }
        for k in 1..4 {
            self.tail_valid[k].d.next = self.tail_valid[k - 1].q.val();
        }
        self.update_ahead.next = (self.tail_valid[0].q.val() | self.tail_valid[1].q.val() | self.tail_valid[2].q.val())
            & self.hold_enabled.val();
        self.tx_start_waits.next = self.update_ahead.val() & ((self.tail_has_egress.val() & self.tx_same_port.val()) | self.tail_valid[2].q.val());
        self.finish.next = self.tail_valid[3].q.val();
        self.issue_decide.next = self.stream_valid[0].q.val() & (self.stream_kind[0].q.val() == self.kind_tx_start.val());
        self.issue_release.next = self.stream_valid[0].q.val() & (self.stream_kind[0].q.val() == self.kind_depart.val());
        self.issue_pfc.next = self.stream_valid[0].q.val() & (self.stream_kind[0].q.val() == self.kind_pfc_rx.val());
        self.streamed_finish.next = self.stream_valid[5].q.val();
        self.streamed_kind.next = self.stream_kind[5].q.val();
        self.ev_ready.next = (self.state.q.val() == SequencerState::Idle) & self.flowlet_ready.val() & !self.reset.val();
        self.accept.next = false;
        self.issue_hash.next = false;
        self.issue_probe.next = false;
        self.latch_probe.next = false;
        self.query_valid.next = false;
        self.query_port.next = self.walk_step.q.val();
        self.pop.next = false;
        self.start_full.next = false;
        self.port_write.next = self.query_pipe_valid[3].q.val() & self.refresh_enabled.val();
        self.port_written.next = self.query_pipe_port[3].q.val();
        self.issue_select.next = false;
        self.latch_select.next = false;
        self.issue_arrival.next = false;
        self.refused.next = self.refused_flag.q.val();
        match self.state.q.val() {
            SequencerState::Idle => {
                if self.ev_valid.val() & self.ev_ready.val() {
                    self.accept.next = true;
                    if self.ev_kind.val() == self.kind_arrive.val() {
                        // The hash needs nothing but the key: it goes now.
                        self.issue_hash.next = true;
                        self.hash_done.d.next = false;
                        self.state.d.next = SequencerState::Start;
                    } else if (self.ev_kind.val() == self.kind_tx_start.val()) & self.tx_start_waits.val() {
                        self.state.d.next = SequencerState::HoldTxStart;
                    } else {
                        self.stream_valid[0].d.next = true;
                    }
                }
            }
            SequencerState::Start => {
                // The refresh needs neither the hash nor the ingress's
                // answer: it walks while both are worked out.
                if self.drained.val() {
                    self.issue_probe.next = true;
                    self.refused_flag.d.next = false;
                    self.probe_pending.d.next = true;
                    self.walk_step.d.next = 0.into();
                    self.state.d.next = SequencerState::WalkDirty;
                }
            }
            SequencerState::WalkDirty => {}
            SequencerState::WalkAll => {
                self.query_valid.next = true;
                self.walk_step.d.next = self.walk_step.q.val() + 1;
                if self.walk_step.q.val() == self.last_port.val() {
                    self.state.d.next = SequencerState::Wait;
                }
            }
            SequencerState::Wait => {
                // Every answer the refresh asked for is written (a select
                // sees the port-state writes of earlier cycles), the hash
                // is in (this cycle at the earliest: the flowlet table takes
                // it straight from the hash), and the ingress has answered.
                if self.refresh_written.val() & (self.hash_done.q.val() | self.hash_answered.val()) & !self.probe_pending.q.val() {
                    if self.refused_flag.q.val() {
                        self.issue_arrival.next = true;
                        self.state.d.next = SequencerState::Idle;
                    } else {
                        self.issue_select.next = true;
                        self.state.d.next = SequencerState::WaitSelect;
                    }
                }
            }
            SequencerState::WaitSelect => {
                // The buffer manager takes the arrival with the egress port
                // straight from the flowlet table's answer.
                if self.select_answered.val() {
                    self.latch_select.next = true;
                    self.issue_arrival.next = true;
                    self.state.d.next = SequencerState::Idle;
                }
            }
            SequencerState::HoldTxStart => {
                // Its decision goes the cycle after the arrival's update.
                if !self.update_ahead.val() {
                    self.stream_valid[0].d.next = true;
                    self.stream_kind[0].d.next = self.kind_tx_start.val();
                    self.state.d.next = SequencerState::Idle;
                }
            }
        }
        // The refresh: Start queries the ring's first port already.
        if ((self.state.q.val() == SequencerState::Start) & self.drained.val()) | (self.state.q.val() == SequencerState::WalkDirty) {
            if self.dirty_count.val() != 0 {
                self.pop.next = true;
                self.query_valid.next = true;
                self.query_port.next = self.dirty_head.val();
                self.state.d.next = SequencerState::WalkDirty;
            } else if self.full_walk_due.val() {
                self.start_full.next = true;
                self.state.d.next = SequencerState::WalkAll;
            } else {
                self.state.d.next = SequencerState::Wait;
            }
        }
        if self.hash_answered.val() {
            self.hash_done.d.next = true;
        }
        // The probe answers while the refresh walks, B cycles after it was
        // issued; the buffer manager's other answers around it are those
        // of the streamed events taken before the arrival and the last
        // arrival's.
        self.probe_due.next = (self.probe_pipe[3].q.val() & self.probe_by_pipe.val())
            | (self.probe_answered.val() & !self.tail_valid[3].q.val() & !self.probe_by_pipe.val());
        if self.probe_due.val() & self.probe_pending.q.val() {
            self.latch_probe.next = true;
            self.refused_flag.d.next = self.ingress_refused.val();
            self.probe_pending.d.next = false;
        }
        self.query_pipe_valid[0].d.next = self.query_valid.val();
        self.tail_valid[0].d.next = self.issue_arrival.val();
        self.probe_pipe[0].d.next = self.issue_probe.val();
        self.query_pipe_port[0].d.next = self.query_port.val();
        if self.reset.val() {
            self.state.d.next = SequencerState::Idle;
            self.probe_pending.d.next = false;
            for k in 0..6 {
                self.stream_valid[k].d.next = false;
            }
            for k in 0..4 {
                self.tail_valid[k].d.next = false;
                self.probe_pipe[k].d.next = false;
            }
        }
    }
}
