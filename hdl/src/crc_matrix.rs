//! CRC-32 of the 13-byte ECMP key as one combinational XOR matrix.
//!
//! Purpose: the affine map `crc = D·key ⊕ I·init ⊕ c` of the IEEE CRC-32
//! (as `crc32fast` computes it, `init` passed as its initial CRC), one XOR
//! tree per output bit, so the whole CRC fits one pipeline stage.
//!
//! Parameters: none; the masks are computed from the reference CRC when
//! the block is built.
//!
//! Ports (combinational, no clock):
//! * key: `key_proto` (8 bits), `key_ports` (`sport << 16 | dport`),
//!   `key_src`, `key_dst` (32 bits each), `crc_init` (32 bits)
//! * result: `crc_word` (32 bits)
//!
//! Latency 0 cycles (combinational); throughput one key per cycle.
//!
//! The Verilog is written by hand from the masks (rust_hdl 0.46 cannot
//! assemble a word bit by bit inside a kernel); the Icarus replay of the
//! ECMP hash proves it equal to the simulation model below.

use reference::ecmp_hash::{crc32, FlowKey};
use rust_hdl::prelude::*;

/// The CRC of the key as an affine map over GF(2): per output bit, the
/// masks of the key fields and of the initial value, and the constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrcMasks {
    pub proto: [u8; 32],
    pub ports: [u32; 32],
    pub src: [u32; 32],
    pub dst: [u32; 32],
    pub init: [u32; 32],
    pub constant: u32,
}

impl CrcMasks {
    pub fn new() -> CrcMasks {
        let zero = FlowKey::default();
        let constant = crc32(&zero.bytes(), 0);
        let column = |key: FlowKey, init: u32| crc32(&key.bytes(), init) ^ constant;
        let mut m = CrcMasks { proto: [0; 32], ports: [0; 32], src: [0; 32], dst: [0; 32], init: [0; 32], constant };
        for j in 0..32 {
            let bit = 1u32 << j;
            let proto = if j < 8 { column(FlowKey { proto: bit as u8, ..zero }, 0) } else { 0 };
            let ports = column(FlowKey { sport: (bit >> 16) as u16, dport: bit as u16, ..zero }, 0);
            let src = column(FlowKey { src: bit, ..zero }, 0);
            let dst = column(FlowKey { dst: bit, ..zero }, 0);
            let init = column(zero, bit);
            for i in 0..32 {
                let hit = |c: u32| (c >> i) & 1;
                if j < 8 {
                    m.proto[i] |= (hit(proto) as u8) << j;
                }
                m.ports[i] |= hit(ports) << j;
                m.src[i] |= hit(src) << j;
                m.dst[i] |= hit(dst) << j;
                m.init[i] |= hit(init) << j;
            }
        }
        m
    }

    /// The CRC the matrix computes.
    pub fn apply(&self, proto: u8, ports: u32, src: u32, dst: u32, init: u32) -> u32 {
        (0..32).fold(self.constant, |crc, i| {
            let parity = (proto & self.proto[i]).count_ones()
                + (ports & self.ports[i]).count_ones()
                + (src & self.src[i]).count_ones()
                + (dst & self.dst[i]).count_ones()
                + (init & self.init[i]).count_ones();
            crc ^ ((parity & 1) << i)
        })
    }

    fn verilog(&self) -> String {
        let mut bits = Vec::new();
        for i in (0..32).rev() {
            bits.push(format!(
                "    (^(key_proto & 8'h{:02x})) ^ (^(key_ports & 32'h{:08x})) ^ (^(key_src & 32'h{:08x})) ^ (^(key_dst & 32'h{:08x})) ^ (^(crc_init & 32'h{:08x}))",
                self.proto[i], self.ports[i], self.src[i], self.dst[i], self.init[i]
            ));
        }
        format!("always @(*) begin\n  crc_word = 32'h{:08x} ^ {{\n{}\n  }};\nend\n", self.constant, bits.join(",\n"))
    }
}

impl Default for CrcMasks {
    fn default() -> Self {
        CrcMasks::new()
    }
}

#[derive(LogicBlock, Default)]
pub struct CrcMatrix {
    pub key_proto: Signal<In, Bits<8>>,
    pub key_ports: Signal<In, Bits<32>>,
    pub key_src: Signal<In, Bits<32>>,
    pub key_dst: Signal<In, Bits<32>>,
    pub crc_init: Signal<In, Bits<32>>,
    pub crc_word: Signal<Out, Bits<32>>,
    _masks: CrcMasks,
}

impl Logic for CrcMatrix {
    fn update(&mut self) {
        let crc = self._masks.apply(
            self.key_proto.val().to_u8(),
            self.key_ports.val().to_u32(),
            self.key_src.val().to_u32(),
            self.key_dst.val().to_u32(),
            self.crc_init.val().to_u32(),
        );
        self.crc_word.next = (crc as u64).into();
    }

    fn connect(&mut self) {
        self.crc_word.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self._masks.verilog())
    }
}
