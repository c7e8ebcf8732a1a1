//! Co-simulation adapter of the buffer manager's received-PFC stage: a
//! model of the per-(port, class) pause deadlines, the query's paused
//! classes and its earliest pause end, sampled as the block answers them.
//!
//! Timing, in the stepper's samples (inputs of cycle n applied, clock
//! risen): `paused_until_ns` is `now + pause_ns` of cycle n; a frame of
//! cycle n is written at its edge; `query_paused` of sample n answers the
//! query port of cycle n with the frames of cycles up to n and `now` of
//! cycle n; `query_expiry_ns` of sample n is the earliest end of the
//! pauses of the query port of cycle n - 1, with the frames up to n - 1,
//! still running at `now` of cycle n.

use crate::cosim::Trace;
use hdl::buffer_manager::pfc_receive::{PfcReceive, NO_EXPIRY};

/// Address bits of the bench's block (32 ports).
pub const A: usize = 5;
const PORTS: usize = 1 << A;

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cycle {
    pub reset: bool,
    pub frame: Option<Frame>,
    pub now_ns: u32,
    pub query_port: u8,
}

/// A received PFC frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    pub port: u8,
    pub classes: u8,
    pub pause_ns: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct PfcReceiveBench {
    /// A wrong reference that answers the latest pause end instead of the
    /// earliest, to show that the comparison can fail.
    pub latest_expiry: bool,
}

crate::harness! {
    impl[] Harness for PfcReceiveBench {
        uut: PfcReceive<A>, name: "pfc_receive",
        build(self) { PfcReceive::default() }
        inputs {
            reset: 1 => "control",
            frame_valid: 1 => "frame",
            frame_port: A => "frame",
            frame_classes: 8 => "frame",
            pause_ns: 32 => "frame",
            now_ns: 32 => "frame",
            query_port: A => "query",
        }
        outputs {
            paused_until_ns: 32 => "answer",
            query_paused: 8 => "query",
            query_expiry_ns: 32 => "query",
        }
    }
}

fn inputs_of(cycle: &Cycle) -> Vec<u64> {
    let frame = cycle.frame.unwrap_or_default();
    let mut line = vec![0; inputs::COUNT];
    line[inputs::reset] = cycle.reset as u64;
    line[inputs::frame_valid] = cycle.frame.is_some() as u64;
    line[inputs::frame_port] = frame.port as u64 % PORTS as u64;
    line[inputs::frame_classes] = frame.classes as u64;
    line[inputs::pause_ns] = frame.pause_ns as u64;
    line[inputs::now_ns] = cycle.now_ns as u64;
    line[inputs::query_port] = cycle.query_port as u64 % PORTS as u64;
    line
}

impl PfcReceiveBench {
    /// The model's answers, cycle by cycle.
    pub fn trace(&self, cycles: &[Cycle]) -> Trace {
        let mut deadline = vec![[0u32; 8]; PORTS];
        // The ends of the last cycle's query port, as the RAMs answered them.
        let mut queried_before = [0u32; 8];
        let mut trace = Trace::default();
        for cycle in cycles {
            let frame = cycle.frame.unwrap_or_default();
            let until = cycle.now_ns.wrapping_add(frame.pause_ns);
            if cycle.frame.is_some() && !cycle.reset {
                for (class, end) in deadline[frame.port as usize % PORTS].iter_mut().enumerate() {
                    if frame.classes >> class & 1 == 1 {
                        *end = until;
                    }
                }
            }
            let queried = deadline[cycle.query_port as usize % PORTS];
            let paused = (0..8).filter(|&c| cycle.now_ns < queried[c]).fold(0u64, |m, c| m | 1 << c);
            let running = queried_before.iter().copied().filter(|&end| cycle.now_ns < end);
            let expiry = if self.latest_expiry { running.max() } else { running.min() };
            trace.inputs.push(inputs_of(cycle));
            trace.expected.push(vec![Some(until as u64), Some(paused), Some(expiry.unwrap_or(NO_EXPIRY) as u64)]);
            queried_before = queried;
        }
        trace
    }
}

pub mod strategies {
    use super::{Cycle, Frame};
    use proptest::prelude::*;

    /// Frames on a few ports (so that queries meet them, the same cycle's
    /// included), pauses from none to the wrap of the 32-bit time, time
    /// that moves slowly (pauses run out while queried) or jumps, resets.
    pub fn cycles(len: usize) -> impl Strategy<Value = Vec<Cycle>> {
        let pause = prop_oneof![Just(0u32), 1u32..400, 1u32..5_000, any::<u32>()];
        let frame = (0u8..4, any::<u8>(), pause).prop_map(|(port, classes, pause_ns)| Frame { port, classes, pause_ns });
        let step = prop_oneof![8 => 0u32..60, 1 => any::<u32>()];
        let cycle = (prop::option::weighted(0.5, frame), step, 0u8..5, prop::bool::weighted(0.02));
        prop::collection::vec(cycle, 1..len).prop_map(|steps| {
            let mut now = 0u32;
            steps
                .into_iter()
                .map(|(frame, step, query_port, reset)| {
                    now = now.wrapping_add(step);
                    Cycle { reset, frame, now_ns: now, query_port }
                })
                .collect()
        })
    }
}
