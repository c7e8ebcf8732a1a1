//! Software reference model of the Scala Switch datapath.
//!
//! The flow, as the crate's modules:
//!
//! ```text
//!  config (document, rules, patch) -> SwitchConfig
//!      -> buffer_plan (start-up derivation) -> BufferPlan
//!      -> block parameters (the registers) -> blocks:
//!         classify, buffer_manager, ecn_marker, ecmp_hash, flowlet
//!      -> switch (the datapath of one switch) <- replay (event lines)
//! ```

pub mod buffer_manager;
pub mod buffer_plan;
pub mod capacity;
pub mod classify;
pub mod config;
pub mod ecmp_hash;
pub mod ecn_marker;
pub mod flowlet;
pub mod lfsr;
pub mod limits;
pub mod polarization;
pub mod ports;
pub mod register_map;
pub mod replay;
pub mod sim;
pub mod strict_json;
pub mod switch;
pub mod workload;

pub use buffer_plan::{BufferPlan, EgressLimit, PoolPlan};
pub use config::{Document, SwitchConfig, Topology};
