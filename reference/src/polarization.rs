//! Polarization study: random TCP/UDP flows through a tier-1 switch and a
//! tier-2 switch that use the same hash method with their own salts (node
//! ids 1 and 2), N members each. A hash that does not de-correlate the
//! tiers sends every flow that tier 1 put on one member to one member of
//! tier 2.
//!
//! Measures: `conditional_entropy_bits` = H(tier-2 member | tier-1 member),
//! at most `log2 N`; and per tier-1 member, `max_over_mean` = the busiest
//! tier-2 member's flow count over the mean count (1 = even, N = polarized).

use crate::config::HashMethod;
use crate::ecmp_hash::{flow_hash, member_index, salt_from_node_id, EcmpHashParams, FlowKey};
use crate::lfsr::{mix32, Lfsr};
use serde::Serialize;

pub const TIER1_NODE_ID: u32 = 1;
pub const TIER2_NODE_ID: u32 = 2;

#[derive(Clone, Debug, Serialize)]
pub struct Polarization {
    pub method: &'static str,
    pub members: usize,
    pub flows: usize,
    pub conditional_entropy_bits: f64,
    pub max_entropy_bits: f64,
    pub max_over_mean: Vec<f64>,
}

/// Random TCP/UDP flows, reproducible from `seed`.
/// `count` random TCP/UDP flows, made one at a time (a study of 10^8
/// flows holds none of them in memory).
pub fn random_flows(count: usize, seed: u64) -> impl Iterator<Item = FlowKey> {
    let mut lfsr = Lfsr::new(mix32(seed as u32) ^ mix32((seed >> 32) as u32 ^ 0xF10));
    (0..count).map(move |_| FlowKey {
        proto: if lfsr.next_u32() & 1 == 0 { 6 } else { 17 },
        src: lfsr.next_u32(),
        dst: lfsr.next_u32(),
        sport: lfsr.next_u16(),
        dport: lfsr.next_u16(),
    })
}

pub fn study(method: HashMethod, members: usize, flows: usize, seed: u64) -> Polarization {
    let members = members.max(1);
    let tier = |node| EcmpHashParams { method, salt: salt_from_node_id(node) };
    let (t1, t2) = (tier(TIER1_NODE_ID), tier(TIER2_NODE_ID));
    let mut counts = vec![vec![0u64; members]; members];
    for key in random_flows(flows, seed) {
        let m1 = member_index(flow_hash(&t1, &key, members).flow_hash, members);
        let m2 = member_index(flow_hash(&t2, &key, members).flow_hash, members);
        counts[m1][m2] += 1;
    }
    let total = flows.max(1) as f64;
    let mut entropy = 0.0;
    let mut max_over_mean = Vec::with_capacity(members);
    for row in &counts {
        let row_total: u64 = row.iter().sum();
        if row_total == 0 {
            max_over_mean.push(0.0);
            continue;
        }
        let h: f64 = row
            .iter()
            .filter(|&&c| c > 0)
            .map(|&c| {
                let p = c as f64 / row_total as f64;
                -p * p.log2()
            })
            .sum();
        entropy += row_total as f64 / total * h;
        let mean = row_total as f64 / members as f64;
        max_over_mean.push(*row.iter().max().expect("members >= 1") as f64 / mean);
    }
    Polarization {
        method: method.name(),
        members,
        flows,
        conditional_entropy_bits: entropy,
        max_entropy_bits: (members as f64).log2(),
        max_over_mean,
    }
}
