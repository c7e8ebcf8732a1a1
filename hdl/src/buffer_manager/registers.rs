//! The buffer manager's register decoding: the configuration channel's
//! writes into named fields (docs/register_map.md), and the registers of
//! one pool picked by `pool_select`.
//!
//! The buffer manager keeps two copies, written by the same writes at two
//! points of its pipeline (see the top block): each stage reads the copy
//! that holds the writes given before its event.
//!
//! Ports (all on `clock`):
//! * configuration: `cfg_write`, `cfg_address` (8 bits), `cfg_data` (32);
//!   a write is seen from the next cycle on
//! * fields: `dynamic_limit`, `uet_policy`, `trimming`, `alpha_q10`,
//!   `xoff_bytes`, `xon_bytes`, `headroom_limit_bytes`, `tc_pool` (3 bits
//!   per class), `pfc_enabled` (bit per class), the six UET codepoints
//!   (`no_trim_dscp` .. `trimmed_last_hop_dscp`)
//! * one pool: `pool_select` -> `pool_size_bytes`, `fixed_limit_bytes`,
//!   `retransmit_limit_bytes` (combinational); pool 1, where trimmed
//!   packets go: `pool1_size_bytes`, `pool1_fixed_bytes`
//! * every pool: `pool_size_of` (bytes)
//!
//! Latency: one cycle from a write to its field.

use reference::register_map::*;
use rust_hdl::prelude::*;
use crate::build_checks::c8;

#[derive(LogicBlock)]
pub struct Registers {
    pub clock: Signal<In, Clock>,
    // configuration channel
    pub cfg_write: Signal<In, Bit>,
    pub cfg_address: Signal<In, Bits<8>>,
    pub cfg_data: Signal<In, Bits<32>>,
    // fields
    pub dynamic_limit: Signal<Out, Bit>,
    pub uet_policy: Signal<Out, Bit>,
    pub trimming: Signal<Out, Bit>,
    pub alpha_q10: Signal<Out, Bits<16>>,
    pub xoff_bytes: Signal<Out, Bits<32>>,
    pub xon_bytes: Signal<Out, Bits<32>>,
    pub headroom_limit_bytes: Signal<Out, Bits<32>>,
    pub tc_pool: Signal<Out, Bits<24>>,
    pub pfc_enabled: Signal<Out, Bits<8>>,
    pub no_trim_dscp: Signal<Out, Bits<6>>,
    pub trimmable_dscp: Signal<Out, Bits<6>>,
    pub retransmit_dscp: Signal<Out, Bits<6>>,
    pub control_dscp: Signal<Out, Bits<6>>,
    pub trimmed_dscp: Signal<Out, Bits<6>>,
    pub trimmed_last_hop_dscp: Signal<Out, Bits<6>>,
    // one pool
    pub pool_select: Signal<In, Bits<3>>,
    pub pool_size_bytes: Signal<Out, Bits<32>>,
    pub fixed_limit_bytes: Signal<Out, Bits<32>>,
    pub retransmit_limit_bytes: Signal<Out, Bits<32>>,
    pub pool1_size_bytes: Signal<Out, Bits<32>>,
    pub pool1_fixed_bytes: Signal<Out, Bits<32>>,
    // every pool
    pub pool_size_of: [Signal<Out, Bits<32>>; 8],
    // the registers
    mode_dynamic: DFF<Bit>,
    mode_uet: DFF<Bit>,
    mode_trimming: DFF<Bit>,
    alpha: DFF<Bits<16>>,
    xoff: DFF<Bits<32>>,
    xon: DFF<Bits<32>>,
    headroom: DFF<Bits<32>>,
    class_pools: DFF<Bits<24>>,
    lossless_classes: DFF<Bits<8>>,
    codepoint_no_trim: DFF<Bits<6>>,
    codepoint_trimmable: DFF<Bits<6>>,
    codepoint_retransmit: DFF<Bits<6>>,
    codepoint_control: DFF<Bits<6>>,
    codepoint_trimmed: DFF<Bits<6>>,
    codepoint_trimmed_last_hop: DFF<Bits<6>>,
    pool_size: [DFF<Bits<32>>; 8],
    fixed_limit: [DFF<Bits<32>>; 8],
    retransmit_limit: [DFF<Bits<32>>; 8],
    selected_size: Signal<Local, Bits<32>>,
    selected_fixed: Signal<Local, Bits<32>>,
    selected_retransmit: Signal<Local, Bits<32>>,
    reg_mode: Constant<Bits<8>>,
    reg_alpha: Constant<Bits<8>>,
    reg_xoff: Constant<Bits<8>>,
    reg_xon: Constant<Bits<8>>,
    reg_headroom: Constant<Bits<8>>,
    reg_tc_pool: Constant<Bits<8>>,
    reg_pfc_enabled: Constant<Bits<8>>,
    reg_codepoints_a: Constant<Bits<8>>,
    reg_codepoints_b: Constant<Bits<8>>,
    reg_pool_size: [Constant<Bits<8>>; 8],
    reg_fixed: [Constant<Bits<8>>; 8],
    reg_retransmit: [Constant<Bits<8>>; 8],
}

impl Default for Registers {
    fn default() -> Self {
        Registers {
            clock: Default::default(),
            cfg_write: Default::default(),
            cfg_address: Default::default(),
            cfg_data: Default::default(),
            dynamic_limit: Default::default(),
            uet_policy: Default::default(),
            trimming: Default::default(),
            alpha_q10: Default::default(),
            xoff_bytes: Default::default(),
            xon_bytes: Default::default(),
            headroom_limit_bytes: Default::default(),
            tc_pool: Default::default(),
            pfc_enabled: Default::default(),
            no_trim_dscp: Default::default(),
            trimmable_dscp: Default::default(),
            retransmit_dscp: Default::default(),
            control_dscp: Default::default(),
            trimmed_dscp: Default::default(),
            trimmed_last_hop_dscp: Default::default(),
            pool_select: Default::default(),
            pool_size_bytes: Default::default(),
            fixed_limit_bytes: Default::default(),
            retransmit_limit_bytes: Default::default(),
            pool1_size_bytes: Default::default(),
            pool_size_of: Default::default(),
            pool1_fixed_bytes: Default::default(),
            mode_dynamic: Default::default(),
            mode_uet: Default::default(),
            mode_trimming: Default::default(),
            alpha: Default::default(),
            xoff: Default::default(),
            xon: Default::default(),
            headroom: Default::default(),
            class_pools: Default::default(),
            lossless_classes: Default::default(),
            codepoint_no_trim: Default::default(),
            codepoint_trimmable: Default::default(),
            codepoint_retransmit: Default::default(),
            codepoint_control: Default::default(),
            codepoint_trimmed: Default::default(),
            codepoint_trimmed_last_hop: Default::default(),
            pool_size: Default::default(),
            fixed_limit: Default::default(),
            retransmit_limit: Default::default(),
            selected_size: Default::default(),
            selected_fixed: Default::default(),
            selected_retransmit: Default::default(),
            reg_mode: c8(BM_MODE),
            reg_alpha: c8(BM_ALPHA),
            reg_xoff: c8(BM_XOFF),
            reg_xon: c8(BM_XON),
            reg_headroom: c8(BM_HEADROOM),
            reg_tc_pool: c8(BM_TC_POOL),
            reg_pfc_enabled: c8(BM_PFC_ENABLED),
            reg_codepoints_a: c8(BM_CODEPOINTS_A),
            reg_codepoints_b: c8(BM_CODEPOINTS_B),
            reg_pool_size: std::array::from_fn(|p| c8(BM_POOL_SIZE + p as u8)),
            reg_fixed: std::array::from_fn(|p| c8(BM_FIXED_LIMIT + p as u8)),
            reg_retransmit: std::array::from_fn(|p| c8(BM_RETRANSMIT_LIMIT + p as u8)),
        }
    }
}

impl Logic for Registers {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, mode_dynamic, mode_uet, mode_trimming, alpha, xoff, xon, headroom, class_pools,
            lossless_classes, codepoint_no_trim, codepoint_trimmable, codepoint_retransmit, codepoint_control,
            codepoint_trimmed, codepoint_trimmed_last_hop);
        for p in 0..8 {
            self.pool_size[p].clock.next = self.clock.val();
            self.pool_size[p].d.next = self.pool_size[p].q.val();
            self.fixed_limit[p].clock.next = self.clock.val();
            self.fixed_limit[p].d.next = self.fixed_limit[p].q.val();
            self.retransmit_limit[p].clock.next = self.clock.val();
            self.retransmit_limit[p].d.next = self.retransmit_limit[p].q.val();
        }
        // BM_MODE bits: 0 dynamic limit, 1 UET policy, 2 trimming;
        // BM_CODEPOINTS_A: no-trim, trimmable, trimmable-retransmit, control
        // in 6-bit fields from bit 0; BM_CODEPOINTS_B: trimmed, trimmed-last-hop.
        if self.cfg_write.val() {
            if self.cfg_address.val() == self.reg_mode.val() {
                self.mode_dynamic.d.next = self.cfg_data.val().get_bit(0);
                self.mode_uet.d.next = self.cfg_data.val().get_bit(1);
                self.mode_trimming.d.next = self.cfg_data.val().get_bit(2);
            }
            if self.cfg_address.val() == self.reg_alpha.val() {
                self.alpha.d.next = self.cfg_data.val().get_bits::<16>(0);
            }
            if self.cfg_address.val() == self.reg_xoff.val() {
                self.xoff.d.next = self.cfg_data.val();
            }
            if self.cfg_address.val() == self.reg_xon.val() {
                self.xon.d.next = self.cfg_data.val();
            }
            if self.cfg_address.val() == self.reg_headroom.val() {
                self.headroom.d.next = self.cfg_data.val();
            }
            if self.cfg_address.val() == self.reg_tc_pool.val() {
                self.class_pools.d.next = self.cfg_data.val().get_bits::<24>(0);
            }
            if self.cfg_address.val() == self.reg_pfc_enabled.val() {
                self.lossless_classes.d.next = self.cfg_data.val().get_bits::<8>(0);
            }
            if self.cfg_address.val() == self.reg_codepoints_a.val() {
                self.codepoint_no_trim.d.next = self.cfg_data.val().get_bits::<6>(0);
                self.codepoint_trimmable.d.next = self.cfg_data.val().get_bits::<6>(6);
                self.codepoint_retransmit.d.next = self.cfg_data.val().get_bits::<6>(12);
                self.codepoint_control.d.next = self.cfg_data.val().get_bits::<6>(18);
            }
            if self.cfg_address.val() == self.reg_codepoints_b.val() {
                self.codepoint_trimmed.d.next = self.cfg_data.val().get_bits::<6>(0);
                self.codepoint_trimmed_last_hop.d.next = self.cfg_data.val().get_bits::<6>(6);
            }
            for p in 0..8 {
                if self.cfg_address.val() == self.reg_pool_size[p].val() {
                    self.pool_size[p].d.next = self.cfg_data.val();
                }
                if self.cfg_address.val() == self.reg_fixed[p].val() {
                    self.fixed_limit[p].d.next = self.cfg_data.val();
                }
                if self.cfg_address.val() == self.reg_retransmit[p].val() {
                    self.retransmit_limit[p].d.next = self.cfg_data.val();
                }
            }
        }
        self.selected_size.next = self.pool_size[0].q.val();
        self.selected_fixed.next = self.fixed_limit[0].q.val();
        self.selected_retransmit.next = self.retransmit_limit[0].q.val();
        for p in 1..8 {
            if self.pool_select.val().index() == p {
                self.selected_size.next = self.pool_size[p].q.val();
                self.selected_fixed.next = self.fixed_limit[p].q.val();
                self.selected_retransmit.next = self.retransmit_limit[p].q.val();
            }
        }
        // Each output is assigned once (see `crate::forwarding_ram`).
        self.pool_size_bytes.next = self.selected_size.val();
        self.fixed_limit_bytes.next = self.selected_fixed.val();
        self.retransmit_limit_bytes.next = self.selected_retransmit.val();
        self.pool1_size_bytes.next = self.pool_size[1].q.val();
        self.pool1_fixed_bytes.next = self.fixed_limit[1].q.val();
        for p in 0..8 {
            self.pool_size_of[p].next = self.pool_size[p].q.val();
        }
        self.dynamic_limit.next = self.mode_dynamic.q.val();
        self.uet_policy.next = self.mode_uet.q.val();
        self.trimming.next = self.mode_trimming.q.val();
        self.alpha_q10.next = self.alpha.q.val();
        self.xoff_bytes.next = self.xoff.q.val();
        self.xon_bytes.next = self.xon.q.val();
        self.headroom_limit_bytes.next = self.headroom.q.val();
        self.tc_pool.next = self.class_pools.q.val();
        self.pfc_enabled.next = self.lossless_classes.q.val();
        self.no_trim_dscp.next = self.codepoint_no_trim.q.val();
        self.trimmable_dscp.next = self.codepoint_trimmable.q.val();
        self.retransmit_dscp.next = self.codepoint_retransmit.q.val();
        self.control_dscp.next = self.codepoint_control.q.val();
        self.trimmed_dscp.next = self.codepoint_trimmed.q.val();
        self.trimmed_last_hop_dscp.next = self.codepoint_trimmed_last_hop.q.val();
    }
}
