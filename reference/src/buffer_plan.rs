//! The buffer set-up the switch derives once at start: headroom, pools,
//! priority groups, egress limits, ECN bands and PFC thresholds.
//!
//! Every byte figure derived from a fraction is rounded down; fractions are
//! exact decimals. A pool's static limit (base of the ECN band) and its
//! fixed egress limit come from its size *before* the last non-zero pool
//! absorbs the rounding remainder.

use crate::config::units::floor_mul;
use crate::config::{SwitchConfig, CLASSES};
use rust_decimal::Decimal;
use serde::Serialize;
use std::fmt;

/// How a pool's lossy egress queues are limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EgressLimit {
    /// `alpha x (pool size - pool egress bytes)`, recomputed per packet.
    Dynamic { alpha: Decimal },
    /// A fixed cap per (egress port, pool) queue; under the UET policy a
    /// trimmable retransmission may use `retransmit_bytes` (1.5x) instead.
    Fixed { bytes: u64, retransmit_bytes: u64 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolPlan {
    pub pool: u8,
    /// Final size after the last non-zero pool's adjustment.
    pub size_bytes: u64,
    /// Size before the adjustment (what the static limit is taken from).
    pub unadjusted_size_bytes: u64,
    pub static_limit_bytes: u64,
    pub ecn_min_bytes: u64,
    pub ecn_max_bytes: u64,
    pub egress_limit: EgressLimit,
    /// All traffic classes mapped to this pool.
    pub traffic_classes: Vec<u8>,
    /// The lossless ones: the pool's priority group.
    pub lossless_classes: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferPlan {
    pub connected_ports: u32,
    pub headroom_per_port_bytes: u64,
    pub total_headroom_bytes: u64,
    pub sizing_total_bytes: u64,
    pub xoff_bytes: u64,
    pub xon_bytes: u64,
    pub uet_policy: bool,
    pub trimming: bool,
    /// Pool of each traffic class.
    pub tc_pool: [u8; CLASSES],
    /// Lossless flag of each traffic class.
    pub pfc_enabled: [bool; CLASSES],
    /// Eight pools by number; a pool that does not exist has size 0.
    pub pools: Vec<PoolPlan>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    NoPorts,
    HeadroomExceedsBuffer { total_headroom: u64, buffer: u64 },
    /// Entries sum above 1 by more than the last non-zero entry.
    PoolsExceedSizingTotal { sum_bytes: u64, sizing_total: u64 },
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::NoPorts => write!(f, "connected ports = 0: a switch needs at least one connected port"),
            PlanError::HeadroomExceedsBuffer { total_headroom, buffer } => write!(
                f,
                "SharedBufferManager.HeadRoomPerPortLimit x connected ports = {total_headroom} B is larger than \
                 TotalSharedBufferSize {buffer} B: the run stops"
            ),
            PlanError::PoolsExceedSizingTotal { sum_bytes, sizing_total } => write!(
                f,
                "SharedBufferManager.PoolAllocationMap gives {sum_bytes} B of pools from {sizing_total} B: \
                 more than the last non-zero pool can give back"
            ),
        }
    }
}

impl std::error::Error for PlanError {}

/// UET 1.0 pool shares, 1.5 : 1 : 1, as exact sevenths of the sizing total.
const UET_POOL_SEVENTHS: [u64; 2] = [3, 2];

impl BufferPlan {
    /// Derives the plan of a validated configuration for a switch with
    /// `connected_ports` linked ports.
    pub fn derive(config: &SwitchConfig, connected_ports: u32) -> Result<BufferPlan, PlanError> {
        if connected_ports == 0 {
            return Err(PlanError::NoPorts);
        }
        let buffer = &config.buffer;
        let total_headroom = buffer.headroom_per_port_bytes * connected_ports as u64;
        if total_headroom > buffer.total_bytes {
            return Err(PlanError::HeadroomExceedsBuffer { total_headroom, buffer: buffer.total_bytes });
        }
        let sizing_total = buffer.total_bytes - total_headroom;
        let mut plan = BufferPlan {
            connected_ports,
            headroom_per_port_bytes: buffer.headroom_per_port_bytes,
            total_headroom_bytes: total_headroom,
            sizing_total_bytes: sizing_total,
            xoff_bytes: buffer.xoff_bytes,
            xon_bytes: buffer.xon_bytes,
            uet_policy: buffer.uet_policy,
            trimming: config.trimming_enabled,
            tc_pool: buffer.tc_pool,
            pfc_enabled: buffer.pfc_enabled,
            pools: Vec::new(),
        };
        if buffer.uet_policy {
            plan.pools = uet_pools(config, sizing_total);
            plan.tc_pool = [0, 1, 2, 0, 0, 0, 0, 0];
        } else {
            plan.pools = mapped_pools(config, sizing_total, connected_ports)?;
        }
        Ok(plan)
    }

    pub fn pool(&self, pool: usize) -> &PoolPlan {
        &self.pools[pool]
    }

    /// Pools that exist (non-zero size), in pool order.
    pub fn live_pools(&self) -> impl Iterator<Item = &PoolPlan> {
        self.pools.iter().filter(|p| p.size_bytes > 0)
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(PlanJson::from(self)).expect("plan serializes")
    }
}

fn ecn_band(config: &SwitchConfig, static_limit: u64) -> (u64, u64) {
    (floor_mul(config.ecn.min_threshold, static_limit), floor_mul(config.ecn.max_threshold, static_limit))
}

fn mapped_pools(config: &SwitchConfig, sizing_total: u64, ports: u32) -> Result<Vec<PoolPlan>, PlanError> {
    let buffer = &config.buffer;
    let unadjusted: Vec<u64> = buffer.pool_allocation.iter().map(|share| floor_mul(*share, sizing_total)).collect();
    let mut sizes = unadjusted.clone();
    let sum: u64 = unadjusted.iter().sum();
    if let Some(last) = buffer.pool_allocation.iter().rposition(|s| !s.is_zero()) {
        let adjusted = sizes[last] as i128 + sizing_total as i128 - sum as i128;
        if adjusted < 0 {
            return Err(PlanError::PoolsExceedSizingTotal { sum_bytes: sum, sizing_total });
        }
        sizes[last] = adjusted as u64;
    }
    let dynamic = !buffer.lossy_alpha.is_zero();
    Ok((0..CLASSES)
        .map(|pool| {
            let (static_limit, egress_limit) = if dynamic {
                (unadjusted[pool], EgressLimit::Dynamic { alpha: buffer.lossy_alpha })
            } else {
                let fixed = if buffer.queue_drop_threshold_enable {
                    buffer.queue_drop_threshold.saturating_mul(buffer.plane_bdp_bytes)
                } else {
                    unadjusted[pool] / ports as u64
                };
                (fixed, EgressLimit::Fixed { bytes: fixed, retransmit_bytes: fixed })
            };
            let (ecn_min, ecn_max) = ecn_band(config, static_limit);
            let classes = |lossless_only: bool| -> Vec<u8> {
                (0..CLASSES as u8)
                    .filter(|&tc| buffer.tc_pool[tc as usize] as usize == pool)
                    .filter(|&tc| !lossless_only || buffer.pfc_enabled[tc as usize])
                    .collect()
            };
            PoolPlan {
                pool: pool as u8,
                size_bytes: sizes[pool],
                unadjusted_size_bytes: unadjusted[pool],
                static_limit_bytes: static_limit,
                ecn_min_bytes: ecn_min,
                ecn_max_bytes: ecn_max,
                egress_limit,
                traffic_classes: classes(false),
                lossless_classes: classes(true),
            }
        })
        .collect())
}

/// The UET policy's three pools: 1.5/3.5 and 1/3.5 of the sizing total
/// (rounded down), pool 2 the rest; fixed egress limits.
fn uet_pools(config: &SwitchConfig, sizing_total: u64) -> Vec<PoolPlan> {
    let buffer = &config.buffer;
    let first = sizing_total * UET_POOL_SEVENTHS[0] / 7;
    let second = sizing_total * UET_POOL_SEVENTHS[1] / 7;
    let sizes = [first, second, sizing_total - first - second];
    let fixed = if config.trimming_enabled {
        buffer.plane_bdp_bytes
    } else {
        buffer.queue_drop_threshold.saturating_mul(buffer.plane_bdp_bytes)
    };
    let retransmit = fixed.saturating_mul(3) / 2;
    let (ecn_min, ecn_max) = ecn_band(config, fixed);
    (0..CLASSES)
        .map(|pool| {
            let exists = pool < sizes.len();
            let size = if exists { sizes[pool] } else { 0 };
            PoolPlan {
                pool: pool as u8,
                size_bytes: size,
                unadjusted_size_bytes: size,
                static_limit_bytes: fixed,
                ecn_min_bytes: ecn_min,
                ecn_max_bytes: ecn_max,
                egress_limit: EgressLimit::Fixed { bytes: fixed, retransmit_bytes: retransmit },
                traffic_classes: if exists { vec![pool as u8] } else { vec![] },
                lossless_classes: if exists && buffer.pfc_enabled[pool] { vec![pool as u8] } else { vec![] },
            }
        })
        .collect()
}

#[derive(Serialize)]
struct PlanJson {
    connected_ports: u32,
    headroom_per_port_bytes: u64,
    total_headroom_bytes: u64,
    sizing_total_bytes: u64,
    xoff_bytes: u64,
    xon_bytes: u64,
    uet_policy: bool,
    pools: Vec<PoolJson>,
}

#[derive(Serialize)]
struct PoolJson {
    pool: u8,
    size_bytes: u64,
    static_limit_bytes: u64,
    ecn_min_bytes: u64,
    ecn_max_bytes: u64,
    egress_limit: &'static str,
    fixed_egress_limit_bytes: Option<u64>,
    traffic_classes: Vec<u8>,
    lossless_classes: Vec<u8>,
}

impl From<&BufferPlan> for PlanJson {
    fn from(plan: &BufferPlan) -> PlanJson {
        PlanJson {
            connected_ports: plan.connected_ports,
            headroom_per_port_bytes: plan.headroom_per_port_bytes,
            total_headroom_bytes: plan.total_headroom_bytes,
            sizing_total_bytes: plan.sizing_total_bytes,
            xoff_bytes: plan.xoff_bytes,
            xon_bytes: plan.xon_bytes,
            uet_policy: plan.uet_policy,
            pools: plan
                .live_pools()
                .map(|p| PoolJson {
                    pool: p.pool,
                    size_bytes: p.size_bytes,
                    static_limit_bytes: p.static_limit_bytes,
                    ecn_min_bytes: p.ecn_min_bytes,
                    ecn_max_bytes: p.ecn_max_bytes,
                    egress_limit: match p.egress_limit {
                        EgressLimit::Dynamic { .. } => "dynamic",
                        EgressLimit::Fixed { .. } => "fixed",
                    },
                    fixed_egress_limit_bytes: match p.egress_limit {
                        EgressLimit::Dynamic { .. } => None,
                        EgressLimit::Fixed { bytes, .. } => Some(bytes),
                    },
                    traffic_classes: p.traffic_classes.clone(),
                    lossless_classes: p.lossless_classes.clone(),
                })
                .collect(),
        }
    }
}

impl fmt::Display for BufferPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Buffer plan for {} connected ports{}", self.connected_ports,
            if self.uet_policy { " (UET policy)" } else { "" })?;
        writeln!(f, "  headroom per port      {:>13} B", group(self.headroom_per_port_bytes))?;
        writeln!(f, "  total headroom         {:>13} B", group(self.total_headroom_bytes))?;
        writeln!(f, "  sizing total           {:>13} B", group(self.sizing_total_bytes))?;
        writeln!(f, "  PFC Xoff / Xon         {:>13} B / {} B", group(self.xoff_bytes), group(self.xon_bytes))?;
        writeln!(f)?;
        writeln!(f, "  pool          size B    static limit B       ECN min B       ECN max B  egress limit               classes (lossless)")?;
        for p in self.live_pools() {
            let limit = match p.egress_limit {
                EgressLimit::Dynamic { alpha } => format!("dynamic, alpha {alpha}"),
                EgressLimit::Fixed { bytes, retransmit_bytes } if retransmit_bytes != bytes => {
                    format!("fixed {} (retx {})", group(bytes), group(retransmit_bytes))
                }
                EgressLimit::Fixed { bytes, .. } => format!("fixed {}", group(bytes)),
            };
            writeln!(f, "  {:>4} {:>13} {:>17} {:>15} {:>15}  {:<26} {:?} ({:?})", p.pool, group(p.size_bytes),
                group(p.static_limit_bytes), group(p.ecn_min_bytes), group(p.ecn_max_bytes), limit,
                p.traffic_classes, p.lossless_classes)?;
        }
        Ok(())
    }
}

/// 223232000 -> "223,232,000"
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
