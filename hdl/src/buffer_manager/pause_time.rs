//! How long a pause lasts: `pause_ns = ((q x quantum_q16) >> 16) +
//! delay_ns` for a pause of q quanta on a port whose time per quantum is
//! `quantum_q16` (Q16.16 ns) and whose link delay is `delay_ns`; 0 when
//! q = 0 (a received frame that resumes at once). A pause the switch sends
//! itself is given 65535 quanta. All in 32 bits, wrapping like every time
//! the buffer manager handles.
//!
//! The buffer manager works it out one stage ahead of the decision, from
//! the port timing RAMs read in the stage before, so that the decision
//! stage only adds it to the time (the pause deadlines, the first re-send)
//! instead of multiplying there.
//!
//! Ports (all on `clock`):
//! * pause, stage C2: `quanta`, `quantum_q16`, `delay_ns` (the event's
//!   port)
//! * length, stage D: `pause_ns`
//!
//! Latency 1 cycle; one pause per cycle. Two MULT18X18D (the quantum's
//! high and low halves); the three words are summed carry-save, so one
//! carry chain follows the multiplies instead of two.
//!
//! ```text
//!  quanta x quantum_hi ─┐
//!  quanta x quantum_lo >> 16 ─┼─► carry-save ─► + ─► 0 if quanta = 0 ─►[D] pause_ns
//!  delay ─────────────────────┘
//! ```

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct PauseTime {
    pub clock: Signal<In, Clock>,
    // pause (stage C2)
    pub quanta: Signal<In, Bits<16>>,
    pub quantum_q16: Signal<In, Bits<32>>,
    pub delay_ns: Signal<In, Bits<32>>,
    // length (stage D)
    pub pause_ns: Signal<Out, Bits<32>>,
    quantum_hi: Signal<Local, Bits<16>>,
    quantum_lo: Signal<Local, Bits<16>>,
    hi_product: Signal<Local, Bits<32>>,
    lo_product: Signal<Local, Bits<32>>,
    lo_shifted: Signal<Local, Bits<32>>,
    /// The carry-save form of `hi + lo >> 16 + delay`: sum and carry words.
    save_sum: Signal<Local, Bits<32>>,
    save_carry: Signal<Local, Bits<32>>,
    length_ns: Signal<Local, Bits<32>>,
    length_reg: DFF<Bits<32>>,
}

impl Logic for PauseTime {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, length_reg);
        self.quantum_hi.next = self.quantum_q16.val().get_bits::<16>(16);
        self.quantum_lo.next = self.quantum_q16.val().get_bits::<16>(0);
        self.hi_product.next = self.quanta.val() * self.quantum_hi.val();
        self.lo_product.next = self.quanta.val() * self.quantum_lo.val();
        self.lo_shifted.next = self.lo_product.val() >> 16;
        self.save_sum.next = self.hi_product.val() ^ self.lo_shifted.val() ^ self.delay_ns.val();
        self.save_carry.next = ((self.hi_product.val() & self.lo_shifted.val())
            | (self.hi_product.val() & self.delay_ns.val())
            | (self.lo_shifted.val() & self.delay_ns.val())) << 1;
        self.length_ns.next = 0.into();
        if self.quanta.val() != 0 {
            self.length_ns.next = self.save_sum.val() + self.save_carry.val();
        }
        self.length_reg.d.next = self.length_ns.val();
        self.pause_ns.next = self.length_reg.q.val();
    }
}
