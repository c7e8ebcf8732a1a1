//! `sswitch replay --engine hdl|verilog`: the hardware datapath replays the
//! built-in scenarios' traces as the reference does (compared as
//! `testbench::datapath_replay::compare_engines` defines).

mod common;

use reference::config::Document;
use reference::replay::Replayer;
use reference::sim::{built_in, scenario_config, scenario_ports, SimOptions};
use reference::switch::{Switch, SwitchIdentity};
use serde_json::Value;
use testbench::datapath_replay::{compare_engines, hardware_engine, replay_lines, EngineComparison, HardwareEngine};

fn identity() -> SwitchIdentity {
    SwitchIdentity { node_id: 1, sim_seed: 1, run: 0 }
}

/// The scenario's trace (JSON lines) and a fresh switch to replay it on.
fn traced(name: &str, duration_ps: Option<u64>) -> (Vec<String>, impl Fn() -> Switch) {
    let mut checked = built_in(name).unwrap().check().unwrap();
    if let Some(d) = duration_ps {
        checked.duration_ps = d;
    }
    let options = SimOptions { node_id: 1, component_name: "switch-1".into(), progress: None, record_files: None };
    let mut trace = Vec::new();
    reference::sim::run(&Document::defaults(), &checked, identity(), options, Some(&mut trace)).unwrap();
    let lines = String::from_utf8(trace).unwrap().lines().map(str::to_owned).collect();
    let switch = move || {
        let (config, plan) = scenario_config(&Document::defaults(), &checked).unwrap();
        Switch::new(&config, plan, scenario_ports(&config, &checked), identity(), Default::default()).unwrap()
    };
    (lines, switch)
}

/// Where a replay's time goes (shown with `--nocapture`): the suite's
/// longest binary is this one, so its phases are worth seeing.
struct Phases {
    last: std::time::Instant,
    laps: String,
}

impl Phases {
    fn start() -> Phases {
        Phases { last: std::time::Instant::now(), laps: String::new() }
    }

    fn lap(&mut self, phase: &str) {
        let now = std::time::Instant::now();
        self.laps += &format!("{}{phase} {:.1}", if self.laps.is_empty() { "" } else { ", " }, (now - self.last).as_secs_f64());
        self.last = now;
    }
}

fn replay_both(name: &str, engine: HardwareEngine, tables: usize, limit: Option<usize>) -> EngineComparison {
    // full-load runs 1 ms of a 128-port switch at full load, 4.7 M events
    // (minutes through Verilator); its first 50 us keep the suite short.
    let duration_ps = (name == "full-load").then_some(50_000_000);
    let mut clock = Phases::start();
    let (mut lines, switch) = traced(name, duration_ps);
    if let Some(n) = limit {
        lines.truncate(n);
    }
    clock.lap("trace");
    let mut reference = Replayer::new(switch());
    let expected: Vec<Value> = lines.iter().filter_map(|l| reference.line(l).unwrap()).collect();
    clock.lap("reference");
    let mut hardware = hardware_engine(engine, &switch(), identity(), tables).unwrap_or_else(|e| panic!("{e}"));
    clock.lap("build");
    let actual: Vec<Value> = replay_lines(hardware.as_mut(), &lines).unwrap_or_else(|e| panic!("{name}: {e}"));
    clock.lap("replay");
    let comparison = compare_engines(&expected, &actual).unwrap_or_else(|e| panic!("{name} through {engine:?}: {e}"));
    clock.lap("compare");
    eprintln!("{name} through {engine:?}: {comparison:?}; seconds: {}", clock.laps);
    comparison
}

/// The 128-port scenarios through the Verilog datapath (Verilator) with the
/// model's 128 flow tables: the default scenario's whole trace (over a
/// million events, pauses received and re-sent) and full-load's first
/// 50 us. One test, so that their model is compiled once.
#[test]
fn the_128_port_scenarios_replay_through_verilog_as_through_the_reference() {
    let c = replay_both("default", HardwareEngine::Verilog, 128, None);
    assert!(c.resends_matched >= 20, "the scenario's pauses were re-sent by the hardware too: {c:?}");
    let c = replay_both("full-load", HardwareEngine::Verilog, 128, None);
    assert!(c.lines > 100_000, "full-load's first 50 us: {c:?}");
}

/// Every other built-in scenario's whole trace through Verilator, in a
/// test of its own so that it runs beside the 128-port ones.
#[test]
fn the_smaller_scenarios_replay_through_verilog_as_through_the_reference() {
    let mut resends = 0;
    for name in reference::sim::BUILT_IN.iter().filter(|n| !matches!(**n, "default" | "full-load")) {
        let c = replay_both(name, HardwareEngine::Verilog, 128, None);
        resends += c.resends_matched;
    }
    assert!(resends >= 20, "the scenarios' pauses were re-sent by the hardware too: {resends}");
}

/// The rust_hdl datapath is about 300 times slower than Verilator: the
/// first lines of every built-in scenario (2 flow tables where the
/// scenario selects on at most 2 sets, else 128).
#[test]
fn built_in_scenarios_replay_through_hdl_as_through_the_reference() {
    for name in reference::sim::BUILT_IN {
        let (tables, lines) = match *name {
            "default" | "full-load" => (128, 300),
            _ => (2, 800),
        };
        let c = replay_both(name, HardwareEngine::Hdl, tables, Some(lines));
        assert_eq!(c.lines, lines, "{name}: every line answered");
    }
}
