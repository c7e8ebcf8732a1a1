//! The switch datapath against `reference::switch::Switch`, in rust_hdl
//! and in Verilog (Icarus, Verilator), with lint and synthesis.

use proptest::prelude::*;
use reference::replay::Event;
use reference::switch::Ecn;
use synth::tools::{verilator_lint, write_verilog, yosys_synth, Family};
use synth::HardwareBlock;
use testbench::cosim::{check, first_mismatch, Trace};
use testbench::proptest_cases;
use testbench::switch_datapath_bench::workloads::{self, Case, IDENTITY};
use testbench::switch_datapath_bench::{outputs, strategies, Coverage, DatapathBuild, SmallDatapath};
use testbench::verilator::{assert_corruption_caught, random_cosim, run_with_waves, verilator_cycles, VerilatedModel};
use testbench::verilog_replay::{assert_icarus_catches_corruption, replay, replay_dir};

const PORTS: u16 = 8;

fn case(seed: u64, arrivals: usize, uet: bool) -> Case {
    Case {
        ports: PORTS,
        seed,
        arrivals,
        gap_ns: 2_000,
        pfc_aware: true,
        uet,
        tables: SmallDatapath::tables(),
        pfc_rx_permille: 60,
        // Four sets for a build with two tables: the last two use hash mod size.
        groups: vec![vec![4, 5, 6, 7], vec![6, 7], vec![0, 1, 2, 3, 4, 5], vec![5]],
    }
}

fn trace_of(c: &Case) -> (Trace, Coverage) {
    SmallDatapath::new(c.ports as usize).trace(workloads::switch(c), IDENTITY, &workloads::events(c)).unwrap_or_else(|e| panic!("{e}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(12)))]

    #[test]
    fn cosim_matches_reference(c in strategies::case(PORTS, SmallDatapath::tables(), 10..60)) {
        let bench = SmallDatapath::new(PORTS as usize);
        let (trace, _) = trace_of(&c);
        if let Err(m) = check(&bench, &trace, "switch_datapath_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/switch_datapath_cosim.vcd)");
        }
    }
}

/// Two recorded workloads (PFC and lossy; UET with trimming), every event
/// compared, reach every outcome of an arrival and every other answer.
#[test]
fn recorded_workloads_reach_every_outcome() {
    let bench = SmallDatapath::new(PORTS as usize);
    let mut total = Coverage::default();
    for c in [case(1, 400, false), case(2, 400, true)] {
        let (trace, coverage) = trace_of(&c);
        println!("seed {}: {} cycles, {coverage:?}", c.seed, trace.cycles());
        check(&bench, &trace, &format!("switch_datapath_recorded_{}", c.seed)).unwrap_or_else(|m| panic!("{m}"));
        total += &coverage;
    }
    assert!(total.refused_at_ingress >= 20 && total.dropped_at_egress >= 20 && total.to_headroom >= 5 && total.trimmed >= 20, "{total:?}");
    assert!(total.pauses_sent >= 2 && total.resumes >= 2 && total.marked >= 10 && total.pfc_frames >= 10, "{total:?}");
    assert!(total.balanced >= 10, "flowlet moved packets off hash mod size: {total:?}");
    assert!(total.sets > SmallDatapath::tables(), "sets past the last flow table: {total:?}");
    assert!(total.full_walks >= 5 && total.ring_walks >= 100, "refreshes of every port and of the changed ones: {total:?}");
}

/// Twenty packets to one port, their departures (each marks the port),
/// then one more arrival: the ring of changed ports overflows, and the
/// refresh walks every port instead.
#[test]
fn a_ring_overflow_walks_every_port() {
    let key = reference::ecmp_hash::FlowKey { proto: 17, src: 0x0A00_0001, dst: 0x0A00_0002, sport: 1000, dport: 4791 };
    let arrive = |t_ns: u64| Event::Arrive { t_ns, port: 1, dscp: 8, ecn: Ecn::Ect0, bytes: 500, key, members: vec![2, 3] };
    let mut events: Vec<Event> = (0..20u64).map(|i| arrive(100 * i)).collect();
    events.extend((0..20u64).map(|i| Event::Depart { t_ns: 5_000 + 100 * i, seq: i }));
    events.push(arrive(10_000));
    let c = case(0, 0, false);
    let bench = SmallDatapath::new(PORTS as usize);
    let (trace, coverage) = bench.trace(workloads::switch(&c), IDENTITY, &events).unwrap();
    assert_eq!(coverage.admitted, 21, "{coverage:?}");
    assert_eq!(coverage.overflow_walks, 1, "{coverage:?}");
    check(&bench, &trace, "switch_datapath_ring_overflow").unwrap_or_else(|m| panic!("{m}"));
}

/// Stale port state changes a selection: the wrong egress port shows in
/// the arrival's result, or first in `ev_ready`, when a `tx_start` taken
/// in its tail waits for one port and not the other.
#[test]
fn hardware_without_the_port_refresh_is_caught() {
    let bench = SmallDatapath { ports: PORTS as usize, build: DatapathBuild::WithoutPortRefresh };
    let (trace, _) = trace_of(&case(1, 60, false));
    let m = first_mismatch(&bench, &trace).expect("stale port state must change a selection");
    assert!(m.signal == "egress_port" || m.signal == "ev_ready", "{m}");
}

/// Streamed events go back to back (a run of departures answers one per
/// clock), and an arrival follows them at once. Two builds must go wrong
/// on the same trace: one that marks a release's port for the refresh
/// only with its answer (an arrival right behind selects on that port's
/// occupancy before the release), and one that takes the buffer manager's
/// first answer after the ingress probe for the probe's (a release's, when
/// one is in flight).
#[test]
fn streamed_events_go_one_per_clock_and_an_arrival_follows_at_once() {
    let c = case(1, 60, false);
    let (trace, coverage) = trace_of(&c);
    println!("{} cycles, {coverage:?}", trace.cycles());
    let results: Vec<usize> = (0..trace.cycles()).filter(|&k| trace.expected[k][outputs::result_valid] == Some(1)).collect();
    let back_to_back = results.windows(2).filter(|w| w[1] == w[0] + 1).count();
    assert!(back_to_back >= coverage.admitted, "results in consecutive cycles: {back_to_back}, {coverage:?}");
    assert!(coverage.behind_release >= 10, "arrivals taken with a release in flight: {coverage:?}");
    check(&SmallDatapath::new(PORTS as usize), &trace, "switch_datapath_streamed").unwrap_or_else(|m| panic!("{m}"));
    let late_mark = SmallDatapath { ports: PORTS as usize, build: DatapathBuild::WithoutEarlyStreamMark };
    let m = first_mismatch(&late_mark, &trace).expect("an arrival behind a release must see its port");
    println!("caught without the early mark: {m}");
    // Refusals at the ingress right behind releases: the UET workload.
    let (refusing, coverage) = trace_of(&case(2, 200, true));
    println!("{} cycles, {coverage:?}", refusing.cycles());
    let first_answer = SmallDatapath { ports: PORTS as usize, build: DatapathBuild::WithoutProbePipe };
    let m = first_mismatch(&first_answer, &refusing).expect("an arrival behind a release must take its own probe's answer");
    println!("caught without the probe's pipe: {m}");
}

/// An arrival right behind a received pause that has already ended by the
/// arrival's time walks every port: it waits inside until the frame's
/// pause end has reached the port refresh. A build that starts at once
/// decides on the walk without it (its trace keeps its own timing).
#[test]
fn an_arrival_waits_for_a_received_pause_to_reach_the_refresh() {
    let key = reference::ecmp_hash::FlowKey { proto: 17, src: 0x0A00_0001, dst: 0x0A00_0002, sport: 1000, dport: 4791 };
    let arrive = |t_ns: u64| Event::Arrive { t_ns, port: 1, dscp: 8, ecn: Ecn::Ect0, bytes: 500, key, members: vec![2, 3] };
    let events = vec![arrive(100), Event::PfcRx { t_ns: 1_000, port: 3, classes: 0b1, quanta: 1 }, arrive(1_000_000)];
    let c = case(0, 0, false);
    let bench = SmallDatapath::new(PORTS as usize);
    let (trace, coverage) = bench.trace(workloads::switch(&c), IDENTITY, &events).unwrap();
    assert_eq!((coverage.full_walks, coverage.ring_walks), (2, 0), "the power-up walk and the one after the pause: {coverage:?}");
    check(&bench, &trace, "switch_datapath_pause_walk").unwrap_or_else(|m| panic!("{m}"));
    let no_drain = SmallDatapath { ports: PORTS as usize, build: DatapathBuild::WithoutPfcDrain };
    let (fault_trace, _) = no_drain.trace(workloads::switch(&c), IDENTITY, &events).unwrap();
    assert!(fault_trace.cycles() < trace.cycles(), "the build that does not wait is faster");
    let m = first_mismatch(&no_drain, &fault_trace).expect("an arrival right behind a pause must walk every port");
    println!("caught: {m}");
}

/// The next event goes in an arrival's tail, four cycles before its
/// result: an arrival, which refreshes the port the last one was sent
/// to, or a `tx_start`, held until the last arrival's average update when
/// it is for the same egress port (or would meet that update at the ECN
/// marker), and sent on at once otherwise.
/// A build that marks that port only with the answer selects on its old
/// occupancy; a build that decides such a `tx_start` at once (its trace
/// keeps that build's own timing) decides on the old average.
#[test]
fn the_next_event_goes_in_an_arrivals_tail() {
    let c = case(3, 400, false);
    let (trace, coverage) = trace_of(&c);
    println!("{} cycles, {coverage:?}", trace.cycles());
    assert!(coverage.taken_in_tail * 2 >= coverage.arrivals, "events taken in an arrival's tail: {coverage:?}");
    assert!(coverage.tx_starts_held >= 20, "tx_starts held in an arrival's tail: {coverage:?}");
    assert!(coverage.tx_starts_not_held >= 20, "tx_starts sent on in an arrival's tail: {coverage:?}");
    check(&SmallDatapath::new(PORTS as usize), &trace, "switch_datapath_tail").unwrap_or_else(|m| panic!("{m}"));
    let late_mark = SmallDatapath { ports: PORTS as usize, build: DatapathBuild::WithoutEarlyMark };
    let m = first_mismatch(&late_mark, &trace).expect("an arrival in the tail must see the last arrival's port");
    println!("caught without the early mark: {m}");
    let no_hold = SmallDatapath { ports: PORTS as usize, build: DatapathBuild::WithoutTxStartHold };
    let (fault_trace, _) = no_hold.trace(workloads::switch(&c), IDENTITY, &workloads::events(&c)).unwrap_or_else(|e| panic!("{e}"));
    let m = first_mismatch(&no_hold, &fault_trace).expect("a tx_start decided before the arrival's update must go wrong");
    println!("caught without the hold: {m}");
}

/// The vendor's worked PFC example through the whole datapath: 4,000 B
/// TC0 packets from port 1 to port 2 with nothing draining pause at the
/// 176th, go to headroom from the 177th to the 240th and drop at the
/// 241st; departures then resume at the 165th. The Verilog runs it
/// (Verilator), leaving its VCD and GTKWave view
/// (target/vcd/switch_datapath_pfc_example.vcd / .gtkw).
#[test]
fn the_vendor_pfc_example_through_the_datapath() {
    let c = case(0, 0, false);
    let mut switch = workloads::switch(&c);
    // The default plan at 128 ports, as the registers hold it.
    let p = switch.buffer.params_mut();
    p.pool_size_bytes = [200_908_800, 22_323_200, 0, 0, 0, 0, 0, 0];
    p.headroom_limit_bytes = 256_000;
    p.xoff_bytes = 700_000;
    p.xon_bytes = 300_000;
    let key = reference::ecmp_hash::FlowKey { proto: 17, src: 0x0A00_0001, dst: 0x0A00_0002, sport: 1000, dport: 4791 };
    let mut events: Vec<Event> = (0..241u64)
        .map(|i| Event::Arrive { t_ns: 100 * i, port: 1, dscp: 0, ecn: Ecn::NotEct, bytes: 4000, key, members: vec![2] })
        .collect();
    events.extend((0..240u64).map(|i| Event::Depart { t_ns: 100_000 + 100 * i, seq: i }));
    let bench = SmallDatapath::new(PORTS as usize);
    let (trace, _) = bench.trace(switch, IDENTITY, &events).unwrap();
    let results: Vec<&Vec<Option<u64>>> = trace.expected.iter().filter(|e| e[outputs::result_valid] == Some(1)).collect();
    assert_eq!(results.len(), 481);
    let pauses: Vec<usize> = results.iter().enumerate().filter(|(_, e)| e[outputs::pause_sent] == Some(1)).map(|(i, _)| i + 1).collect();
    assert_eq!(pauses, [176]);
    assert_eq!(results.iter().filter(|e| e[outputs::to_headroom] == Some(1)).count(), 64, "177th to 240th in headroom");
    assert_eq!(results[240][outputs::drop_reason], Some(1), "241st: headroom full");
    let resumes: Vec<usize> = results.iter().enumerate().filter(|(_, e)| e[outputs::resume_sent] == Some(1)).map(|(i, _)| i - 240).collect();
    assert_eq!(resumes, [165], "the 165th departure resumes");
    // Through the Verilator-compiled Verilog: its VCD has the rust_hdl
    // trace's scope and opens in the same view, in a second, not a minute.
    let cycles = run_with_waves::<SmallDatapath>(&verilated(), &trace, "switch_datapath_pfc_example").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cycles, trace.cycles());
    let vcd = testbench::waves::vcd_path("switch_datapath_pfc_example");
    assert!(std::fs::metadata(&vcd).is_ok_and(|m| m.len() > 10_000) && vcd.with_extension("gtkw").exists(), "{}", vcd.display());
}

fn verilog() -> String {
    HardwareBlock::SwitchDatapath { ports: PORTS as usize, tables: SmallDatapath::tables() }.verilog().expect("Verilog")
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus() {
    let (trace, _) = trace_of(&case(3, 30, false));
    let cycles = replay::<SmallDatapath>(&verilog(), &trace, &replay_dir("switch_datapath")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cycles, trace.cycles());
}

#[test]
fn the_verilog_replay_can_fail() {
    let (trace, _) = trace_of(&case(4, 10, false));
    assert_icarus_catches_corruption::<SmallDatapath>(&verilog(), trace, outputs::result_valid, outputs::flow_hash, 1, "switch_datapath_negative");
}

#[test]
fn verilog_passes_verilator_lint() {
    let path = write_verilog(&replay_dir("switch_datapath_lint"), "switch_datapath.v", &verilog()).unwrap();
    let classes = verilator_lint(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(!classes.contains_key("UNOPTFLAT"), "combinational loop: {classes:?}");
}

#[test]
fn verilog_synthesizes_for_ecp5_with_block_ram() {
    let path = write_verilog(&replay_dir("switch_datapath_synth"), "switch_datapath.v", &verilog()).unwrap();
    let report = yosys_synth(&path, Family::Ecp5).unwrap_or_else(|e| panic!("{e}"));
    println!("{report:?}");
    assert!(report.cells.get("DP16KD").copied().unwrap_or(0) >= 4, "counters and slots in block RAM: {report:?}");
}

fn verilated() -> VerilatedModel {
    VerilatedModel::build::<SmallDatapath>(&verilog()).unwrap_or_else(|e| panic!("{e}"))
}

/// Random workloads through the Verilator-compiled datapath against the
/// reference, every cycle, until `SSWITCH_VERILATOR_CYCLES` (a million by
/// default) have been compared.
#[test]
fn verilated_verilog_matches_reference_over_a_million_random_cycles() {
    let model = verilated();
    let cycles = random_cosim::<SmallDatapath, _>(&model, strategies::case(PORTS, SmallDatapath::tables(), 50..400), |c| trace_of(c).0, "switch_datapath_verilated");
    assert!(cycles >= verilator_cycles(), "{cycles} cycles");
}

#[test]
fn the_verilated_run_can_fail() {
    let (trace, _) = trace_of(&case(4, 10, false));
    assert_corruption_caught::<SmallDatapath>(&verilated(), trace, outputs::result_valid, outputs::flow_hash, 1, "switch_datapath_verilated_negative");
}

// The replay's helpers (kept here rather than as unit tests of the
// testbench crate, which would compile the whole crate a second time).

mod replay_helpers {
    use reference::buffer_manager::PfcFrame;
    use reference::replay::attach_resends;
    use serde_json::{json, Value};
    use testbench::datapath_replay::{compare_engines, ordinal, EngineComparison};
    use testbench::verilator::runs_of_equal_cycles;

    #[test]
    fn equal_consecutive_cycles_become_one_record() {
        let (a, b) = (vec![1, 2], vec![1, 3]);
        let window = [a.clone(), b.clone(), b.clone(), b.clone(), a.clone(), a];
        assert_eq!(runs_of_equal_cycles(&window, u64::MAX), vec![(0, 1), (1, 3), (4, 2)]);
        // a run no longer than a record's repeat word can say
        assert_eq!(runs_of_equal_cycles(&window, 1), vec![(0, 1), (1, 2), (3, 1), (4, 2)]);
        assert!(runs_of_equal_cycles(&[], 1).is_empty());
    }

    #[test]
    fn ordinals_read_as_english() {
        let read: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 257].into_iter().map(ordinal).collect();
        assert_eq!(read, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "257th"]);
    }

    fn line(seq: u64, admitted: bool, resends: &[u64]) -> Value {
        let mut v = json!({"seq": seq, "admitted": admitted});
        let frames: Vec<PfcFrame> = resends.iter().map(|&t| PfcFrame { t_ns: t, port: 1, pool: 0, classes: 1, quanta: 65535 }).collect();
        attach_resends(&mut v, &frames);
        v
    }

    #[test]
    fn equal_lines_agree_and_resends_may_come_later_or_not_at_all() {
        let expected = [line(0, true, &[100, 200]), line(1, false, &[]), line(2, true, &[300])];
        let actual = [line(0, true, &[]), line(1, false, &[100]), line(2, true, &[200])];
        let c = compare_engines(&expected, &actual).unwrap();
        assert_eq!(c, EngineComparison { lines: 3, resends_matched: 2, resends_not_reported: 1 });
    }

    #[test]
    fn a_different_field_is_named_with_its_line() {
        let e = compare_engines(&[line(0, true, &[])], &[line(0, false, &[])]).unwrap_err();
        assert!(e.starts_with("result line 1:") && e.contains("\"admitted\":true") && e.contains("\"admitted\":false"), "{e}");
    }

    #[test]
    fn a_resend_the_reference_had_not_sent_is_refused() {
        let e = compare_engines(&[line(0, true, &[]), line(1, true, &[100])], &[line(0, true, &[100]), line(1, true, &[])]).unwrap_err();
        assert!(e.starts_with("result line 1: the hardware re-sent"), "{e}");
        assert!(compare_engines(&[line(0, true, &[])], &[line(0, true, &[])]).is_ok());
        assert!(compare_engines(&[line(0, true, &[])], &[]).unwrap_err().contains("1 result lines from the reference, 0 from the hardware"));
    }
}
