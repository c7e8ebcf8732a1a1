//! `sswitch config ...` as a user runs it.

mod common;

use common::{scratch_file, sswitch, stderr, stdout};
use serde_json::Value;

#[test]
fn defaults_prints_a_document_that_checks_valid() {
    let out = sswitch(&["config", "defaults"]);
    assert!(out.status.success());
    let path = scratch_file("defaults_valid", "switch.json", &stdout(&out));
    let check = sswitch(&["config", "check", path.to_str().unwrap(), "--connected-ports", "128"]);
    assert!(check.status.success(), "{}", stderr(&check));
}

#[test]
fn check_reports_one_line_per_broken_rule() {
    let doc = r#"{"LoadBalancingMethod": {"value": "flowlet", "type": "string"},
                  "EcmpHashMethod": {"value": "dpr", "type": "string"},
                  "PacketTrimmer": {"TrimmingEnabled": {"value": true, "type": "bool"},
                                    "TrimmingStatsEnabled": {"value": false, "type": "bool"}}}"#;
    let path = scratch_file("check_rules", "switch.json", doc);
    let out = sswitch(&["config", "check", path.to_str().unwrap(), "--connected-ports", "2000"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let broken: Vec<&str> = err.lines().filter(|l| l.starts_with("stops the run")).collect();
    assert_eq!(broken.len(), 4, "{err}");
    assert!(broken.iter().any(|l| l.contains("HeadRoomPerPortLimit")));
    assert!(!err.contains("panicked"));
}

#[test]
fn check_uses_nic_models() {
    let doc = r#"{"SharedBufferManager": {"UETPolicyEnabled": {"value": true, "type": "bool"}}}"#;
    let path = scratch_file("check_nics", "switch.json", doc);
    let p = path.to_str().unwrap();
    let ok = sswitch(&["config", "check", p, "--connected-ports", "8", "--nic", "Scala UET NIC"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    // The omitted SharedBufferManager attributes are named in warnings.
    assert!(stderr(&ok).contains("SharedBufferManager.PoolAllocationMap"));
    let bad = sswitch(&["config", "check", p, "--connected-ports", "8", "--nic", "Acme NIC"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("Acme NIC"));
}

#[test]
fn plan_json_has_exactly_the_documented_keys() {
    let out = sswitch(&["config", "plan", "--connected-ports", "128", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["connected_ports", "headroom_per_port_bytes", "total_headroom_bytes", "sizing_total_bytes",
        "xoff_bytes", "xon_bytes", "uet_policy", "pools", "oversubscription"]);
    let pool_keys: Vec<&String> = v["pools"][0].as_object().unwrap().keys().collect();
    assert_eq!(pool_keys, ["pool", "size_bytes", "static_limit_bytes", "ecn_min_bytes", "ecn_max_bytes",
        "egress_limit", "fixed_egress_limit_bytes", "traffic_classes", "lossless_classes"]);
    assert_eq!(v["sizing_total_bytes"], 223_232_000);
    assert_eq!(v["pools"][1]["ecn_max_bytes"], 17_858_560);
    assert_eq!(v["pools"].as_array().unwrap().len(), 2);
    assert_eq!(v["oversubscription"]["oversubscribed"], false);
    assert_eq!(v["oversubscription"]["downlinks"], 128);
}

#[test]
fn plan_table_is_readable() {
    let out = sswitch(&["config", "plan", "--connected-ports", "128"]);
    assert!(stdout(&out).contains("223,232,000"));
}

#[test]
fn patch_prints_merged_document_or_names_path() {
    let doc = scratch_file("patch_cli", "switch.json", &stdout(&sswitch(&["config", "defaults"])));
    let good = scratch_file("patch_cli", "good.json", r#"{"EcnHandler": {"MinThreshold": {"value": 0.3, "type": "double"}}}"#);
    let out = sswitch(&["config", "patch", doc.to_str().unwrap(), good.to_str().unwrap()]);
    assert!(out.status.success());
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["EcnHandler"]["MinThreshold"]["value"].to_string(), "0.3");
    let bad = scratch_file("patch_cli", "bad.json", r#"{"SharedBufferManager": {"PoolAllocationMap": {"value": "[1, 0]", "type": "string"}}}"#);
    let out = sswitch(&["config", "patch", doc.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("SharedBufferManager.PoolAllocationMap"));
    assert!(stdout(&out).is_empty(), "nothing half-written on stdout");
}

#[test]
fn errors_are_one_clear_line() {
    let missing = sswitch(&["config", "check", "/nonexistent/switch.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(stderr(&missing).lines().count(), 1);
    assert!(stderr(&missing).contains("/nonexistent/switch.json"));
    let broken = scratch_file("errors_one_line", "broken.json", "{ not json");
    let out = sswitch(&["config", "plan", broken.to_str().unwrap(), "--connected-ports", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    let zero = sswitch(&["config", "plan", "--connected-ports", "0"]);
    assert_eq!(zero.status.code(), Some(1));
    assert!(!stderr(&zero).contains("panicked"));
}
