//! A RAM whose read data is registered once more, answering as rust_hdl's
//! read-first `RAM` followed by a register does, built so that the open
//! ECP5 flow keeps the block RAM's data path short.
//!
//! Why: Yosys emulates read-first around a DP16KD with a bypass
//! multiplexer between the RAM's data and the register after it, and never
//! uses the RAM's own output register, so such a read spends the DP16KD's
//! 5.6 ns clock-to-out plus a LUT in one cycle. Here the memory is a
//! [`CollisionFreeRam`] (no emulation), the register after it
//! (`ram_data_q`) has nothing in front of it, so `sswitch synth` moves it
//! into the DP16KD (`REGMODE OUTREG`), and the read-first answer comes from
//! forwarding behind that register instead. Writes reach the RAM a cycle
//! late (`pending_*`), from registers.
//!
//! Parameters: `D`, the word type (`Bits<W>` or `Bit`); `N`, address bits
//! (`2^N` words); `initialised`: whether they are zero from the bitstream
//! on (Yosys does not finish initialising RAMs of 2^16 words, so large
//! tables start unknown and are cleared by their users).
//!
//! Ports (all on `clock`):
//! * write: `write_address`, `write_data`, `write_enable` in cycle t
//! * read: `read_address` in cycle r -> `read_data` in cycle r + 2: the word
//!   with every write of cycles before r, none of cycle r (read first)
//!
//! Latency 2 cycles, one read and one write per cycle. The write of cycle
//! r - 1 reaches the RAM at the edge that reads it (the RAM's answer is
//! then undefined): that write is kept (`hit_q1/2`, `forward_q1/2`) and
//! answers instead. Writes of cycles up to r - 2 are in the RAM; the write
//! of cycle r is still pending, as read-first wants. [`OutputRegisteredRam::without_forwarding`]
//! leaves the forwarding out, for fault-injection tests.
//!
//! ```text
//!  write ─► pending (1 cycle) ─► mem (no_rw_check) ─► ram_data_q (OUTREG) ───────┐
//!  read_address ─► mem            └─ pending address = read? ─► hit_q1 ─► hit_q2 ─┴─► read_data
//!                                    pending data ───────────► forward_q1 ─► forward_q2
//! ```
//!
//! Size, for `2^N` words of W bits: the RAM; the pending write (1 + N + W
//! flip-flops), two hit bits and two forwarded words (2 + 2W), an N-bit
//! comparator and a W-bit mux; the data register (W) goes inside the
//! DP16KD on ECP5 (`testbench/tests/output_registered_ram.rs` checks a
//! 512 x 8 one: one DP16KD, its 8 data flip-flops moved in).

use crate::collision_free_ram::{CollisionFreeRam, Poison};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct OutputRegisteredRam<D: Poison, const N: usize> {
    pub clock: Signal<In, Clock>,
    // write port
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, Bit>,
    // read port
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: Signal<Out, D>,
    ram: CollisionFreeRam<D, N>,
    /// The write of the last cycle, which the RAM takes at this edge.
    pending_valid: DFF<Bit>,
    pending_address: DFF<Bits<N>>,
    pending_data: DFF<D>,
    ram_data_q: DFF<D>,
    /// The read met the pending write, one and two cycles after the read.
    hit_q1: DFF<Bit>,
    hit_q2: DFF<Bit>,
    forward_q1: DFF<D>,
    forward_q2: DFF<D>,
    /// False only in the fault-injection build without forwarding.
    forwarding: Constant<Bit>,
}

impl<D: Poison, const N: usize> OutputRegisteredRam<D, N> {
    /// A RAM whose words start at zero (`initialised`) or unknown.
    pub fn new(initialised: bool) -> Self {
        OutputRegisteredRam {
            clock: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            ram: CollisionFreeRam::new(initialised),
            pending_valid: Default::default(),
            pending_address: Default::default(),
            pending_data: Default::default(),
            ram_data_q: Default::default(),
            hit_q1: Default::default(),
            hit_q2: Default::default(),
            forward_q1: Default::default(),
            forward_q2: Default::default(),
            forwarding: Constant::new(true),
        }
    }

    /// The RAM without forwarding: wrong on purpose, for fault-injection tests.
    pub fn without_forwarding(initialised: bool) -> Self {
        OutputRegisteredRam { forwarding: Constant::new(false), ..Self::new(initialised) }
    }
}

/// Words start unknown, as rust_hdl's `RAM::default()`.
impl<D: Poison, const N: usize> Default for OutputRegisteredRam<D, N> {
    fn default() -> Self {
        Self::new(false)
    }
}

impl<D: Poison, const N: usize> Logic for OutputRegisteredRam<D, N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, pending_valid, pending_address, pending_data, ram_data_q, hit_q1, hit_q2, forward_q1, forward_q2);
        self.pending_valid.d.next = self.write_enable.val();
        self.pending_address.d.next = self.write_address.val();
        self.pending_data.d.next = self.write_data.val();
        self.ram.clock.next = self.clock.val();
        self.ram.write_address.next = self.pending_address.q.val();
        self.ram.write_data.next = self.pending_data.q.val();
        self.ram.write_enable.next = self.pending_valid.q.val();
        self.ram.read_address.next = self.read_address.val();
        self.ram_data_q.d.next = self.ram.read_data.val();
        self.hit_q1.d.next = self.forwarding.val() & self.pending_valid.q.val() & (self.pending_address.q.val() == self.read_address.val());
        self.forward_q1.d.next = self.pending_data.q.val();
        self.hit_q2.d.next = self.hit_q1.q.val();
        self.forward_q2.d.next = self.forward_q1.q.val();
        // The output is assigned once (see `crate::forwarding_ram`).
        if self.hit_q2.q.val() {
            self.read_data.next = self.forward_q2.q.val();
        } else {
            self.read_data.next = self.ram_data_q.q.val();
        }
    }
}
