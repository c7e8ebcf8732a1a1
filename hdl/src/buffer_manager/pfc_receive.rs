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
//! The earliest end is picked in one step, not by a tree of three
//! compare-and-choose levels: the 28 pairs of the eight registered ends
//! are compared at once (one 33-bit subtraction each, its borrow the
//! answer); class k is the earliest when its end is no later than any
//! later class's and before every earlier class's (exactly one class is),
//! and its end is chosen by an AND-OR of the eight: a carry chain and
//! about four LUT levels instead of three chains and three 32-bit
//! multiplexers in a row.
//!
//! ```text
//!  frame ─► now + pause_ns ─► paused_until_ns ─► deadline_ram[c] (c in classes)
//!  query_port ─► deadline_ram[0..8] (forwarding) ─► now < deadline? ─► query_paused
//!                                                   └► [end per class] ─► 28 compares ─► earliest ─► query_expiry_ns
//! ```

use crate::build_checks::many;
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
    /// Each class's end in 33 bits, for the borrow of a difference.
    wide_expiry: [Signal<Local, Bits<33>>; 8],
    /// At `8 i + j` for i < j: end j - end i (its borrow: j's end is
    /// before i's); 0 elsewhere.
    expiry_difference: [Signal<Local, Bits<33>>; 64],
    /// At `8 i + j`: class i's end is no later than class j's (for j > i),
    /// strictly before it (for j < i); set on the diagonal.
    ends_first: [Signal<Local, Bit>; 64],
    /// Class i holds the earliest end (the first such class).
    earliest: [Signal<Local, Bit>; 8],
    /// Class i's end if it is the earliest, else 0.
    expiry_pick: [Signal<Local, Bits<32>>; 8],
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
            wide_expiry: Default::default(),
            expiry_difference: many(),
            ends_first: many(),
            earliest: Default::default(),
            expiry_pick: Default::default(),
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
        // The earliest end of a pause, in one step (see the module's doc).
        // Widened one by one: hdl_gen loses a loop's index inside `bit_cast`.
        self.wide_expiry[0].next = bit_cast::<33, 32>(self.class_expiry_reg[0].q.val());
        self.wide_expiry[1].next = bit_cast::<33, 32>(self.class_expiry_reg[1].q.val());
        self.wide_expiry[2].next = bit_cast::<33, 32>(self.class_expiry_reg[2].q.val());
        self.wide_expiry[3].next = bit_cast::<33, 32>(self.class_expiry_reg[3].q.val());
        self.wide_expiry[4].next = bit_cast::<33, 32>(self.class_expiry_reg[4].q.val());
        self.wide_expiry[5].next = bit_cast::<33, 32>(self.class_expiry_reg[5].q.val());
        self.wide_expiry[6].next = bit_cast::<33, 32>(self.class_expiry_reg[6].q.val());
        self.wide_expiry[7].next = bit_cast::<33, 32>(self.class_expiry_reg[7].q.val());
        for i in 0..8 {
            for j in 0..8 {
                self.expiry_difference[8 * i + j].next = 0.into();
                if i < j {
                    self.expiry_difference[8 * i + j].next = self.wide_expiry[j].val() - self.wide_expiry[i].val();
                }
            }
        }
        for i in 0..8 {
            for j in 0..8 {
                self.ends_first[8 * i + j].next = true;
                if i < j {
                    self.ends_first[8 * i + j].next = !self.expiry_difference[8 * i + j].val().get_bit(32);
                }
                if i > j {
                    self.ends_first[8 * i + j].next = self.expiry_difference[8 * j + i].val().get_bit(32);
                }
            }
        }
        for i in 0..8 {
            self.earliest[i].next = true;
            for j in 0..8 {
                if !self.ends_first[8 * i + j].val() {
                    self.earliest[i].next = false;
                }
            }
            self.expiry_pick[i].next = 0.into();
            if self.earliest[i].val() {
                self.expiry_pick[i].next = self.class_expiry_reg[i].q.val();
            }
        }
        self.query_expiry_ns.next = self.expiry_pick[0].val() | self.expiry_pick[1].val() | self.expiry_pick[2].val()
            | self.expiry_pick[3].val() | self.expiry_pick[4].val() | self.expiry_pick[5].val()
            | self.expiry_pick[6].val() | self.expiry_pick[7].val();
        self.query_paused.next = self.class_paused[0].val() | self.class_paused[1].val() | self.class_paused[2].val()
            | self.class_paused[3].val() | self.class_paused[4].val() | self.class_paused[5].val()
            | self.class_paused[6].val() | self.class_paused[7].val();
    }
}
