//! Co-simulation adapter of the forwarding RAM with two read ports (two
//! `ForwardingRam` halves): a software memory whose reads see the write of
//! their own cycle is the reference.

use crate::cosim::Trace;
use hdl::twin_forwarding_ram::TwinForwardingRam;
use rust_hdl::prelude::*;

pub use crate::twin_read_ram_bench::{strategies, Access};

/// Address bits of the RAM under test (16 words of 16 bits).
pub const ADDRESS_BITS: usize = 4;
type Ram = TwinForwardingRam<Bits<16>, ADDRESS_BITS>;

#[derive(Clone, Copy, Debug, Default)]
pub struct TwinForwardingRamBench {
    /// Build the hardware without forwarding (the fault-injection test).
    pub without_forwarding: bool,
}

crate::harness! {
    impl[] Harness for TwinForwardingRamBench {
        uut: Ram, name: "twin_forwarding_ram",
        build(self) { if self.without_forwarding { Ram::without_forwarding() } else { Ram::default() } }
        inputs {
            write_address: ADDRESS_BITS => "write",
            write_data: 16 => "write",
            write_enable: 1 => "write",
            read_address_a: ADDRESS_BITS => "read A",
            read_address_b: ADDRESS_BITS => "read B",
        }
        outputs {
            read_data_a: 16 => "read A",
            read_data_b: 16 => "read B",
        }
    }
}

impl TwinForwardingRamBench {
    /// Each cycle's reads answer in the same cycle's sample (the read is
    /// registered at the clock edge), with the words as they are after that
    /// edge's write: the forwarding of the same-edge write.
    pub fn trace(&self, accesses: &[Access]) -> Trace {
        let mut memory = [0u16; 1 << ADDRESS_BITS];
        let mut trace = Trace::default();
        for access in accesses {
            let (address, data) = access.write.unwrap_or((0, 0));
            let address = address as usize % memory.len();
            let (a, b) = (access.read_a as usize % memory.len(), access.read_b as usize % memory.len());
            trace.inputs.push(vec![address as u64, data as u64, access.write.is_some() as u64, a as u64, b as u64]);
            if access.write.is_some() {
                memory[address] = data;
            }
            trace.expected.push(vec![Some(memory[a] as u64), Some(memory[b] as u64)]);
        }
        trace
    }
}
