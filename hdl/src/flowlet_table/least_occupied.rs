//! Least occupied: which candidate members of a set hold the fewest
//! bytes at their egress port. A member is a candidate when it is in the
//! set (index below `set_size`) and, with PFC awareness, its port is not
//! paused for the packet's class (`tc`), unless every member is paused.
//!
//! The minimum is found by a tree of pairwise comparisons; each leaf keeps
//! a tie bit that a level clears when its subtree loses. After the last
//! level the tie bits mark exactly the candidates at the minimum.
//!
//! A level takes two stages. The compare stage registers the pair and
//! which of the two is strictly below the other, straight out of the two
//! carry chains. The choose stage turns those bits and the pair's
//! candidacy into keep-left / keep-right and registers the kept
//! occupancy: a 5-input function per bit. Done in one stage, the 32-bit
//! compare, the keep logic and its fan-out to the 32-bit mux took 6.3 ns
//! (158.8 MHz at 16 ports). The tie bits take a level's registered
//! decisions a stage later, so the decisions drive the mux alone.
//!
//! "Every member paused" is an OR over 64 members: stage 2 picks each
//! member's bit for the class and reduces groups of four, stage 3 the
//! sixteen groups and forms the candidates, beside the first compare
//! stage, which needs only the occupancies. The class's bit is picked
//! here, from registers, rather than in the port state: there the pick
//! of the copies' shared forwarded word fanned out to all 64 answers
//! (7.7 ns at 128 ports).
//!
//! Ports (all on `clock`):
//! * members, cycle 0: `occupancy_bytes_of[64]` (bytes),
//!   `paused_classes_of[64]` (bit n: class n paused), `set_size` (7 bits,
//!   members), `tc` (3 bits, the packet's class)
//! * configuration: `pfc_aware`
//! * answer, cycle 15 (LATENCY): `tie_mask[64]`, `all_paused` (PFC aware
//!   and every member paused, so all were candidates)
//!
//! Latency 15 cycles, one set per cycle.
//!
//! ```text
//!  occupancy ─►[1]─►[2]─►[compare 1]─►[choose 1]─►[compare 2]─►[choose 2]─► ... ─►[choose 6]
//!  paused classes, tc, in set ─►[1]─►[2 class bit, groups of 4]─►[3 candidates]─►[choose 1]
//!                                                                  [tie 1] ... [tie 6]─► tie_mask
//! ```
//!
//! This file is written by `scripts/gen/least_occupied.py` (each level is
//! its own set of registers).

use super::set_table::MEMBERS;
use crate::build_checks::many;
use rust_hdl::prelude::*;

/// Cycles from the members to the tie mask.
pub const LATENCY: usize = 15;
/// Members per group of the first "every member paused" reduction.
const GROUPS: usize = MEMBERS / 4;

#[derive(LogicBlock)]
pub struct LeastOccupied {
    pub clock: Signal<In, Clock>,
    // members
    pub occupancy_bytes_of: [Signal<In, Bits<32>>; MEMBERS],
    pub paused_classes_of: [Signal<In, Bits<8>>; MEMBERS],
    pub set_size: Signal<In, Bits<7>>,
    pub tc: Signal<In, Bits<3>>,
    // configuration
    pub pfc_aware: Signal<In, Bit>,
    // answer
    pub tie_mask: [Signal<Out, Bit>; MEMBERS],
    pub all_paused: Signal<Out, Bit>,
    // stage 1: membership
    s1_occupancy: [DFF<Bits<32>>; MEMBERS],
    s1_in_set: [DFF<Bit>; MEMBERS],
    s1_paused_classes: [DFF<Bits<8>>; MEMBERS],
    s1_tc: DFF<Bits<3>>,
    /// In the set and not paused for the class.
    unpaused: [Signal<Local, Bit>; MEMBERS],
    // stage 2: groups of four with a member in the set and not paused
    s2_occupancy: [DFF<Bits<32>>; MEMBERS],
    s2_in_set: [DFF<Bit>; MEMBERS],
    s2_paused: [DFF<Bit>; MEMBERS],
    s2_group_unpaused: [DFF<Bit>; GROUPS],
    any_unpaused: Signal<Local, Bit>,
    // stage 3: candidates, the leaves of the tree (beside compare 1)
    s3_candidate: [DFF<Bit>; MEMBERS],
    s3_all_paused: DFF<Bit>,
    /// The candidates, a stage later: the tie bits before level 1.
    l0_tie: [DFF<Bit>; MEMBERS],
    // level 1: 32 subtrees of 2; compare, then choose
    c1_pair: [DFF<Bits<32>>; 64],
    c1_below: [DFF<Bit>; 64],
    keep_left1: [Signal<Local, Bit>; 32],
    keep_right1: [Signal<Local, Bit>; 32],
    l1_keep_left: [DFF<Bit>; 32],
    l1_keep_right: [DFF<Bit>; 32],
    l1_least: [DFF<Bits<32>>; 32],
    l1_any: [DFF<Bit>; 32],
    l1_tie: [DFF<Bit>; MEMBERS],
    l1_all_paused: DFF<Bit>,
    // level 2: 16 subtrees of 4; compare, then choose
    c2_pair: [DFF<Bits<32>>; 32],
    c2_below: [DFF<Bit>; 32],
    c2_any: [DFF<Bit>; 32],
    c2_all_paused: DFF<Bit>,
    keep_left2: [Signal<Local, Bit>; 16],
    keep_right2: [Signal<Local, Bit>; 16],
    l2_keep_left: [DFF<Bit>; 16],
    l2_keep_right: [DFF<Bit>; 16],
    l2_least: [DFF<Bits<32>>; 16],
    l2_any: [DFF<Bit>; 16],
    l2_tie_wait: [DFF<Bit>; MEMBERS],
    l2_tie: [DFF<Bit>; MEMBERS],
    l2_all_paused: DFF<Bit>,
    // level 3: 8 subtrees of 8; compare, then choose
    c3_pair: [DFF<Bits<32>>; 16],
    c3_below: [DFF<Bit>; 16],
    c3_any: [DFF<Bit>; 16],
    c3_all_paused: DFF<Bit>,
    keep_left3: [Signal<Local, Bit>; 8],
    keep_right3: [Signal<Local, Bit>; 8],
    l3_keep_left: [DFF<Bit>; 8],
    l3_keep_right: [DFF<Bit>; 8],
    l3_least: [DFF<Bits<32>>; 8],
    l3_any: [DFF<Bit>; 8],
    l3_tie_wait: [DFF<Bit>; MEMBERS],
    l3_tie: [DFF<Bit>; MEMBERS],
    l3_all_paused: DFF<Bit>,
    // level 4: 4 subtrees of 16; compare, then choose
    c4_pair: [DFF<Bits<32>>; 8],
    c4_below: [DFF<Bit>; 8],
    c4_any: [DFF<Bit>; 8],
    c4_all_paused: DFF<Bit>,
    keep_left4: [Signal<Local, Bit>; 4],
    keep_right4: [Signal<Local, Bit>; 4],
    l4_keep_left: [DFF<Bit>; 4],
    l4_keep_right: [DFF<Bit>; 4],
    l4_least: [DFF<Bits<32>>; 4],
    l4_any: [DFF<Bit>; 4],
    l4_tie_wait: [DFF<Bit>; MEMBERS],
    l4_tie: [DFF<Bit>; MEMBERS],
    l4_all_paused: DFF<Bit>,
    // level 5: 2 subtrees of 32; compare, then choose
    c5_pair: [DFF<Bits<32>>; 4],
    c5_below: [DFF<Bit>; 4],
    c5_any: [DFF<Bit>; 4],
    c5_all_paused: DFF<Bit>,
    keep_left5: [Signal<Local, Bit>; 2],
    keep_right5: [Signal<Local, Bit>; 2],
    l5_keep_left: [DFF<Bit>; 2],
    l5_keep_right: [DFF<Bit>; 2],
    l5_least: [DFF<Bits<32>>; 2],
    l5_any: [DFF<Bit>; 2],
    l5_tie_wait: [DFF<Bit>; MEMBERS],
    l5_tie: [DFF<Bit>; MEMBERS],
    l5_all_paused: DFF<Bit>,
    // level 6: 1 subtrees of 64; compare, then choose
    c6_pair: [DFF<Bits<32>>; 2],
    c6_below: [DFF<Bit>; 2],
    c6_any: [DFF<Bit>; 2],
    c6_all_paused: DFF<Bit>,
    keep_left6: [Signal<Local, Bit>; 1],
    keep_right6: [Signal<Local, Bit>; 1],
    l6_keep_left: [DFF<Bit>; 1],
    l6_keep_right: [DFF<Bit>; 1],
    l6_least: [DFF<Bits<32>>; 1],
    l6_any: [DFF<Bit>; 1],
    l6_tie_wait: [DFF<Bit>; MEMBERS],
    l6_tie: [DFF<Bit>; MEMBERS],
    l6_all_paused: DFF<Bit>,
    /// Every member paused, in the stage of the last tie bits.
    tie_all_paused: DFF<Bit>,
}

impl Default for LeastOccupied {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            occupancy_bytes_of: many(),
            paused_classes_of: many(),
            set_size: Default::default(),
            tc: Default::default(),
            pfc_aware: Default::default(),
            tie_mask: many(),
            all_paused: Default::default(),
            s1_occupancy: many(),
            s1_in_set: many(),
            s1_paused_classes: many(),
            s1_tc: Default::default(),
            unpaused: many(),
            s2_occupancy: many(),
            s2_in_set: many(),
            s2_paused: many(),
            s2_group_unpaused: many(),
            any_unpaused: Default::default(),
            s3_candidate: many(),
            s3_all_paused: Default::default(),
            l0_tie: many(),
            c1_pair: many(),
            c1_below: many(),
            keep_left1: many(),
            keep_right1: many(),
            l1_keep_left: many(),
            l1_keep_right: many(),
            l1_least: many(),
            l1_any: many(),
            l1_tie: many(),
            l1_all_paused: Default::default(),
            c2_pair: many(),
            c2_below: many(),
            c2_any: many(),
            c2_all_paused: Default::default(),
            keep_left2: many(),
            keep_right2: many(),
            l2_keep_left: many(),
            l2_keep_right: many(),
            l2_least: many(),
            l2_any: many(),
            l2_tie_wait: many(),
            l2_tie: many(),
            l2_all_paused: Default::default(),
            c3_pair: many(),
            c3_below: many(),
            c3_any: many(),
            c3_all_paused: Default::default(),
            keep_left3: many(),
            keep_right3: many(),
            l3_keep_left: many(),
            l3_keep_right: many(),
            l3_least: many(),
            l3_any: many(),
            l3_tie_wait: many(),
            l3_tie: many(),
            l3_all_paused: Default::default(),
            c4_pair: many(),
            c4_below: many(),
            c4_any: many(),
            c4_all_paused: Default::default(),
            keep_left4: many(),
            keep_right4: many(),
            l4_keep_left: many(),
            l4_keep_right: many(),
            l4_least: many(),
            l4_any: many(),
            l4_tie_wait: many(),
            l4_tie: many(),
            l4_all_paused: Default::default(),
            c5_pair: many(),
            c5_below: many(),
            c5_any: many(),
            c5_all_paused: Default::default(),
            keep_left5: many(),
            keep_right5: many(),
            l5_keep_left: many(),
            l5_keep_right: many(),
            l5_least: many(),
            l5_any: many(),
            l5_tie_wait: many(),
            l5_tie: many(),
            l5_all_paused: Default::default(),
            c6_pair: many(),
            c6_below: many(),
            c6_any: many(),
            c6_all_paused: Default::default(),
            keep_left6: many(),
            keep_right6: many(),
            l6_keep_left: many(),
            l6_keep_right: many(),
            l6_least: many(),
            l6_any: many(),
            l6_tie_wait: many(),
            l6_tie: many(),
            l6_all_paused: Default::default(),
            tie_all_paused: Default::default(),
        }
    }
}

impl Logic for LeastOccupied {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..MEMBERS {
            self.s1_occupancy[k].clock.next = self.clock.val();
            self.s1_in_set[k].clock.next = self.clock.val();
            self.s1_paused_classes[k].clock.next = self.clock.val();
            self.s2_occupancy[k].clock.next = self.clock.val();
            self.s2_in_set[k].clock.next = self.clock.val();
            self.s2_paused[k].clock.next = self.clock.val();
            self.s3_candidate[k].clock.next = self.clock.val();
            self.s1_occupancy[k].d.next = self.occupancy_bytes_of[k].val();
            self.s1_in_set[k].d.next = self.set_size.val() > k.to_bits::<7>();
            self.s1_paused_classes[k].d.next = self.paused_classes_of[k].val();
            self.s2_occupancy[k].d.next = self.s1_occupancy[k].q.val();
            self.s2_in_set[k].d.next = self.s1_in_set[k].q.val();
            self.s2_paused[k].d.next = self.s1_paused_classes[k].q.val().get_bit(self.s1_tc.q.val().index());
            self.unpaused[k].next = self.s1_in_set[k].q.val() & !self.s1_paused_classes[k].q.val().get_bit(self.s1_tc.q.val().index());
        }
        self.s1_tc.clock.next = self.clock.val();
        self.s1_tc.d.next = self.tc.val();
        // stage 1 -> 2: groups of four with an unpaused member of the set
        for g in 0..GROUPS {
            self.s2_group_unpaused[g].clock.next = self.clock.val();
            self.s2_group_unpaused[g].d.next = self.unpaused[4 * g].val() | self.unpaused[4 * g + 1].val()
                | self.unpaused[4 * g + 2].val() | self.unpaused[4 * g + 3].val();
        }
        // stage 2 -> 3: the candidates
        self.any_unpaused.next = false;
        for g in 0..GROUPS {
            if self.s2_group_unpaused[g].q.val() {
                self.any_unpaused.next = true;
            }
        }
        self.s3_all_paused.clock.next = self.clock.val();
        self.s3_all_paused.d.next = self.pfc_aware.val() & !self.any_unpaused.val();
        for k in 0..MEMBERS {
            self.s3_candidate[k].d.next = self.s2_in_set[k].q.val()
                & (!self.pfc_aware.val() | !self.any_unpaused.val() | !self.s2_paused[k].q.val());
        }
        for k in 0..MEMBERS {
            self.l0_tie[k].clock.next = self.clock.val();
            self.l0_tie[k].d.next = self.s3_candidate[k].q.val();
        }
        // level 1, compare: the pair and which is strictly below the other
        for k in 0..64 {
            self.c1_pair[k].clock.next = self.clock.val();
            self.c1_below[k].clock.next = self.clock.val();
            self.c1_pair[k].d.next = self.s2_occupancy[k].q.val();
        }
        for i in 0..32 {
            self.c1_below[2 * i].d.next = self.s2_occupancy[2 * i].q.val() < self.s2_occupancy[2 * i + 1].q.val();
            self.c1_below[2 * i + 1].d.next = self.s2_occupancy[2 * i + 1].q.val() < self.s2_occupancy[2 * i].q.val();
        }
        // level 1, choose: keep the subtree at or below the other
        self.l1_all_paused.clock.next = self.clock.val();
        self.l1_all_paused.d.next = self.s3_all_paused.q.val();
        for i in 0..32 {
            self.l1_least[i].clock.next = self.clock.val();
            self.l1_any[i].clock.next = self.clock.val();
            self.l1_keep_left[i].clock.next = self.clock.val();
            self.l1_keep_right[i].clock.next = self.clock.val();
            self.keep_left1[i].next = self.s3_candidate[2 * i].q.val()
                & (!self.s3_candidate[2 * i + 1].q.val() | !self.c1_below[2 * i + 1].q.val());
            self.keep_right1[i].next = self.s3_candidate[2 * i + 1].q.val()
                & (!self.s3_candidate[2 * i].q.val() | !self.c1_below[2 * i].q.val());
            self.l1_keep_left[i].d.next = self.keep_left1[i].val();
            self.l1_keep_right[i].d.next = self.keep_right1[i].val();
            if self.keep_left1[i].val() {
                self.l1_least[i].d.next = self.c1_pair[2 * i].q.val();
            } else {
                self.l1_least[i].d.next = self.c1_pair[2 * i + 1].q.val();
            }
            self.l1_any[i].d.next = self.s3_candidate[2 * i].q.val() | self.s3_candidate[2 * i + 1].q.val();
        }
        // level 1's tie bits, from its registered decisions, a stage later
        for i in 0..32 {
            for b in 0..1 {
                self.l1_tie[2 * i + b].d.next = self.l0_tie[2 * i + b].q.val() & self.l1_keep_left[i].q.val();
                self.l1_tie[2 * i + 1 + b].d.next = self.l0_tie[2 * i + 1 + b].q.val() & self.l1_keep_right[i].q.val();
            }
        }
        for k in 0..MEMBERS {
            self.l1_tie[k].clock.next = self.clock.val();
        }
        // level 2, compare: the pair and which is strictly below the other
        for k in 0..32 {
            self.c2_pair[k].clock.next = self.clock.val();
            self.c2_below[k].clock.next = self.clock.val();
            self.c2_pair[k].d.next = self.l1_least[k].q.val();
            self.c2_any[k].clock.next = self.clock.val();
            self.c2_any[k].d.next = self.l1_any[k].q.val();
        }
        for i in 0..16 {
            self.c2_below[2 * i].d.next = self.l1_least[2 * i].q.val() < self.l1_least[2 * i + 1].q.val();
            self.c2_below[2 * i + 1].d.next = self.l1_least[2 * i + 1].q.val() < self.l1_least[2 * i].q.val();
        }
        self.c2_all_paused.clock.next = self.clock.val();
        self.c2_all_paused.d.next = self.l1_all_paused.q.val();
        // level 2, choose: keep the subtree at or below the other
        self.l2_all_paused.clock.next = self.clock.val();
        self.l2_all_paused.d.next = self.c2_all_paused.q.val();
        for i in 0..16 {
            self.l2_least[i].clock.next = self.clock.val();
            self.l2_any[i].clock.next = self.clock.val();
            self.l2_keep_left[i].clock.next = self.clock.val();
            self.l2_keep_right[i].clock.next = self.clock.val();
            self.keep_left2[i].next = self.c2_any[2 * i].q.val()
                & (!self.c2_any[2 * i + 1].q.val() | !self.c2_below[2 * i + 1].q.val());
            self.keep_right2[i].next = self.c2_any[2 * i + 1].q.val()
                & (!self.c2_any[2 * i].q.val() | !self.c2_below[2 * i].q.val());
            self.l2_keep_left[i].d.next = self.keep_left2[i].val();
            self.l2_keep_right[i].d.next = self.keep_right2[i].val();
            if self.keep_left2[i].val() {
                self.l2_least[i].d.next = self.c2_pair[2 * i].q.val();
            } else {
                self.l2_least[i].d.next = self.c2_pair[2 * i + 1].q.val();
            }
            self.l2_any[i].d.next = self.c2_any[2 * i].q.val() | self.c2_any[2 * i + 1].q.val();
        }
        for k in 0..MEMBERS {
            self.l2_tie_wait[k].clock.next = self.clock.val();
            self.l2_tie_wait[k].d.next = self.l1_tie[k].q.val();
        }
        // level 2's tie bits, from its registered decisions, a stage later
        for i in 0..16 {
            for b in 0..2 {
                self.l2_tie[4 * i + b].d.next = self.l2_tie_wait[4 * i + b].q.val() & self.l2_keep_left[i].q.val();
                self.l2_tie[4 * i + 2 + b].d.next = self.l2_tie_wait[4 * i + 2 + b].q.val() & self.l2_keep_right[i].q.val();
            }
        }
        for k in 0..MEMBERS {
            self.l2_tie[k].clock.next = self.clock.val();
        }
        // level 3, compare: the pair and which is strictly below the other
        for k in 0..16 {
            self.c3_pair[k].clock.next = self.clock.val();
            self.c3_below[k].clock.next = self.clock.val();
            self.c3_pair[k].d.next = self.l2_least[k].q.val();
            self.c3_any[k].clock.next = self.clock.val();
            self.c3_any[k].d.next = self.l2_any[k].q.val();
        }
        for i in 0..8 {
            self.c3_below[2 * i].d.next = self.l2_least[2 * i].q.val() < self.l2_least[2 * i + 1].q.val();
            self.c3_below[2 * i + 1].d.next = self.l2_least[2 * i + 1].q.val() < self.l2_least[2 * i].q.val();
        }
        self.c3_all_paused.clock.next = self.clock.val();
        self.c3_all_paused.d.next = self.l2_all_paused.q.val();
        // level 3, choose: keep the subtree at or below the other
        self.l3_all_paused.clock.next = self.clock.val();
        self.l3_all_paused.d.next = self.c3_all_paused.q.val();
        for i in 0..8 {
            self.l3_least[i].clock.next = self.clock.val();
            self.l3_any[i].clock.next = self.clock.val();
            self.l3_keep_left[i].clock.next = self.clock.val();
            self.l3_keep_right[i].clock.next = self.clock.val();
            self.keep_left3[i].next = self.c3_any[2 * i].q.val()
                & (!self.c3_any[2 * i + 1].q.val() | !self.c3_below[2 * i + 1].q.val());
            self.keep_right3[i].next = self.c3_any[2 * i + 1].q.val()
                & (!self.c3_any[2 * i].q.val() | !self.c3_below[2 * i].q.val());
            self.l3_keep_left[i].d.next = self.keep_left3[i].val();
            self.l3_keep_right[i].d.next = self.keep_right3[i].val();
            if self.keep_left3[i].val() {
                self.l3_least[i].d.next = self.c3_pair[2 * i].q.val();
            } else {
                self.l3_least[i].d.next = self.c3_pair[2 * i + 1].q.val();
            }
            self.l3_any[i].d.next = self.c3_any[2 * i].q.val() | self.c3_any[2 * i + 1].q.val();
        }
        for k in 0..MEMBERS {
            self.l3_tie_wait[k].clock.next = self.clock.val();
            self.l3_tie_wait[k].d.next = self.l2_tie[k].q.val();
        }
        // level 3's tie bits, from its registered decisions, a stage later
        for i in 0..8 {
            for b in 0..4 {
                self.l3_tie[8 * i + b].d.next = self.l3_tie_wait[8 * i + b].q.val() & self.l3_keep_left[i].q.val();
                self.l3_tie[8 * i + 4 + b].d.next = self.l3_tie_wait[8 * i + 4 + b].q.val() & self.l3_keep_right[i].q.val();
            }
        }
        for k in 0..MEMBERS {
            self.l3_tie[k].clock.next = self.clock.val();
        }
        // level 4, compare: the pair and which is strictly below the other
        for k in 0..8 {
            self.c4_pair[k].clock.next = self.clock.val();
            self.c4_below[k].clock.next = self.clock.val();
            self.c4_pair[k].d.next = self.l3_least[k].q.val();
            self.c4_any[k].clock.next = self.clock.val();
            self.c4_any[k].d.next = self.l3_any[k].q.val();
        }
        for i in 0..4 {
            self.c4_below[2 * i].d.next = self.l3_least[2 * i].q.val() < self.l3_least[2 * i + 1].q.val();
            self.c4_below[2 * i + 1].d.next = self.l3_least[2 * i + 1].q.val() < self.l3_least[2 * i].q.val();
        }
        self.c4_all_paused.clock.next = self.clock.val();
        self.c4_all_paused.d.next = self.l3_all_paused.q.val();
        // level 4, choose: keep the subtree at or below the other
        self.l4_all_paused.clock.next = self.clock.val();
        self.l4_all_paused.d.next = self.c4_all_paused.q.val();
        for i in 0..4 {
            self.l4_least[i].clock.next = self.clock.val();
            self.l4_any[i].clock.next = self.clock.val();
            self.l4_keep_left[i].clock.next = self.clock.val();
            self.l4_keep_right[i].clock.next = self.clock.val();
            self.keep_left4[i].next = self.c4_any[2 * i].q.val()
                & (!self.c4_any[2 * i + 1].q.val() | !self.c4_below[2 * i + 1].q.val());
            self.keep_right4[i].next = self.c4_any[2 * i + 1].q.val()
                & (!self.c4_any[2 * i].q.val() | !self.c4_below[2 * i].q.val());
            self.l4_keep_left[i].d.next = self.keep_left4[i].val();
            self.l4_keep_right[i].d.next = self.keep_right4[i].val();
            if self.keep_left4[i].val() {
                self.l4_least[i].d.next = self.c4_pair[2 * i].q.val();
            } else {
                self.l4_least[i].d.next = self.c4_pair[2 * i + 1].q.val();
            }
            self.l4_any[i].d.next = self.c4_any[2 * i].q.val() | self.c4_any[2 * i + 1].q.val();
        }
        for k in 0..MEMBERS {
            self.l4_tie_wait[k].clock.next = self.clock.val();
            self.l4_tie_wait[k].d.next = self.l3_tie[k].q.val();
        }
        // level 4's tie bits, from its registered decisions, a stage later
        for i in 0..4 {
            for b in 0..8 {
                self.l4_tie[16 * i + b].d.next = self.l4_tie_wait[16 * i + b].q.val() & self.l4_keep_left[i].q.val();
                self.l4_tie[16 * i + 8 + b].d.next = self.l4_tie_wait[16 * i + 8 + b].q.val() & self.l4_keep_right[i].q.val();
            }
        }
        for k in 0..MEMBERS {
            self.l4_tie[k].clock.next = self.clock.val();
        }
        // level 5, compare: the pair and which is strictly below the other
        for k in 0..4 {
            self.c5_pair[k].clock.next = self.clock.val();
            self.c5_below[k].clock.next = self.clock.val();
            self.c5_pair[k].d.next = self.l4_least[k].q.val();
            self.c5_any[k].clock.next = self.clock.val();
            self.c5_any[k].d.next = self.l4_any[k].q.val();
        }
        for i in 0..2 {
            self.c5_below[2 * i].d.next = self.l4_least[2 * i].q.val() < self.l4_least[2 * i + 1].q.val();
            self.c5_below[2 * i + 1].d.next = self.l4_least[2 * i + 1].q.val() < self.l4_least[2 * i].q.val();
        }
        self.c5_all_paused.clock.next = self.clock.val();
        self.c5_all_paused.d.next = self.l4_all_paused.q.val();
        // level 5, choose: keep the subtree at or below the other
        self.l5_all_paused.clock.next = self.clock.val();
        self.l5_all_paused.d.next = self.c5_all_paused.q.val();
        for i in 0..2 {
            self.l5_least[i].clock.next = self.clock.val();
            self.l5_any[i].clock.next = self.clock.val();
            self.l5_keep_left[i].clock.next = self.clock.val();
            self.l5_keep_right[i].clock.next = self.clock.val();
            self.keep_left5[i].next = self.c5_any[2 * i].q.val()
                & (!self.c5_any[2 * i + 1].q.val() | !self.c5_below[2 * i + 1].q.val());
            self.keep_right5[i].next = self.c5_any[2 * i + 1].q.val()
                & (!self.c5_any[2 * i].q.val() | !self.c5_below[2 * i].q.val());
            self.l5_keep_left[i].d.next = self.keep_left5[i].val();
            self.l5_keep_right[i].d.next = self.keep_right5[i].val();
            if self.keep_left5[i].val() {
                self.l5_least[i].d.next = self.c5_pair[2 * i].q.val();
            } else {
                self.l5_least[i].d.next = self.c5_pair[2 * i + 1].q.val();
            }
            self.l5_any[i].d.next = self.c5_any[2 * i].q.val() | self.c5_any[2 * i + 1].q.val();
        }
        for k in 0..MEMBERS {
            self.l5_tie_wait[k].clock.next = self.clock.val();
            self.l5_tie_wait[k].d.next = self.l4_tie[k].q.val();
        }
        // level 5's tie bits, from its registered decisions, a stage later
        for i in 0..2 {
            for b in 0..16 {
                self.l5_tie[32 * i + b].d.next = self.l5_tie_wait[32 * i + b].q.val() & self.l5_keep_left[i].q.val();
                self.l5_tie[32 * i + 16 + b].d.next = self.l5_tie_wait[32 * i + 16 + b].q.val() & self.l5_keep_right[i].q.val();
            }
        }
        for k in 0..MEMBERS {
            self.l5_tie[k].clock.next = self.clock.val();
        }
        // level 6, compare: the pair and which is strictly below the other
        for k in 0..2 {
            self.c6_pair[k].clock.next = self.clock.val();
            self.c6_below[k].clock.next = self.clock.val();
            self.c6_pair[k].d.next = self.l5_least[k].q.val();
            self.c6_any[k].clock.next = self.clock.val();
            self.c6_any[k].d.next = self.l5_any[k].q.val();
        }
        for i in 0..1 {
            self.c6_below[2 * i].d.next = self.l5_least[2 * i].q.val() < self.l5_least[2 * i + 1].q.val();
            self.c6_below[2 * i + 1].d.next = self.l5_least[2 * i + 1].q.val() < self.l5_least[2 * i].q.val();
        }
        self.c6_all_paused.clock.next = self.clock.val();
        self.c6_all_paused.d.next = self.l5_all_paused.q.val();
        // level 6, choose: keep the subtree at or below the other
        self.l6_all_paused.clock.next = self.clock.val();
        self.l6_all_paused.d.next = self.c6_all_paused.q.val();
        for i in 0..1 {
            self.l6_least[i].clock.next = self.clock.val();
            self.l6_any[i].clock.next = self.clock.val();
            self.l6_keep_left[i].clock.next = self.clock.val();
            self.l6_keep_right[i].clock.next = self.clock.val();
            self.keep_left6[i].next = self.c6_any[2 * i].q.val()
                & (!self.c6_any[2 * i + 1].q.val() | !self.c6_below[2 * i + 1].q.val());
            self.keep_right6[i].next = self.c6_any[2 * i + 1].q.val()
                & (!self.c6_any[2 * i].q.val() | !self.c6_below[2 * i].q.val());
            self.l6_keep_left[i].d.next = self.keep_left6[i].val();
            self.l6_keep_right[i].d.next = self.keep_right6[i].val();
            if self.keep_left6[i].val() {
                self.l6_least[i].d.next = self.c6_pair[2 * i].q.val();
            } else {
                self.l6_least[i].d.next = self.c6_pair[2 * i + 1].q.val();
            }
            self.l6_any[i].d.next = self.c6_any[2 * i].q.val() | self.c6_any[2 * i + 1].q.val();
        }
        for k in 0..MEMBERS {
            self.l6_tie_wait[k].clock.next = self.clock.val();
            self.l6_tie_wait[k].d.next = self.l5_tie[k].q.val();
        }
        // level 6's tie bits, from its registered decisions, a stage later
        for i in 0..1 {
            for b in 0..32 {
                self.l6_tie[64 * i + b].d.next = self.l6_tie_wait[64 * i + b].q.val() & self.l6_keep_left[i].q.val();
                self.l6_tie[64 * i + 32 + b].d.next = self.l6_tie_wait[64 * i + 32 + b].q.val() & self.l6_keep_right[i].q.val();
            }
        }
        for k in 0..MEMBERS {
            self.l6_tie[k].clock.next = self.clock.val();
        }
        self.tie_all_paused.clock.next = self.clock.val();
        self.tie_all_paused.d.next = self.l6_all_paused.q.val();
        for k in 0..MEMBERS {
            self.tie_mask[k].next = self.l6_tie[k].q.val();
        }
        self.all_paused.next = self.tie_all_paused.q.val();
    }
}
