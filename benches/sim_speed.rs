//! The `sim` main job's speed: the default scenario's wall time and
//! simulated switch events per second (records built in memory).
//!
//!   cargo bench --bench sim_speed

use reference::config::Document;
use reference::sim::{built_in, SimOptions};
use reference::switch::SwitchIdentity;
use std::time::Instant;

fn main() {
    for name in ["default", "incast", "fanout-flowlet", "uet-trimming"] {
        let checked = built_in(name).expect("built-in").check().expect("valid");
        let mut times = Vec::new();
        let mut events = 0;
        for _ in 0..5 {
            let started = Instant::now();
            let options = SimOptions { node_id: 1, component_name: "switch-1".into(), progress: None, record_files: None };
            let result = reference::sim::run(&Document::defaults(), &checked, SwitchIdentity { node_id: 1, sim_seed: 1, run: 0 }, options, None)
                .expect("runs");
            times.push(started.elapsed().as_secs_f64());
            events = result.summary.events;
        }
        times.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
        let median = times[2];
        println!("{name}: {events} switch events, median {:.1} ms, {:.2} M events/s", median * 1e3, events as f64 / median / 1e6);
    }
}
