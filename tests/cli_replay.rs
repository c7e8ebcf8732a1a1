//! `sswitch replay` as a user runs it, and fuzzed event lines.

mod common;

use common::{arrive_line, scratch_file, seq_line, sswitch, stderr, stdout, switch_of};
use proptest::prelude::*;
use reference::config::Document;
use reference::replay::Replayer;
use serde_json::{json, Value};

fn cases() -> u32 {
    testbench::proptest_cases(512)
}

#[test]
fn the_vendor_pfc_example_replays_from_a_file() {
    let mut lines: Vec<String> = (0..241).map(|i| arrive_line(i, 1, 0, 4000, &[2])).collect();
    lines.extend((0..240).map(|i| seq_line(1000, "depart", i)));
    let path = scratch_file("replay_pfc", "events.jsonl", &(lines.join("\n") + "\n"));
    let out = sswitch(&["replay", "--connected-ports", "128", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let results: Vec<Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(results.len(), 481);
    let pauses: Vec<usize> = results.iter().enumerate().filter(|(_, r)| r["pause_sent"] == json!(true)).map(|(i, _)| i).collect();
    assert_eq!(pauses, [175]);
    let headroom = results.iter().filter(|r| r["charged_to"] == json!("headroom")).count();
    assert_eq!(headroom, 64);
    assert_eq!(results[240]["drop"], json!("headroom_full"));
    let resumes: Vec<u64> = results.iter().filter(|r| r["resume_sent"] == json!(true)).map(|r| r["seq"].as_u64().unwrap()).collect();
    assert_eq!(resumes, [241 + 164]);
    let keys: Vec<&String> = results[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["seq", "admitted", "charged_to", "drop", "tc", "pool", "egress_port", "flow_hash", "pause_sent", "trimmed"]);
}

fn replay_text(text: &str) -> std::process::Output {
    let path = scratch_file("replay_errors", &format!("{:x}.jsonl", text.len() * 31 + text.bytes().map(|b| b as usize).sum::<usize>()), text);
    sswitch(&["replay", "--connected-ports", "4", path.to_str().unwrap()])
}

#[test]
fn errors_name_the_line_and_stop_there() {
    let good = arrive_line(10, 0, 0, 100, &[1]);
    let cases = [
        (format!("{good}\n{{not json\n{good}\n"), "line 2"),
        (format!("{good}\n{}\n{good}\n", arrive_line(5, 0, 0, 100, &[1])), "time goes backwards"),
        (format!("{good}\n{}\n", seq_line(20, "tx_start", 7)), "seq 7"),
        (format!("{good}\n{}\n{}\n", seq_line(20, "tx_start", 0), seq_line(20, "depart", 1)), "not an arrival"),
        (format!("{good}\n{}\n", seq_line(20, "depart", 1)), "not an earlier line"),
        (format!("{}\n", arrive_line(0, 9, 0, 100, &[1])), "field `port`"),
        (format!("{}\n", arrive_line(0, 0, 0, 100, &[1, 9])), "field `members`"),
        (format!("{}\n", json!({"t_ns": 0, "kind": "teleport"})), "field `kind`"),
        (format!("{good}\n{}\n{}\n", seq_line(20, "depart", 0), seq_line(30, "depart", 0)), "already departed"),
    ];
    for (text, needle) in cases {
        let out = replay_text(&text);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = stderr(&out);
        assert!(err.contains(needle), "{err:?} should contain {needle:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        let printed = stdout(&out).lines().count();
        let bad_line: usize = err.split("line ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert_eq!(printed, bad_line - 1, "results before the bad line only");
    }
}

#[test]
fn dropped_packets_cannot_be_transmitted() {
    let mut r = Replayer::new(switch_of(&Document::defaults(), 4, 0));
    let mut lines: Vec<String> = (0..241).map(|_| arrive_line(0, 1, 0, 4000, &[2])).collect();
    lines.push(seq_line(1, "tx_start", 240));
    let last = lines.pop().unwrap();
    for l in &lines {
        r.line(l).unwrap();
    }
    assert!(r.line(&last).unwrap_err().to_string().contains("dropped"));
}

fn event_line() -> impl Strategy<Value = String> {
    let kind = prop::sample::select(vec!["arrive", "tx_start", "depart", "pfc_rx", "x"]);
    let num = prop_oneof![Just(json!(0)), Just(json!(-1)), Just(json!(1.5)), Just(json!("3")), (0u64..70_000).prop_map(|n| json!(n)), any::<u64>().prop_map(|n| json!(n))];
    let fields = prop::collection::vec((prop::sample::select(vec!["t_ns", "port", "dscp", "bytes", "seq", "quanta", "proto", "sport", "dport"]), num), 0..9);
    let extras = prop::sample::select(vec![json!(null), json!([0, 1]), json!([99]), json!("10.0.0.1"), json!("ect1"), json!({})]);
    (kind, fields, extras, prop::sample::select(vec!["members", "classes", "src", "dst", "ecn"]))
        .prop_map(|(kind, fields, extra, extra_key)| {
            let mut obj = serde_json::Map::new();
            obj.insert("kind".into(), json!(kind));
            for (k, v) in fields {
                obj.insert(k.into(), v);
            }
            obj.insert(extra_key.into(), extra);
            Value::Object(obj).to_string()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn fuzzed_lines_never_panic(lines in prop::collection::vec(prop_oneof![event_line(), ".{0,40}"], 1..40)) {
        let mut r = Replayer::new(switch_of(&Document::defaults(), 4, 0));
        for l in lines {
            let _ = r.line(&l);
        }
    }
}

fn replay_with(engine: &str, extra: &[&str], path: &std::path::Path) -> std::process::Output {
    let mut args = vec!["replay", "--connected-ports", "8", "--engine", engine];
    args.extend(extra);
    args.push(path.to_str().unwrap());
    sswitch(&args)
}

/// The vendor's PFC example at 8 ports through all three engines: the
/// same lines (no pause is re-sent within it).
#[test]
fn the_engines_print_the_same_lines() {
    let mut lines: Vec<String> = (0..241).map(|i| arrive_line(i * 10, 1, 0, 4000, &[2])).collect();
    lines.extend((0..240u64).map(|i| seq_line(10_000 + i * 10, "depart", i as usize)));
    let path = scratch_file("replay_engines", "events.jsonl", &(lines.join("\n") + "\n"));
    let reference = replay_with("reference", &[], &path);
    assert!(reference.status.success(), "{}", stderr(&reference));
    assert_eq!(stdout(&reference).lines().count(), 481);
    assert!(stdout(&reference).contains("\"pause_sent\":true") && stdout(&reference).contains("\"resume_sent\":true"));
    for engine in ["verilog", "hdl"] {
        let out = replay_with(engine, &["--tables", "2"], &path);
        assert!(out.status.success(), "{engine}: {}", stderr(&out));
        assert_eq!(stdout(&out), stdout(&reference), "{engine}");
    }
}

/// A bad line stops every engine with the same message, after the same lines.
#[test]
fn bad_lines_get_the_same_error_on_every_engine() {
    let good = arrive_line(10, 0, 0, 100, &[1]);
    for (name, text) in [
        ("backwards", format!("{good}\n{}\n", arrive_line(5, 0, 0, 100, &[1]))),
        ("unknown_seq", format!("{good}\n{}\n", seq_line(20, "tx_start", 7))),
        ("bad_port", format!("{good}\n{}\n", arrive_line(30, 9, 0, 100, &[1]))),
        ("departed", format!("{good}\n{}\n{}\n", seq_line(20, "depart", 0), seq_line(30, "depart", 0))),
    ] {
        let path = scratch_file("replay_engine_errors", &format!("{name}.jsonl"), &text);
        let reference = replay_with("reference", &[], &path);
        assert_eq!(reference.status.code(), Some(2), "{name}");
        for engine in ["verilog", "hdl"] {
            let out = replay_with(engine, &["--tables", "2"], &path);
            assert_eq!(out.status.code(), Some(2), "{name} on {engine}");
            assert_eq!((stdout(&out), stderr(&out)), (stdout(&reference), stderr(&reference)), "{name} on {engine}");
        }
    }
}

#[test]
fn the_hardware_engines_refuse_what_they_cannot_run() {
    let late = arrive_line(1 << 32, 0, 0, 100, &[1]);
    let path = scratch_file("replay_engine_limits", "late.jsonl", &format!("{}\n{late}\n", arrive_line(0, 0, 0, 100, &[1])));
    assert!(replay_with("reference", &[], &path).status.success(), "the reference runs past 4.29 s");
    let out = replay_with("hdl", &["--tables", "2"], &path);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("line 2") && stderr(&out).contains("32-bit clock"), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 1);
    for (args, needle) in [(vec!["--engine", "hdl", "--tables", "3"], "--tables 3"), (vec!["--engine", "reference", "--tables", "2"], "--tables 2")] {
        let mut all = vec!["replay", "--connected-ports", "8"];
        all.extend(args);
        all.push(path.to_str().unwrap());
        let out = sswitch(&all);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains(needle), "{}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    }
}
