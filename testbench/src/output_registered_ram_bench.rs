//! Co-simulation adapter of the output-registered RAM: a software memory
//! that reads first, answered two cycles later (the read of cycle r in the
//! sample of cycle r + 1: the words before that cycle's write).

use crate::cosim::Trace;
use hdl::output_registered_ram::OutputRegisteredRam;
use rust_hdl::prelude::*;

pub use crate::twin_read_ram_bench::{strategies, Access};

/// Address bits of the RAM under test (16 words of 16 bits).
pub const ADDRESS_BITS: usize = 4;
pub type Ram = OutputRegisteredRam<Bits<16>, ADDRESS_BITS>;

#[derive(Clone, Copy, Debug, Default)]
pub struct OutputRegisteredRamBench {
    /// Build the hardware without its forwarding (a read of the word
    /// written the cycle before gets the collided RAM's answer).
    pub without_forwarding: bool,
}

crate::harness! {
    impl[] Harness for OutputRegisteredRamBench {
        uut: Ram, name: "output_registered_ram",
        build(self) { if self.without_forwarding { Ram::without_forwarding(true) } else { Ram::new(true) } }
        inputs {
            write_address: ADDRESS_BITS => "write",
            write_data: 16 => "write",
            write_enable: 1 => "write",
            read_address: ADDRESS_BITS => "read",
        }
        outputs {
            read_data: 16 => "read",
        }
    }
}

impl OutputRegisteredRamBench {
    /// Only read A of each access is used.
    pub fn trace(&self, accesses: &[Access]) -> Trace {
        let mut memory = [0u16; 1 << ADDRESS_BITS];
        let mut trace = Trace::default();
        let mut answer: Option<u16> = None;
        for access in accesses {
            let (address, data) = access.write.unwrap_or((0, 0));
            let address = address as usize % memory.len();
            let read = access.read_a as usize % memory.len();
            trace.inputs.push(vec![address as u64, data as u64, access.write.is_some() as u64, read as u64]);
            trace.expected.push(vec![answer.map(u64::from)]);
            answer = Some(memory[read]);
            if access.write.is_some() {
                memory[address] = data;
            }
        }
        trace
    }
}
