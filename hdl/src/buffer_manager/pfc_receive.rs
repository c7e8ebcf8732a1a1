//! Received PFC frames and the pause query: when each (port, class) pause
//! ends, and which classes of a port are paused now.
//!
//! A frame on port p for classes C with q quanta pauses each class of C on
//! p until `now + pause_ns`, with `pause_ns` from [`super::pause_time`]
//! (0 for q = 0: the deadline becomes `now`, a resume). A class is paused
//! while `now < deadline`.
//!
//! Parameters: `A`, the deadline RAMs' address bits (a port number).
//!
//! Ports (all on `clock`):
//! * control: `reset` (cancels the frame of its cycle)
//! * frame, stage 1: `frame_valid`, `frame_port`, `frame_classes`,
//!   `pause_ns`, `now_ns`
//! * query: `query_port` in stage 0 -> `query_paused` in stage 1 (bit n:
//!   class n paused at `now_ns`), frames of earlier cycles included; a
//!   cycle later `query_expiry_ns` (the earliest end of those pauses,
//!   [`NO_EXPIRY`] when none: each class's end is registered first, so the
//!   minimum is not in the RAM read's cycle)
//! * answer, stage 1: `paused_until_ns`
//!
//! Latency: the query answers one cycle after its port; the frame's
//! deadlines are written at the end of its cycle and seen by the query
//! given in that same cycle (forwarded).
//!
//! ```text
//!  frame ─► now + pause_ns ─► paused_until_ns ─► deadline_ram[c] (c in classes)
//!  query_port ─► deadline_ram[0..8] (forwarding) ─► now < deadline? ─► query_paused
//!                                                   └► min of those deadlines ─► query_expiry_ns
//! ```

use crate::forwarding_ram::ForwardingRam;
use rust_hdl::prelude::*;

/// `query_expiry_ns` of a port with no class paused.
pub const NO_EXPIRY: u32 = u32::MAX;

#[derive(LogicBlock)]
pub struct PfcReceive<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // frame (stage 1)
    pub frame_valid: Signal<In, Bit>,
    pub frame_port: Signal<In, Bits<A>>,
    pub frame_classes: Signal<In, Bits<8>>,
    pub pause_ns: Signal<In, Bits<32>>,
    pub now_ns: Signal<In, Bits<32>>,
    // query
    pub query_port: Signal<In, Bits<A>>,
    pub query_paused: Signal<Out, Bits<8>>,
    pub query_expiry_ns: Signal<Out, Bits<32>>,
    // answer (stage 1)
    pub paused_until_ns: Signal<Out, Bits<32>>,
    /// When each class's pause of each port ends, one RAM per class.
    deadline_ram: [ForwardingRam<Bits<32>, A>; 8],
    class_paused: [Signal<Local, Bits<8>>; 8],
    class_expiry: [Signal<Local, Bits<32>>; 8],
    class_expiry_reg: [DFF<Bits<32>>; 8],
    expiry_of_pairs: [Signal<Local, Bits<32>>; 4],
    expiry_of_quads: [Signal<Local, Bits<32>>; 2],
    no_expiry: Constant<Bits<32>>,
}

impl<const A: usize> Default for PfcReceive<A> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            frame_valid: Default::default(),
            frame_port: Default::default(),
            frame_classes: Default::default(),
            pause_ns: Default::default(),
            now_ns: Default::default(),
            query_port: Default::default(),
            query_paused: Default::default(),
            query_expiry_ns: Default::default(),
            paused_until_ns: Default::default(),
            deadline_ram: Default::default(),
            class_paused: Default::default(),
            class_expiry: Default::default(),
            class_expiry_reg: Default::default(),
            expiry_of_pairs: Default::default(),
            expiry_of_quads: Default::default(),
            no_expiry: Constant::new(Bits::<32>::from(NO_EXPIRY as LiteralType)),
        }
    }
}

impl<const A: usize> Logic for PfcReceive<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.paused_until_ns.next = self.now_ns.val() + self.pause_ns.val();
        for t in 0..8 {
            self.deadline_ram[t].clock.next = self.clock.val();
            self.deadline_ram[t].write_address.next = self.frame_port.val();
            self.deadline_ram[t].write_data.next = self.paused_until_ns.val();
            self.deadline_ram[t].write_enable.next = self.frame_valid.val() & self.frame_classes.val().get_bit(t) & !self.reset.val();
            self.deadline_ram[t].read_address.next = self.query_port.val();
            self.class_paused[t].next = 0.into();
            self.class_expiry[t].next = self.no_expiry.val();
            if self.now_ns.val() < self.deadline_ram[t].read_data.val() {
                self.class_paused[t].next = (1 << t).into();
                self.class_expiry[t].next = self.deadline_ram[t].read_data.val();
            }
            self.class_expiry_reg[t].clock.next = self.clock.val();
            self.class_expiry_reg[t].d.next = self.class_expiry[t].val();
        }
        // The earliest end of a pause: a tree of pairwise minima.
        for k in 0..4 {
            if self.class_expiry_reg[2 * k].q.val() < self.class_expiry_reg[2 * k + 1].q.val() {
                self.expiry_of_pairs[k].next = self.class_expiry_reg[2 * k].q.val();
            } else {
                self.expiry_of_pairs[k].next = self.class_expiry_reg[2 * k + 1].q.val();
            }
        }
        for k in 0..2 {
            if self.expiry_of_pairs[2 * k].val() < self.expiry_of_pairs[2 * k + 1].val() {
                self.expiry_of_quads[k].next = self.expiry_of_pairs[2 * k].val();
            } else {
                self.expiry_of_quads[k].next = self.expiry_of_pairs[2 * k + 1].val();
            }
        }
        if self.expiry_of_quads[0].val() < self.expiry_of_quads[1].val() {
            self.query_expiry_ns.next = self.expiry_of_quads[0].val();
        } else {
            self.query_expiry_ns.next = self.expiry_of_quads[1].val();
        }
        self.query_paused.next = self.class_paused[0].val() | self.class_paused[1].val() | self.class_paused[2].val()
            | self.class_paused[3].val() | self.class_paused[4].val() | self.class_paused[5].val()
            | self.class_paused[6].val() | self.class_paused[7].val();
    }
}
