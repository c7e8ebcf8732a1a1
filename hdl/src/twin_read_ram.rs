//! A RAM with one write port and two read ports, for a table that two
//! parts of a block read in the same cycle (an event and a second counter,
//! a sweep or a query): two RAMs with the same contents, always written
//! together, each serving one read port.
//!
//! Parameters: `D`, the word type; `N`, address bits (`2^N` words, all
//! zero from the bitstream on).
//!
//! Ports (all on `clock`):
//! * write: `write_address`, `write_data`, `write_enable`
//! * read A: `read_address_a` -> `read_data_a`
//! * read B: `read_address_b` -> `read_data_b`
//!
//! Latency 1 cycle per read, read-first: a read of the address written at
//! the same edge returns the old word (the user forwards the new one).
//! One write and two reads per cycle.
//!
//! ```text
//!  write ──┬─► copy_a ──► read_data_a   (read_address_a)
//!          └─► copy_b ──► read_data_b   (read_address_b)
//! ```

use crate::build_checks::zero_ram;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::RAM;

#[derive(LogicBlock)]
pub struct TwinReadRam<D: Synth, const N: usize> {
    pub clock: Signal<In, Clock>,
    // write port
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, Bit>,
    // read port A
    pub read_address_a: Signal<In, Bits<N>>,
    pub read_data_a: Signal<Out, D>,
    // read port B
    pub read_address_b: Signal<In, Bits<N>>,
    pub read_data_b: Signal<Out, D>,
    copy_a: RAM<D, N>,
    copy_b: RAM<D, N>,
}

impl<D: Synth, const N: usize> Default for TwinReadRam<D, N> {
    fn default() -> Self {
        TwinReadRam {
            clock: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            read_address_a: Default::default(),
            read_data_a: Default::default(),
            read_address_b: Default::default(),
            read_data_b: Default::default(),
            copy_a: zero_ram(),
            copy_b: zero_ram(),
        }
    }
}

impl<D: Synth, const N: usize> Logic for TwinReadRam<D, N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.copy_a.read_clock.next = self.clock.val();
        self.copy_a.write_clock.next = self.clock.val();
        self.copy_b.read_clock.next = self.clock.val();
        self.copy_b.write_clock.next = self.clock.val();
        self.copy_a.write_address.next = self.write_address.val();
        self.copy_b.write_address.next = self.write_address.val();
        self.copy_a.write_data.next = self.write_data.val();
        self.copy_b.write_data.next = self.write_data.val();
        self.copy_a.write_enable.next = self.write_enable.val();
        self.copy_b.write_enable.next = self.write_enable.val();
        self.copy_a.read_address.next = self.read_address_a.val();
        self.copy_b.read_address.next = self.read_address_b.val();
        self.read_data_a.next = self.copy_a.read_data.val();
        self.read_data_b.next = self.copy_b.read_data.val();
    }
}
