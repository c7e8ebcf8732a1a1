//! Fuzz properties over what users hand the tool: replay event lines and
//! scenario documents, valid, nearly valid and hostile. For every case:
//! no panic, memory bounded (an allocator in this test binary counts every
//! byte), every error one line that names its line number or field, and a
//! simulation writes nothing outside its output folder.
//!
//! `SSWITCH_FUZZ_CASES` sets the cases per property (default 100,000).

mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use reference::limits::MAX_TIME_NS;
use reference::replay::Replayer;
use reference::sim::records::write_all;
use reference::sim::{built_in, Scenario, SimOptions};
use reference::switch::SwitchIdentity;
use serde_json::{json, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

struct CountingAllocator;

static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);
static PEAK_BYTES: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; the
// counters only observe sizes.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if LIVE_BYTES.load(Relaxed) + layout.size() > HARD_LIMIT_BYTES {
            return std::ptr::null_mut(); // the process aborts, naming the allocation, before the machine runs out
        }
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE_BYTES.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK_BYTES.fetch_max(live, Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        LIVE_BYTES.fetch_sub(layout.size(), Relaxed);
    }
}

/// Far above what the whole test needs; reaching it ends the test binary.
const HARD_LIMIT_BYTES: usize = 4 << 30;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// How the cases ended, to show the properties reach past the parsers.
static REPLAY_RESULTS: AtomicUsize = AtomicUsize::new(0);
static REPLAY_ERRORS: AtomicUsize = AtomicUsize::new(0);
static REPLAY_RESENDS: AtomicUsize = AtomicUsize::new(0);
static SCENARIOS_REFUSED: AtomicUsize = AtomicUsize::new(0);
static SCENARIOS_RUN: AtomicUsize = AtomicUsize::new(0);

/// The properties run one at a time so that the peak belongs to one case.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// More than any case needs by far (a small switch, a few lines or a 2 us
/// run); a case that grows without bound passes it within the case.
const CASE_MEMORY_BYTES: usize = 256 << 20;

fn cases() -> u32 {
    testbench::settings::case_count_setting("SSWITCH_FUZZ_CASES", 100_000)
}

fn runner() -> TestRunner {
    TestRunner::new(Config { cases: cases(), failure_persistence: None, ..Config::default() })
}

/// Runs `body` and fails when it held more than [`CASE_MEMORY_BYTES`] at once.
fn within_memory<T>(body: impl FnOnce() -> T) -> Result<T, TestCaseError> {
    let base = LIVE_BYTES.load(Relaxed);
    PEAK_BYTES.store(base, Relaxed);
    let out = body();
    let grew = PEAK_BYTES.load(Relaxed).saturating_sub(base);
    prop_assert!(grew < CASE_MEMORY_BYTES, "a case held {grew} bytes at once");
    Ok(out)
}

// ----- replay lines -----

/// The time of the next event: mostly a step forward from the previous
/// one, sometimes a hostile value (near the limit, near 2^64, random).
fn time_step() -> impl Strategy<Value = TimeStep> {
    prop_oneof![
        120 => (0u64..5_000).prop_map(TimeStep::After),
        10 => (40_000u64..200_000).prop_map(TimeStep::After),
        1 => (MAX_TIME_NS - 100..=MAX_TIME_NS + 100).prop_map(TimeStep::At),
        1 => (u64::MAX - 1_000..=u64::MAX).prop_map(TimeStep::At),
        1 => any::<u64>().prop_map(TimeStep::At),
    ]
}

#[derive(Clone, Copy, Debug)]
enum TimeStep {
    After(u64),
    At(u64),
}

fn odd_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        Just(json!(-1)),
        Just(json!(1e300)),
        Just(json!(18_446_744_073_709_551_615u64)),
        "[a-z0-9./]{0,12}".prop_map(Value::String),
        Just(json!([1, 1])),
        Just(json!({"x": 1})),
    ]
}

/// One event of a case; `of` picks the earlier line a tx_start or depart names.
#[derive(Clone, Debug)]
enum Shape {
    Arrive { port: u64, dscp: u64, bytes: u64, members: Vec<u64> },
    Seq { kind: &'static str, of: prop::sample::Index },
    Pfc { port: u64, classes: Vec<u64>, quanta: u64 },
}

fn shape() -> impl Strategy<Value = Shape> {
    let port = || prop_oneof![30 => 0u64..4, 1 => 4u64..6];
    let arrive = (port(), prop_oneof![30 => 0u64..64, 1 => 64u64..100], prop_oneof![30 => 1u64..9300, 1 => 0u64..100_000],
        prop_oneof![30 => prop::sample::subsequence(vec![0u64, 1, 2, 3], 1..4), 1 => prop::collection::vec(0u64..6, 0..70)])
        .prop_map(|(port, dscp, bytes, members)| Shape::Arrive { port, dscp, bytes, members });
    let seq = (prop::sample::select(&["tx_start", "depart"][..]), any::<prop::sample::Index>()).prop_map(|(kind, of)| Shape::Seq { kind, of });
    let pfc = (port(), prop_oneof![30 => prop::sample::subsequence(vec![0u64, 1, 2, 3, 4, 5, 6, 7], 0..4), 1 => prop::collection::vec(0u64..9, 0..4)],
        prop_oneof![30 => 0u64..65_536, 1 => 65_536u64..100_000])
        .prop_map(|(port, classes, quanta)| Shape::Pfc { port, classes, quanta });
    prop_oneof![5 => arrive, 5 => seq, 1 => pfc]
}

/// How a line is bent, if at all.
fn bend() -> impl Strategy<Value = (u8, prop::sample::Index, Value)> {
    let how = prop_oneof![
        150 => Just(0u8),
        1 => Just(1), // a field replaced by an odd value
        1 => Just(2), // a field removed
        1 => Just(3), // an unknown field
        1 => Just(4), // a key repeated
        1 => Just(5), // cut short
    ];
    (how, any::<prop::sample::Index>(), odd_value())
}

/// A replay file: mostly the events a switch sees, some of them bent.
fn event_lines() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec((time_step(), shape(), bend()), 1..40).prop_map(|events| {
        let mut t = 0u64;
        let mut lines = Vec::new();
        // Arrivals not yet started, and started ones not yet departed: a
        // tx_start or depart names one of them (a bend may break that).
        let (mut waiting, mut sending): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
        for (step, shape, (how, index, odd)) in events {
            t = match step {
                TimeStep::After(d) => t.saturating_add(d),
                TimeStep::At(at) => at,
            };
            let mut event = match shape {
                Shape::Arrive { port, dscp, bytes, members } => json!({"t_ns": t, "kind": "arrive", "port": port, "dscp": dscp,
                    "ecn": "ect0", "bytes": bytes, "proto": 17, "src": "10.0.0.1", "dst": "10.0.0.2", "sport": 1, "dport": 2,
                    "members": members}),
                Shape::Seq { kind, of } if kind == "tx_start" && !waiting.is_empty() => {
                    let seq = waiting.remove(of.index(waiting.len()));
                    sending.push(seq);
                    json!({"t_ns": t, "kind": kind, "seq": seq})
                }
                Shape::Seq { kind, of } if kind == "depart" && !sending.is_empty() => {
                    json!({"t_ns": t, "kind": kind, "seq": sending.remove(of.index(sending.len()))})
                }
                Shape::Seq { kind, .. } => json!({"t_ns": t, "kind": "arrive", "port": 1, "dscp": if kind == "depart" { 24 } else { 0 },
                    "bytes": 1500, "members": [0, 2]}),
                Shape::Pfc { port, classes, quanta } => json!({"t_ns": t, "kind": "pfc_rx", "port": port, "classes": classes, "quanta": quanta}),
            };
            if event["kind"] == "arrive" {
                waiting.push(lines.len());
            }
            let object = event.as_object_mut().expect("events are objects");
            let keys: Vec<String> = object.keys().cloned().collect();
            let key = index.get(&keys).clone();
            match how {
                1 => {
                    object.insert(key.clone(), odd);
                }
                2 => {
                    object.remove(&key);
                }
                3 => {
                    object.insert("extra".into(), odd);
                }
                _ => {}
            }
            let text = event.to_string();
            lines.push(match how {
                4 => text.replacen('{', &format!("{{\"{key}\": 1, "), 1),
                5 => text[..index.index(text.len())].to_string(),
                _ => text,
            });
        }
        lines
    })
}

/// A switch that pauses after a few frames, so that cases reach pauses,
/// headroom, resumes and re-sends.
fn quick_pausing_switch() -> reference::switch::Switch {
    let doc = common::defaults_with(&[
        ("SharedBufferManager.StaticPoolXoffThreshold", json!(10), Some("KB")),
        ("SharedBufferManager.StaticPoolXonThreshold", json!(5), Some("KB")),
        ("SharedBufferManager.HeadRoomPerPortLimit", json!(30), Some("KB")),
    ]);
    common::switch_of(&doc, 4, 1)
}

fn check_replay(lines: &[String]) -> Result<(), TestCaseError> {
    let mut replayer = Replayer::new(quick_pausing_switch());
    for (i, line) in lines.iter().enumerate() {
        match replayer.line(line) {
            Ok(Some(result)) => {
                REPLAY_RESULTS.fetch_add(1, Relaxed);
                let t = serde_json::from_str::<Value>(line).ok().and_then(|v| v["t_ns"].as_u64()).unwrap_or(0);
                if let Some(until) = result.get("paused_until_ns").and_then(Value::as_u64) {
                    prop_assert!(until >= t, "pause until {until} before its frame at {t}");
                }
                for frame in result.get("pause_resends").and_then(Value::as_array).into_iter().flatten() {
                    prop_assert!(frame["t_ns"].as_u64().unwrap() <= t, "re-send after its event");
                    REPLAY_RESENDS.fetch_add(1, Relaxed);
                }
            }
            Ok(None) => {}
            Err(e) => {
                REPLAY_ERRORS.fetch_add(1, Relaxed);
                let text = e.to_string();
                prop_assert!(text.starts_with(&format!("line {} (seq {})", i + 1, i)), "{text}");
                prop_assert!(!text.contains('\n') && text.len() < 2_000, "one line: {text}");
                return Ok(());
            }
        }
    }
    Ok(())
}

#[test]
fn replay_lines_never_panic_grow_or_fail_unclearly() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    runner()
        .run(&event_lines(), |lines| within_memory(|| check_replay(&lines))?)
        .unwrap();
    let (results, errors, resends) = (REPLAY_RESULTS.load(Relaxed), REPLAY_ERRORS.load(Relaxed), REPLAY_RESENDS.load(Relaxed));
    eprintln!("replay fuzz: {} cases, {results} results ({resends} pause re-sends), {errors} refused lines", cases());
    assert!(resends >= cases() as usize / 10, "the cases reach paused ports long enough to re-send");
    assert!(results >= 3 * cases() as usize && errors >= cases() as usize / 10, "the cases reach both results and errors");
}

// ----- scenario documents -----

fn scenario_names() -> impl Strategy<Value = Value> {
    prop::sample::select(&["../escaped", "/tmp/x", "a/b", "", "-rf", "..", ".", "ok-name", "x\\y", "name.with.dots"][..]).prop_map(|s| json!(s))
}

fn scenario_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => odd_value(),
        2 => prop::sample::select(&["0ns", "1ps", "1us", "2us", "3us", "-1us", "1000000s", "100000000s", "1.5us", "us", "1 us"][..]).prop_map(|s| json!(s)),
        2 => prop::sample::select(&[0.0, 0.0001, 1.0, 399.0, 400.0, 401.0, 1e6, -5.0][..]).prop_map(|f| json!(f)),
        1 => prop::collection::vec(0u64..12, 0..4).prop_map(|v| json!(v)),
        1 => scenario_names(),
    ]
}

/// A built-in scenario, shortened to 2 us, with a few fields bent. The
/// bases are the small built-ins: the 128-port ones spend their time
/// writing 1,024 record rows per interval, not reading input.
fn scenario_document() -> impl Strategy<Value = String> {
    let base = prop::sample::select(&["incast", "mixed-12port", "uet-trimming", "fanout-flowlet"][..]);
    let mutation = (0usize..6, any::<prop::sample::Index>(), any::<prop::sample::Index>(), scenario_value());
    (base, prop::collection::vec(mutation, 0..4)).prop_map(|(name, mutations)| {
        let mut doc = scenario_json(name);
        doc["duration"] = json!("2us");
        for (target, i, j, value) in mutations {
            let object = match target {
                0 => doc.as_object_mut(),
                1 => doc["ports"].as_object_mut(),
                2 | 3 => doc["flows"].as_array_mut().and_then(|f| {
                    let n = f.len().max(1);
                    f.get_mut(i.index(n))
                }).and_then(Value::as_object_mut),
                _ => {
                    doc["peer_pauses"] = json!([{"port": 1, "classes": [2], "at": "1us"}]);
                    doc["peer_pauses"][0].as_object_mut()
                }
            };
            if let Some(object) = object {
                let keys: Vec<String> = object.keys().cloned().collect();
                if keys.is_empty() {
                    continue;
                }
                let key = j.get(&keys).clone();
                if target == 3 {
                    object.remove(&key);
                } else {
                    object.insert(key, value);
                }
            }
        }
        doc.to_string()
    })
}

/// A built-in scenario as the JSON a user would start from.
fn scenario_json(name: &str) -> Value {
    let s = built_in(name).expect("built-in");
    json!({
        "name": s.name, "duration": s.duration, "config_patch": s.config_patch,
        "ports": {"downlinks": s.ports.downlinks, "uplinks": s.ports.uplinks,
                  "downlink_peer_rate_gbps": s.ports.downlink_peer_rate_gbps, "uplink_peer_rate_gbps": s.ports.uplink_peer_rate_gbps,
                  "downlink_peer_delay": s.ports.downlink_peer_delay},
        "flows": s.flows.iter().map(|f| json!({
            "name": f.name, "ingress_port": f.ingress_port, "members": f.members, "dscp": f.dscp, "ecn": f.ecn, "bytes": f.bytes,
            "rate_gbps": f.rate_gbps, "start": f.start, "stop": f.stop, "proto": f.proto, "src": f.src, "dst": f.dst,
            "sport": f.sport, "dport": f.dport, "count": f.count})).collect::<Vec<_>>(),
        "peer_pauses": s.peer_pauses.iter().map(|p| json!({"port": p.port, "classes": p.classes, "quanta": p.quanta,
            "at": p.at, "every": p.every, "until": p.until})).collect::<Vec<_>>(),
    })
}

/// Runs of accepted scenarios are simulated when this short (the base
/// scenarios are shortened to 2 us).
const LONGEST_FUZZ_RUN_PS: u64 = 5_000_000;

/// An error names a field path of the scenario, or its JSON position.
fn names_a_field(message: &str) -> bool {
    let fields = ["name", "duration", "config_patch", "ports", "flows[", "peer_pauses[", "line "];
    fields.iter().any(|f| message.contains(f))
}

fn check_scenario(text: &str, folder: &PathBuf) -> Result<(), TestCaseError> {
    let checked = match Scenario::from_json(text).and_then(|s| s.check()) {
        Ok(checked) => checked,
        Err(e) => {
            SCENARIOS_REFUSED.fetch_add(1, Relaxed);
            let message = e.to_string();
            prop_assert!(!message.contains('\n') && names_a_field(&message), "{message}");
            return Ok(());
        }
    };
    if checked.duration_ps > LONGEST_FUZZ_RUN_PS {
        return Ok(()); // checked, but too long to simulate 10^5 times
    }
    let options = SimOptions { node_id: 1, component_name: "switch-1".into(), progress: None, record_files: None };
    let identity = SwitchIdentity { node_id: 1, sim_seed: 1, run: 0 };
    let result = match reference::sim::run(&reference::Document::defaults(), &checked, identity, options, None) {
        Ok(result) => result,
        Err(e) => {
            let message = e.to_string();
            prop_assert!(message.lines().all(|l| !l.is_empty()), "{message}");
            return Ok(());
        }
    };
    prop_assert!(result.summary.balances());
    SCENARIOS_RUN.fetch_add(1, Relaxed);
    let _ = std::fs::remove_dir_all(folder);
    let out = folder.join("out");
    let written = write_all(&out, &checked.name, &result.records()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    for path in &written {
        prop_assert!(path.parent() == Some(out.as_path()), "{} outside --out", path.display());
    }
    let beside: Vec<_> = std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().file_name()).collect();
    prop_assert_eq!(beside, vec![std::ffi::OsString::from("out")]);
    Ok(())
}

#[test]
fn scenario_documents_never_panic_grow_escape_or_fail_unclearly() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("input_fuzz").join("case");
    runner().run(&scenario_document(), |text| within_memory(|| check_scenario(&text, &folder))?).unwrap();
    let (refused, run) = (SCENARIOS_REFUSED.load(Relaxed), SCENARIOS_RUN.load(Relaxed));
    eprintln!("scenario fuzz: {} cases, {refused} refused, {run} simulated and written", cases());
    assert!(refused >= cases() as usize / 10 && run >= cases() as usize / 10, "the cases reach both errors and runs");
}
