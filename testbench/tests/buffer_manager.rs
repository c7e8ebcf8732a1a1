//! The buffer manager block against the reference, in rust_hdl and in Verilog.

use hdl::buffer_manager::{BufferManager, MissingForward, LATENCY};
use proptest::prelude::*;
use ::synth::tools::{verilator_lint, write_verilog, yosys_synth, Family};
use reference::buffer_manager::{BufferParams, DropReason, EgressMode};
use testbench::buffer_manager_bench::{drop_code, inputs, outputs, strategies, BufferManagerBench, Fault, Op};
use testbench::cosim::{check, first_mismatch, Trace};
use testbench::proptest_cases;
use testbench::verilator::{assert_corruption_caught, random_cosim, try_random_cosim, verilator_cycles, VerilatedModel};
use testbench::verilog_replay::{assert_icarus_catches_corruption, replay, replay_dir};

type Bench = BufferManagerBench<7>;
const PORTS: u8 = 16;

fn recorded_ops(seed: u8, cycles: usize) -> Vec<Op> {
    testbench::recorded(|| strategies::ops(PORTS, 40), seed, cycles)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    /// 64 cases, about 200,000 cycles in all (measured): random
    /// registers (both egress forms, UET classes with trimming, per-port
    /// pause timing), re-sends falling due,
    /// arrivals, releases and received PFC frames on the same counters back
    /// to back, pause queries every cycle, resets and reprogramming.
    #[test]
    fn cosim_matches_reference(ops in strategies::ops(PORTS, 200)) {
        let bench = Bench::new(PORTS as usize);
        if let Err(m) = check(&bench, &bench.trace(&ops), "buffer_manager_cosim") {
            prop_assert!(false, "{m} (VCD in target/vcd/buffer_manager_cosim.vcd)");
        }
    }
}

fn count(trace: &Trace, output: usize, value: u64) -> usize {
    trace.expected.iter().filter(|e| e[outputs::result_valid] == Some(1) && e[output] == Some(value)).count()
}

#[test]
fn the_recorded_stimulus_reaches_every_path() {
    let trace = Bench::new(PORTS as usize).trace(&recorded_ops(15, 40_000));
    for (what, output, value) in [("admitted", outputs::admitted, 1), ("headroom full", outputs::drop_reason, 1), ("pool full", outputs::drop_reason, 2), ("egress limit", outputs::drop_reason, 3),
        ("egress pool", outputs::drop_reason, 4), ("to headroom", outputs::to_headroom, 1), ("pause", outputs::pause_request, 1), ("resume", outputs::resume_request, 1), ("release", outputs::result_release, 1), ("PFC received", outputs::result_pfc, 1),
        ("trimmed", outputs::trimmed, 1)] {
        let n = count(&trace, output, value);
        assert!(n >= 5, "{what}: only {n}");
    }
    let trimmed_last_hop = trace.expected.iter().filter(|e| e[outputs::trimmed] == Some(1) && e[outputs::trimmed_dscp] == Some(16)).count();
    let trimmed_here = trace.expected.iter().filter(|e| e[outputs::trimmed] == Some(1) && e[outputs::trimmed_dscp] == Some(14)).count();
    assert!(trimmed_last_hop >= 5 && trimmed_here >= 5, "trimmed {trimmed_here} / last hop {trimmed_last_hop}");
    // Trimming that fails in pool 1 too (a trimmable packet dropped).
    let resends: Vec<&Vec<Option<u64>>> = trace.expected.iter().filter(|e| e[outputs::resend_valid] == Some(1)).collect();
    assert!(resends.len() >= 20, "only {} pause re-sends", resends.len());
    // Several re-sends of one pause, and re-sends of different pairs back to back.
    let mut per_pause = std::collections::HashMap::new();
    for e in &resends {
        *per_pause.entry((e[outputs::resend_port], e[outputs::resend_pool])).or_insert(0) += 1;
    }
    assert!(per_pause.len() >= 5 && per_pause.values().any(|&n| n >= 3), "{per_pause:?}");
    let back_to_back = trace.expected.windows(2).filter(|w| w[0][outputs::resend_valid] == Some(1) && w[1][outputs::resend_valid] == Some(1)).count();
    assert!(back_to_back >= 3, "{back_to_back} back-to-back re-sends");
    let paused_answers = trace.expected.iter().filter(|e| e[outputs::query_paused].is_some_and(|m| m != 0)).count();
    assert!(paused_answers > 500 && paused_answers < trace.cycles() - 500, "{paused_answers} paused query answers");
    let probe_results: Vec<&Vec<Option<u64>>> = (0..trace.cycles())
        .filter(|&c| trace.inputs[c][inputs::ev_probe] == 1 && c + LATENCY - 1 < trace.cycles())
        .filter_map(|c| Some(&trace.expected[c + LATENCY - 1]).filter(|e| e[outputs::result_valid] == Some(1)))
        .collect();
    let refused_probes = probe_results.iter().filter(|e| matches!(e[outputs::drop_reason], Some(1 | 2))).count();
    let passed_probes = probe_results.iter().filter(|e| e[outputs::admitted] == Some(1)).count();
    assert!(refused_probes >= 5 && passed_probes >= 5, "probes: {passed_probes} pass, {refused_probes} refused at ingress");
    let busy_ports = trace.expected.iter().filter(|e| e[outputs::query_egress_bytes].is_some_and(|b| b != 0)).count();
    assert!(busy_ports > 500, "{busy_ports} non-zero egress occupancy answers");
}

#[test]
fn a_wrong_reference_makes_the_cosimulation_fail() {
    let ops = recorded_ops(5, 8_000);
    for fault in [Fault::XoffBeforePacket, Fault::OccupancyBeforeHeadroom, Fault::PauseWithoutDelay, Fault::NoTrimming, Fault::ResendEveryFullPause] {
        let bench = Bench { fault: Some(fault), ..Bench::new(PORTS as usize) };
        assert!(first_mismatch(&bench, &bench.trace(&ops)).is_some(), "{fault:?} went unnoticed");
    }
    let bench = Bench::new(PORTS as usize);
    check(&bench, &bench.trace(&ops), "buffer_manager_fault").unwrap();
}

#[test]
fn building_rejects_port_counts_it_cannot_address() {
    let message = |ports| BufferManager::<7>::new(ports).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message(17).contains("ports = 17"));
    assert!(message(0).contains("ports = 0"));
}

fn verilog() -> String {
    ::synth::blocks::checked_verilog(BufferManager::<7>::new(16).unwrap()).unwrap()
}

#[test]
fn generated_verilog_replays_the_reference_in_icarus() {
    let bench = Bench::new(PORTS as usize);
    let trace = bench.trace(&recorded_ops(6, 12_000));
    assert!(trace.cycles() >= 10_000);
    let trims = trace.expected.iter().filter(|e| e[outputs::trimmed] == Some(1)).count();
    let resends = trace.expected.iter().filter(|e| e[outputs::resend_valid] == Some(1)).count();
    assert!(trims >= 10 && resends >= 10, "the replay should trim and re-send: {trims} trims, {resends} re-sends");
    check(&bench, &trace, "buffer_manager_replay_source").expect("rust_hdl agrees first");
    let cycles = replay::<Bench>(&verilog(), &trace, &replay_dir("buffer_manager")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cycles, trace.cycles());
}

#[test]
fn the_verilog_replay_can_fail() {
    let trace = Bench::new(PORTS as usize).trace(&recorded_ops(7, 400));
    assert_icarus_catches_corruption::<Bench>(&verilog(), trace, outputs::admitted, outputs::queue_bytes, 1, "buffer_manager_negative");
}

#[test]
fn verilog_passes_verilator_lint() {
    let path = write_verilog(&replay_dir("buffer_manager_lint"), "buffer_manager.v", &verilog()).unwrap();
    let classes = verilator_lint(&path).unwrap_or_else(|e| panic!("{e}"));
    // The kernel drives its combinational sub-blocks (classify, egress
    // limits, priority group) and reads their answers in one always block,
    // which Verilator reports as UNOPTFLAT (waived in synth::tools); a true
    // loop fails Yosys `check -assert` in verilog_synthesizes_for_ice40_with_block_ram.
    assert!(classes.keys().all(|c| synth::tools::WAIVED_LINT.iter().any(|(w, _)| w == c)), "{classes:?}");
}

/// iCE40 here; the same 16-port Verilog goes through `synth_ecp5` (with
/// its block RAM checked) in `tests/cli_hardware.rs`, which routes it.
#[test]
fn verilog_synthesizes_for_ice40_with_block_ram() {
    let path = write_verilog(&replay_dir("buffer_manager_synth"), "buffer_manager.v", &verilog()).unwrap();
    let report = yosys_synth(&path, Family::Ice40).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.count(Family::Ice40.bram_cell()) >= 2, "{report:?}");
}

/// The vendor's worked PFC example in hardware: 4,000 B TC0 packets on one
/// port with nothing draining pause at the 176th, go to headroom from the
/// 177th to the 240th and drop at the 241st; releases then resume at the
/// 165th. Written with its VCD and GTKWave view
/// (target/vcd/buffer_manager_pfc_example.vcd / .gtkw).
#[test]
fn the_vendor_pfc_example_in_hardware() {
    use reference::classify::{Classifier, UetCodepoints};
    use testbench::buffer_manager_bench::params;
    use testbench::cosim::run;
    use testbench::waves::Waves;
    let classifier = Classifier {
        uet_policy: false,
        tc_pool: [0, 1, 0, 0, 0, 0, 0, 0],
        pfc_enabled: [true, true, false, false, false, false, false, false],
        codepoints: UetCodepoints::default(),
    };
    // The default plan at 128 ports, as the registers hold it.
    let p = params(16, [200_908_800, 22_323_200, 0, 0, 0, 0, 0, 0], 256_000, 700_000, 300_000, EgressMode::Dynamic { alpha_q10: 1024 }, [0; 8], classifier);
    let mut ops = vec![Op::Program(Box::new(p))];
    ops.extend((0..241).map(|_| Op::Arrive { ingress_port: 1, egress_port: 2, dscp: 0, bytes: 4000 }));
    ops.extend((0..240).map(|_| Op::Release(0)));
    let bench = Bench::new(PORTS as usize);
    let trace = bench.trace(&ops);
    let results: Vec<&Vec<Option<u64>>> = trace.expected.iter().filter(|e| e[outputs::result_valid] == Some(1)).collect();
    assert_eq!(results.len(), 481);
    let pauses: Vec<usize> = results.iter().enumerate().filter(|(_, e)| e[outputs::pause_request] == Some(1)).map(|(i, _)| i + 1).collect();
    assert_eq!(pauses, [176]);
    assert_eq!(results.iter().filter(|e| e[outputs::to_headroom] == Some(1)).count(), 64, "177th to 240th in headroom");
    assert_eq!(results[240][outputs::drop_reason], Some(1), "241st: headroom full");
    let resumes: Vec<usize> = results.iter().enumerate().filter(|(_, e)| e[outputs::resume_request] == Some(1)).map(|(i, _)| i - 240).collect();
    assert_eq!(resumes, [165], "the 165th release resumes");
    let waves = run(&bench, &trace, Some(Waves::create::<Bench>("buffer_manager_pfc_example"))).unwrap_or_else(|m| panic!("{m}"));
    let w = waves.expect("traced");
    assert!(w.vcd_path.exists() && w.gtkw_path.exists());
    w.close();
}

/// 16 ports; TC0 (pool 0, 200,908,800 B) the only lossless class; headroom
/// 256,000 B, Xoff 700,000 B, Xon 300,000 B per (port, pool).
fn tc0_lossless_params(egress_mode: EgressMode) -> BufferParams {
    use reference::classify::{Classifier, UetCodepoints};
    use testbench::buffer_manager_bench::params;
    let classifier = Classifier { uet_policy: false, tc_pool: [0; 8], pfc_enabled: [true, false, false, false, false, false, false, false], codepoints: UetCodepoints::default() };
    params(16, [200_908_800, 0, 0, 0, 0, 0, 0, 0], 256_000, 700_000, 300_000, egress_mode, [0; 8], classifier)
}

/// A pause at the default timing (400 Gbps, 500 ns: a full pause 84,384 ns)
/// is re-sent every 42,192 ns while the port stays paused, each within one
/// sweep (128 cycles of 50 ns) of falling due. Written with its VCD
/// (target/vcd/buffer_manager_resend_example.vcd).
#[test]
fn a_pause_is_resent_every_half_pause_time_in_hardware() {
    use testbench::buffer_manager_bench::NS_PER_CYCLE;
    use testbench::cosim::run;
    use testbench::waves::Waves;
    let p = tc0_lossless_params(EgressMode::Dynamic { alpha_q10: 1024 });
    let mut ops = vec![Op::Program(Box::new(p))];
    ops.extend((0..176).map(|_| Op::Arrive { ingress_port: 5, egress_port: 2, dscp: 0, bytes: 4000 }));
    ops.extend((0..4_000).map(|_| Op::Idle));
    let bench = Bench::new(PORTS as usize);
    let trace = bench.trace(&ops);
    // A result at index i answers the input of cycle i - (LATENCY - 1); a
    // re-send at index i was decided with the time of cycle i - (LATENCY - 2).
    let decided_at = |index: usize| (index - (LATENCY - 2)) as u64 * NS_PER_CYCLE;
    let pause_cycle = trace.expected.iter().position(|e| e[outputs::pause_request] == Some(1)).expect("a pause") - (LATENCY - 1);
    let paused_at = pause_cycle as u64 * NS_PER_CYCLE;
    let resends: Vec<(usize, &Vec<Option<u64>>)> = trace.expected.iter().enumerate().filter(|(_, e)| e[outputs::resend_valid] == Some(1)).collect();
    let end = decided_at(trace.cycles() - 1);
    assert_eq!(resends.len() as u64, (end - paused_at) / 42_192, "one re-send per 42,192 ns");
    for (k, (cycle, e)) in resends.iter().enumerate() {
        let due = paused_at + (k as u64 + 1) * 42_192;
        assert_eq!((e[outputs::resend_port], e[outputs::resend_pool], e[outputs::resend_classes], e[outputs::resend_due_ns]), (Some(5), Some(0), Some(1), Some(due)));
        let sent = decided_at(*cycle);
        assert!(due <= sent && sent < due + 128 * NS_PER_CYCLE, "due {due}, sent {sent}");
    }
    let waves = run(&bench, &trace, Some(Waves::create::<Bench>("buffer_manager_resend_example"))).unwrap_or_else(|m| panic!("{m}"));
    waves.expect("traced").close();
}

/// A port's pause timing written in the cycles right before a PFC frame on
/// that port is the one the frame's deadline uses: the timing RAMs are
/// written a stage ahead of the event's read (the pause's length is worked
/// out before the decision stage).
#[test]
fn port_timing_written_just_before_a_frame_is_used() {
    use reference::register_map::{RegisterWrite, BM_PORT_DELAY, BM_PORT_QUANTUM, BM_PORT_SELECT};
    use testbench::buffer_manager_bench::NS_PER_CYCLE;
    let p = tc0_lossless_params(EgressMode::Fixed);
    let write = |address, data| Op::Write(RegisterWrite { address, data });
    let quantum_q16 = 3 << 16 | 0x8000;
    let mut ops = vec![Op::Program(Box::new(p))];
    ops.extend([write(BM_PORT_SELECT, 3), write(BM_PORT_QUANTUM, quantum_q16), write(BM_PORT_DELAY, 777), Op::Pfc { port: 3, classes: 1, quanta: 100 }]);
    let frame_cycle = LATENCY + ops.iter().map(|op| match op { Op::Program(p) => reference::register_map::buffer_manager_image(p).len(), _ => 1 }).sum::<usize>() - 1;
    ops.extend([Op::Pfc { port: 3, classes: 2, quanta: 0 }, Op::Idle, Op::Idle, Op::Idle]);
    let bench = Bench::new(PORTS as usize);
    let trace = bench.trace(&ops);
    let frames: Vec<u64> = trace.expected.iter().filter(|e| e[outputs::result_pfc] == Some(1)).map(|e| e[outputs::paused_until_ns].unwrap()).collect();
    let now = frame_cycle as u64 * NS_PER_CYCLE;
    assert_eq!(frames, [now + (100 * quantum_q16 as u64 >> 16) + 777, now + NS_PER_CYCLE], "the new timing (350 + 777 ns), then a resume");
    check(&bench, &trace, "buffer_manager_port_timing").unwrap_or_else(|m| panic!("{m}"));
}

fn verilated() -> VerilatedModel {
    VerilatedModel::build::<Bench>(&verilog()).unwrap_or_else(|e| panic!("{e}"))
}

/// Proptest-random stimulus through the Verilator-compiled Verilog against
/// the reference, every cycle: a million cycles by default
/// (`SSWITCH_VERILATOR_CYCLES`), in cases of a few thousand (small cases shrink fast).
#[test]
fn verilated_verilog_matches_reference_over_a_million_random_cycles() {
    let bench = Bench::new(PORTS as usize);
    let model = verilated();
    let cycles = random_cosim::<Bench, _>(&model, strategies::ops(PORTS, 300), |ops| bench.trace(ops), "buffer_manager_verilated");
    assert!(cycles >= verilator_cycles(), "{cycles} cycles");
}

#[test]
fn the_verilated_run_can_fail() {
    let trace = Bench::new(PORTS as usize).trace(&recorded_ops(15, 40_000));
    assert_corruption_caught::<Bench>(&verilated(), trace, outputs::admitted, outputs::queue_bytes, 1, "buffer_manager_verilated_negative");
}

/// The egress limit is computed two cycles ahead for every outcome of the
/// two events before (`limit_lookahead`); hardware that ignores the older
/// one's outcome must be caught: back-to-back lossy arrivals on one pool
/// under a dynamic limit make the outcome of the event two ahead matter.
#[test]
fn hardware_without_the_older_lookahead_is_caught() {
    assert_missing_forward_caught(MissingForward::OlderLookahead, "buffer_manager_lookahead_fault", |trace| {
        let dynamic_drops = trace.expected.iter().filter(|e| e[outputs::drop_reason] == Some(drop_code(Some(DropReason::EgressLimit)))).count();
        assert!(dynamic_drops >= 20, "the stimulus meets the egress limit {dynamic_drops} times");
    });
}

/// Stage C2 picks the next event's pool counters with stage D's write of the
/// same cycle forwarded (`MissingForward::PoolPick`); hardware without that
/// forward must be caught: events back to back on one pool make it matter.
#[test]
fn hardware_without_the_pool_pick_forward_is_caught() {
    assert_missing_forward_caught(MissingForward::PoolPick, "buffer_manager_pool_pick_fault", |trace| {
        let back_to_back = back_to_back_admissions_on_one_pool(trace);
        assert!(back_to_back >= 20, "the stimulus admits back to back on one pool {back_to_back} times");
    });
}

/// The sweep writes a re-send's next due time a cycle after the re-send,
/// and so does a pause for its first due time; the pause takes the write
/// port first (`resend_sweep`). Port 5's pause falls due; port 6's pause is
/// decided in the cycle of that re-send. Hardware that forgets the waiting
/// write re-sends port 5's pause again a sweep later and must be caught.
#[test]
fn hardware_that_loses_a_waiting_due_write_is_caught() {
    let p = tc0_lossless_params(EgressMode::Dynamic { alpha_q10: 1024 });
    let arrival = |ingress_port| Op::Arrive { ingress_port, egress_port: 2, dscp: 0, bytes: 4000 };
    // 176 arrivals of 4,000 B cross the 700,000 B Xoff: port 5 pauses,
    // port 6 waits one arrival short of it, sent at `idle_slot`.
    let ops_with_second_pause_at = |idle_slot: Option<usize>| {
        let mut ops = vec![Op::Program(Box::new(p.clone()))];
        ops.extend((0..176).map(|_| arrival(5)));
        ops.extend((0..175).map(|_| arrival(6)));
        let mut idle = vec![Op::Idle; 2_000];
        if let Some(slot) = idle_slot {
            idle[slot] = arrival(6);
        }
        ops.extend(idle);
        ops
    };
    let pause_beside_resend = |trace: &Trace| {
        trace.expected.iter().any(|e| e[outputs::resend_valid] == Some(1) && e[outputs::resend_port] == Some(5) && e[outputs::pause_request] == Some(1))
    };
    let bench = Bench::new(PORTS as usize);
    let alone = bench.trace(&ops_with_second_pause_at(None));
    let first_resend = alone.expected.iter().position(|e| e[outputs::resend_valid] == Some(1)).expect("port 5's pause is re-sent");
    let first_idle = 1 + (0..alone.cycles()).rev().find(|&c| alone.inputs[c][inputs::ev_arrival] == 1).expect("arrivals");
    // The result of the input of cycle c is at index c + LATENCY - 1, with
    // the re-send decided in the same cycle.
    let slot = first_resend + 1 - LATENCY - first_idle;
    let trace = bench.trace(&ops_with_second_pause_at(Some(slot)));
    assert!(pause_beside_resend(&trace), "port 6's pause is not decided beside port 5's re-send (slot {slot})");
    let faulty = Bench { missing_forward: Some(MissingForward::WaitingDueWrite), ..Bench::new(PORTS as usize) };
    assert!(first_mismatch(&faulty, &trace).is_some(), "the sweep that loses a waiting write went unnoticed");
    check(&bench, &trace, "buffer_manager_waiting_due_write").expect("the right hardware agrees");
}

/// On recorded stimulus that reaches what the forward is for
/// (`reaches_hazard` asserts it), the build without `missing` disagrees with
/// the reference and the right build agrees.
fn assert_missing_forward_caught(missing: MissingForward, vcd_name: &str, reaches_hazard: impl Fn(&Trace)) {
    let ops = recorded_ops(5, 20_000);
    let faulty = Bench { missing_forward: Some(missing), ..Bench::new(PORTS as usize) };
    let trace = faulty.trace(&ops);
    reaches_hazard(&trace);
    assert!(first_mismatch(&faulty, &trace).is_some(), "the build without {missing:?} went unnoticed");
    check(&Bench::new(PORTS as usize), &trace, vcd_name).expect("the right hardware agrees");
}

/// Results in consecutive cycles that both admit a packet to the same pool.
fn back_to_back_admissions_on_one_pool(trace: &Trace) -> usize {
    let admitted_pool = |e: &Vec<Option<u64>>| {
        (e[outputs::result_valid] == Some(1) && e[outputs::admitted] == Some(1)).then_some(e[outputs::result_pool]).flatten()
    };
    trace.expected.windows(2).filter(|w| matches!((admitted_pool(&w[0]), admitted_pool(&w[1])), (Some(a), Some(b)) if a == b)).count()
}

/// A bug that only the arithmetic edge shows: the dynamic limit saturating
/// one step late. The stimulus programs pools and alpha at the edge (see
/// `strategies::saturation_edge`), so the wrong reference is caught.
#[test]
fn a_saturation_edge_off_by_one_is_caught() {
    let bench = Bench { fault: Some(Fault::SaturationOneStepLate), ..Bench::new(PORTS as usize) };
    let found = try_random_cosim::<Bench, _>(&verilated(), strategies::ops(PORTS, 300), |ops| bench.trace(ops), "buffer_manager_saturation_edge");
    let message = found.expect_err("the late saturation went unnoticed");
    assert!(message.contains("admitted") || message.contains("drop_reason"), "{message}");
}
