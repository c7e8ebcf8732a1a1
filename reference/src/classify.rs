//! Classification: a data frame's traffic class, pool, lossless flag and
//! (under the UET policy) codepoint role, and the bytes it is charged.
//!
//! * Normal policy: TC = DSCP / 8; pool = TrafficClassPoolMapping[TC].
//! * UET policy: the DSCP selects a role through [`UetCodepoints`]; control
//!   is TC2, trimmed and trimmed-last-hop are TC1, everything else TC0;
//!   pool = TC.
//! * Charged bytes = frame bytes without the Ethernet header, at least 46.

use crate::buffer_plan::BufferPlan;
use crate::config::CLASSES;
use serde::{Deserialize, Serialize};

/// The smallest charge: a minimum Ethernet payload.
pub const MIN_CHARGED_BYTES: u32 = 46;
/// A trimmed packet without its Ethernet header (62 B on the wire).
pub const TRIMMED_BYTES: u32 = 44;

/// UET codepoint roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    NoTrim,
    Trimmable,
    TrimmableRetransmit,
    Control,
    Trimmed,
    TrimmedLastHop,
}

impl Role {
    pub const ALL: [Role; 6] =
        [Role::NoTrim, Role::Trimmable, Role::TrimmableRetransmit, Role::Control, Role::Trimmed, Role::TrimmedLastHop];

    pub fn is_trimmable(self) -> bool {
        matches!(self, Role::Trimmable | Role::TrimmableRetransmit)
    }

    /// The traffic class the UET policy gives the role.
    pub fn traffic_class(self) -> u8 {
        match self {
            Role::Control => 2,
            Role::Trimmed | Role::TrimmedLastHop => 1,
            _ => 0,
        }
    }
}

/// [model] The DSCP value of each UET role. The vendor does not publish
/// them; these defaults are the project's, and the table is programmable
/// (a hardware register per role). A DSCP that matches no role is no-trim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UetCodepoints {
    pub no_trim: u8,
    pub trimmable: u8,
    pub trimmable_retransmit: u8,
    pub control: u8,
    pub trimmed: u8,
    pub trimmed_last_hop: u8,
}

impl Default for UetCodepoints {
    fn default() -> Self {
        UetCodepoints { no_trim: 0, trimmable: 10, trimmable_retransmit: 12, control: 46, trimmed: 14, trimmed_last_hop: 16 }
    }
}

impl UetCodepoints {
    pub fn dscp(&self, role: Role) -> u8 {
        match role {
            Role::NoTrim => self.no_trim,
            Role::Trimmable => self.trimmable,
            Role::TrimmableRetransmit => self.trimmable_retransmit,
            Role::Control => self.control,
            Role::Trimmed => self.trimmed,
            Role::TrimmedLastHop => self.trimmed_last_hop,
        }
    }

    /// The role of a DSCP value; the first role in [`Role::ALL`] order wins
    /// when two roles share a codepoint.
    pub fn role(&self, dscp: u8) -> Role {
        Role::ALL.into_iter().find(|r| self.dscp(*r) == dscp).unwrap_or(Role::NoTrim)
    }
}

/// What classification decides for one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Class {
    pub tc: u8,
    pub pool: u8,
    pub lossless: bool,
    pub role: Role,
}

/// The classifier's tables, taken from the buffer plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classifier {
    pub uet_policy: bool,
    pub tc_pool: [u8; CLASSES],
    pub pfc_enabled: [bool; CLASSES],
    pub codepoints: UetCodepoints,
}

impl Classifier {
    pub fn new(plan: &BufferPlan, codepoints: UetCodepoints) -> Classifier {
        Classifier { uet_policy: plan.uet_policy, tc_pool: plan.tc_pool, pfc_enabled: plan.pfc_enabled, codepoints }
    }

    pub fn classify(&self, dscp: u8) -> Class {
        let dscp = dscp & 0x3F;
        if self.uet_policy {
            let role = self.codepoints.role(dscp);
            let tc = role.traffic_class();
            return Class { tc, pool: tc, lossless: self.pfc_enabled[tc as usize], role };
        }
        let tc = dscp >> 3;
        Class { tc, pool: self.tc_pool[tc as usize], lossless: self.pfc_enabled[tc as usize], role: Role::NoTrim }
    }
}

/// Bytes a frame is charged: without its Ethernet header, never below 46.
pub fn charged_bytes(bytes_without_ethernet: u32) -> u32 {
    bytes_without_ethernet.max(MIN_CHARGED_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimum_charge() {
        assert_eq!(charged_bytes(40), 46);
        assert_eq!(charged_bytes(TRIMMED_BYTES), 46);
        assert_eq!(charged_bytes(4000), 4000);
    }

    #[test]
    fn uet_roles_map_to_classes() {
        let cp = UetCodepoints::default();
        assert_eq!(cp.role(46), Role::Control);
        assert_eq!(cp.role(63), Role::NoTrim);
        assert_eq!(Role::Control.traffic_class(), 2);
        assert_eq!(Role::TrimmedLastHop.traffic_class(), 1);
        assert_eq!(Role::TrimmableRetransmit.traffic_class(), 0);
    }
}
