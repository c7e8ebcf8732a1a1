//! Classification of an arriving data frame (bit-exact with
//! `reference::classify`): its traffic class, pool, lossless flag and,
//! under the UET policy, whether it may be trimmed and whether it is a
//! retransmission.
//!
//! * normal policy: class = DSCP / 8, pool from the class-to-pool table;
//! * UET policy: the DSCP's codepoint role gives the class (control TC2,
//!   trimmed and trimmed-last-hop TC1, the rest TC0) and pool = class; when
//!   two roles share a codepoint the first in the order no-trim,
//!   trimmable, trimmable-retransmit, control, trimmed, trimmed-last-hop
//!   wins; an unknown DSCP is no-trim.
//!
//! Ports (combinational, no clock):
//! * frame: `dscp`
//! * configuration: `uet_policy`, `tc_pool` (3 bits per class, class n in
//!   bits 3n+2..3n), `pfc_enabled` (bit n: class n lossless), the six
//!   codepoints `no_trim_dscp` .. `trimmed_last_hop_dscp`
//! * class: `tc`, `pool`, `lossless`, `trimmable`, `retransmit`
//!
//! Latency 0 cycles (logic only).

use rust_hdl::prelude::*;

/// The classes the UET policy gives its roles.
const UET_DATA_TC: u32 = 0;
const UET_TRIMMED_TC: u32 = 1;
const UET_CONTROL_TC: u32 = 2;

#[derive(LogicBlock)]
pub struct Classify {
    // frame
    pub dscp: Signal<In, Bits<6>>,
    // configuration
    pub uet_policy: Signal<In, Bit>,
    pub tc_pool: Signal<In, Bits<24>>,
    pub pfc_enabled: Signal<In, Bits<8>>,
    pub no_trim_dscp: Signal<In, Bits<6>>,
    pub trimmable_dscp: Signal<In, Bits<6>>,
    pub retransmit_dscp: Signal<In, Bits<6>>,
    pub control_dscp: Signal<In, Bits<6>>,
    pub trimmed_dscp: Signal<In, Bits<6>>,
    pub trimmed_last_hop_dscp: Signal<In, Bits<6>>,
    // class
    pub tc: Signal<Out, Bits<3>>,
    pub pool: Signal<Out, Bits<3>>,
    pub lossless: Signal<Out, Bit>,
    pub trimmable: Signal<Out, Bit>,
    pub retransmit: Signal<Out, Bit>,
    class_tc: Signal<Local, Bits<3>>,
    class_pool: Signal<Local, Bits<3>>,
    class_lossless: Signal<Local, Bit>,
    role_trimmable: Signal<Local, Bit>,
    role_retransmit: Signal<Local, Bit>,
    data_tc: Constant<Bits<3>>,
    trimmed_tc: Constant<Bits<3>>,
    control_tc: Constant<Bits<3>>,
}

impl Default for Classify {
    fn default() -> Self {
        Classify {
            dscp: Default::default(),
            uet_policy: Default::default(),
            tc_pool: Default::default(),
            pfc_enabled: Default::default(),
            no_trim_dscp: Default::default(),
            trimmable_dscp: Default::default(),
            retransmit_dscp: Default::default(),
            control_dscp: Default::default(),
            trimmed_dscp: Default::default(),
            trimmed_last_hop_dscp: Default::default(),
            tc: Default::default(),
            pool: Default::default(),
            lossless: Default::default(),
            trimmable: Default::default(),
            retransmit: Default::default(),
            class_tc: Default::default(),
            class_pool: Default::default(),
            class_lossless: Default::default(),
            role_trimmable: Default::default(),
            role_retransmit: Default::default(),
            data_tc: Constant::new(Bits::<3>::from(UET_DATA_TC as LiteralType)),
            trimmed_tc: Constant::new(Bits::<3>::from(UET_TRIMMED_TC as LiteralType)),
            control_tc: Constant::new(Bits::<3>::from(UET_CONTROL_TC as LiteralType)),
        }
    }
}

impl Logic for Classify {
    #[hdl_gen]
    fn update(&mut self) {
        // Roles tested last-first, so that the first matching role wins.
        self.class_tc.next = bit_cast::<3, 6>(self.dscp.val() >> 3);
        self.role_retransmit.next = false;
        self.role_trimmable.next = false;
        if self.uet_policy.val() {
            self.class_tc.next = self.data_tc.val();
            if self.dscp.val() == self.trimmed_last_hop_dscp.val() {
                self.class_tc.next = self.trimmed_tc.val();
            }
            if self.dscp.val() == self.trimmed_dscp.val() {
                self.class_tc.next = self.trimmed_tc.val();
            }
            if self.dscp.val() == self.control_dscp.val() {
                self.class_tc.next = self.control_tc.val();
            }
            if self.dscp.val() == self.retransmit_dscp.val() {
                self.class_tc.next = self.data_tc.val();
                self.role_retransmit.next = true;
                self.role_trimmable.next = true;
            }
            if self.dscp.val() == self.trimmable_dscp.val() {
                self.class_tc.next = self.data_tc.val();
                self.role_retransmit.next = false;
                self.role_trimmable.next = true;
            }
            if self.dscp.val() == self.no_trim_dscp.val() {
                self.class_tc.next = self.data_tc.val();
                self.role_retransmit.next = false;
                self.role_trimmable.next = false;
            }
        }
        self.class_pool.next = self.class_tc.val();
        if !self.uet_policy.val() {
            for t in 0..8 {
                if self.class_tc.val().index() == t {
                    self.class_pool.next = self.tc_pool.val().get_bits::<3>(3 * t);
                }
            }
        }
        self.class_lossless.next = false;
        for t in 0..8 {
            if self.class_tc.val().index() == t {
                self.class_lossless.next = self.pfc_enabled.val().get_bit(t);
            }
        }
        // Each output is assigned once (see `crate::forwarding_ram`).
        self.tc.next = self.class_tc.val();
        self.pool.next = self.class_pool.val();
        self.lossless.next = self.class_lossless.val();
        self.trimmable.next = self.role_trimmable.val();
        self.retransmit.next = self.role_retransmit.val();
    }
}
