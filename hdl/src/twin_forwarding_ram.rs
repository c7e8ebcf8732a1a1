//! A [`ForwardingRam`] with two read ports: two halves with the same
//! contents, always written together, each serving one reader (an event's
//! counter and a second counter, the re-send sweep or the query channel).
//!
//! Parameters: `D`, the word type; `N`, address bits.
//!
//! Ports (all on `clock`):
//! * write: `write_address`, `write_data`, `write_enable`
//! * read A: `read_address_a` -> `read_data_a` one cycle later
//! * read B: `read_address_b` -> `read_data_b` one cycle later
//!
//! Latency 1 cycle per read, each answer including the write of the
//! read's cycle; one write and two reads per cycle.
//!
//! ```text
//!  write ──┬─► half_a (ForwardingRam) ──► read_data_a
//!          └─► half_b (ForwardingRam) ──► read_data_b
//! ```

use crate::forwarding_ram::ForwardingRam;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct TwinForwardingRam<D: Synth, const N: usize> {
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
    half_a: ForwardingRam<D, N>,
    half_b: ForwardingRam<D, N>,
}

impl<D: Synth, const N: usize> TwinForwardingRam<D, N> {
    /// Both halves without forwarding: wrong on purpose, for fault-injection tests.
    pub fn without_forwarding() -> Self {
        TwinForwardingRam { half_a: ForwardingRam::without_forwarding(), half_b: ForwardingRam::without_forwarding(), ..Default::default() }
    }
}

impl<D: Synth, const N: usize> Logic for TwinForwardingRam<D, N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.half_a.clock.next = self.clock.val();
        self.half_b.clock.next = self.clock.val();
        self.half_a.write_address.next = self.write_address.val();
        self.half_b.write_address.next = self.write_address.val();
        self.half_a.write_data.next = self.write_data.val();
        self.half_b.write_data.next = self.write_data.val();
        self.half_a.write_enable.next = self.write_enable.val();
        self.half_b.write_enable.next = self.write_enable.val();
        self.half_a.read_address.next = self.read_address_a.val();
        self.half_b.read_address.next = self.read_address_b.val();
        self.read_data_a.next = self.half_a.read_data.val();
        self.read_data_b.next = self.half_b.read_data.val();
    }
}
