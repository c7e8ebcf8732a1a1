//! Co-simulation adapter of the forwarding RAM read through its output
//! register: a software memory whose reads, answered two cycles later,
//! see every write up to the cycle before the answer.

use crate::cosim::Trace;
use hdl::registered_forwarding_ram::RegisteredForwardingRam;
use rust_hdl::prelude::*;

pub use crate::twin_read_ram_bench::{strategies, Access};

/// Address bits of the RAM under test (16 words of 16 bits).
pub const ADDRESS_BITS: usize = 4;
type Ram = RegisteredForwardingRam<Bits<16>, ADDRESS_BITS>;

#[derive(Clone, Copy, Debug, Default)]
pub struct RegisteredForwardingRamBench {
    /// Build the hardware without its older forwarding register.
    pub without_older_forward: bool,
}

crate::harness! {
    impl[] Harness for RegisteredForwardingRamBench {
        uut: Ram, name: "registered_forwarding_ram",
        build(self) { if self.without_older_forward { Ram::without_older_forward() } else { Ram::default() } }
        inputs {
            write_address: ADDRESS_BITS => "write",
            write_data: 16 => "write",
            write_enable: 1 => "write",
            write_alternate: 1 => "write",
            alternate_address: ADDRESS_BITS => "write",
            read_address: ADDRESS_BITS => "read",
        }
        outputs {
            read_data: 16 => "read",
        }
    }
}

impl RegisteredForwardingRamBench {
    /// The read of cycle x answers in the sample of cycle x + 1 (latency 2)
    /// with the words as they are after that cycle's write. Read A of each
    /// access is the read; read B is the alternate write address, taken
    /// when the written word is odd.
    pub fn trace(&self, accesses: &[Access]) -> Trace {
        let mut memory = [0u16; 1 << ADDRESS_BITS];
        let mut trace = Trace::default();
        let mut pending_read: Option<usize> = None;
        for access in accesses {
            let (address, data) = access.write.unwrap_or((0, 0));
            let address = address as usize % memory.len();
            let alternate_address = access.read_b as usize % memory.len();
            let alternate = data % 2 == 1;
            let read = access.read_a as usize % memory.len();
            trace.inputs.push(vec![address as u64, data as u64, access.write.is_some() as u64, alternate as u64, alternate_address as u64, read as u64]);
            if access.write.is_some() {
                memory[if alternate { alternate_address } else { address }] = data;
            }
            trace.expected.push(vec![pending_read.map(|r| memory[r] as u64)]);
            pending_read = Some(read);
        }
        trace
    }
}
