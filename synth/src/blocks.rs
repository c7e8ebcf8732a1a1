//! The hardware blocks that can be turned into Verilog.

use hdl::ecmp_hash::EcmpHash;
use hdl::ecn_marker::EcnMarker;
use rust_hdl::prelude::*;
use std::fmt;

/// A block the `verilog` command and the tool tests know by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HardwareBlock {
    EcmpHash,
    /// For `ports` egress ports (2 to 256).
    EcnMarker { ports: usize },
}

/// Names accepted by [`HardwareBlock::parse`].
pub const BLOCK_NAMES: &[&str] = &["ecmp-hash", "ecn-marker"];

/// Ports of an ECN marker when none are given.
pub const DEFAULT_PORTS: usize = 16;

impl HardwareBlock {
    /// A block by name; `ports` applies to blocks with per-port state.
    pub fn parse(name: &str, ports: Option<usize>) -> Result<HardwareBlock, String> {
        match (name, ports) {
            ("ecmp-hash", None) => Ok(HardwareBlock::EcmpHash),
            ("ecmp-hash", Some(n)) => Err(format!("--ports {n}: the ecmp-hash block has no per-port state")),
            ("ecn-marker", ports) => Ok(HardwareBlock::EcnMarker { ports: ports.unwrap_or(DEFAULT_PORTS) }),
            (other, _) => Err(format!("block {other:?} is not one of {}", BLOCK_NAMES.join(", "))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            HardwareBlock::EcmpHash => "ecmp-hash",
            HardwareBlock::EcnMarker { .. } => "ecn-marker",
        }
    }

    /// The block's Verilog (module `top`), after rust_hdl's own checks.
    pub fn verilog(self) -> Result<String, String> {
        match self {
            HardwareBlock::EcmpHash => checked_verilog(EcmpHash::default()),
            HardwareBlock::EcnMarker { ports } => ecn_marker_verilog(ports),
        }
    }
}

/// RAM address bits for `ports` ports: 3 pool bits and enough port bits.
pub fn ecn_address_bits(ports: usize) -> usize {
    3 + (usize::BITS - ports.max(2).saturating_sub(1).leading_zeros()) as usize
}

fn ecn_marker_verilog(ports: usize) -> Result<String, String> {
    fn build<const A: usize>(ports: usize) -> Result<String, String> {
        checked_verilog(EcnMarker::<A>::new(ports).map_err(|e| e.to_string())?)
    }
    match ecn_address_bits(ports) {
        4 => build::<4>(ports),
        5 => build::<5>(ports),
        6 => build::<6>(ports),
        7 => build::<7>(ports),
        8 => build::<8>(ports),
        9 => build::<9>(ports),
        10 => build::<10>(ports),
        11 => build::<11>(ports),
        _ => Err(format!("--ports {ports}: the ecn-marker block holds 1 to 256 ports")),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_bits_fit_the_ports() {
        assert_eq!(ecn_address_bits(1), 4);
        assert_eq!(ecn_address_bits(2), 4);
        assert_eq!(ecn_address_bits(3), 5);
        assert_eq!(ecn_address_bits(16), 7);
        assert_eq!(ecn_address_bits(17), 8);
        assert_eq!(ecn_address_bits(256), 11);
        assert_eq!(ecn_address_bits(257), 12);
    }
}
