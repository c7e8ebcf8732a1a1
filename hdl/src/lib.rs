//! Hardware blocks of the switch datapath in `rust_hdl`, for synthesis and
//! cycle-accurate simulation. Each block takes its configuration as
//! register writes (see `reference::register_map`) and is proven equal to
//! its reference model in `testbench/`.
//!
//! * [`ecmp_hash::EcmpHash`]: flow hash and member, one key per clock.
//! * [`ecn_marker::EcnMarker`]: EWMA per queue in block RAM and the marking decision.
//! * [`buffer_manager::BufferManager`]: admission, PFC requests, pools,
//!   egress limits, trimming, release and pause re-sends, counters in
//!   block RAM; a folder of sub-blocks (classify, priority group, egress
//!   limit, PFC receive, re-send sweep).
//! * [`flowlet_table::FlowletTable`]: member selection (`none` or flowlet
//!   slots with least occupancy, PFC awareness and the seeded tie draw);
//!   a folder of sub-blocks.
//! * [`switch_datapath::SwitchDatapath`]: the four joined as
//!   `reference::switch::Switch` joins its models: `tx_start`, `depart`
//!   and `pfc_rx` one per clock, an arrival alone.
//! * [`crc_matrix::CrcMatrix`]: the ECMP hash's CRC-32 as an XOR matrix.
//! * [`twin_read_ram::TwinReadRam`]: one write port, two read ports.
//! * [`forwarding_ram::ForwardingRam`]: a counter table whose reads include
//!   the write of the same cycle;
//!   [`registered_forwarding_ram::RegisteredForwardingRam`] the same through
//!   a register on the RAM's output (two forwarding registers).
//! * [`output_registered_ram::OutputRegisteredRam`]: a read-first RAM read
//!   through a register that the ECP5 flow moves into the block RAM, on a
//!   [`collision_free_ram::CollisionFreeRam`] (no read-first emulation);
//!   [`output_registered_banks::OutputRegisteredBanks`] many such RAMs read
//!   at one address, written one at a time through one shared port;
//!   [`output_registered_copies::OutputRegisteredCopies`] many copies of
//!   one such RAM, written together, each read at its own address.
//! * [`stage_register::StageRegister`]: a pipeline register a build may
//!   leave out (the flowlet table's shallow build for the datapath).

pub mod buffer_manager;
pub mod build_checks;
pub mod collision_free_ram;
pub mod crc_matrix;
pub mod ecmp_hash;
pub mod ecn_marker;
pub mod flowlet_table;
pub mod output_registered_banks;
pub mod output_registered_copies;
pub mod output_registered_ram;
pub mod forwarding_ram;
pub mod registered_forwarding_ram;
pub mod set_member;
pub mod stage_register;
pub mod switch_datapath;
pub mod twin_read_ram;
