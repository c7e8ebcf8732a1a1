//! Moves the register that follows an ECP5 block RAM's read port into the
//! RAM (`REGMODE_A/B = "OUTREG"`), a step between Yosys and nextpnr.
//!
//! Why: a DP16KD read without its output register has about 5.6 ns from
//! clock to data at speed grade 8, the longest start of any path in our
//! blocks; with the register inside the RAM the data leaves a flip-flop.
//! Yosys (0.23 and current) always maps DP16KD with `REGMODE "NOREG"` and
//! leaves a register written right after the read in the fabric, so the
//! blocks register every RAM read in the fabric and this step moves those
//! registers in.
//!
//! A read port is changed only when every data bit it drives goes to
//! exactly one flip-flop, each of them clocked by the port's clock on the
//! rising edge, always enabled, never reset and starting at 0, and the
//! port's output enable is high and its reset low. The RAM's register then
//! does what they did: load the read data at every edge of that clock.
//! A RAM in 36-bit pseudo-dual-port mode (`DATA_WIDTH_A = 36`: written
//! through A, read through B) reads on `DOA` and `DOB` together, all on
//! port B's clock and enables; it is taken as one read port and gets both
//! `REGMODE`s, as nextpnr sets them for a `PDPW16KD`.
//!
//! ```text
//!  DP16KD (NOREG) ─DOB─► TRELLIS_FF ─Q─► logic   becomes   DP16KD (OUTREG) ─DOB─► logic
//! ```

use serde_json::Value;
use std::collections::HashMap;

/// What the step changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Absorbed {
    /// Read ports now registered inside their block RAM.
    pub ram_ports: usize,
    /// Fabric flip-flops removed.
    pub flip_flops: usize,
    /// Read ports left as they were (some data bit not feeding a lone,
    /// plain register).
    pub ports_left: usize,
}

/// A bit of a net: Yosys numbers them; constants are strings.
type NetBit = u64;

/// Applies the step to a Yosys JSON netlist (its top module).
pub fn absorb_output_registers(netlist: &mut Value) -> Result<Absorbed, String> {
    let top = top_module_name(netlist)?;
    let module = netlist["modules"].get_mut(&top).ok_or("the netlist has no top module")?;
    let sinks = sinks_of_nets(module);
    let cells = module["cells"].as_object().ok_or("the top module has no cells")?;
    let mut plans: Vec<(String, ReadPort, Vec<(String, String)>)> = Vec::new();
    let mut absorbed = Absorbed::default();
    for (name, cell) in cells {
        if cell["type"] != "DP16KD" {
            continue;
        }
        for port in read_ports(cell) {
            match registers_after(cell, &port, &sinks, cells) {
                PortPlan::Unused => {}
                PortPlan::Left => absorbed.ports_left += 1,
                PortPlan::Absorb(pairs) => plans.push((name.clone(), port, pairs)),
            }
        }
    }
    let cells = module["cells"].as_object_mut().expect("checked above");
    let mut moved_in = std::collections::HashSet::new();
    for (ram, port, pairs) in plans {
        for (output, register) in &pairs {
            let q = cells[register]["connections"]["Q"].clone();
            cells[&ram]["connections"][output] = q;
            moved_in.insert(register.clone());
        }
        for regmode in port.regmodes {
            cells[&ram]["parameters"][format!("REGMODE_{regmode}")] = Value::from("OUTREG");
        }
        absorbed.ram_ports += 1;
        absorbed.flip_flops += pairs.len();
    }
    // The other cells keep their order: nextpnr's placement depends on it.
    cells.retain(|name, _| !moved_in.contains(name));
    Ok(absorbed)
}

/// A read port: the data outputs, the port whose clock, output enable and
/// reset they use, and the `REGMODE`s that register them.
struct ReadPort {
    outputs: Vec<String>,
    control: char,
    regmodes: &'static [char],
}

/// The read ports of a DP16KD: A and B, or one (B) in 36-bit
/// pseudo-dual-port mode.
fn read_ports(ram: &Value) -> Vec<ReadPort> {
    let data = |port: char| (0..18).map(move |k| format!("DO{port}{k}"));
    let width_a = ram["parameters"]["DATA_WIDTH_A"].as_str().and_then(|w| u32::from_str_radix(w.trim(), 2).ok());
    if width_a == Some(36) {
        return vec![ReadPort { outputs: data('A').chain(data('B')).collect(), control: 'B', regmodes: &['A', 'B'] }];
    }
    vec![
        ReadPort { outputs: data('A').collect(), control: 'A', regmodes: &['A'] },
        ReadPort { outputs: data('B').collect(), control: 'B', regmodes: &['B'] },
    ]
}

enum PortPlan {
    /// No data bit of the port is read.
    Unused,
    /// Some read bit does not qualify.
    Left,
    /// (data output, register) for every read bit.
    Absorb(Vec<(String, String)>),
}

fn registers_after(ram: &Value, port: &ReadPort, sinks: &HashMap<NetBit, Vec<(String, String)>>, cells: &serde_json::Map<String, Value>) -> PortPlan {
    let connections = &ram["connections"];
    let parameters = &ram["parameters"];
    let c = port.control;
    let port_ready = port.regmodes.iter().all(|r| param(parameters, &format!("REGMODE_{r}")) == "NOREG")
        && param(parameters, &format!("CLK{c}MUX")) == format!("CLK{c}")
        && is_constant(&connections[format!("OCE{c}")], "1")
        && is_constant(&connections[format!("RST{c}")], "0");
    let clock = &connections[format!("CLK{c}")];
    let mut pairs = Vec::new();
    for output in &port.outputs {
        let Some(bit) = connections[output].get(0).and_then(Value::as_u64) else { continue };
        let Some(readers) = sinks.get(&bit) else { continue };
        let plain = match readers.as_slice() {
            [(register, pin)] if pin == "DI" => cells.get(register).filter(|ff| is_plain_register(ff, clock)).map(|_| register.clone()),
            _ => None,
        };
        match plain {
            Some(register) if port_ready => pairs.push((output.clone(), register)),
            _ => return PortPlan::Left,
        }
    }
    if pairs.is_empty() { PortPlan::Unused } else { PortPlan::Absorb(pairs) }
}

/// A TRELLIS_FF on the rising edge of `clock`, always enabled, never
/// reset, starting at 0.
fn is_plain_register(ff: &Value, clock: &Value) -> bool {
    let p = &ff["parameters"];
    let c = &ff["connections"];
    ff["type"] == "TRELLIS_FF"
        && param(p, "CLKMUX") == "CLK"
        && param(p, "CEMUX") == "1"
        && param(p, "REGSET") == "RESET"
        && (param(p, "LSRMUX") == "LSR" && is_constant(&c["LSR"], "0"))
        && &c["CLK"] == clock
}

/// A string parameter as written (Yosys pads some with a space).
fn param<'a>(parameters: &'a Value, name: &str) -> &'a str {
    parameters[name].as_str().map(str::trim_end).unwrap_or("")
}

fn is_constant(connection: &Value, value: &str) -> bool {
    connection.as_array().is_some_and(|bits| bits.len() == 1 && bits[0] == value)
}

fn top_module_name(netlist: &Value) -> Result<String, String> {
    let modules = netlist["modules"].as_object().ok_or("the netlist has no modules")?;
    let is_top = |m: &Value| match &m["attributes"]["top"] {
        Value::String(s) => s.trim_start_matches('0').starts_with('1'),
        Value::Number(n) => n.as_u64() == Some(1),
        _ => false,
    };
    let mut tops = modules.iter().filter(|(_, m)| is_top(m)).map(|(name, _)| name.clone());
    match (tops.next(), tops.next()) {
        (Some(name), None) => Ok(name),
        _ => Err("the netlist does not mark exactly one top module".into()),
    }
}

/// For each net bit, the (cell, input pin) pairs that read it; a module
/// output counts as a reader (cell "", pin: the port's name).
fn sinks_of_nets(module: &Value) -> HashMap<NetBit, Vec<(String, String)>> {
    let mut sinks: HashMap<NetBit, Vec<(String, String)>> = HashMap::new();
    if let Some(cells) = module["cells"].as_object() {
        for (name, cell) in cells {
            let directions = &cell["port_directions"];
            for (pin, bits) in cell["connections"].as_object().into_iter().flatten() {
                if directions[pin] == "output" {
                    continue;
                }
                for bit in bits.as_array().into_iter().flatten().filter_map(Value::as_u64) {
                    sinks.entry(bit).or_default().push((name.clone(), pin.clone()));
                }
            }
        }
    }
    if let Some(ports) = module["ports"].as_object() {
        for (name, port) in ports {
            if port["direction"] == "input" {
                continue;
            }
            for bit in port["bits"].as_array().into_iter().flatten().filter_map(Value::as_u64) {
                sinks.entry(bit).or_default().push((String::new(), name.clone()));
            }
        }
    }
    sinks
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ram(dob: &[u64]) -> Value {
        let mut connections = json!({"CLKA": [2], "CLKB": [2], "OCEA": ["1"], "OCEB": ["1"], "RSTA": ["0"], "RSTB": ["0"]});
        for (k, bit) in dob.iter().enumerate() {
            connections[format!("DOB{k}")] = json!([bit]);
        }
        json!({"type": "DP16KD", "parameters": {"REGMODE_A": "NOREG", "REGMODE_B": "NOREG", "CLKAMUX": "CLKA", "CLKBMUX": "CLKB"},
               "port_directions": {"DOB0": "output", "DOB1": "output", "CLKA": "input", "CLKB": "input"}, "connections": connections})
    }

    fn ff(d: u64, q: u64, cemux: &str) -> Value {
        json!({"type": "TRELLIS_FF", "parameters": {"CLKMUX": "CLK", "CEMUX": cemux, "REGSET": "RESET", "LSRMUX": "LSR"},
               "port_directions": {"DI": "input", "CLK": "input", "LSR": "input", "Q": "output"},
               "connections": {"DI": [d], "CLK": [2], "LSR": ["0"], "Q": [q]}})
    }

    fn lut(a: u64) -> Value {
        json!({"type": "LUT4", "parameters": {}, "port_directions": {"A": "input", "Z": "output"}, "connections": {"A": [a], "Z": [99]}})
    }

    fn netlist(cells: Value) -> Value {
        json!({"modules": {"top": {"attributes": {"top": "00000000000000000000000000000001"}, "ports": {}, "cells": cells}}})
    }

    #[test]
    fn a_ram_whose_reads_each_feed_one_plain_register_takes_them_in() {
        let mut n = netlist(json!({"r": ram(&[10, 11]), "f0": ff(10, 20, "1 "), "f1": ff(11, 21, "1 "), "use": lut(20)}));
        let done = absorb_output_registers(&mut n).unwrap();
        assert_eq!(done, Absorbed { ram_ports: 1, flip_flops: 2, ports_left: 0 });
        let cells = &n["modules"]["top"]["cells"];
        assert_eq!(cells["r"]["parameters"]["REGMODE_B"], "OUTREG");
        assert_eq!(cells["r"]["parameters"]["REGMODE_A"], "NOREG");
        assert_eq!(cells["r"]["connections"]["DOB0"], json!([20]));
        assert_eq!(cells["r"]["connections"]["DOB1"], json!([21]));
        let order: Vec<&String> = cells.as_object().unwrap().keys().collect();
        assert_eq!(order, ["r", "use"], "the registers gone, the other cells in their order");
    }

    #[test]
    fn a_port_with_one_bit_read_elsewhere_or_an_enabled_register_is_left() {
        for cells in [
            json!({"r": ram(&[10, 11]), "f0": ff(10, 20, "1 "), "f1": ff(11, 21, "1 "), "peek": lut(11)}),
            json!({"r": ram(&[10, 11]), "f0": ff(10, 20, "1 "), "f1": ff(11, 21, "CE")}),
            json!({"r": ram(&[10, 11]), "f0": ff(10, 20, "1 "), "bypass": lut(11)}),
        ] {
            let mut n = netlist(cells);
            let before = n.clone();
            let done = absorb_output_registers(&mut n).unwrap();
            assert_eq!(done, Absorbed { ram_ports: 0, flip_flops: 0, ports_left: 1 });
            assert_eq!(n, before, "nothing changes");
        }
    }

    /// 36-bit pseudo-dual-port mode reads on DOA and DOB with port B's
    /// clock and enables (Yosys ties OCEA low): one port, both REGMODEs.
    #[test]
    fn a_pseudo_dual_port_ram_is_one_read_port_on_both_halves() {
        let mut r = ram(&[10]);
        r["parameters"]["DATA_WIDTH_A"] = json!("00000000000000000000000000100100");
        r["connections"]["OCEA"] = json!(["0"]);
        r["connections"]["DOA0"] = json!([12]);
        r["port_directions"]["DOA0"] = json!("output");
        let mut n = netlist(json!({"r": r.clone(), "f0": ff(10, 20, "1 "), "f1": ff(12, 22, "1 ")}));
        assert_eq!(absorb_output_registers(&mut n).unwrap(), Absorbed { ram_ports: 1, flip_flops: 2, ports_left: 0 });
        let cells = &n["modules"]["top"]["cells"];
        assert_eq!((&cells["r"]["parameters"]["REGMODE_A"], &cells["r"]["parameters"]["REGMODE_B"]), (&json!("OUTREG"), &json!("OUTREG")));
        assert_eq!(cells["r"]["connections"]["DOA0"], json!([22]));
        let mut half = netlist(json!({"r": r, "f0": ff(10, 20, "1 "), "peek": lut(12)}));
        assert_eq!(absorb_output_registers(&mut half).unwrap(), Absorbed { ram_ports: 0, flip_flops: 0, ports_left: 1 });
    }

    #[test]
    fn a_netlist_without_one_top_module_is_refused() {
        let mut n = json!({"modules": {"a": {"attributes": {}, "cells": {}}}});
        assert!(absorb_output_registers(&mut n).unwrap_err().contains("top module"));
    }
}
