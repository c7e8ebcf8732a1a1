//! The `sim` main job's speed, in simulated switch events per second
//! (records built in memory):
//!
//!   cargo bench --bench sim_speed
//!
//! - the built-in scenarios, median of five runs;
//! - the same full-load workload (`reference::sim::full_load`: half
//!   downlinks spraying over every uplink with flowlet, half uplinks
//!   sending down, 100% of every 400 Gbps link, 4,000 B frames, 200 us) at
//!   16, 64, 128 and 256 ports, with each size's rate as a fraction of the
//!   16-port rate: the cost of an event should not grow with the switch.

use reference::config::Document;
use reference::sim::{built_in, CheckedScenario, Scenario, SimOptions};
use reference::switch::SwitchIdentity;
use std::time::Instant;

/// Events and median wall time of five runs.
fn measure(checked: &CheckedScenario) -> (u64, f64) {
    let mut times = Vec::new();
    let mut events = 0;
    for _ in 0..5 {
        let started = Instant::now();
        let options = SimOptions { node_id: 1, component_name: "switch-1".into(), progress: None, record_files: None };
        let result = reference::sim::run(&Document::defaults(), checked, SwitchIdentity { node_id: 1, sim_seed: 1, run: 0 }, options, None)
            .expect("runs");
        times.push(started.elapsed().as_secs_f64());
        events = result.summary.events;
    }
    times.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    (events, times[2])
}

/// The full-load workload of a switch of `ports` ports, 200 us.
fn full_load(ports: u16) -> CheckedScenario {
    let mut scenario = Scenario::from_json(&reference::sim::full_load(ports, "200us")).expect("parses");
    scenario.name = format!("full-load-{ports}");
    scenario.check().expect("valid")
}

fn main() {
    for name in ["default", "mixed-12port", "incast", "fanout-flowlet", "uet-trimming"] {
        let (events, median) = measure(&built_in(name).expect("built-in").check().expect("valid"));
        println!("{name}: {events} switch events, median {:.1} ms, {:.2} M events/s", median * 1e3, events as f64 / median / 1e6);
    }
    let mut base = None;
    for ports in [16u16, 64, 128, 256] {
        let (events, median) = measure(&full_load(ports));
        let rate = events as f64 / median;
        let base = *base.get_or_insert(rate);
        println!("full load, {ports} ports: {events} switch events in {:.1} ms, {:.2} M events/s, {:.2} of the 16-port rate",
            median * 1e3, rate / 1e6, rate / base);
    }
}
