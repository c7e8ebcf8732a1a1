//! Hardware blocks of the switch datapath in `rust_hdl`, for synthesis and
//! cycle-accurate simulation: shared buffer manager (PFC, headroom, pools,
//! egress limits, trimming), ECN marker, ECMP hash and flowlet tables.
//!
//! Each block consumes the register image derived from the reference
//! model's buffer plan. Nothing is implemented here yet.
