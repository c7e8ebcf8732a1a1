//! A counter table for read-modify-write one step per cycle: a RAM whose
//! answer includes the write made in the cycle of the read, so that a
//! read right behind a write to the same word sees the new value.
//!
//! Parameters: `D`, the word type; `N`, address bits (`2^N` words, all
//! zero from the bitstream on).
//!
//! Ports (all on `clock`):
//! * write: `write_address`, `write_data`, `write_enable`
//! * read: `read_address` -> `read_data` one cycle later
//!
//! Latency 1 cycle; one write and one read per cycle. The RAM reads first
//! (old data) when one address is read and written at the same edge, so
//! the leaf keeps that write (`last_write_*`) and answers with it when the
//! registered read address matches.
//!
//! ```text
//!  write ──► RAM (read-first) ──► ram data ──────────────┐
//!    └────► last_write (valid, address, data) ─► address match? ─► read_data
//! ```

use crate::build_checks::zero_ram;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::RAM;

#[derive(LogicBlock)]
pub struct ForwardingRam<D: Synth, const N: usize> {
    pub clock: Signal<In, Clock>,
    // write port
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, Bit>,
    // read port
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: Signal<Out, D>,
    ram: RAM<D, N>,
    read_address_q: DFF<Bits<N>>,
    last_write_valid: DFF<Bit>,
    last_write_address: DFF<Bits<N>>,
    last_write_data: DFF<D>,
    /// The write of the read's cycle is for the word read.
    read_hits_last_write: Signal<Local, Bit>,
    /// False only in the fault-injection build without forwarding.
    forwarding: Constant<Bit>,
}

impl<D: Synth, const N: usize> Default for ForwardingRam<D, N> {
    fn default() -> Self {
        ForwardingRam {
            clock: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            ram: zero_ram(),
            read_address_q: Default::default(),
            last_write_valid: Default::default(),
            last_write_address: Default::default(),
            last_write_data: Default::default(),
            read_hits_last_write: Default::default(),
            forwarding: Constant::new(true),
        }
    }
}

impl<D: Synth, const N: usize> ForwardingRam<D, N> {
    /// The RAM without forwarding: wrong on purpose, for fault-injection tests.
    pub fn without_forwarding() -> Self {
        ForwardingRam { forwarding: Constant::new(false), ..Default::default() }
    }
}

impl<D: Synth, const N: usize> Logic for ForwardingRam<D, N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, read_address_q, last_write_valid, last_write_address, last_write_data);
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.ram.write_address.next = self.write_address.val();
        self.ram.write_data.next = self.write_data.val();
        self.ram.write_enable.next = self.write_enable.val();
        self.ram.read_address.next = self.read_address.val();
        self.read_address_q.d.next = self.read_address.val();
        self.last_write_valid.d.next = self.write_enable.val();
        self.last_write_address.d.next = self.write_address.val();
        self.last_write_data.d.next = self.write_data.val();
        // Each output is assigned once: an event-driven simulator (Icarus)
        // would otherwise see a default and an override as two changes.
        self.read_hits_last_write.next = self.forwarding.val() & self.last_write_valid.q.val() & (self.last_write_address.q.val() == self.read_address_q.q.val());
        if self.read_hits_last_write.val() {
            self.read_data.next = self.last_write_data.q.val();
        } else {
            self.read_data.next = self.ram.read_data.val();
        }
    }
}
