//! Helpers shared by the integration tests.
#![allow(dead_code)]

use reference::config::Document;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Command, Output};

/// The default document with one attribute's `value` (and optionally
/// `unit`) replaced in place, bypassing the patch rules.
pub fn set(doc: &mut Document, path: &str, value: Value, unit: Option<&str>) {
    let parts: Vec<&str> = path.split('.').collect();
    let (name, components) = parts.split_last().unwrap();
    let mut node = doc.root_mut();
    for c in components {
        node = node.get_mut(*c).unwrap().as_object_mut().unwrap();
    }
    let attr = node.get_mut(*name).unwrap().as_object_mut().unwrap();
    attr.insert("value".into(), value);
    if let Some(u) = unit {
        attr.insert("unit".into(), json!(u));
    }
}

pub fn defaults_with(changes: &[(&str, Value, Option<&str>)]) -> Document {
    let mut doc = Document::defaults();
    for (path, value, unit) in changes {
        set(&mut doc, path, value.clone(), *unit);
    }
    doc
}

pub fn sswitch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sswitch")).args(args).output().expect("runs sswitch")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A scratch file under target/ for one test.
pub fn scratch_file(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(test);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

use reference::classify::UetCodepoints;
use reference::config::{validate, Topology};
use reference::ports::PortMap;
use reference::replay::Replayer;
use reference::switch::{Switch, SwitchIdentity};
use reference::BufferPlan;

/// A reference switch of `ports` ports (the last `uplinks` are uplinks).
pub fn switch_of(doc: &Document, ports: u32, uplinks: usize) -> Switch {
    let topology = Topology { connected_ports: Some(ports), nic_models: vec![] };
    let config = validate(doc, &topology).unwrap_or_else(|r| panic!("{r}")).config;
    let plan = BufferPlan::derive(&config, ports).unwrap();
    let map = PortMap::from_config(&config, ports as usize, uplinks);
    Switch::new(&config, plan, map, SwitchIdentity { node_id: 7, sim_seed: 1, run: 0 }, UetCodepoints::default()).unwrap()
}

/// Replays lines and returns the results (panics on a replay error).
pub fn replay_lines(replayer: &mut Replayer, lines: &[String]) -> Vec<Value> {
    lines.iter().filter_map(|l| replayer.line(l).unwrap_or_else(|e| panic!("{e}"))).collect()
}

pub fn arrive_line(t_ns: u64, port: u16, dscp: u8, bytes: u32, members: &[u16]) -> String {
    json!({"t_ns": t_ns, "kind": "arrive", "port": port, "dscp": dscp, "ecn": "ect0", "bytes": bytes,
           "proto": 17, "src": "10.0.0.1", "dst": "10.0.0.2", "sport": 1000, "dport": 4791, "members": members})
        .to_string()
}

pub fn seq_line(t_ns: u64, kind: &str, seq: usize) -> String {
    json!({"t_ns": t_ns, "kind": kind, "seq": seq}).to_string()
}
