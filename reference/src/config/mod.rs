//! The switch's configuration document (the platform's `typedParameters`),
//! its attribute table, the patch rules and the rules that stop a run.
//!
//! ```text
//!  JSON text --Document--> tree --validate(+Topology)--> SwitchConfig
//!                           ^
//!                 apply_patch (platform 400 rules)
//! ```

pub mod document;
pub mod lists;
pub mod patch;
pub mod schema;
pub mod switch_config;
pub mod units;
pub mod validate;

pub use document::{Document, DocumentError};
pub use lists::LIST_LEN;
pub use patch::{apply_patch, PatchError};
pub use switch_config::*;
pub use validate::{validate, Problem, ProblemKind, Rejected, Topology, Validated, Warning};
