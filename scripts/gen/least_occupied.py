import re
# Writes hdl/src/flowlet_table/least_occupied.rs: the least-occupancy
# reduction over 64 members, two stages per tree level (compare, choose);
# the tie bits follow a stage behind.
LEAVES = 64
LEVELS = 6
out = []
w = out.append
w('''//! Least occupied: which candidate members of a set hold the fewest
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
''')
n = LEAVES
for level in range(1, LEVELS + 1):
    n //= 2
    w(f'''    // level {level}: {n} subtrees of {LEAVES // n}; compare, then choose
    c{level}_pair: [DFF<Bits<32>>; {2 * n}],
    c{level}_below: [DFF<Bit>; {2 * n}],
{'' if level == 1 else f'    c{level}_any: [DFF<Bit>; {2 * n}],' + chr(10) + f'    c{level}_all_paused: DFF<Bit>,' + chr(10)}    keep_left{level}: [Signal<Local, Bit>; {n}],
    keep_right{level}: [Signal<Local, Bit>; {n}],
    l{level}_keep_left: [DFF<Bit>; {n}],
    l{level}_keep_right: [DFF<Bit>; {n}],
    l{level}_least: [DFF<Bits<32>>; {n}],
    l{level}_any: [DFF<Bit>; {n}],
{'' if level == 1 else f'    l{level}_tie_wait: [DFF<Bit>; MEMBERS],' + chr(10)}    l{level}_tie: [DFF<Bit>; MEMBERS],
    l{level}_all_paused: DFF<Bit>,
''')
w('''    /// Every member paused, in the stage of the last tie bits.
    tie_all_paused: DFF<Bit>,
}
''')
src=''.join(out)
struct=src[src.index('pub struct LeastOccupied {'):]
fields=re.findall(r'^    (?:pub )?(\w+): (.+),$', struct, re.M)
w('\nimpl Default for LeastOccupied {\n    fn default() -> Self {\n        Self {\n')
for name, ty in fields:
    w(f'            {name}: {"many()" if ty.startswith("[") else "Default::default()"},\n')
w('        }\n    }\n}\n')
w('''
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
''')
n = LEAVES
prev_least, prev_any, prev_all = 's2_occupancy', 's3_candidate', 's3_all_paused'
for level in range(1, LEVELS + 1):
    n //= 2
    span = LEAVES // n
    half = span // 2
    # level 1 compares stage 2's occupancies beside stage 3, whose
    # candidates and all-paused bit its choose stage then reads directly
    if level == 1:
        any_at_choose, all_at_choose = prev_any, prev_all
        carry = ''
    else:
        any_at_choose, all_at_choose = f'c{level}_any', f'c{level}_all_paused'
        carry = f'''            self.c{level}_any[k].clock.next = self.clock.val();
            self.c{level}_any[k].d.next = self.{prev_any}[k].q.val();
'''
    w(f'''        // level {level}, compare: the pair and which is strictly below the other
        for k in 0..{2 * n} {{
            self.c{level}_pair[k].clock.next = self.clock.val();
            self.c{level}_below[k].clock.next = self.clock.val();
            self.c{level}_pair[k].d.next = self.{prev_least}[k].q.val();
{carry}        }}
        for i in 0..{n} {{
            self.c{level}_below[2 * i].d.next = self.{prev_least}[2 * i].q.val() < self.{prev_least}[2 * i + 1].q.val();
            self.c{level}_below[2 * i + 1].d.next = self.{prev_least}[2 * i + 1].q.val() < self.{prev_least}[2 * i].q.val();
        }}
''')
    if level > 1:
        w(f'''        self.c{level}_all_paused.clock.next = self.clock.val();
        self.c{level}_all_paused.d.next = self.{prev_all}.q.val();
''')
    w(f'''        // level {level}, choose: keep the subtree at or below the other
        self.l{level}_all_paused.clock.next = self.clock.val();
        self.l{level}_all_paused.d.next = self.{all_at_choose}.q.val();
        for i in 0..{n} {{
            self.l{level}_least[i].clock.next = self.clock.val();
            self.l{level}_any[i].clock.next = self.clock.val();
            self.l{level}_keep_left[i].clock.next = self.clock.val();
            self.l{level}_keep_right[i].clock.next = self.clock.val();
            self.keep_left{level}[i].next = self.{any_at_choose}[2 * i].q.val()
                & (!self.{any_at_choose}[2 * i + 1].q.val() | !self.c{level}_below[2 * i + 1].q.val());
            self.keep_right{level}[i].next = self.{any_at_choose}[2 * i + 1].q.val()
                & (!self.{any_at_choose}[2 * i].q.val() | !self.c{level}_below[2 * i].q.val());
            self.l{level}_keep_left[i].d.next = self.keep_left{level}[i].val();
            self.l{level}_keep_right[i].d.next = self.keep_right{level}[i].val();
            if self.keep_left{level}[i].val() {{
                self.l{level}_least[i].d.next = self.c{level}_pair[2 * i].q.val();
            }} else {{
                self.l{level}_least[i].d.next = self.c{level}_pair[2 * i + 1].q.val();
            }}
            self.l{level}_any[i].d.next = self.{any_at_choose}[2 * i].q.val() | self.{any_at_choose}[2 * i + 1].q.val();
        }}
''')
    # the tie bits of the level below, held until this level's decisions
    if level == 1:
        tie_in = 'l0_tie'
    else:
        tie_in = f'l{level}_tie_wait'
        w(f'''        for k in 0..MEMBERS {{
            self.l{level}_tie_wait[k].clock.next = self.clock.val();
            self.l{level}_tie_wait[k].d.next = self.l{level - 1}_tie[k].q.val();
        }}
''')
    w(f'''        // level {level}'s tie bits, from its registered decisions, a stage later
        for i in 0..{n} {{
            for b in 0..{half} {{
                self.l{level}_tie[{span} * i + b].d.next = self.{tie_in}[{span} * i + b].q.val() & self.l{level}_keep_left[i].q.val();
                self.l{level}_tie[{span} * i + {half} + b].d.next = self.{tie_in}[{span} * i + {half} + b].q.val() & self.l{level}_keep_right[i].q.val();
            }}
        }}
        for k in 0..MEMBERS {{
            self.l{level}_tie[k].clock.next = self.clock.val();
        }}
''')
    prev_least, prev_any, prev_all = f'l{level}_least', f'l{level}_any', f'l{level}_all_paused'
prev_tie = f'l{LEVELS}_tie'
w(f'''        self.tie_all_paused.clock.next = self.clock.val();
        self.tie_all_paused.d.next = self.{prev_all}.q.val();
''')
prev_all = 'tie_all_paused'
w(f'''        for k in 0..MEMBERS {{
            self.tie_mask[k].next = self.{prev_tie}[k].q.val();
        }}
        self.all_paused.next = self.{prev_all}.q.val();
    }}
}}
''')
open('hdl/src/flowlet_table/least_occupied.rs', 'w').write(''.join(out))
