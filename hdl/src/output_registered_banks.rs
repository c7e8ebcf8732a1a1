//! `B` output-registered RAMs read at one address and written one at a
//! time, sharing what [`OutputRegisteredRam`](crate::output_registered_ram::OutputRegisteredRam)
//! keeps per RAM: the delayed write and the forwarding of the write a read
//! meets.
//!
//! Why: the flowlet table's set table reads all 64 member positions of a
//! set at once (the same address in 64 RAMs) and the control plane writes
//! one member at a time. With a pending write and a forwarding path per RAM
//! that is 64 copies of the same address comparison; here there is one,
//! and a bank number says which RAM the write is for.
//!
//! Parameters: `D`, the word type (`Bits<W>` or `Bit`); `N`, address bits
//! (`2^N` words per bank); `B`, banks; `K`, bank number bits (`B = 2^K`,
//! refused otherwise when built); `initialised`: words zero from the
//! bitstream on, or unknown.
//!
//! Ports (all on `clock`):
//! * write: `write_bank`, `write_address`, `write_data`, `write_enable` in
//!   cycle t (one bank's word)
//! * read: `read_address` in cycle r -> `read_data[B]` in cycle r + 2: every
//!   bank's word with every write of cycles before r, none of cycle r (read
//!   first)
//!
//! Latency 2 cycles, one read of every bank and one write per cycle. As in
//! the single RAM, the write of cycle r - 1 reaches its bank at the edge
//! that reads it; that bank's answer is replaced by the kept write
//! (`hit_q2[bank]`, `forward_q2`). [`OutputRegisteredBanks::without_forwarding`]
//! leaves the forwarding out, for fault-injection tests.
//!
//! ```text
//!  write ─► pending (1 cycle; enable one-hot per bank) ─► ram[bank] (no_rw_check) ─► ram_data_q[k] (OUTREG) ──┐
//!  read_address ─► ram[0..B]      pending address = read? ─► hit_q1 ─► hit_q2[bank] ─┴─► read_data[k]
//!                                 pending data, bank ──────► forward_q1 ─► forward_q2
//! ```
//!
//! Size, for `B` banks of `2^N` words of W bits: the RAMs; one pending
//! write (1 + K + N + W flip-flops, and B write enables), one hit bit, a bank number and a word
//! at one cycle (2 + K + W), `B` hit bits and a word at two (B + W), one
//! N-bit comparator, `B` bank decoders and W-bit muxes; the data registers
//! (B x W) go inside the DP16KDs on ECP5.

use crate::build_checks::many;
use crate::collision_free_ram::{CollisionFreeRam, Poison};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct OutputRegisteredBanks<D: Poison, const N: usize, const B: usize, const K: usize> {
    pub clock: Signal<In, Clock>,
    // write port
    pub write_bank: Signal<In, Bits<K>>,
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, Bit>,
    // read port
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: [Signal<Out, D>; B],
    ram: [CollisionFreeRam<D, N>; B],
    ram_data_q: [DFF<D>; B],
    /// The write of the last cycle, which its bank takes at this edge.
    pending_valid: DFF<Bit>,
    pending_bank: DFF<Bits<K>>,
    pending_address: DFF<Bits<N>>,
    pending_data: DFF<D>,
    /// The pending write's enable, per bank: decoded before the register,
    /// so that each bank's write enable leaves a flip-flop the placer can
    /// put beside that bank (a shared decoder once routed 4 ns to a bank).
    pending_write: [DFF<Bit>; B],
    /// The read met the pending write, one cycle after the read; two
    /// cycles after, per bank.
    hit_q1: DFF<Bit>,
    bank_q1: DFF<Bits<K>>,
    forward_q1: DFF<D>,
    hit_q2: [DFF<Bit>; B],
    forward_q2: DFF<D>,
    /// False only in the fault-injection build without forwarding.
    forwarding: Constant<Bit>,
}

impl<D: Poison, const N: usize, const B: usize, const K: usize> OutputRegisteredBanks<D, N, B, K> {
    /// `B` banks whose words start at zero (`initialised`) or unknown.
    pub fn new(initialised: bool) -> Result<Self, String> {
        if K >= usize::BITS as usize || B != 1 << K {
            return Err(format!("output-registered banks: {B} banks with {K}-bit bank numbers: the banks must be 2^{K}"));
        }
        Ok(OutputRegisteredBanks {
            clock: Default::default(),
            write_bank: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            read_address: Default::default(),
            read_data: many(),
            ram: std::array::from_fn(|_| CollisionFreeRam::new(initialised)),
            ram_data_q: std::array::from_fn(|_| Default::default()),
            pending_valid: Default::default(),
            pending_bank: Default::default(),
            pending_address: Default::default(),
            pending_data: Default::default(),
            pending_write: std::array::from_fn(|_| Default::default()),
            hit_q1: Default::default(),
            bank_q1: Default::default(),
            forward_q1: Default::default(),
            hit_q2: std::array::from_fn(|_| Default::default()),
            forward_q2: Default::default(),
            forwarding: Constant::new(true),
        })
    }

    /// The banks without forwarding: wrong on purpose, for fault-injection tests.
    pub fn without_forwarding(initialised: bool) -> Result<Self, String> {
        Ok(OutputRegisteredBanks { forwarding: Constant::new(false), ..Self::new(initialised)? })
    }
}

impl<D: Poison, const N: usize, const B: usize, const K: usize> Logic for OutputRegisteredBanks<D, N, B, K> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, pending_valid, pending_bank, pending_address, pending_data, hit_q1, bank_q1, forward_q1, forward_q2);
        self.pending_valid.d.next = self.write_enable.val();
        self.pending_bank.d.next = self.write_bank.val();
        self.pending_address.d.next = self.write_address.val();
        self.pending_data.d.next = self.write_data.val();
        self.hit_q1.d.next = self.forwarding.val() & self.pending_valid.q.val() & (self.pending_address.q.val() == self.read_address.val());
        self.bank_q1.d.next = self.pending_bank.q.val();
        self.forward_q1.d.next = self.pending_data.q.val();
        self.forward_q2.d.next = self.forward_q1.q.val();
        for k in 0..B {
            self.ram[k].clock.next = self.clock.val();
            self.ram[k].write_address.next = self.pending_address.q.val();
            self.ram[k].write_data.next = self.pending_data.q.val();
            self.pending_write[k].clock.next = self.clock.val();
            self.pending_write[k].d.next = self.write_enable.val() & (self.write_bank.val() == k.to_bits::<K>());
            self.ram[k].write_enable.next = self.pending_write[k].q.val();
            self.ram[k].read_address.next = self.read_address.val();
            self.ram_data_q[k].clock.next = self.clock.val();
            self.ram_data_q[k].d.next = self.ram[k].read_data.val();
            self.hit_q2[k].clock.next = self.clock.val();
            self.hit_q2[k].d.next = self.hit_q1.q.val() & (self.bank_q1.q.val() == k.to_bits::<K>());
            // The output is assigned once (see `crate::forwarding_ram`).
            if self.hit_q2[k].q.val() {
                self.read_data[k].next = self.forward_q2.q.val();
            } else {
                self.read_data[k].next = self.ram_data_q[k].q.val();
            }
        }
    }
}
