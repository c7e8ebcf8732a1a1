//! The pause re-send sweep: while a (port, pool) pair keeps its pause
//! (xoff), a new pause frame leaves every half full pause, from a sweep
//! rather than a sorted list.
//!
//! Each cycle the sweep looks at one pair, round robin over all `2^A`. A
//! paused pair whose due time has come (`due <= now_ns`) emits one
//! re-send and moves its due time on by half a full pause of its port:
//! `((65535 x quantum_q16) >> 16 + delay_ns) / 2`, with the product taken
//! as `quantum - ceil(quantum / 2^16)`. A pause the switch sends sets the
//! pair's first due time (`pause_due_ns`, from the caller). So at most one
//! re-send leaves per cycle and none is lost when many fall due together.
//!
//! The sweep holds its place and emits nothing while a pause is sent (both
//! write the due times) and in the cycle of and after a configuration
//! write (a re-send never mixes old and new registers).
//!
//! Parameters: `A`, address bits of the (port, pool) pairs (`A - 3` port
//! bits, 3 pool bits).
//!
//! Ports (all on `clock`):
//! * control: `reset` (restarts at pair 0), `cfg_write` (a hold)
//! * pause sent, stage 1: `pause_valid`, `pause_address` (the pair),
//!   `pause_due_ns` (its first re-send)
//! * time: `now_ns` (stage 0)
//! * pair state: `pair_address` (stage 0, for the caller's xoff and
//!   per-port timing RAMs) -> `pair_xoff` (forwarded), `pair_quantum_q16`,
//!   `pair_delay_ns` in stage 1
//! * configuration: `uet_policy`, `tc_pool`, `pfc_enabled` (the pair's
//!   classes)
//! * re-send (stage 2): `resend_valid`, `resend_port`, `resend_pool`,
//!   `resend_classes`, `resend_due_ns` (when it fell due)
//!
//! Latency 2 cycles from the pair's turn to its re-send; one pair per
//! cycle, so a pair is seen every `2^A` cycles plus holds.
//!
//! ```text
//!  sweep_ptr ─► pair_address ─► due_ram (forwarding), caller's xoff/timing ─►[s1]
//!     +1 unless held             xoff & due <= now ─► re-send ─►[s2]
//!                                └─ due_ram <- due + half pause (or a new pause's first due)
//! ```

use super::priority_group::PriorityGroup;
use crate::forwarding_ram::ForwardingRam;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ResendSweep<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_write: Signal<In, Bit>,
    // pause sent (stage 1)
    pub pause_valid: Signal<In, Bit>,
    pub pause_address: Signal<In, Bits<A>>,
    pub pause_due_ns: Signal<In, Bits<32>>,
    // time (stage 0)
    pub now_ns: Signal<In, Bits<32>>,
    // pair state
    pub pair_address: Signal<Out, Bits<A>>,
    pub pair_xoff: Signal<In, Bit>,
    pub pair_quantum_q16: Signal<In, Bits<32>>,
    pub pair_delay_ns: Signal<In, Bits<32>>,
    // configuration
    pub uet_policy: Signal<In, Bit>,
    pub tc_pool: Signal<In, Bits<24>>,
    pub pfc_enabled: Signal<In, Bits<8>>,
    // re-send channel
    pub resend_valid: Signal<Out, Bit>,
    pub resend_port: Signal<Out, Bits<8>>,
    pub resend_pool: Signal<Out, Bits<3>>,
    pub resend_classes: Signal<Out, Bits<8>>,
    pub resend_due_ns: Signal<Out, Bits<32>>,
    /// The next re-send's due time of each pair.
    due_ram: ForwardingRam<Bits<32>, A>,
    group: PriorityGroup,
    sweep_ptr: DFF<Bits<A>>,
    s1_pair_address: DFF<Bits<A>>,
    s1_pair_valid: DFF<Bit>,
    cfg_write_q: DFF<Bit>,
    s2_resend: DFF<Bit>,
    s2_resend_port: DFF<Bits<8>>,
    s2_resend_pool: DFF<Bits<3>>,
    s2_resend_classes: DFF<Bits<8>>,
    s2_resend_due: DFF<Bits<32>>,
    hold: Signal<Local, Bit>,
    pause_write: Signal<Local, Bit>,
    quantum_fraction: Signal<Local, Bits<32>>,
    full_pause_ns: Signal<Local, Bits<32>>,
    emit: Signal<Local, Bit>,
    pair_pool: Signal<Local, Bits<3>>,
}

impl<const A: usize> Logic for ResendSweep<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sweep_ptr, s1_pair_address, s1_pair_valid, cfg_write_q,
            s2_resend, s2_resend_port, s2_resend_pool, s2_resend_classes, s2_resend_due);
        self.pause_write.next = self.pause_valid.val() & !self.reset.val();
        self.hold.next = self.pause_write.val() | self.cfg_write.val() | self.cfg_write_q.q.val();
        self.cfg_write_q.d.next = self.cfg_write.val();
        // Stage 0: the pair whose turn it is (the same again while held).
        // Each output is assigned once (see `crate::forwarding_ram`).
        if self.hold.val() {
            self.pair_address.next = self.s1_pair_address.q.val();
        } else {
            self.pair_address.next = self.sweep_ptr.q.val();
        }
        self.sweep_ptr.d.next = self.sweep_ptr.q.val() + 1;
        if self.hold.val() {
            self.sweep_ptr.d.next = self.sweep_ptr.q.val();
        }
        if self.reset.val() {
            self.sweep_ptr.d.next = 0.into();
        }
        self.s1_pair_address.d.next = self.pair_address.val();
        self.s1_pair_valid.d.next = !self.reset.val();
        self.due_ram.clock.next = self.clock.val();
        self.due_ram.read_address.next = self.pair_address.val();
        // Stage 1: paused and due?
        self.quantum_fraction.next = 0.into();
        if self.pair_quantum_q16.val().get_bits::<16>(0) != 0 {
            self.quantum_fraction.next = 1.into();
        }
        self.full_pause_ns.next = self.pair_quantum_q16.val() - (self.pair_quantum_q16.val() >> 16)
            - self.quantum_fraction.val() + self.pair_delay_ns.val();
        self.emit.next = self.s1_pair_valid.q.val() & !self.hold.val() & !self.reset.val() & self.pair_xoff.val()
            & (self.due_ram.read_data.val() <= self.now_ns.val());
        self.pair_pool.next = bit_cast::<3, A>(self.s1_pair_address.q.val());
        self.group.pool.next = self.pair_pool.val();
        self.group.uet_policy.next = self.uet_policy.val();
        self.group.tc_pool.next = self.tc_pool.val();
        self.group.pfc_enabled.next = self.pfc_enabled.val();
        // A new pause sets the first re-send; an emitted re-send the next.
        self.due_ram.write_enable.next = self.emit.val() | self.pause_write.val();
        // Sub-block inputs are assigned once (see `crate::forwarding_ram`).
        if self.pause_write.val() {
            self.due_ram.write_address.next = self.pause_address.val();
            self.due_ram.write_data.next = self.pause_due_ns.val();
        } else {
            self.due_ram.write_address.next = self.s1_pair_address.q.val();
            self.due_ram.write_data.next = self.due_ram.read_data.val() + (self.full_pause_ns.val() >> 1);
        }
        self.s2_resend.d.next = self.emit.val();
        self.s2_resend_port.d.next = bit_cast::<8, A>(self.s1_pair_address.q.val() >> 3);
        self.s2_resend_pool.d.next = self.pair_pool.val();
        self.s2_resend_classes.d.next = self.group.classes.val();
        self.s2_resend_due.d.next = self.due_ram.read_data.val();
        self.resend_valid.next = self.s2_resend.q.val();
        self.resend_port.next = self.s2_resend_port.q.val();
        self.resend_pool.next = self.s2_resend_pool.q.val();
        self.resend_classes.next = self.s2_resend_classes.q.val();
        self.resend_due_ns.next = self.s2_resend_due.q.val();
    }
}
