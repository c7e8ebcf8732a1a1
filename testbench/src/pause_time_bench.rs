//! Co-simulation adapter of the buffer manager's pause-length stage: the
//! reference's `ports::pause_ns` in the block's 32 bits, 0 for a pause of
//! no quanta, one cycle after its inputs.

use crate::cosim::Trace;
use hdl::buffer_manager::pause_time::PauseTime;
use reference::ports::pause_ns;

/// One cycle's inputs: quanta, the port's quantum (Q16.16 ns), its delay (ns).
pub type Pause = (u16, u32, u32);

#[derive(Clone, Copy, Debug, Default)]
pub struct PauseTimeBench {
    /// A wrong reference (a pause of no quanta lasting its link delay),
    /// to show that the comparison can fail.
    pub zero_quanta_lasts_the_delay: bool,
}

crate::harness! {
    impl[] Harness for PauseTimeBench {
        uut: PauseTime, name: "pause_time",
        build(self) { PauseTime::default() }
        inputs {
            quanta: 16 => "pause",
            quantum_q16: 32 => "pause",
            delay_ns: 32 => "pause",
        }
        outputs {
            pause_ns: 32 => "length",
        }
    }
}

impl PauseTimeBench {
    /// The pause of cycle x answers in the sample of cycle x.
    pub fn trace(&self, pauses: &[Pause]) -> Trace {
        let mut trace = Trace::default();
        for &(quanta, quantum_q16, delay_ns) in pauses {
            trace.inputs.push(vec![quanta as u64, quantum_q16 as u64, delay_ns as u64]);
            let length = if quanta == 0 && !self.zero_quanta_lasts_the_delay { 0 } else { pause_ns(quanta, quantum_q16, delay_ns) as u32 };
            trace.expected.push(vec![Some(length as u64)]);
        }
        trace
    }
}

pub mod strategies {
    use super::Pause;
    use proptest::prelude::*;

    /// Pauses of every size: no quanta, a full pause (65535), the 400 Gb/s
    /// quantum, and words whose 32-bit sum wraps.
    pub fn pauses(len: usize) -> impl Strategy<Value = Vec<Pause>> {
        let quanta = prop_oneof![Just(0u16), Just(u16::MAX), 1u16..200, any::<u16>()];
        let quantum = prop_oneof![Just(83_886u32), 0u32..(1 << 20), any::<u32>(), (0u32..64).prop_map(|k| u32::MAX - k)];
        let delay = prop_oneof![0u32..5_000, any::<u32>()];
        prop::collection::vec((quanta, quantum, delay), 1..len)
    }
}
