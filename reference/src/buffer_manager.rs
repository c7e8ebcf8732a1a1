//! Shared buffer manager: ingress admission with PFC and headroom, pools,
//! egress admission against the egress limits, trimming, release, and the
//! PFC frames the switch sends and receives.
//!
//! Counters (bytes): pool occupancy (ingress side, switch-wide); per
//! (ingress port, pool) occupancy (lossless and lossy), headroom and the
//! `xoff_sent` flag; per (egress port, pool) egress queue; per pool egress
//! total; per egress port total over all pools. Received pauses are kept
//! per (port, traffic class) as the time they end.
//!
//! [model] choices:
//! * A pool-full drop rolls back the charge but not a pause it triggered
//!   (the frame is already on the wire).
//! * Egress admission of a lossy packet checks the queue limit first
//!   (`queue + bytes <= limit`, else `egress_limit`), then the pool's egress
//!   capacity (`pool egress + bytes <= pool size`, else `egress_pool`).
//! * Dynamic limit: `(alpha_q10 x (pool size - pool egress)) >> 10`, with
//!   LossyAlpha in unsigned Q6.10 (rounded to nearest; 0 < alpha < 1/2048
//!   and alpha >= 64 cannot be represented and are rejected).
//! * Trimming moves the packet: its ingress charge is released, 46 B are
//!   charged to the ingress port's pool 1 (pool-full check included), and
//!   it is offered to the egress port's TC1 queue (pool 1) with pool 1's
//!   limit. Only a packet admitted that way reports `trimmed`.
//! * Re-sent pauses fall due every half pause time after the pause; all
//!   that are due at or before an event are emitted before it, oldest first
//!   ([`due_resends`](BufferManager::due_resends)). The hardware sends them
//!   from a round-robin sweep instead, one pair per cycle:
//!   [`resend_due`](BufferManager::resend_due) and
//!   [`advance_resend`](BufferManager::advance_resend) are its step, so the
//!   co-simulation can replay the sweep on this model's state. Both send
//!   the same frames (same due times) as long as the sweep reaches a pair
//!   before it resumes and within one interval.

use crate::buffer_plan::{BufferPlan, EgressLimit};
use crate::classify::{charged_bytes, Class, Classifier, Role, TRIMMED_BYTES};
use crate::config::CLASSES;
use crate::ports::{pause_ns, PortMap, PAUSE_QUANTA};
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;
use std::fmt;

/// Why a packet was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DropReason {
    HeadroomFull,
    PoolFull,
    EgressLimit,
    EgressPool,
}

impl DropReason {
    pub const ALL: [DropReason; 4] =
        [DropReason::HeadroomFull, DropReason::PoolFull, DropReason::EgressLimit, DropReason::EgressPool];

    pub fn name(self) -> &'static str {
        match self {
            DropReason::HeadroomFull => "headroom_full",
            DropReason::PoolFull => "pool_full",
            DropReason::EgressLimit => "egress_limit",
            DropReason::EgressPool => "egress_pool",
        }
    }
}

/// Where an admitted packet's ingress bytes are charged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChargedTo {
    Pool,
    Headroom,
}

/// Egress limit form of the buffer manager's registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EgressMode {
    /// LossyAlpha in Q6.10.
    Dynamic { alpha_q10: u16 },
    Fixed,
}

/// A configuration the hardware registers cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError(pub String);

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParamError {}

/// LossyAlpha in the dynamic limit's Q6.10 form.
pub fn alpha_to_q10(alpha: Decimal) -> Result<u16, ParamError> {
    alpha_q10(alpha).map_err(|rule| ParamError(format!("SharedBufferManager.LossyAlpha = {alpha}: {rule}")))
}

/// LossyAlpha in Q6.10, or the rule it breaks.
pub fn alpha_q10(alpha: Decimal) -> Result<u16, &'static str> {
    let scaled = (alpha * Decimal::from(1024)).round_dp_with_strategy(0, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
    match scaled.to_u32() {
        Some(0) if !alpha.is_zero() => Err("below 1/2048, the smallest alpha the Q6.10 fixed point of the dynamic egress limit holds"),
        Some(q) if q <= u16::MAX as u32 => Ok(q as u16),
        _ => Err("64 or more does not fit the Q6.10 fixed point of the dynamic egress limit (reference and hardware)"),
    }
}

/// The buffer manager's registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferParams {
    pub pool_size_bytes: [u32; CLASSES],
    pub headroom_limit_bytes: u32,
    pub xoff_bytes: u32,
    pub xon_bytes: u32,
    pub egress_mode: EgressMode,
    pub fixed_limit_bytes: [u32; CLASSES],
    pub retransmit_limit_bytes: [u32; CLASSES],
    pub trimming: bool,
    pub classifier: Classifier,
    /// Per port: one pause quantum in ns (Q16) and the link delay in ns.
    pub quantum_q16: Vec<u32>,
    pub delay_ns: Vec<u32>,
    pub faces_nic: Vec<bool>,
}

fn to_u32(v: u64, what: &str) -> Result<u32, ParamError> {
    u32::try_from(v).map_err(|_| ParamError(format!("{what} = {v} B does not fit 32 bits")))
}

impl BufferParams {
    pub fn from_plan(plan: &BufferPlan, ports: &PortMap, classifier: Classifier) -> Result<BufferParams, ParamError> {
        if ports.len() != plan.connected_ports as usize {
            return Err(ParamError(format!("{} ports given for a plan of {}", ports.len(), plan.connected_ports)));
        }
        let mut pool_size = [0u32; CLASSES];
        let mut fixed = [0u32; CLASSES];
        let mut retransmit = [0u32; CLASSES];
        let mut mode = EgressMode::Fixed;
        for p in &plan.pools {
            let i = p.pool as usize;
            pool_size[i] = to_u32(p.size_bytes, "pool size")?;
            match p.egress_limit {
                EgressLimit::Dynamic { alpha } => mode = EgressMode::Dynamic { alpha_q10: alpha_to_q10(alpha)? },
                EgressLimit::Fixed { bytes, retransmit_bytes } => {
                    fixed[i] = to_u32(bytes, "fixed egress limit")?;
                    retransmit[i] = to_u32(retransmit_bytes, "trimmable-retransmit egress limit")?;
                }
            }
        }
        Ok(BufferParams {
            pool_size_bytes: pool_size,
            headroom_limit_bytes: to_u32(plan.headroom_per_port_bytes, "HeadRoomPerPortLimit")?,
            xoff_bytes: to_u32(plan.xoff_bytes, "StaticPoolXoffThreshold")?,
            xon_bytes: to_u32(plan.xon_bytes, "StaticPoolXonThreshold")?,
            egress_mode: mode,
            fixed_limit_bytes: fixed,
            retransmit_limit_bytes: retransmit,
            trimming: plan.trimming,
            classifier,
            quantum_q16: ports.ports.iter().enumerate().map(|(i, p)| {
                p.exact_quantum_q16().ok_or_else(|| ParamError(format!(
                    "port {i}: a link rate of {} b/s makes a pause quantum longer than the 32-bit register holds", p.rate_bps)))
            }).collect::<Result<_, _>>()?,
            delay_ns: ports.ports.iter().enumerate().map(|(i, p)| {
                p.exact_delay_ns().ok_or_else(|| ParamError(format!(
                    "port {i}: a link delay of {} ps is longer than the 32-bit nanosecond register holds", p.delay_ps)))
            }).collect::<Result<_, _>>()?,
            faces_nic: ports.ports.iter().map(|p| p.faces_nic).collect(),
        })
    }

    pub fn ports(&self) -> usize {
        self.delay_ns.len()
    }

    pub fn pause_ns(&self, port: usize, quanta: u16) -> u64 {
        pause_ns(quanta, self.quantum_q16[port], self.delay_ns[port])
    }

    pub fn resend_interval_ns(&self, port: usize) -> u64 {
        self.pause_ns(port, PAUSE_QUANTA) / 2
    }

    /// Lossless classes of a pool: the classes a pause frame names.
    pub fn priority_group(&self, pool: usize) -> u8 {
        let c = &self.classifier;
        (0..CLASSES)
            .filter(|&tc| c.pfc_enabled[tc] && (if c.uet_policy { tc } else { c.tc_pool[tc] as usize }) == pool)
            .fold(0u8, |mask, tc| mask | 1 << tc)
    }
}

/// What an admitted packet carries so it can be released.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag {
    pub ingress_port: u16,
    pub egress_port: u16,
    pub tc: u8,
    pub pool: u8,
    pub lossless: bool,
    pub charged_bytes: u32,
}

/// The ingress step's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ingress {
    pub class: Class,
    pub charged_bytes: u32,
    pub charged_to: Option<ChargedTo>,
    pub drop: Option<DropReason>,
    pub pause_sent: bool,
}

/// The egress step's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Egress {
    pub admitted: bool,
    pub drop: Option<DropReason>,
    pub trimmed: bool,
    /// A trimmed packet's new DSCP: the trimmed codepoint, or
    /// trimmed-last-hop towards a port facing a NIC.
    pub trimmed_dscp: Option<u8>,
    /// The packet as it was queued (after trimming); None when dropped.
    pub tag: Option<Tag>,
    /// Queue bytes of (egress port, pool) after the packet joined it.
    pub queue_bytes_after: u32,
}

/// A PFC frame the switch sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PfcFrame {
    pub t_ns: u64,
    pub port: u16,
    pub pool: u8,
    /// Bit n set: traffic class n.
    pub classes: u8,
    pub quanta: u16,
}

#[derive(Clone, Debug)]
pub struct BufferManager {
    params: BufferParams,
    pool_bytes: [u64; CLASSES],
    pool_egress_bytes: [u64; CLASSES],
    /// Per (port, pool).
    ingress_bytes: Vec<u64>,
    headroom_bytes: Vec<u64>,
    xoff_sent: Vec<bool>,
    next_resend_ns: Vec<u64>,
    egress_bytes: Vec<u64>,
    /// Per port.
    port_egress_bytes: Vec<u64>,
    /// Per (port, traffic class): end of the pause the peer requested.
    rx_pause_until_ns: Vec<u64>,
    /// How many (port, pool) pairs are paused, to skip re-send scans.
    paused_count: usize,
    /// No re-send falls due before this time (a lower bound: it may belong
    /// to a pair that has resumed since).
    earliest_resend_ns: u64,
}

fn sub(counter: &mut u64, bytes: u64, what: &str) {
    *counter = counter.checked_sub(bytes).unwrap_or_else(|| panic!("{what} would go below zero"));
}

impl BufferManager {
    pub fn new(params: BufferParams) -> BufferManager {
        let n = params.ports();
        BufferManager {
            pool_bytes: [0; CLASSES],
            pool_egress_bytes: [0; CLASSES],
            ingress_bytes: vec![0; n * CLASSES],
            headroom_bytes: vec![0; n * CLASSES],
            xoff_sent: vec![false; n * CLASSES],
            next_resend_ns: vec![0; n * CLASSES],
            egress_bytes: vec![0; n * CLASSES],
            port_egress_bytes: vec![0; n],
            rx_pause_until_ns: vec![0; n * CLASSES],
            paused_count: 0,
            earliest_resend_ns: u64::MAX,
            params,
        }
    }

    pub fn params(&self) -> &BufferParams {
        &self.params
    }

    /// For reprogramming between runs (counters are kept).
    pub fn params_mut(&mut self) -> &mut BufferParams {
        &mut self.params
    }

    /// Ingress admission of a data frame of `bytes` (without Ethernet header).
    pub fn ingress(&mut self, now_ns: u64, port: usize, dscp: u8, bytes: u32) -> Ingress {
        let class = self.params.classifier.classify(dscp);
        let charged = charged_bytes(bytes);
        let mut out = Ingress { class, charged_bytes: charged, charged_to: None, drop: None, pause_sent: false };
        let at = port * CLASSES + class.pool as usize;
        let bytes = charged as u64;
        if class.lossless && self.xoff_sent[at] {
            if self.headroom_bytes[at] + bytes > self.params.headroom_limit_bytes as u64 {
                out.drop = Some(DropReason::HeadroomFull);
            } else {
                self.headroom_bytes[at] += bytes;
                out.charged_to = Some(ChargedTo::Headroom);
            }
            return out;
        }
        if class.lossless && self.ingress_bytes[at] + bytes > self.params.xoff_bytes as u64 {
            self.xoff_sent[at] = true;
            self.paused_count += 1;
            self.next_resend_ns[at] = now_ns + self.params.resend_interval_ns(port);
            self.earliest_resend_ns = self.earliest_resend_ns.min(self.next_resend_ns[at]);
            out.pause_sent = true;
        }
        match self.charge_pool(at, class.pool as usize, bytes) {
            Ok(()) => out.charged_to = Some(ChargedTo::Pool),
            Err(reason) => out.drop = Some(reason),
        }
        out
    }

    fn charge_pool(&mut self, at: usize, pool: usize, bytes: u64) -> Result<(), DropReason> {
        if self.pool_bytes[pool] + bytes > self.params.pool_size_bytes[pool] as u64 {
            return Err(DropReason::PoolFull);
        }
        self.ingress_bytes[at] += bytes;
        self.pool_bytes[pool] += bytes;
        Ok(())
    }

    fn release_pool(&mut self, at: usize, pool: usize, bytes: u64) {
        sub(&mut self.ingress_bytes[at], bytes, "ingress occupancy");
        sub(&mut self.pool_bytes[pool], bytes, "pool occupancy");
    }

    /// The lossy egress limit of (egress port, pool) for a packet of `role`.
    pub fn egress_limit_bytes(&self, pool: usize, role: Role) -> u64 {
        match self.params.egress_mode {
            EgressMode::Dynamic { alpha_q10 } => {
                let free = (self.params.pool_size_bytes[pool] as u64).saturating_sub(self.pool_egress_bytes[pool]);
                (alpha_q10 as u64 * free) >> 10
            }
            EgressMode::Fixed if role == Role::TrimmableRetransmit => self.params.retransmit_limit_bytes[pool] as u64,
            EgressMode::Fixed => self.params.fixed_limit_bytes[pool] as u64,
        }
    }

    fn egress_check(&self, egress_port: usize, pool: usize, role: Role, bytes: u64) -> Result<(), DropReason> {
        let queue = self.egress_bytes[egress_port * CLASSES + pool];
        if queue + bytes > self.egress_limit_bytes(pool, role) {
            return Err(DropReason::EgressLimit);
        }
        if self.pool_egress_bytes[pool] + bytes > self.params.pool_size_bytes[pool] as u64 {
            return Err(DropReason::EgressPool);
        }
        Ok(())
    }

    /// Egress admission of a packet that passed ingress (charged to pool or
    /// headroom) towards `egress_port`.
    pub fn egress(&mut self, ingress_port: usize, ingress: &Ingress, egress_port: usize) -> Egress {
        let class = ingress.class;
        let mut tag = Tag {
            ingress_port: ingress_port as u16,
            egress_port: egress_port as u16,
            tc: class.tc,
            pool: class.pool,
            lossless: class.lossless,
            charged_bytes: ingress.charged_bytes,
        };
        let mut trimmed_dscp = None;
        if !class.lossless {
            if let Err(reason) = self.egress_check(egress_port, class.pool as usize, class.role, tag.charged_bytes as u64) {
                let trim = self.params.trimming && self.params.classifier.uet_policy && class.role.is_trimmable();
                self.release_ingress(&tag);
                if !trim {
                    return Egress::dropped(reason);
                }
                match self.trim(ingress_port, egress_port) {
                    Ok((t, dscp)) => {
                        tag = t;
                        trimmed_dscp = Some(dscp);
                    }
                    Err(reason) => return Egress::dropped(reason),
                }
            }
        }
        let at = egress_port * CLASSES + tag.pool as usize;
        let bytes = tag.charged_bytes as u64;
        self.egress_bytes[at] += bytes;
        self.pool_egress_bytes[tag.pool as usize] += bytes;
        self.port_egress_bytes[egress_port] += bytes;
        Egress {
            admitted: true,
            drop: None,
            trimmed: trimmed_dscp.is_some(),
            trimmed_dscp,
            tag: Some(tag),
            queue_bytes_after: self.egress_bytes[at].min(u32::MAX as u64) as u32,
        }
    }

    /// Cuts a packet to its headers and offers it to TC1 (pool 1); returns
    /// its tag and new DSCP.
    fn trim(&mut self, ingress_port: usize, egress_port: usize) -> Result<(Tag, u8), DropReason> {
        const TRIM_TC: u8 = 1;
        let pool = TRIM_TC as usize;
        let bytes = charged_bytes(TRIMMED_BYTES) as u64;
        let role = if self.params.faces_nic[egress_port] { Role::TrimmedLastHop } else { Role::Trimmed };
        self.charge_pool(ingress_port * CLASSES + pool, pool, bytes)?;
        if let Err(reason) = self.egress_check(egress_port, pool, role, bytes) {
            self.release_pool(ingress_port * CLASSES + pool, pool, bytes);
            return Err(reason);
        }
        let tag = Tag {
            ingress_port: ingress_port as u16,
            egress_port: egress_port as u16,
            tc: TRIM_TC,
            pool: TRIM_TC,
            lossless: false,
            charged_bytes: bytes as u32,
        };
        Ok((tag, self.params.classifier.codepoints.dscp(role)))
    }

    /// Releases a packet's ingress charge; for a lossless packet, headroom
    /// first. Returns whether a resume (Xon) is due.
    fn release_ingress(&mut self, tag: &Tag) -> bool {
        let port = tag.ingress_port as usize;
        let pool = tag.pool as usize;
        let at = port * CLASSES + pool;
        let mut bytes = tag.charged_bytes as u64;
        if tag.lossless {
            let from_headroom = bytes.min(self.headroom_bytes[at]);
            self.headroom_bytes[at] -= from_headroom;
            bytes -= from_headroom;
        }
        self.release_pool(at, pool, bytes);
        let resume = tag.lossless
            && self.xoff_sent[at]
            && self.headroom_bytes[at] == 0
            && self.ingress_bytes[at] <= self.params.xon_bytes as u64;
        if resume {
            self.xoff_sent[at] = false;
            self.paused_count -= 1;
        }
        resume
    }

    /// Serialization completed: release egress and ingress charges.
    /// Returns whether a resume frame is sent.
    pub fn release(&mut self, tag: &Tag) -> bool {
        let egress_port = tag.egress_port as usize;
        let bytes = tag.charged_bytes as u64;
        sub(&mut self.egress_bytes[egress_port * CLASSES + tag.pool as usize], bytes, "egress queue");
        sub(&mut self.pool_egress_bytes[tag.pool as usize], bytes, "pool egress");
        sub(&mut self.port_egress_bytes[egress_port], bytes, "port egress");
        self.release_ingress(tag)
    }

    /// A PFC frame received on `port`: pause the named classes until the
    /// returned time (quanta 0 resumes at once).
    pub fn pfc_received(&mut self, now_ns: u64, port: usize, classes: u8, quanta: u16) -> u64 {
        let until = if quanta == 0 { now_ns } else { now_ns + self.params.pause_ns(port, quanta) };
        for tc in 0..CLASSES {
            if classes & (1 << tc) != 0 {
                self.rx_pause_until_ns[port * CLASSES + tc] = until;
            }
        }
        until
    }

    /// Whether the peer of `port` has paused traffic class `tc`.
    pub fn is_rx_paused(&self, port: usize, tc: usize, now_ns: u64) -> bool {
        now_ns < self.rx_pause_until_ns[port * CLASSES + tc]
    }

    pub fn rx_pause_until_ns(&self, port: usize, tc: usize) -> u64 {
        self.rx_pause_until_ns[port * CLASSES + tc]
    }

    /// Appends every pause re-send due at or before `now_ns`, oldest first.
    pub fn due_resends(&mut self, now_ns: u64, out: &mut Vec<PfcFrame>) {
        if self.paused_count == 0 || now_ns < self.earliest_resend_ns {
            return;
        }
        let start = out.len();
        let mut earliest = u64::MAX;
        for at in 0..self.xoff_sent.len() {
            if !self.xoff_sent[at] {
                continue;
            }
            let (port, pool) = (at / CLASSES, at % CLASSES);
            let interval = self.params.resend_interval_ns(port).max(1);
            while self.next_resend_ns[at] <= now_ns {
                out.push(PfcFrame {
                    t_ns: self.next_resend_ns[at],
                    port: port as u16,
                    pool: pool as u8,
                    classes: self.params.priority_group(pool),
                    quanta: PAUSE_QUANTA,
                });
                self.next_resend_ns[at] += interval;
            }
            earliest = earliest.min(self.next_resend_ns[at]);
        }
        self.earliest_resend_ns = earliest;
        out[start..].sort_by_key(|f| (f.t_ns, f.port, f.pool));
    }

    /// How many frames [`due_resends`](Self::due_resends) would send for
    /// `now_ns` (saturating), computed without making them.
    pub fn resends_due_count(&self, now_ns: u64) -> u64 {
        if self.paused_count == 0 || now_ns < self.earliest_resend_ns {
            return 0;
        }
        (0..self.xoff_sent.len())
            .filter(|&at| self.xoff_sent[at] && self.next_resend_ns[at] <= now_ns)
            .map(|at| (now_ns - self.next_resend_ns[at]) / self.params.resend_interval_ns(at / CLASSES).max(1) + 1)
            .fold(0u64, u64::saturating_add)
    }

    /// The one pause re-send of (`port`, `pool`) due at or before `now_ns`,
    /// if the pair is paused: the step the hardware's re-send scheduler
    /// takes when it visits the pair. [`advance_resend`](Self::advance_resend)
    /// then moves the pair's next due time on by one interval.
    pub fn resend_due(&self, port: usize, pool: usize, now_ns: u64) -> Option<PfcFrame> {
        let at = port * CLASSES + pool;
        (self.xoff_sent[at] && self.next_resend_ns[at] <= now_ns).then(|| PfcFrame {
            t_ns: self.next_resend_ns[at],
            port: port as u16,
            pool: pool as u8,
            classes: self.params.priority_group(pool),
            quanta: PAUSE_QUANTA,
        })
    }

    /// Moves the next re-send of (`port`, `pool`) one interval later (an
    /// interval of 0 stays 0, as in the hardware).
    pub fn advance_resend(&mut self, port: usize, pool: usize) {
        self.next_resend_ns[port * CLASSES + pool] += self.params.resend_interval_ns(port);
    }

    /// No pause re-send falls due before this time (None: no port paused).
    pub fn next_resend_ns(&self) -> Option<u64> {
        (self.paused_count > 0).then_some(self.earliest_resend_ns)
    }

    pub fn pool_bytes(&self, pool: usize) -> u64 {
        self.pool_bytes[pool]
    }
    pub fn pool_egress_bytes(&self, pool: usize) -> u64 {
        self.pool_egress_bytes[pool]
    }
    pub fn ingress_bytes(&self, port: usize, pool: usize) -> u64 {
        self.ingress_bytes[port * CLASSES + pool]
    }
    pub fn headroom_bytes(&self, port: usize, pool: usize) -> u64 {
        self.headroom_bytes[port * CLASSES + pool]
    }
    pub fn xoff_sent(&self, port: usize, pool: usize) -> bool {
        self.xoff_sent[port * CLASSES + pool]
    }
    pub fn egress_bytes(&self, port: usize, pool: usize) -> u64 {
        self.egress_bytes[port * CLASSES + pool]
    }
    pub fn port_egress_bytes(&self, port: usize) -> u64 {
        self.port_egress_bytes[port]
    }

    /// Whether every byte counter is zero (after a full drain).
    pub fn is_empty(&self) -> bool {
        self.pool_bytes.iter().chain(&self.pool_egress_bytes).all(|&b| b == 0)
            && self.ingress_bytes.iter().chain(&self.headroom_bytes).chain(&self.egress_bytes).all(|&b| b == 0)
            && self.port_egress_bytes.iter().all(|&b| b == 0)
    }

    /// Bytes held: ingress charges (pool + headroom).
    pub fn held_bytes(&self) -> u64 {
        self.pool_bytes.iter().sum::<u64>() + self.headroom_bytes.iter().sum::<u64>()
    }
}

impl Egress {
    fn dropped(reason: DropReason) -> Egress {
        Egress { admitted: false, drop: Some(reason), trimmed: false, trimmed_dscp: None, tag: None, queue_bytes_after: 0 }
    }
}
