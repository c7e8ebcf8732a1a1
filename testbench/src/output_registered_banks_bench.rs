//! Co-simulation adapter of the output-registered banks: four software
//! memories that read first, answered two cycles later (the read of cycle
//! r in the sample of cycle r + 1: every bank's words before that cycle's
//! write). The banks sit in a small wrapper whose outputs are named one
//! by one, as the harness and the Verilog replay want them.

use crate::cosim::Trace;
use hdl::output_registered_banks::OutputRegisteredBanks;
use rust_hdl::prelude::*;

pub use crate::twin_read_ram_bench::{strategies, Access};

/// Address bits of each bank (16 words of 16 bits), banks and bank bits.
pub const ADDRESS_BITS: usize = 4;
pub const BANKS: usize = 4;
pub const BANK_BITS: usize = 2;
pub type Banks = OutputRegisteredBanks<Bits<16>, ADDRESS_BITS, BANKS, BANK_BITS>;

/// The banks with their four answers as separate ports.
#[derive(LogicBlock)]
pub struct FourBanks {
    pub clock: Signal<In, Clock>,
    pub write_bank: Signal<In, Bits<BANK_BITS>>,
    pub write_address: Signal<In, Bits<ADDRESS_BITS>>,
    pub write_data: Signal<In, Bits<16>>,
    pub write_enable: Signal<In, Bit>,
    pub read_address: Signal<In, Bits<ADDRESS_BITS>>,
    pub read_data_0: Signal<Out, Bits<16>>,
    pub read_data_1: Signal<Out, Bits<16>>,
    pub read_data_2: Signal<Out, Bits<16>>,
    pub read_data_3: Signal<Out, Bits<16>>,
    banks: Banks,
}

impl FourBanks {
    pub fn new(banks: Banks) -> FourBanks {
        FourBanks {
            clock: Default::default(),
            write_bank: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            read_address: Default::default(),
            read_data_0: Default::default(),
            read_data_1: Default::default(),
            read_data_2: Default::default(),
            read_data_3: Default::default(),
            banks,
        }
    }
}

impl Logic for FourBanks {
    #[hdl_gen]
    fn update(&mut self) {
        self.banks.clock.next = self.clock.val();
        self.banks.write_bank.next = self.write_bank.val();
        self.banks.write_address.next = self.write_address.val();
        self.banks.write_data.next = self.write_data.val();
        self.banks.write_enable.next = self.write_enable.val();
        self.banks.read_address.next = self.read_address.val();
        self.read_data_0.next = self.banks.read_data[0].val();
        self.read_data_1.next = self.banks.read_data[1].val();
        self.read_data_2.next = self.banks.read_data[2].val();
        self.read_data_3.next = self.banks.read_data[3].val();
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct OutputRegisteredBanksBench {
    /// Build the hardware without its forwarding (a read of a word written
    /// the cycle before gets the collided RAM's answer).
    pub without_forwarding: bool,
}

crate::harness! {
    impl[] Harness for OutputRegisteredBanksBench {
        uut: FourBanks, name: "output_registered_banks",
        build(self) {
            let banks = if self.without_forwarding { Banks::without_forwarding(true) } else { Banks::new(true) };
            FourBanks::new(banks.expect("4 banks, 2-bit bank numbers"))
        }
        inputs {
            write_bank: BANK_BITS => "write",
            write_address: ADDRESS_BITS => "write",
            write_data: 16 => "write",
            write_enable: 1 => "write",
            read_address: ADDRESS_BITS => "read",
        }
        outputs {
            read_data_0: 16 => "read",
            read_data_1: 16 => "read",
            read_data_2: 16 => "read",
            read_data_3: 16 => "read",
        }
    }
}

impl OutputRegisteredBanksBench {
    /// The write goes to bank `read_b % 4`; read A is every bank's address.
    pub fn trace(&self, accesses: &[Access]) -> Trace {
        let mut memory = [[0u16; 1 << ADDRESS_BITS]; BANKS];
        let mut trace = Trace::default();
        let mut answers: Option<[u16; BANKS]> = None;
        for access in accesses {
            let (address, data) = access.write.unwrap_or((0, 0));
            let address = address as usize % (1 << ADDRESS_BITS);
            let bank = Self::write_bank(access);
            let read = access.read_a as usize % (1 << ADDRESS_BITS);
            trace.inputs.push(vec![bank as u64, address as u64, data as u64, access.write.is_some() as u64, read as u64]);
            trace.expected.push(match answers {
                Some(words) => words.iter().map(|w| Some(*w as u64)).collect(),
                None => vec![None; BANKS],
            });
            answers = Some(std::array::from_fn(|b| memory[b][read]));
            if access.write.is_some() {
                memory[bank][address] = data;
            }
        }
        trace
    }

    /// The bank an access writes.
    pub fn write_bank(access: &Access) -> usize {
        access.read_b as usize % BANKS
    }
}
