//! A simple dual-port RAM for users that never take its answer for a word
//! read at the clock edge that writes it: the forwarding RAMs, which answer
//! such a read from their own write registers.
//!
//! Why: rust_hdl's `RAM` reads first, and the ECP5 DP16KD leaves a read of
//! the word its other port writes at the same edge undefined, so Yosys
//! emulates read-first around every DP16KD: the writes go through a
//! register (a cycle later) and a bypass multiplexer follows the RAM's
//! output (about 27 flip-flops and 28 LUT4 on a 512 x 8 RAM, and a LUT
//! between the RAM and whatever registers its data). This leaf's memory
//! carries Yosys's `(* no_rw_check *)`, which drops that emulation: the
//! RAM's data reaches the next register directly.
//!
//! Simulation answers such a read with the stored word inverted (neither
//! the old nor, unless it is, the new word), so that a co-simulation of a
//! design that does use it fails. Icarus and Verilator read first.
//!
//! Parameters: `D`, the word type (`Bits<W>` or `Bit`); `N`, address bits
//! (`2^N` words); [`CollisionFreeRam::new`]: whether the words are zero
//! from the bitstream on, or start unknown (zero in simulation).
//!
//! Ports (all on `clock`):
//! * write: `write_address`, `write_data`, `write_enable`
//! * read: `read_address` -> `read_data` one cycle later
//!
//! Latency 1 cycle; one write and one read per cycle.
//!
//! ```text
//!  write ──► mem (no_rw_check) ──► read_data
//!  read_address ──┘
//! ```

use rust_hdl::prelude::*;
use rust_hdl::core::timing::TimingInfo;

/// A word type whose stored value can be spoiled for a collided read.
pub trait Poison: Synth {
    fn poisoned(self) -> Self;
}

impl<const W: usize> Poison for Bits<W> {
    fn poisoned(self) -> Self {
        !self
    }
}

impl Poison for Bit {
    fn poisoned(self) -> Self {
        !self
    }
}

#[derive(LogicBlock)]
pub struct CollisionFreeRam<D: Poison, const N: usize> {
    pub clock: Signal<In, Clock>,
    // write port
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, Bit>,
    // read port
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: Signal<Out, D>,
    _words: Vec<D>,
    _initialised: bool,
}

impl<D: Poison, const N: usize> CollisionFreeRam<D, N> {
    /// A RAM whose words start at zero (`initialised`) or unknown.
    pub fn new(initialised: bool) -> Self {
        CollisionFreeRam {
            clock: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            _words: vec![D::default(); 1 << N],
            _initialised: initialised,
        }
    }
}

/// Words start unknown, as rust_hdl's `RAM::default()`.
impl<D: Poison, const N: usize> Default for CollisionFreeRam<D, N> {
    fn default() -> Self {
        Self::new(false)
    }
}

impl<D: Poison, const N: usize> Logic for CollisionFreeRam<D, N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let read = self.read_address.val().index();
            let written = self.write_address.val().index();
            let collided = self.write_enable.val() && read == written;
            let word = self._words[read];
            self.read_data.next = if collided { word.poisoned() } else { word };
            if self.write_enable.val() {
                self._words[written] = self.write_data.val();
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let init = if self._initialised {
            format!("integer word;\ninitial begin\n   for (word = 0; word <= {last}; word = word + 1) mem[word] = {width}'d0;\nend\n",
                last = (1usize << N) - 1, width = D::BITS)
        } else {
            String::new()
        };
        Verilog::Custom(format!(
            "\
(* no_rw_check *)
reg [{msb}:0] mem [0:{last}];
{init}
always @(posedge clock) begin
   read_data <= mem[read_address];
end

always @(posedge clock) begin
   if (write_enable) begin
      mem[write_address] <= write_data;
   end
end
",
            msb = D::BITS - 1,
            last = (1usize << N) - 1,
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![
            TimingInfo {
                name: "ram_read".into(),
                clock: "clock".into(),
                inputs: vec!["read_address".into()],
                outputs: vec!["read_data".into()],
            },
            TimingInfo {
                name: "ram_write".into(),
                clock: "clock".into(),
                inputs: vec!["write_address".into(), "write_data".into(), "write_enable".into()],
                outputs: vec![],
            },
        ]
    }
}
