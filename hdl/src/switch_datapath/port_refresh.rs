//! Which ports' state the switch datapath must copy into the flowlet
//! table before the next select: the ports whose occupancy or received
//! pauses changed (a ring of up to [`RING`]), and whether a received pause
//! may have ended since the last walk over every port.
//!
//! Ports (all on `clock`):
//! * control: `reset` (empties the ring and asks for a walk over every
//!   port; so does power-up, as the earliest end starts at 0)
//! * changes: `mark_valid` with `mark_port` (8 bits: an admission or
//!   release on that egress port, or a PFC frame received on it);
//!   `pause_valid` with `pause_until_ns` (32 bits: when a received pause
//!   ends) and `pause_now_ns` (when it was received)
//! * the walk: `pop` (the head was queried), `start_full` (a walk over
//!   every port begins: the overflow is cleared and the earliest end
//!   forgotten), `answer_valid` with `answer_expiry_ns` (a port's earliest
//!   running pause end, as the buffer manager's query answers it)
//! * state: `dirty_count` (5 bits), `dirty_head` (8 bits), `full_walk_due`
//!   (the ring overflowed, or `now_ns`, the arrival's time, has reached
//!   the earliest end)
//!
//! Why it is exact: a port's occupancy changes only with an admission to
//! it or a release from it, and its paused classes with a PFC frame on it
//! or when a pause ends. The ring names the first kind; `expiry` is never
//! later than any pause end still to come since the last full walk (each
//! full walk sets it to the minimum over every port, each received pause
//! lowers it), so when `now_ns` is before it no pause has ended since.
//! A ring that would overflow asks for a full walk instead of growing.

use rust_hdl::prelude::*;

/// Ports the ring holds before it asks for a full walk.
pub const RING: usize = 16;

#[derive(LogicBlock)]
pub struct PortRefresh {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // changes
    pub mark_valid: Signal<In, Bit>,
    pub mark_port: Signal<In, Bits<8>>,
    pub pause_valid: Signal<In, Bit>,
    pub pause_until_ns: Signal<In, Bits<32>>,
    pub pause_now_ns: Signal<In, Bits<32>>,
    pub now_ns: Signal<In, Bits<32>>,
    // the walk
    pub pop: Signal<In, Bit>,
    pub start_full: Signal<In, Bit>,
    pub answer_valid: Signal<In, Bit>,
    pub answer_expiry_ns: Signal<In, Bits<32>>,
    // state
    pub dirty_count: Signal<Out, Bits<5>>,
    pub dirty_head: Signal<Out, Bits<8>>,
    pub full_walk_due: Signal<Out, Bit>,
    ring: [DFF<Bits<8>>; RING],
    head: DFF<Bits<4>>,
    tail: DFF<Bits<4>>,
    count: DFF<Bits<5>>,
    overflowed: DFF<Bit>,
    /// No received pause ends before this time (ns) that the last full
    /// walk has not seen.
    expiry: DFF<Bits<32>>,
    head_port: Signal<Local, Bits<8>>,
    ring_size: Constant<Bits<5>>,
    no_expiry: Constant<Bits<32>>,
}

impl Default for PortRefresh {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            mark_valid: Default::default(),
            mark_port: Default::default(),
            pause_valid: Default::default(),
            pause_until_ns: Default::default(),
            pause_now_ns: Default::default(),
            now_ns: Default::default(),
            pop: Default::default(),
            start_full: Default::default(),
            answer_valid: Default::default(),
            answer_expiry_ns: Default::default(),
            dirty_count: Default::default(),
            dirty_head: Default::default(),
            full_walk_due: Default::default(),
            ring: Default::default(),
            head: Default::default(),
            tail: Default::default(),
            count: Default::default(),
            overflowed: Default::default(),
            // Zero at power-up: the first refresh walks every port.
            expiry: Default::default(),
            head_port: Default::default(),
            ring_size: Constant::new(Bits::<5>::from(RING as LiteralType)),
            no_expiry: Constant::new(Bits::<32>::from(crate::buffer_manager::pfc_receive::NO_EXPIRY as LiteralType)),
        }
    }
}

const _: () = assert!(RING == 16);

impl Logic for PortRefresh {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, head, tail, count, overflowed, expiry);
        for k in 0..16 {
            self.ring[k].clock.next = self.clock.val();
            self.ring[k].d.next = self.ring[k].q.val();
        }
        self.dirty_count.next = self.count.q.val();
        // Outputs are assigned once: a default and an override would be
        // two changes to an event-driven simulator, and the sequencer,
        // which answers combinationally, would bounce them back forever.
        self.head_port.next = self.ring[0].q.val();
        for k in 0..16 {
            if self.head.q.val().index() == k {
                self.head_port.next = self.ring[k].q.val();
            }
        }
        self.dirty_head.next = self.head_port.val();
        self.full_walk_due.next = self.overflowed.q.val() | (self.now_ns.val() >= self.expiry.q.val());
        // Marks come only when no walk runs (they come with the commands of
        // events taken before the arrival or in its tail, and the walk runs
        // between them), so a cycle pops or pushes, never both.
        if self.pop.val() & (self.count.q.val() != 0) {
            self.head.d.next = self.head.q.val() + 1;
            self.count.d.next = self.count.q.val() - 1;
        }
        if self.mark_valid.val() {
            if self.count.q.val() == self.ring_size.val() {
                self.overflowed.d.next = true;
            } else {
                for k in 0..16 {
                    if self.tail.q.val().index() == k {
                        self.ring[k].d.next = self.mark_port.val();
                    }
                }
                self.tail.d.next = self.tail.q.val() + 1;
                self.count.d.next = self.count.q.val() + 1;
            }
        }
        if self.start_full.val() {
            self.overflowed.d.next = false;
            self.expiry.d.next = self.no_expiry.val();
        }
        if self.answer_valid.val() & (self.answer_expiry_ns.val() < self.expiry.q.val()) {
            self.expiry.d.next = self.answer_expiry_ns.val();
        }
        if self.pause_valid.val() & (self.pause_until_ns.val() > self.pause_now_ns.val()) & (self.pause_until_ns.val() < self.expiry.q.val()) {
            self.expiry.d.next = self.pause_until_ns.val();
        }
        if self.reset.val() {
            self.head.d.next = 0.into();
            self.tail.d.next = 0.into();
            self.count.d.next = 0.into();
            self.overflowed.d.next = true;
        }
    }
}
