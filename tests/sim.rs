//! The `sim` main job: conservation, records against hand-computed values,
//! scenario errors, and trace replay.

mod common;

use common::{scratch_file, sswitch, stderr, stdout};
use reference::config::{Document, HashMethod};
use reference::ecmp_hash::{flow_hash, member_index, salt_from_node_id, EcmpHashParams};
use reference::replay::Replayer;
use reference::sim::records::Record;
use reference::sim::{built_in, scenario_config, scenario_ports, Scenario, SimOptions, SimResult, BUILT_IN};
use reference::switch::{Switch, SwitchIdentity};
use serde_json::{json, Value};

fn identity() -> SwitchIdentity {
    SwitchIdentity { node_id: 1, sim_seed: 1, run: 0 }
}

fn options() -> SimOptions {
    SimOptions { node_id: 1, component_name: "switch-1".into(), progress: None, record_files: None }
}

fn simulate(scenario: &Scenario) -> SimResult {
    let checked = scenario.check().unwrap_or_else(|e| panic!("{e}"));
    reference::sim::run(&Document::defaults(), &checked, identity(), options(), None).unwrap_or_else(|e| panic!("{e}"))
}

fn scenario(v: Value) -> Scenario {
    Scenario::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn cell<'a>(record: &'a Record, row: &'a [String], column: &str) -> &'a str {
    &row[record.column(column)]
}

#[test]
fn every_built_in_scenario_conserves_bytes() {
    for name in BUILT_IN {
        assert!(reference::sim::built_in_summary(name).is_some(), "{name} has a line in `sswitch scenario`");
        let result = simulate(&built_in(name).unwrap());
        let s = &result.summary;
        assert!(s.balances(), "{name}: {s}");
        assert!(s.arrivals > 1000, "{name}: {s}");
        assert_eq!(s.arrivals, s.admitted + s.drops.iter().sum::<u64>(), "{name}");
    }
}

/// The ports (and classes) whose last row of `ecn-pfc-stats` has a
/// non-zero running count in `column`, with the count.
fn ports_counting(result: &SimResult, column: &str) -> Vec<(u16, u8, u64)> {
    let record = &result.ecn_pfc_stats;
    let last_time = record.rows.last().unwrap()[record.column("sim_time_sec")].clone();
    record
        .rows
        .iter()
        .filter(|r| cell(record, r, "sim_time_sec") == last_time)
        .map(|r| (cell(record, r, "ifid").parse().unwrap(), cell(record, r, "priority").parse().unwrap(), cell(record, r, column).parse().unwrap()))
        .filter(|&(_, _, n)| n > 0)
        .collect()
}

/// Sums a running count of the 64-uplink set's members in the last row.
fn uplink_set_total(result: &SimResult, column: &str) -> Vec<u64> {
    let lb = result.lb_stats.as_ref().expect("load-balancing record");
    let last_time = lb.rows.last().unwrap()[lb.column("sim_time_sec")].clone();
    lb.rows
        .iter()
        .filter(|r| cell(lb, r, "sim_time_sec") == last_time && cell(lb, r, "group_size") == "64")
        .map(|r| cell(lb, r, column).parse().unwrap())
        .collect()
}

/// The default scenario is the vendor's 128-port switch, and each part of
/// its workload shows in the records where it should.
#[test]
fn the_default_scenario_exercises_every_record() {
    let result = simulate(&built_in("default").unwrap());
    let s = &result.summary;
    assert!(s.balances(), "{s}");
    assert_eq!(result.ecn_pfc_stats.rows.len() % (128 * 8), 0, "a row per port and class of 128 ports");
    // The lossless incast: downlinks 0 and 1 fill, the switch pauses the
    // eight uplinks that send to them (TC0) and resumes them; nothing lossless is lost.
    let paused: Vec<u16> = ports_counting(&result, "pfcxoff_tx").iter().map(|&(p, tc, _)| { assert_eq!(tc, 0); p }).collect();
    assert_eq!(paused, (64..72).collect::<Vec<u16>>());
    let resumed: Vec<u16> = ports_counting(&result, "pfcxon_tx").iter().map(|&(p, _, _)| p).collect();
    assert_eq!(resumed, paused);
    assert!(s.pause_frames_tx >= 50 && s.resume_frames_tx >= 40 && s.pause_resends_tx > 0, "{s}");
    assert_eq!(s.lossless_drops, 0, "{s}");
    // The lossy incast onto downlink 2 meets the egress limit and is marked.
    assert!(s.drops(reference::buffer_manager::DropReason::EgressLimit) > 10_000, "{s}");
    let marked: Vec<(u16, u8)> = ports_counting(&result, "pkts_ecn_marked").iter().map(|&(p, tc, _)| (p, tc)).collect();
    assert_eq!(marked, [(0, 0), (1, 0), (2, 2)], "the two lossless incast ports and the lossy one");
    assert!(s.marked > 10_000, "{s}");
    // The last uplink peer pauses TC3 on ports 120-127, seven times each.
    let peer_paused = ports_counting(&result, "pfcxoff_rx");
    assert_eq!(peer_paused, (120..128).map(|p| (p, 3, 7)).collect::<Vec<_>>());
    // Flowlets move between the 64 uplinks, and selection steps around the paused ones.
    let moves: u64 = uplink_set_total(&result, "movements_in").iter().sum();
    let skips: u64 = uplink_set_total(&result, "paused_skips").iter().sum();
    assert!(moves > 10_000 && skips > 10_000, "moves {moves}, paused skips {skips}");
    let bytes = uplink_set_total(&result, "bytes");
    assert_eq!(bytes.len(), 64);
    let (open, paused_peer) = bytes.split_at(56);
    assert!(paused_peer.iter().max() < open.iter().min(), "the paused peer's links carry least: {bytes:?}");
}

/// The full-load workload balances its bytes at 128 and at 256 ports.
#[test]
fn full_load_conserves_bytes_at_128_and_256_ports() {
    for ports in [128u16, 256] {
        let result = simulate(&Scenario::from_json(&reference::sim::full_load(ports, "100us")).unwrap());
        let s = &result.summary;
        assert!(s.balances(), "{ports} ports: {s}");
        assert_eq!(s.arrivals, s.admitted + s.drops.iter().sum::<u64>(), "{ports} ports");
        assert!(s.arrivals > ports as u64 * 1000, "{ports} ports at full load: {s}");
    }
}

#[test]
fn built_in_scenarios_show_what_they_are_for() {
    let mixed = simulate(&built_in("mixed-12port").unwrap()).summary;
    assert!(mixed.pause_frames_tx > 0 && mixed.resume_frames_tx > 0 && mixed.marked > 0 && mixed.pfc_frames_rx > 0, "{mixed}");
    let incast = simulate(&built_in("incast").unwrap()).summary;
    assert!(incast.pause_frames_tx > 0 && incast.marked > 0 && incast.drops(reference::buffer_manager::DropReason::EgressLimit) > 0);
    assert_eq!(incast.lossless_drops, 0, "headroom suffices: {incast}");
    let small = simulate(&built_in("incast-small-headroom").unwrap()).summary;
    assert!(small.lossless_drops > 0, "too little headroom for the round trip: {small}");
    let trim = simulate(&built_in("uet-trimming").unwrap());
    assert!(trim.summary.trimmed > 0, "{}", trim.summary);
    assert!(trim.trim_stats.is_some());
}

/// Largest over smallest member share of the fan-out set in the last row.
fn imbalance(result: &SimResult) -> f64 {
    let lb = result.lb_stats.as_ref().expect("load-balancing record");
    let last_time = lb.rows.last().unwrap()[0].clone();
    let shares: Vec<f64> = lb
        .rows
        .iter()
        .filter(|r| r[0] == last_time && cell(lb, r, "group_size") == "4")
        .map(|r| cell(lb, r, "bytes").parse::<f64>().unwrap())
        .collect();
    assert_eq!(shares.len(), 4);
    shares.iter().cloned().fold(0.0, f64::max) / shares.iter().cloned().fold(f64::MAX, f64::min)
}

#[test]
fn flowlet_balances_the_fanout_better_than_hashing() {
    let none = simulate(&built_in("fanout-none").unwrap());
    let flowlet = simulate(&built_in("fanout-flowlet").unwrap());
    let (a, b) = (imbalance(&none), imbalance(&flowlet));
    eprintln!("busiest / idlest member bytes: none {a:.3}, flowlet {b:.3}");
    assert!(b < a, "flowlet {b:.3} should beat none {a:.3}");
    assert!(b < 1.1, "flowlet imbalance {b:.3}");
    assert!(flowlet.summary.bytes_held < none.summary.bytes_held);
}

fn one_flow(duration: &str, extra: Value) -> Value {
    let mut v = json!({
        "name": "one", "duration": duration,
        "config_patch": {"SharedBufferManager": {"BufferStatsReportInterval": {"value": 10, "unit": "us", "type": "timeval"}}},
        "ports": {"downlinks": 4},
        "flows": [{"name": "f", "ingress_port": 0, "members": [1], "dscp": 16, "bytes": 1000, "rate_gbps": 100}]
    });
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

#[test]
fn one_interval_of_buffer_statistics_by_hand() {
    // 1,018 B on the wire: every 81.44 ns at 100 Gbps, 20.36 ns to serialize at
    // 400 Gbps, 500 ns of link: frame n arrives at 520.36 + 81.44 n ns and
    // leaves 20.36 ns later. In 10 us, 117 arrive and 117 leave; the queue
    // alternates 1,000 B and 0: 234 samples, min 0, max 1,000, mean 500.
    let result = simulate(&scenario(one_flow("10us", json!({}))));
    let r = &result.buffer_stats;
    let row = r.rows.iter().find(|row| cell(r, row, "buff_id") == "egressQueue" && cell(r, row, "uldl") == "dl" && cell(r, row, "pool_num") == "0").unwrap();
    assert_eq!(cell(r, row, "sim_time_sec"), "0.000010000");
    assert_eq!(cell(r, row, "ivl_count"), "234");
    assert_eq!((cell(r, row, "ivl_min_bytes"), cell(r, row, "ivl_max_bytes")), ("0", "1000"));
    assert_eq!(cell(r, row, "ivl_mean_bytes"), "500.000");
    assert_eq!(cell(r, row, "total_bytes"), "0");
    let pool = result.summary.arrivals;
    assert_eq!(pool, 117);
}

#[test]
fn pause_counts_and_paused_time_by_hand() {
    // 4,000 B TC0 frames at line rate into port 1, whose peer pauses TC0
    // for 84,384 ns from t = 0: nothing drains. Like the vendor's example
    // the 176th frame sends the pause (at 14,643 ns); it is re-sent 42,192 ns
    // later. Within 60 us: 2 pause frames out of port 0, 1 received on
    // port 1, TC0 of port 1 paused all 60 us (percent_xon 0).
    let s = scenario(json!({
        "name": "pause", "duration": "60us",
        "ports": {"downlinks": 4},
        "flows": [{"name": "f", "ingress_port": 0, "members": [1], "dscp": 0, "bytes": 4000, "rate_gbps": 400}],
        "peer_pauses": [{"port": 1, "classes": [0], "quanta": 65535, "at": "0ns"}]
    }));
    let result = simulate(&s);
    let r = &result.ecn_pfc_stats;
    let row = |port: &str, tc: &str| r.rows.iter().find(|row| cell(r, row, "ifid") == port && cell(r, row, "priority") == tc).unwrap().clone();
    let sender_side = row("0", "0");
    assert_eq!(cell(r, &sender_side, "pfcxoff_tx"), "2");
    assert_eq!(cell(r, &sender_side, "pfcxon_tx"), "0");
    let paused = row("1", "0");
    assert_eq!(cell(r, &paused, "pfcxoff_rx"), "1");
    assert_eq!(cell(r, &paused, "pfc_time_paused_usec"), "60.000");
    assert_eq!(cell(r, &paused, "percent_xon"), "0.000");
    assert!(cell(r, &paused, "xoff_egr_occ_ratio").parse::<f64>().unwrap() > 0.9);
    assert_eq!(result.summary.pause_frames_tx, 2);
    assert_eq!(result.summary.drops.iter().sum::<u64>(), 0);
}

#[test]
fn member_shares_follow_the_hash_with_none() {
    let s = scenario(json!({
        "name": "share", "duration": "50us",
        "config_patch": {"LoadBalancingStatsReportInterval": {"value": 50, "unit": "us", "type": "timeval"}},
        "ports": {"downlinks": 4},
        "flows": [{"name": "f", "ingress_port": 0, "members": [1, 2], "dscp": 16, "bytes": 1000, "rate_gbps": 160, "count": 8}]
    }));
    let checked = s.check().unwrap();
    let params = EcmpHashParams { method: HashMethod::Crc32WithSalt, salt: salt_from_node_id(1) };
    let on_first = checked.flows.iter().filter(|f| member_index(flow_hash(&params, &f.key, 2).flow_hash, 2) == 0).count();
    let expected_share = on_first as f64 / 8.0;
    let result = simulate(&s);
    let lb = result.lb_stats.as_ref().unwrap();
    let row = lb.rows.iter().find(|r| cell(lb, r, "ifid") == "1").unwrap();
    let share: f64 = cell(lb, row, "ivl_share").parse().unwrap();
    assert!((share - expected_share).abs() < 0.01, "member 1 share {share}, hash says {expected_share}");
    assert_eq!(cell(lb, row, "flow_table_slots"), "0", "none keeps no table");
}

#[test]
fn a_trace_replays_to_the_same_totals() {
    let s = built_in("default").unwrap();
    let mut checked = s.check().unwrap();
    checked.duration_ps = 300_000_000;
    let mut trace = Vec::new();
    let result = reference::sim::run(&Document::defaults(), &checked, identity(), options(), Some(&mut trace)).unwrap();
    let (config, plan) = scenario_config(&Document::defaults(), &checked).unwrap();
    let switch = Switch::new(&config, plan, scenario_ports(&config, &checked), identity(), Default::default()).unwrap();
    let mut replayer = Replayer::new(switch);
    let (mut admitted, mut marked, mut pauses, mut resumes) = (0u64, 0u64, 0u64, 0u64);
    for line in String::from_utf8(trace).unwrap().lines() {
        let r = replayer.line(line).unwrap().unwrap();
        admitted += (r["admitted"] == json!(true)) as u64;
        marked += (r["ecn_marked"] == json!(true)) as u64;
        pauses += (r["pause_sent"] == json!(true)) as u64;
        resumes += (r["resume_sent"] == json!(true)) as u64;
    }
    let s = &result.summary;
    assert_eq!((admitted, marked, resumes), (s.admitted, s.marked, s.resume_frames_tx));
    assert_eq!(pauses, s.pause_frames_tx - s.pause_resends_tx);
}

#[test]
fn bad_scenarios_name_the_field() {
    let cases = [
        (json!({"name": "x", "ports": {"downlinks": 2}, "flows": [], "bogus": 1}), "bogus"),
        (one_flow("10us", json!({"duration": "ten"})), "duration"),
        (json!({"name": "x", "ports": {"downlinks": 2}, "flows": [{"ingress_port": 5, "members": [1], "bytes": 100, "rate_gbps": 1}]}), "flows[0].ingress_port"),
        (json!({"name": "x", "ports": {"downlinks": 2}, "flows": [{"ingress_port": 0, "members": [1], "bytes": 100, "rate_gbps": -1}]}), "flows[0].rate_gbps"),
        (json!({"name": "x", "ports": {"downlinks": 2}, "flows": [{"ingress_port": 0, "members": [1], "bytes": 100, "rate_gbps": 1, "ecn": "yes"}]}), "flows[0].ecn"),
        (json!({"name": "x", "ports": {"downlinks": 2}, "flows": [{"ingress_port": 0, "members": [], "bytes": 100, "rate_gbps": 1}]}), "flows[0].members"),
        (json!({"name": "x", "ports": {"downlinks": 2}, "flows": [], "peer_pauses": [{"port": 0, "classes": [9], "at": "0ns"}]}), "peer_pauses[0].classes"),
    ];
    for (v, needle) in cases {
        let path = scratch_file("bad_scenarios", &format!("{}.json", needle.replace(['[', ']', '.'], "_")), &v.to_string());
        let out = sswitch(&["sim", "--scenario", path.to_str().unwrap(), "--out", path.parent().unwrap().join("out").to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{v}");
        assert!(stderr(&out).contains(needle), "{:?} should name {needle}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1);
    }
}

#[test]
fn the_main_job_writes_records_and_a_balanced_summary() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sim_cli");
    let _ = std::fs::remove_dir_all(&dir);
    let trace = dir.join("trace.jsonl");
    let out = sswitch(&["sim", "--out", dir.to_str().unwrap(), "--duration", "200us", "--trace", trace.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("balanced"), "{text}");
    for record in ["scala-switch-agg-buff-stats", "scala-switch-load-balancing-stats", "ecn-pfc-stats"] {
        let path = dir.join(format!("default-{record}-0.csv"));
        let csv = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{} missing", path.display()));
        assert!(csv.lines().count() > 2, "{record}");
    }
    assert!(!dir.join("default-scala-switch-trimming-stats-0.csv").exists(), "TrimmingStatsEnabled is off");
    // The trace is a valid replay file: every line gives one result.
    let replay = sswitch(&["replay", "--connected-ports", "128", "--uplinks", "64", "--node-id", "1", trace.to_str().unwrap()]);
    assert!(replay.status.success(), "{}", stderr(&replay));
    let events = std::fs::read_to_string(&trace).unwrap().lines().count();
    assert!(events > 10_000);
    assert_eq!(stdout(&replay).lines().count(), events);
}

#[test]
fn load_balancing_record_is_not_written_when_disabled() {
    let mut s = scenario(one_flow("5us", json!({})));
    s.config_patch.as_mut().unwrap()["EnableLoadBalancingStats"] = json!({"value": false, "type": "bool"});
    assert!(simulate(&s).lb_stats.is_none());
}

/// A progress bar is drawn on stderr only when it is a terminal, never
/// with --quiet, and the summary on stdout is the same either way.
#[test]
fn progress_shows_on_a_terminal_and_never_breaks_piped_output() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sim_progress");
    let out = dir.to_str().unwrap();
    let piped = sswitch(&["sim", "--out", out, "--duration", "3ms"]);
    assert!(piped.status.success());
    assert_eq!(stderr(&piped), "", "nothing on a piped stderr");
    let summary = stdout(&piped);
    assert!(summary.contains("balanced"));
    let on_terminal = |extra: &str| {
        // `script` gives the command a terminal and copies what it drew.
        let command = format!("{} sim --out {out} --duration 3ms {extra}", env!("CARGO_BIN_EXE_sswitch"));
        let o = std::process::Command::new("script").args(["-qec", &command, "/dev/null"]).output().expect("script (util-linux) runs");
        String::from_utf8_lossy(&o.stdout).replace('\r', "")
    };
    let drawn = on_terminal("");
    assert!(drawn.contains("us simulated") && drawn.contains("events/s"), "a bar on a terminal: {drawn}");
    assert!(drawn.contains(summary.lines().last().unwrap()), "the summary survives the bar");
    assert!(!on_terminal("--quiet").contains("us simulated"), "--quiet draws nothing");
}
