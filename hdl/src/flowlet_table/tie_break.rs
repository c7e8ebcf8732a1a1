//! Tie break: the member a re-selection takes from the candidates at the
//! least occupancy (the tie mask). The slot's member stays when it is one
//! of them; otherwise the tied candidates, in member order, are drawn
//! from: index `(draw x count) >> 16` with a 16-bit xorshift32 draw
//! (`reference::lfsr`), taken only when more than one is tied.
//!
//! Ports (all on `clock`):
//! * configuration: `seed_write`, `seed` (restart the draw; 0 becomes
//!   0x2545F491, as at power-up), in the write's cycle
//! * choice, cycle 0: `reselect` (a slot to select again), `keep_slot` (a
//!   slot still within its gap), `slot_valid`, `slot_member` (6 bits),
//!   `tie_mask[64]`
//! * answer, cycle 6 (LATENCY): given `use_hash` and `hash_member` (6
//!   bits, hash mod size, for sets without a table) in that cycle,
//!   `member` (6 bits) and `moved` (a re-selection that left the slot's
//!   member), combinational
//!
//! Latency 6 cycles, one choice per cycle. The draw state advances in
//! stage 3 in event order, so back-to-back draws are exact. Every count
//! (tied per group, rank within a group, where each group starts) is a
//! tree of adds over pairs, quads and halves, at most three adds deep in a
//! stage: chained increments map to one carry chain after another.
//!
//! ```text
//!  tie_mask ─►[stay?, count per 8]─►[prefix sums, count]─►[draw]─►[draw x count]─►[group]─►[bit]─► member
//! ```

use super::set_table::MEMBERS;
use reference::lfsr::ZERO_SEED_REPLACEMENT;
use crate::build_checks::many;
use rust_hdl::prelude::*;

/// Cycles from the tie mask to the member.
pub const LATENCY: usize = 6;
/// Members per group of the pick (a group's set bits are counted together).
const GROUP: usize = 8;
const GROUPS: usize = MEMBERS / GROUP;
const PAIRS: usize = MEMBERS / 2;
const QUADS: usize = MEMBERS / 4;

// rust_hdl writes a Rust constant inside a kernel as a bare Verilog name,
// so the kernel spells these positions as literals; the asserts keep them
// equal to the named constants.
const _: () = assert!(LATENCY == 6 && GROUP == 8 && GROUPS == 8 && PAIRS == 32 && QUADS == 16);

#[derive(LogicBlock)]
pub struct TieBreak {
    pub clock: Signal<In, Clock>,
    // configuration
    pub seed_write: Signal<In, Bit>,
    pub seed: Signal<In, Bits<32>>,
    // choice
    pub reselect: Signal<In, Bit>,
    pub keep_slot: Signal<In, Bit>,
    pub slot_valid: Signal<In, Bit>,
    pub slot_member: Signal<In, Bits<6>>,
    pub tie_mask: [Signal<In, Bit>; MEMBERS],
    // answer
    pub use_hash: Signal<In, Bit>,
    pub hash_member: Signal<In, Bits<6>>,
    pub member: Signal<Out, Bits<6>>,
    pub moved: Signal<Out, Bit>,
    draw_state: DFF<Bits<32>>,
    zero_seed_replacement: Constant<Bits<32>>,
    // the choice's context through the stages
    reselect_q: [DFF<Bit>; LATENCY],
    keep_slot_q: [DFF<Bit>; LATENCY],
    slot_valid_q: [DFF<Bit>; LATENCY],
    slot_member_q: [DFF<Bits<6>>; LATENCY],
    // stage 1: stay?, set bits per group
    s1_tie: [DFF<Bit>; MEMBERS],
    s1_stay: DFF<Bit>,
    s1_group_count: [DFF<Bits<7>>; GROUPS],
    /// Set bits of each pair of members (2k, 2k + 1).
    s1_pair_count: [DFF<Bits<3>>; PAIRS],
    /// Set bits of the first four members of each group.
    s1_first_quad: [DFF<Bits<3>>; GROUPS],
    slot_member_tied: Signal<Local, Bit>,
    // (the same counts at the ranks' width and at the group counts'; the
    // kernel cannot widen an indexed signal, and Yosys merges the two)
    pair_count: [Signal<Local, Bits<3>>; PAIRS],
    pair_count_wide: [Signal<Local, Bits<7>>; PAIRS],
    quad_count: [Signal<Local, Bits<3>>; QUADS],
    quad_count_wide: [Signal<Local, Bits<7>>; QUADS],
    group_sum: [Signal<Local, Bits<7>>; GROUPS],
    // stage 2: where each group starts among the tied, how many tie
    s2_tie: [DFF<Bit>; MEMBERS],
    /// Each tied member's rank among the tied of its group.
    s2_rank: [DFF<Bits<3>>; MEMBERS],
    rank_below: [Signal<Local, Bits<3>>; MEMBERS],
    s2_stay: DFF<Bit>,
    s2_group_start: [DFF<Bits<7>>; GROUPS],
    s2_count: DFF<Bits<7>>,
    running: [Signal<Local, Bits<7>>; GROUPS],
    /// Tied in groups (0, 1), (2, 3), (4, 5), (6, 7).
    pair_groups: [Signal<Local, Bits<7>>; 4],
    /// Tied in groups 0..4 and 4..8.
    half_groups: [Signal<Local, Bits<7>>; 2],
    // stage 3: the draw
    s3_tie: [DFF<Bit>; MEMBERS],
    s3_rank: [DFF<Bits<3>>; MEMBERS],
    s3_stay: DFF<Bit>,
    s3_group_start: [DFF<Bits<7>>; GROUPS],
    s3_count: DFF<Bits<7>>,
    s3_draw: DFF<Bits<16>>,
    state: Signal<Local, Bits<32>>,
    stepped: Signal<Local, Bits<32>>,
    take_draw: Signal<Local, Bit>,
    // stage 4: the pick, an index among the tied
    s4_tie: [DFF<Bit>; MEMBERS],
    s4_rank: [DFF<Bits<3>>; MEMBERS],
    s4_stay: DFF<Bit>,
    s4_group_start: [DFF<Bits<7>>; GROUPS],
    s4_pick: DFF<Bits<7>>,
    product: Signal<Local, Bits<32>>,
    // stage 5: the group holding the pick, the pick's rank in it
    s5_stay: DFF<Bit>,
    s5_group: DFF<Bits<3>>,
    s5_rank: DFF<Bits<7>>,
    s5_group_bits: [DFF<Bit>; GROUP],
    s5_group_ranks: [DFF<Bits<3>>; GROUP],
    // stage 6: the member
    s6_stay: DFF<Bit>,
    s6_picked: DFF<Bits<6>>,
    chosen: Signal<Local, Bits<6>>,
}

impl Default for TieBreak {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            seed_write: Default::default(),
            seed: Default::default(),
            reselect: Default::default(),
            keep_slot: Default::default(),
            slot_valid: Default::default(),
            slot_member: Default::default(),
            tie_mask: many(),
            use_hash: Default::default(),
            hash_member: Default::default(),
            member: Default::default(),
            moved: Default::default(),
            draw_state: Default::default(),
            zero_seed_replacement: Constant::new((ZERO_SEED_REPLACEMENT as LiteralType).into()),
            reselect_q: many(),
            keep_slot_q: many(),
            slot_valid_q: many(),
            slot_member_q: many(),
            s1_tie: many(),
            s1_stay: Default::default(),
            s1_group_count: many(),
            s1_pair_count: many(),
            s1_first_quad: many(),
            slot_member_tied: Default::default(),
            pair_count: many(),
            pair_count_wide: many(),
            quad_count: many(),
            quad_count_wide: many(),
            group_sum: many(),
            s2_tie: many(),
            s2_rank: many(),
            rank_below: many(),
            s2_stay: Default::default(),
            s2_group_start: many(),
            s2_count: Default::default(),
            running: many(),
            pair_groups: many(),
            half_groups: many(),
            s3_tie: many(),
            s3_rank: many(),
            s3_stay: Default::default(),
            s3_group_start: many(),
            s3_count: Default::default(),
            s3_draw: Default::default(),
            state: Default::default(),
            stepped: Default::default(),
            take_draw: Default::default(),
            s4_tie: many(),
            s4_rank: many(),
            s4_stay: Default::default(),
            s4_group_start: many(),
            s4_pick: Default::default(),
            product: Default::default(),
            s5_stay: Default::default(),
            s5_group: Default::default(),
            s5_rank: Default::default(),
            s5_group_bits: many(),
            s5_group_ranks: many(),
            s6_stay: Default::default(),
            s6_picked: Default::default(),
            chosen: Default::default(),
        }
    }
}

impl Logic for TieBreak {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, draw_state, s1_stay, s2_stay, s2_count, s3_stay, s3_count, s3_draw, s4_stay, s4_pick,
            s5_stay, s5_group, s5_rank, s6_stay, s6_picked);
        for i in 0..LATENCY {
            self.reselect_q[i].clock.next = self.clock.val();
            self.keep_slot_q[i].clock.next = self.clock.val();
            self.slot_valid_q[i].clock.next = self.clock.val();
            self.slot_member_q[i].clock.next = self.clock.val();
        }
        self.reselect_q[0].d.next = self.reselect.val();
        self.keep_slot_q[0].d.next = self.keep_slot.val();
        self.slot_valid_q[0].d.next = self.slot_valid.val();
        self.slot_member_q[0].d.next = self.slot_member.val();
        for i in 1..LATENCY {
            self.reselect_q[i].d.next = self.reselect_q[i - 1].q.val();
            self.keep_slot_q[i].d.next = self.keep_slot_q[i - 1].q.val();
            self.slot_valid_q[i].d.next = self.slot_valid_q[i - 1].q.val();
            self.slot_member_q[i].d.next = self.slot_member_q[i - 1].q.val();
        }
        for k in 0..MEMBERS {
            self.s1_tie[k].clock.next = self.clock.val();
            self.s2_tie[k].clock.next = self.clock.val();
            self.s3_tie[k].clock.next = self.clock.val();
            self.s4_tie[k].clock.next = self.clock.val();
            self.s1_tie[k].d.next = self.tie_mask[k].val();
            self.s2_tie[k].d.next = self.s1_tie[k].q.val();
            self.s3_tie[k].d.next = self.s2_tie[k].q.val();
            self.s4_tie[k].d.next = self.s3_tie[k].q.val();
            self.s2_rank[k].clock.next = self.clock.val();
            self.s3_rank[k].clock.next = self.clock.val();
            self.s4_rank[k].clock.next = self.clock.val();
            self.s3_rank[k].d.next = self.s2_rank[k].q.val();
            self.s4_rank[k].d.next = self.s3_rank[k].q.val();
        }
        // stage 1 -> 2: ranks within each group, so the last stage only
        // compares; from the pair and quad counts, at most three adds deep
        // (a chain of seven increments was the block's critical path)
        for g in 0..GROUPS {
            self.rank_below[8 * g].next = 0.into();
            self.rank_below[8 * g + 1].next = 0.into();
            if self.s1_tie[8 * g].q.val() {
                self.rank_below[8 * g + 1].next = 1.into();
            }
            self.rank_below[8 * g + 2].next = self.s1_pair_count[4 * g].q.val();
            if self.s1_tie[8 * g + 2].q.val() {
                self.rank_below[8 * g + 3].next = self.s1_pair_count[4 * g].q.val() + 1;
            } else {
                self.rank_below[8 * g + 3].next = self.s1_pair_count[4 * g].q.val();
            }
            self.rank_below[8 * g + 4].next = self.s1_first_quad[g].q.val();
            if self.s1_tie[8 * g + 4].q.val() {
                self.rank_below[8 * g + 5].next = self.s1_first_quad[g].q.val() + 1;
            } else {
                self.rank_below[8 * g + 5].next = self.s1_first_quad[g].q.val();
            }
            self.rank_below[8 * g + 6].next = self.s1_first_quad[g].q.val() + self.s1_pair_count[4 * g + 2].q.val();
            if self.s1_tie[8 * g + 6].q.val() {
                self.rank_below[8 * g + 7].next = self.rank_below[8 * g + 6].val() + 1;
            } else {
                self.rank_below[8 * g + 7].next = self.rank_below[8 * g + 6].val();
            }
        }
        for k in 0..MEMBERS {
            self.s2_rank[k].d.next = self.rank_below[k].val();
        }
        // stage 0 -> 1: is the slot's member tied? set bits per group
        self.slot_member_tied.next = false;
        for k in 0..MEMBERS {
            if self.slot_member.val() == k.to_bits::<6>() {
                self.slot_member_tied.next = self.tie_mask[k].val();
            }
        }
        self.s1_stay.d.next = self.slot_valid.val() & self.slot_member_tied.val();
        // the counts as a tree: pairs, quads, groups (adders in a chain
        // would map to one carry chain after another)
        for j in 0..PAIRS {
            self.s1_pair_count[j].clock.next = self.clock.val();
            self.pair_count[j].next = 0.into();
            self.pair_count_wide[j].next = 0.into();
            if self.tie_mask[2 * j].val() & self.tie_mask[2 * j + 1].val() {
                self.pair_count[j].next = 2.into();
                self.pair_count_wide[j].next = 2.into();
            } else if self.tie_mask[2 * j].val() | self.tie_mask[2 * j + 1].val() {
                self.pair_count[j].next = 1.into();
                self.pair_count_wide[j].next = 1.into();
            }
            self.s1_pair_count[j].d.next = self.pair_count[j].val();
        }
        for i in 0..QUADS {
            self.quad_count[i].next = self.pair_count[2 * i].val() + self.pair_count[2 * i + 1].val();
            self.quad_count_wide[i].next = self.pair_count_wide[2 * i].val() + self.pair_count_wide[2 * i + 1].val();
        }
        for g in 0..GROUPS {
            self.s1_group_count[g].clock.next = self.clock.val();
            self.s1_first_quad[g].clock.next = self.clock.val();
            self.group_sum[g].next = self.quad_count_wide[2 * g].val() + self.quad_count_wide[2 * g + 1].val();
            self.s1_group_count[g].d.next = self.group_sum[g].val();
            self.s1_first_quad[g].d.next = self.quad_count[2 * g].val();
        }
        // stage 1 -> 2: exclusive prefix sums of the group counts
        self.s2_stay.d.next = self.s1_stay.q.val();
        // as a tree, at most three adds deep (a chain of eight was the
        // block's critical path)
        for i in 0..4 {
            self.pair_groups[i].next = self.s1_group_count[2 * i].q.val() + self.s1_group_count[2 * i + 1].q.val();
        }
        self.half_groups[0].next = self.pair_groups[0].val() + self.pair_groups[1].val();
        self.half_groups[1].next = self.pair_groups[2].val() + self.pair_groups[3].val();
        self.running[0].next = 0.into();
        self.running[1].next = self.s1_group_count[0].q.val();
        self.running[2].next = self.pair_groups[0].val();
        self.running[3].next = self.pair_groups[0].val() + self.s1_group_count[2].q.val();
        self.running[4].next = self.half_groups[0].val();
        self.running[5].next = self.half_groups[0].val() + self.s1_group_count[4].q.val();
        self.running[6].next = self.half_groups[0].val() + self.pair_groups[2].val();
        self.running[7].next = self.running[6].val() + self.s1_group_count[6].q.val();
        for g in 0..GROUPS {
            self.s2_group_start[g].clock.next = self.clock.val();
            self.s2_group_start[g].d.next = self.running[g].val();
        }
        self.s2_count.d.next = self.half_groups[0].val() + self.half_groups[1].val();
        // stage 2 -> 3: the draw, only for a re-selection among several
        // The register holds state ^ 0x2545F491, so that its power-up zero
        // is the state a zero seed gives.
        self.state.next = self.draw_state.q.val() ^ self.zero_seed_replacement.val();
        self.stepped.next = self.state.val() ^ (self.state.val() << 13);
        self.stepped.next = self.stepped.val() ^ (self.stepped.val() >> 17);
        self.stepped.next = self.stepped.val() ^ (self.stepped.val() << 5);
        self.take_draw.next = self.reselect_q[1].q.val() & !self.s2_stay.q.val() & (self.s2_count.q.val() > 1);
        if self.take_draw.val() {
            self.draw_state.d.next = self.stepped.val() ^ self.zero_seed_replacement.val();
        }
        if self.seed_write.val() {
            if self.seed.val() == 0 {
                self.draw_state.d.next = 0.into();
            } else {
                self.draw_state.d.next = self.seed.val() ^ self.zero_seed_replacement.val();
            }
        }
        self.s3_draw.d.next = self.stepped.val().get_bits::<16>(16);
        self.s3_stay.d.next = self.s2_stay.q.val();
        self.s3_count.d.next = self.s2_count.q.val();
        for g in 0..GROUPS {
            self.s3_group_start[g].clock.next = self.clock.val();
            self.s3_group_start[g].d.next = self.s2_group_start[g].q.val();
        }
        // stage 3 -> 4: pick = (draw x count) >> 16 (0 when one is tied)
        self.product.next = self.s3_draw.q.val() * bit_cast::<16, 7>(self.s3_count.q.val());
        self.s4_pick.d.next = self.product.val().get_bits::<7>(16);
        self.s4_stay.d.next = self.s3_stay.q.val();
        for g in 0..GROUPS {
            self.s4_group_start[g].clock.next = self.clock.val();
            self.s4_group_start[g].d.next = self.s3_group_start[g].q.val();
        }
        // stage 4 -> 5: the last group starting at or before the pick
        self.s5_stay.d.next = self.s4_stay.q.val();
        self.s5_group.d.next = 0.into();
        self.s5_rank.d.next = self.s4_pick.q.val();
        for b in 0..GROUP {
            self.s5_group_bits[b].clock.next = self.clock.val();
            self.s5_group_bits[b].d.next = self.s4_tie[b].q.val();
            self.s5_group_ranks[b].clock.next = self.clock.val();
            self.s5_group_ranks[b].d.next = self.s4_rank[b].q.val();
        }
        for g in 1..GROUPS {
            if (self.s4_group_start[g].q.val() <= self.s4_pick.q.val()) & (self.s4_tie[8 * g].q.val()
                | self.s4_tie[8 * g + 1].q.val() | self.s4_tie[8 * g + 2].q.val() | self.s4_tie[8 * g + 3].q.val()
                | self.s4_tie[8 * g + 4].q.val() | self.s4_tie[8 * g + 5].q.val() | self.s4_tie[8 * g + 6].q.val()
                | self.s4_tie[8 * g + 7].q.val())
            {
                self.s5_group.d.next = g.to_bits::<3>();
                self.s5_rank.d.next = self.s4_pick.q.val() - self.s4_group_start[g].q.val();
                for b in 0..GROUP {
                    self.s5_group_bits[b].d.next = self.s4_tie[8 * g + b].q.val();
                    self.s5_group_ranks[b].d.next = self.s4_rank[8 * g + b].q.val();
                }
            }
        }
        // stage 5 -> 6: the set bit of that rank in the group
        self.s6_stay.d.next = self.s5_stay.q.val();
        self.s6_picked.d.next = bit_cast::<6, 3>(self.s5_group.q.val()) << 3;
        for b in 0..GROUP {
            if self.s5_group_bits[b].q.val() & (self.s5_group_ranks[b].q.val() == self.s5_rank.q.val().get_bits::<3>(0)) {
                self.s6_picked.d.next = (bit_cast::<6, 3>(self.s5_group.q.val()) << 3) | b.to_bits::<6>();
            }
        }
        // cycle 6: the answer
        if self.use_hash.val() {
            self.chosen.next = self.hash_member.val();
        } else if self.keep_slot_q[5].q.val() | self.s6_stay.q.val() {
            self.chosen.next = self.slot_member_q[5].q.val();
        } else {
            self.chosen.next = self.s6_picked.q.val();
        }
        self.member.next = self.chosen.val();
        self.moved.next = !self.use_hash.val() & self.reselect_q[5].q.val() & self.slot_valid_q[5].q.val()
            & (self.chosen.val() != self.slot_member_q[5].q.val());
    }
}
