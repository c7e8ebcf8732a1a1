//! Property tests over random closed-loop event streams: conservation, no
//! counter below zero (the model panics on underflow), empty after a full
//! drain, lossless never dropped under the sizing conditions, determinism,
//! and the replay path giving the same answers as the direct one.
//!
//! SSWITCH_PROPTEST_CASES scales the case counts; the defaults run over
//! 10^6 events in total (SSWITCH_COUNT_EVENTS=1 prints each case's count:
//! 1.45 M events for `random_streams_conserve_and_drain` alone).

mod common;

use common::{defaults_with, switch_of};
use proptest::prelude::*;
use reference::config::Document;
use reference::replay::{arrival_json, Replayer};
use reference::switch::Switch;
use reference::workload::{drive, Outcome, WorkloadSpec, WorkloadStats};
use serde_json::{json, Value};

#[derive(Clone, Debug)]
struct Setup {
    changes: Vec<(&'static str, Value, Option<&'static str>)>,
    ports: u32,
    uplinks: usize,
}

impl Setup {
    fn doc(&self) -> Document {
        let c: Vec<(&str, Value, Option<&str>)> = self.changes.iter().map(|(p, v, u)| (*p, v.clone(), *u)).collect();
        defaults_with(&c)
    }
    fn switch(&self) -> Switch {
        switch_of(&self.doc(), self.ports, self.uplinks)
    }
}

/// Random valid configurations that reach every path.
fn setup() -> impl Strategy<Value = Setup> {
    let buffer_mb = prop::sample::select(vec![1u32, 2, 5, 20]);
    let alpha = prop::sample::select(vec!["0", "0.125", "1", "2"]);
    let pools = prop::sample::select(vec!["[0.9, 0.1, 0, 0, 0, 0, 0, 0]", "[0.5, 0.3, 0, 0, 0, 0, 0, 0]", "[0.6, 0.3, 0.2, 0, 0, 0, 0, 0]"]);
    let mapping = prop::sample::select(vec!["[0, 1, 0, 0, 0, 0, 0, 0]", "[0, 1, 2, 2, 0, 1, 0, 0]"]);
    let pfc = prop::sample::select(vec!["[1, 1, 0, 0, 0, 0, 0, 0]", "[0, 0, 0, 0, 0, 0, 0, 0]", "[1, 0, 1, 0, 0, 0, 0, 0]"]);
    let policy = prop::sample::select(vec!["normal", "uet", "uet_trim"]);
    let lb = prop::sample::select(vec!["none", "flowlet"]);
    let method = prop::sample::select(vec!["crc32WithSalt", "crc32", "hash", "hashWithSalt"]);
    let gap_us = prop::sample::select(vec![0u32, 1, 20, 1000]);
    ((buffer_mb, alpha, any::<bool>(), pools, mapping, pfc), (policy, lb, method, gap_us, 2u32..12, 0usize..3, 5u32..60))
        .prop_map(|((mb, alpha, qdte, pools, mapping, pfc), (policy, lb, method, gap, ports, uplinks, headroom_kb))| {
            let ports = ports.min(mb * 1000 / headroom_kb / 2).max(2);
            let mut changes: Vec<(&'static str, Value, Option<&'static str>)> = vec![
                ("SharedBufferManager.TotalSharedBufferSize", json!(mb), Some("MB")),
                ("SharedBufferManager.HeadRoomPerPortLimit", json!(headroom_kb), Some("KB")),
                ("SharedBufferManager.StaticPoolXoffThreshold", json!(40), Some("KB")),
                ("SharedBufferManager.StaticPoolXonThreshold", json!(20), Some("KB")),
                ("SharedBufferManager.PlaneBDP", json!(30), Some("KB")),
                ("SharedBufferManager.LossyAlpha", serde_json::from_str(alpha).unwrap(), None),
                ("SharedBufferManager.QueueDropThresholdEnable", json!(qdte), None),
                ("SharedBufferManager.PoolAllocationMap", json!(pools), None),
                ("SharedBufferManager.TrafficClassPoolMapping", json!(mapping), None),
                ("LoadBalancingMethod", json!(lb), None),
                ("EcmpHashMethod", json!(method), None),
                ("LoadBalancingFlowlet.Gap", json!(gap), Some("us")),
                ("EcnHandler.MinThreshold", json!(0.05), None),
                ("EcnHandler.MaxThreshold", json!(0.5), None),
            ];
            match policy {
                "normal" => changes.push(("SharedBufferManager.EnablePFC", json!(pfc), None)),
                "uet" => {
                    changes.push(("SharedBufferManager.UETPolicyEnabled", json!(true), None));
                    changes.push(("SharedBufferManager.EnablePFC", json!(pfc), None));
                }
                _ => {
                    changes.push(("SharedBufferManager.UETPolicyEnabled", json!(true), None));
                    changes.push(("SharedBufferManager.EnablePFC", json!("[0, 0, 0, 0, 0, 0, 0, 0]"), None));
                    changes.push(("PacketTrimmer.TrimmingEnabled", json!(true), None));
                }
            }
            Setup { changes, ports, uplinks: uplinks.min(ports as usize - 1) }
        })
}

fn spec_for(setup: &Setup, seed: u64, arrivals: usize, load_permille: u32, honour: bool) -> WorkloadSpec {
    let n = setup.ports as u16;
    let cp = reference::classify::UetCodepoints::default();
    WorkloadSpec {
        seed,
        arrivals,
        load_permille,
        max_bytes: 9000,
        dscps: vec![0, 8, 16, 40, 63, cp.trimmable, cp.trimmable_retransmit, cp.control],
        groups: vec![vec![0], (0..n).collect(), vec![n - 1, 0], (1..n).collect()],
        ingress_ports: (0..n).collect(),
        flows_per_port: 6,
        honour_pauses: honour,
        pause_reaction_bytes: 20_000,
        pfc_rx_permille: 5,
        drain: true,
    }
}

fn run(setup: &Setup, spec: &WorkloadSpec) -> (Switch, WorkloadStats, Vec<(reference::replay::Event, Outcome)>) {
    let mut sw = setup.switch();
    let mut log = Vec::new();
    let stats = drive(&mut sw, spec, |e, o| log.push((e.clone(), o.clone())));
    (sw, stats, log)
}

fn check_conservation(sw: &Switch, s: &WorkloadStats) -> Result<(), TestCaseError> {
    prop_assert_eq!(s.bytes_in, s.bytes_out + s.bytes_dropped + s.bytes_trimmed_away + s.bytes_held, "conservation: {:?}", s);
    prop_assert_eq!(s.bytes_held, 0, "everything drained");
    prop_assert!(sw.buffer.is_empty(), "every counter back to zero after the drain");
    prop_assert_eq!(s.arrivals, s.admitted + s.drops.iter().sum::<u64>());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: testbench::proptest_cases(40), ..ProptestConfig::default() })]

    /// 40 cases, each run twice, of 12,000 arrival attempts (with their
    /// transmissions, departures and PFC frames, well over 10^6 events in
    /// all): conservation, drain to zero, determinism.
    #[test]
    fn random_streams_conserve_and_drain(setup in setup(), seed in any::<u64>(), load in 300u32..2500, honour in any::<bool>()) {
        let spec = spec_for(&setup, seed, 12_000, load, honour);
        let (sw, stats, log) = run(&setup, &spec);
        check_conservation(&sw, &stats)?;
        let (_, again, log_again) = run(&setup, &spec);
        prop_assert_eq!(&stats, &again, "same seed, same totals");
        prop_assert!(log == log_again, "same seed, same outcome for every event");
        prop_assert!(stats.events >= stats.arrivals + 2 * stats.admitted);
        if testbench::settings::switch_setting("SSWITCH_COUNT_EVENTS") { eprintln!("EVENTS {}", 2 * stats.events); }
    }

    /// Lossless classes are never dropped when the three sizing conditions
    /// hold and senders honour pauses.
    #[test]
    fn lossless_never_dropped_under_sizing_conditions(seed in any::<u64>(), ports in 2u32..10, load in 800u32..3000) {
        let setup = sized_for_lossless(ports, 20_000);
        let mut spec = spec_for(&setup, seed, 10_000, load, true);
        spec.dscps = vec![0, 8, 0, 8, 16]; // TC0, TC1 lossless (pools 0, 1); TC2 lossy in pool 2
        let (sw, stats, _) = run(&setup, &spec);
        check_conservation(&sw, &stats)?;
        prop_assert_eq!(stats.lossless_drops, 0, "{:?}", stats);
    }
}

/// A configuration meeting the three conditions for lossless classes:
/// (1) lossless class n maps to pool n and no lossy class shares its pool;
/// (2) each lossless pool holds ports x (Xoff + largest frame);
/// (3) headroom per port covers what a sender sends after a pause.
fn sized_for_lossless(ports: u32, headroom_bytes: u32) -> Setup {
    Setup {
        changes: vec![
            ("SharedBufferManager.TotalSharedBufferSize", json!(4), Some("MB")),
            ("SharedBufferManager.HeadRoomPerPortLimit", json!(headroom_bytes), Some("B")),
            ("SharedBufferManager.StaticPoolXoffThreshold", json!(60), Some("KB")),
            ("SharedBufferManager.StaticPoolXonThreshold", json!(30), Some("KB")),
            ("SharedBufferManager.PoolAllocationMap", json!("[0.4, 0.4, 0.2, 0, 0, 0, 0, 0]"), None),
            ("SharedBufferManager.TrafficClassPoolMapping", json!("[0, 1, 2, 2, 2, 2, 2, 2]"), None),
            ("SharedBufferManager.EnablePFC", json!("[1, 1, 0, 0, 0, 0, 0, 0]"), None),
        ],
        ports,
        uplinks: 0,
    }
}

#[test]
fn lossless_drops_appear_when_headroom_is_too_small() {
    // The negative control: headroom below the senders' reaction allowance.
    let setup = sized_for_lossless(6, 9_000);
    let mut spec = spec_for(&setup, 3, 20_000, 2500, true);
    spec.dscps = vec![0, 8];
    let (_, stats, _) = run(&setup, &spec);
    assert!(stats.lossless_drops > 0, "{stats:?}");
}

#[test]
fn replaying_a_recorded_stream_gives_the_same_results() {
    let setup = Setup { changes: vec![("LoadBalancingMethod", json!("flowlet"), None), ("LoadBalancingFlowlet.Gap", json!(2), Some("us"))], ports: 8, uplinks: 2 };
    let spec = spec_for(&setup, 11, 5_000, 1500, true);
    let (_, _, log) = run(&setup, &spec);
    let mut replayer = Replayer::new(setup.switch());
    for (seq, (event, outcome)) in log.iter().enumerate() {
        let got = replayer.line(&event.to_json().to_string()).unwrap().unwrap();
        let mut got_core = got.clone();
        got_core.as_object_mut().unwrap().remove("pause_resends");
        let want = match outcome {
            Outcome::Arrival(a) => arrival_json(seq as u64, a),
            Outcome::Marked(m) => json!({"seq": seq, "ecn_marked": m}),
            Outcome::Resumed(r) => json!({"seq": seq, "resume_sent": r}),
            Outcome::PausedUntil(t) => json!({"seq": seq, "paused_until_ns": t}),
        };
        assert_eq!(got_core, want, "event {seq}: {}", event.to_json());
    }
}

#[test]
fn the_default_configuration_handles_an_incast() {
    let setup = Setup { changes: vec![], ports: 16, uplinks: 4 };
    let mut spec = spec_for(&setup, 5, 30_000, 3000, true);
    spec.groups = vec![vec![15]];
    let (sw, stats, _) = run(&setup, &spec);
    assert!(stats.pauses > 0 && stats.resumes > 0, "{stats:?}");
    assert!(stats.marked > 0, "{stats:?}");
    assert_eq!(stats.bytes_held, 0);
    assert!(sw.buffer.is_empty());
}

/// Pause re-sends by the hardware's way (a round-robin sweep over the
/// (port, pool) pairs, one per cycle: `resend_due` then `advance_resend`)
/// and by the event-driven `due_resends` are the same frames with the same
/// due times while nothing resumes and the interval (42,192 ns here) is
/// longer than a sweep (128 pairs x 100 ns): each goes out within one sweep
/// of falling due, and the sweep sends nothing the model does not.
mod resend_sweep {
    use super::*;
    use reference::buffer_manager::{BufferManager, PfcFrame};

    const NS_PER_CYCLE: u64 = 100;
    const PAIRS: usize = 16 * 8;
    const CYCLES: u64 = 4_000;

    fn key(f: &PfcFrame) -> (u64, u16, u8, u8) {
        (f.t_ns, f.port, f.pool, f.classes)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(testbench::proptest_cases(48)))]

        #[test]
        fn sweep_sends_what_falls_due(mut pauses in prop::collection::vec((0usize..16, 0u64..2_000), 1..40)) {
            pauses.sort_by_key(|p| p.1);
            let mut params = switch_of(&Document::defaults(), 16, 0).buffer.params().clone();
            params.xoff_bytes = 0;
            let mut driven = BufferManager::new(params.clone());
            let mut swept = BufferManager::new(params);
            let (mut model_frames, mut sweep_frames) = (Vec::new(), Vec::new());
            let mut next = 0;
            for cycle in 0..CYCLES {
                let now = cycle * NS_PER_CYCLE;
                while next < pauses.len() && pauses[next].1 == cycle {
                    driven.due_resends(now, &mut model_frames);
                    driven.ingress(now, pauses[next].0, 0, 4000);
                    swept.ingress(now, pauses[next].0, 0, 4000);
                    next += 1;
                }
                let pair = cycle as usize % PAIRS;
                if let Some(frame) = swept.resend_due(pair / 8, pair % 8, now) {
                    swept.advance_resend(pair / 8, pair % 8);
                    sweep_frames.push((frame, now));
                }
            }
            let end = (CYCLES - 1) * NS_PER_CYCLE;
            driven.due_resends(end, &mut model_frames);
            let sweep_period = PAIRS as u64 * NS_PER_CYCLE;
            prop_assert!(!sweep_frames.is_empty());
            let model: std::collections::HashSet<_> = model_frames.iter().map(key).collect();
            prop_assert_eq!(model.len(), model_frames.len(), "the model sends each frame once");
            for (frame, sent) in &sweep_frames {
                prop_assert!(model.contains(&key(frame)), "the sweep sent {frame:?} the model did not");
                prop_assert!(frame.t_ns <= *sent && *sent < frame.t_ns + sweep_period, "{frame:?} sent at {sent}");
            }
            let swept_keys: std::collections::HashSet<_> = sweep_frames.iter().map(|(f, _)| key(f)).collect();
            for frame in model_frames.iter().filter(|f| f.t_ns + sweep_period <= end) {
                prop_assert!(swept_keys.contains(&key(frame)), "the sweep missed {frame:?}");
            }
        }
    }
}
