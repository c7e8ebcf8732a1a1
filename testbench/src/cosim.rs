//! The cycle stepper and scoreboard.
//!
//! A cycle: the driver sets the block's inputs while the clock is low, the
//! design settles, the clock rises, the design settles again, and the
//! monitor samples the outputs. A block of latency L answers an input of
//! cycle n in the sample of cycle n + L - 1. The stepper calls rust_hdl's
//! `simulate` directly (no testbench threads), which runs millions of
//! cycles per second on small blocks.

use crate::waves::Waves;
use rust_hdl::prelude::*;
use std::fmt;

/// A named port and its width in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: &'static str,
    pub width: usize,
    /// The GTKWave group (channel) it belongs to.
    pub channel: &'static str,
}

pub const fn port(name: &'static str, width: usize, channel: &'static str) -> Port {
    Port { name, width, channel }
}

/// An input port the harness drives from a trace word.
pub trait DriveFrom {
    fn drive_from(&mut self, value: u64);
}

impl DriveFrom for Signal<In, bool> {
    fn drive_from(&mut self, value: u64) {
        self.next = value != 0;
    }
}

impl<const N: usize> DriveFrom for Signal<In, Bits<N>> {
    fn drive_from(&mut self, value: u64) {
        self.next = value.into();
    }
}

/// An output port the harness samples into a trace word.
pub trait SampleTo {
    fn sample_to(&self) -> u64;
}

impl SampleTo for Signal<Out, bool> {
    fn sample_to(&self) -> u64 {
        self.val() as u64
    }
}

impl<const N: usize> SampleTo for Signal<Out, Bits<N>> {
    fn sample_to(&self) -> u64 {
        self.val().to_u64()
    }
}

/// Declares a block's harness from one list of its ports: the `Harness`
/// impl (`INPUTS`/`OUTPUTS` tables, `drive`, `observe`, the clock) and two
/// modules of named trace positions, `inputs::port_name` and
/// `outputs::port_name`. The tables feed every engine (the rust_hdl
/// stepper, the Icarus testbench and the Verilator driver), so a port is
/// named, sized and ordered in one place.
///
/// ```text
/// harness! {
///     impl[] Harness for EcmpHashBench {
///         uut: EcmpHash, name: "ecmp_hash",
///         build(self) { EcmpHash::default() }
///         inputs { reset: 1 => "control", cfg_data: 32 => CFG }
///         outputs { hash_valid: 1 => RESULT }
///     }
/// }
/// ```
#[macro_export]
macro_rules! harness {
    (
        impl[$($generics:tt)*] Harness for $bench:ty {
            uut: $uut:ty, name: $name:literal,
            build($self_:ident) $build:block
            inputs { $($in_name:ident : $in_width:expr => $in_channel:expr),+ $(,)? }
            outputs { $($out_name:ident : $out_width:expr => $out_channel:expr),+ $(,)? }
        }
    ) => {
        impl<$($generics)*> $crate::cosim::Harness for $bench {
            type Uut = $uut;
            const NAME: &'static str = $name;
            const INPUTS: &'static [$crate::cosim::Port] = &[$($crate::cosim::port(stringify!($in_name), $in_width, $in_channel)),+];
            const OUTPUTS: &'static [$crate::cosim::Port] = &[$($crate::cosim::port(stringify!($out_name), $out_width, $out_channel)),+];

            fn build(&$self_) -> $uut $build

            fn set_clock(uut: &mut $uut, high: bool) {
                uut.clock.next = high.into();
            }

            fn drive(uut: &mut $uut, values: &[u64]) {
                use $crate::cosim::DriveFrom;
                $(uut.$in_name.drive_from(values[inputs::$in_name]);)+
            }

            fn observe(uut: &$uut) -> Vec<u64> {
                use $crate::cosim::SampleTo;
                vec![$(uut.$out_name.sample_to()),+]
            }
        }

        /// Positions of the block's inputs in a trace's input words.
        #[allow(non_upper_case_globals, dead_code)]
        pub mod inputs {
            #[allow(non_camel_case_types)]
            enum Position { $($in_name),+ }
            $(pub const $in_name: usize = Position::$in_name as usize;)+
            /// How many inputs there are.
            pub const COUNT: usize = [$(stringify!($in_name)),+].len();
        }

        /// Positions of the block's outputs in a trace's output words.
        #[allow(non_upper_case_globals, dead_code)]
        pub mod outputs {
            #[allow(non_camel_case_types)]
            enum Position { $($out_name),+ }
            $(pub const $out_name: usize = Position::$out_name as usize;)+
            /// How many outputs there are.
            pub const COUNT: usize = [$(stringify!($out_name)),+].len();
        }
    };
}

/// A hardware block as the harness sees it.
pub trait Harness {
    type Uut: Block;
    /// The block's name (file names, messages).
    const NAME: &'static str;
    /// Inputs the driver sets each cycle, in trace order (clock excluded).
    const INPUTS: &'static [Port];
    /// Outputs the monitor samples each cycle, in trace order.
    const OUTPUTS: &'static [Port];
    fn build(&self) -> Self::Uut;
    fn set_clock(uut: &mut Self::Uut, high: bool);
    fn drive(uut: &mut Self::Uut, values: &[u64]);
    fn observe(uut: &Self::Uut) -> Vec<u64>;
}

/// Stimulus and expected outputs, cycle by cycle. `None`: don't care.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    pub inputs: Vec<Vec<u64>>,
    pub expected: Vec<Vec<Option<u64>>>,
}

impl Trace {
    pub fn cycles(&self) -> usize {
        self.inputs.len()
    }
}

/// The operations every block's stimulus shares: a cycle with nothing to
/// do, a synchronous reset, a configuration register write.
pub trait ControlOps: Clone {
    const IDLE: Self;
    const RESET: Self;
}

/// A block's operations framed as every trace is: `latency` cycles of
/// reset first (Verilog registers start unknown), `latency` idle cycles
/// last (so the last operation's answer is sampled).
pub fn framed<Op: ControlOps>(ops: impl IntoIterator<Item = Op>, latency: usize) -> Vec<Op> {
    let mut all = vec![Op::RESET; latency];
    all.extend(ops);
    all.extend(std::iter::repeat_n(Op::IDLE, latency));
    all
}

/// Expects nothing of the samples taken before the first reset has
/// emptied a pipeline of `latency` cycles.
pub fn blank_until_reset(expected: &mut [Vec<Option<u64>>], latency: usize, outputs: usize) {
    for e in expected.iter_mut().take(latency - 1) {
        *e = vec![None; outputs];
    }
}

/// The inputs of a register write on the configuration channel, which
/// every block has with the same three ports.
pub fn write_inputs(v: &mut [u64], w: reference::register_map::RegisterWrite, positions: [usize; 3]) {
    let [cfg_write, cfg_address, cfg_data] = positions;
    v[cfg_write] = 1;
    v[cfg_address] = w.address as u64;
    v[cfg_data] = w.data as u64;
}

/// The first cycle where hardware and reference disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub block: &'static str,
    pub cycle: usize,
    pub signal: &'static str,
    pub expected: u64,
    pub actual: u64,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: cycle {}: {} expected {:#x}, got {:#x}", self.block, self.cycle, self.signal, self.expected, self.actual)
    }
}

impl std::error::Error for Mismatch {}

/// Half a clock period in ps (100 MHz), for VCD timestamps.
pub const HALF_PERIOD_PS: u64 = 5_000;
const SETTLE_ITERATIONS: usize = 200;

/// Steps a block cycle by cycle, optionally writing a VCD.
pub struct Stepper<H: Harness> {
    pub uut: H::Uut,
    cycle: u64,
    waves: Option<Waves>,
}

impl<H: Harness> Stepper<H> {
    pub fn new(harness: &H, waves: Option<Waves>) -> Stepper<H> {
        let mut uut = harness.build();
        uut.connect_all();
        let mut waves = waves;
        if let Some(w) = waves.as_mut() {
            w.start(&uut);
        }
        Stepper { uut, cycle: 0, waves }
    }

    /// One clock cycle with `inputs`; returns the sampled outputs.
    pub fn step(&mut self, inputs: &[u64]) -> Vec<u64> {
        H::drive(&mut self.uut, inputs);
        H::set_clock(&mut self.uut, false);
        assert!(simulate(&mut self.uut, SETTLE_ITERATIONS), "{} did not settle", H::NAME);
        let t = self.cycle * 2 * HALF_PERIOD_PS;
        if let Some(w) = self.waves.as_mut() {
            w.sample(t, &self.uut);
        }
        H::set_clock(&mut self.uut, true);
        assert!(simulate(&mut self.uut, SETTLE_ITERATIONS), "{} did not settle", H::NAME);
        if let Some(w) = self.waves.as_mut() {
            w.sample(t + HALF_PERIOD_PS, &self.uut);
        }
        self.cycle += 1;
        H::observe(&self.uut)
    }

    pub fn finish(self) -> Option<Waves> {
        self.waves
    }
}

/// Runs a trace and compares every cycle; the first mismatch is the error.
pub fn run<H: Harness>(harness: &H, trace: &Trace, waves: Option<Waves>) -> Result<Option<Waves>, Mismatch> {
    let mut stepper = Stepper::new(harness, waves);
    for (cycle, (inputs, expected)) in trace.inputs.iter().zip(&trace.expected).enumerate() {
        let actual = stepper.step(inputs);
        for ((port, want), got) in H::OUTPUTS.iter().zip(expected).zip(&actual) {
            if let Some(want) = want {
                if want != got {
                    let waves = stepper.finish();
                    if let Some(w) = waves {
                        w.close();
                    }
                    return Err(Mismatch { block: H::NAME, cycle, signal: port.name, expected: *want, actual: *got });
                }
            }
        }
    }
    Ok(stepper.finish())
}

/// Runs a trace without writing a VCD; the first mismatch, if any. For
/// fault-injection tests, where a mismatch is the expected outcome and a
/// VCD of it (80 MB for the flowlet table's) would only cost time.
pub fn first_mismatch<H: Harness>(harness: &H, trace: &Trace) -> Option<Mismatch> {
    run(harness, trace, None).err()
}

/// Runs a trace; on a mismatch runs it again writing `test_name`'s VCD
/// (kept for the failing case), and with SSWITCH_KEEP_VCD=1 writes it
/// for passing runs too.
pub fn check<H: Harness>(harness: &H, trace: &Trace, test_name: &str) -> Result<(), Mismatch> {
    let keep_all = crate::settings::switch_setting("SSWITCH_KEEP_VCD");
    let waves = keep_all.then(|| Waves::create::<H>(test_name));
    match run(harness, trace, waves) {
        Ok(waves) => {
            if let Some(w) = waves {
                w.close();
            }
            Ok(())
        }
        Err(mismatch) => {
            let _ = run(harness, trace, Some(Waves::create::<H>(test_name)));
            Err(mismatch)
        }
    }
}
