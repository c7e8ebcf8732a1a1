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
//! A pause sent sets its pair's first due time a cycle later, from
//! registers, and the sweep holds its place and emits nothing in that
//! cycle (both write the due times), and in the cycle of and after a
//! configuration write (a re-send never mixes old and new registers). The
//! hold so comes from registers only: the pause, decided late in the
//! caller's cycle, does not reach the pair's address (the RAMs' read
//! address) in the same cycle. A pair read in its pause's own cycle is
//! held in stage 1 the cycle after and read again, with the write
//! forwarded; one read a cycle earlier still sees its Xoff clear.
//!
//! A re-send's due-time write lands a cycle after the re-send is decided
//! (stage 2), so that the port's timing words, read without the block
//! RAM's output register, only reach a register in stage 1. The write
//! waits while pauses are sent (they own the write port) and is dropped
//! when a pause rewrites the same pair. The sweep reads that pair again
//! only after a whole turn, so no read misses it: the due times seen are
//! those of a write in the re-send's own cycle.
//!
//! Parameters: `A`, address bits of the (port, pool) pairs (`A - 3` port
//! bits, 3 pool bits).
//!
//! Ports (all on `clock`):
//! * control: `reset` (restarts at pair 0, with the last pair in stage 1),
//!   `cfg_write` (a hold)
//! * pause sent, stage 1: `pause_valid`, `pause_address` (the pair),
//!   `pause_due_ns` (its first re-send); written, and held for, a cycle
//!   later
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
//!                                due, half pause ─► pending write ─►[s2] ─► due_ram <- due + half
//!                                a new pause's first due ─► due_ram (first claim on the port)
//! ```

use super::priority_group::PriorityGroup;
use crate::forwarding_ram::ForwardingRam;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
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
    /// A re-send's due-time write waits here (stage 2 on).
    pending_write: DFF<Bit>,
    pending_address: DFF<Bits<A>>,
    pending_due_ns: DFF<Bits<32>>,
    pending_half_pause_ns: DFF<Bits<32>>,
    /// The pair before pair 0: what stage 1 holds after a reset.
    last_pair: Constant<Bits<A>>,
    /// False only in the fault-injection build that loses a waiting write.
    keep_waiting_write: Constant<Bit>,
    hold: Signal<Local, Bit>,
    /// The pause sent in the cycle before, written now.
    pause_write: DFF<Bit>,
    pause_write_address: DFF<Bits<A>>,
    pause_write_due_ns: DFF<Bits<32>>,
    quantum_fraction: Signal<Local, Bits<32>>,
    full_pause_ns: Signal<Local, Bits<32>>,
    emit: Signal<Local, Bit>,
    pair_pool: Signal<Local, Bits<3>>,
}

impl<const A: usize> Default for ResendSweep<A> {
    fn default() -> Self {
        Self::new(true)
    }
}

impl<const A: usize> ResendSweep<A> {
    /// `keep_waiting_write` false builds the faulty sweep that forgets a
    /// re-send's due-time write when a pause takes the write port.
    pub fn new(keep_waiting_write: bool) -> Self {
        ResendSweep {
            clock: Default::default(),
            reset: Default::default(),
            cfg_write: Default::default(),
            pause_valid: Default::default(),
            pause_address: Default::default(),
            pause_due_ns: Default::default(),
            now_ns: Default::default(),
            pair_address: Default::default(),
            pair_xoff: Default::default(),
            pair_quantum_q16: Default::default(),
            pair_delay_ns: Default::default(),
            uet_policy: Default::default(),
            tc_pool: Default::default(),
            pfc_enabled: Default::default(),
            resend_valid: Default::default(),
            resend_port: Default::default(),
            resend_pool: Default::default(),
            resend_classes: Default::default(),
            resend_due_ns: Default::default(),
            due_ram: Default::default(),
            group: Default::default(),
            sweep_ptr: Default::default(),
            s1_pair_address: Default::default(),
            s1_pair_valid: Default::default(),
            cfg_write_q: Default::default(),
            s2_resend: Default::default(),
            s2_resend_port: Default::default(),
            s2_resend_pool: Default::default(),
            s2_resend_classes: Default::default(),
            s2_resend_due: Default::default(),
            pending_write: Default::default(),
            pending_address: Default::default(),
            pending_due_ns: Default::default(),
            pending_half_pause_ns: Default::default(),
            last_pair: Constant::new(Bits::<A>::mask()),
            keep_waiting_write: Constant::new(keep_waiting_write),
            hold: Default::default(),
            pause_write: Default::default(),
            pause_write_address: Default::default(),
            pause_write_due_ns: Default::default(),
            quantum_fraction: Default::default(),
            full_pause_ns: Default::default(),
            emit: Default::default(),
            pair_pool: Default::default(),
        }
    }
}

impl<const A: usize> Logic for ResendSweep<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sweep_ptr, s1_pair_address, s1_pair_valid, cfg_write_q,
            s2_resend, s2_resend_port, s2_resend_pool, s2_resend_classes, s2_resend_due,
            pending_write, pending_address, pending_due_ns, pending_half_pause_ns,
            pause_write, pause_write_address, pause_write_due_ns);
        self.pause_write.d.next = self.pause_valid.val() & !self.reset.val();
        self.pause_write_address.d.next = self.pause_address.val();
        self.pause_write_due_ns.d.next = self.pause_due_ns.val();
        self.hold.next = self.pause_write.q.val() | self.cfg_write.val() | self.cfg_write_q.q.val();
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
        // Stage 1 always holds the pair before the pointer's, so a held
        // re-read never meets a pair whose due write still waits.
        if self.reset.val() {
            self.s1_pair_address.d.next = self.last_pair.val();
        } else {
            self.s1_pair_address.d.next = self.pair_address.val();
        }
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
        // An emitted re-send's next due waits a cycle; a pause sent first
        // takes the port, and a pause to the same pair supersedes it.
        if self.emit.val() {
            self.pending_write.d.next = true;
            self.pending_address.d.next = self.s1_pair_address.q.val();
            self.pending_due_ns.d.next = self.due_ram.read_data.val();
            self.pending_half_pause_ns.d.next = self.full_pause_ns.val() >> 1;
        } else {
            self.pending_write.d.next = self.pending_write.q.val() & self.pause_write.q.val() & self.keep_waiting_write.val()
                & (self.pending_address.q.val() != self.pause_write_address.q.val());
        }
        self.due_ram.write_enable.next = self.pending_write.q.val() | self.pause_write.q.val();
        // Sub-block inputs are assigned once (see `crate::forwarding_ram`).
        if self.pause_write.q.val() {
            self.due_ram.write_address.next = self.pause_write_address.q.val();
            self.due_ram.write_data.next = self.pause_write_due_ns.q.val();
        } else {
            self.due_ram.write_address.next = self.pending_address.q.val();
            self.due_ram.write_data.next = self.pending_due_ns.q.val() + self.pending_half_pause_ns.q.val();
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
