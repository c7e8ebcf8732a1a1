//! The hardware blocks that can be turned into Verilog.

use hdl::buffer_manager::BufferManager;
use hdl::ecmp_hash::EcmpHash;
use hdl::ecn_marker::EcnMarker;
use hdl::flowlet_table::FlowletTable;
use hdl::switch_datapath::SwitchDatapath;
use rust_hdl::prelude::*;
use std::fmt;

/// A block the `verilog` command and the tool tests know by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HardwareBlock {
    EcmpHash,
    /// For `ports` egress ports (1 to 256).
    EcnMarker { ports: usize },
    /// For `ports` ports (1 to 256).
    BufferManager { ports: usize },
    /// For `ports` ports (1 to 256) and `tables` flow tables (1, 2, 4 ..
    /// 128), with 256 equal-cost sets.
    FlowletTable { ports: usize, tables: usize },
    /// The four joined, for `ports` ports (1 to 256), 256 equal-cost sets
    /// and `tables` flow tables ([`DATAPATH_TABLES`]).
    SwitchDatapath { ports: usize, tables: usize },
}

/// Names accepted by [`HardwareBlock::parse`].
pub const BLOCK_NAMES: &[&str] = &["ecmp-hash", "ecn-marker", "buffer-manager", "flowlet-table", "switch-datapath"];

/// Flow-table counts the switch datapath is built for: 2 (small enough to
/// simulate: the sweep after power-up takes 2^10 cycles) and the model's
/// 128. Each build is a separate instance of the whole datapath, so the
/// list is kept short.
pub const DATAPATH_TABLES: &[usize] = &[2, reference::flowlet::MAX_TABLES];

/// Flow tables of a flowlet table block when none are given (the model's 128).
pub const DEFAULT_TABLES: usize = reference::flowlet::MAX_TABLES;
/// Set id bits of the flowlet table block: 256 equal-cost sets.
pub const FLOWLET_SET_BITS: usize = 8;

/// Ports of an ECN marker when none are given.
pub const DEFAULT_PORTS: usize = 16;

impl HardwareBlock {
    /// A block by name; `ports` applies to blocks with per-port state.
    pub fn parse(name: &str, ports: Option<usize>) -> Result<HardwareBlock, String> {
        match (name, ports) {
            ("ecmp-hash", None) => Ok(HardwareBlock::EcmpHash),
            ("ecmp-hash", Some(n)) => Err(format!("--ports {n}: the ecmp-hash block has no per-port state")),
            ("ecn-marker", ports) => Ok(HardwareBlock::EcnMarker { ports: ports.unwrap_or(DEFAULT_PORTS) }),
            ("buffer-manager", ports) => Ok(HardwareBlock::BufferManager { ports: ports.unwrap_or(DEFAULT_PORTS) }),
            ("flowlet-table", ports) => Ok(HardwareBlock::FlowletTable { ports: ports.unwrap_or(DEFAULT_PORTS), tables: DEFAULT_TABLES }),
            ("switch-datapath", ports) => Ok(HardwareBlock::SwitchDatapath { ports: ports.unwrap_or(DEFAULT_PORTS), tables: DEFAULT_TABLES }),
            (other, _) => Err(format!("block {other:?} is not one of {}", BLOCK_NAMES.join(", "))),
        }
    }

    /// The block with `tables` flow tables (flowlet-table only; 1, 2, 4
    /// .. 128).
    pub fn with_tables(self, tables: Option<usize>) -> Result<HardwareBlock, String> {
        match (self, tables) {
            (block, None) => Ok(block),
            (HardwareBlock::FlowletTable { ports, .. }, Some(tables)) => {
                slot_bits(tables).ok_or_else(|| format!("--tables {tables}: the flowlet-table block holds 1, 2, 4 .. 128 tables (a power of two)"))?;
                Ok(HardwareBlock::FlowletTable { ports, tables })
            }
            (HardwareBlock::SwitchDatapath { ports, .. }, Some(tables)) => {
                check_datapath(ports, tables)?;
                Ok(HardwareBlock::SwitchDatapath { ports, tables })
            }
            (block, Some(tables)) => Err(format!("--tables {tables}: the {} block has no flow tables", block.name())),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            HardwareBlock::EcmpHash => "ecmp-hash",
            HardwareBlock::EcnMarker { .. } => "ecn-marker",
            HardwareBlock::BufferManager { .. } => "buffer-manager",
            HardwareBlock::FlowletTable { .. } => "flowlet-table",
            HardwareBlock::SwitchDatapath { .. } => "switch-datapath",
        }
    }

    /// The Verilog module name of the block: `sswitch_<block>`; its
    /// sub-modules are `sswitch_<block>$<field>`, so two blocks can sit in
    /// one design.
    pub fn module_name(self) -> String {
        format!("sswitch_{}", self.name().replace('-', "_"))
    }

    /// The block's Verilog (module [`module_name`](Self::module_name)),
    /// after rust_hdl's own checks.
    pub fn verilog(self) -> Result<String, String> {
        Ok(rename_top(&self.rust_hdl_verilog()?, &self.module_name()))
    }

    /// The Verilog as rust_hdl writes it: module `top`, sub-modules `top$x`.
    fn rust_hdl_verilog(self) -> Result<String, String> {
        match self {
            HardwareBlock::EcmpHash => checked_verilog(EcmpHash::default()),
            HardwareBlock::EcnMarker { ports } => per_port_verilog(ports, "ecn-marker", |a, p| match a {
                4 => checked(EcnMarker::<4>::new(p)),
                5 => checked(EcnMarker::<5>::new(p)),
                6 => checked(EcnMarker::<6>::new(p)),
                7 => checked(EcnMarker::<7>::new(p)),
                8 => checked(EcnMarker::<8>::new(p)),
                9 => checked(EcnMarker::<9>::new(p)),
                10 => checked(EcnMarker::<10>::new(p)),
                _ => checked(EcnMarker::<11>::new(p)),
            }),
            HardwareBlock::BufferManager { ports } => per_port_verilog(ports, "buffer-manager", |a, p| match a {
                4 => checked(BufferManager::<4>::new(p)),
                5 => checked(BufferManager::<5>::new(p)),
                6 => checked(BufferManager::<6>::new(p)),
                7 => checked(BufferManager::<7>::new(p)),
                8 => checked(BufferManager::<8>::new(p)),
                9 => checked(BufferManager::<9>::new(p)),
                10 => checked(BufferManager::<10>::new(p)),
                _ => checked(BufferManager::<11>::new(p)),
            }),
            HardwareBlock::FlowletTable { ports, tables } => flowlet_table_verilog(ports, tables),
            HardwareBlock::SwitchDatapath { ports, tables } => switch_datapath_verilog(ports, tables),
        }
    }
}

/// Renames rust_hdl's module `top` and its sub-modules `top$...` to
/// `name` and `name$...`, token by token (a Verilog identifier may hold `$`).
pub fn rename_top(verilog: &str, name: &str) -> String {
    let mut out = String::with_capacity(verilog.len() + 1024);
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        if token == "top" || token.starts_with("top$") {
            out.push_str(name);
            out.push_str(&token["top".len()..]);
        } else {
            out.push_str(token);
        }
        token.clear();
    };
    for c in verilog.chars() {
        let continues = c.is_ascii_alphanumeric() || c == '_' || (c == '$' && !token.is_empty());
        if continues {
            token.push(c);
        } else {
            flush(&mut token, &mut out);
            out.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// RAM address bits for `ports` ports: 3 pool bits and enough port bits.
pub fn ecn_address_bits(ports: usize) -> usize {
    3 + port_bits(ports)
}

/// Builds a block with per-(port, pool) state for the address width its
/// port count needs (1 to 256 ports).
fn per_port_verilog(ports: usize, name: &str, build: impl Fn(usize, usize) -> Result<String, String>) -> Result<String, String> {
    match ecn_address_bits(ports) {
        a @ 4..=11 if ports > 0 => build(a, ports),
        _ => Err(format!("--ports {ports}: the {name} block holds 1 to 256 ports")),
    }
}

/// Port bits for `ports` ports (at least 1).
pub fn port_bits(ports: usize) -> usize {
    (usize::BITS - ports.max(2).saturating_sub(1).leading_zeros()) as usize
}

/// Slot address bits for `tables` flow tables of 512 slots, if `tables`
/// is a power of two from 1 to 128.
pub fn slot_bits(tables: usize) -> Option<usize> {
    (tables.is_power_of_two() && tables <= reference::flowlet::MAX_TABLES).then(|| 9 + tables.trailing_zeros() as usize)
}

fn flowlet_table_verilog(ports: usize, tables: usize) -> Result<String, String> {
    if ports == 0 || ports > 256 {
        return Err(format!("--ports {ports}: the flowlet-table block holds 1 to 256 ports"));
    }
    let t = slot_bits(tables).ok_or_else(|| format!("--tables {tables}: the flowlet-table block holds 1, 2, 4 .. 128 tables (a power of two)"))?;
    macro_rules! build {
        ($p:literal) => {
            match t {
                9 => checked(FlowletTable::<$p, 8, 9, 14>::new()),
                10 => checked(FlowletTable::<$p, 8, 10, 14>::new()),
                11 => checked(FlowletTable::<$p, 8, 11, 14>::new()),
                12 => checked(FlowletTable::<$p, 8, 12, 14>::new()),
                13 => checked(FlowletTable::<$p, 8, 13, 14>::new()),
                14 => checked(FlowletTable::<$p, 8, 14, 14>::new()),
                15 => checked(FlowletTable::<$p, 8, 15, 14>::new()),
                _ => checked(FlowletTable::<$p, 8, 16, 14>::new()),
            }
        };
    }
    match port_bits(ports) {
        1 => build!(1),
        2 => build!(2),
        3 => build!(3),
        4 => build!(4),
        5 => build!(5),
        6 => build!(6),
        7 => build!(7),
        _ => build!(8),
    }
}

/// "2 or 128".
fn list(values: &[usize]) -> String {
    let text: Vec<String> = values.iter().map(usize::to_string).collect();
    match text.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => text.join(""),
    }
}

/// Refuses a switch datapath build that does not exist, naming the value.
pub fn check_datapath(ports: usize, tables: usize) -> Result<(), String> {
    if ports == 0 || ports > 256 {
        return Err(format!("--ports {ports}: the switch-datapath block holds 1 to 256 ports"));
    }
    if !DATAPATH_TABLES.contains(&tables) {
        return Err(format!("--tables {tables}: the switch-datapath block is built with {} tables", list(DATAPATH_TABLES)));
    }
    Ok(())
}

fn switch_datapath_verilog(ports: usize, tables: usize) -> Result<String, String> {
    check_datapath(ports, tables)?;
    let full = tables == reference::flowlet::MAX_TABLES;
    macro_rules! build {
        ($p:literal, $a:literal) => {
            if full {
                checked(SwitchDatapath::<$a, $p, 8, 16, 14>::new(ports))
            } else {
                checked(SwitchDatapath::<$a, $p, 8, 10, 14>::new(ports))
            }
        };
    }
    match port_bits(ports) {
        1 => build!(1, 4),
        2 => build!(2, 5),
        3 => build!(3, 6),
        4 => build!(4, 7),
        5 => build!(5, 8),
        6 => build!(6, 9),
        7 => build!(7, 10),
        _ => build!(8, 11),
    }
}

fn checked<B: Block, E: fmt::Display>(block: Result<B, E>) -> Result<String, String> {
    checked_verilog(block.map_err(|e| e.to_string())?)
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
    fn only_the_top_module_and_its_sub_modules_are_renamed() {
        let v = "module top(a);\n  top$s1 s1(.d(top_x));\n  wire topper;\nendmodule // top\nmodule top$s1(d);";
        assert_eq!(rename_top(v, "sswitch_x"),
            "module sswitch_x(a);\n  sswitch_x$s1 s1(.d(top_x));\n  wire topper;\nendmodule // sswitch_x\nmodule sswitch_x$s1(d);");
    }

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
