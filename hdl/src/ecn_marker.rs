//! ECN marker block: the moving average of every (egress port, pool)
//! queue in block RAM, updated at egress admission, and the RED-style
//! marking decision at transmission start. Bit-exact with
//! `reference::ecn_marker` (formats documented there).
//!
//! Parameters: `A`, the RAM address width in bits: `A - 3` bits of port
//! and 3 of pool, so up to `2^(A-3)` ports. [`EcnMarker::new`] checks the
//! port count against it.
//!
//! Ports, by channel (all synchronous to `clock`):
//! * control: `reset` (synchronous; cancels the operations in flight,
//!   keeps the averages, registers and draw state)
//! * configuration: `cfg_write`, `cfg_address` (8 bits), `cfg_data` (32)
//! * event (one per clock): `op_update` (admission: fold `queue_bytes`,
//!   bytes, into the average) or `op_decide` (transmission start of a
//!   packet, `ect` set when it is ECT(0)/ECT(1)), with `queue_port`
//!   (8 bits) and `queue_pool` (3 bits)
//! * result: `update_valid` with `mean_bytes` (the new average);
//!   `decision_valid` with `marked` (and `mean_bytes`, the average used)
//!
//! Latency 5 cycles ([`LATENCY`]), throughput one event per cycle,
//! including back to back on one queue. A reset cancels the events of its
//! own cycle and of the [`CANCEL_WINDOW`] cycles before it.
//!
//! ```text
//!  event ─►[s1] RAM read ─►[s2] RAM data registered, queue x w terms
//!           │                 mean_now = forward1 | forward2 | RAM data
//!           │                 update: EWMA step ─► RAM write, forward1 (forward2 <- forward1)
//!           └──────────────►[s3] mean; band of the pool; draw (xorshift32)
//!                           [s4] comparison operands ─► draw x range < maxp x delta
//!                           [s5] result
//! ```
//!
//! Hazards: the RAM's data, registered one stage after the read, is two
//! cycles old when stage 2 uses it. The two EWMA steps before it may have
//! written the same queue since, so their results are kept in `forward1`
//! (last cycle's step) and `forward2` (the one before) and used instead,
//! the latest first. Whether the queue matches is decided one stage early
//! (`s2_matches_forward1/2`), so the loop through the forwarding registers
//! holds no comparator. [`EcnMarker::without_second_forwarding`] leaves
//! `forward2` out, and the co-simulation must catch it.
//!
//! Fmax and size (16 ports, LFE5U-85F, out of context, seed 1, Yosys 0.23,
//! nextpnr-ecp5 0.11): 96.6 MHz at speed 8, 74.7 MHz at speed 6; 2,224
//! LUT4, 1,067 FF, 1 DP16KD, 6 MULT18X18D, 128 CCU2C; at 128 ports 93.2 and
//! 70.8 MHz, 2 DP16KD. The limit is the EWMA loop itself (10.4 ns:
//! forwarding mux, a 16x16 multiply, a carry-save level, one 48-bit carry
//! chain, back to the mux), which must close in one cycle for updates back to back on one
//! queue. The MULT18X18D alone takes 3.1 ns, and about 2 ns of routing in
//! and out (speed 8). A bit-exact look-ahead over two updates exists, with
//! A = 65536 - w: `m2 = (m0 A^2 + q1 w A - r1 A + q2 w 2^16) >> 32`, where
//! r1 = `(m0 A + q1 w) mod 2^16` is the first step's remainder (it needs
//! only m0's low 16 bits; `reference::ecn_marker`'s test
//! `the_two_step_look_ahead_is_bit_exact` checks it). But `r1 A` is a multiply after a multiply, so
//! the two-cycle loop would still hold a multiply and a four-term sum of
//! 66 bits: no faster than the one-cycle loop.

use reference::lfsr::ZERO_SEED_REPLACEMENT;
use reference::register_map::{ECN_BAND_BASE, ECN_ENABLE, ECN_MAX_PROB, ECN_SEED, ECN_WEIGHT};
use rust_hdl::prelude::*;
use crate::build_checks::{c8, check_ports, zero_ram, BuildError};
use rust_hdl::widgets::prelude::RAM;

/// Pipeline latency from an event to its result, in cycles.
pub const LATENCY: usize = 5;

/// A reset cancels the operations given in its own cycle and in the
/// `CANCEL_WINDOW` cycles before it (those that have not written the RAM).
pub const CANCEL_WINDOW: usize = 2;

#[derive(LogicBlock)]
pub struct EcnMarker<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // configuration channel
    pub cfg_write: Signal<In, Bit>,
    pub cfg_address: Signal<In, Bits<8>>,
    pub cfg_data: Signal<In, Bits<32>>,
    // event channel
    pub op_update: Signal<In, Bit>,
    pub op_decide: Signal<In, Bit>,
    pub queue_port: Signal<In, Bits<8>>,
    pub queue_pool: Signal<In, Bits<3>>,
    pub queue_bytes: Signal<In, Bits<32>>,
    pub ect: Signal<In, Bit>,
    // result channel
    pub update_valid: Signal<Out, Bit>,
    pub decision_valid: Signal<Out, Bit>,
    pub marked: Signal<Out, Bit>,
    pub mean_bytes: Signal<Out, Bits<32>>,
    // registers
    ecn_enable: DFF<Bit>,
    weight_q16: DFF<Bits<17>>,
    max_prob_q16: DFF<Bits<16>>,
    draw_state: DFF<Bits<32>>,
    band_min: [DFF<Bits<32>>; 8],
    band_max: [DFF<Bits<32>>; 8],
    band_shift: [DFF<Bits<5>>; 8],
    // storage: one average per (port, pool)
    mean_ram: RAM<Bits<32>, A>,
    // stage 1: the event, while the RAM reads
    s1_update: DFF<Bit>,
    s1_decide: DFF<Bit>,
    s1_address: DFF<Bits<A>>,
    s1_pool: DFF<Bits<3>>,
    s1_queue: DFF<Bits<32>>,
    s1_ect: DFF<Bit>,
    // stage 2: the RAM's data registered, queue x weight precomputed; the
    // EWMA step and the RAM write happen in this stage
    s2_update: DFF<Bit>,
    s2_decide: DFF<Bit>,
    s2_address: DFF<Bits<A>>,
    s2_pool: DFF<Bits<3>>,
    s2_ect: DFF<Bit>,
    s2_ram_mean: DFF<Bits<32>>,
    /// The queue's part of the step, `queue x w` in 48 bits (`queue x
    /// 65536` at full weight), summed a stage ahead of the loop.
    s2_queue_product: DFF<Bits<48>>,
    /// The queue is the one the step ahead (in stage 2 last cycle) or the
    /// one before it writes: which forwarding register to use, decided a
    /// stage early so that the loop through them holds no comparator.
    s2_matches_forward1: DFF<Bit>,
    s2_matches_forward2: DFF<Bit>,
    // the writes of the last two EWMA steps, which the RAM read missed
    forward1_valid: DFF<Bit>,
    forward1_address: DFF<Bits<A>>,
    forward1_mean: DFF<Bits<32>>,
    forward2_mean: DFF<Bits<32>>,
    // stage 3: the average; band of the pool, draw
    s3_update: DFF<Bit>,
    s3_decide: DFF<Bit>,
    s3_pool: DFF<Bits<3>>,
    s3_ect: DFF<Bit>,
    /// The average before the event and after its EWMA step: which one
    /// is the event's is chosen in stage 3, out of the loop.
    s3_mean_before: DFF<Bits<32>>,
    s3_mean_after: DFF<Bits<32>>,
    // stage 4: the marking comparison's operands
    s4_update: DFF<Bit>,
    s4_decide: DFF<Bit>,
    s4_ect: DFF<Bit>,
    s4_mean: DFF<Bits<32>>,
    s4_at_or_above_max: DFF<Bit>,
    s4_at_or_above_min: DFF<Bit>,
    s4_draw_high: DFF<Bits<16>>,
    s4_range_scaled: DFF<Bits<16>>,
    s4_delta_scaled: DFF<Bits<16>>,
    // stage 5: the result
    s5_update: DFF<Bit>,
    s5_decide: DFF<Bit>,
    s5_marked: DFF<Bit>,
    s5_mean: DFF<Bits<32>>,
    // combinational intermediates
    event_address: Signal<Local, Bits<A>>,
    mean_now: Signal<Local, Bits<32>>,
    weight_lo: Signal<Local, Bits<16>>,
    // The low halves of the multiplied values as 16-bit wires: `bit_cast`
    // becomes a mask of the full-width value in Verilog, and Yosys would
    // build a 32-bit multiplier from it.
    s1_queue_lo: Signal<Local, Bits<16>>,
    mean_now_lo: Signal<Local, Bits<16>>,
    /// Registers derived from the weight when it is written, so that the
    /// EWMA loop starts at a register and holds no mux for the weight's
    /// edge values: 65536 - w (low 16 bits; 0 at full weight), all ones
    /// when w = 0 (the step keeps the mean: 65536 - w has no low bits),
    /// w >= 65536.
    keep_lo: DFF<Bits<16>>,
    zero_weight_mask: DFF<Bits<32>>,
    weight_is_full: DFF<Bit>,
    queue_lo_product: Signal<Local, Bits<32>>,
    queue_hi_product: Signal<Local, Bits<32>>,
    mean_lo_product: Signal<Local, Bits<32>>,
    mean_hi_product: Signal<Local, Bits<32>>,
    kept_mean: Signal<Local, Bits<32>>,
    /// `mean x (65536 - w) + queue x w`, 48 bits: its bits 16 to 47 are the step.
    step_sum: Signal<Local, Bits<48>>,
    mean_next: Signal<Local, Bits<32>>,
    /// Stage 3: the event's average (after the step for an update).
    s3_mean: Signal<Local, Bits<32>>,
    draw_a: Signal<Local, Bits<32>>,
    draw_b: Signal<Local, Bits<32>>,
    draw_next: Signal<Local, Bits<32>>,
    pool_min: Signal<Local, Bits<32>>,
    pool_max: Signal<Local, Bits<32>>,
    pool_shift: Signal<Local, Bits<5>>,
    draw_side: Signal<Local, Bits<32>>,
    probability_side: Signal<Local, Bits<32>>,
    mark_now: Signal<Local, Bit>,
    /// False only in the fault-injection build that leaves out the
    /// second forwarding register (the test must catch it).
    forward_second: Constant<Bit>,
    // register addresses and constants
    reg_enable: Constant<Bits<8>>,
    reg_weight: Constant<Bits<8>>,
    reg_max_prob: Constant<Bits<8>>,
    reg_seed: Constant<Bits<8>>,
    reg_band_min: [Constant<Bits<8>>; 8],
    reg_band_max: [Constant<Bits<8>>; 8],
    reg_band_shift: [Constant<Bits<8>>; 8],
    zero_seed_replacement: Constant<Bits<32>>,
    full_weight: Constant<Bits<17>>,
    all_ones: Constant<Bits<32>>,
}

impl<const A: usize> EcnMarker<A> {
    /// A marker for `ports` egress ports, without the second forwarding
    /// register: wrong on purpose, for the fault-injection test.
    pub fn without_second_forwarding(ports: usize) -> Result<EcnMarker<A>, BuildError> {
        let mut marker = EcnMarker::new(ports)?;
        marker.forward_second = Constant::new(false);
        Ok(marker)
    }

    /// A marker for `ports` egress ports.
    pub fn new(ports: usize) -> Result<EcnMarker<A>, BuildError> {
        check_ports::<A>("ECN marker", ports)?;
        Ok(EcnMarker {
            clock: Default::default(),
            reset: Default::default(),
            cfg_write: Default::default(),
            cfg_address: Default::default(),
            cfg_data: Default::default(),
            op_update: Default::default(),
            op_decide: Default::default(),
            queue_port: Default::default(),
            queue_pool: Default::default(),
            queue_bytes: Default::default(),
            ect: Default::default(),
            update_valid: Default::default(),
            decision_valid: Default::default(),
            marked: Default::default(),
            mean_bytes: Default::default(),
            ecn_enable: Default::default(),
            weight_q16: Default::default(),
            max_prob_q16: Default::default(),
            draw_state: Default::default(),
            band_min: Default::default(),
            band_max: Default::default(),
            band_shift: Default::default(),
            mean_ram: zero_ram(),
            s1_update: Default::default(),
            s1_decide: Default::default(),
            s1_address: Default::default(),
            s1_pool: Default::default(),
            s1_queue: Default::default(),
            s1_ect: Default::default(),
            s2_update: Default::default(),
            s2_decide: Default::default(),
            s2_address: Default::default(),
            s2_pool: Default::default(),
            s2_ect: Default::default(),
            s2_ram_mean: Default::default(),
            s2_queue_product: Default::default(),
            s2_matches_forward1: Default::default(),
            s2_matches_forward2: Default::default(),
            forward1_valid: Default::default(),
            forward1_address: Default::default(),
            forward1_mean: Default::default(),
            forward2_mean: Default::default(),
            s3_update: Default::default(),
            s3_decide: Default::default(),
            s3_pool: Default::default(),
            s3_ect: Default::default(),
            s3_mean_before: Default::default(),
            s3_mean_after: Default::default(),
            s4_update: Default::default(),
            s4_decide: Default::default(),
            s4_ect: Default::default(),
            s4_mean: Default::default(),
            s4_at_or_above_max: Default::default(),
            s4_at_or_above_min: Default::default(),
            s4_draw_high: Default::default(),
            s4_range_scaled: Default::default(),
            s4_delta_scaled: Default::default(),
            s5_update: Default::default(),
            s5_decide: Default::default(),
            s5_marked: Default::default(),
            s5_mean: Default::default(),
            event_address: Default::default(),
            mean_now: Default::default(),
            weight_lo: Default::default(),
            s1_queue_lo: Default::default(),
            mean_now_lo: Default::default(),
            keep_lo: Default::default(),
            zero_weight_mask: Default::default(),
            weight_is_full: Default::default(),
            queue_lo_product: Default::default(),
            queue_hi_product: Default::default(),
            mean_lo_product: Default::default(),
            mean_hi_product: Default::default(),
            kept_mean: Default::default(),
            step_sum: Default::default(),
            s3_mean: Default::default(),
            mean_next: Default::default(),
            draw_a: Default::default(),
            draw_b: Default::default(),
            draw_next: Default::default(),
            pool_min: Default::default(),
            pool_max: Default::default(),
            pool_shift: Default::default(),
            draw_side: Default::default(),
            probability_side: Default::default(),
            mark_now: Default::default(),
            forward_second: Constant::new(true),
            reg_enable: c8(ECN_ENABLE),
            reg_weight: c8(ECN_WEIGHT),
            reg_max_prob: c8(ECN_MAX_PROB),
            reg_seed: c8(ECN_SEED),
            reg_band_min: std::array::from_fn(|p| c8(ECN_BAND_BASE + 4 * p as u8)),
            reg_band_max: std::array::from_fn(|p| c8(ECN_BAND_BASE + 4 * p as u8 + 1)),
            reg_band_shift: std::array::from_fn(|p| c8(ECN_BAND_BASE + 4 * p as u8 + 2)),
            zero_seed_replacement: Constant::new(Bits::<32>::from(ZERO_SEED_REPLACEMENT as LiteralType)),
            full_weight: Constant::new(Bits::<17>::from(65536 as LiteralType)),
            all_ones: Constant::new(Bits::<32>::from(u32::MAX as LiteralType)),
        })
    }
}

impl<const A: usize> Logic for EcnMarker<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ecn_enable, weight_q16, keep_lo, zero_weight_mask, weight_is_full, max_prob_q16, draw_state,
            s1_update, s1_decide, s1_address, s1_pool, s1_queue, s1_ect,
            s2_update, s2_decide, s2_address, s2_pool, s2_ect, s2_ram_mean, s2_queue_product, s2_matches_forward1, s2_matches_forward2,
            forward1_valid, forward1_address, forward1_mean, forward2_mean,
            s3_update, s3_decide, s3_pool, s3_ect, s3_mean_before, s3_mean_after,
            s4_update, s4_decide, s4_ect, s4_mean, s4_at_or_above_max, s4_at_or_above_min, s4_draw_high, s4_range_scaled, s4_delta_scaled,
            s5_update, s5_decide, s5_marked, s5_mean);
        for p in 0..8 {
            self.band_min[p].clock.next = self.clock.val();
            self.band_min[p].d.next = self.band_min[p].q.val();
            self.band_max[p].clock.next = self.clock.val();
            self.band_max[p].d.next = self.band_max[p].q.val();
            self.band_shift[p].clock.next = self.clock.val();
            self.band_shift[p].d.next = self.band_shift[p].q.val();
        }
        // Configuration channel.
        if self.cfg_write.val() {
            if self.cfg_address.val() == self.reg_enable.val() {
                self.ecn_enable.d.next = self.cfg_data.val().get_bit(0);
            }
            if self.cfg_address.val() == self.reg_weight.val() {
                self.weight_q16.d.next = bit_cast::<17, _>(self.cfg_data.val());
                self.keep_lo.d.next = bit_cast::<16, 17>(self.full_weight.val() - bit_cast::<17, _>(self.cfg_data.val()));
                self.zero_weight_mask.d.next = 0.into();
                if bit_cast::<17, _>(self.cfg_data.val()) == 0 {
                    self.zero_weight_mask.d.next = self.all_ones.val();
                }
                self.weight_is_full.d.next = bit_cast::<17, _>(self.cfg_data.val()) >= self.full_weight.val();
                if bit_cast::<17, _>(self.cfg_data.val()) >= self.full_weight.val() {
                    self.keep_lo.d.next = 0.into();
                }
            }
            if self.cfg_address.val() == self.reg_max_prob.val() {
                self.max_prob_q16.d.next = bit_cast::<16, _>(self.cfg_data.val());
            }
            for p in 0..8 {
                if self.cfg_address.val() == self.reg_band_min[p].val() {
                    self.band_min[p].d.next = self.cfg_data.val();
                }
                if self.cfg_address.val() == self.reg_band_max[p].val() {
                    self.band_max[p].d.next = self.cfg_data.val();
                }
                if self.cfg_address.val() == self.reg_band_shift[p].val() {
                    self.band_shift[p].d.next = bit_cast::<5, _>(self.cfg_data.val());
                }
            }
        }
        // Stage 1: read the queue's average; register the event.
        self.event_address.next = bit_cast::<A, 11>((bit_cast::<11, 8>(self.queue_port.val()) << 3) | bit_cast::<11, 3>(self.queue_pool.val()));
        self.mean_ram.read_clock.next = self.clock.val();
        self.mean_ram.write_clock.next = self.clock.val();
        self.mean_ram.read_address.next = self.event_address.val();
        self.s1_update.d.next = self.op_update.val() & !self.reset.val();
        self.s1_decide.d.next = self.op_decide.val() & !self.op_update.val() & !self.reset.val();
        self.s1_address.d.next = self.event_address.val();
        self.s1_pool.d.next = self.queue_pool.val();
        self.s1_queue.d.next = self.queue_bytes.val();
        self.s1_ect.d.next = self.ect.val();
        // Stage 2 registers: the RAM's data, and queue x weight ahead of the step.
        self.weight_lo.next = bit_cast::<16, _>(self.weight_q16.q.val());
        self.s2_update.d.next = self.s1_update.q.val() & !self.reset.val();
        self.s2_decide.d.next = self.s1_decide.q.val() & !self.reset.val();
        self.s2_address.d.next = self.s1_address.q.val();
        self.s2_pool.d.next = self.s1_pool.q.val();
        self.s2_ect.d.next = self.s1_ect.q.val();
        self.s2_ram_mean.d.next = self.mean_ram.read_data.val();
        self.s1_queue_lo.next = bit_cast::<16, _>(self.s1_queue.q.val());
        self.queue_lo_product.next = self.s1_queue_lo.val() * self.weight_lo.val();
        self.queue_hi_product.next = self.s1_queue.q.val().get_bits::<16>(16) * self.weight_lo.val();
        self.s2_queue_product.d.next = (bit_cast::<48, 32>(self.queue_hi_product.val()) << 16) + bit_cast::<48, 32>(self.queue_lo_product.val());
        if self.weight_is_full.q.val() {
            self.s2_queue_product.d.next = bit_cast::<48, 32>(self.s1_queue.q.val()) << 16;
        }
        // Next cycle forward1 holds what stage 2 writes now, forward2 what forward1 holds.
        self.s2_matches_forward1.d.next = self.s2_update.q.val() & !self.reset.val() & (self.s2_address.q.val() == self.s1_address.q.val());
        self.s2_matches_forward2.d.next = self.forward1_valid.q.val() & (self.forward1_address.q.val() == self.s1_address.q.val());
        // Stage 2: the average as of now. The RAM read (two cycles ago)
        // missed the writes of the two steps before this one: forward them,
        // the latest first.
        self.mean_now.next = self.s2_ram_mean.q.val();
        if self.forward_second.val() & self.s2_matches_forward2.q.val() {
            self.mean_now.next = self.forward2_mean.q.val();
        }
        if self.s2_matches_forward1.q.val() {
            self.mean_now.next = self.forward1_mean.q.val();
        }
        // EWMA: (mean k + queue w) >> 16 with k = 65536 - w, from two 16 x 16
        // products of the mean and the queue's product of the stage before:
        // one 48-bit sum, so that the loop through the forwarding registers
        // holds the products, a carry-save level and one carry chain.
        self.mean_now_lo.next = bit_cast::<16, _>(self.mean_now.val());
        self.mean_lo_product.next = self.mean_now_lo.val() * self.keep_lo.q.val();
        self.mean_hi_product.next = self.mean_now.val().get_bits::<16>(16) * self.keep_lo.q.val();
        // At w = 0, k = 65536 has no low bits: both products are 0 and the mean is kept.
        self.kept_mean.next = self.mean_hi_product.val() | (self.mean_now.val() & self.zero_weight_mask.q.val());
        self.step_sum.next = (bit_cast::<48, 32>(self.kept_mean.val()) << 16) + bit_cast::<48, 32>(self.mean_lo_product.val())
            + self.s2_queue_product.q.val();
        self.mean_next.next = bit_cast::<32, 48>(self.step_sum.val() >> 16);
        self.mean_ram.write_address.next = self.s2_address.q.val();
        self.mean_ram.write_data.next = self.mean_next.val();
        self.mean_ram.write_enable.next = self.s2_update.q.val() & !self.reset.val();
        self.forward1_valid.d.next = self.s2_update.q.val() & !self.reset.val();
        self.forward1_address.d.next = self.s2_address.q.val();
        self.forward1_mean.d.next = self.mean_next.val();
        self.forward2_mean.d.next = self.forward1_mean.q.val();
        self.s3_update.d.next = self.s2_update.q.val() & !self.reset.val();
        self.s3_decide.d.next = self.s2_decide.q.val() & !self.reset.val();
        self.s3_pool.d.next = self.s2_pool.q.val();
        self.s3_ect.d.next = self.s2_ect.q.val();
        self.s3_mean_before.d.next = self.mean_now.val();
        self.s3_mean_after.d.next = self.mean_next.val();
        // Stage 3: the pool's band, the draw (xorshift32, one per decision).
        self.draw_a.next = self.draw_state.q.val() ^ (self.draw_state.q.val() << 13);
        self.draw_b.next = self.draw_a.val() ^ (self.draw_a.val() >> 17);
        self.draw_next.next = self.draw_b.val() ^ (self.draw_b.val() << 5);
        if self.s3_decide.q.val() {
            self.draw_state.d.next = self.draw_next.val();
        }
        if self.cfg_write.val() & (self.cfg_address.val() == self.reg_seed.val()) {
            self.draw_state.d.next = self.cfg_data.val();
            if self.cfg_data.val() == 0 {
                self.draw_state.d.next = self.zero_seed_replacement.val();
            }
        }
        self.s3_mean.next = self.s3_mean_before.q.val();
        if self.s3_update.q.val() {
            self.s3_mean.next = self.s3_mean_after.q.val();
        }
        self.pool_min.next = self.band_min[0].q.val();
        self.pool_max.next = self.band_max[0].q.val();
        self.pool_shift.next = self.band_shift[0].q.val();
        for p in 1..8 {
            if self.s3_pool.q.val().index() == p {
                self.pool_min.next = self.band_min[p].q.val();
                self.pool_max.next = self.band_max[p].q.val();
                self.pool_shift.next = self.band_shift[p].q.val();
            }
        }
        self.s4_update.d.next = self.s3_update.q.val();
        self.s4_decide.d.next = self.s3_decide.q.val();
        self.s4_ect.d.next = self.s3_ect.q.val();
        self.s4_mean.d.next = self.s3_mean.val();
        self.s4_at_or_above_max.d.next = self.s3_mean.val() >= self.pool_max.val();
        self.s4_at_or_above_min.d.next = self.s3_mean.val() >= self.pool_min.val();
        self.s4_draw_high.d.next = bit_cast::<16, 32>(self.draw_next.val() >> 16);
        self.s4_range_scaled.d.next = bit_cast::<16, 32>((self.pool_max.val() - self.pool_min.val()) >> self.pool_shift.val());
        self.s4_delta_scaled.d.next = bit_cast::<16, 32>((self.s3_mean.val() - self.pool_min.val()) >> self.pool_shift.val());
        // Stage 4: draw x range < max probability x delta, the 16 x 16 comparison.
        self.draw_side.next = self.s4_draw_high.q.val() * self.s4_range_scaled.q.val();
        self.probability_side.next = self.max_prob_q16.q.val() * self.s4_delta_scaled.q.val();
        self.mark_now.next = false;
        if self.s4_at_or_above_max.q.val() {
            self.mark_now.next = true;
        } else if self.s4_at_or_above_min.q.val() {
            self.mark_now.next = self.draw_side.val() < self.probability_side.val();
        }
        self.s5_update.d.next = self.s4_update.q.val();
        self.s5_decide.d.next = self.s4_decide.q.val();
        self.s5_marked.d.next = self.mark_now.val() & self.ecn_enable.q.val() & self.s4_ect.q.val();
        self.s5_mean.d.next = self.s4_mean.q.val();
        // Result channel.
        self.update_valid.next = self.s5_update.q.val();
        self.decision_valid.next = self.s5_decide.q.val();
        self.marked.next = self.s5_marked.q.val() & self.s5_decide.q.val();
        self.mean_bytes.next = self.s5_mean.q.val();
    }
}
