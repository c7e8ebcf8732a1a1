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
//! This file is written by `scripts/gen/set_member.py` (the steps are
//! unrolled: rust_hdl kernels cannot call helper functions).

use rust_hdl::prelude::*;

/// Cycles from `value` to `member`.
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
    s1_rest: DFF<Bits<16>>,
    s1_size: DFF<Bits<7>>,
    s1_tag: DFF<Bits<W>>,
    // stage 2: the rest after steps 13
    s2_rest: DFF<Bits<16>>,
    s2_size: DFF<Bits<7>>,
    s2_tag: DFF<Bits<W>>,
    // stage 3: the rest after steps 12
    s3_rest: DFF<Bits<16>>,
    s3_size: DFF<Bits<7>>,
    s3_tag: DFF<Bits<W>>,
    // stage 4: the rest after steps 11
    s4_rest: DFF<Bits<16>>,
    s4_size: DFF<Bits<7>>,
    s4_tag: DFF<Bits<W>>,
    // stage 5: the rest after steps 10
    s5_rest: DFF<Bits<16>>,
    s5_size: DFF<Bits<7>>,
    s5_tag: DFF<Bits<W>>,
    // stage 6: the rest after steps 9
    s6_rest: DFF<Bits<16>>,
    s6_size: DFF<Bits<7>>,
    s6_tag: DFF<Bits<W>>,
    // stage 7: the rest after steps 8
    s7_rest: DFF<Bits<16>>,
    s7_size: DFF<Bits<7>>,
    s7_tag: DFF<Bits<W>>,
    // stage 8: the rest after steps 7
    s8_rest: DFF<Bits<16>>,
    s8_size: DFF<Bits<7>>,
    s8_tag: DFF<Bits<W>>,
    // stage 9: the rest after steps 6
    s9_rest: DFF<Bits<16>>,
    s9_size: DFF<Bits<7>>,
    s9_tag: DFF<Bits<W>>,
    // stage 10: the rest after steps 5
    s10_rest: DFF<Bits<16>>,
    s10_size: DFF<Bits<7>>,
    s10_tag: DFF<Bits<W>>,
    // stage 11: the rest after steps 4
    s11_rest: DFF<Bits<16>>,
    s11_size: DFF<Bits<7>>,
    s11_tag: DFF<Bits<W>>,
    // stage 12: the rest after steps 3
    s12_rest: DFF<Bits<16>>,
    s12_size: DFF<Bits<7>>,
    s12_tag: DFF<Bits<W>>,
    // stage 13: the rest after steps 2
    s13_rest: DFF<Bits<16>>,
    s13_size: DFF<Bits<7>>,
    s13_tag: DFF<Bits<W>>,
    // stage 14: the rest after steps 1
    s14_rest: DFF<Bits<16>>,
    s14_size: DFF<Bits<7>>,
    s14_tag: DFF<Bits<W>>,
    // stage 15: the rest after steps 0
    s15_rest: DFF<Bits<16>>,
    s15_size: DFF<Bits<7>>,
    s15_tag: DFF<Bits<W>>,
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
        SetMember {
            clock: Default::default(),
            value: Default::default(),
            set_size: Default::default(),
            tag_in: Default::default(),
            member: Default::default(),
            tag_out: Default::default(),
            s1_rest: Default::default(),
            s1_size: Default::default(),
            s1_tag: Default::default(),
            s2_rest: Default::default(),
            s2_size: Default::default(),
            s2_tag: Default::default(),
            s3_rest: Default::default(),
            s3_size: Default::default(),
            s3_tag: Default::default(),
            s4_rest: Default::default(),
            s4_size: Default::default(),
            s4_tag: Default::default(),
            s5_rest: Default::default(),
            s5_size: Default::default(),
            s5_tag: Default::default(),
            s6_rest: Default::default(),
            s6_size: Default::default(),
            s6_tag: Default::default(),
            s7_rest: Default::default(),
            s7_size: Default::default(),
            s7_tag: Default::default(),
            s8_rest: Default::default(),
            s8_size: Default::default(),
            s8_tag: Default::default(),
            s9_rest: Default::default(),
            s9_size: Default::default(),
            s9_tag: Default::default(),
            s10_rest: Default::default(),
            s10_size: Default::default(),
            s10_tag: Default::default(),
            s11_rest: Default::default(),
            s11_size: Default::default(),
            s11_tag: Default::default(),
            s12_rest: Default::default(),
            s12_size: Default::default(),
            s12_tag: Default::default(),
            s13_rest: Default::default(),
            s13_size: Default::default(),
            s13_tag: Default::default(),
            s14_rest: Default::default(),
            s14_size: Default::default(),
            s14_tag: Default::default(),
            s15_rest: Default::default(),
            s15_size: Default::default(),
            s15_tag: Default::default(),
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
        dff_setup!(self, clock, s1_rest, s1_size, s1_tag, s2_rest, s2_size, s2_tag, s3_rest, s3_size, s3_tag, s4_rest, s4_size, s4_tag, s5_rest, s5_size, s5_tag, s6_rest, s6_size, s6_tag, s7_rest, s7_size, s7_tag, s8_rest, s8_size, s8_tag, s9_rest, s9_size, s9_tag, s10_rest, s10_size, s10_tag, s11_rest, s11_size, s11_tag, s12_rest, s12_size, s12_tag, s13_rest, s13_size, s13_tag, s14_rest, s14_size, s14_tag, s15_rest, s15_size, s15_tag);
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
