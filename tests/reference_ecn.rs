//! The ECN marker's fixed point against the real-valued formulas.

use proptest::prelude::*;
use reference::ecn_marker::{ewma_step, mark_decision, to_q16, EcnBand, EcnMarker, EcnParams};
use rust_decimal::Decimal;

fn cases() -> u32 {
    testbench::proptest_cases(256)
}

/// Exact probability that a uniform 16-bit draw marks at `mean`.
fn fixed_probability(mean: u32, band: &EcnBand, max_prob_q16: u16) -> f64 {
    let marking = (0..65536u32).filter(|&r| mark_decision(mean, band, max_prob_q16, r as u16)).count();
    marking as f64 / 65536.0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// |fixed - real| <= (|w_q - w| x Qmax + 1) / w_q + 1 bytes after any sequence.
    #[test]
    fn ewma_tracks_the_real_valued_average(weight_e4 in 1u32..=10_000, queues in prop::collection::vec(0u32..(1 << 30), 1..2000)) {
        let weight = Decimal::new(weight_e4 as i64, 4);
        let w = weight_e4 as f64 / 10_000.0;
        let wq = to_q16(weight);
        let wq_real = wq as f64 / 65536.0;
        let bound = ((wq_real - w).abs() * (1u64 << 30) as f64 + 1.0) / wq_real + 1.0;
        let (mut fixed, mut real) = (0u32, 0f64);
        for q in queues {
            fixed = ewma_step(fixed, q, wq);
            real = (1.0 - w) * real + w * q as f64;
            prop_assert!((fixed as f64 - real).abs() <= bound, "fixed {fixed} real {real} bound {bound}");
        }
    }

    /// The marking probability within the band is max_prob x (mean - min) / (max - min) to 1e-4.
    #[test]
    fn mark_probability_matches_the_formula(min in 0u32..(1 << 31), width in 1u32..(1 << 30), at in 0.0f64..1.0, max_prob_e4 in 0u32..=10_000) {
        let band = EcnBand::new(min, min + width);
        let mean = min + (width as f64 * at) as u32;
        let max_prob = Decimal::new(max_prob_e4 as i64, 4);
        let mp = to_q16(max_prob).min(65535) as u16;
        let real = max_prob_e4 as f64 / 10_000.0 * (mean - min) as f64 / width as f64;
        let fixed = fixed_probability(mean, &band, mp);
        prop_assert!((fixed - real).abs() <= 1e-4, "fixed {fixed} real {real} band {band:?} mean {mean}");
    }
}

fn params(enable: bool, band: EcnBand) -> EcnParams {
    EcnParams { enable, weight_q16: 65536, max_prob_q16: 65535, bands: [band; 8] }
}

#[test]
fn decisions_follow_the_band_and_count_marks() {
    let mut m = EcnMarker::new(params(true, EcnBand::new(1000, 3000)), 2, 99);
    m.update(1, 0, 999);
    assert!(!(0..100).any(|_| m.decide(1, 0, 0, true)), "below min: never");
    m.update(1, 0, 3000);
    assert!((0..100).all(|_| m.decide(1, 0, 5, true)), "at max: always");
    assert_eq!(m.marks(1, 5), 100);
    assert!(!m.decide(1, 0, 5, false), "not ECT: never");
    m.update(1, 0, 2000);
    let marked = (0..20_000).filter(|_| m.decide(1, 0, 0, true)).count();
    assert!((9_500..10_500).contains(&marked), "half way: about half, got {marked}");
    let mut off = EcnMarker::new(params(false, EcnBand::new(0, 1)), 1, 1);
    off.update(0, 0, 1_000_000);
    assert!(!off.decide(0, 0, 0, true), "EnableEcn false: never");
}

#[test]
fn draining_queue_keeps_its_average() {
    let mut m = EcnMarker::new(params(true, EcnBand::new(10, 20)), 1, 1);
    m.update(0, 3, 5000);
    let before = m.mean_bytes(0, 3);
    for _ in 0..10 {
        m.decide(0, 3, 0, true);
    }
    assert_eq!(m.mean_bytes(0, 3), before);
}

#[test]
fn default_weight_and_band_formats() {
    assert_eq!(to_q16(Decimal::new(1, 1)), 6554);
    let band = EcnBand::new(40_181_760, 160_727_040);
    assert_eq!(band.range_shift, 11);
    assert_eq!(band.range_scaled(), ((160_727_040u32 - 40_181_760) >> 11) as u16);
}
