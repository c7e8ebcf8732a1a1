//! The model's one random source: a 32-bit xorshift generator (a linear
//! feedback shift register over GF(2), shifts 13, 17, 5), and the seed
//! derivations that feed it. Hardware implements the same three
//! shift-XOR stages, so reference and hardware draw identical numbers.
//!
//! * state' = s ^ (s << 13); s' ^= s' >> 17; s' ^= s' << 5  (period 2^32 - 1)
//! * a 16-bit draw is the upper half of the new state
//! * a zero seed (the one state the generator cannot leave) becomes
//!   [`ZERO_SEED_REPLACEMENT`].

/// Used instead of a zero seed.
pub const ZERO_SEED_REPLACEMENT: u32 = 0x2545_F491;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lfsr {
    state: u32,
}

impl Lfsr {
    pub fn new(seed: u32) -> Lfsr {
        Lfsr { state: if seed == 0 { ZERO_SEED_REPLACEMENT } else { seed } }
    }

    pub fn state(&self) -> u32 {
        self.state
    }

    /// Advances once and returns the new 32-bit state.
    pub fn next_u32(&mut self) -> u32 {
        self.state = step(self.state);
        self.state
    }

    /// Advances once and returns the upper 16 bits of the new state.
    pub fn next_u16(&mut self) -> u16 {
        (self.next_u32() >> 16) as u16
    }
}

/// One xorshift32 step.
pub const fn step(mut s: u32) -> u32 {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    s
}

/// Murmur3's 32-bit finalizer: a bijective avalanche mix used to derive
/// seeds and salts from small integers.
pub const fn mix32(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85EB_CA6B);
    h ^= h >> 13;
    h = h.wrapping_mul(0xC2B2_AE35);
    h ^= h >> 16;
    h
}

/// Seed of the flowlet tie-break draw: simulation seed, run number and
/// node id, each mixed in turn.
pub fn flowlet_seed(sim_seed: u64, run: u32, node_id: u32) -> u32 {
    let seed = (sim_seed as u32) ^ mix32((sim_seed >> 32) as u32 ^ 0x464C_4F57); // "FLOW"
    mix32(seed ^ mix32(run ^ mix32(node_id ^ 0x9E37_79B9)))
}

/// Seed of the ECN marker's draw: simulation seed and node id.
pub fn ecn_seed(sim_seed: u64, node_id: u32) -> u32 {
    let seed = (sim_seed as u32) ^ mix32((sim_seed >> 32) as u32 ^ 0x0045_434E); // "ECN"
    mix32(seed ^ mix32(node_id ^ 0x7F4A_7C15))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_sequence_from_seed_1() {
        let mut l = Lfsr::new(1);
        assert_eq!(l.next_u32(), 270_369);
        assert_eq!(l.next_u32(), 67_634_689);
        assert_eq!(l.next_u32(), 2_647_435_461);
    }

    #[test]
    fn zero_seed_is_replaced() {
        assert_eq!(Lfsr::new(0).state(), ZERO_SEED_REPLACEMENT);
    }

    #[test]
    fn draws_are_roughly_uniform() {
        let mut l = Lfsr::new(12345);
        let mut buckets = [0u32; 16];
        for _ in 0..160_000 {
            buckets[(l.next_u16() >> 12) as usize] += 1;
        }
        for b in buckets {
            assert!((9_000..11_000).contains(&b), "{buckets:?}");
        }
    }
}
