//! VCD traces and GTKWave views as a user opens them.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use testbench::cosim::{check, run, HALF_PERIOD_PS};
use testbench::ecn_marker_bench::{strategies, EcnMarkerBench, Op};
use testbench::waves::{render_png, vcd_dir, waveform_fraction, Waves};

type Bench = EcnMarkerBench<7>;

/// The same short ECN marker stimulus for every test here.
fn fixed_ops() -> Vec<Op> {
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[9; 32]));
    strategies::ops(16, 20).new_tree(&mut runner).unwrap().current()
}

#[test]
fn a_gtkwave_view_renders_headless_and_is_not_blank() {
    let ops = fixed_ops();
    let bench = Bench::new(16);
    let waves = run(&bench, &bench.trace(&ops), Some(Waves::create::<Bench>("gtkwave_render"))).expect("co-simulation passes").unwrap();
    let (vcd, gtkw) = (waves.vcd_path.clone(), waves.gtkw_path.clone());
    waves.close();
    let view = std::fs::read_to_string(&gtkw).unwrap();
    for group in ["-configuration", "-event", "-result", "uut.queue_bytes[31:0]", "uut.marked"] {
        assert!(view.contains(group), "view lacks {group}");
    }
    let png = vcd_dir().join("gtkwave_render.png");
    let _ = std::fs::remove_file(&png);
    render_png(&vcd, &gtkw, &png).unwrap_or_else(|e| panic!("{e}"));
    let fraction = waveform_fraction(&png).unwrap_or_else(|e| panic!("{e}"));
    assert!(fraction > 0.001, "only {fraction} of the screenshot is waveform");
}

/// `check` keeps a VCD of a failing run, up to the mismatch, and writes
/// none for a passing one (unless SSWITCH_KEEP_VCD=1 asks for it).
#[test]
fn a_failing_check_keeps_its_vcd_and_a_passing_one_writes_none() {
    let ops = fixed_ops();
    let bench = Bench::new(16);
    let trace = bench.trace(&ops);
    let (passing, failing) = (vcd_dir().join("passing_check.vcd"), vcd_dir().join("failing_check.vcd"));
    for old in [&passing, &failing] {
        let _ = std::fs::remove_file(old);
    }
    check(&bench, &trace, "passing_check").expect("co-simulation passes");
    let keep_all = testbench::settings::switch_setting("SSWITCH_KEEP_VCD");
    assert_eq!(passing.exists(), keep_all, "{} with SSWITCH_KEEP_VCD={keep_all}", passing.display());
    let mut wrong = trace.clone();
    let last = wrong.expected.len() - 1;
    wrong.expected[last][testbench::ecn_marker_bench::outputs::update_valid] = Some(1);
    let mismatch = check(&bench, &wrong, "failing_check").expect_err("the changed expectation is caught");
    assert_eq!(mismatch.cycle, last);
    let vcd = std::fs::read_to_string(&failing).unwrap_or_else(|e| panic!("{}: {e}", failing.display()));
    let last_sample = format!("#{}\n", (2 * last as u64 + 1) * HALF_PERIOD_PS);
    assert!(vcd.contains("$enddefinitions") && vcd.contains(&last_sample), "{} lacks the mismatch's cycle", failing.display());
    assert!(failing.with_extension("gtkw").exists());
}

#[test]
fn vcd_files_go_to_one_folder_named_after_the_test() {
    let w = Waves::create::<Bench>("naming_check");
    assert_eq!(w.vcd_path, vcd_dir().join("naming_check.vcd"));
    assert_eq!(w.gtkw_path, vcd_dir().join("naming_check.gtkw"));
    assert!(vcd_dir().ends_with("target/vcd"));
}

/// The VCD a failing Verilator run leaves opens with the same view: its
/// scope is `uut`, as the rust_hdl stepper's is.
#[test]
fn a_verilator_vcd_renders_with_the_blocks_view() {
    use testbench::verilator::{check_verilated, VerilatedModel};
    let ops = fixed_ops();
    let bench = Bench::new(16);
    let verilog = synth::HardwareBlock::EcnMarker { ports: 16 }.verilog().unwrap();
    let model = VerilatedModel::build::<Bench>(&verilog).unwrap_or_else(|e| panic!("{e}"));
    let mut trace = bench.trace(&ops);
    let last = trace.expected.len() - 1;
    trace.expected[last][testbench::ecn_marker_bench::outputs::update_valid] = Some(1); // a mismatch at the end: the whole run is dumped
    assert!(check_verilated::<Bench>(&model, &trace, "verilator_render").is_err());
    let (vcd, gtkw, png) = (vcd_dir().join("verilator_render.vcd"), vcd_dir().join("verilator_render.gtkw"), vcd_dir().join("verilator_render.png"));
    let _ = std::fs::remove_file(&png);
    render_png(&vcd, &gtkw, &png).unwrap_or_else(|e| panic!("{e}"));
    let fraction = waveform_fraction(&png).unwrap_or_else(|e| panic!("{e}"));
    assert!(fraction > 0.001, "only {fraction} of the screenshot is waveform");
}
