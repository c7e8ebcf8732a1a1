//! Co-simulation adapter of the output-registered copies: one software
//! memory that reads first, written as the copies are, and read at four
//! addresses, answered two cycles later (the reads of cycle r in the
//! sample of cycle r + 1: the words before that cycle's write). The
//! copies sit in a small wrapper whose ports are named one by one, as the
//! harness and the Verilog replay want them.

use crate::cosim::Trace;
use hdl::output_registered_copies::OutputRegisteredCopies;
use rust_hdl::prelude::*;

pub use crate::twin_read_ram_bench::{strategies, Access};

/// Address bits of each copy (16 words of 16 bits), and copies.
pub const ADDRESS_BITS: usize = 4;
pub const COPIES: usize = 4;
pub type Copies = OutputRegisteredCopies<Bits<16>, ADDRESS_BITS, COPIES>;

/// The copies with their four read ports as separate ports.
#[derive(LogicBlock)]
pub struct FourCopies {
    pub clock: Signal<In, Clock>,
    pub write_address: Signal<In, Bits<ADDRESS_BITS>>,
    pub write_data: Signal<In, Bits<16>>,
    pub write_enable: Signal<In, Bit>,
    pub read_address_0: Signal<In, Bits<ADDRESS_BITS>>,
    pub read_address_1: Signal<In, Bits<ADDRESS_BITS>>,
    pub read_address_2: Signal<In, Bits<ADDRESS_BITS>>,
    pub read_address_3: Signal<In, Bits<ADDRESS_BITS>>,
    pub read_data_0: Signal<Out, Bits<16>>,
    pub read_data_1: Signal<Out, Bits<16>>,
    pub read_data_2: Signal<Out, Bits<16>>,
    pub read_data_3: Signal<Out, Bits<16>>,
    copies: Copies,
}

impl FourCopies {
    pub fn new(copies: Copies) -> FourCopies {
        FourCopies {
            clock: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            read_address_0: Default::default(),
            read_address_1: Default::default(),
            read_address_2: Default::default(),
            read_address_3: Default::default(),
            read_data_0: Default::default(),
            read_data_1: Default::default(),
            read_data_2: Default::default(),
            read_data_3: Default::default(),
            copies,
        }
    }
}

impl Logic for FourCopies {
    #[hdl_gen]
    fn update(&mut self) {
        self.copies.clock.next = self.clock.val();
        self.copies.write_address.next = self.write_address.val();
        self.copies.write_data.next = self.write_data.val();
        self.copies.write_enable.next = self.write_enable.val();
        self.copies.read_address[0].next = self.read_address_0.val();
        self.copies.read_address[1].next = self.read_address_1.val();
        self.copies.read_address[2].next = self.read_address_2.val();
        self.copies.read_address[3].next = self.read_address_3.val();
        self.read_data_0.next = self.copies.read_data[0].val();
        self.read_data_1.next = self.copies.read_data[1].val();
        self.read_data_2.next = self.copies.read_data[2].val();
        self.read_data_3.next = self.copies.read_data[3].val();
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct OutputRegisteredCopiesBench {
    /// Build the hardware without its forwarding (a read of a word written
    /// the cycle before gets the collided RAM's answer).
    pub without_forwarding: bool,
}

crate::harness! {
    impl[] Harness for OutputRegisteredCopiesBench {
        uut: FourCopies, name: "output_registered_copies",
        build(self) {
            FourCopies::new(if self.without_forwarding { Copies::without_forwarding(true) } else { Copies::new(true) })
        }
        inputs {
            write_address: ADDRESS_BITS => "write",
            write_data: 16 => "write",
            write_enable: 1 => "write",
            read_address_0: ADDRESS_BITS => "read",
            read_address_1: ADDRESS_BITS => "read",
            read_address_2: ADDRESS_BITS => "read",
            read_address_3: ADDRESS_BITS => "read",
        }
        outputs {
            read_data_0: 16 => "read",
            read_data_1: 16 => "read",
            read_data_2: 16 => "read",
            read_data_3: 16 => "read",
        }
    }
}

impl OutputRegisteredCopiesBench {
    /// One write to every copy and four reads per access (see [`Self::read_addresses`]).
    pub fn trace(&self, accesses: &[Access]) -> Trace {
        let mut memory = [0u16; 1 << ADDRESS_BITS];
        let mut trace = Trace::default();
        let mut answers: Option<[u16; COPIES]> = None;
        for access in accesses {
            let (address, data) = access.write.unwrap_or((0, 0));
            let address = address as usize % (1 << ADDRESS_BITS);
            let reads = Self::read_addresses(access);
            let mut inputs = vec![address as u64, data as u64, access.write.is_some() as u64];
            inputs.extend(reads.iter().map(|r| *r as u64));
            trace.inputs.push(inputs);
            trace.expected.push(match answers {
                Some(words) => words.iter().map(|w| Some(*w as u64)).collect(),
                None => vec![None; COPIES],
            });
            answers = Some(reads.map(|r| memory[r]));
            if access.write.is_some() {
                memory[address] = data;
            }
        }
        trace
    }

    /// The four copies' read addresses of an access: A, B, A xor B, A + B
    /// (the stimulus's addresses are often below 4, so each copy often
    /// reads the word written the cycle before).
    pub fn read_addresses(access: &Access) -> [usize; COPIES] {
        let (a, b) = (access.read_a as usize, access.read_b as usize);
        [a, b, a ^ b, a + b].map(|r| r % (1 << ADDRESS_BITS))
    }
}
