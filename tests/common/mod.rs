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
