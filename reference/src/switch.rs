//! The datapath of one switch: classification and ingress admission, flow
//! hash and member selection, egress admission (with trimming), the ECN
//! decision at transmission start, and release at departure.
//!
//! ```text
//!  arrival ─► BufferManager::ingress ─► flow_hash ─► LoadBalancer::select
//!                                                        │
//!          EcnMarker::update ◄─ LoadBalancer::commit ◄─ BufferManager::egress
//!  tx_start ─► EcnMarker::decide        depart ─► BufferManager::release
//! ```

use crate::buffer_manager::{BufferManager, BufferParams, ChargedTo, DropReason, ParamError, PfcFrame, Tag};
use crate::buffer_plan::BufferPlan;
use crate::classify::{Classifier, UetCodepoints};
use crate::config::SwitchConfig;
use crate::ecmp_hash::{flow_hash, salt_from_node_id, EcmpHashParams, FlowKey};
use crate::ecn_marker::{EcnMarker, EcnParams};
use crate::flowlet::{FlowletParams, GroupId, LoadBalancer, PortState, MAX_MEMBERS};
use crate::lfsr::{ecn_seed, flowlet_seed};
use crate::ports::PortMap;

/// ECN field of an IP packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ecn {
    NotEct,
    Ect0,
    Ect1,
    Ce,
}

impl Ecn {
    pub fn is_ect(self) -> bool {
        matches!(self, Ecn::Ect0 | Ecn::Ect1)
    }
}

/// Identity of one switch in a run: what seeds and salts derive from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SwitchIdentity {
    pub node_id: u32,
    pub sim_seed: u64,
    pub run: u32,
}

/// An arriving data frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub port: u16,
    pub dscp: u8,
    pub ecn: Ecn,
    /// Frame bytes without the Ethernet header.
    pub bytes: u32,
    pub key: FlowKey,
    pub group: GroupId,
}

/// What happened to an arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrivalOutcome {
    pub admitted: bool,
    pub charged_to: Option<ChargedTo>,
    pub drop: Option<DropReason>,
    pub tc: u8,
    pub pool: u8,
    pub egress_port: Option<u16>,
    pub flow_hash: u16,
    pub pause_sent: bool,
    pub trimmed: bool,
    /// The admitted packet, for tx_start and depart.
    pub packet: Option<Packet>,
}

/// An admitted packet as the scheduler holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    pub tag: Tag,
    pub ect: bool,
}

pub struct Switch {
    pub plan: BufferPlan,
    pub ports: PortMap,
    pub hash: EcmpHashParams,
    pub buffer: BufferManager,
    pub ecn: EcnMarker,
    pub balancer: LoadBalancer,
}

struct BufferPorts<'a>(&'a BufferManager);

impl PortState for BufferPorts<'_> {
    fn egress_bytes(&self, port: usize) -> u64 {
        self.0.port_egress_bytes(port)
    }
    fn is_paused(&self, port: usize, tc: usize, now_ns: u64) -> bool {
        self.0.is_rx_paused(port, tc, now_ns)
    }
}

impl Switch {
    pub fn new(
        config: &SwitchConfig,
        plan: BufferPlan,
        ports: PortMap,
        identity: SwitchIdentity,
        codepoints: UetCodepoints,
    ) -> Result<Switch, ParamError> {
        let classifier = Classifier::new(&plan, codepoints);
        let buffer = BufferManager::new(BufferParams::from_plan(&plan, &ports, classifier)?);
        let ecn = EcnMarker::new(EcnParams::from_plan(config, &plan), ports.len(), ecn_seed(identity.sim_seed, identity.node_id));
        let balancer = LoadBalancer::new(FlowletParams {
            method: config.load_balancing,
            gap_ns: config.flowlet.gap_ps / 1000,
            pfc_aware: config.flowlet.pfc_aware,
            seed: flowlet_seed(identity.sim_seed, identity.run, identity.node_id),
        });
        let hash = EcmpHashParams { method: config.ecmp_hash_method, salt: salt_from_node_id(identity.node_id) };
        Ok(Switch { plan, ports, hash, buffer, ecn, balancer })
    }

    /// Registers an equal-cost set; every member must be a port of the switch.
    pub fn register_group(&mut self, members: &[u16]) -> Result<GroupId, String> {
        if members.is_empty() || members.len() > MAX_MEMBERS {
            return Err(format!("an equal-cost set has 1 to {MAX_MEMBERS} members, not {}", members.len()));
        }
        if let Some(bad) = members.iter().find(|&&m| m as usize >= self.ports.len()) {
            return Err(format!("member port {bad} is not one of the switch's {} ports", self.ports.len()));
        }
        Ok(self.balancer.register(members))
    }

    pub fn arrive(&mut self, now_ns: u64, a: &Arrival) -> ArrivalOutcome {
        let port = a.port as usize;
        let ingress = self.buffer.ingress(now_ns, port, a.dscp, a.bytes);
        let members = self.balancer.groups()[a.group].members.len();
        let hash = flow_hash(&self.hash, &a.key, members).flow_hash;
        let mut out = ArrivalOutcome {
            admitted: false,
            charged_to: ingress.charged_to,
            drop: ingress.drop,
            tc: ingress.class.tc,
            pool: ingress.class.pool,
            egress_port: None,
            flow_hash: hash,
            pause_sent: ingress.pause_sent,
            trimmed: false,
            packet: None,
        };
        if ingress.drop.is_some() {
            return out;
        }
        let selection = self.balancer.select(now_ns, a.group, hash, ingress.class.tc as usize, &BufferPorts(&self.buffer));
        let egress_port = selection.egress_port as usize;
        out.egress_port = Some(selection.egress_port);
        let egress = self.buffer.egress(port, &ingress, egress_port);
        let Some(tag) = egress.tag else {
            out.charged_to = None;
            out.drop = egress.drop;
            return out;
        };
        self.balancer.commit(now_ns, &selection, tag.charged_bytes);
        self.ecn.update(egress_port, tag.pool as usize, egress.queue_bytes_after);
        out.admitted = true;
        out.trimmed = egress.trimmed;
        out.tc = tag.tc;
        out.pool = tag.pool;
        out.packet = Some(Packet { tag, ect: a.ecn.is_ect() });
        out
    }

    /// Transmission of `packet` starts: whether it leaves marked CE.
    pub fn tx_start(&mut self, packet: &Packet) -> bool {
        let tag = &packet.tag;
        self.ecn.decide(tag.egress_port as usize, tag.pool as usize, tag.tc as usize, packet.ect)
    }

    /// Serialization of `packet` completed: whether a resume frame is sent.
    pub fn depart(&mut self, packet: &Packet) -> bool {
        self.buffer.release(&packet.tag)
    }

    /// A PFC frame arrived on `port`; returns when the pause ends (ns).
    pub fn pfc_received(&mut self, now_ns: u64, port: u16, classes: u8, quanta: u16) -> u64 {
        self.buffer.pfc_received(now_ns, port as usize, classes, quanta)
    }

    /// Pause frames re-sent at or before `now_ns`.
    pub fn due_resends(&mut self, now_ns: u64, out: &mut Vec<PfcFrame>) {
        self.buffer.due_resends(now_ns, out)
    }
}
