//! Member selection across an equal-cost set: `none` (flow hash mod set
//! size) or `flowlet` (flow tables that move a flow at a gap to the
//! least-occupied member).
//!
//! Flowlet ([model] details fixed here and in the hardware):
//! * The first 128 sets the switch selects on get a table of 512 slots;
//!   slot = `flow_hash & 0x1FF`. Later sets use hash mod size and report 0
//!   slots.
//! * A slot holds a valid bit, a member index and the time (ns) of the last
//!   egress-admitted packet that used it. Select again when the slot is
//!   invalid, Gap is 0, or `now - last >= gap_ns` (Gap rounded down to ns).
//!   Otherwise keep the slot's member. An egress drop leaves the slot as it
//!   was ([`LoadBalancer::commit`] is called only for admitted packets).
//! * Candidates: with PFCAware, members whose egress port is not paused for
//!   the packet's class, or all when every member is paused.
//! * Least egress occupancy (bytes the member's port holds over all pools,
//!   the frame in transmission included). The slot's member stays when it
//!   is a candidate at that minimum. Otherwise, among the tied candidates
//!   in member order, pick index `(draw x count) >> 16` with a 16-bit
//!   [`Lfsr`] draw, taken only when more than one is tied.

use crate::config::LoadBalancing;
use crate::ecmp_hash::member_index;
use crate::lfsr::Lfsr;

pub const SLOTS_PER_TABLE: usize = 512;
pub const MAX_TABLES: usize = 128;
/// Largest equal-cost set.
pub const MAX_MEMBERS: usize = 64;

/// Index of a registered equal-cost set.
pub type GroupId = usize;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    pub valid: bool,
    pub member: u8,
    pub last_ns: u64,
}

/// Counters per member of a set, for the load-balancing record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemberStats {
    pub bytes: u64,
    pub packets: u64,
    pub assignments: u64,
    pub movements_in: u64,
    pub movements_out: u64,
    pub paused_skips: u64,
    pub paused_selections: u64,
}

#[derive(Clone, Debug)]
pub struct Group {
    pub members: Vec<u16>,
    /// Index of its flow table, once it has one.
    pub table: Option<usize>,
    /// When the switch first selected on it (ns), if it has.
    pub formed_ns: Option<u64>,
    pub stats: Vec<MemberStats>,
}

/// The decision for one packet, applied by [`LoadBalancer::commit`] once
/// the packet is admitted at egress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    pub group: GroupId,
    pub member: usize,
    pub egress_port: u16,
    /// Slot to update (flowlet sets with a table).
    pub slot: Option<usize>,
    /// The slot's previous member when this was a re-selection that moved.
    pub moved_from: Option<usize>,
    pub selected: bool,
    pub paused_selection: bool,
    /// Bit i: member i was passed over because its port is paused.
    pub skipped_paused: u64,
}

/// What the balancer needs to know about ports at selection time.
pub trait PortState {
    fn egress_bytes(&self, port: usize) -> u64;
    fn is_paused(&self, port: usize, tc: usize, now_ns: u64) -> bool;
}

#[derive(Clone, Debug)]
pub struct FlowletParams {
    pub method: LoadBalancing,
    pub gap_ns: u64,
    pub pfc_aware: bool,
    pub seed: u32,
}

#[derive(Clone, Debug)]
pub struct LoadBalancer {
    params: FlowletParams,
    groups: Vec<Group>,
    tables: Vec<Vec<Slot>>,
    /// How many sets get a flow table (at most [`MAX_TABLES`]).
    table_limit: usize,
    lfsr: Lfsr,
    /// A deliberately wrong model for fault-injection tests: draws even
    /// when a single candidate ties.
    draw_on_single_tie: bool,
}

impl LoadBalancer {
    pub fn new(params: FlowletParams) -> LoadBalancer {
        LoadBalancer::with_table_limit(params, MAX_TABLES)
    }

    /// A balancer that gives flow tables to the first `table_limit` sets
    /// only (a hardware build with fewer tables; at most [`MAX_TABLES`]).
    pub fn with_table_limit(params: FlowletParams, table_limit: usize) -> LoadBalancer {
        assert!(table_limit <= MAX_TABLES, "table_limit {table_limit} above {MAX_TABLES}");
        LoadBalancer { lfsr: Lfsr::new(params.seed), params, groups: Vec::new(), tables: Vec::new(), table_limit, draw_on_single_tie: false }
    }

    /// The wrong model the fault-injection tests must reject: the tie
    /// draw is taken even when only one candidate ties.
    pub fn with_draw_on_single_tie(mut self) -> LoadBalancer {
        self.draw_on_single_tie = true;
        self
    }

    pub fn params_mut(&mut self) -> &mut FlowletParams {
        &mut self.params
    }

    /// The tie-break draw's state (it changes only when a draw is taken).
    pub fn draw_state(&self) -> u32 {
        self.lfsr.state()
    }

    /// Restarts the tie-break draw from `seed`.
    pub fn reseed(&mut self, seed: u32) {
        self.lfsr = Lfsr::new(seed);
    }

    /// Forgets every set, and with them every flow.
    pub fn forget_sets(&mut self) {
        self.groups.clear();
        self.tables.clear();
    }

    /// Forgets every flow: tables, slots and first uses (the sets stay).
    pub fn forget_flows(&mut self) {
        self.tables.clear();
        for g in &mut self.groups {
            g.table = None;
            g.formed_ns = None;
        }
    }

    pub fn params(&self) -> &FlowletParams {
        &self.params
    }

    /// Registers an equal-cost set (1 to 64 egress ports) and returns its id;
    /// the same member list always gets the same id.
    pub fn register(&mut self, members: &[u16]) -> GroupId {
        if let Some(id) = self.groups.iter().position(|g| g.members == members) {
            return id;
        }
        self.groups.push(Group { members: members.to_vec(), table: None, formed_ns: None, stats: vec![MemberStats::default(); members.len()] });
        self.groups.len() - 1
    }

    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    pub fn slot(&self, group: GroupId, slot: usize) -> Option<Slot> {
        self.groups[group].table.map(|t| self.tables[t][slot])
    }

    fn first_use(&mut self, group: GroupId, now_ns: u64) {
        let g = &mut self.groups[group];
        if g.formed_ns.is_some() {
            return;
        }
        g.formed_ns = Some(now_ns);
        if self.params.method == LoadBalancing::Flowlet && self.tables.len() < self.table_limit {
            g.table = Some(self.tables.len());
            self.tables.push(vec![Slot::default(); SLOTS_PER_TABLE]);
        }
    }

    /// Chooses the member for a packet of class `tc` with `flow_hash`.
    pub fn select(&mut self, now_ns: u64, group: GroupId, flow_hash: u16, tc: usize, ports: &impl PortState) -> Selection {
        self.first_use(group, now_ns);
        let g = &self.groups[group];
        let size = g.members.len();
        let hashed = member_index(flow_hash, size);
        let plain = Selection {
            group,
            member: hashed,
            egress_port: g.members[hashed],
            slot: None,
            moved_from: None,
            selected: true,
            paused_selection: false,
            skipped_paused: 0,
        };
        let Some(table) = g.table else { return plain };
        let slot_index = flow_hash as usize & (SLOTS_PER_TABLE - 1);
        let slot = self.tables[table][slot_index];
        let expired = !slot.valid || self.params.gap_ns == 0 || now_ns.saturating_sub(slot.last_ns) >= self.params.gap_ns;
        if !expired {
            let member = slot.member as usize;
            return Selection { member, egress_port: g.members[member], slot: Some(slot_index), selected: false, ..plain };
        }
        let mut choice = self.least_occupied(group, now_ns, tc, ports, slot);
        choice.slot = Some(slot_index);
        choice
    }

    fn least_occupied(&mut self, group: GroupId, now_ns: u64, tc: usize, ports: &impl PortState, slot: Slot) -> Selection {
        let members = &self.groups[group].members;
        let mut paused_mask = 0u64;
        if self.params.pfc_aware {
            for (i, &port) in members.iter().enumerate() {
                if ports.is_paused(port as usize, tc, now_ns) {
                    paused_mask |= 1 << i;
                }
            }
        }
        let all_paused = paused_mask.count_ones() as usize == members.len();
        let candidate = |i: usize| all_paused || paused_mask & (1 << i) == 0;
        let occupancy = |i: usize| ports.egress_bytes(members[i] as usize);
        let min = (0..members.len()).filter(|&i| candidate(i)).map(occupancy).min().unwrap_or(0);
        let current = slot.valid.then_some(slot.member as usize);
        let member = match current {
            Some(m) if m < members.len() && candidate(m) && occupancy(m) == min => m,
            _ => {
                let mut tied = [0usize; MAX_MEMBERS];
                let mut count = 0;
                for i in (0..members.len()).filter(|&i| candidate(i) && occupancy(i) == min) {
                    tied[count] = i;
                    count += 1;
                }
                let pick = if count > 1 || (self.draw_on_single_tie && count == 1) { (self.lfsr.next_u16() as usize * count) >> 16 } else { 0 };
                tied[pick]
            }
        };
        Selection {
            group,
            member,
            egress_port: members[member],
            slot: None,
            moved_from: current.filter(|&m| m != member),
            selected: true,
            paused_selection: all_paused,
            skipped_paused: if all_paused { 0 } else { paused_mask },
        }
    }

    /// The packet was admitted at egress: update its slot and the counters.
    pub fn commit(&mut self, now_ns: u64, sel: &Selection, charged_bytes: u32) {
        let g = &mut self.groups[sel.group];
        if let (Some(table), Some(slot)) = (g.table, sel.slot) {
            self.tables[table][slot] = Slot { valid: true, member: sel.member as u8, last_ns: now_ns };
        }
        let stats = &mut g.stats[sel.member];
        stats.bytes += charged_bytes as u64;
        stats.packets += 1;
        if sel.selected {
            stats.assignments += 1;
            stats.paused_selections += sel.paused_selection as u64;
        }
        if let Some(from) = sel.moved_from {
            stats.movements_in += 1;
            g.stats[from].movements_out += 1;
        }
        if sel.skipped_paused != 0 {
            for (i, member_stats) in g.stats.iter_mut().enumerate() {
                member_stats.paused_skips += (sel.skipped_paused >> i) & 1;
            }
        }
    }
}
