//! The egress limit of a lossy queue (bit-exact with
//! `reference::buffer_manager`): dynamic, `(alpha_q10 x free) >> 10` with
//! `free = pool size - pool egress bytes` (0 when the pool is over its size), or the
//! pool's fixed limit. A dynamic limit past 32 bits saturates at
//! `0xFFFF_FFFF`: the block answers `min(limit, 2^32 - 1)`, which compares
//! with a 32-bit queue the way the reference's 64-bit limit does.
//!
//! The caller gives `pool size - pool egress bytes` as a 33-bit two's
//! complement difference (the look-ahead sums it ahead of time, see
//! [`super::limit_lookahead`]): bit 32 set means the pool is over its size.
//!
//! The product comes from two 16 x 16 multiplies (rust_hdl has no wider
//! one): `alpha x free_hi << 6` plus `alpha x free_lo >> 10`, summed in 33
//! bits. The limit is past 32 bits when the high product reaches 2^26 (its
//! shift overflows) or the sum carries; with a large alpha the sum carries
//! well below a high product of 2^26 - 1 (alpha 63.999 and 64 MiB free).
//!
//! Ports (combinational, no clock):
//! * configuration: `dynamic_limit`, `alpha_q10` (alpha in Q6.10)
//! * pool: `free_difference` (size - egress bytes, 33 bits), `fixed_limit_bytes`
//!   (the limit when not dynamic: the caller picks the fixed or the
//!   retransmit limit)
//! * limit: `limit_bytes`
//!
//! Latency 0 cycles (logic only).

use rust_hdl::prelude::*;

/// `alpha x free_hi` from which `alpha x free_hi << 6` overflows 32 bits.
const OVERFLOWING_HI_PRODUCT: u32 = 1 << 26;

#[derive(LogicBlock)]
pub struct EgressLimit {
    // configuration
    pub dynamic_limit: Signal<In, Bit>,
    pub alpha_q10: Signal<In, Bits<16>>,
    // pool
    /// `pool size - pool egress bytes` in 33 bits: bit 32 is the borrow
    /// (the pool is over its size).
    pub free_difference: Signal<In, Bits<33>>,
    pub fixed_limit_bytes: Signal<In, Bits<32>>,
    // limit
    pub limit_bytes: Signal<Out, Bits<32>>,
    free_bytes: Signal<Local, Bits<32>>,
    dynamic_sum: Signal<Local, Bits<33>>,
    dynamic_bytes: Signal<Local, Bits<32>>,
    alpha_hi_product: Signal<Local, Bits<32>>,
    alpha_lo_product: Signal<Local, Bits<32>>,
    overflowing_hi_product: Constant<Bits<32>>,
    saturated_limit: Constant<Bits<32>>,
}

impl Default for EgressLimit {
    fn default() -> Self {
        EgressLimit {
            dynamic_limit: Default::default(),
            alpha_q10: Default::default(),
            free_difference: Default::default(),
            fixed_limit_bytes: Default::default(),
            limit_bytes: Default::default(),
            free_bytes: Default::default(),
            dynamic_sum: Default::default(),
            dynamic_bytes: Default::default(),
            alpha_hi_product: Default::default(),
            alpha_lo_product: Default::default(),
            overflowing_hi_product: Constant::new(Bits::<32>::from(OVERFLOWING_HI_PRODUCT as LiteralType)),
            saturated_limit: Constant::new(Bits::<32>::from(u32::MAX as LiteralType)),
        }
    }
}

impl Logic for EgressLimit {
    #[hdl_gen]
    fn update(&mut self) {
        // The multiplies take the difference's low 32 bits as they are; a
        // full pool (the borrow) zeroes the limit after them, where the
        // saturation is chosen anyway, instead of a mux before them.
        self.free_bytes.next = bit_cast::<32, 33>(self.free_difference.val());
        self.alpha_hi_product.next = self.alpha_q10.val() * self.free_bytes.val().get_bits::<16>(16);
        self.alpha_lo_product.next = self.alpha_q10.val() * self.free_bytes.val().get_bits::<16>(0);
        self.dynamic_sum.next = bit_cast::<33, 32>(self.alpha_hi_product.val() << 6) + bit_cast::<33, 32>(self.alpha_lo_product.val() >> 10);
        self.dynamic_bytes.next = bit_cast::<32, 33>(self.dynamic_sum.val());
        if (self.alpha_hi_product.val() >= self.overflowing_hi_product.val()) | self.dynamic_sum.val().get_bit(32) {
            self.dynamic_bytes.next = self.saturated_limit.val();
        }
        if self.free_difference.val().get_bit(32) {
            self.dynamic_bytes.next = 0.into();
        }
        // The output is assigned once (see `crate::forwarding_ram`).
        if self.dynamic_limit.val() {
            self.limit_bytes.next = self.dynamic_bytes.val();
        } else {
            self.limit_bytes.next = self.fixed_limit_bytes.val();
        }
    }
}
