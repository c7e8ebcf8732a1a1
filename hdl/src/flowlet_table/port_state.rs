//! What the member choice knows of each egress port: its occupancy
//! (bytes over all pools, the frame in transmission included) and which
//! classes are paused, as the datapath writes them; read for all 64
//! member positions of a set at once.
//!
//! Parameters: `P`, port bits (2^P ports; ports are the low P bits of the
//! 8-bit port numbers).
//!
//! Ports (all on `clock`):
//! * occupancy: `occupancy_write`, `occupancy_port` (8 bits),
//!   `occupancy_bytes` (32 bits, bytes), in cycle c
//! * pause: `pause_write`, `pause_port` (8 bits), `paused_classes` (bit n:
//!   class n paused), in cycle c
//! * read: `member_ports[64]` (P bits each), `tc` (3 bits) in cycle 3 ->
//!   `occupancy_bytes_of[64]`, `paused_of[64]` (paused for `tc`) in cycle 5
//!
//! Latency 2 cycles: the copies are
//! [`OutputRegisteredCopies`](crate::output_registered_copies::OutputRegisteredCopies), read-first RAMs read through a register
//! that the ECP5 flow moves into each DP16KD (at 128 ports every copy is
//! one). Read through rust_hdl's RAM, a copy's data left the DP16KD
//! without that register (4.3 ns from the clock) and went on through 3.3
//! ns of routing to the least-occupied tree's first registers.
//!
//! Writes land at the end of cycle c + 3: the read of a select given in
//! cycle c (which the top block gives in c + 3) misses them, every later
//! one sees them, like the slot table's commits.
//!
//! Storage: one copy of each table per member position (64 RAMs of
//! occupancy, 64 of pause bits, all written together), so that every
//! member reads in the same cycle.
//!
//! ```text
//!  write ─► [3 cycles] ─► occupancy copies [0..64], pause copies [0..64]
//!  member_ports[k] ──────► occupancy copy k, pause copy k (2 cycles) ─► [tc] ─► k's answer
//! ```

use super::set_table::MEMBERS;
use crate::build_checks::many;
use crate::output_registered_copies::OutputRegisteredCopies;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct PortState<const P: usize> {
    pub clock: Signal<In, Clock>,
    // occupancy
    pub occupancy_write: Signal<In, Bit>,
    pub occupancy_port: Signal<In, Bits<8>>,
    pub occupancy_bytes: Signal<In, Bits<32>>,
    // pause
    pub pause_write: Signal<In, Bit>,
    pub pause_port: Signal<In, Bits<8>>,
    pub paused_classes: Signal<In, Bits<8>>,
    // read
    pub member_ports: [Signal<In, Bits<P>>; MEMBERS],
    pub tc: Signal<In, Bits<3>>,
    pub occupancy_bytes_of: [Signal<Out, Bits<32>>; MEMBERS],
    pub paused_of: [Signal<Out, Bit>; MEMBERS],
    occupancy_copies: OutputRegisteredCopies<Bits<32>, P, MEMBERS>,
    pause_copies: OutputRegisteredCopies<Bits<8>, P, MEMBERS>,
    // the writes, one, two and three cycles later
    occupancy_write_q: DFF<Bit>,
    occupancy_port_q: DFF<Bits<P>>,
    occupancy_bytes_q: DFF<Bits<32>>,
    pause_write_q: DFF<Bit>,
    pause_port_q: DFF<Bits<P>>,
    paused_classes_q: DFF<Bits<8>>,
    occupancy_write_qq: DFF<Bit>,
    occupancy_port_qq: DFF<Bits<P>>,
    occupancy_bytes_qq: DFF<Bits<32>>,
    pause_write_qq: DFF<Bit>,
    pause_port_qq: DFF<Bits<P>>,
    paused_classes_qq: DFF<Bits<8>>,
    occupancy_write_q3: DFF<Bit>,
    occupancy_port_q3: DFF<Bits<P>>,
    occupancy_bytes_q3: DFF<Bits<32>>,
    pause_write_q3: DFF<Bit>,
    pause_port_q3: DFF<Bits<P>>,
    paused_classes_q3: DFF<Bits<8>>,
    /// The class read, in the cycles of the copies' answers.
    tc_q: DFF<Bits<3>>,
    tc_qq: DFF<Bits<3>>,
}

impl<const P: usize> Default for PortState<P> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            occupancy_write: Default::default(),
            occupancy_port: Default::default(),
            occupancy_bytes: Default::default(),
            pause_write: Default::default(),
            pause_port: Default::default(),
            paused_classes: Default::default(),
            member_ports: many(),
            tc: Default::default(),
            occupancy_bytes_of: many(),
            paused_of: many(),
            occupancy_copies: OutputRegisteredCopies::new(true),
            pause_copies: OutputRegisteredCopies::new(true),
            occupancy_write_q: Default::default(),
            occupancy_port_q: Default::default(),
            occupancy_bytes_q: Default::default(),
            pause_write_q: Default::default(),
            pause_port_q: Default::default(),
            paused_classes_q: Default::default(),
            occupancy_write_qq: Default::default(),
            occupancy_port_qq: Default::default(),
            occupancy_bytes_qq: Default::default(),
            pause_write_qq: Default::default(),
            pause_port_qq: Default::default(),
            paused_classes_qq: Default::default(),
            occupancy_write_q3: Default::default(),
            occupancy_port_q3: Default::default(),
            occupancy_bytes_q3: Default::default(),
            pause_write_q3: Default::default(),
            pause_port_q3: Default::default(),
            paused_classes_q3: Default::default(),
            tc_q: Default::default(),
            tc_qq: Default::default(),
        }
    }
}

impl<const P: usize> Logic for PortState<P> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, occupancy_write_q, occupancy_port_q, occupancy_bytes_q, pause_write_q, pause_port_q,
            paused_classes_q, occupancy_write_qq, occupancy_port_qq, occupancy_bytes_qq, pause_write_qq, pause_port_qq,
            paused_classes_qq, occupancy_write_q3, occupancy_port_q3, occupancy_bytes_q3, pause_write_q3, pause_port_q3,
            paused_classes_q3, tc_q, tc_qq);
        self.occupancy_write_q.d.next = self.occupancy_write.val();
        self.occupancy_port_q.d.next = bit_cast::<P, 8>(self.occupancy_port.val());
        self.occupancy_bytes_q.d.next = self.occupancy_bytes.val();
        self.pause_write_q.d.next = self.pause_write.val();
        self.pause_port_q.d.next = bit_cast::<P, 8>(self.pause_port.val());
        self.paused_classes_q.d.next = self.paused_classes.val();
        self.occupancy_write_qq.d.next = self.occupancy_write_q.q.val();
        self.occupancy_port_qq.d.next = self.occupancy_port_q.q.val();
        self.occupancy_bytes_qq.d.next = self.occupancy_bytes_q.q.val();
        self.pause_write_qq.d.next = self.pause_write_q.q.val();
        self.pause_port_qq.d.next = self.pause_port_q.q.val();
        self.paused_classes_qq.d.next = self.paused_classes_q.q.val();
        self.occupancy_write_q3.d.next = self.occupancy_write_qq.q.val();
        self.occupancy_port_q3.d.next = self.occupancy_port_qq.q.val();
        self.occupancy_bytes_q3.d.next = self.occupancy_bytes_qq.q.val();
        self.pause_write_q3.d.next = self.pause_write_qq.q.val();
        self.pause_port_q3.d.next = self.pause_port_qq.q.val();
        self.paused_classes_q3.d.next = self.paused_classes_qq.q.val();
        self.tc_q.d.next = self.tc.val();
        self.tc_qq.d.next = self.tc_q.q.val();
        self.occupancy_copies.clock.next = self.clock.val();
        self.occupancy_copies.write_address.next = self.occupancy_port_q3.q.val();
        self.occupancy_copies.write_data.next = self.occupancy_bytes_q3.q.val();
        self.occupancy_copies.write_enable.next = self.occupancy_write_q3.q.val();
        self.pause_copies.clock.next = self.clock.val();
        self.pause_copies.write_address.next = self.pause_port_q3.q.val();
        self.pause_copies.write_data.next = self.paused_classes_q3.q.val();
        self.pause_copies.write_enable.next = self.pause_write_q3.q.val();
        for k in 0..MEMBERS {
            self.occupancy_copies.read_address[k].next = self.member_ports[k].val();
            self.occupancy_bytes_of[k].next = self.occupancy_copies.read_data[k].val();
            self.pause_copies.read_address[k].next = self.member_ports[k].val();
            self.paused_of[k].next = self.pause_copies.read_data[k].val().get_bit(self.tc_qq.q.val().index());
        }
    }
}
