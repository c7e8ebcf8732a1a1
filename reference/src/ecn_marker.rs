//! ECN marker: a moving average of each (egress port, pool) queue, updated
//! at egress admission, and a RED-style decision when an ECT packet starts
//! transmission.
//!
//! Fixed-point formats ([model], identical in the hardware block):
//! * `weight_q16`: EwmaWeight x 65536, rounded to nearest, 0..=65536.
//! * mean: whole bytes, 32 bits. Update:
//!   `mean' = (mean x (65536 - weight_q16) + queue x weight_q16) >> 16`
//!   (the shift rounds down; the mean never leaves [min(mean, queue),
//!   max(mean, queue)]).
//! * Band: `min_bytes`, `max_bytes` from the buffer plan (the static limit x
//!   Min/MaxThreshold, rounded down). `mean >= max_bytes` marks;
//!   `mean < min_bytes` does not; in between, with the band width
//!   `range = max - min` and `k` the shift that brings it under 2^16
//!   (`range_shift`, precomputed), the packet is marked when
//!   `draw x (range >> k) < max_prob_q16 x ((mean - min) >> k)`, a 16 x 16
//!   bit comparison of the probability `max_prob x (mean - min) / range`
//!   against a uniform 16-bit draw.
//! * `max_prob_q16`: MaxMarkProbability x 65536 rounded to nearest, at most
//!   65535 (so 1.0 under-marks by at most 2^-16).
//! * The draw is the upper 16 bits of the [`Lfsr`]; it advances once on
//!   every transmission-start decision, marked or not, ECT or not.
//!
//! Marks apply to lossless classes too; `EnableEcn` false never marks.

use crate::buffer_plan::BufferPlan;
use crate::config::{SwitchConfig, CLASSES};
use crate::lfsr::Lfsr;
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;

/// ECN band of one pool, in the marker's register form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EcnBand {
    pub min_bytes: u32,
    pub max_bytes: u32,
    /// Right shift that brings `max - min` under 2^16.
    pub range_shift: u8,
}

impl EcnBand {
    pub fn new(min_bytes: u32, max_bytes: u32) -> EcnBand {
        let range = max_bytes.saturating_sub(min_bytes);
        let bits = 32 - range.leading_zeros();
        EcnBand { min_bytes, max_bytes, range_shift: bits.saturating_sub(16) as u8 }
    }

    pub fn range_scaled(&self) -> u16 {
        (self.max_bytes.saturating_sub(self.min_bytes) >> self.range_shift) as u16
    }
}

/// The marker's registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EcnParams {
    pub enable: bool,
    pub weight_q16: u32,
    pub max_prob_q16: u16,
    pub bands: [EcnBand; CLASSES],
}

/// `fraction x 2^16`, rounded to nearest (halves up), as an integer.
pub fn to_q16(fraction: Decimal) -> u32 {
    (fraction * Decimal::from(65536u32)).round_dp_with_strategy(0, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
        .to_u32()
        .unwrap_or(u32::MAX)
}

impl EcnParams {
    /// What a hardware block holds before any register write: all zero.
    pub fn zeroed() -> EcnParams {
        EcnParams { enable: false, weight_q16: 0, max_prob_q16: 0, bands: [EcnBand::default(); CLASSES] }
    }

    pub fn from_plan(config: &SwitchConfig, plan: &BufferPlan) -> EcnParams {
        let mut bands = [EcnBand::default(); CLASSES];
        for (band, pool) in bands.iter_mut().zip(&plan.pools) {
            *band = EcnBand::new(clamp32(pool.ecn_min_bytes), clamp32(pool.ecn_max_bytes));
        }
        EcnParams {
            enable: config.ecn.enable,
            weight_q16: to_q16(config.ecn.ewma_weight).min(65536),
            max_prob_q16: to_q16(config.ecn.max_mark_probability).min(65535) as u16,
            bands,
        }
    }
}

fn clamp32(v: u64) -> u32 {
    v.min(u32::MAX as u64) as u32
}

/// The EWMA step in the marker's fixed point.
pub fn ewma_step(mean: u32, queue_bytes: u32, weight_q16: u32) -> u32 {
    let w = weight_q16.min(65536) as u64;
    ((mean as u64 * (65536 - w) + queue_bytes as u64 * w) >> 16) as u32
}

/// The marking decision for a mean against a band, given a 16-bit draw.
pub fn mark_decision(mean: u32, band: &EcnBand, max_prob_q16: u16, draw: u16) -> bool {
    if mean >= band.max_bytes {
        return true;
    }
    if mean < band.min_bytes {
        return false;
    }
    let delta = (mean - band.min_bytes) >> band.range_shift;
    (draw as u32) * (band.range_scaled() as u32) < (max_prob_q16 as u32) * delta
}

/// The ECN marker of a switch: one average per (egress port, pool).
#[derive(Clone, Debug)]
pub struct EcnMarker {
    params: EcnParams,
    mean_bytes: Vec<u32>,
    lfsr: Lfsr,
    /// Marks per (port, traffic class).
    marks: Vec<u64>,
}

impl EcnMarker {
    pub fn new(params: EcnParams, ports: usize, seed: u32) -> EcnMarker {
        EcnMarker {
            params,
            mean_bytes: vec![0; ports * CLASSES],
            lfsr: Lfsr::new(seed),
            marks: vec![0; ports * CLASSES],
        }
    }

    pub fn params(&self) -> &EcnParams {
        &self.params
    }

    pub fn params_mut(&mut self) -> &mut EcnParams {
        &mut self.params
    }

    /// Restarts the draw from `seed` (0 becomes the LFSR's replacement seed).
    pub fn reseed(&mut self, seed: u32) {
        self.lfsr = Lfsr::new(seed);
    }

    pub fn mean_bytes(&self, port: usize, pool: usize) -> u32 {
        self.mean_bytes[port * CLASSES + pool]
    }

    /// Egress admission: fold the queue's bytes after the packet into its average.
    pub fn update(&mut self, port: usize, pool: usize, queue_bytes_after: u32) {
        let mean = &mut self.mean_bytes[port * CLASSES + pool];
        *mean = ewma_step(*mean, queue_bytes_after, self.params.weight_q16);
    }

    /// Transmission start: whether the packet leaves marked CE.
    pub fn decide(&mut self, port: usize, pool: usize, tc: usize, ect: bool) -> bool {
        let draw = self.lfsr.next_u16();
        if !self.params.enable || !ect {
            return false;
        }
        let mean = self.mean_bytes[port * CLASSES + pool];
        let marked = mark_decision(mean, &self.params.bands[pool], self.params.max_prob_q16, draw);
        if marked {
            self.marks[port * CLASSES + tc] += 1;
        }
        marked
    }

    pub fn marks(&self, port: usize, tc: usize) -> u64 {
        self.marks[port * CLASSES + tc]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn band_shift_brings_range_under_16_bits() {
        let b = EcnBand::new(40_181_760, 160_727_040);
        assert!(b.range_scaled() >= 1 << 15);
        assert_eq!(EcnBand::new(10, 20).range_shift, 0);
    }

    #[test]
    fn decisions_at_the_band_edges() {
        let b = EcnBand::new(1000, 2000);
        assert!(!mark_decision(999, &b, 65535, 0));
        assert!(mark_decision(2000, &b, 0, 65535));
        // Midway with probability 1: marked when draw < half of 2^16.
        assert!(mark_decision(1500, &b, 65535, 32_000));
        assert!(!mark_decision(1500, &b, 65535, 33_000));
    }

    #[test]
    fn ewma_weight_one_follows_queue() {
        assert_eq!(ewma_step(123, 456, 65536), 456);
        assert_eq!(ewma_step(123, 456, 0), 123);
        assert_eq!(to_q16(Decimal::new(10, 2)), 6554);
    }

    /// Two steps in one, as `hdl/src/ecn_marker.rs` states: with A = 65536 -
    /// w and r1 the first step's remainder (from the mean's low 16 bits),
    /// `(m0 A^2 + q1 w A - r1 A + q2 w 2^16) >> 32`.
    fn two_steps_at_once(m0: u32, q1: u32, q2: u32, w: u32) -> u32 {
        let (a, w) = (65536 - w as u128, w as u128);
        let r1 = ((m0 as u128 & 0xFFFF) * (a & 0xFFFF) + q1 as u128 * w) & 0xFFFF;
        ((m0 as u128 * a * a + q1 as u128 * w * a - r1 * a + ((q2 as u128 * w) << 16)) >> 32) as u32
    }

    #[test]
    fn the_two_step_look_ahead_is_bit_exact() {
        let edges = [0u32, 1, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, u32::MAX - 1, u32::MAX];
        let weights = [0u32, 1, 2, 0x8000, 0xFFFF, 0x1_0000];
        let mut x = 0x2545_F491_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        let mut checked = 0;
        for &w in &weights {
            for &m0 in &edges {
                for &q1 in &edges {
                    for &q2 in &edges {
                        assert_eq!(two_steps_at_once(m0, q1, q2, w), ewma_step(ewma_step(m0, q1, w), q2, w), "m0 {m0} q1 {q1} q2 {q2} w {w}");
                        checked += 1;
                    }
                }
            }
        }
        for _ in 0..100_000 {
            let (m0, q1, q2, w) = (next(), next(), next(), next() % 65537);
            assert_eq!(two_steps_at_once(m0, q1, q2, w), ewma_step(ewma_step(m0, q1, w), q2, w), "m0 {m0} q1 {q1} q2 {q2} w {w}");
            checked += 1;
        }
        assert_eq!(checked, 6 * 7 * 7 * 7 + 100_000);
    }
}
