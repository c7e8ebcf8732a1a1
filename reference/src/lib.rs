//! Software reference model of the Scala Switch datapath.
//!
//! The flow, as the crate's modules:
//!
//! ```text
//!  config (document, rules, patch) -> SwitchConfig
//!      -> buffer_plan (start-up derivation) -> BufferPlan
//!      -> blocks consume the plan and an event stream
//! ```

pub mod buffer_plan;
pub mod config;

pub use buffer_plan::{BufferPlan, EgressLimit, PoolPlan};
pub use config::{Document, SwitchConfig, Topology};
