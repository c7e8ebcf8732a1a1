//! A counter table whose read goes through the block RAM's output
//! register, for read-modify-write one step per cycle at a clock the RAM's
//! unregistered output (about 4 ns clock-to-out on ECP5) would not allow.
//!
//! Parameters: `D`, the word type; `N`, address bits (`2^N` words, all
//! zero from the bitstream on).
//!
//! Ports (all on `clock`):
//! * write: `write_address`, `write_data`, `write_enable`; with
//!   `write_alternate` the write goes to `alternate_address` instead. The
//!   choice may come late in the cycle: both addresses are compared with
//!   the read ahead of them in parallel, and the choice picks a result (the
//!   buffer manager sends a trimmed packet's write to pool 1 this way)
//! * read: `read_address` in cycle x -> `read_data` in cycle x + 2, with
//!   every write of cycles up to x + 1 in it
//!
//! Latency 2 cycles; one write and one read per cycle. The RAM reads first
//! at the end of cycle x, its output is registered at the end of x + 1 (a
//! fabric register: Yosys never sets the DP16KD's `REGMODE` to `OUTREG`),
//! so the writes at the ends of x and x + 1
//! are missed: the leaf keeps both (`forward_older`, `forward_newer`) and
//! answers with the newer one whose address matches.
//!
//! ```text
//!  read_address ─► RAM ─► ram_data_q ───────────────────────────────┐
//!        └─► address_q1 ── match this write? ─► hits_newer ─┐       │
//!                      └── match forward_newer? ─► hits_older ┐     │
//!  write ─► forward_newer ─► forward_older ───────────────────┴─► newer | older | ram_data_q ─► read_data
//! ```
//!
//! (`match this write?` is two compares, one per write address, and
//! `write_alternate` picks one.)

use crate::build_checks::zero_ram;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::RAM;

#[derive(LogicBlock)]
pub struct RegisteredForwardingRam<D: Synth, const N: usize> {
    pub clock: Signal<In, Clock>,
    // write port
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, Bit>,
    pub write_alternate: Signal<In, Bit>,
    pub alternate_address: Signal<In, Bits<N>>,
    // read port
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: Signal<Out, D>,
    ram: RAM<D, N>,
    ram_data_q: DFF<D>,
    address_q1: DFF<Bits<N>>,
    forward_newer_valid: DFF<Bit>,
    forward_newer_address: DFF<Bits<N>>,
    forward_newer_data: DFF<D>,
    forward_older_data: DFF<D>,
    /// Which forwarding register the read takes, decided a cycle ahead so
    /// that the answer is a multiplexer on registers.
    hits_newer: DFF<Bit>,
    hits_older: DFF<Bit>,
    written_address: Signal<Local, Bits<N>>,
    hits_write_address: Signal<Local, Bit>,
    hits_alternate_address: Signal<Local, Bit>,
    /// False only in the fault-injection build without the older forward.
    forward_older: Constant<Bit>,
}

impl<D: Synth, const N: usize> RegisteredForwardingRam<D, N> {
    /// The RAM without its older forwarding register: wrong on purpose,
    /// for fault-injection tests.
    pub fn without_older_forward() -> Self {
        RegisteredForwardingRam { forward_older: Constant::new(false), ..Default::default() }
    }
}

impl<D: Synth, const N: usize> Default for RegisteredForwardingRam<D, N> {
    fn default() -> Self {
        RegisteredForwardingRam {
            clock: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            write_alternate: Default::default(),
            alternate_address: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            ram: zero_ram(),
            ram_data_q: Default::default(),
            address_q1: Default::default(),
            forward_newer_valid: Default::default(),
            forward_newer_address: Default::default(),
            forward_newer_data: Default::default(),
            forward_older_data: Default::default(),
            hits_newer: Default::default(),
            hits_older: Default::default(),
            written_address: Default::default(),
            hits_write_address: Default::default(),
            hits_alternate_address: Default::default(),
            forward_older: Constant::new(true),
        }
    }
}

impl<D: Synth, const N: usize> Logic for RegisteredForwardingRam<D, N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ram_data_q, address_q1, forward_newer_valid, forward_newer_address, forward_newer_data,
            forward_older_data, hits_newer, hits_older);
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.written_address.next = self.write_address.val();
        if self.write_alternate.val() {
            self.written_address.next = self.alternate_address.val();
        }
        self.ram.write_address.next = self.written_address.val();
        self.ram.write_data.next = self.write_data.val();
        self.ram.write_enable.next = self.write_enable.val();
        self.ram.read_address.next = self.read_address.val();
        self.ram_data_q.d.next = self.ram.read_data.val();
        self.address_q1.d.next = self.read_address.val();
        self.forward_newer_valid.d.next = self.write_enable.val();
        self.forward_newer_address.d.next = self.written_address.val();
        self.forward_newer_data.d.next = self.write_data.val();
        self.forward_older_data.d.next = self.forward_newer_data.q.val();
        // Next cycle the newer register holds this cycle's write, the older
        // one what the newer holds now.
        self.hits_write_address.next = self.write_address.val() == self.address_q1.q.val();
        self.hits_alternate_address.next = self.alternate_address.val() == self.address_q1.q.val();
        self.hits_newer.d.next = self.write_enable.val() & self.hits_write_address.val();
        if self.write_alternate.val() {
            self.hits_newer.d.next = self.write_enable.val() & self.hits_alternate_address.val();
        }
        self.hits_older.d.next = self.forward_older.val() & self.forward_newer_valid.q.val()
            & (self.forward_newer_address.q.val() == self.address_q1.q.val());
        // The output is assigned once (see `crate::forwarding_ram`).
        if self.hits_newer.q.val() {
            self.read_data.next = self.forward_newer_data.q.val();
        } else if self.hits_older.q.val() {
            self.read_data.next = self.forward_older_data.q.val();
        } else {
            self.read_data.next = self.ram_data_q.q.val();
        }
    }
}
