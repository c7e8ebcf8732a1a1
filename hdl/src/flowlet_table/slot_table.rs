//! The flow slots: for each (table, flow hash & 511) a valid bit, the
//! member, and the time of the last egress-admitted packet; the age
//! check against the gap; and the sweep that clears them.
//!
//! Parameters: `T`, slot address bits (9 per table: `2^(T-9)` tables).
//!
//! Ports (all on `clock`):
//! * control: `reset` (restarts the sweep)
//! * sweep: `ready` (low while the sweep clears slot `sweep_address`, one
//!   per cycle, 2^T cycles after power-up or reset)
//! * read: `read_address` and `now_ns_low`/`now_ns_high` in cycle 1 ->
//!   `slot_valid`, `slot_member` (6 bits), `expired` in cycle 6 ([`ANSWER`])
//! * gap: `gap_ns` (32 bits, ns), a register
//! * commit: `commit_valid`, `commit_address`, `commit_member`,
//!   `commit_ns_low`/`commit_ns_high` in cycle c; written at the end of
//!   c + 3, so the read of a select given in cycle c (which the top block
//!   gives in c + 3) misses it and every later read sees it. Commits while
//!   the sweep runs are dropped.
//!
//! Expired: the slot is empty, the gap is 0, or `now - last >= gap` with
//! `now >= last` (time is 50 bits of ns, kept as two 25-bit halves).
//!
//! Storage: `meta_ram` (valid, member, time bits 49..25) and `time_ram`
//! (time bits 24..0), not initialised: the sweep clears them. Both are
//! [`OutputRegisteredRam`]s: their data leaves the RAM's own register
//! (moved into the DP16KD by `sswitch synth`), passes the leaf's
//! read-first forwarding and is registered again in the fabric (`s4_*`)
//! before the age check, which would otherwise start with the route out
//! of the block RAM column (2.8 ns on the LFE5U-85F). The high half's
//! difference is computed with and without the low half's borrow side by
//! side, and the borrow picks one.
//!
//! ```text
//!  read_address ─► meta_ram, time_ram (output registered) ─► [s4] ─► now - last (halves) ─►[s5]─► >= gap? ─►[s6] expired
//!  commit ─► [3 cycles] ─► write ◄── sweep (zeros) while !ready
//! ```

use rust_hdl::prelude::*;
use crate::output_registered_ram::OutputRegisteredRam;

/// Cycle (counted from the read's cycle 0, so `read_address` is given in 1)
/// at which `slot_valid`, `slot_member` and `expired` answer.
pub const ANSWER: usize = 6;

/// Bits of each half of a time in ns (50 bits cover 10^15 ns).
pub const TIME_HALF_BITS: usize = 25;
/// `meta_ram` layout: the slot holds a member.
pub const META_VALID: usize = 31;
/// `meta_ram` layout: the member in bits 30..25, the time's upper half below.
pub const META_MEMBER: usize = 25;

// rust_hdl writes a Rust constant inside a kernel as a bare Verilog name,
// so the kernel spells these positions as literals; the asserts keep them
// equal to the named constants.
const _: () = assert!(META_VALID == 31 && META_MEMBER == 25 && TIME_HALF_BITS == 25);

#[derive(LogicBlock, Default)]
pub struct SlotTable<const T: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // sweep
    pub ready: Signal<Out, Bit>,
    pub sweep_address: Signal<Out, Bits<T>>,
    // read
    pub read_address: Signal<In, Bits<T>>,
    pub now_ns_low: Signal<In, Bits<TIME_HALF_BITS>>,
    pub now_ns_high: Signal<In, Bits<TIME_HALF_BITS>>,
    pub slot_valid: Signal<Out, Bit>,
    pub slot_member: Signal<Out, Bits<6>>,
    pub expired: Signal<Out, Bit>,
    // gap
    pub gap_ns: Signal<In, Bits<32>>,
    // commit
    pub commit_valid: Signal<In, Bit>,
    pub commit_address: Signal<In, Bits<T>>,
    pub commit_member: Signal<In, Bits<6>>,
    pub commit_ns_low: Signal<In, Bits<TIME_HALF_BITS>>,
    pub commit_ns_high: Signal<In, Bits<TIME_HALF_BITS>>,
    meta_ram: OutputRegisteredRam<Bits<32>, T>,
    time_ram: OutputRegisteredRam<Bits<TIME_HALF_BITS>, T>,
    // the sweep
    swept: DFF<Bit>,
    sweep_next: DFF<Bits<T>>,
    // the commit, one, two and three cycles later
    c_valid: DFF<Bit>,
    c_address: DFF<Bits<T>>,
    c_member: DFF<Bits<6>>,
    c_ns_low: DFF<Bits<TIME_HALF_BITS>>,
    c_ns_high: DFF<Bits<TIME_HALF_BITS>>,
    cc_valid: DFF<Bit>,
    cc_address: DFF<Bits<T>>,
    cc_member: DFF<Bits<6>>,
    cc_ns_low: DFF<Bits<TIME_HALF_BITS>>,
    cc_ns_high: DFF<Bits<TIME_HALF_BITS>>,
    w_valid: DFF<Bit>,
    w_address: DFF<Bits<T>>,
    w_member: DFF<Bits<6>>,
    w_ns_low: DFF<Bits<TIME_HALF_BITS>>,
    w_ns_high: DFF<Bits<TIME_HALF_BITS>>,
    // cycle 2: now, while the RAMs answer
    s2_now_low: DFF<Bits<TIME_HALF_BITS>>,
    s2_now_high: DFF<Bits<TIME_HALF_BITS>>,
    // cycle 3: the RAMs' data (registered inside them, forwarding included)
    s3_meta: Signal<Local, Bits<32>>,
    s3_time_low: Signal<Local, Bits<TIME_HALF_BITS>>,
    s3_now_low: DFF<Bits<TIME_HALF_BITS>>,
    s3_now_high: DFF<Bits<TIME_HALF_BITS>>,
    // cycle 4: the RAMs' data registered again in the fabric (the RAMs'
    // own registers sit in the block RAM column, far from the age check)
    s4_meta: DFF<Bits<32>>,
    s4_time_low: DFF<Bits<TIME_HALF_BITS>>,
    s4_now_low: DFF<Bits<TIME_HALF_BITS>>,
    s4_now_high: DFF<Bits<TIME_HALF_BITS>>,
    // cycle 5: the differences
    s5_valid: DFF<Bit>,
    s5_member: DFF<Bits<6>>,
    s5_not_before: DFF<Bit>,
    s5_diff_low: DFF<Bits<TIME_HALF_BITS>>,
    s5_diff_high: DFF<Bits<TIME_HALF_BITS>>,
    // cycle 6: the answer
    s6_valid: DFF<Bit>,
    s6_member: DFF<Bits<6>>,
    s6_expired: DFF<Bit>,
    low_difference: Signal<Local, Bits<32>>,
    high_minuend: Signal<Local, Bits<32>>,
    high_minuend_less_one: Signal<Local, Bits<32>>,
    last_high_complement: Signal<Local, Bits<TIME_HALF_BITS>>,
    high_difference: Signal<Local, Bits<32>>,
    gap_low: Signal<Local, Bits<TIME_HALF_BITS>>,
    gap_high: Signal<Local, Bits<TIME_HALF_BITS>>,
    at_least_gap: Signal<Local, Bit>,
}

impl<const T: usize> Logic for SlotTable<T> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, swept, sweep_next, c_valid, c_address, c_member, c_ns_low, c_ns_high,
            cc_valid, cc_address, cc_member, cc_ns_low, cc_ns_high, w_valid, w_address, w_member, w_ns_low, w_ns_high,
            s2_now_low, s2_now_high, s3_now_low, s3_now_high, s4_meta, s4_time_low, s4_now_low, s4_now_high,
            s5_valid, s5_member, s5_not_before, s5_diff_low, s5_diff_high, s6_valid, s6_member, s6_expired);
        self.meta_ram.clock.next = self.clock.val();
        self.time_ram.clock.next = self.clock.val();
        // the sweep: one slot per cycle until every slot is clear
        self.ready.next = self.swept.q.val();
        self.sweep_address.next = self.sweep_next.q.val();
        if !self.swept.q.val() {
            self.sweep_next.d.next = self.sweep_next.q.val() + 1;
            if self.sweep_next.q.val().all() {
                self.swept.d.next = true;
            }
        }
        if self.reset.val() {
            self.swept.d.next = false;
            self.sweep_next.d.next = 0.into();
        }
        // the write: the commit given three cycles ago, or the sweep
        self.c_valid.d.next = self.commit_valid.val() & self.swept.q.val() & !self.reset.val();
        self.c_address.d.next = self.commit_address.val();
        self.c_member.d.next = self.commit_member.val();
        self.c_ns_low.d.next = self.commit_ns_low.val();
        self.c_ns_high.d.next = self.commit_ns_high.val();
        self.cc_valid.d.next = self.c_valid.q.val() & self.swept.q.val() & !self.reset.val();
        self.cc_address.d.next = self.c_address.q.val();
        self.cc_member.d.next = self.c_member.q.val();
        self.cc_ns_low.d.next = self.c_ns_low.q.val();
        self.cc_ns_high.d.next = self.c_ns_high.q.val();
        self.w_valid.d.next = self.cc_valid.q.val() & self.swept.q.val() & !self.reset.val();
        self.w_address.d.next = self.cc_address.q.val();
        self.w_member.d.next = self.cc_member.q.val();
        self.w_ns_low.d.next = self.cc_ns_low.q.val();
        self.w_ns_high.d.next = self.cc_ns_high.q.val();
        if self.swept.q.val() {
            self.meta_ram.write_address.next = self.w_address.q.val();
            self.meta_ram.write_data.next = (bit_cast::<32, 1>(1.into()) << 31)
                | (bit_cast::<32, 6>(self.w_member.q.val()) << 25)
                | bit_cast::<32, TIME_HALF_BITS>(self.w_ns_high.q.val());
            self.meta_ram.write_enable.next = self.w_valid.q.val();
            self.time_ram.write_address.next = self.w_address.q.val();
            self.time_ram.write_data.next = self.w_ns_low.q.val();
            self.time_ram.write_enable.next = self.w_valid.q.val();
        } else {
            self.meta_ram.write_address.next = self.sweep_next.q.val();
            self.meta_ram.write_data.next = 0.into();
            self.meta_ram.write_enable.next = true;
            self.time_ram.write_address.next = self.sweep_next.q.val();
            self.time_ram.write_data.next = 0.into();
            self.time_ram.write_enable.next = true;
        }
        // cycle 1: read
        self.meta_ram.read_address.next = self.read_address.val();
        self.time_ram.read_address.next = self.read_address.val();
        self.s2_now_low.d.next = self.now_ns_low.val();
        self.s2_now_high.d.next = self.now_ns_high.val();
        // cycle 2: the RAMs answer, into their output registers
        self.s3_meta.next = self.meta_ram.read_data.val();
        self.s3_time_low.next = self.time_ram.read_data.val();
        self.s3_now_low.d.next = self.s2_now_low.q.val();
        self.s3_now_high.d.next = self.s2_now_high.q.val();
        // cycle 3: the RAMs' answer (forwarding included) into the fabric
        self.s4_meta.d.next = self.s3_meta.val();
        self.s4_time_low.d.next = self.s3_time_low.val();
        self.s4_now_low.d.next = self.s3_now_low.q.val();
        self.s4_now_high.d.next = self.s3_now_high.q.val();
        // cycle 4: now - last, the low half's borrow choosing between the
        // high half's two differences (- last, - last - 1: now + !last)
        self.low_difference.next = (bit_cast::<32, TIME_HALF_BITS>(self.s4_now_low.q.val()) | (bit_cast::<32, 1>(1.into()) << 25))
            - bit_cast::<32, TIME_HALF_BITS>(self.s4_time_low.q.val());
        self.high_minuend.next = (bit_cast::<32, TIME_HALF_BITS>(self.s4_now_high.q.val()) | (bit_cast::<32, 1>(1.into()) << 25))
            - bit_cast::<32, TIME_HALF_BITS>(bit_cast::<TIME_HALF_BITS, _>(self.s4_meta.q.val()));
        // (a signal of its own: Verilog would widen `last` before inverting it)
        self.last_high_complement.next = !bit_cast::<TIME_HALF_BITS, _>(self.s4_meta.q.val());
        self.high_minuend_less_one.next = bit_cast::<32, TIME_HALF_BITS>(self.s4_now_high.q.val())
            + bit_cast::<32, TIME_HALF_BITS>(self.last_high_complement.val());
        if self.low_difference.val().get_bit(25) {
            self.high_difference.next = self.high_minuend.val();
        } else {
            self.high_difference.next = self.high_minuend_less_one.val();
        }
        self.s5_valid.d.next = self.s4_meta.q.val().get_bit(31);
        self.s5_member.d.next = self.s4_meta.q.val().get_bits::<6>(25);
        self.s5_not_before.d.next = self.high_difference.val().get_bit(25);
        self.s5_diff_low.d.next = bit_cast::<TIME_HALF_BITS, _>(self.low_difference.val());
        self.s5_diff_high.d.next = bit_cast::<TIME_HALF_BITS, _>(self.high_difference.val());
        // cycle 5: against the gap
        self.gap_low.next = bit_cast::<TIME_HALF_BITS, _>(self.gap_ns.val());
        self.gap_high.next = bit_cast::<TIME_HALF_BITS, 7>(self.gap_ns.val().get_bits::<7>(25));
        self.at_least_gap.next = (self.s5_diff_high.q.val() > self.gap_high.val())
            | ((self.s5_diff_high.q.val() == self.gap_high.val()) & (self.s5_diff_low.q.val() >= self.gap_low.val()));
        self.s6_valid.d.next = self.s5_valid.q.val();
        self.s6_member.d.next = self.s5_member.q.val();
        self.s6_expired.d.next = !self.s5_valid.q.val() | (self.gap_ns.val() == 0) | (self.s5_not_before.q.val() & self.at_least_gap.val());
        self.slot_valid.next = self.s6_valid.q.val();
        self.slot_member.next = self.s6_member.q.val();
        self.expired.next = self.s6_expired.q.val();
    }
}
