//! Reference model throughput: events per second on one core.
//!
//!   cargo bench --bench reference_throughput
//!
//! A closed-loop workload (16 ports, default configuration with flowlet
//! balancing, incast plus fan-out, PFC and ECN active) is recorded once;
//! the timed part feeds the recorded events to a fresh switch through its
//! typed API (no JSON), as a hardware-accelerated simulation would.

use reference::classify::UetCodepoints;
use reference::config::{apply_patch, validate, Document, Topology};
use reference::ports::PortMap;
use reference::replay::Event;
use reference::switch::{Arrival, Packet, Switch, SwitchIdentity};
use reference::workload::{drive, WorkloadSpec};
use reference::BufferPlan;
use serde_json::json;
use std::time::Instant;

const PORTS: u32 = 16;
const REPEATS: usize = 5;

fn switch() -> Switch {
    let patch = json!({"LoadBalancingMethod": {"value": "flowlet", "type": "string"},
                       "LoadBalancingFlowlet": {"Gap": {"value": 5, "unit": "us", "type": "timeval"}}});
    let (doc, _) = apply_patch(&Document::defaults(), &patch).expect("valid patch");
    let config = validate(&doc, &Topology { connected_ports: Some(PORTS), nic_models: vec![] }).expect("valid").config;
    let plan = BufferPlan::derive(&config, PORTS).expect("plan");
    let ports = PortMap::from_config(&config, PORTS as usize, 4);
    Switch::new(&config, plan, ports, SwitchIdentity { node_id: 3, sim_seed: 1, run: 0 }, UetCodepoints::default()).expect("switch")
}

enum Step {
    Arrive(u64, Arrival),
    Tx(usize),
    Depart(u64, usize),
    Pfc(u64, u16, u8, u16),
}

fn main() {
    let spec = WorkloadSpec {
        seed: 7,
        arrivals: 1_000_000,
        load_permille: 1400,
        max_bytes: 4000,
        dscps: vec![0, 8, 16, 24],
        groups: vec![vec![15], vec![12, 13, 14, 15], (0..12).collect()],
        ingress_ports: (0..PORTS as u16).collect(),
        flows_per_port: 64,
        honour_pauses: true,
        pause_reaction_bytes: 100_000,
        pfc_rx_permille: 1,
        drain: true,
    };
    let mut recorder = switch();
    let mut events = Vec::new();
    let started = Instant::now();
    drive(&mut recorder, &spec, |e, _| events.push(e.clone()));
    let driver_secs = started.elapsed().as_secs_f64();

    let mut rates = Vec::new();
    for _ in 0..REPEATS {
        rates.push(timed_replay(&events));
    }
    rates.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    let n = events.len() as f64;
    println!("reference datapath: {} events, median of {REPEATS} runs {:.1} M events/s (min {:.1}, max {:.1})",
        events.len(), rates[REPEATS / 2] / 1e6, rates[0] / 1e6, rates[REPEATS - 1] / 1e6);
    println!("closed-loop workload driver (recording): {:.1} M events/s", n / driver_secs / 1e6);
}

/// Feeds the recorded events to a fresh switch; returns events per second.
fn timed_replay(events: &[Event]) -> f64 {
    let mut sw = switch();
    let steps: Vec<Step> = events
        .iter()
        .map(|e| match e {
            Event::Arrive { t_ns, port, dscp, ecn, bytes, key, members } => {
                let group = sw.register_group(members).expect("group");
                Step::Arrive(*t_ns, Arrival { port: *port, dscp: *dscp, ecn: *ecn, bytes: *bytes, key: *key, group })
            }
            Event::TxStart { seq, .. } => Step::Tx(*seq as usize),
            Event::Depart { t_ns, seq } => Step::Depart(*t_ns, *seq as usize),
            Event::PfcRx { t_ns, port, classes, quanta } => Step::Pfc(*t_ns, *port, *classes, *quanta),
        })
        .collect();
    let mut packets: Vec<Option<Packet>> = vec![None; steps.len()];
    let mut resends = Vec::with_capacity(1024);
    let mut checksum = 0u64;
    let started = Instant::now();
    for (seq, step) in steps.iter().enumerate() {
        match step {
            Step::Arrive(t, a) => {
                sw.due_resends(*t, &mut resends);
                let o = sw.arrive(*t, a);
                checksum += o.admitted as u64;
                packets[seq] = o.packet;
            }
            Step::Tx(of) => checksum += sw.tx_start(packets[*of].as_ref().expect("admitted")) as u64,
            Step::Depart(t, of) => {
                sw.due_resends(*t, &mut resends);
                checksum += sw.depart(packets[*of].as_ref().expect("admitted")) as u64;
            }
            Step::Pfc(t, p, c, q) => checksum += sw.pfc_received(*t, *p, *c, *q) & 1,
        }
        resends.clear();
    }
    let secs = started.elapsed().as_secs_f64();
    std::hint::black_box(checksum);
    steps.len() as f64 / secs
}
