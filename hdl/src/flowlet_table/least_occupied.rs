//! Least occupied: which candidate members of a set hold the fewest
//! bytes at their egress port. A member is a candidate when it is in the
//! set (index below `set_size`) and, with PFC awareness, its port is not
//! paused for the packet's class, unless every member is paused.
//!
//! The minimum is found by a tree of pairwise comparisons, one level per
//! stage; each leaf keeps a tie bit that a level clears when its subtree
//! loses. After the last level the tie bits mark exactly the candidates
//! at the minimum. A level's decisions (keep the left, keep the right
//! subtree) are registered, and the tie bits take them a stage later:
//! the comparison's carry chain then drives only the 32 bits of the
//! winner's occupancy, not up to 64 tie bits as well.
//!
//! Ports (all on `clock`):
//! * members, cycle 0: `occupancy_bytes_of[64]` (bytes), `paused_of[64]`,
//!   `set_size` (7 bits, members)
//! * configuration: `pfc_aware`
//! * answer, cycle 9 (LATENCY): `tie_mask[64]`, `all_paused` (PFC aware
//!   and every member paused, so all were candidates)
//!
//! Latency 9 cycles, one set per cycle.
//!
//! ```text
//!  occupancy, paused ─►[in set, paused]─►[candidates]─►[64→32]─►[32→16]─► ... ─►[2→1]
//!  tie bits                                  └────────►[level 1]─► ... ─►[level 5]─►[level 6]─► tie_mask
//! ```
//!
//! Every register is a [`StageRegister`] of a rank (the cycle its output
//! is in); a build given [`WiredRanks`] leaves those ranks out, so that a
//! slower clock does two levels in one cycle (latency `9 - count`).
//!
//! This file is written by `scripts/gen/least_occupied.py` (each level is
//! its own set of registers).

use super::set_table::MEMBERS;
use crate::build_checks::many;
use crate::stage_register::{StageRegister, WiredRanks};
use rust_hdl::prelude::*;

/// Cycles from the members to the tie mask, every rank kept.
pub const LATENCY: usize = 9;

#[derive(LogicBlock)]
pub struct LeastOccupied {
    pub clock: Signal<In, Clock>,
    // members
    pub occupancy_bytes_of: [Signal<In, Bits<32>>; MEMBERS],
    pub paused_of: [Signal<In, Bit>; MEMBERS],
    pub set_size: Signal<In, Bits<7>>,
    // configuration
    pub pfc_aware: Signal<In, Bit>,
    // answer
    pub tie_mask: [Signal<Out, Bit>; MEMBERS],
    pub all_paused: Signal<Out, Bit>,
    // stage 1: membership
    s1_occupancy: [StageRegister<Bits<32>>; MEMBERS],
    s1_in_set: [StageRegister<Bit>; MEMBERS],
    s1_paused: [StageRegister<Bit>; MEMBERS],
    every_member_paused: Signal<Local, Bit>,
    // stage 2: candidates, the leaves of the tree
    s2_occupancy: [StageRegister<Bits<32>>; MEMBERS],
    s2_candidate: [StageRegister<Bit>; MEMBERS],
    s2_all_paused: StageRegister<Bit>,
    /// The candidates, a stage later: the tie bits before level 1.
    l0_tie: [StageRegister<Bit>; MEMBERS],
    // level 1: 32 subtrees of 2
    keep_left1: [Signal<Local, Bit>; 32],
    keep_right1: [Signal<Local, Bit>; 32],
    l1_keep_left: [StageRegister<Bit>; 32],
    l1_keep_right: [StageRegister<Bit>; 32],
    l1_least: [StageRegister<Bits<32>>; 32],
    l1_any: [StageRegister<Bit>; 32],
    l1_tie: [StageRegister<Bit>; MEMBERS],
    l1_all_paused: StageRegister<Bit>,
    // level 2: 16 subtrees of 4
    keep_left2: [Signal<Local, Bit>; 16],
    keep_right2: [Signal<Local, Bit>; 16],
    l2_keep_left: [StageRegister<Bit>; 16],
    l2_keep_right: [StageRegister<Bit>; 16],
    l2_least: [StageRegister<Bits<32>>; 16],
    l2_any: [StageRegister<Bit>; 16],
    l2_tie: [StageRegister<Bit>; MEMBERS],
    l2_all_paused: StageRegister<Bit>,
    // level 3: 8 subtrees of 8
    keep_left3: [Signal<Local, Bit>; 8],
    keep_right3: [Signal<Local, Bit>; 8],
    l3_keep_left: [StageRegister<Bit>; 8],
    l3_keep_right: [StageRegister<Bit>; 8],
    l3_least: [StageRegister<Bits<32>>; 8],
    l3_any: [StageRegister<Bit>; 8],
    l3_tie: [StageRegister<Bit>; MEMBERS],
    l3_all_paused: StageRegister<Bit>,
    // level 4: 4 subtrees of 16
    keep_left4: [Signal<Local, Bit>; 4],
    keep_right4: [Signal<Local, Bit>; 4],
    l4_keep_left: [StageRegister<Bit>; 4],
    l4_keep_right: [StageRegister<Bit>; 4],
    l4_least: [StageRegister<Bits<32>>; 4],
    l4_any: [StageRegister<Bit>; 4],
    l4_tie: [StageRegister<Bit>; MEMBERS],
    l4_all_paused: StageRegister<Bit>,
    // level 5: 2 subtrees of 32
    keep_left5: [Signal<Local, Bit>; 2],
    keep_right5: [Signal<Local, Bit>; 2],
    l5_keep_left: [StageRegister<Bit>; 2],
    l5_keep_right: [StageRegister<Bit>; 2],
    l5_least: [StageRegister<Bits<32>>; 2],
    l5_any: [StageRegister<Bit>; 2],
    l5_tie: [StageRegister<Bit>; MEMBERS],
    l5_all_paused: StageRegister<Bit>,
    // level 6: 1 subtrees of 64
    keep_left6: [Signal<Local, Bit>; 1],
    keep_right6: [Signal<Local, Bit>; 1],
    l6_keep_left: [StageRegister<Bit>; 1],
    l6_keep_right: [StageRegister<Bit>; 1],
    l6_least: [StageRegister<Bits<32>>; 1],
    l6_any: [StageRegister<Bit>; 1],
    l6_tie: [StageRegister<Bit>; MEMBERS],
    l6_all_paused: StageRegister<Bit>,
    /// Every member paused, in the stage of the last tie bits.
    tie_all_paused: StageRegister<Bit>,
}

impl LeastOccupied {
    /// The block, leaving out the registers of the `wired` ranks.
    pub fn new(wired: WiredRanks) -> Self {
        Self {
            clock: Default::default(),
            occupancy_bytes_of: many(),
            paused_of: many(),
            set_size: Default::default(),
            pfc_aware: Default::default(),
            tie_mask: many(),
            all_paused: Default::default(),
            s1_occupancy: wired.stages(1),
            s1_in_set: wired.stages(1),
            s1_paused: wired.stages(1),
            every_member_paused: Default::default(),
            s2_occupancy: wired.stages(2),
            s2_candidate: wired.stages(2),
            s2_all_paused: wired.stage(2),
            l0_tie: wired.stages(3),
            keep_left1: many(),
            keep_right1: many(),
            l1_keep_left: wired.stages(3),
            l1_keep_right: wired.stages(3),
            l1_least: wired.stages(3),
            l1_any: wired.stages(3),
            l1_tie: wired.stages(4),
            l1_all_paused: wired.stage(3),
            keep_left2: many(),
            keep_right2: many(),
            l2_keep_left: wired.stages(4),
            l2_keep_right: wired.stages(4),
            l2_least: wired.stages(4),
            l2_any: wired.stages(4),
            l2_tie: wired.stages(5),
            l2_all_paused: wired.stage(4),
            keep_left3: many(),
            keep_right3: many(),
            l3_keep_left: wired.stages(5),
            l3_keep_right: wired.stages(5),
            l3_least: wired.stages(5),
            l3_any: wired.stages(5),
            l3_tie: wired.stages(6),
            l3_all_paused: wired.stage(5),
            keep_left4: many(),
            keep_right4: many(),
            l4_keep_left: wired.stages(6),
            l4_keep_right: wired.stages(6),
            l4_least: wired.stages(6),
            l4_any: wired.stages(6),
            l4_tie: wired.stages(7),
            l4_all_paused: wired.stage(6),
            keep_left5: many(),
            keep_right5: many(),
            l5_keep_left: wired.stages(7),
            l5_keep_right: wired.stages(7),
            l5_least: wired.stages(7),
            l5_any: wired.stages(7),
            l5_tie: wired.stages(8),
            l5_all_paused: wired.stage(7),
            keep_left6: many(),
            keep_right6: many(),
            l6_keep_left: wired.stages(8),
            l6_keep_right: wired.stages(8),
            l6_least: wired.stages(8),
            l6_any: wired.stages(8),
            l6_tie: wired.stages(9),
            l6_all_paused: wired.stage(8),
            tie_all_paused: wired.stage(9),
        }
    }
}

impl Logic for LeastOccupied {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..MEMBERS {
            self.s1_occupancy[k].clock.next = self.clock.val();
            self.s1_in_set[k].clock.next = self.clock.val();
            self.s1_paused[k].clock.next = self.clock.val();
            self.s2_occupancy[k].clock.next = self.clock.val();
            self.s2_candidate[k].clock.next = self.clock.val();
            self.s1_occupancy[k].d.next = self.occupancy_bytes_of[k].val();
            self.s1_in_set[k].d.next = self.set_size.val() > k.to_bits::<7>();
            self.s1_paused[k].d.next = self.paused_of[k].val();
        }
        self.s2_all_paused.clock.next = self.clock.val();
        // stage 1 -> 2: every member of the set paused?
        self.every_member_paused.next = true;
        for k in 0..MEMBERS {
            if self.s1_in_set[k].q.val() & !self.s1_paused[k].q.val() {
                self.every_member_paused.next = false;
            }
        }
        self.s2_all_paused.d.next = self.pfc_aware.val() & self.every_member_paused.val();
        for k in 0..MEMBERS {
            self.s2_occupancy[k].d.next = self.s1_occupancy[k].q.val();
            self.s2_candidate[k].d.next = self.s1_in_set[k].q.val()
                & (!self.pfc_aware.val() | self.every_member_paused.val() | !self.s1_paused[k].q.val());
        }
        for k in 0..MEMBERS {
            self.l0_tie[k].clock.next = self.clock.val();
            self.l0_tie[k].d.next = self.s2_candidate[k].q.val();
        }
        // level 1: the comparisons, registered
        self.l1_all_paused.clock.next = self.clock.val();
        self.l1_all_paused.d.next = self.s2_all_paused.q.val();
        for i in 0..32 {
            self.l1_least[i].clock.next = self.clock.val();
            self.l1_any[i].clock.next = self.clock.val();
            self.l1_keep_left[i].clock.next = self.clock.val();
            self.l1_keep_right[i].clock.next = self.clock.val();
            self.keep_left1[i].next = self.s2_candidate[2 * i].q.val()
                & (!self.s2_candidate[2 * i + 1].q.val() | (self.s2_occupancy[2 * i].q.val() <= self.s2_occupancy[2 * i + 1].q.val()));
            self.keep_right1[i].next = self.s2_candidate[2 * i + 1].q.val()
                & (!self.s2_candidate[2 * i].q.val() | (self.s2_occupancy[2 * i + 1].q.val() <= self.s2_occupancy[2 * i].q.val()));
            self.l1_keep_left[i].d.next = self.keep_left1[i].val();
            self.l1_keep_right[i].d.next = self.keep_right1[i].val();
            if self.keep_left1[i].val() {
                self.l1_least[i].d.next = self.s2_occupancy[2 * i].q.val();
            } else {
                self.l1_least[i].d.next = self.s2_occupancy[2 * i + 1].q.val();
            }
            self.l1_any[i].d.next = self.s2_candidate[2 * i].q.val() | self.s2_candidate[2 * i + 1].q.val();
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
        // level 2: the comparisons, registered
        self.l2_all_paused.clock.next = self.clock.val();
        self.l2_all_paused.d.next = self.l1_all_paused.q.val();
        for i in 0..16 {
            self.l2_least[i].clock.next = self.clock.val();
            self.l2_any[i].clock.next = self.clock.val();
            self.l2_keep_left[i].clock.next = self.clock.val();
            self.l2_keep_right[i].clock.next = self.clock.val();
            self.keep_left2[i].next = self.l1_any[2 * i].q.val()
                & (!self.l1_any[2 * i + 1].q.val() | (self.l1_least[2 * i].q.val() <= self.l1_least[2 * i + 1].q.val()));
            self.keep_right2[i].next = self.l1_any[2 * i + 1].q.val()
                & (!self.l1_any[2 * i].q.val() | (self.l1_least[2 * i + 1].q.val() <= self.l1_least[2 * i].q.val()));
            self.l2_keep_left[i].d.next = self.keep_left2[i].val();
            self.l2_keep_right[i].d.next = self.keep_right2[i].val();
            if self.keep_left2[i].val() {
                self.l2_least[i].d.next = self.l1_least[2 * i].q.val();
            } else {
                self.l2_least[i].d.next = self.l1_least[2 * i + 1].q.val();
            }
            self.l2_any[i].d.next = self.l1_any[2 * i].q.val() | self.l1_any[2 * i + 1].q.val();
        }
        // level 2's tie bits, from its registered decisions, a stage later
        for i in 0..16 {
            for b in 0..2 {
                self.l2_tie[4 * i + b].d.next = self.l1_tie[4 * i + b].q.val() & self.l2_keep_left[i].q.val();
                self.l2_tie[4 * i + 2 + b].d.next = self.l1_tie[4 * i + 2 + b].q.val() & self.l2_keep_right[i].q.val();
            }
        }
        for k in 0..MEMBERS {
            self.l2_tie[k].clock.next = self.clock.val();
        }
        // level 3: the comparisons, registered
        self.l3_all_paused.clock.next = self.clock.val();
        self.l3_all_paused.d.next = self.l2_all_paused.q.val();
        for i in 0..8 {
            self.l3_least[i].clock.next = self.clock.val();
            self.l3_any[i].clock.next = self.clock.val();
            self.l3_keep_left[i].clock.next = self.clock.val();
            self.l3_keep_right[i].clock.next = self.clock.val();
            self.keep_left3[i].next = self.l2_any[2 * i].q.val()
                & (!self.l2_any[2 * i + 1].q.val() | (self.l2_least[2 * i].q.val() <= self.l2_least[2 * i + 1].q.val()));
            self.keep_right3[i].next = self.l2_any[2 * i + 1].q.val()
                & (!self.l2_any[2 * i].q.val() | (self.l2_least[2 * i + 1].q.val() <= self.l2_least[2 * i].q.val()));
            self.l3_keep_left[i].d.next = self.keep_left3[i].val();
            self.l3_keep_right[i].d.next = self.keep_right3[i].val();
            if self.keep_left3[i].val() {
                self.l3_least[i].d.next = self.l2_least[2 * i].q.val();
            } else {
                self.l3_least[i].d.next = self.l2_least[2 * i + 1].q.val();
            }
            self.l3_any[i].d.next = self.l2_any[2 * i].q.val() | self.l2_any[2 * i + 1].q.val();
        }
        // level 3's tie bits, from its registered decisions, a stage later
        for i in 0..8 {
            for b in 0..4 {
                self.l3_tie[8 * i + b].d.next = self.l2_tie[8 * i + b].q.val() & self.l3_keep_left[i].q.val();
                self.l3_tie[8 * i + 4 + b].d.next = self.l2_tie[8 * i + 4 + b].q.val() & self.l3_keep_right[i].q.val();
            }
        }
        for k in 0..MEMBERS {
            self.l3_tie[k].clock.next = self.clock.val();
        }
        // level 4: the comparisons, registered
        self.l4_all_paused.clock.next = self.clock.val();
        self.l4_all_paused.d.next = self.l3_all_paused.q.val();
        for i in 0..4 {
            self.l4_least[i].clock.next = self.clock.val();
            self.l4_any[i].clock.next = self.clock.val();
            self.l4_keep_left[i].clock.next = self.clock.val();
            self.l4_keep_right[i].clock.next = self.clock.val();
            self.keep_left4[i].next = self.l3_any[2 * i].q.val()
                & (!self.l3_any[2 * i + 1].q.val() | (self.l3_least[2 * i].q.val() <= self.l3_least[2 * i + 1].q.val()));
            self.keep_right4[i].next = self.l3_any[2 * i + 1].q.val()
                & (!self.l3_any[2 * i].q.val() | (self.l3_least[2 * i + 1].q.val() <= self.l3_least[2 * i].q.val()));
            self.l4_keep_left[i].d.next = self.keep_left4[i].val();
            self.l4_keep_right[i].d.next = self.keep_right4[i].val();
            if self.keep_left4[i].val() {
                self.l4_least[i].d.next = self.l3_least[2 * i].q.val();
            } else {
                self.l4_least[i].d.next = self.l3_least[2 * i + 1].q.val();
            }
            self.l4_any[i].d.next = self.l3_any[2 * i].q.val() | self.l3_any[2 * i + 1].q.val();
        }
        // level 4's tie bits, from its registered decisions, a stage later
        for i in 0..4 {
            for b in 0..8 {
                self.l4_tie[16 * i + b].d.next = self.l3_tie[16 * i + b].q.val() & self.l4_keep_left[i].q.val();
                self.l4_tie[16 * i + 8 + b].d.next = self.l3_tie[16 * i + 8 + b].q.val() & self.l4_keep_right[i].q.val();
            }
        }
        for k in 0..MEMBERS {
            self.l4_tie[k].clock.next = self.clock.val();
        }
        // level 5: the comparisons, registered
        self.l5_all_paused.clock.next = self.clock.val();
        self.l5_all_paused.d.next = self.l4_all_paused.q.val();
        for i in 0..2 {
            self.l5_least[i].clock.next = self.clock.val();
            self.l5_any[i].clock.next = self.clock.val();
            self.l5_keep_left[i].clock.next = self.clock.val();
            self.l5_keep_right[i].clock.next = self.clock.val();
            self.keep_left5[i].next = self.l4_any[2 * i].q.val()
                & (!self.l4_any[2 * i + 1].q.val() | (self.l4_least[2 * i].q.val() <= self.l4_least[2 * i + 1].q.val()));
            self.keep_right5[i].next = self.l4_any[2 * i + 1].q.val()
                & (!self.l4_any[2 * i].q.val() | (self.l4_least[2 * i + 1].q.val() <= self.l4_least[2 * i].q.val()));
            self.l5_keep_left[i].d.next = self.keep_left5[i].val();
            self.l5_keep_right[i].d.next = self.keep_right5[i].val();
            if self.keep_left5[i].val() {
                self.l5_least[i].d.next = self.l4_least[2 * i].q.val();
            } else {
                self.l5_least[i].d.next = self.l4_least[2 * i + 1].q.val();
            }
            self.l5_any[i].d.next = self.l4_any[2 * i].q.val() | self.l4_any[2 * i + 1].q.val();
        }
        // level 5's tie bits, from its registered decisions, a stage later
        for i in 0..2 {
            for b in 0..16 {
                self.l5_tie[32 * i + b].d.next = self.l4_tie[32 * i + b].q.val() & self.l5_keep_left[i].q.val();
                self.l5_tie[32 * i + 16 + b].d.next = self.l4_tie[32 * i + 16 + b].q.val() & self.l5_keep_right[i].q.val();
            }
        }
        for k in 0..MEMBERS {
            self.l5_tie[k].clock.next = self.clock.val();
        }
        // level 6: the comparisons, registered
        self.l6_all_paused.clock.next = self.clock.val();
        self.l6_all_paused.d.next = self.l5_all_paused.q.val();
        for i in 0..1 {
            self.l6_least[i].clock.next = self.clock.val();
            self.l6_any[i].clock.next = self.clock.val();
            self.l6_keep_left[i].clock.next = self.clock.val();
            self.l6_keep_right[i].clock.next = self.clock.val();
            self.keep_left6[i].next = self.l5_any[2 * i].q.val()
                & (!self.l5_any[2 * i + 1].q.val() | (self.l5_least[2 * i].q.val() <= self.l5_least[2 * i + 1].q.val()));
            self.keep_right6[i].next = self.l5_any[2 * i + 1].q.val()
                & (!self.l5_any[2 * i].q.val() | (self.l5_least[2 * i + 1].q.val() <= self.l5_least[2 * i].q.val()));
            self.l6_keep_left[i].d.next = self.keep_left6[i].val();
            self.l6_keep_right[i].d.next = self.keep_right6[i].val();
            if self.keep_left6[i].val() {
                self.l6_least[i].d.next = self.l5_least[2 * i].q.val();
            } else {
                self.l6_least[i].d.next = self.l5_least[2 * i + 1].q.val();
            }
            self.l6_any[i].d.next = self.l5_any[2 * i].q.val() | self.l5_any[2 * i + 1].q.val();
        }
        // level 6's tie bits, from its registered decisions, a stage later
        for i in 0..1 {
            for b in 0..32 {
                self.l6_tie[64 * i + b].d.next = self.l5_tie[64 * i + b].q.val() & self.l6_keep_left[i].q.val();
                self.l6_tie[64 * i + 32 + b].d.next = self.l5_tie[64 * i + 32 + b].q.val() & self.l6_keep_right[i].q.val();
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
