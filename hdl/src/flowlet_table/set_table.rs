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
//!   in cycle 2 (read through [`OutputRegisteredRam`]s: the register after
//!   each RAM goes into the DP16KD on ECP5, so what reads them does not
//!   wait for a block RAM's 5.6 ns clock-to-out)
//! * egress: `egress_set`, `egress_member` in cycle 0 -> `egress_port` in
//!   cycle 1
//!
//! Storage: a size RAM and one RAM per member position (all read with the
//! same set id), zero from the bitstream on; the (set, member) RAM starts
//! unknown (only members below a set's size are ever read from it).
//! A write is seen by reads of later cycles, not of its own (read first).
//!
//! ```text
//!  lookup_set ─► size_ram (output registered) ──────────► set_size
//!             └► member_ram[0..64] (output registered) ─► member_ports[0..64]
//!  egress_set:egress_member ─► egress_ram ─► egress_port
//! ```

use crate::build_checks::many;
use crate::output_registered_ram::OutputRegisteredRam;
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
    size_ram: OutputRegisteredRam<Bits<7>, S>,
    member_ram: [OutputRegisteredRam<Bits<8>, S>; MEMBERS],
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
            size_ram: OutputRegisteredRam::new(true),
            member_ram: std::array::from_fn(|_| OutputRegisteredRam::new(true)),
            egress_ram: RAM::default(),
        }
    }
}

impl<const S: usize, const E: usize> Logic for SetTable<S, E> {
    #[hdl_gen]
    fn update(&mut self) {
        self.size_ram.clock.next = self.clock.val();
        self.size_ram.read_address.next = self.lookup_set.val();
        self.size_ram.write_address.next = self.write_set.val();
        self.size_ram.write_data.next = self.write_size.val();
        self.size_ram.write_enable.next = self.size_write.val();
        self.set_size.next = self.size_ram.read_data.val();
        for k in 0..MEMBERS {
            self.member_ram[k].clock.next = self.clock.val();
            self.member_ram[k].read_address.next = self.lookup_set.val();
            self.member_ram[k].write_address.next = self.write_set.val();
            self.member_ram[k].write_data.next = self.write_port.val();
            self.member_ram[k].write_enable.next = self.member_write.val() & (self.write_index.val() == k.to_bits::<6>());
            self.member_ports[k].next = self.member_ram[k].read_data.val();
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
