//! The validated configuration: every attribute as an exact, typed value in
//! base units (bytes, bits per second, picoseconds).

use rust_decimal::Decimal;

/// Traffic classes and pools: eight of each.
pub const CLASSES: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashMethod {
    Dpr,
    Hash,
    HashWithSalt,
    Crc32,
    Crc32WithSalt,
    DprWithFallback,
}

impl HashMethod {
    pub const ALL: [HashMethod; 6] = [
        HashMethod::Dpr,
        HashMethod::Hash,
        HashMethod::HashWithSalt,
        HashMethod::Crc32,
        HashMethod::Crc32WithSalt,
        HashMethod::DprWithFallback,
    ];

    pub fn name(self) -> &'static str {
        match self {
            HashMethod::Dpr => "dpr",
            HashMethod::Hash => "hash",
            HashMethod::HashWithSalt => "hashWithSalt",
            HashMethod::Crc32 => "crc32",
            HashMethod::Crc32WithSalt => "crc32WithSalt",
            HashMethod::DprWithFallback => "dprWithFallback",
        }
    }

    pub fn from_name(name: &str) -> Option<HashMethod> {
        HashMethod::ALL.into_iter().find(|m| m.name() == name)
    }

    pub fn is_dpr(self) -> bool {
        matches!(self, HashMethod::Dpr | HashMethod::DprWithFallback)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadBalancing {
    None,
    Flowlet,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchConfig {
    pub num_uplinks: u64,
    pub num_downlinks: u64,
    pub num_uplinks_per_switch: u64,
    pub switching_capacity_bps: u64,
    pub ecmp_hash_method: HashMethod,
    pub load_balancing: LoadBalancing,
    pub lb_stats_enabled: bool,
    pub lb_stats_interval_ps: u64,
    pub uplink_rate_bps: u64,
    pub downlink_rate_bps: u64,
    /// Propagation delay of the links to this switch's uplink peers.
    pub uplink_delay_ps: u64,
    pub trimming_enabled: bool,
    pub trimming_stats_enabled: bool,
    pub flowlet: FlowletConfig,
    pub buffer: BufferConfig,
    pub ecn: EcnConfig,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FlowletConfig {
    pub gap_ps: u64,
    pub pfc_aware: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BufferConfig {
    pub total_bytes: u64,
    pub uet_policy: bool,
    /// Fraction of the sizing total per pool (exact decimals).
    pub pool_allocation: [Decimal; CLASSES],
    /// Pool of each traffic class.
    pub tc_pool: [u8; CLASSES],
    /// Lossless (PFC) flag of each traffic class.
    pub pfc_enabled: [bool; CLASSES],
    pub headroom_per_port_bytes: u64,
    pub xoff_bytes: u64,
    pub xon_bytes: u64,
    pub lossy_alpha: Decimal,
    pub queue_drop_threshold_enable: bool,
    pub queue_drop_threshold: u64,
    pub plane_bdp_bytes: u64,
    pub stats_interval_ps: u64,
}

impl BufferConfig {
    pub fn any_pfc(&self) -> bool {
        self.pfc_enabled.iter().any(|&on| on)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct EcnConfig {
    pub enable: bool,
    pub ewma_weight: Decimal,
    pub min_threshold: Decimal,
    pub max_threshold: Decimal,
    pub max_mark_probability: Decimal,
}

impl SwitchConfig {
    /// The configuration of a switch added by the platform.
    pub fn defaults() -> SwitchConfig {
        super::validate::validate(&super::Document::defaults(), &super::Topology::default())
            .expect("the default document is valid")
            .config
    }
}
