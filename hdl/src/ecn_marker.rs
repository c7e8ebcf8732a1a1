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
//! Latency 2 cycles, throughput one event per cycle, including back to
//! back on one queue.
//!
//! ```text
//!  event ─► RAM read ─►[s1 event]─► mean = forwarded write | RAM data
//!                                    ├─ update: EWMA (four 16x16 products) ─► RAM write, forward reg
//!                                    └─ decide: band of the pool, draw x range < maxp x delta
//!                                   ─►[s2 result]
//! ```
//!
//! The RAM reads first (old data) when one address is read and written in
//! the same cycle, so the last write is kept in a forwarding register and
//! used instead of the RAM's data when the addresses match.

use reference::lfsr::ZERO_SEED_REPLACEMENT;
use reference::register_map::{ECN_BAND_BASE, ECN_ENABLE, ECN_MAX_PROB, ECN_SEED, ECN_WEIGHT};
use rust_hdl::prelude::*;
use crate::build_checks::{c8, check_ports, zero_ram, BuildError};
use rust_hdl::widgets::prelude::RAM;

/// Pipeline latency from an event to its result, in cycles.
pub const LATENCY: usize = 2;

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
    // the last write, for read-after-write on one address
    forward_valid: DFF<Bit>,
    forward_address: DFF<Bits<A>>,
    forward_mean: DFF<Bits<32>>,
    // stage 2: the result
    s2_update: DFF<Bit>,
    s2_decide: DFF<Bit>,
    s2_marked: DFF<Bit>,
    s2_mean: DFF<Bits<32>>,
    // combinational intermediates
    event_address: Signal<Local, Bits<A>>,
    mean_now: Signal<Local, Bits<32>>,
    weight_lo: Signal<Local, Bits<16>>,
    keep_lo: Signal<Local, Bits<16>>,
    mean_lo_product: Signal<Local, Bits<32>>,
    mean_hi_product: Signal<Local, Bits<32>>,
    queue_lo_product: Signal<Local, Bits<32>>,
    queue_hi_product: Signal<Local, Bits<32>>,
    low_carry: Signal<Local, Bits<32>>,
    mean_next: Signal<Local, Bits<32>>,
    draw_a: Signal<Local, Bits<32>>,
    draw_b: Signal<Local, Bits<32>>,
    draw_next: Signal<Local, Bits<32>>,
    pool_min: Signal<Local, Bits<32>>,
    pool_max: Signal<Local, Bits<32>>,
    pool_shift: Signal<Local, Bits<5>>,
    range_scaled: Signal<Local, Bits<16>>,
    delta_scaled: Signal<Local, Bits<16>>,
    draw_side: Signal<Local, Bits<32>>,
    probability_side: Signal<Local, Bits<32>>,
    mark_now: Signal<Local, Bit>,
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
}

impl<const A: usize> EcnMarker<A> {
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
            forward_valid: Default::default(),
            forward_address: Default::default(),
            forward_mean: Default::default(),
            s2_update: Default::default(),
            s2_decide: Default::default(),
            s2_marked: Default::default(),
            s2_mean: Default::default(),
            event_address: Default::default(),
            mean_now: Default::default(),
            weight_lo: Default::default(),
            keep_lo: Default::default(),
            mean_lo_product: Default::default(),
            mean_hi_product: Default::default(),
            queue_lo_product: Default::default(),
            queue_hi_product: Default::default(),
            low_carry: Default::default(),
            mean_next: Default::default(),
            draw_a: Default::default(),
            draw_b: Default::default(),
            draw_next: Default::default(),
            pool_min: Default::default(),
            pool_max: Default::default(),
            pool_shift: Default::default(),
            range_scaled: Default::default(),
            delta_scaled: Default::default(),
            draw_side: Default::default(),
            probability_side: Default::default(),
            mark_now: Default::default(),
            reg_enable: c8(ECN_ENABLE),
            reg_weight: c8(ECN_WEIGHT),
            reg_max_prob: c8(ECN_MAX_PROB),
            reg_seed: c8(ECN_SEED),
            reg_band_min: std::array::from_fn(|p| c8(ECN_BAND_BASE + 4 * p as u8)),
            reg_band_max: std::array::from_fn(|p| c8(ECN_BAND_BASE + 4 * p as u8 + 1)),
            reg_band_shift: std::array::from_fn(|p| c8(ECN_BAND_BASE + 4 * p as u8 + 2)),
            zero_seed_replacement: Constant::new(Bits::<32>::from(ZERO_SEED_REPLACEMENT as LiteralType)),
            full_weight: Constant::new(Bits::<17>::from(65536 as LiteralType)),
        })
    }
}

impl<const A: usize> Logic for EcnMarker<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ecn_enable, weight_q16, max_prob_q16, draw_state,
            s1_update, s1_decide, s1_address, s1_pool, s1_queue, s1_ect,
            forward_valid, forward_address, forward_mean,
            s2_update, s2_decide, s2_marked, s2_mean);
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
                self.weight_q16.d.next = self.cfg_data.val().get_bits::<17>(0);
            }
            if self.cfg_address.val() == self.reg_max_prob.val() {
                self.max_prob_q16.d.next = self.cfg_data.val().get_bits::<16>(0);
            }
            for p in 0..8 {
                if self.cfg_address.val() == self.reg_band_min[p].val() {
                    self.band_min[p].d.next = self.cfg_data.val();
                }
                if self.cfg_address.val() == self.reg_band_max[p].val() {
                    self.band_max[p].d.next = self.cfg_data.val();
                }
                if self.cfg_address.val() == self.reg_band_shift[p].val() {
                    self.band_shift[p].d.next = self.cfg_data.val().get_bits::<5>(0);
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
        // Stage 2: the average as of now (forwarded when just written).
        self.mean_now.next = self.mean_ram.read_data.val();
        if self.forward_valid.q.val() & (self.forward_address.q.val() == self.s1_address.q.val()) {
            self.mean_now.next = self.forward_mean.q.val();
        }
        // EWMA: (mean (65536 - w) + queue w) >> 16 from four 16 x 16 products.
        self.weight_lo.next = self.weight_q16.q.val().get_bits::<16>(0);
        self.keep_lo.next = bit_cast::<16, 17>(self.full_weight.val() - self.weight_q16.q.val());
        self.mean_lo_product.next = self.mean_now.val().get_bits::<16>(0) * self.keep_lo.val();
        self.mean_hi_product.next = self.mean_now.val().get_bits::<16>(16) * self.keep_lo.val();
        self.queue_lo_product.next = self.s1_queue.q.val().get_bits::<16>(0) * self.weight_lo.val();
        self.queue_hi_product.next = self.s1_queue.q.val().get_bits::<16>(16) * self.weight_lo.val();
        self.low_carry.next = (bit_cast::<32, 16>(self.mean_lo_product.val().get_bits::<16>(0))
            + bit_cast::<32, 16>(self.queue_lo_product.val().get_bits::<16>(0))) >> 16;
        self.mean_next.next = self.mean_hi_product.val() + self.queue_hi_product.val()
            + (self.mean_lo_product.val() >> 16) + (self.queue_lo_product.val() >> 16) + self.low_carry.val();
        if self.weight_q16.q.val() == 0 {
            self.mean_next.next = self.mean_now.val();
        }
        if self.weight_q16.q.val() >= self.full_weight.val() {
            self.mean_next.next = self.s1_queue.q.val();
        }
        self.mean_ram.write_address.next = self.s1_address.q.val();
        self.mean_ram.write_data.next = self.mean_next.val();
        self.mean_ram.write_enable.next = self.s1_update.q.val() & !self.reset.val();
        self.forward_valid.d.next = self.s1_update.q.val() & !self.reset.val();
        self.forward_address.d.next = self.s1_address.q.val();
        self.forward_mean.d.next = self.mean_next.val();
        // Decision: xorshift32 draw, the pool's band, the 16 x 16 comparison.
        self.draw_a.next = self.draw_state.q.val() ^ (self.draw_state.q.val() << 13);
        self.draw_b.next = self.draw_a.val() ^ (self.draw_a.val() >> 17);
        self.draw_next.next = self.draw_b.val() ^ (self.draw_b.val() << 5);
        if self.s1_decide.q.val() & !self.reset.val() {
            self.draw_state.d.next = self.draw_next.val();
        }
        if self.cfg_write.val() & (self.cfg_address.val() == self.reg_seed.val()) {
            self.draw_state.d.next = self.cfg_data.val();
            if self.cfg_data.val() == 0 {
                self.draw_state.d.next = self.zero_seed_replacement.val();
            }
        }
        self.pool_min.next = self.band_min[0].q.val();
        self.pool_max.next = self.band_max[0].q.val();
        self.pool_shift.next = self.band_shift[0].q.val();
        for p in 1..8 {
            if self.s1_pool.q.val().index() == p {
                self.pool_min.next = self.band_min[p].q.val();
                self.pool_max.next = self.band_max[p].q.val();
                self.pool_shift.next = self.band_shift[p].q.val();
            }
        }
        self.range_scaled.next = bit_cast::<16, 32>((self.pool_max.val() - self.pool_min.val()) >> self.pool_shift.val());
        self.delta_scaled.next = bit_cast::<16, 32>((self.mean_now.val() - self.pool_min.val()) >> self.pool_shift.val());
        self.draw_side.next = bit_cast::<16, 32>(self.draw_next.val() >> 16) * self.range_scaled.val();
        self.probability_side.next = self.max_prob_q16.q.val() * self.delta_scaled.val();
        self.mark_now.next = false;
        if self.mean_now.val() >= self.pool_max.val() {
            self.mark_now.next = true;
        } else if self.mean_now.val() >= self.pool_min.val() {
            self.mark_now.next = self.draw_side.val() < self.probability_side.val();
        }
        self.s2_update.d.next = self.s1_update.q.val() & !self.reset.val();
        self.s2_decide.d.next = self.s1_decide.q.val() & !self.reset.val();
        self.s2_marked.d.next = self.mark_now.val() & self.ecn_enable.q.val() & self.s1_ect.q.val();
        self.s2_mean.d.next = self.mean_now.val();
        if self.s1_update.q.val() {
            self.s2_mean.d.next = self.mean_next.val();
        }
        // Result channel.
        self.update_valid.next = self.s2_update.q.val();
        self.decision_valid.next = self.s2_decide.q.val();
        self.marked.next = self.s2_marked.q.val() & self.s2_decide.q.val();
        self.mean_bytes.next = self.s2_mean.q.val();
    }
}
