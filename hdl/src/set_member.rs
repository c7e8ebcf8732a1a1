//! Set member: `value mod set_size` for a 16-bit value and a set of 1 to
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
pub const LATENCY: usize = 15;

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
    // stage 1: the rest after steps 14
    s1_rest: StageRegister<Bits<16>>,
    s1_size: StageRegister<Bits<7>>,
    s1_tag: StageRegister<Bits<W>>,
    // stage 2: the rest after steps 13
    s2_rest: StageRegister<Bits<16>>,
    s2_size: StageRegister<Bits<7>>,
    s2_tag: StageRegister<Bits<W>>,
    // stage 3: the rest after steps 12
    s3_rest: StageRegister<Bits<16>>,
    s3_size: StageRegister<Bits<7>>,
    s3_tag: StageRegister<Bits<W>>,
    // stage 4: the rest after steps 11
    s4_rest: StageRegister<Bits<16>>,
    s4_size: StageRegister<Bits<7>>,
    s4_tag: StageRegister<Bits<W>>,
    // stage 5: the rest after steps 10
    s5_rest: StageRegister<Bits<16>>,
    s5_size: StageRegister<Bits<7>>,
    s5_tag: StageRegister<Bits<W>>,
    // stage 6: the rest after steps 9
    s6_rest: StageRegister<Bits<16>>,
    s6_size: StageRegister<Bits<7>>,
    s6_tag: StageRegister<Bits<W>>,
    // stage 7: the rest after steps 8
    s7_rest: StageRegister<Bits<16>>,
    s7_size: StageRegister<Bits<7>>,
    s7_tag: StageRegister<Bits<W>>,
    // stage 8: the rest after steps 7
    s8_rest: StageRegister<Bits<16>>,
    s8_size: StageRegister<Bits<7>>,
    s8_tag: StageRegister<Bits<W>>,
    // stage 9: the rest after steps 6
    s9_rest: StageRegister<Bits<16>>,
    s9_size: StageRegister<Bits<7>>,
    s9_tag: StageRegister<Bits<W>>,
    // stage 10: the rest after steps 5
    s10_rest: StageRegister<Bits<16>>,
    s10_size: StageRegister<Bits<7>>,
    s10_tag: StageRegister<Bits<W>>,
    // stage 11: the rest after steps 4
    s11_rest: StageRegister<Bits<16>>,
    s11_size: StageRegister<Bits<7>>,
    s11_tag: StageRegister<Bits<W>>,
    // stage 12: the rest after steps 3
    s12_rest: StageRegister<Bits<16>>,
    s12_size: StageRegister<Bits<7>>,
    s12_tag: StageRegister<Bits<W>>,
    // stage 13: the rest after steps 2
    s13_rest: StageRegister<Bits<16>>,
    s13_size: StageRegister<Bits<7>>,
    s13_tag: StageRegister<Bits<W>>,
    // stage 14: the rest after steps 1
    s14_rest: StageRegister<Bits<16>>,
    s14_size: StageRegister<Bits<7>>,
    s14_tag: StageRegister<Bits<W>>,
    // stage 15: the rest after steps 0
    s15_rest: StageRegister<Bits<16>>,
    s15_size: StageRegister<Bits<7>>,
    s15_tag: StageRegister<Bits<W>>,
    // the rest after each step, the set size widened to 16 bits
    step14_rest: Signal<Local, Bits<16>>,
    step14_difference: Signal<Local, Bits<17>>,
    step13_rest: Signal<Local, Bits<16>>,
    step13_difference: Signal<Local, Bits<17>>,
    step12_rest: Signal<Local, Bits<16>>,
    step12_difference: Signal<Local, Bits<17>>,
    step11_rest: Signal<Local, Bits<16>>,
    step11_difference: Signal<Local, Bits<17>>,
    step10_rest: Signal<Local, Bits<16>>,
    step10_difference: Signal<Local, Bits<17>>,
    step9_rest: Signal<Local, Bits<16>>,
    step9_difference: Signal<Local, Bits<17>>,
    step8_rest: Signal<Local, Bits<16>>,
    step8_difference: Signal<Local, Bits<17>>,
    step7_rest: Signal<Local, Bits<16>>,
    step7_difference: Signal<Local, Bits<17>>,
    step6_rest: Signal<Local, Bits<16>>,
    step6_difference: Signal<Local, Bits<17>>,
    step5_rest: Signal<Local, Bits<16>>,
    step5_difference: Signal<Local, Bits<17>>,
    step4_rest: Signal<Local, Bits<16>>,
    step4_difference: Signal<Local, Bits<17>>,
    step3_rest: Signal<Local, Bits<16>>,
    step3_difference: Signal<Local, Bits<17>>,
    step2_rest: Signal<Local, Bits<16>>,
    step2_difference: Signal<Local, Bits<17>>,
    step1_rest: Signal<Local, Bits<16>>,
    step1_difference: Signal<Local, Bits<17>>,
    step0_rest: Signal<Local, Bits<16>>,
    step0_difference: Signal<Local, Bits<17>>,
    size1_wide: Signal<Local, Bits<16>>,
    size2_wide: Signal<Local, Bits<16>>,
    size3_wide: Signal<Local, Bits<16>>,
    size4_wide: Signal<Local, Bits<16>>,
    size5_wide: Signal<Local, Bits<16>>,
    size6_wide: Signal<Local, Bits<16>>,
    size7_wide: Signal<Local, Bits<16>>,
    size8_wide: Signal<Local, Bits<16>>,
    size9_wide: Signal<Local, Bits<16>>,
    size10_wide: Signal<Local, Bits<16>>,
    size11_wide: Signal<Local, Bits<16>>,
    size12_wide: Signal<Local, Bits<16>>,
    size13_wide: Signal<Local, Bits<16>>,
    size14_wide: Signal<Local, Bits<16>>,
    size15_wide: Signal<Local, Bits<16>>,
}

impl<const W: usize> Default for SetMember<W> {
    fn default() -> Self {
        Self::new(WiredRanks::NONE)
    }
}

impl<const W: usize> SetMember<W> {
    /// The block, leaving out the registers of the `wired` stages.
    pub fn new(wired: WiredRanks) -> Self {
        SetMember {
            clock: Default::default(),
            value: Default::default(),
            set_size: Default::default(),
            tag_in: Default::default(),
            member: Default::default(),
            tag_out: Default::default(),
            s1_rest: wired.stage(1),
            s1_size: wired.stage(1),
            s1_tag: wired.stage(1),
            s2_rest: wired.stage(2),
            s2_size: wired.stage(2),
            s2_tag: wired.stage(2),
            s3_rest: wired.stage(3),
            s3_size: wired.stage(3),
            s3_tag: wired.stage(3),
            s4_rest: wired.stage(4),
            s4_size: wired.stage(4),
            s4_tag: wired.stage(4),
            s5_rest: wired.stage(5),
            s5_size: wired.stage(5),
            s5_tag: wired.stage(5),
            s6_rest: wired.stage(6),
            s6_size: wired.stage(6),
            s6_tag: wired.stage(6),
            s7_rest: wired.stage(7),
            s7_size: wired.stage(7),
            s7_tag: wired.stage(7),
            s8_rest: wired.stage(8),
            s8_size: wired.stage(8),
            s8_tag: wired.stage(8),
            s9_rest: wired.stage(9),
            s9_size: wired.stage(9),
            s9_tag: wired.stage(9),
            s10_rest: wired.stage(10),
            s10_size: wired.stage(10),
            s10_tag: wired.stage(10),
            s11_rest: wired.stage(11),
            s11_size: wired.stage(11),
            s11_tag: wired.stage(11),
            s12_rest: wired.stage(12),
            s12_size: wired.stage(12),
            s12_tag: wired.stage(12),
            s13_rest: wired.stage(13),
            s13_size: wired.stage(13),
            s13_tag: wired.stage(13),
            s14_rest: wired.stage(14),
            s14_size: wired.stage(14),
            s14_tag: wired.stage(14),
            s15_rest: wired.stage(15),
            s15_size: wired.stage(15),
            s15_tag: wired.stage(15),
            step14_rest: Default::default(),
            step14_difference: Default::default(),
            step13_rest: Default::default(),
            step13_difference: Default::default(),
            step12_rest: Default::default(),
            step12_difference: Default::default(),
            step11_rest: Default::default(),
            step11_difference: Default::default(),
            step10_rest: Default::default(),
            step10_difference: Default::default(),
            step9_rest: Default::default(),
            step9_difference: Default::default(),
            step8_rest: Default::default(),
            step8_difference: Default::default(),
            step7_rest: Default::default(),
            step7_difference: Default::default(),
            step6_rest: Default::default(),
            step6_difference: Default::default(),
            step5_rest: Default::default(),
            step5_difference: Default::default(),
            step4_rest: Default::default(),
            step4_difference: Default::default(),
            step3_rest: Default::default(),
            step3_difference: Default::default(),
            step2_rest: Default::default(),
            step2_difference: Default::default(),
            step1_rest: Default::default(),
            step1_difference: Default::default(),
            step0_rest: Default::default(),
            step0_difference: Default::default(),
            size1_wide: Default::default(),
            size2_wide: Default::default(),
            size3_wide: Default::default(),
            size4_wide: Default::default(),
            size5_wide: Default::default(),
            size6_wide: Default::default(),
            size7_wide: Default::default(),
            size8_wide: Default::default(),
            size9_wide: Default::default(),
            size10_wide: Default::default(),
            size11_wide: Default::default(),
            size12_wide: Default::default(),
            size13_wide: Default::default(),
            size14_wide: Default::default(),
            size15_wide: Default::default(),
        }
    }
}

impl<const W: usize> Logic for SetMember<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.s1_rest.clock.next = self.clock.val();
        self.s1_size.clock.next = self.clock.val();
        self.s1_tag.clock.next = self.clock.val();
        self.s2_rest.clock.next = self.clock.val();
        self.s2_size.clock.next = self.clock.val();
        self.s2_tag.clock.next = self.clock.val();
        self.s3_rest.clock.next = self.clock.val();
        self.s3_size.clock.next = self.clock.val();
        self.s3_tag.clock.next = self.clock.val();
        self.s4_rest.clock.next = self.clock.val();
        self.s4_size.clock.next = self.clock.val();
        self.s4_tag.clock.next = self.clock.val();
        self.s5_rest.clock.next = self.clock.val();
        self.s5_size.clock.next = self.clock.val();
        self.s5_tag.clock.next = self.clock.val();
        self.s6_rest.clock.next = self.clock.val();
        self.s6_size.clock.next = self.clock.val();
        self.s6_tag.clock.next = self.clock.val();
        self.s7_rest.clock.next = self.clock.val();
        self.s7_size.clock.next = self.clock.val();
        self.s7_tag.clock.next = self.clock.val();
        self.s8_rest.clock.next = self.clock.val();
        self.s8_size.clock.next = self.clock.val();
        self.s8_tag.clock.next = self.clock.val();
        self.s9_rest.clock.next = self.clock.val();
        self.s9_size.clock.next = self.clock.val();
        self.s9_tag.clock.next = self.clock.val();
        self.s10_rest.clock.next = self.clock.val();
        self.s10_size.clock.next = self.clock.val();
        self.s10_tag.clock.next = self.clock.val();
        self.s11_rest.clock.next = self.clock.val();
        self.s11_size.clock.next = self.clock.val();
        self.s11_tag.clock.next = self.clock.val();
        self.s12_rest.clock.next = self.clock.val();
        self.s12_size.clock.next = self.clock.val();
        self.s12_tag.clock.next = self.clock.val();
        self.s13_rest.clock.next = self.clock.val();
        self.s13_size.clock.next = self.clock.val();
        self.s13_tag.clock.next = self.clock.val();
        self.s14_rest.clock.next = self.clock.val();
        self.s14_size.clock.next = self.clock.val();
        self.s14_tag.clock.next = self.clock.val();
        self.s15_rest.clock.next = self.clock.val();
        self.s15_size.clock.next = self.clock.val();
        self.s15_tag.clock.next = self.clock.val();
        // Stage 1.
        self.size1_wide.next = bit_cast::<16, 7>(self.set_size.val());
        self.step14_difference.next = bit_cast::<17, 16>(self.value.val() >> 14) - bit_cast::<17, 16>(self.size1_wide.val());
        self.step14_rest.next = self.value.val();
        if !self.step14_difference.val().get_bit(16) {
            self.step14_rest.next = (bit_cast::<16, 17>(self.step14_difference.val()) << 14) | (self.value.val() & 0x3fff);
        }
        self.s1_rest.d.next = self.step14_rest.val();
        self.s1_size.d.next = self.set_size.val();
        self.s1_tag.d.next = self.tag_in.val();
        // Stage 2.
        self.size2_wide.next = bit_cast::<16, 7>(self.s1_size.q.val());
        self.step13_difference.next = bit_cast::<17, 16>(self.s1_rest.q.val() >> 13) - bit_cast::<17, 16>(self.size2_wide.val());
        self.step13_rest.next = self.s1_rest.q.val();
        if !self.step13_difference.val().get_bit(16) {
            self.step13_rest.next = (bit_cast::<16, 17>(self.step13_difference.val()) << 13) | (self.s1_rest.q.val() & 0x1fff);
        }
        self.s2_rest.d.next = self.step13_rest.val();
        self.s2_size.d.next = self.s1_size.q.val();
        self.s2_tag.d.next = self.s1_tag.q.val();
        // Stage 3.
        self.size3_wide.next = bit_cast::<16, 7>(self.s2_size.q.val());
        self.step12_difference.next = bit_cast::<17, 16>(self.s2_rest.q.val() >> 12) - bit_cast::<17, 16>(self.size3_wide.val());
        self.step12_rest.next = self.s2_rest.q.val();
        if !self.step12_difference.val().get_bit(16) {
            self.step12_rest.next = (bit_cast::<16, 17>(self.step12_difference.val()) << 12) | (self.s2_rest.q.val() & 0xfff);
        }
        self.s3_rest.d.next = self.step12_rest.val();
        self.s3_size.d.next = self.s2_size.q.val();
        self.s3_tag.d.next = self.s2_tag.q.val();
        // Stage 4.
        self.size4_wide.next = bit_cast::<16, 7>(self.s3_size.q.val());
        self.step11_difference.next = bit_cast::<17, 16>(self.s3_rest.q.val() >> 11) - bit_cast::<17, 16>(self.size4_wide.val());
        self.step11_rest.next = self.s3_rest.q.val();
        if !self.step11_difference.val().get_bit(16) {
            self.step11_rest.next = (bit_cast::<16, 17>(self.step11_difference.val()) << 11) | (self.s3_rest.q.val() & 0x7ff);
        }
        self.s4_rest.d.next = self.step11_rest.val();
        self.s4_size.d.next = self.s3_size.q.val();
        self.s4_tag.d.next = self.s3_tag.q.val();
        // Stage 5.
        self.size5_wide.next = bit_cast::<16, 7>(self.s4_size.q.val());
        self.step10_difference.next = bit_cast::<17, 16>(self.s4_rest.q.val() >> 10) - bit_cast::<17, 16>(self.size5_wide.val());
        self.step10_rest.next = self.s4_rest.q.val();
        if !self.step10_difference.val().get_bit(16) {
            self.step10_rest.next = (bit_cast::<16, 17>(self.step10_difference.val()) << 10) | (self.s4_rest.q.val() & 0x3ff);
        }
        self.s5_rest.d.next = self.step10_rest.val();
        self.s5_size.d.next = self.s4_size.q.val();
        self.s5_tag.d.next = self.s4_tag.q.val();
        // Stage 6.
        self.size6_wide.next = bit_cast::<16, 7>(self.s5_size.q.val());
        self.step9_difference.next = bit_cast::<17, 16>(self.s5_rest.q.val() >> 9) - bit_cast::<17, 16>(self.size6_wide.val());
        self.step9_rest.next = self.s5_rest.q.val();
        if !self.step9_difference.val().get_bit(16) {
            self.step9_rest.next = (bit_cast::<16, 17>(self.step9_difference.val()) << 9) | (self.s5_rest.q.val() & 0x1ff);
        }
        self.s6_rest.d.next = self.step9_rest.val();
        self.s6_size.d.next = self.s5_size.q.val();
        self.s6_tag.d.next = self.s5_tag.q.val();
        // Stage 7.
        self.size7_wide.next = bit_cast::<16, 7>(self.s6_size.q.val());
        self.step8_difference.next = bit_cast::<17, 16>(self.s6_rest.q.val() >> 8) - bit_cast::<17, 16>(self.size7_wide.val());
        self.step8_rest.next = self.s6_rest.q.val();
        if !self.step8_difference.val().get_bit(16) {
            self.step8_rest.next = (bit_cast::<16, 17>(self.step8_difference.val()) << 8) | (self.s6_rest.q.val() & 0xff);
        }
        self.s7_rest.d.next = self.step8_rest.val();
        self.s7_size.d.next = self.s6_size.q.val();
        self.s7_tag.d.next = self.s6_tag.q.val();
        // Stage 8.
        self.size8_wide.next = bit_cast::<16, 7>(self.s7_size.q.val());
        self.step7_difference.next = bit_cast::<17, 16>(self.s7_rest.q.val() >> 7) - bit_cast::<17, 16>(self.size8_wide.val());
        self.step7_rest.next = self.s7_rest.q.val();
        if !self.step7_difference.val().get_bit(16) {
            self.step7_rest.next = (bit_cast::<16, 17>(self.step7_difference.val()) << 7) | (self.s7_rest.q.val() & 0x7f);
        }
        self.s8_rest.d.next = self.step7_rest.val();
        self.s8_size.d.next = self.s7_size.q.val();
        self.s8_tag.d.next = self.s7_tag.q.val();
        // Stage 9.
        self.size9_wide.next = bit_cast::<16, 7>(self.s8_size.q.val());
        self.step6_difference.next = bit_cast::<17, 16>(self.s8_rest.q.val() >> 6) - bit_cast::<17, 16>(self.size9_wide.val());
        self.step6_rest.next = self.s8_rest.q.val();
        if !self.step6_difference.val().get_bit(16) {
            self.step6_rest.next = (bit_cast::<16, 17>(self.step6_difference.val()) << 6) | (self.s8_rest.q.val() & 0x3f);
        }
        self.s9_rest.d.next = self.step6_rest.val();
        self.s9_size.d.next = self.s8_size.q.val();
        self.s9_tag.d.next = self.s8_tag.q.val();
        // Stage 10.
        self.size10_wide.next = bit_cast::<16, 7>(self.s9_size.q.val());
        self.step5_difference.next = bit_cast::<17, 16>(self.s9_rest.q.val() >> 5) - bit_cast::<17, 16>(self.size10_wide.val());
        self.step5_rest.next = self.s9_rest.q.val();
        if !self.step5_difference.val().get_bit(16) {
            self.step5_rest.next = (bit_cast::<16, 17>(self.step5_difference.val()) << 5) | (self.s9_rest.q.val() & 0x1f);
        }
        self.s10_rest.d.next = self.step5_rest.val();
        self.s10_size.d.next = self.s9_size.q.val();
        self.s10_tag.d.next = self.s9_tag.q.val();
        // Stage 11.
        self.size11_wide.next = bit_cast::<16, 7>(self.s10_size.q.val());
        self.step4_difference.next = bit_cast::<17, 16>(self.s10_rest.q.val() >> 4) - bit_cast::<17, 16>(self.size11_wide.val());
        self.step4_rest.next = self.s10_rest.q.val();
        if !self.step4_difference.val().get_bit(16) {
            self.step4_rest.next = (bit_cast::<16, 17>(self.step4_difference.val()) << 4) | (self.s10_rest.q.val() & 0xf);
        }
        self.s11_rest.d.next = self.step4_rest.val();
        self.s11_size.d.next = self.s10_size.q.val();
        self.s11_tag.d.next = self.s10_tag.q.val();
        // Stage 12.
        self.size12_wide.next = bit_cast::<16, 7>(self.s11_size.q.val());
        self.step3_difference.next = bit_cast::<17, 16>(self.s11_rest.q.val() >> 3) - bit_cast::<17, 16>(self.size12_wide.val());
        self.step3_rest.next = self.s11_rest.q.val();
        if !self.step3_difference.val().get_bit(16) {
            self.step3_rest.next = (bit_cast::<16, 17>(self.step3_difference.val()) << 3) | (self.s11_rest.q.val() & 0x7);
        }
        self.s12_rest.d.next = self.step3_rest.val();
        self.s12_size.d.next = self.s11_size.q.val();
        self.s12_tag.d.next = self.s11_tag.q.val();
        // Stage 13.
        self.size13_wide.next = bit_cast::<16, 7>(self.s12_size.q.val());
        self.step2_difference.next = bit_cast::<17, 16>(self.s12_rest.q.val() >> 2) - bit_cast::<17, 16>(self.size13_wide.val());
        self.step2_rest.next = self.s12_rest.q.val();
        if !self.step2_difference.val().get_bit(16) {
            self.step2_rest.next = (bit_cast::<16, 17>(self.step2_difference.val()) << 2) | (self.s12_rest.q.val() & 0x3);
        }
        self.s13_rest.d.next = self.step2_rest.val();
        self.s13_size.d.next = self.s12_size.q.val();
        self.s13_tag.d.next = self.s12_tag.q.val();
        // Stage 14.
        self.size14_wide.next = bit_cast::<16, 7>(self.s13_size.q.val());
        self.step1_difference.next = bit_cast::<17, 16>(self.s13_rest.q.val() >> 1) - bit_cast::<17, 16>(self.size14_wide.val());
        self.step1_rest.next = self.s13_rest.q.val();
        if !self.step1_difference.val().get_bit(16) {
            self.step1_rest.next = (bit_cast::<16, 17>(self.step1_difference.val()) << 1) | (self.s13_rest.q.val() & 0x1);
        }
        self.s14_rest.d.next = self.step1_rest.val();
        self.s14_size.d.next = self.s13_size.q.val();
        self.s14_tag.d.next = self.s13_tag.q.val();
        // Stage 15.
        self.size15_wide.next = bit_cast::<16, 7>(self.s14_size.q.val());
        self.step0_difference.next = bit_cast::<17, 16>(self.s14_rest.q.val()) - bit_cast::<17, 16>(self.size15_wide.val());
        self.step0_rest.next = self.s14_rest.q.val();
        if !self.step0_difference.val().get_bit(16) {
            self.step0_rest.next = bit_cast::<16, 17>(self.step0_difference.val());
        }
        self.s15_rest.d.next = self.step0_rest.val();
        self.s15_size.d.next = self.s14_size.q.val();
        self.s15_tag.d.next = self.s14_tag.q.val();
        // Result: sets of 0 and 1 member give member 0.
        self.member.next = bit_cast::<6, 16>(self.s15_rest.q.val());
        if self.s15_size.q.val() < 2 {
            self.member.next = 0.into();
        }
        self.tag_out.next = self.s15_tag.q.val();
    }
}
