//! The ECMP flow hash: fixed key and CRC, and the measured de-correlation.

mod common;

use common::{sswitch, stdout};
use reference::config::HashMethod;
use reference::ecmp_hash::{flow_hash, salt_from_node_id, EcmpHashParams, FlowKey};
use reference::polarization::study;
use serde_json::Value;

#[test]
fn crc_methods_use_the_ieee_crc_over_the_13_byte_key() {
    let key = FlowKey { proto: 6, src: 0xC0A8_0001, dst: 0xC0A8_0102, sport: 443, dport: 51_000 };
    let mut bytes = vec![6u8];
    bytes.extend(443u16.to_be_bytes());
    bytes.extend(51_000u16.to_be_bytes());
    bytes.extend(0xC0A8_0001u32.to_be_bytes());
    bytes.extend(0xC0A8_0102u32.to_be_bytes());
    let crc = crc32fast::hash(&bytes);
    let h = flow_hash(&EcmpHashParams { method: HashMethod::Crc32, salt: 0 }, &key, 8);
    assert_eq!(h.crc32, Some(crc));
    assert_eq!(h.flow_hash, ((crc >> 16) ^ (crc & 0xFFFF)) as u16);
    let salt = salt_from_node_id(3);
    let salted = flow_hash(&EcmpHashParams { method: HashMethod::Crc32WithSalt, salt }, &key, 8);
    let mut hasher = crc32fast::Hasher::new_with_initial(salt);
    hasher.update(&bytes);
    assert_eq!(salted.crc32, Some(hasher.finalize()));
}

#[test]
fn only_crc32_with_salt_decorrelates_tiers() {
    for members in [2, 4, 8, 16] {
        let max = (members as f64).log2();
        let h = |m| study(m, members, 100_000, 5).conditional_entropy_bits;
        assert!(h(HashMethod::Crc32WithSalt) > 0.97 * max, "crc32WithSalt N={members}: {}", h(HashMethod::Crc32WithSalt));
        for linear in [HashMethod::Crc32, HashMethod::Hash, HashMethod::Dpr, HashMethod::DprWithFallback] {
            assert!(h(linear) < 0.05, "{} N={members}: {}", linear.name(), h(linear));
        }
        let partial = h(HashMethod::HashWithSalt);
        assert!(partial > 0.2 * max && partial < 0.95 * max, "hashWithSalt N={members}: {partial}");
        assert!(partial < h(HashMethod::Crc32WithSalt));
    }
}

#[test]
fn polarized_methods_send_a_tier1_member_to_one_tier2_member() {
    let crc = study(HashMethod::Crc32, 8, 50_000, 2);
    assert!(crc.max_over_mean.iter().all(|&r| (r - 8.0).abs() < 1e-9), "{:?}", crc.max_over_mean);
    let salted = study(HashMethod::Crc32WithSalt, 8, 50_000, 2);
    assert!(salted.max_over_mean.iter().all(|&r| r < 1.3), "{:?}", salted.max_over_mean);
}

#[test]
fn hash_command_prints_hash_member_and_crc() {
    let out = sswitch(&["hash", "--method", "crc32", "--proto", "17", "--src", "10.0.0.1", "--dst", "10.0.0.2",
        "--sport", "1000", "--dport", "4791", "--members", "4"]);
    assert!(out.status.success());
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let key = FlowKey { proto: 17, src: 0x0A00_0001, dst: 0x0A00_0002, sport: 1000, dport: 4791 };
    let crc = crc32fast::hash(&key.bytes());
    assert_eq!(v["crc32"], crc);
    let flow = ((crc >> 16) ^ (crc & 0xFFFF)) as u64;
    assert_eq!(v["flow_hash"], flow);
    assert_eq!(v["member"], flow % 4);
    let dpr = sswitch(&["hash", "--method", "dpr", "--proto", "1", "--src", "1.2.3.4", "--dst", "10.0.1.5", "--sport", "0", "--dport", "0"]);
    let v: Value = serde_json::from_str(&stdout(&dpr)).unwrap();
    assert_eq!(v["flow_hash"], (0x0A00_0105u32 - 1) & 0x1FF);
    assert!(v.get("crc32").is_none() && v.get("member").is_none());
    let bad = sswitch(&["hash", "--method", "md5", "--proto", "6", "--src", "1.1.1.1", "--dst", "2.2.2.2", "--sport", "1", "--dport", "2"]);
    assert!(!bad.status.success());
}

#[test]
fn polarization_command_reports_the_documented_keys() {
    let out = sswitch(&["polarization", "--method", "crc32WithSalt", "--members", "4", "--flows", "20000"]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["max_entropy_bits"], 2.0);
    assert!(v["conditional_entropy_bits"].as_f64().unwrap() > 1.9);
    assert_eq!(v["max_over_mean"].as_array().unwrap().len(), 4);
}
