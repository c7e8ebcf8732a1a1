//! `B` copies of one RAM, written together (every copy takes the same
//! word) and each read at an address of its own, answering as rust_hdl's
//! read-first `RAM` followed by a register does. What
//! [`OutputRegisteredRam`](crate::output_registered_ram::OutputRegisteredRam)
//! keeps per RAM, the delayed write and the word it forwards, is kept once
//! here; only the address comparison, two hit bits and the answer's mux
//! are per copy.
//!
//! Why: the flowlet table's port state keeps one copy of the per-port
//! occupancy and pause bits for each of the 64 member positions, so that
//! every member of a set reads in the same cycle. At 128 ports each copy
//! is a DP16KD; read through rust_hdl's `RAM`, Yosys emulates read-first
//! with a bypass mux after the RAM, so the data leaves the DP16KD without
//! its output register (4.3 ns) and the register after it cannot move in.
//! Here each copy is a [`CollisionFreeRam`] whose data register
//! (`ram_data_q`) has nothing in front of it, so `sswitch synth` moves it
//! into the DP16KD.
//!
//! Parameters: `D`, the word type (`Bits<W>` or `Bit`); `N`, address bits
//! (`2^N` words per copy); `B`, copies; `initialised`: words zero from the
//! bitstream on, or unknown.
//!
//! Ports (all on `clock`):
//! * write: `write_address`, `write_data`, `write_enable` in cycle t (every
//!   copy)
//! * read: `read_address[B]` in cycle r -> `read_data[B]` in cycle r + 2:
//!   copy k's word at `read_address[k]` with every write of cycles before
//!   r, none of cycle r (read first)
//!
//! Latency 2 cycles, one read of every copy and one write per cycle. The
//! write of cycle r - 1 reaches the copies at the edge that reads them
//! (their answer is then undefined): a copy that reads its word takes the
//! kept write instead (`hit_q2[k]`, `forward_q2`).
//! [`OutputRegisteredCopies::without_forwarding`] leaves the forwarding
//! out, for fault-injection tests.
//!
//! ```text
//!  write ─► pending (1 cycle) ─► ram[0..B] (no_rw_check) ─► ram_data_q[k] (OUTREG) ─────┐
//!  read_address[k] ─► ram[k]      pending address = read_address[k]? ─► hit_q1[k] ─► hit_q2[k] ─┴─► read_data[k]
//!                                 pending data ──────────────────────► forward_q1 ─► forward_q2
//! ```
//!
//! Size, for `B` copies of `2^N` words of W bits: the RAMs; one pending
//! write (1 + N + W flip-flops) and two forwarded words (2W); per copy an
//! N-bit comparator, two hit bits and a W-bit mux; the data registers
//! (B x W) go inside the DP16KDs on ECP5.

use crate::build_checks::many;
use crate::collision_free_ram::{CollisionFreeRam, Poison};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct OutputRegisteredCopies<D: Poison, const N: usize, const B: usize> {
    pub clock: Signal<In, Clock>,
    // write port (every copy)
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, Bit>,
    // read ports (one per copy)
    pub read_address: [Signal<In, Bits<N>>; B],
    pub read_data: [Signal<Out, D>; B],
    ram: [CollisionFreeRam<D, N>; B],
    ram_data_q: [DFF<D>; B],
    /// The write of the last cycle, which every copy takes at this edge.
    pending_valid: DFF<Bit>,
    pending_address: DFF<Bits<N>>,
    pending_data: DFF<D>,
    /// Copy k's read met the pending write, one and two cycles after the read.
    hit_q1: [DFF<Bit>; B],
    hit_q2: [DFF<Bit>; B],
    forward_q1: DFF<D>,
    forward_q2: DFF<D>,
    /// False only in the fault-injection build without forwarding.
    forwarding: Constant<Bit>,
}

impl<D: Poison, const N: usize, const B: usize> OutputRegisteredCopies<D, N, B> {
    /// `B` copies whose words start at zero (`initialised`) or unknown.
    pub fn new(initialised: bool) -> Self {
        OutputRegisteredCopies {
            clock: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            read_address: many(),
            read_data: many(),
            ram: std::array::from_fn(|_| CollisionFreeRam::new(initialised)),
            ram_data_q: many(),
            pending_valid: Default::default(),
            pending_address: Default::default(),
            pending_data: Default::default(),
            hit_q1: many(),
            hit_q2: many(),
            forward_q1: Default::default(),
            forward_q2: Default::default(),
            forwarding: Constant::new(true),
        }
    }

    /// The copies without forwarding: wrong on purpose, for fault-injection tests.
    pub fn without_forwarding(initialised: bool) -> Self {
        OutputRegisteredCopies { forwarding: Constant::new(false), ..Self::new(initialised) }
    }
}

/// Words start unknown, as rust_hdl's `RAM::default()`.
impl<D: Poison, const N: usize, const B: usize> Default for OutputRegisteredCopies<D, N, B> {
    fn default() -> Self {
        Self::new(false)
    }
}

impl<D: Poison, const N: usize, const B: usize> Logic for OutputRegisteredCopies<D, N, B> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, pending_valid, pending_address, pending_data, forward_q1, forward_q2);
        self.pending_valid.d.next = self.write_enable.val();
        self.pending_address.d.next = self.write_address.val();
        self.pending_data.d.next = self.write_data.val();
        self.forward_q1.d.next = self.pending_data.q.val();
        self.forward_q2.d.next = self.forward_q1.q.val();
        for k in 0..B {
            self.ram[k].clock.next = self.clock.val();
            self.ram[k].write_address.next = self.pending_address.q.val();
            self.ram[k].write_data.next = self.pending_data.q.val();
            self.ram[k].write_enable.next = self.pending_valid.q.val();
            self.ram[k].read_address.next = self.read_address[k].val();
            self.ram_data_q[k].clock.next = self.clock.val();
            self.ram_data_q[k].d.next = self.ram[k].read_data.val();
            self.hit_q1[k].clock.next = self.clock.val();
            self.hit_q1[k].d.next = self.forwarding.val() & self.pending_valid.q.val() & (self.pending_address.q.val() == self.read_address[k].val());
            self.hit_q2[k].clock.next = self.clock.val();
            self.hit_q2[k].d.next = self.hit_q1[k].q.val();
            // The output is assigned once (see `crate::forwarding_ram`).
            if self.hit_q2[k].q.val() {
                self.read_data[k].next = self.forward_q2.q.val();
            } else {
                self.read_data[k].next = self.ram_data_q[k].q.val();
            }
        }
    }
}
