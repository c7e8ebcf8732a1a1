//! Stage register: a pipeline register that a build may leave out.
//!
//! Purpose: one block can be built deep, for its own Fmax, or shallow,
//! for a slower clock in a bigger design where each cycle of latency
//! costs throughput (the switch datapath waits for the flowlet table's
//! answer on every arrival). A stage register is a D flip-flop, or, when
//! built wired, a plain connection from `d` to `q`. Leaving out every
//! register of one rank (all that cross the same cycle boundary) keeps
//! the block's function and shortens its latency by one cycle; the ranks
//! a build leaves out are a [`WiredRanks`].
//!
//! Ports: `clock`; `d` in; `q` out: `d` one cycle later, or `d` in the
//! same cycle when wired.
//!
//! Latency 1 cycle (0 wired), one value per cycle. Built registered, its
//! Verilog is the `rust_hdl` DFF's, word for word, so a deep build
//! synthesizes exactly as it did with DFFs (one TRELLIS_FF per bit, no
//! logic: the flowlet table's and ECMP hash's routes came out the same to
//! the picosecond); wired, it is one assignment and no cells.
//!
//! ```text
//!  registered:  d ─►[FF]─► q        wired:  d ─────► q
//! ```
//!
//! Rules for users: give `clock` and `d` one assignment each (never
//! `dff_setup!`, whose `d = q` default would read back `d` through a
//! wired register), and leave out whole ranks only: a register left in
//! beside a wired one of the same rank misaligns the pipeline.

use rust_hdl::prelude::*;

#[derive(Clone, Debug, LogicBlock)]
pub struct StageRegister<T: Synth> {
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    pub clock: Signal<In, Clock>,
    /// Built as a wire (`q` follows `d` in the same cycle).
    _wired: bool,
}

impl<T: Synth> StageRegister<T> {
    /// A flip-flop (`wired` false) or a connection (`wired` true).
    pub fn new(wired: bool) -> Self {
        Self { d: Default::default(), q: Default::default(), clock: Default::default(), _wired: wired }
    }
}

impl<T: Synth> Default for StageRegister<T> {
    fn default() -> Self {
        Self::new(false)
    }
}

impl<T: Synth> Logic for StageRegister<T> {
    fn update(&mut self) {
        if self._wired || self.clock.pos_edge() {
            self.q.next = self.d.val();
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        if self._wired {
            // `unused_clock` reads the clock for Verilator's -Wall (its
            // default unused pattern matches the name).
            return Verilog::Custom("\
wire unused_clock = clock;

always @(*) begin
   q = d;
end
      "
            .into());
        }
        Verilog::Custom(format!(
            "\
initial begin
   q = {:x};
end

always @(posedge clock) begin
   q <= d;
end
      ",
            T::default().verilog()
        ))
    }
    fn timing(&self) -> Vec<TimingInfo> {
        if self._wired {
            return vec![];
        }
        vec![TimingInfo { name: "dff".into(), clock: "clock".into(), inputs: vec!["d".into()], outputs: vec!["q".into()] }]
    }
}

/// The ranks a build leaves out, as cycle numbers of the block (bit `r`:
/// the registers whose output is in the block's cycle `r` are wires).
/// Ranks are numbered from 1, the first registers after the block's
/// inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WiredRanks(u64);

impl WiredRanks {
    /// Every register kept: the block's full depth.
    pub const NONE: Self = Self(0);

    /// These cycles' registers left out.
    pub const fn of(cycles: &[usize]) -> Self {
        let mut bits = 0u64;
        let mut i = 0;
        while i < cycles.len() {
            assert!(cycles[i] < 64, "WiredRanks: a cycle must be below 64");
            bits |= 1 << cycles[i];
            i += 1;
        }
        Self(bits)
    }

    /// Whether the registers into cycle `rank` are wires.
    pub const fn contains(self, rank: usize) -> bool {
        rank < 64 && self.0 >> rank & 1 == 1
    }

    /// How many ranks are wires.
    pub const fn count(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The lowest wired rank, if any.
    pub const fn lowest(self) -> Option<usize> {
        if self.0 == 0 { None } else { Some(self.0.trailing_zeros() as usize) }
    }

    /// The highest wired rank, if any.
    pub const fn highest(self) -> Option<usize> {
        if self.0 == 0 { None } else { Some(63 - self.0.leading_zeros() as usize) }
    }

    /// The same ranks as seen by a sub-block whose cycle 0 is this block's
    /// cycle `start` (ranks at or before `start` are not the sub-block's).
    pub const fn from_cycle(self, start: usize) -> Self {
        Self((self.0 >> start) & !1)
    }

    /// One stage register of rank `rank`.
    pub fn stage<T: Synth>(self, rank: usize) -> StageRegister<T> {
        StageRegister::new(self.contains(rank))
    }

    /// `N` stage registers of one rank (an array of parallel registers).
    pub fn stages<T: Synth, const N: usize>(self, rank: usize) -> [StageRegister<T>; N] {
        std::array::from_fn(|_| self.stage(rank))
    }

    /// `N` stage registers in a row, element `i` of rank `first_rank + i`
    /// (a delay line).
    pub fn delay_line<T: Synth, const N: usize>(self, first_rank: usize) -> [StageRegister<T>; N] {
        std::array::from_fn(|i| self.stage(first_rank + i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn custom(verilog: Verilog) -> String {
        match verilog {
            Verilog::Custom(text) => text,
            _ => panic!("custom Verilog expected"),
        }
    }

    #[test]
    #[should_panic(expected = "a cycle must be below 64")]
    fn a_cycle_past_63_is_refused_not_wrapped() {
        let _ = WiredRanks::of(&[64]);
    }

    #[test]
    fn registered_it_writes_the_dff_verilog_word_for_word() {
        let dff: DFF<Bits<12>> = Default::default();
        assert_eq!(custom(StageRegister::<Bits<12>>::new(false).hdl()), custom(dff.hdl()));
        assert!(custom(StageRegister::<Bits<12>>::new(true).hdl()).contains("q = d;"));
    }

    #[test]
    fn wired_it_passes_d_on_in_the_same_cycle_and_registered_on_the_edge() {
        for wired in [false, true] {
            let mut stage = StageRegister::<Bits<8>>::new(wired);
            stage.connect_all();
            let value: Bits<8> = 0x5a.into();
            stage.d.next = value;
            assert!(simulate(&mut stage, 10));
            assert_eq!(stage.q.val() == value, wired, "wired {wired}, before an edge");
            stage.clock.next = true.into();
            assert!(simulate(&mut stage, 10));
            assert_eq!(stage.q.val(), value, "wired {wired}, after an edge");
        }
    }
}
