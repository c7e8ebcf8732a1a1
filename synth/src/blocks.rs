//! The hardware blocks that can be turned into Verilog.

use hdl::ecmp_hash::EcmpHash;
use rust_hdl::prelude::*;
use std::fmt;

/// A block the `verilog` command and the tool tests know by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HardwareBlock {
    EcmpHash,
}

impl HardwareBlock {
    pub const ALL: [HardwareBlock; 1] = [HardwareBlock::EcmpHash];

    pub fn name(self) -> &'static str {
        match self {
            HardwareBlock::EcmpHash => "ecmp-hash",
        }
    }

    pub fn from_name(name: &str) -> Option<HardwareBlock> {
        HardwareBlock::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The block's Verilog (module `top`), after rust_hdl's own checks.
    pub fn verilog(self) -> Result<String, String> {
        match self {
            HardwareBlock::EcmpHash => checked_verilog(EcmpHash::default()),
        }
    }
}

impl fmt::Display for HardwareBlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Connects and checks a block, then generates its Verilog.
pub fn checked_verilog<B: Block>(mut uut: B) -> Result<String, String> {
    uut.connect_all();
    check_all(&uut).map_err(|e| format!("rust_hdl check failed: {e:?}"))?;
    Ok(generate_verilog_unchecked(&uut))
}
