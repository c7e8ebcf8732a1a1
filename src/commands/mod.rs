//! Subcommands of `sswitch`, one module each.

pub mod config;

use reference::config::{validate, Document, Topology, Validated};
use std::fmt::Display;
use std::path::Path;

/// A failed command: lines for stderr and the exit code.
#[derive(Debug)]
pub struct Failure {
    pub lines: Vec<String>,
    pub code: u8,
}

impl Failure {
    /// Bad input (file, document, arguments): exit code 2.
    pub fn input(message: impl Display) -> Failure {
        Failure { lines: vec![format!("error: {message}")], code: 2 }
    }

    /// The configuration breaks rules: exit code 1, one line per rule.
    pub fn rules(lines: Vec<String>) -> Failure {
        Failure { lines, code: 1 }
    }
}

pub type CommandResult = Result<(), Failure>;

/// Reads a configuration document, or the default one when no file is given.
pub fn load_document(path: Option<&Path>) -> Result<Document, Failure> {
    let Some(path) = path else { return Ok(Document::defaults()) };
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("cannot read configuration {}: {e}", path.display())))?;
    Document::from_json_str(&text).map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

/// Validates a document; warnings go to stderr, broken rules become the failure.
pub fn validated(doc: &Document, topology: &Topology) -> Result<Validated, Failure> {
    match validate(doc, topology) {
        Ok(validated) => {
            for warning in &validated.warnings {
                eprintln!("{warning}");
            }
            Ok(validated)
        }
        Err(rejected) => {
            let mut lines: Vec<String> = rejected.warnings.iter().map(|w| w.to_string()).collect();
            lines.extend(rejected.problems.iter().map(|p| p.to_string()));
            Err(Failure::rules(lines))
        }
    }
}
