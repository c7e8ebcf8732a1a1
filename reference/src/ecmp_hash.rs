//! ECMP flow identity: the 16-bit flow hash of `EcmpHashMethod`, and the
//! member it selects (flow hash mod set size).
//!
//! Fixed choices ([model], shared with the hardware block):
//! * Key: 13 bytes, protocol (1), source port (2, big-endian), destination
//!   port (2, BE), source address (4, BE), destination address (4, BE).
//!   Only TCP (6) and UDP (17) are hashed: every other protocol uses the
//!   all-zero key, one shared identity.
//! * CRC-32: IEEE (reflected 0x04C11DB7, as `crc32fast`). `crc32` starts
//!   from the standard initial value; `crc32WithSalt` passes the salt as
//!   `crc32fast`'s initial CRC.
//! * 32-to-16 reduction: `(c >> 16) ^ (c & 0xFFFF)`.
//! * Salt: `mix32(node_id ^ 0x5341_4C54)` (murmur3 finalizer).
//! * `crc32WithSalt` finalizer: three rounds of a Speck-style
//!   add-rotate-XOR on the CRC's two 16-bit halves (x, y), keyed by the
//!   salt: `x = (rotr(x,7) + y) ^ k[r]; y = rotl(y,2) ^ x`, with
//!   k = [salt_lo, salt_hi, salt_lo ^ salt_hi]; the hash is
//!   `rotl(x, 8) ^ y`. The carries of the 16-bit additions make it
//!   non-linear over GF(2), which is what breaks the polarization a linear
//!   hash keeps; the rotation brings the carry-rich high bits of the last
//!   sum down to the low bits that `mod N` reads (a sum's low bits are
//!   almost linear: returning plain `x` measured worse than no salt).
//! * `hash`: XOR of the key's 32-bit words (addresses, ports as
//!   `sport << 16 | dport`, protocol), reduced to 16 bits as above.
//!   `hashWithSalt` adds the salt (mod 2^32) to that word before reducing.
//! * `dpr`: `(destination address - 1) & 0x1FF`; `dprWithFallback` uses
//!   the `crc32` hash instead when that value is not below the set size.

use crate::config::HashMethod;
use crate::lfsr::mix32;

pub const PROTO_TCP: u8 = 6;
pub const PROTO_UDP: u8 = 17;

/// A packet's five-tuple.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlowKey {
    pub proto: u8,
    pub src: u32,
    pub dst: u32,
    pub sport: u16,
    pub dport: u16,
}

impl FlowKey {
    pub fn is_hashed(&self) -> bool {
        self.proto == PROTO_TCP || self.proto == PROTO_UDP
    }

    /// The key the hash methods see: the tuple for TCP/UDP, else all zero.
    pub fn hashed_key(&self) -> FlowKey {
        if self.is_hashed() { *self } else { FlowKey::default() }
    }

    /// The 13 key bytes in hashing order.
    pub fn bytes(&self) -> [u8; 13] {
        let mut b = [0u8; 13];
        b[0] = self.proto;
        b[1..3].copy_from_slice(&self.sport.to_be_bytes());
        b[3..5].copy_from_slice(&self.dport.to_be_bytes());
        b[5..9].copy_from_slice(&self.src.to_be_bytes());
        b[9..13].copy_from_slice(&self.dst.to_be_bytes());
        b
    }
}

/// The per-switch salt derived from its node id.
pub fn salt_from_node_id(node_id: u32) -> u32 {
    mix32(node_id ^ 0x5341_4C54) // "SALT"
}

/// The outcome of hashing one key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowHash {
    pub flow_hash: u16,
    /// The CRC-32 computed, for the CRC methods (and a dpr fallback).
    pub crc32: Option<u32>,
}

/// The hash block's parameters (its registers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EcmpHashParams {
    pub method: HashMethod,
    pub salt: u32,
}

/// 32-to-16-bit reduction.
pub fn reduce16(c: u32) -> u16 {
    ((c >> 16) ^ (c & 0xFFFF)) as u16
}

pub fn crc32(bytes: &[u8; 13], initial: u32) -> u32 {
    let mut h = crc32fast::Hasher::new_with_initial(initial);
    h.update(bytes);
    h.finalize()
}

/// The keyed non-linear finalizer of `crc32WithSalt`.
pub fn finalize(c: u32, salt: u32) -> u16 {
    let (lo, hi) = (salt as u16, (salt >> 16) as u16);
    let round_keys = [lo, hi, lo ^ hi];
    let (mut x, mut y) = ((c >> 16) as u16, c as u16);
    for k in round_keys {
        x = x.rotate_right(7).wrapping_add(y) ^ k;
        y = y.rotate_left(2) ^ x;
    }
    x.rotate_left(8) ^ y
}

/// XOR of the key's 32-bit words.
pub fn xor_fold_word(key: &FlowKey) -> u32 {
    key.src ^ key.dst ^ ((key.sport as u32) << 16 | key.dport as u32) ^ key.proto as u32
}

pub fn dpr_value(dst: u32) -> u16 {
    (dst.wrapping_sub(1) & 0x1FF) as u16
}

/// The flow hash of `key` under `params`; `members` matters only to
/// `dprWithFallback`.
pub fn flow_hash(params: &EcmpHashParams, key: &FlowKey, members: usize) -> FlowHash {
    let hashed = key.hashed_key();
    match params.method {
        HashMethod::Crc32 => {
            let c = crc32(&hashed.bytes(), 0);
            FlowHash { flow_hash: reduce16(c), crc32: Some(c) }
        }
        HashMethod::Crc32WithSalt => {
            let c = crc32(&hashed.bytes(), params.salt);
            FlowHash { flow_hash: finalize(c, params.salt), crc32: Some(c) }
        }
        HashMethod::Hash => FlowHash { flow_hash: reduce16(xor_fold_word(&hashed)), crc32: None },
        HashMethod::HashWithSalt => {
            FlowHash { flow_hash: reduce16(xor_fold_word(&hashed).wrapping_add(params.salt)), crc32: None }
        }
        HashMethod::Dpr => FlowHash { flow_hash: dpr_value(key.dst), crc32: None },
        HashMethod::DprWithFallback => {
            let v = dpr_value(key.dst);
            if (v as usize) < members {
                FlowHash { flow_hash: v, crc32: None }
            } else {
                let c = crc32(&hashed.bytes(), 0);
                FlowHash { flow_hash: reduce16(c), crc32: Some(c) }
            }
        }
    }
}

/// Member index in a set of `members` (>= 1): flow hash mod set size.
pub fn member_index(flow_hash: u16, members: usize) -> usize {
    flow_hash as usize % members.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> FlowKey {
        FlowKey { proto: 17, src: 0x0A00_0001, dst: 0x0A00_0002, sport: 1000, dport: 4791 }
    }

    #[test]
    fn key_bytes_order() {
        assert_eq!(key().bytes(), [17, 0x03, 0xE8, 0x12, 0xB7, 10, 0, 0, 1, 10, 0, 0, 2]);
    }

    #[test]
    fn crc_matches_crc32fast() {
        let b = key().bytes();
        assert_eq!(crc32(&b, 0), crc32fast::hash(&b));
        let h = flow_hash(&EcmpHashParams { method: HashMethod::Crc32, salt: 0 }, &key(), 4);
        assert_eq!(h.crc32, Some(crc32fast::hash(&b)));
        assert_eq!(h.flow_hash, reduce16(crc32fast::hash(&b)));
    }

    #[test]
    fn non_tcp_udp_share_one_identity() {
        let p = EcmpHashParams { method: HashMethod::Crc32WithSalt, salt: 99 };
        let icmp1 = FlowKey { proto: 1, ..key() };
        let icmp2 = FlowKey { proto: 1, src: 7, dst: 8, sport: 0, dport: 0 };
        let gre = FlowKey { proto: 47, ..key() };
        let h = flow_hash(&p, &icmp1, 4);
        assert_eq!(h, flow_hash(&p, &icmp2, 4));
        assert_eq!(h, flow_hash(&p, &gre, 4));
    }

    #[test]
    fn dpr_and_fallback() {
        let p = EcmpHashParams { method: HashMethod::Dpr, salt: 0 };
        assert_eq!(flow_hash(&p, &FlowKey { dst: 0x0A00_0203, ..key() }, 4).flow_hash, 0x002);
        assert_eq!(flow_hash(&p, &FlowKey { dst: 0, ..key() }, 4).flow_hash, 0x1FF);
        let f = EcmpHashParams { method: HashMethod::DprWithFallback, salt: 0 };
        assert_eq!(flow_hash(&f, &FlowKey { dst: 3, ..key() }, 4).flow_hash, 2);
        let fallback = flow_hash(&f, &FlowKey { dst: 100, ..key() }, 4);
        assert!(fallback.crc32.is_some());
    }

    #[test]
    fn salted_crc_differs_by_switch() {
        let a = EcmpHashParams { method: HashMethod::Crc32WithSalt, salt: salt_from_node_id(1) };
        let b = EcmpHashParams { method: HashMethod::Crc32WithSalt, salt: salt_from_node_id(2) };
        assert_ne!(flow_hash(&a, &key(), 8), flow_hash(&b, &key(), 8));
    }
}
