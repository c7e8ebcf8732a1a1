//! `sswitch hash` and `sswitch polarization`: the ECMP flow identity.

use super::CommandResult;
use reference::config::HashMethod;
use reference::ecmp_hash::{flow_hash, member_index, salt_from_node_id, EcmpHashParams, FlowKey};
use reference::polarization::study;
use serde_json::json;
use std::net::Ipv4Addr;

fn parse_method(name: &str) -> Result<HashMethod, String> {
    HashMethod::from_name(name).ok_or_else(|| {
        let all: Vec<&str> = HashMethod::ALL.iter().map(|m| m.name()).collect();
        format!("{name:?} is not one of {}", all.join(", "))
    })
}

#[derive(clap::Args)]
pub struct HashArgs {
    /// EcmpHashMethod: dpr, hash, hashWithSalt, crc32, crc32WithSalt or dprWithFallback
    #[arg(long, value_parser = parse_method)]
    pub method: HashMethod,
    /// IP protocol number (6 TCP, 17 UDP; any other shares one identity)
    #[arg(long)]
    pub proto: u8,
    /// Source IPv4 address
    #[arg(long)]
    pub src: Ipv4Addr,
    /// Destination IPv4 address
    #[arg(long)]
    pub dst: Ipv4Addr,
    #[arg(long)]
    pub sport: u16,
    #[arg(long)]
    pub dport: u16,
    /// Node id of the switch; its salt derives from it
    #[arg(long, default_value_t = 0)]
    pub node_id: u32,
    /// Size of the equal-cost set: prints the member (and lets dprWithFallback fall back)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub members: Option<u32>,
}

pub fn run_hash(a: HashArgs) -> CommandResult {
    let key = FlowKey { proto: a.proto, src: a.src.into(), dst: a.dst.into(), sport: a.sport, dport: a.dport };
    let params = EcmpHashParams { method: a.method, salt: salt_from_node_id(a.node_id) };
    let set_size = a.members.map(|m| m as usize).unwrap_or(usize::MAX);
    let h = flow_hash(&params, &key, set_size);
    let mut out = json!({"method": a.method.name(), "flow_hash": h.flow_hash});
    let obj = out.as_object_mut().expect("object");
    if let Some(m) = a.members {
        obj.insert("member".into(), json!(member_index(h.flow_hash, m as usize)));
    }
    if let Some(c) = h.crc32 {
        obj.insert("crc32".into(), json!(c));
    }
    if matches!(a.method, HashMethod::Crc32WithSalt | HashMethod::HashWithSalt) {
        obj.insert("salt".into(), json!(params.salt));
    }
    println!("{out}");
    Ok(())
}

#[derive(clap::Args)]
#[command(long_about = "Sends random TCP/UDP flows through a tier-1 and a tier-2 switch (node ids 1 and 2) that \
    use the same hash method, and measures how much tier 2's choice still varies once tier 1's is known: \
    conditional_entropy_bits near max_entropy_bits (log2 N) means de-correlated, near 0 means polarized.")]
pub struct PolarizationArgs {
    #[arg(long, value_parser = parse_method)]
    pub method: HashMethod,
    /// Members per equal-cost set (both tiers)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub members: u32,
    /// Number of random flows (1 to 100,000,000)
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=reference::limits::MAX_POLARIZATION_FLOWS))]
    pub flows: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run_polarization(a: PolarizationArgs) -> CommandResult {
    let report = study(a.method, a.members as usize, a.flows as usize, a.seed);
    println!("{}", serde_json::to_string_pretty(&report).expect("report JSON"));
    Ok(())
}
