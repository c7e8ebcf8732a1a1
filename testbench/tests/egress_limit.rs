//! The buffer manager's egress-limit sub-block against the reference's
//! rule (`BufferManager::egress_limit_bytes`): `(alpha_q10 x free) >> 10`
//! with `free = size - pool egress` (0 when full; the block takes the
//! difference, summed ahead by the look-ahead), saturating at
//! 0xFFFF_FFFF in the block's 32 bits; the fixed limit otherwise.

use hdl::buffer_manager::egress_limit::EgressLimit;
use proptest::prelude::*;
use rust_hdl::prelude::*;
use testbench::proptest_cases;

fn hardware(dynamic: bool, alpha_q10: u16, size: u32, egress: u32, fixed: u32) -> u32 {
    let mut uut = EgressLimit::default();
    uut.connect_all();
    uut.dynamic_limit.next = dynamic;
    uut.alpha_q10.next = (alpha_q10 as u64).into();
    uut.free_difference.next = free_difference(size, egress).into();
    uut.fixed_limit_bytes.next = (fixed as u64).into();
    assert!(simulate(&mut uut, 100), "egress limit did not settle");
    uut.limit_bytes.val().to_u64() as u32
}

/// `size - egress` as the block takes it: 33-bit two's complement.
fn free_difference(size: u32, egress: u32) -> u64 {
    (size as i64 - egress as i64) as u64 & ((1 << 33) - 1)
}

/// The reference's limit, as the block's 32 bits hold it.
fn expected(dynamic: bool, alpha_q10: u16, size: u32, egress: u32, fixed: u32) -> u32 {
    if !dynamic {
        return fixed;
    }
    let free = size.saturating_sub(egress) as u64;
    u32::try_from((alpha_q10 as u64 * free) >> 10).unwrap_or(u32::MAX)
}

fn word() -> impl Strategy<Value = u32> {
    prop_oneof![any::<u32>(), 0u32..5_000, (0u32..64).prop_map(|k| u32::MAX - k), Just(1 << 26), Just((1 << 26) - 1),
        (0u32..65_536).prop_map(|r| (1024 << 16) + r)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(2_000)))]

    #[test]
    fn egress_limit_matches_the_reference(dynamic in any::<bool>(), alpha in prop_oneof![any::<u16>(), 0u16..2048, 65_000u16..=u16::MAX],
        size in word(), egress in word(), fixed in word()) {
        prop_assert_eq!(hardware(dynamic, alpha, size, egress, fixed), expected(dynamic, alpha, size, egress, fixed));
    }
}

/// Limits past 32 bits saturate rather than wrap: alpha 63.999 of a full
/// 4 GB pool.
#[test]
fn a_limit_past_32_bits_saturates() {
    let (alpha, size) = (u16::MAX, u32::MAX);
    assert_eq!(hardware(true, alpha, size, 0, 7), u32::MAX);
    let wrapped = ((alpha as u64 * size as u64) >> 10) as u32;
    assert_ne!(wrapped, u32::MAX);
    // Alpha 63.999 with 64 MiB + 2,000 B free: the high product is 2^26 -
    // 1,024, below the shift's overflow, but the 32-bit sum would wrap to
    // 62,462 B.
    assert_eq!(hardware(true, u16::MAX, 67_110_864, 0, 7), u32::MAX);
    assert_eq!(expected(true, u16::MAX, 67_110_864, 0, 7), u32::MAX);
    assert_eq!(((u16::MAX as u64 * 1024) << 6).wrapping_add((u16::MAX as u64 * 2000) >> 10) as u32, 62_462);
    // The last high product that fits, exactly: alpha 2^13 - 1, 2^13 + 1 high words.
    assert_eq!(hardware(true, 8191, 8193 << 16, 0, 7), expected(true, 8191, 8193 << 16, 0, 7));
    assert_eq!(hardware(true, 1024, 5_000, 1_000, 7), 4_000);
    assert_eq!(hardware(false, 1024, 5_000, 1_000, 7), 7);
}
