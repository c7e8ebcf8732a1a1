//! Co-simulation adapter of the two-read-port RAM: a software memory with
//! read-first semantics is the reference.

use crate::cosim::Trace;
use hdl::twin_read_ram::TwinReadRam;
use rust_hdl::prelude::*;

/// Address bits of the RAM under test (16 words of 16 bits).
pub const ADDRESS_BITS: usize = 4;
type Ram = TwinReadRam<Bits<16>, ADDRESS_BITS>;

/// One cycle: an optional write and two reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub write: Option<(u8, u16)>,
    pub read_a: u8,
    pub read_b: u8,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct TwinReadRamBench {
    /// A wrong reference for the negative test: reads see a same-edge write.
    pub write_first: bool,
}

crate::harness! {
    impl[] Harness for TwinReadRamBench {
        uut: Ram, name: "twin_read_ram",
        build(self) { Ram::default() }
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

impl TwinReadRamBench {
    /// Each cycle's reads answer in the same cycle's sample (the RAM
    /// registers the read at the clock edge), with the words as they were
    /// before that edge's write.
    pub fn trace(&self, accesses: &[Access]) -> Trace {
        let mut memory = [0u16; 1 << ADDRESS_BITS];
        let mut trace = Trace::default();
        for access in accesses {
            let (address, data) = access.write.unwrap_or((0, 0));
            let address = address as usize % memory.len();
            let (a, b) = (access.read_a as usize % memory.len(), access.read_b as usize % memory.len());
            if self.write_first && access.write.is_some() {
                memory[address] = data;
            }
            trace.inputs.push(vec![address as u64, data as u64, access.write.is_some() as u64, a as u64, b as u64]);
            trace.expected.push(vec![Some(memory[a] as u64), Some(memory[b] as u64)]);
            if access.write.is_some() {
                memory[address] = data;
            }
        }
        trace
    }
}

/// Stimulus for proptest: writes and reads on few addresses, so reads
/// often meet the word written in the same or the previous cycle.
pub mod strategies {
    use super::Access;
    use proptest::prelude::*;

    pub fn accesses(len: usize) -> impl Strategy<Value = Vec<Access>> {
        let address = prop_oneof![0u8..4, 0u8..16];
        let write = prop::option::weighted(0.6, (address.clone(), any::<u16>()));
        prop::collection::vec((write, address.clone(), address).prop_map(|(write, read_a, read_b)| Access { write, read_a, read_b }), 1..len)
    }
}
