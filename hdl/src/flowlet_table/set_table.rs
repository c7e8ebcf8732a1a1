//! The equal-cost sets: each set's size and member ports, as the control
//! plane writes them, read two ways: every member of a set at once (for
//! the occupancy comparison), and one member's port (the answer).
//!
//! Parameters: `S`, set id bits (2^S sets); `E = S + 6`, the address bits
//! of the (set, member) lookup (checked by the top block); `P`, port bits
//! (the member RAMs keep the low P bits of each port: all that the
//! port-state tables they address use).
//!
//! Ports (all on `clock`):
//! * writes: `size_write` with `write_set`, `write_size` (7 bits,
//!   members); `member_write` with `write_set`, `write_index` (6 bits),
//!   `write_port` (8 bits); seen by reads of later cycles
//! * members: `lookup_set` in cycle 0 -> `set_size` in cycle 2 and
//!   `member_ports[64]` (P bits) in cycle 3 (read through a register after
//!   each RAM: what reads them never waits for a RAM's read. On ECP5 the
//!   size RAM is a DP16KD with that register inside. At 16 ports Yosys
//!   puts the 64 member RAMs of 2^S x P bits in LUT RAM, which frees 64
//!   block RAMs for the slot tables; at 128 ports they are DP16KDs, and
//!   the member ports get a second, fabric register (`member_ports_q`), so
//!   that the path out of the block RAM column and through the banks'
//!   forwarding mux ends there, not in the port-state RAMs' addresses)
//! * egress: `egress_set`, `egress_member` in cycle 0 -> `egress_port` in
//!   cycle 1
//!
//! Storage: a size RAM and one RAM per member position (all read with the
//! same set id, written through one shared port: [`OutputRegisteredBanks`]),
//! zero from the bitstream on; the (set, member) RAM starts
//! unknown (only members below a set's size are ever read from it).
//! A write is seen by reads of later cycles, not of its own (read first).
//!
//! ```text
//!  lookup_set ─► size_ram (output registered) ──────────► set_size
//!             └► member_rams: 64 banks (output registered) ─► [member_ports_q] ─► member_ports[0..64]
//!  egress_set:egress_member ─► egress_ram ─► egress_port
//! ```

use crate::build_checks::many;
use crate::output_registered_banks::OutputRegisteredBanks;
use crate::output_registered_ram::OutputRegisteredRam;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::RAM;

/// Members a set can have (the member RAMs, the comparison's width).
pub const MEMBERS: usize = 64;

#[derive(LogicBlock)]
pub struct SetTable<const S: usize, const E: usize, const P: usize> {
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
    pub member_ports: [Signal<Out, Bits<P>>; MEMBERS],
    // egress
    pub egress_set: Signal<In, Bits<S>>,
    pub egress_member: Signal<In, Bits<6>>,
    pub egress_port: Signal<Out, Bits<8>>,
    size_ram: OutputRegisteredRam<Bits<7>, S>,
    member_rams: OutputRegisteredBanks<Bits<P>, S, MEMBERS, 6>,
    egress_ram: RAM<Bits<8>, E>,
    member_ports_q: [DFF<Bits<P>>; MEMBERS],
}

impl<const S: usize, const E: usize, const P: usize> Default for SetTable<S, E, P> {
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
            member_rams: OutputRegisteredBanks::new(true).expect("64 banks, 6-bit member numbers"),
            egress_ram: RAM::default(),
            member_ports_q: many(),
        }
    }
}

impl<const S: usize, const E: usize, const P: usize> Logic for SetTable<S, E, P> {
    #[hdl_gen]
    fn update(&mut self) {
        self.size_ram.clock.next = self.clock.val();
        self.size_ram.read_address.next = self.lookup_set.val();
        self.size_ram.write_address.next = self.write_set.val();
        self.size_ram.write_data.next = self.write_size.val();
        self.size_ram.write_enable.next = self.size_write.val();
        self.set_size.next = self.size_ram.read_data.val();
        self.member_rams.clock.next = self.clock.val();
        self.member_rams.read_address.next = self.lookup_set.val();
        self.member_rams.write_bank.next = self.write_index.val();
        self.member_rams.write_address.next = self.write_set.val();
        self.member_rams.write_data.next = bit_cast::<P, 8>(self.write_port.val());
        self.member_rams.write_enable.next = self.member_write.val();
        for k in 0..MEMBERS {
            self.member_ports_q[k].clock.next = self.clock.val();
            self.member_ports_q[k].d.next = self.member_rams.read_data[k].val();
            self.member_ports[k].next = self.member_ports_q[k].q.val();
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
