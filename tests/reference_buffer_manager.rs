//! The shared buffer manager against the vendor's worked examples.

mod common;

use common::{arrive_line, defaults_with, replay_lines, seq_line, switch_of};
use reference::config::Document;
use reference::replay::Replayer;
use serde_json::{json, Value};

/// The vendor's PFC example: 4,000 B TC0 packets on one port, nothing draining.
fn pfc_example() -> (Replayer, Vec<Value>) {
    let mut r = Replayer::new(switch_of(&Document::defaults(), 128, 0));
    let lines: Vec<String> = (0..241).map(|i| arrive_line(i, 1, 0, 4000, &[2])).collect();
    let results = replay_lines(&mut r, &lines);
    (r, results)
}

#[test]
fn pfc_worked_example_ingress() {
    let (r, results) = pfc_example();
    for (i, res) in results.iter().enumerate() {
        let n = i + 1;
        assert_eq!(res["pause_sent"], json!(n == 176), "packet {n}: {res}");
        match n {
            1..=176 => assert_eq!((&res["admitted"], &res["charged_to"]), (&json!(true), &json!("pool")), "packet {n}"),
            177..=240 => assert_eq!((&res["admitted"], &res["charged_to"]), (&json!(true), &json!("headroom")), "packet {n}"),
            _ => assert_eq!((&res["admitted"], &res["drop"]), (&json!(false), &json!("headroom_full")), "packet {n}"),
        }
        assert_eq!(res["tc"], 0);
        assert_eq!(res["pool"], 0);
    }
    let b = &r.switch().buffer;
    assert_eq!(b.ingress_bytes(1, 0), 704_000);
    assert_eq!(b.headroom_bytes(1, 0), 256_000);
    assert_eq!(b.pool_bytes(0), 704_000, "headroom is never charged to the pool");
}

#[test]
fn pfc_worked_example_release() {
    let (mut r, _) = pfc_example();
    let t = 1_000;
    let departures: Vec<String> = (0..240).map(|i| seq_line(t, "depart", i)).collect();
    let results = replay_lines(&mut r, &departures);
    for (i, res) in results.iter().enumerate() {
        let n = i + 1;
        assert_eq!(res["resume_sent"], json!(n == 165), "departure {n}: {res}");
    }
    let b = &r.switch().buffer;
    assert!(b.is_empty(), "every counter back to zero after the drain");
}

#[test]
fn release_takes_headroom_first_then_occupancy() {
    let (mut r, _) = pfc_example();
    replay_lines(&mut r, &(0..64).map(|i| seq_line(1000, "depart", i)).collect::<Vec<_>>());
    assert_eq!(r.switch().buffer.headroom_bytes(1, 0), 0);
    assert_eq!(r.switch().buffer.ingress_bytes(1, 0), 704_000);
    replay_lines(&mut r, &(64..164).map(|i| seq_line(1000, "depart", i)).collect::<Vec<_>>());
    assert_eq!(r.switch().buffer.ingress_bytes(1, 0), 304_000);
    assert!(r.switch().buffer.xoff_sent(1, 0));
}

#[test]
fn pause_is_resent_every_half_pause_time_until_resume() {
    let mut r = Replayer::new(switch_of(&Document::defaults(), 4, 0));
    let mut lines: Vec<String> = (0..176).map(|_| arrive_line(0, 1, 0, 4000, &[2])).collect();
    // 84,384 ns pause at 400 Gbps + 500 ns: re-sends at 42,192 and 84,384.
    lines.push(seq_line(100_000, "depart", 0));
    let results = replay_lines(&mut r, &lines);
    let resends = results[176]["pause_resends"].as_array().expect("re-sends reported");
    let times: Vec<u64> = resends.iter().map(|f| f["t_ns"].as_u64().unwrap()).collect();
    assert_eq!(times, [42_192, 84_384]);
    assert_eq!(resends[0]["classes"], json!([0]));
    assert_eq!(resends[0]["quanta"], 65535);
    // After the resume no more re-sends.
    let mut more: Vec<String> = (1..176).map(|i| seq_line(100_001, "depart", i)).collect();
    more.push(seq_line(10_000_000, "depart", 175));
    let tail = replay_lines(&mut r, &more[..more.len() - 1]);
    assert!(tail.iter().any(|v| v["resume_sent"] == json!(true)));
}

#[test]
fn lossy_traffic_counts_towards_xoff_but_is_never_paused() {
    let mut r = Replayer::new(switch_of(&Document::defaults(), 4, 0));
    // 174 lossy TC2 packets (pool 0) fill 696,000 B of port 1's occupancy.
    let mut lines: Vec<String> = (0..174).map(|_| arrive_line(0, 1, 16, 4000, &[2])).collect();
    lines.push(arrive_line(0, 1, 0, 4000, &[2])); // lossless: 700,000, not above Xoff
    lines.push(arrive_line(0, 1, 0, 4000, &[2])); // 704,000: pause
    let res = replay_lines(&mut r, &lines);
    assert!(res[..174].iter().all(|v| v["pause_sent"] == json!(false) && v["tc"] == 2));
    assert_eq!(res[174]["pause_sent"], json!(false));
    assert_eq!(res[175]["pause_sent"], json!(true));
}

#[test]
fn pool_full_drop_rolls_back() {
    // A 1 MB buffer, 1 port: pool 0 = 0.9 x (1,000,000 - 256,000) = 669,600 B.
    // Lossless TC0 with Xoff out of reach: no pause, no egress limit.
    let doc = defaults_with(&[
        ("SharedBufferManager.TotalSharedBufferSize", json!(1), Some("MB")),
        ("SharedBufferManager.StaticPoolXoffThreshold", json!(100), Some("MB")),
    ]);
    let mut r = Replayer::new(switch_of(&doc, 1, 0));
    let lines: Vec<String> = (0..168).map(|_| arrive_line(0, 0, 0, 4000, &[0])).collect();
    let res = replay_lines(&mut r, &lines);
    assert_eq!(res[166]["admitted"], json!(true)); // 167 x 4000 = 668,000
    assert_eq!(res[167]["drop"], json!("pool_full"));
    assert_eq!(r.switch().buffer.pool_bytes(0), 668_000);
    assert_eq!(r.switch().buffer.ingress_bytes(0, 0), 668_000);
}

#[test]
fn minimum_charge_is_46_bytes() {
    let mut r = Replayer::new(switch_of(&Document::defaults(), 4, 0));
    replay_lines(&mut r, &[arrive_line(0, 0, 0, 40, &[1])]);
    assert_eq!(r.switch().buffer.pool_bytes(0), 46);
    assert_eq!(r.switch().buffer.egress_bytes(1, 0), 46);
}

#[test]
fn dynamic_limit_levels_off_at_alpha_over_one_plus_alpha() {
    // One lossy queue, nothing draining: it stops near alpha/(1+alpha) of the pool.
    for (alpha, expect_fraction) in [("1.0", 0.5), ("2", 2.0 / 3.0), ("0.5", 1.0 / 3.0)] {
        let doc = defaults_with(&[
            ("SharedBufferManager.TotalSharedBufferSize", json!(50), Some("MB")),
            ("SharedBufferManager.LossyAlpha", serde_json::from_str(alpha).unwrap(), None),
            ("SharedBufferManager.StaticPoolXoffThreshold", json!(100), Some("MB")),
        ]);
        let sw = switch_of(&doc, 4, 0);
        let pool = sw.plan.pool(0).size_bytes as f64;
        let mut r = Replayer::new(sw);
        let mut first_drop = None;
        for i in 0..60_000 {
            let res = r.line(&arrive_line(0, (i % 3) as u16, 16, 1000, &[3])).unwrap().unwrap();
            if res["admitted"] == json!(false) {
                assert_eq!(res["drop"], json!("egress_limit"));
                first_drop = Some(i);
                break;
            }
        }
        assert!(first_drop.is_some(), "alpha {alpha}: the limit never bit");
        let queue = r.switch().buffer.egress_bytes(3, 0) as f64;
        assert!((queue / pool - expect_fraction).abs() < 0.001, "alpha {alpha}: {queue} of {pool}");
    }
}

#[test]
fn fixed_limits_and_the_egress_pool_check() {
    // LossyAlpha 0, QDTE: 5 x 300 KB = 1,500,000 B per queue.
    let doc = defaults_with(&[
        ("SharedBufferManager.LossyAlpha", json!(0), None),
        ("SharedBufferManager.QueueDropThresholdEnable", json!(true), None),
        ("SharedBufferManager.StaticPoolXoffThreshold", json!(100), Some("MB")),
    ]);
    let mut r = Replayer::new(switch_of(&doc, 4, 0));
    let res = replay_lines(&mut r, &(0..376).map(|i| arrive_line(0, (i % 3) as u16, 16, 4000, &[3])).collect::<Vec<_>>());
    assert_eq!(res[374]["admitted"], json!(true)); // 375 x 4000 = 1,500,000
    assert_eq!(res[375]["drop"], json!("egress_limit"));
    assert_eq!(r.switch().buffer.pool_bytes(0), 1_500_000, "the dropped packet's ingress charge was released");
    // Lossless traffic is not limited at egress.
    let res = replay_lines(&mut r, &[arrive_line(0, 0, 0, 4000, &[3])]);
    assert_eq!(res[0]["admitted"], json!(true));

    // Per-port form: pool / ports.
    let doc = defaults_with(&[("SharedBufferManager.LossyAlpha", json!(0), None)]);
    let sw = switch_of(&doc, 128, 0);
    assert_eq!(sw.buffer.egress_limit_bytes(0, reference::classify::Role::NoTrim), 1_569_600);
}

fn uet_doc(trimming: bool) -> Document {
    let mut changes = vec![
        ("SharedBufferManager.UETPolicyEnabled", json!(true), None),
        ("SharedBufferManager.EnablePFC", json!("[0, 0, 0, 0, 0, 0, 0, 0]"), None),
    ];
    if trimming {
        changes.push(("PacketTrimmer.TrimmingEnabled", json!(true), None));
    }
    defaults_with(&changes)
}

#[test]
fn uet_classes_and_retransmit_allowance() {
    // Trimming off: fixed 1,500,000 B; a trimmable retransmission may use 2,250,000 B.
    let mut r = Replayer::new(switch_of(&uet_doc(false), 4, 0));
    let cp = reference::classify::UetCodepoints::default();
    let res = replay_lines(&mut r, &[arrive_line(0, 0, cp.control, 100, &[1]), arrive_line(0, 0, cp.trimmed, 100, &[1])]);
    assert_eq!((res[0]["tc"].clone(), res[0]["pool"].clone()), (json!(2), json!(2)));
    assert_eq!(res[1]["tc"], json!(1));
    let fill: Vec<String> = (0..375).map(|_| arrive_line(0, 0, cp.trimmable, 4000, &[3])).collect();
    let res = replay_lines(&mut r, &fill);
    assert!(res.iter().all(|v| v["admitted"] == json!(true)));
    let res = replay_lines(&mut r, &[arrive_line(0, 0, cp.trimmable, 4000, &[3]), arrive_line(0, 0, cp.trimmable_retransmit, 4000, &[3])]);
    assert_eq!(res[0]["drop"], json!("egress_limit"), "trimming is off: dropped");
    assert_eq!(res[1]["admitted"], json!(true), "retransmissions get 1.5x");
}

#[test]
fn trimming_cuts_to_headers_and_requeues_on_tc1() {
    // Trimming on: fixed PlaneBDP = 300,000 B per queue. Port 3 is an uplink, port 2 faces a NIC.
    let mut r = Replayer::new(switch_of(&uet_doc(true), 4, 1));
    let cp = reference::classify::UetCodepoints::default();
    let fill: Vec<String> = (0..75).map(|_| arrive_line(0, 0, cp.trimmable, 4000, &[2])).collect();
    assert!(replay_lines(&mut r, &fill).iter().all(|v| v["admitted"] == json!(true)));
    let res = replay_lines(&mut r, &[
        arrive_line(0, 0, cp.trimmable, 4000, &[2]),
        arrive_line(0, 0, cp.no_trim, 4000, &[2]),
    ]);
    assert_eq!(res[0]["trimmed"], json!(true));
    assert_eq!((res[0]["tc"].clone(), res[0]["pool"].clone()), (json!(1), json!(1)));
    assert_eq!(res[1]["drop"], json!("egress_limit"), "no-trim packets are dropped");
    let b = &r.switch().buffer;
    assert_eq!(b.egress_bytes(2, 1), 46, "a trimmed packet is charged 46 B on TC1");
    assert_eq!(b.ingress_bytes(0, 1), 46);
    assert_eq!(b.ingress_bytes(0, 0), 300_000, "the original charge was released");
}

#[test]
fn received_pfc_frames_pause_and_resume() {
    let mut r = Replayer::new(switch_of(&Document::defaults(), 4, 0));
    let res = replay_lines(&mut r, &[
        json!({"t_ns": 1000, "kind": "pfc_rx", "port": 2, "classes": [0, 3], "quanta": 65535}).to_string(),
    ]);
    assert_eq!(res[0]["paused_until_ns"], json!(1000 + 84_384));
    let b = &r.switch().buffer;
    assert!(b.is_rx_paused(2, 3, 85_383) && !b.is_rx_paused(2, 3, 85_384) && !b.is_rx_paused(2, 1, 2000));
    replay_lines(&mut r, &[json!({"t_ns": 2000, "kind": "pfc_rx", "port": 2, "classes": [3], "quanta": 0}).to_string()]);
    let b = &r.switch().buffer;
    assert!(!b.is_rx_paused(2, 3, 2000) && b.is_rx_paused(2, 0, 2000));
    // A fresh frame restarts the timer.
    replay_lines(&mut r, &[json!({"t_ns": 50_000, "kind": "pfc_rx", "port": 2, "classes": [0], "quanta": 100}).to_string()]);
    // (100 x 83,886) >> 16 = 127 ns of quanta, plus 500 ns of delay.
    assert_eq!(r.switch().buffer.rx_pause_until_ns(2, 0), 50_000 + 127 + 500);
}
