//! Co-simulation adapter of the ECN marker block: its ports, stimulus
//! operations, and the reference marker's expected outputs.

use crate::cosim::{blank_until_reset, framed, write_inputs, ControlOps, Trace};
use hdl::ecn_marker::{EcnMarker, CANCEL_WINDOW, LATENCY};
use reference::ecn_marker::{EcnMarker as ReferenceMarker, EcnParams};
use reference::register_map::{apply_ecn_write, RegisterWrite};

/// One cycle of stimulus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Idle,
    Reset,
    Write(RegisterWrite),
    Update { port: u8, pool: u8, queue_bytes: u32 },
    Decide { port: u8, pool: u8, ect: bool },
}

/// Wrong reference variants that must make the co-simulation fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The decision reads the band of the neighbouring pool (pool ^ 1).
    NeighbourPoolBand,
    /// No read-after-write forwarding: back-to-back updates see stale data.
    StaleAverage,
    /// In the hardware, not the reference: the block is built without its
    /// second forwarding register, so an update two events after another
    /// on the same queue reads a stale average.
    NoSecondForwarding,
}

/// The harness for a marker with `A` address bits (`2^(A-3)` ports).
#[derive(Clone, Copy, Debug)]
pub struct EcnMarkerBench<const A: usize> {
    pub ports: usize,
    pub fault: Option<Fault>,
}

impl<const A: usize> EcnMarkerBench<A> {
    pub fn new(ports: usize) -> Self {
        EcnMarkerBench { ports, fault: None }
    }
}

const CFG: &str = "configuration";
const EVENT: &str = "event";
const RESULT: &str = "result";

crate::harness! {
    impl[const A: usize] Harness for EcnMarkerBench<A> {
        uut: EcnMarker<A>, name: "ecn_marker",
        build(self) {
            if self.fault == Some(Fault::NoSecondForwarding) {
                EcnMarker::without_second_forwarding(self.ports).expect("a valid port count")
            } else {
                EcnMarker::new(self.ports).expect("a valid port count")
            }
        }
        inputs {
            reset: 1 => "control",
            cfg_write: 1 => CFG,
            cfg_address: 8 => CFG,
            cfg_data: 32 => CFG,
            op_update: 1 => EVENT,
            op_decide: 1 => EVENT,
            queue_port: 8 => EVENT,
            queue_pool: 3 => EVENT,
            queue_bytes: 32 => EVENT,
            ect: 1 => EVENT,
        }
        outputs {
            update_valid: 1 => RESULT,
            decision_valid: 1 => RESULT,
            marked: 1 => RESULT,
            mean_bytes: 32 => RESULT,
        }
    }
}

impl ControlOps for Op {
    const IDLE: Op = Op::Idle;
    const RESET: Op = Op::Reset;
}

const CFG_PORTS: [usize; 3] = [inputs::cfg_write, inputs::cfg_address, inputs::cfg_data];

fn inputs_of(op: &Op) -> Vec<u64> {
    let mut v = vec![0u64; inputs::COUNT];
    match *op {
        Op::Idle => {}
        Op::Reset => v[inputs::reset] = 1,
        Op::Write(w) => write_inputs(&mut v, w, CFG_PORTS),
        Op::Update { port, pool, queue_bytes } => {
            v[inputs::op_update] = 1;
            v[inputs::queue_port] = port as u64;
            v[inputs::queue_pool] = pool as u64;
            v[inputs::queue_bytes] = queue_bytes as u64;
        }
        Op::Decide { port, pool, ect } => {
            v[inputs::op_decide] = 1;
            v[inputs::queue_port] = port as u64;
            v[inputs::queue_pool] = pool as u64;
            v[inputs::ect] = ect as u64;
        }
    }
    v
}

/// The outputs of one cycle: which result is valid, the mark, the mean.
fn result(update: bool, decision: bool, marked: bool, mean_bytes: Option<u64>) -> Vec<Option<u64>> {
    let mut e = vec![None; outputs::COUNT];
    e[outputs::update_valid] = Some(update as u64);
    e[outputs::decision_valid] = Some(decision as u64);
    e[outputs::marked] = Some(marked as u64);
    e[outputs::mean_bytes] = mean_bytes;
    e
}

impl<const A: usize> EcnMarkerBench<A> {
    /// Turns stimulus into a trace. An operation answers `LATENCY - 1`
    /// samples later; a reset cancels the operations of its own cycle and
    /// of the `CANCEL_WINDOW` cycles before. Register writes must come with
    /// no operation in flight.
    pub fn trace(&self, ops: &[Op]) -> Trace {
        let all: Vec<Op> = framed(ops.iter().cloned(), LATENCY);
        let mut marker = ReferenceMarker::new(EcnParams::zeroed(), 1 << (A - 3), 0);
        let idle = result(false, false, false, None);
        let mut expected = vec![idle; all.len()];
        let mut stale_mean: Option<(u8, u8, u32)> = None;
        for (cycle, op) in all.iter().enumerate() {
            let cancelled = all[cycle..all.len().min(cycle + CANCEL_WINDOW + 1)].contains(&Op::Reset);
            let at = cycle + LATENCY - 1;
            match *op {
                Op::Write(w) => apply_ecn_write(&mut marker, w),
                Op::Update { port, pool, queue_bytes } if !cancelled => {
                    let before = marker.mean_bytes(port as usize, pool as usize);
                    marker.update(port as usize, pool as usize, queue_bytes);
                    let mut mean = marker.mean_bytes(port as usize, pool as usize);
                    if let (Some(Fault::StaleAverage), Some((p, q, stale))) = (self.fault, stale_mean) {
                        if (p, q) == (port, pool) {
                            mean = reference::ecn_marker::ewma_step(stale, queue_bytes, marker.params().weight_q16);
                        }
                    }
                    stale_mean = Some((port, pool, before));
                    expected[at] = result(true, false, false, Some(mean as u64));
                }
                Op::Decide { port, pool, ect } if !cancelled => {
                    let swap = self.fault == Some(Fault::NeighbourPoolBand);
                    if swap {
                        marker.params_mut().bands.swap(pool as usize, pool as usize ^ 1);
                    }
                    let marked = marker.decide(port as usize, pool as usize, 0, ect);
                    if swap {
                        marker.params_mut().bands.swap(pool as usize, pool as usize ^ 1);
                    }
                    let mean = marker.mean_bytes(port as usize, pool as usize);
                    stale_mean = None;
                    expected[at] = result(false, true, marked, Some(mean as u64));
                }
                _ => stale_mean = None,
            }
        }
        blank_until_reset(&mut expected, LATENCY, outputs::COUNT);
        Trace { inputs: all.iter().map(inputs_of).collect(), expected }
    }
}

/// Stimulus generators for proptest.
pub mod strategies {
    use super::Op;
    use hdl::ecn_marker::LATENCY;
    use proptest::prelude::*;
    use reference::ecn_marker::{EcnBand, EcnParams};
    use reference::register_map::{ecn_marker_image, RegisterWrite};

    fn band() -> impl Strategy<Value = EcnBand> {
        let edge = prop_oneof![0u32..200_000, Just(0), Just(u32::MAX), any::<u32>()];
        (edge.clone(), prop_oneof![4 => 0u32..300_000, 1 => Just(0), 1 => any::<u32>()])
            .prop_map(|(min, width)| EcnBand::new(min, min.saturating_add(width)))
    }

    /// A configuration burst written with nothing in flight.
    pub fn program() -> impl Strategy<Value = Vec<Op>> {
        let weight = prop_oneof![Just(0u32), Just(1), Just(6554), Just(32768), Just(65535), Just(65536), 65537u32..131072, 0u32..65537];
        let max_prob = prop_oneof![Just(0u16), Just(65535), Just(32768), any::<u16>()];
        (prop::bool::weighted(0.85), weight, max_prob, prop::array::uniform8(band()), any::<u32>())
            .prop_map(|(enable, weight_q16, max_prob_q16, bands, seed)| {
                let params = EcnParams { enable, weight_q16, max_prob_q16, bands };
                let mut ops = vec![Op::Idle; LATENCY];
                ops.extend(ecn_marker_image(&params, seed).into_iter().map(Op::Write));
                ops
            })
    }

    fn queue_bytes() -> impl Strategy<Value = u32> {
        prop_oneof![6 => 0u32..500_000, 1 => Just(0), 1 => Just(u32::MAX), 1 => any::<u32>()]
    }

    /// Updates and decisions on a few queues (so back-to-back hits on one
    /// queue are common), idle gaps, resets and reprogramming.
    pub fn ops(ports: u8, len: usize) -> impl Strategy<Value = Vec<Op>> {
        let queue = (0..ports.min(3), 0u8..8);
        let event = prop_oneof![
            3 => (queue.clone(), queue_bytes()).prop_map(|((port, pool), queue_bytes)| Op::Update { port, pool, queue_bytes }),
            2 => (queue, prop::bool::weighted(0.8)).prop_map(|((port, pool), ect)| Op::Decide { port, pool, ect }),
            1 => (0..ports, 0u8..8, queue_bytes()).prop_map(|(port, pool, queue_bytes)| Op::Update { port, pool, queue_bytes }),
        ];
        let burst = prop::collection::vec(event, 1..48);
        let gap = (1usize..6).prop_map(|n| vec![Op::Idle; n]);
        let chunk = prop_oneof![10 => burst, 2 => gap, 1 => Just(vec![Op::Reset]), 1 => program()];
        (program(), prop::collection::vec(chunk, 1..len)).prop_map(|(first, chunks)| {
            let mut ops = first;
            ops.extend(chunks.into_iter().flatten());
            ops
        })
    }

    /// Writes with nothing in flight are assumed by the trace; check it.
    pub fn writes_are_quiet(ops: &[Op]) -> bool {
        ops.windows(LATENCY + 1).all(|w| {
            !matches!(w[LATENCY], Op::Write(RegisterWrite { .. }))
                || w[..LATENCY].iter().all(|o| matches!(o, Op::Idle | Op::Write(_) | Op::Reset))
        })
    }
}
