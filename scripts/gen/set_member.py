# Writes hdl/src/set_member.rs: the restoring remainder, two steps per stage.
# Its tests are in testbench/tests/ecmp_hash.rs.
STEPS = list(range(14, -1, -1))           # shift of each step
# One compare-and-subtract per stage: two in series measured 162 MHz.
STAGES = [[k] for k in STEPS]
N = len(STAGES)
out = []
w = out.append
w('''//! Set member: `value mod set_size` for a 16-bit value and a set of 1 to
//! 64 members, pipelined, without a multiplier.
//!
//! Purpose: the ECMP hash's last step. A reciprocal multiply through an
//! ECP5 MULT18X18D between two fabric registers tops out near 175 MHz (the
//! multiplier alone is 3.1-3.9 ns unregistered), so the remainder is found
//! by restoring division instead: for k = 14 down to 0, subtract
//! `set_size << k` when it fits, that is when `value >> k >= set_size`,
//! which touches only bits k and up. Each stage does one step: a single
//! subtraction whose borrow decides (two steps per stage measured 162 MHz).
//!
//! Parameters: `W`, the width of the tag that travels with each value
//! (bits), so the caller's other fields stay aligned with the result.
//!
//! Ports, by channel (all synchronous to `clock`):
//! * value: `value` (16 bits), `set_size` (7 bits, members; 0 and 1 give
//!   member 0), `tag_in` (W bits)
//! * result: `member` (6 bits), `tag_out` (W bits), LATENCY cycles later
//!
//! Latency 15 cycles, throughput one value per cycle.
//!
//! ```text
//!  value ─►[step 14]─►[step 13]─► ... ─►[step 0]─► member
//!  tag   ─►[       ]─►[       ]─► ... ─►[      ]─► tag_out
//! ```
//!
//! Every stage's registers are [`StageRegister`]s of the stage's rank: a
//! build given [`WiredRanks`] ([`SetMember::new`]) leaves those stages'
//! registers out and does their steps in the cycle before (latency
//! `15 - count`); [`Default`] keeps every stage.
//!
//! This file is written by `scripts/gen/set_member.py` (the steps are
//! unrolled: rust_hdl kernels cannot call helper functions).

use crate::stage_register::{StageRegister, WiredRanks};
use rust_hdl::prelude::*;

/// Cycles from `value` to `member`, every stage kept.
pub const LATENCY: usize = ''' + str(N) + ''';

/// The member the block computes, step by step as the hardware does.
pub fn member_by_restoring(value: u16, set_size: u32) -> u32 {
    if set_size < 2 {
        return 0;
    }
    let mut rest = value as u32;
    for k in (0..15).rev() {
        if rest >> k >= set_size {
            rest = (((rest >> k) - set_size) << k) | (rest & ((1 << k) - 1));
        }
    }
    rest
}

#[derive(LogicBlock)]
pub struct SetMember<const W: usize> {
    pub clock: Signal<In, Clock>,
    // value channel
    pub value: Signal<In, Bits<16>>,
    pub set_size: Signal<In, Bits<7>>,
    pub tag_in: Signal<In, Bits<W>>,
    // result channel
    pub member: Signal<Out, Bits<6>>,
    pub tag_out: Signal<Out, Bits<W>>,
''')
for j in range(1, N+1):
    w(f'    // stage {j}: the rest after steps {", ".join(map(str, STAGES[j-1]))}\n')
    w(f'    s{j}_rest: StageRegister<Bits<16>>,\n    s{j}_size: StageRegister<Bits<7>>,\n    s{j}_tag: StageRegister<Bits<W>>,\n')
w('    // the rest after each step, the set size widened to 16 bits\n')
for k in STEPS:
    w(f'    step{k}_rest: Signal<Local, Bits<16>>,\n')
    w(f'    step{k}_difference: Signal<Local, Bits<17>>,\n')
for j in range(1, N+1):
    w(f'    size{j}_wide: Signal<Local, Bits<16>>,\n')
w('}\n\n')
w('''impl<const W: usize> Default for SetMember<W> {
    fn default() -> Self {
        Self::new(WiredRanks::NONE)
    }
}

impl<const W: usize> SetMember<W> {
    /// The block, leaving out the registers of the `wired` stages.
    pub fn new(wired: WiredRanks) -> Self {
        SetMember {
''')
for f in ['clock','value','set_size','tag_in','member','tag_out']:
    w(f'            {f}: Default::default(),\n')
for j in range(1, N+1):
    for f in ['rest','size','tag']:
        w(f'            s{j}_{f}: wired.stage({j}),\n')
for k in STEPS:
    w(f'            step{k}_rest: Default::default(),\n')
    w(f'            step{k}_difference: Default::default(),\n')
for j in range(1, N+1):
    w(f'            size{j}_wide: Default::default(),\n')
w('        }\n    }\n}\n\n')
w('impl<const W: usize> Logic for SetMember<W> {\n    #[hdl_gen]\n    fn update(&mut self) {\n')
for j in range(1, N+1):
    for f in ['rest', 'size', 'tag']:
        w(f'        self.s{j}_{f}.clock.next = self.clock.val();\n')
for j in range(1, N+1):
    rest_in = 'self.value.val()' if j == 1 else f'self.s{j-1}_rest.q.val()'
    size_in = 'self.set_size.val()' if j == 1 else f's{j-1}_size'
    size_expr = 'self.set_size.val()' if j == 1 else f'self.s{j-1}_size.q.val()'
    tag_expr = 'self.tag_in.val()' if j == 1 else f'self.s{j-1}_tag.q.val()'
    w(f'        // Stage {j}.\n')
    w(f'        self.size{j}_wide.next = bit_cast::<16, 7>({size_expr});\n')
    prev = rest_in
    for k in STAGES[j-1]:
        mask = (1 << k) - 1
        keep = f' | ({prev} & {mask:#x})' if k > 0 else ''
        shifted = f'bit_cast::<17, 16>({prev} >> {k})' if k > 0 else f'bit_cast::<17, 16>({prev})'
        # One carry chain: the difference's bit 16 is the borrow (size did not fit).
        w(f'        self.step{k}_difference.next = {shifted} - bit_cast::<17, 16>(self.size{j}_wide.val());\n')
        w(f'        self.step{k}_rest.next = {prev};\n')
        w(f'        if !self.step{k}_difference.val().get_bit(16) {{\n')
        if k > 0:
            w(f'            self.step{k}_rest.next = (bit_cast::<16, 17>(self.step{k}_difference.val()) << {k}){keep};\n')
        else:
            w(f'            self.step{k}_rest.next = bit_cast::<16, 17>(self.step{k}_difference.val());\n')
        w('        }\n')
        prev = f'self.step{k}_rest.val()'
    w(f'        self.s{j}_rest.d.next = {prev};\n')
    w(f'        self.s{j}_size.d.next = {size_expr};\n')
    w(f'        self.s{j}_tag.d.next = {tag_expr};\n')
w(f'''        // Result: sets of 0 and 1 member give member 0.
        self.member.next = bit_cast::<6, 16>(self.s{N}_rest.q.val());
        if self.s{N}_size.q.val() < 2 {{
            self.member.next = 0.into();
        }}
        self.tag_out.next = self.s{N}_tag.q.val();
    }}
}}
''')
import sys
open(sys.argv[1], 'w').write(''.join(out))
