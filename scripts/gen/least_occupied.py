import re
# Writes hdl/src/flowlet_table/least_occupied.rs: the least-occupancy
# reduction over 64 members, one tree level per stage; the tie bits
# follow a stage behind.
LEAVES = 64
LEVELS = 6
out = []
w = out.append
w('''//! Least occupied: which candidate members of a set hold the fewest
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
    s1_occupancy: [DFF<Bits<32>>; MEMBERS],
    s1_in_set: [DFF<Bit>; MEMBERS],
    s1_paused: [DFF<Bit>; MEMBERS],
    every_member_paused: Signal<Local, Bit>,
    // stage 2: candidates, the leaves of the tree
    s2_occupancy: [DFF<Bits<32>>; MEMBERS],
    s2_candidate: [DFF<Bit>; MEMBERS],
    s2_all_paused: DFF<Bit>,
    /// The candidates, a stage later: the tie bits before level 1.
    l0_tie: [DFF<Bit>; MEMBERS],
''')
n = LEAVES
for level in range(1, LEVELS + 1):
    n //= 2
    w(f'''    // level {level}: {n} subtrees of {LEAVES // n}
    keep_left{level}: [Signal<Local, Bit>; {n}],
    keep_right{level}: [Signal<Local, Bit>; {n}],
    l{level}_keep_left: [DFF<Bit>; {n}],
    l{level}_keep_right: [DFF<Bit>; {n}],
    l{level}_least: [DFF<Bits<32>>; {n}],
    l{level}_any: [DFF<Bit>; {n}],
    l{level}_tie: [DFF<Bit>; MEMBERS],
    l{level}_all_paused: DFF<Bit>,
''')
w('''    /// Every member paused, in the stage of the last tie bits.
    tie_all_paused: DFF<Bit>,
}
''')

def rank(name):
    """The cycle a register's output is in: the membership stage 1, the
    candidates 2, level L's decisions L + 2, its tie bits L + 3."""
    if name.startswith('s1_'):
        return 1
    if name.startswith('s2_'):
        return 2
    if name == 'tie_all_paused':
        return LEVELS + 3
    level = int(re.match(r'l(\d+)_', name).group(1))
    return level + 3 if name.endswith('_tie') else level + 2

src=''.join(out).replace('DFF<', 'StageRegister<')
out[:] = [src]
struct=src[src.index('pub struct LeastOccupied {'):]
fields=re.findall(r'^    (?:pub )?(\w+): (.+),$', struct, re.M)
w('''
impl LeastOccupied {
    /// The block, leaving out the registers of the `wired` ranks.
    pub fn new(wired: WiredRanks) -> Self {
        Self {
''')
for name, ty in fields:
    if 'StageRegister' in ty:
        value = f'wired.stages({rank(name)})' if ty.startswith('[') else f'wired.stage({rank(name)})'
    else:
        value = 'many()' if ty.startswith('[') else 'Default::default()'
    w(f'            {name}: {value},\n')
w('        }\n    }\n}\n')
w('''
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
''')
n = LEAVES
w('''        for k in 0..MEMBERS {
            self.l0_tie[k].clock.next = self.clock.val();
            self.l0_tie[k].d.next = self.s2_candidate[k].q.val();
        }
''')
prev_least, prev_any, prev_all = 's2_occupancy', 's2_candidate', 's2_all_paused'
for level in range(1, LEVELS + 1):
    n //= 2
    span = LEAVES // n
    half = span // 2
    w(f'''        // level {level}: the comparisons, registered
        self.l{level}_all_paused.clock.next = self.clock.val();
        self.l{level}_all_paused.d.next = self.{prev_all}.q.val();
        for i in 0..{n} {{
            self.l{level}_least[i].clock.next = self.clock.val();
            self.l{level}_any[i].clock.next = self.clock.val();
            self.l{level}_keep_left[i].clock.next = self.clock.val();
            self.l{level}_keep_right[i].clock.next = self.clock.val();
            self.keep_left{level}[i].next = self.{prev_any}[2 * i].q.val()
                & (!self.{prev_any}[2 * i + 1].q.val() | (self.{prev_least}[2 * i].q.val() <= self.{prev_least}[2 * i + 1].q.val()));
            self.keep_right{level}[i].next = self.{prev_any}[2 * i + 1].q.val()
                & (!self.{prev_any}[2 * i].q.val() | (self.{prev_least}[2 * i + 1].q.val() <= self.{prev_least}[2 * i].q.val()));
            self.l{level}_keep_left[i].d.next = self.keep_left{level}[i].val();
            self.l{level}_keep_right[i].d.next = self.keep_right{level}[i].val();
            if self.keep_left{level}[i].val() {{
                self.l{level}_least[i].d.next = self.{prev_least}[2 * i].q.val();
            }} else {{
                self.l{level}_least[i].d.next = self.{prev_least}[2 * i + 1].q.val();
            }}
            self.l{level}_any[i].d.next = self.{prev_any}[2 * i].q.val() | self.{prev_any}[2 * i + 1].q.val();
        }}
        // level {level}'s tie bits, from its registered decisions, a stage later
        for i in 0..{n} {{
            for b in 0..{half} {{
                self.l{level}_tie[{span} * i + b].d.next = self.l{level - 1}_tie[{span} * i + b].q.val() & self.l{level}_keep_left[i].q.val();
                self.l{level}_tie[{span} * i + {half} + b].d.next = self.l{level - 1}_tie[{span} * i + {half} + b].q.val() & self.l{level}_keep_right[i].q.val();
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
