//! The equal-cost sets: each set's size and member ports, as the control
//! plane writes them, read two ways: every member of a set at once (for
//! the occupancy comparison), and one member's port (the answer).
//!
//! Parameters: `S`, set id bits (2^S sets); `E = S + 6`, the address bits
//! of the (set, member) lookup (checked by the top block).
//!
//! Ports (all on `clock`):
//! * writes: `size_write` with `write_set`, `write_size` (7 bits,
//!   members); `member_write` with `write_set`, `write_index` (6 bits),
//!   `write_port` (8 bits); seen by reads of later cycles
//! * members: `lookup_set` in cycle 0 -> `set_size` and `member_ports[64]`
//!   in cycle 2 (registered as they leave the RAMs, so what reads them
//!   starts from a register, not from a block RAM's clock-to-out)
//! * egress: `egress_set`, `egress_member` in cycle 0 -> `egress_port` in
//!   cycle 1
//!
//! Storage: a size RAM and one RAM per member position (all read with the
//! same set id), zero from the bitstream on; the (set, member) RAM starts
//! unknown (only members below a set's size are ever read from it).
//!
//! ```text
//!  lookup_set ─► size_ram ──────────► [register] ─► set_size
//!             └► member_ram[0..64] ─► [register] ─► member_ports[0..64]
//!  egress_set:egress_member ─► egress_ram ─► egress_port
//! ```

use crate::build_checks::{zero_ram, many};
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::RAM;

/// Members a set can have (the member RAMs, the comparison's width).
pub const MEMBERS: usize = 64;

#[derive(LogicBlock)]
pub struct SetTable<const S: usize, const E: usize> {
    pub clock: Signal<In, Clock>,
    // writes
    pub size_write: Signal<In, Bit>,
    pub member_write: Signal<In, Bit>,
    pub write_set: Signal<In, Bits<S>>,
    pub write_size: Signal<In, Bits<7>>,
    pub write_index: Signal<In, Bits<6>>,
    pub write_port: Signal<In, Bits<8>>,
    // members
    pub lookup_set: Signal<In, Bits<S>>,
    pub set_size: Signal<Out, Bits<7>>,
    pub member_ports: [Signal<Out, Bits<8>>; MEMBERS],
    // egress
    pub egress_set: Signal<In, Bits<S>>,
    pub egress_member: Signal<In, Bits<6>>,
    pub egress_port: Signal<Out, Bits<8>>,
    size_ram: RAM<Bits<7>, S>,
    member_ram: [RAM<Bits<8>, S>; MEMBERS],
    size_q: DFF<Bits<7>>,
    member_port_q: [DFF<Bits<8>>; MEMBERS],
    egress_ram: RAM<Bits<8>, E>,
}

impl<const S: usize, const E: usize> Default for SetTable<S, E> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            size_write: Default::default(),
            member_write: Default::default(),
            write_set: Default::default(),
            write_size: Default::default(),
            write_index: Default::default(),
            write_port: Default::default(),
            lookup_set: Default::default(),
            set_size: Default::default(),
            member_ports: many(),
            egress_set: Default::default(),
            egress_member: Default::default(),
            egress_port: Default::default(),
            size_ram: zero_ram(),
            member_ram: std::array::from_fn(|_| zero_ram()),
            size_q: Default::default(),
            member_port_q: many(),
            egress_ram: RAM::default(),
        }
    }
}

impl<const S: usize, const E: usize> Logic for SetTable<S, E> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, size_q);
        self.size_ram.read_clock.next = self.clock.val();
        self.size_ram.write_clock.next = self.clock.val();
        self.size_ram.read_address.next = self.lookup_set.val();
        self.size_ram.write_address.next = self.write_set.val();
        self.size_ram.write_data.next = self.write_size.val();
        self.size_ram.write_enable.next = self.size_write.val();
        self.size_q.d.next = self.size_ram.read_data.val();
        self.set_size.next = self.size_q.q.val();
        for k in 0..MEMBERS {
            self.member_ram[k].read_clock.next = self.clock.val();
            self.member_ram[k].write_clock.next = self.clock.val();
            self.member_ram[k].read_address.next = self.lookup_set.val();
            self.member_ram[k].write_address.next = self.write_set.val();
            self.member_ram[k].write_data.next = self.write_port.val();
            self.member_ram[k].write_enable.next = self.member_write.val() & (self.write_index.val() == k.to_bits::<6>());
            self.member_port_q[k].clock.next = self.clock.val();
            self.member_port_q[k].d.next = self.member_ram[k].read_data.val();
            self.member_ports[k].next = self.member_port_q[k].q.val();
        }
        self.egress_ram.read_clock.next = self.clock.val();
        self.egress_ram.write_clock.next = self.clock.val();
        self.egress_ram.read_address.next = (bit_cast::<E, S>(self.egress_set.val()) << 6) | bit_cast::<E, 6>(self.egress_member.val());
        self.egress_ram.write_address.next = (bit_cast::<E, S>(self.write_set.val()) << 6) | bit_cast::<E, 6>(self.write_index.val());
        self.egress_ram.write_data.next = self.write_port.val();
        self.egress_ram.write_enable.next = self.member_write.val();
        self.egress_port.next = self.egress_ram.read_data.val();
    }
}
