//! Hostile input, one test per finding: every value is used as given or
//! refused with one line naming the field, the value and the rule; nothing
//! is capped, wrapped, ignored or written outside the folder asked for.

mod common;

use common::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// One error line on stderr (warnings aside), containing every needle.
fn refused(out: &Output, code: i32, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "stdout {} stderr {err}", stdout(out));
    // clap follows its one error line with a usage hint; that is not a second error.
    let hint = |l: &str| l.is_empty() || l.starts_with("For more information") || l.starts_with("Usage:");
    let errors: Vec<&str> = err.lines().filter(|l| !l.starts_with("warning:") && !hint(l)).collect();
    assert_eq!(errors.len(), 1, "one error line expected: {err}");
    for needle in needles {
        assert!(errors[0].contains(needle), "{:?} should name {needle:?}", errors[0]);
    }
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bad_input").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs sswitch with its address space capped, as a user's `ulimit -v` would.
fn sswitch_capped(args: &[&str], megabytes: u64) -> Output {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let script = format!("ulimit -v {}; exec '{}' {}", megabytes * 1024, env!("CARGO_BIN_EXE_sswitch"), quoted.join(" "));
    Command::new("sh").args(["-c", &script]).output().unwrap()
}

fn paused_port_lines() -> Vec<String> {
    (0..200).map(|i| arrive_line(i, 0, 0, 4000, &[1])).collect()
}

// ----- crashes and escapes -----

#[test]
fn replay_refuses_times_near_2_64_ns() {
    let dir = fresh_dir("times_near_2_64");
    let mut lines: Vec<String> = (0..200).map(|i| arrive_line(18_446_744_073_709_551_000 + i, 0, 0, 4000, &[1])).collect();
    lines.push(seq_line(18_446_744_073_709_551_300, "tx_start", 0));
    let events = write(&dir, "events.jsonl", &lines.join("\n"));
    let out = sswitch_capped(&["replay", "--connected-ports", "2", &events], 512);
    refused(&out, 2, &["line 1", "t_ns", "18446744073709551000", "1000000000000000"]);
}

#[test]
fn a_long_gap_while_paused_is_refused_not_held_in_memory() {
    let dir = fresh_dir("resend_flood");
    let mut lines = paused_port_lines();
    lines.push(seq_line(999_999_999_999_999, "tx_start", 0));
    let events = write(&dir, "events.jsonl", &lines.join("\n"));
    let out = sswitch_capped(&["replay", "--connected-ports", "2", &events], 512);
    refused(&out, 2, &["line 201", "t_ns", "pause re-sends", "100000"]);
    assert_eq!(stdout(&out).lines().count(), 200, "results before the bad line stay printed");
    // The same gap in steps of a second replays, with its re-sends.
    let mut stepped = paused_port_lines();
    stepped.push(seq_line(1_000_000_000, "tx_start", 0));
    stepped.push(seq_line(2_000_000_000, "depart", 0));
    let events = write(&dir, "stepped.jsonl", &stepped.join("\n"));
    let out = sswitch_capped(&["replay", "--connected-ports", "2", &events], 512);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("pause_resends"));
}

#[test]
fn pfc_rx_never_reports_a_pause_ending_before_its_frame() {
    let dir = fresh_dir("pfc_rx_wrap");
    let latest = reference::limits::MAX_TIME_NS;
    let line = json!({"t_ns": latest, "kind": "pfc_rx", "port": 0, "classes": [3], "quanta": 65535}).to_string();
    let out = sswitch(&["replay", "--connected-ports", "2", &write(&dir, "ok.jsonl", &line)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(result["paused_until_ns"].as_u64().unwrap(), latest + 84_384);
    let line = json!({"t_ns": u64::MAX - 10, "kind": "pfc_rx", "port": 0, "classes": [3], "quanta": 65535}).to_string();
    refused(&sswitch(&["replay", "--connected-ports", "2", &write(&dir, "wrap.jsonl", &line)]), 2, &["t_ns"]);
}

#[test]
fn a_time_the_hardware_cannot_hold_is_refused_before_it_reaches_it() {
    use reference::limits::hardware_time_ns;
    assert_eq!(hardware_time_ns(4_294_967_295), Ok(4_294_967_295));
    let e = hardware_time_ns(4_294_967_296).unwrap_err();
    assert!(e.contains("t_ns") && e.contains("4294967296") && e.contains("32-bit"), "{e}");
}

#[test]
fn simulation_names_cannot_leave_the_output_folder() {
    let dir = fresh_dir("escape");
    let out_dir = dir.join("out");
    let mut scenario: Value = serde_json::from_str(&stdout(&sswitch(&["scenario", "incast"]))).unwrap();
    for name in ["../escaped", "a/b", "", "-rf", ".hidden", "..", "x\\y"] {
        scenario["name"] = json!(name);
        let path = write(&dir, "s.json", &scenario.to_string());
        let out = sswitch(&["sim", "--scenario", &path, "--out", out_dir.to_str().unwrap(), "--duration", "5us"]);
        refused(&out, 2, &["name", "simulation name"]);
        let out = sswitch(&["sim", "--scenario", "incast", &format!("--name={name}"), "--out", out_dir.to_str().unwrap(), "--duration", "5us"]);
        refused(&out, 2, &["--name"]);
    }
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["s.json"], "nothing written beside --out");
    assert!(!out_dir.exists() || std::fs::read_dir(&out_dir).unwrap().next().is_none());
}

// ----- passes silently -----

/// A change to a scenario document.
type Change = Box<dyn Fn(&mut Value)>;

fn incast_with(dir: &Path, change: impl Fn(&mut Value)) -> String {
    let mut scenario: Value = serde_json::from_str(&stdout(&sswitch(&["scenario", "incast"]))).unwrap();
    change(&mut scenario);
    write(dir, "scenario.json", &scenario.to_string())
}

fn sim(dir: &Path, scenario: &str, extra: &[&str]) -> Output {
    let out = dir.join("out");
    let mut args = vec!["sim", "--scenario", scenario, "--out", out.to_str().unwrap(), "--duration", "20us"];
    args.extend_from_slice(extra);
    sswitch(&args)
}

#[test]
fn a_flow_faster_than_its_link_is_refused() {
    let dir = fresh_dir("flow_rate");
    for rate in [500, 1000] {
        let s = incast_with(&dir, |s| s["flows"][3]["rate_gbps"] = json!(rate));
        refused(&sim(&dir, &s, &[]), 2, &["flows[3].rate_gbps", &format!("{rate} Gbps"), "400 Gbps link"]);
    }
    // Below its link, but together with another flow on the port above it: a warning.
    let s = incast_with(&dir, |s| {
        let mut second = s["flows"][3].clone();
        second["sport"] = json!(20_000);
        s["flows"].as_array_mut().unwrap().push(second);
    });
    let out = sim(&dir, &s, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("warning: flows on ingress port 3 offer 760 Gbps"), "{}", stderr(&out));
}

#[test]
fn check_and_the_commands_that_run_a_configuration_agree() {
    let dir = fresh_dir("check_agrees");
    let cases: [(&str, Value, Option<&str>); 5] = [
        ("SharedBufferManager.LossyAlpha", json!(64), None),
        ("SharedBufferManager.LossyAlpha", json!(0.0001), None),
        ("NetworkInterface.UplinkNetworkInterface.DataRate", json!(0), Some("Gbps")),
        ("NetworkInterface.TransmissionMedium.Delay", json!(5), Some("s")),
        ("SharedBufferManager.QueueDropThreshold", json!(100_000), None),
    ];
    for (path, value, unit) in cases {
        let mut doc = defaults_with(&[(path, value.clone(), unit)]);
        if path.ends_with("QueueDropThreshold") {
            set(&mut doc, "SharedBufferManager.LossyAlpha", json!(0), None);
            set(&mut doc, "SharedBufferManager.QueueDropThresholdEnable", json!(true), None);
        }
        let config = write(&dir, "switch.json", &doc.to_json_pretty());
        let name = path.rsplit('.').next().unwrap();
        let check = sswitch(&["config", "check", &config, "--connected-ports", "8"]);
        refused(&check, 1, &[name, "beyond the model's limits"]);
        let events = write(&dir, "events.jsonl", "");
        for run in [
            sswitch(&["replay", "--config", &config, "--connected-ports", "8", &events]),
            sswitch(&["registers", "image", "--config", &config, "--connected-ports", "8"]),
            sim(&dir, "incast", &["--config", &config]),
        ] {
            refused(&run, 1, &[name]);
        }
    }
}

#[test]
fn the_uet_nic_rule_warns_when_it_cannot_be_checked() {
    let dir = fresh_dir("uet_warning");
    let doc = defaults_with(&[("SharedBufferManager.UETPolicyEnabled", json!(true), None)]);
    let config = write(&dir, "switch.json", &doc.to_json_pretty());
    let out = sswitch(&["config", "check", &config, "--connected-ports", "8"]);
    assert!(out.status.success());
    assert!(stderr(&out).contains("warning: SharedBufferManager.UETPolicyEnabled: the NIC rule is not checked"), "{}", stderr(&out));
    let out = sswitch(&["config", "check", &config, "--connected-ports", "8", "--nic", "Scala UET NIC"]);
    assert!(!stderr(&out).contains("NIC rule is not checked"));
}

#[test]
fn oversubscription_is_reported_by_check_plan_and_sim() {
    let dir = fresh_dir("oversubscription");
    let config = write(&dir, "switch.json", &reference::Document::defaults().to_json_pretty());
    let line = |out: &Output| stdout(out).lines().find(|l| l.starts_with("capacity")).map(str::to_string).unwrap_or_default();
    let check = sswitch(&["config", "check", &config, "--connected-ports", "128", "--uplinks", "64"]);
    assert!(line(&check).contains("64 downlinks x 400 Gbps + 64 uplinks x 400 Gbps = 51200 Gbps") && line(&check).ends_with("not oversubscribed"));
    let plan = sswitch(&["config", "plan", "--connected-ports", "130", "--uplinks", "66"]);
    assert!(line(&plan).ends_with("oversubscribed 1.02:1"), "{}", line(&plan));
    let doc = defaults_with(&[("SwitchingCapacity", json!(1600), Some("Gbps"))]);
    let small = write(&dir, "small.json", &doc.to_json_pretty());
    let run = sim(&dir, "incast", &["--config", &small]);
    assert!(line(&run).contains("8 downlinks x 400 Gbps + 0 uplinks x 400 Gbps = 3200 Gbps") && line(&run).ends_with("oversubscribed 2.00:1"), "{}", line(&run));
    refused(&sswitch(&["config", "plan", "--connected-ports", "4", "--uplinks", "5"]), 2, &["--uplinks 5"]);
}

#[test]
fn impossible_scenarios_are_refused_naming_the_field() {
    let dir = fresh_dir("impossible");
    let cases: [(&str, Change); 6] = [
        ("flows[0].start", Box::new(|s| { s["flows"][0]["start"] = json!("10us"); s["flows"][0]["stop"] = json!("5us"); })),
        ("flows[0].start", Box::new(|s| s["flows"][0]["start"] = json!("30us"))),
        ("peer_pauses[0].until", Box::new(|s| s["peer_pauses"] = json!([{"port": 7, "classes": [2], "at": "10us", "every": "1us", "until": "5us"}]))),
        ("peer_pauses[0].until", Box::new(|s| s["peer_pauses"] = json!([{"port": 7, "classes": [2], "at": "10us", "until": "15us"}]))),
        ("flows[0].members", Box::new(|s| s["flows"][0]["members"] = json!([7, 7]))),
        ("flows[0].count", Box::new(|s| { s["flows"][0]["sport"] = json!(65_535); s["flows"][0]["count"] = json!(2); })),
    ];
    for (field, change) in cases {
        let s = incast_with(&dir, change);
        refused(&sim(&dir, &s, &[]), 2, &[field]);
    }
}

#[test]
fn patching_a_unit_restates_default_min_and_max() {
    let dir = fresh_dir("patch_units");
    let stored = write(&dir, "switch.json", &reference::Document::defaults().to_json_pretty());
    let patch = write(&dir, "patch.json", r#"{"LoadBalancingFlowlet": {"Gap": {"value": 1, "unit": "s", "type": "timeval"}}}"#);
    let out = sswitch(&["config", "patch", &stored, &patch]);
    assert!(out.status.success(), "{}", stderr(&out));
    let merged: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let gap = &merged["LoadBalancingFlowlet"]["Gap"];
    assert_eq!((gap["unit"].as_str(), gap["max"].to_string(), gap["min"].to_string(), gap["default"].to_string()),
        (Some("s"), "2".into(), "0".into(), "0.0001".into()));
    let merged_path = write(&dir, "merged.json", &stdout(&out));
    let check = sswitch(&["config", "check", &merged_path, "--connected-ports", "8"]);
    assert!(check.status.success(), "{}", stderr(&check));
}

// ----- errors that do not say where -----

#[test]
fn scenario_errors_name_the_field_path() {
    let dir = fresh_dir("field_paths");
    let cases: [(&str, &str, Change); 5] = [
        ("flows[0].ingress_port", "-1", Box::new(|s| s["flows"][0]["ingress_port"] = json!(-1))),
        ("flows[1].ingress_port", "70000", Box::new(|s| s["flows"][1]["ingress_port"] = json!(70_000))),
        ("peer_pauses[0].quanta", "70000", Box::new(|s| s["peer_pauses"] = json!([{"port": 7, "classes": [2], "at": "1us", "quanta": 70_000}]))),
        ("flows[2].proto", "300", Box::new(|s| s["flows"][2]["proto"] = json!(300))),
        ("flows[4].bogus", "unknown field", Box::new(|s| s["flows"][4]["bogus"] = json!(1))),
    ];
    for (field, value, change) in cases {
        let s = incast_with(&dir, change);
        let out = sim(&dir, &s, &[]);
        refused(&out, 2, &[field, value]);
        assert!(!stderr(&out).contains("expected u16"), "{}", stderr(&out));
    }
}

// ----- records -----

#[test]
fn every_trimming_count_has_its_interval_twin_as_documented() {
    use reference::sim::records::TRIM_COLUMNS;
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let row = readme.lines().find(|l| l.starts_with("| `scala-switch-trimming-stats`")).expect("README documents the trimming record");
    let documented: Vec<&str> = row.split('`').skip(1).step_by(2).filter(|c| c.contains('_') && !c.ends_with('_') && !c.contains("stats") && !c.contains("Enabled")).collect();
    assert!(documented.len() >= 4, "{documented:?}");
    for count in &documented {
        assert!(TRIM_COLUMNS.contains(count), "{count} missing from the record");
        let twin = format!("ivl_{count}");
        assert!(TRIM_COLUMNS.contains(&twin.as_str()), "{twin} missing from the record");
    }
    let counts = TRIM_COLUMNS.iter().filter(|c| c.starts_with("ivl_")).count();
    assert_eq!(counts, documented.len(), "every count and only the counts have interval twins");
}

#[test]
fn the_pfc_event_record_is_documented_column_by_column() {
    use reference::sim::records::PFC_EVENT_COLUMNS;
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let row = readme.lines().find(|l| l.starts_with("| `scala-switch-pfc-events`")).expect("README documents the PFC event record");
    for column in ["direction", "frame", "priorities", "quanta", "pause_end_sec"] {
        assert!(PFC_EVENT_COLUMNS.contains(&column), "{column} missing from the record");
        assert!(row.contains(&format!("`{column}`")), "{column} missing from the README");
    }
}

// ----- beyond the report -----

#[test]
fn duplicate_json_keys_are_refused_in_every_input() {
    let dir = fresh_dir("duplicate_keys");
    let doc = r#"{"LossyAlpha": {"value": 1, "type": "double"}, "LossyAlpha": {"value": 64, "type": "double"}}"#;
    refused(&sswitch(&["config", "check", &write(&dir, "doc.json", doc)]), 2, &["duplicate key", "LossyAlpha"]);
    let stored = write(&dir, "stored.json", &reference::Document::defaults().to_json_pretty());
    let patch = r#"{"NumUpLinks": {"value": 1, "type": "uint", "value": 2}}"#;
    refused(&sswitch(&["config", "patch", &stored, &write(&dir, "patch.json", patch)]), 2, &["duplicate key", "value"]);
    let event = r#"{"t_ns": 1, "kind": "arrive", "port": 0, "dscp": 0, "bytes": 9000, "bytes": 64, "members": [1]}"#;
    refused(&sswitch(&["replay", "--connected-ports", "2", &write(&dir, "e.jsonl", event)]), 2, &["line 1", "duplicate key", "bytes"]);
    let scenario = r#"{"name": "a", "name": "b", "ports": {"downlinks": 2}, "flows": []}"#;
    refused(&sim(&dir, &write(&dir, "s.json", scenario), &[]), 2, &["duplicate key", "name"]);
}

#[test]
fn replay_refuses_fields_it_would_ignore_and_repeated_entries() {
    let dir = fresh_dir("replay_fields");
    let cases = [
        (r#"{"t_ns": 1, "kind": "arrive", "port": 0, "dscp": 0, "bytes": 64, "member": [1]}"#, "field `member`"),
        (r#"{"t_ns": 1, "kind": "depart", "seq": 0, "port": 3}"#, "field `port`"),
        (r#"{"t_ns": 1, "kind": "arrive", "port": 0, "dscp": 0, "bytes": 64, "members": [1, 1]}"#, "listed twice"),
        (r#"{"t_ns": 1, "kind": "pfc_rx", "port": 0, "classes": [3, 3], "quanta": 1}"#, "listed twice"),
    ];
    for (line, needle) in cases {
        refused(&sswitch(&["replay", "--connected-ports", "2", &write(&dir, "e.jsonl", line)]), 2, &["line 1", needle]);
    }
    refused(&sswitch(&["replay", "--connected-ports", "2", "--uplinks", "3", &write(&dir, "e.jsonl", "")]), 2, &["--uplinks 3"]);
}

#[test]
fn port_and_count_arguments_out_of_range_are_refused() {
    let dir = fresh_dir("arguments");
    let out = dir.join("v");
    let out = out.to_str().unwrap();
    refused(&sswitch(&["verilog", "--block", "ecn-marker", "--ports", "0", "-o", out]), 2, &["--ports 0", "1 to 256"]);
    refused(&sswitch(&["verilog", "--block", "buffer-manager", "--ports", "257", "-o", out]), 2, &["--ports 257", "1 to 256"]);
    refused(&sswitch(&["registers", "image", "--connected-ports", "300"]), 2, &["--connected-ports 300", "256"]);
    refused(&sswitch(&["polarization", "--method", "crc32", "--members", "4", "--flows", "0"]), 2, &["--flows"]);
    refused(&sswitch(&["polarization", "--method", "crc32", "--members", "4", "--flows", "1000000000000"]), 2, &["--flows"]);
    refused(&sswitch(&["replay", "--connected-ports", "0", "x"]), 2, &["--connected-ports"]);
    refused(&sswitch(&["sim", "--duration", "100000000s", "--out", out]), 2, &["--duration", "1000000s"]);
}

#[test]
fn a_report_interval_longer_than_any_run_ends_the_run() {
    let dir = fresh_dir("long_interval");
    let mut doc = reference::Document::defaults();
    set(&mut doc, "SharedBufferManager.BufferStatsReportInterval", json!(18_000_000), Some("s"));
    let config = write(&dir, "switch.json", &doc.to_json_pretty());
    // incast's built-in interval patch is replaced by the scenario file's own.
    let s = incast_with(&dir, |s| s["config_patch"] = Value::Null);
    let out = sim(&dir, &s, &["--config", &config]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("balanced"));
}

#[test]
fn a_long_run_streams_its_records_and_keeps_its_memory_flat() {
    let dir = fresh_dir("long_run");
    let scenario = json!({
        "name": "long", "duration": "10ms",
        "config_patch": {"SharedBufferManager": {"BufferStatsReportInterval": {"value": 1, "unit": "us", "type": "timeval"}}},
        "ports": {"downlinks": 8},
        "flows": [{"name": "slow", "ingress_port": 0, "members": [7], "bytes": 1000, "rate_gbps": 0.01}]
    });
    let s = write(&dir, "long.json", &scenario.to_string());
    let out_dir = dir.join("out");
    // 10,000 intervals of 74 rows: about 600 MB as rows in memory, 110 MB as CSV.
    let out = sswitch_capped(&["sim", "--scenario", &s, "--out", out_dir.to_str().unwrap()], 300);
    assert!(out.status.success(), "{}", stderr(&out));
    let ecn = std::fs::read_to_string(out_dir.join("long-ecn-pfc-stats-0.csv")).unwrap();
    assert_eq!(ecn.lines().count(), 1 + 10_000 * 64, "a header and 64 rows per interval");
    let left: Vec<String> = std::fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert!(left.iter().all(|f| f.ends_with(".csv") || f.ends_with("-run.json")), "no .partial file stays: {left:?}");
}
