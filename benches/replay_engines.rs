//! Events per second of `sswitch replay` on each engine, on the default
//! scenario's trace (128 ports, 500 us), in one run:
//!
//!   cargo bench --bench replay_engines
//!
//! The reference and the Verilog engine (Verilator, the model compiled
//! beforehand and not timed) replay the whole trace; the rust_hdl engine
//! replays its first `SSWITCH_HDL_LINES` lines (default 2,000), as the
//! whole trace would take it hours. Lines are parsed and answered as by
//! `sswitch replay` (JSON in, JSON out), without writing them anywhere.
//!
//! First it counts the cycles the 128-port datapath takes for the whole
//! trace when each event is given as soon as it can take it (the
//! co-simulation's schedule, exact to the cycle, counted without laying
//! the cycles out), and the events per second that makes at the routed
//! clock (`SSWITCH_DATAPATH_MHZ`, default 61.0: the README's 128-port
//! speed-8 route). The replay engines themselves wait for each arrival's
//! result before the next line.

use reference::config::Document;
use reference::replay::{parse_event, Replayer};
use reference::sim::{built_in, scenario_config, scenario_ports, SimOptions};
use reference::switch::{Switch, SwitchIdentity};
use std::time::Instant;
use testbench::datapath_replay::{compare_engines, hardware_engine, replay_lines, HardwareEngine};
use testbench::switch_datapath_bench::SwitchDatapathBench;

/// The 128-port datapath with the model's 128 flow tables.
type Datapath128 = SwitchDatapathBench<10, 7, 8, 16, 14>;

const IDENTITY: SwitchIdentity = SwitchIdentity { node_id: 1, sim_seed: 1, run: 0 };

/// The rust_hdl datapath's simulation recurses deeply; the main thread's
/// stack is too small for it (tests get `RUST_MIN_STACK` from
/// `.cargo/config.toml`, which only sizes spawned threads).
const STACK_BYTES: usize = 256 << 20;

fn main() {
    std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(measure)
        .expect("a thread for the benchmark")
        .join()
        .expect("the benchmark ran");
}

fn measure() {
    let checked = built_in("default").expect("built in").check().expect("valid");
    let options = SimOptions { node_id: 1, component_name: "switch-1".into(), progress: None, record_files: None };
    let mut trace = Vec::new();
    reference::sim::run(&Document::defaults(), &checked, IDENTITY, options, Some(&mut trace)).expect("simulated");
    let lines: Vec<String> = String::from_utf8(trace).expect("UTF-8").lines().map(str::to_owned).collect();
    let switch = || {
        let (config, plan) = scenario_config(&Document::defaults(), &checked).expect("config");
        Switch::new(&config, plan, scenario_ports(&config, &checked), IDENTITY, Default::default()).expect("switch")
    };
    println!("default scenario: {} events, 128 ports, 128 flow tables", lines.len());

    let events: Vec<_> = lines.iter().map(|l| parse_event(l, 128).expect("a valid line")).collect();
    let started = Instant::now();
    let (cycles, coverage) = Datapath128::new(128).cycles(switch(), IDENTITY, &events).expect("the datapath takes the trace");
    let first = Datapath128::first_event_cycle();
    let mhz: f64 = setting("SSWITCH_DATAPATH_MHZ", 61.0, "a clock in MHz above 0", |m: &f64| m.is_finite() && *m > 0.0);
    let event_cycles = cycles - first;
    println!(
        "datapath schedule: {cycles} cycles ({event_cycles} after the sweep's {first}), {:.2} per event, {:.2} M events/s at {mhz} MHz (counted in {:.1} s)",
        event_cycles as f64 / events.len() as f64,
        events.len() as f64 * mhz / event_cycles as f64,
        started.elapsed().as_secs_f64()
    );
    println!("  {coverage:?}");

    let started = Instant::now();
    let mut reference = Replayer::new(switch());
    let expected: Vec<_> = lines.iter().filter_map(|l| reference.line(l).expect("valid line")).collect();
    report("reference", lines.len(), started.elapsed().as_secs_f64());

    let mut verilog = hardware_engine(HardwareEngine::Verilog, &switch(), IDENTITY, 128).expect("a Verilator model");
    let started = Instant::now();
    let actual = replay_lines(verilog.as_mut(), &lines).expect("valid lines");
    report("verilog (Verilator)", lines.len(), started.elapsed().as_secs_f64());
    let c = compare_engines(&expected, &actual).expect("the engines agree");
    println!("  agreement: {c:?}");

    let n: usize = setting("SSWITCH_HDL_LINES", 2_000, "a count of lines above 0", |n: &usize| *n > 0).min(lines.len());
    let mut hdl = hardware_engine(HardwareEngine::Hdl, &switch(), IDENTITY, 128).expect("the rust_hdl datapath");
    let started = Instant::now();
    let actual = replay_lines(hdl.as_mut(), &lines[..n]).expect("valid lines");
    report(&format!("hdl (rust_hdl), first {n} events"), n, started.elapsed().as_secs_f64());
    compare_engines(&expected[..actual.len()], &actual).expect("the engines agree");
}

/// The environment variable `name` read as a `T` that passes `valid`, or
/// `default` when it is not set; any other value stops the benchmark with
/// one line naming the variable, its value and the rule.
fn setting<T: std::str::FromStr>(name: &str, default: T, rule: &str, valid: impl Fn(&T) -> bool) -> T {
    testbench::settings::setting(name, default, rule, valid).unwrap_or_else(|line| {
        eprintln!("{line}");
        std::process::exit(2);
    })
}

fn report(engine: &str, events: usize, seconds: f64) {
    println!("{engine}: {events} events in {seconds:.2} s, {:.0} events/s", events as f64 / seconds);
}
