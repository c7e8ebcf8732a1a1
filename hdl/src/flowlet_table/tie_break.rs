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
//! * answer, cycle 9 (LATENCY): given `use_hash` and `hash_member` (6
//!   bits, hash mod size, for sets without a table) in that cycle,
//!   `member` (6 bits) and `moved` (a re-selection that left the slot's
//!   member), combinational
//!
//! Latency 9 cycles, one choice per cycle; a build given [`WiredRanks`]
//! leaves those ranks' registers out (latency `9 - count`), the draw's
//! state, a loop, stays a register. The draw state advances in
//! stage 3 in event order, so back-to-back draws are exact; the register
//! holds the state one step ahead (the next draw in its upper half), so
//! that the draw leaves a register straight into the product. Every count
//! (tied per group, rank within a group, where each group starts) is a
//! tree of adds over pairs, quads and halves, at most two adds deep in a
//! stage (the 3-bit ranks three, which fit in a few LUTs): chained
//! increments map to one carry chain after another. The
//! pick `(draw x count) >> 16` is a sum of shifted draws over three
//! stages, one add each (no multiplier: an ECP5 MULT18X18D between fabric
//! registers takes 7 ns). The ranks within a group are counted from the
//! delayed mask in stage 7, where they are used, rather than carried from
//! stage 2 (six fewer 64 x 3-bit delay lines). The group
//! holding it is found one-hot (`start <= pick < end`), not by a priority
//! chain over the groups: one subtraction `pick - start` per group gives
//! the offset and, by its borrow, whether the pick reaches the group; a
//! group holds it when it reaches that group and not the next (the pick
//! then drives eight subtractions, not sixteen comparisons).
//!
//! ```text
//!  tie_mask ─►[1 stay?, count per 8]─►[2 pairs of groups]─►[3 group starts, count]─►[4 draw; draw x count in 4 sums]
//!   ─►[5 in 2 sums]─►[6 pick]─►[7 group one-hot, offsets, ranks]─►[8 group's bits]─►[9 bit]─► member
//! ```

use super::set_table::MEMBERS;
use reference::lfsr::ZERO_SEED_REPLACEMENT;
use crate::build_checks::many;
use crate::stage_register::{StageRegister, WiredRanks};
use rust_hdl::prelude::*;

/// Cycles from the tie mask to the member, every rank kept.
pub const LATENCY: usize = 9;
/// Members per group of the pick (a group's set bits are counted together).
const GROUP: usize = 8;
const GROUPS: usize = MEMBERS / GROUP;
const PAIRS: usize = MEMBERS / 2;
const QUADS: usize = MEMBERS / 4;
/// Bits of the draw x count sum (16-bit draw, count up to 64).
const PRODUCT_BITS: usize = 24;
/// The state a zero seed's first draw leaves; `ahead_state` holds its
/// state XOR this, so that its power-up zero means that draw comes next.
const STEPPED_REPLACEMENT: u32 = reference::lfsr::step(ZERO_SEED_REPLACEMENT);

// rust_hdl writes a Rust constant inside a kernel as a bare Verilog name,
// so the kernel spells these positions as literals; the asserts keep them
// equal to the named constants.
const _: () = assert!(LATENCY == 9 && GROUP == 8 && GROUPS == 8 && PAIRS == 32 && QUADS == 16 && PRODUCT_BITS == 24);

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
    /// The state the next draw leaves, XOR [`STEPPED_REPLACEMENT`] (so that
    /// its power-up zero is the state a zero seed gives): the draw is its
    /// upper half, ready in a register when the choice needs it.
    ahead_state: DFF<Bits<32>>,
    zero_seed_replacement: Constant<Bits<32>>,
    stepped_replacement: Constant<Bits<32>>,
    // the choice's context through the stages
    reselect_q: [StageRegister<Bit>; LATENCY],
    keep_slot_q: [StageRegister<Bit>; LATENCY],
    slot_valid_q: [StageRegister<Bit>; LATENCY],
    slot_member_q: [StageRegister<Bits<6>>; LATENCY],
    /// Whether the slot's member is among the tied, stage by stage
    /// (`stay_q[s - 1]` in stage s).
    stay_q: [StageRegister<Bit>; LATENCY],
    // the tie mask, stages 1 to 7 (one array per stage: rust_hdl cannot
    // write nested arrays as Verilog), and each tied member's rank among
    // the tied of its group, counted in stage 7 from the mask
    s1_tie: [StageRegister<Bit>; MEMBERS],
    s2_tie: [StageRegister<Bit>; MEMBERS],
    s3_tie: [StageRegister<Bit>; MEMBERS],
    s4_tie: [StageRegister<Bit>; MEMBERS],
    s5_tie: [StageRegister<Bit>; MEMBERS],
    s6_tie: [StageRegister<Bit>; MEMBERS],
    s7_tie: [StageRegister<Bit>; MEMBERS],
    s7_rank: [StageRegister<Bits<3>>; MEMBERS],
    // stage 1: set bits per group
    s1_group_count: [StageRegister<Bits<7>>; GROUPS],
    slot_member_tied: Signal<Local, Bit>,
    pair_count_wide: [Signal<Local, Bits<7>>; PAIRS],
    quad_count_wide: [Signal<Local, Bits<7>>; QUADS],
    group_sum: [Signal<Local, Bits<7>>; GROUPS],
    // stage 2: tied in groups (0, 1), (2, 3), (4, 5), (6, 7)
    s2_group_count: [StageRegister<Bits<7>>; GROUPS],
    s2_pair_groups: [StageRegister<Bits<7>>; 4],
    // stage 3: where each group starts among the tied, how many tie
    s3_group_start: [StageRegister<Bits<7>>; GROUPS],
    s3_count: StageRegister<Bits<7>>,
    /// Tied in groups 0..4.
    first_half: Signal<Local, Bits<7>>,
    // stage 4: the draw taken; draw x count as four partial sums, of the
    // draw times count bits (0, 1), (2, 3), (4, 5) and 6
    s4_group_start: [StageRegister<Bits<7>>; GROUPS],
    s4_count: StageRegister<Bits<7>>,
    s4_partial: [StageRegister<Bits<PRODUCT_BITS>>; 4],
    /// The xorshift's input: the seed's state on a seed write, else the
    /// state the draw now in `ahead_state` leaves.
    step_from: Signal<Local, Bits<32>>,
    stepped: Signal<Local, Bits<32>>,
    /// The state the next draw leaves (`ahead_state` decoded).
    drawn_state: Signal<Local, Bits<32>>,
    draw_now: Signal<Local, Bits<16>>,
    take_draw: Signal<Local, Bit>,
    /// The draw shifted by bit n of the count, where that bit is set.
    shifted_draw: [Signal<Local, Bits<PRODUCT_BITS>>; 7],
    // stage 5: draw x count as draw x count bits 0..4 and 4..7
    s5_group_start: [StageRegister<Bits<7>>; GROUPS],
    s5_count: StageRegister<Bits<7>>,
    s5_product_low: StageRegister<Bits<PRODUCT_BITS>>,
    s5_product_high: StageRegister<Bits<PRODUCT_BITS>>,
    // stage 6: the pick, an index among the tied
    s6_group_start: [StageRegister<Bits<7>>; GROUPS],
    s6_count: StageRegister<Bits<7>>,
    s6_pick: StageRegister<Bits<7>>,
    product: Signal<Local, Bits<PRODUCT_BITS>>,
    // stage 7: the group holding the pick (one-hot), the pick's offset in each
    /// pick - group start, with the borrow in bit 7 (pick below the start).
    pick_past_start: [Signal<Local, Bits<8>>; GROUPS],
    /// The pick is at or past each group's start, and below the count.
    reaches_group: [Signal<Local, Bit>; GROUPS],
    below_count: Signal<Local, Bit>,
    s7_holds_pick: [StageRegister<Bit>; GROUPS],
    s7_offset: [StageRegister<Bits<7>>; GROUPS],
    /// Set bits of each pair of members (2k, 2k + 1), for the ranks.
    rank_pair: [Signal<Local, Bits<3>>; PAIRS],
    /// Set bits of the first four members of each group, for the ranks.
    rank_first_quad: [Signal<Local, Bits<3>>; GROUPS],
    rank_below: [Signal<Local, Bits<3>>; MEMBERS],
    // stage 8: that group's bits and ranks, and the pick's rank in it
    s8_group: StageRegister<Bits<3>>,
    s8_offset: StageRegister<Bits<7>>,
    s8_group_bits: [StageRegister<Bit>; GROUP],
    s8_group_ranks: [StageRegister<Bits<3>>; GROUP],
    // (OR-ed in locals: a DFF's `d` reads back its settled value in
    // rust_hdl's simulation, not the one just assigned)
    held_group: Signal<Local, Bits<3>>,
    held_offset: Signal<Local, Bits<7>>,
    held_bits: [Signal<Local, Bit>; GROUP],
    held_ranks: [Signal<Local, Bits<3>>; GROUP],
    offset_in_group: Signal<Local, Bits<3>>,
    // stage 9: the member
    s9_picked: StageRegister<Bits<6>>,
    bit_in_group: Signal<Local, Bits<3>>,
    chosen: Signal<Local, Bits<6>>,
}

impl TieBreak {
    /// The block, leaving out the registers of the `wired` ranks (the
    /// draw's state, a loop, is always a register).
    pub fn new(wired: WiredRanks) -> Self {
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
            ahead_state: Default::default(),
            zero_seed_replacement: Constant::new((ZERO_SEED_REPLACEMENT as LiteralType).into()),
            stepped_replacement: Constant::new((STEPPED_REPLACEMENT as LiteralType).into()),
            reselect_q: wired.delay_line(1),
            keep_slot_q: wired.delay_line(1),
            slot_valid_q: wired.delay_line(1),
            slot_member_q: wired.delay_line(1),
            stay_q: wired.delay_line(1),
            s1_tie: wired.stages(1),
            s2_tie: wired.stages(2),
            s3_tie: wired.stages(3),
            s4_tie: wired.stages(4),
            s5_tie: wired.stages(5),
            s6_tie: wired.stages(6),
            s7_tie: wired.stages(7),
            s7_rank: wired.stages(7),
            s1_group_count: wired.stages(1),
            slot_member_tied: Default::default(),
            pair_count_wide: many(),
            quad_count_wide: many(),
            group_sum: many(),
            s2_group_count: wired.stages(2),
            s2_pair_groups: wired.stages(2),
            s3_group_start: wired.stages(3),
            s3_count: wired.stage(3),
            first_half: Default::default(),
            s4_group_start: wired.stages(4),
            s4_count: wired.stage(4),
            s4_partial: wired.stages(4),
            step_from: Default::default(),
            stepped: Default::default(),
            drawn_state: Default::default(),
            draw_now: Default::default(),
            take_draw: Default::default(),
            shifted_draw: many(),
            s5_group_start: wired.stages(5),
            s5_count: wired.stage(5),
            s5_product_low: wired.stage(5),
            s5_product_high: wired.stage(5),
            s6_group_start: wired.stages(6),
            s6_count: wired.stage(6),
            s6_pick: wired.stage(6),
            product: Default::default(),
            pick_past_start: many(),
            reaches_group: many(),
            below_count: Default::default(),
            s7_holds_pick: wired.stages(7),
            s7_offset: wired.stages(7),
            rank_pair: many(),
            rank_first_quad: many(),
            rank_below: many(),
            s8_group: wired.stage(8),
            s8_offset: wired.stage(8),
            s8_group_bits: wired.stages(8),
            s8_group_ranks: wired.stages(8),
            held_group: Default::default(),
            held_offset: Default::default(),
            held_bits: many(),
            held_ranks: many(),
            offset_in_group: Default::default(),
            s9_picked: wired.stage(9),
            bit_in_group: Default::default(),
            chosen: Default::default(),
        }
    }
}

impl Logic for TieBreak {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ahead_state);
        self.s3_count.clock.next = self.clock.val();
        self.s4_count.clock.next = self.clock.val();
        self.s5_count.clock.next = self.clock.val();
        self.s5_product_low.clock.next = self.clock.val();
        self.s5_product_high.clock.next = self.clock.val();
        self.s6_count.clock.next = self.clock.val();
        self.s6_pick.clock.next = self.clock.val();
        self.s8_group.clock.next = self.clock.val();
        self.s8_offset.clock.next = self.clock.val();
        self.s9_picked.clock.next = self.clock.val();
        for i in 0..LATENCY {
            self.reselect_q[i].clock.next = self.clock.val();
            self.keep_slot_q[i].clock.next = self.clock.val();
            self.slot_valid_q[i].clock.next = self.clock.val();
            self.slot_member_q[i].clock.next = self.clock.val();
            self.stay_q[i].clock.next = self.clock.val();
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
            self.stay_q[i].d.next = self.stay_q[i - 1].q.val();
        }
        for k in 0..MEMBERS {
            self.s1_tie[k].clock.next = self.clock.val();
            self.s2_tie[k].clock.next = self.clock.val();
            self.s3_tie[k].clock.next = self.clock.val();
            self.s4_tie[k].clock.next = self.clock.val();
            self.s5_tie[k].clock.next = self.clock.val();
            self.s6_tie[k].clock.next = self.clock.val();
            self.s7_tie[k].clock.next = self.clock.val();
            self.s7_rank[k].clock.next = self.clock.val();
            self.s1_tie[k].d.next = self.tie_mask[k].val();
            self.s2_tie[k].d.next = self.s1_tie[k].q.val();
            self.s3_tie[k].d.next = self.s2_tie[k].q.val();
            self.s4_tie[k].d.next = self.s3_tie[k].q.val();
            self.s5_tie[k].d.next = self.s4_tie[k].q.val();
            self.s6_tie[k].d.next = self.s5_tie[k].q.val();
            self.s7_tie[k].d.next = self.s6_tie[k].q.val();
        }
        // stage 0 -> 1: is the slot's member tied? set bits per group
        self.slot_member_tied.next = false;
        for k in 0..MEMBERS {
            if self.slot_member.val() == k.to_bits::<6>() {
                self.slot_member_tied.next = self.tie_mask[k].val();
            }
        }
        self.stay_q[0].d.next = self.slot_valid.val() & self.slot_member_tied.val();
        // the counts as a tree: pairs, quads, groups (adders in a chain
        // would map to one carry chain after another)
        for j in 0..PAIRS {
            self.pair_count_wide[j].next = 0.into();
            if self.tie_mask[2 * j].val() & self.tie_mask[2 * j + 1].val() {
                self.pair_count_wide[j].next = 2.into();
            } else if self.tie_mask[2 * j].val() | self.tie_mask[2 * j + 1].val() {
                self.pair_count_wide[j].next = 1.into();
            }
        }
        for i in 0..QUADS {
            self.quad_count_wide[i].next = self.pair_count_wide[2 * i].val() + self.pair_count_wide[2 * i + 1].val();
        }
        for g in 0..GROUPS {
            self.s1_group_count[g].clock.next = self.clock.val();
            self.group_sum[g].next = self.quad_count_wide[2 * g].val() + self.quad_count_wide[2 * g + 1].val();
            self.s1_group_count[g].d.next = self.group_sum[g].val();
        }
        // stage 1 -> 2: tied in pairs of groups (one add)
        for g in 0..GROUPS {
            self.s2_group_count[g].clock.next = self.clock.val();
            self.s2_group_count[g].d.next = self.s1_group_count[g].q.val();
        }
        for i in 0..4 {
            self.s2_pair_groups[i].clock.next = self.clock.val();
            self.s2_pair_groups[i].d.next = self.s1_group_count[2 * i].q.val() + self.s1_group_count[2 * i + 1].q.val();
        }
        // stage 2 -> 3: exclusive prefix sums of the group counts, at most
        // two adds deep (a chain of eight was once the block's critical path)
        self.first_half.next = self.s2_pair_groups[0].q.val() + self.s2_pair_groups[1].q.val();
        for g in 0..GROUPS {
            self.s3_group_start[g].clock.next = self.clock.val();
        }
        self.s3_group_start[0].d.next = 0.into();
        self.s3_group_start[1].d.next = self.s2_group_count[0].q.val();
        self.s3_group_start[2].d.next = self.s2_pair_groups[0].q.val();
        self.s3_group_start[3].d.next = self.s2_pair_groups[0].q.val() + self.s2_group_count[2].q.val();
        self.s3_group_start[4].d.next = self.first_half.val();
        self.s3_group_start[5].d.next = self.first_half.val() + self.s2_group_count[4].q.val();
        self.s3_group_start[6].d.next = self.first_half.val() + self.s2_pair_groups[2].q.val();
        self.s3_group_start[7].d.next = self.first_half.val() + (self.s2_pair_groups[2].q.val() + self.s2_group_count[6].q.val());
        self.s3_count.d.next = self.first_half.val() + (self.s2_pair_groups[2].q.val() + self.s2_pair_groups[3].q.val());
        // stage 3 -> 4: the draw, only for a re-selection among several,
        // and draw x count as partial sums (one add each) of the draw
        // shifted by each set bit of the count. The draw is the upper half
        // of `ahead_state` (XOR the constant), so no xorshift lies before
        // the adds; the xorshift computes the draw after it, on a seed
        // write from the seed's state (a zero seed: the replacement).
        self.take_draw.next = self.reselect_q[2].q.val() & !self.stay_q[2].q.val() & (self.s3_count.q.val() > 1);
        self.drawn_state.next = self.ahead_state.q.val() ^ self.stepped_replacement.val();
        self.step_from.next = self.drawn_state.val();
        if self.seed_write.val() {
            if self.seed.val() == 0 {
                self.step_from.next = self.zero_seed_replacement.val();
            } else {
                self.step_from.next = self.seed.val();
            }
        }
        self.stepped.next = self.step_from.val() ^ (self.step_from.val() << 13);
        self.stepped.next = self.stepped.val() ^ (self.stepped.val() >> 17);
        self.stepped.next = self.stepped.val() ^ (self.stepped.val() << 5);
        if self.take_draw.val() | self.seed_write.val() {
            self.ahead_state.d.next = self.stepped.val() ^ self.stepped_replacement.val();
        }
        self.draw_now.next = self.drawn_state.val().get_bits::<16>(16);
        for i in 0..7 {
            self.shifted_draw[i].next = 0.into();
        }
        if self.s3_count.q.val().get_bit(0) {
            self.shifted_draw[0].next = bit_cast::<PRODUCT_BITS, 16>(self.draw_now.val());
        }
        if self.s3_count.q.val().get_bit(1) {
            self.shifted_draw[1].next = bit_cast::<PRODUCT_BITS, 16>(self.draw_now.val()) << 1;
        }
        if self.s3_count.q.val().get_bit(2) {
            self.shifted_draw[2].next = bit_cast::<PRODUCT_BITS, 16>(self.draw_now.val()) << 2;
        }
        if self.s3_count.q.val().get_bit(3) {
            self.shifted_draw[3].next = bit_cast::<PRODUCT_BITS, 16>(self.draw_now.val()) << 3;
        }
        if self.s3_count.q.val().get_bit(4) {
            self.shifted_draw[4].next = bit_cast::<PRODUCT_BITS, 16>(self.draw_now.val()) << 4;
        }
        if self.s3_count.q.val().get_bit(5) {
            self.shifted_draw[5].next = bit_cast::<PRODUCT_BITS, 16>(self.draw_now.val()) << 5;
        }
        if self.s3_count.q.val().get_bit(6) {
            self.shifted_draw[6].next = bit_cast::<PRODUCT_BITS, 16>(self.draw_now.val()) << 6;
        }
        for i in 0..4 {
            self.s4_partial[i].clock.next = self.clock.val();
        }
        self.s4_partial[0].d.next = self.shifted_draw[0].val() + self.shifted_draw[1].val();
        self.s4_partial[1].d.next = self.shifted_draw[2].val() + self.shifted_draw[3].val();
        self.s4_partial[2].d.next = self.shifted_draw[4].val() + self.shifted_draw[5].val();
        self.s4_partial[3].d.next = self.shifted_draw[6].val();
        self.s4_count.d.next = self.s3_count.q.val();
        for g in 0..GROUPS {
            self.s4_group_start[g].clock.next = self.clock.val();
            self.s4_group_start[g].d.next = self.s3_group_start[g].q.val();
            self.s5_group_start[g].clock.next = self.clock.val();
            self.s5_group_start[g].d.next = self.s4_group_start[g].q.val();
            self.s6_group_start[g].clock.next = self.clock.val();
            self.s6_group_start[g].d.next = self.s5_group_start[g].q.val();
        }
        // stage 4 -> 5: the partial sums in two (one add each)
        self.s5_product_low.d.next = self.s4_partial[0].q.val() + self.s4_partial[1].q.val();
        self.s5_product_high.d.next = self.s4_partial[2].q.val() + self.s4_partial[3].q.val();
        self.s5_count.d.next = self.s4_count.q.val();
        // stage 5 -> 6: pick = (draw x count) >> 16 (0 when one is tied)
        self.product.next = self.s5_product_low.q.val() + self.s5_product_high.q.val();
        self.s6_pick.d.next = self.product.val().get_bits::<7>(16);
        self.s6_count.d.next = self.s5_count.q.val();
        // stage 6 -> 7: the group holding the pick, start <= pick < end (one
        // group at most: the empty ones start where they end), and the
        // pick's offset from each group's start. A group ends where the
        // next starts, so one subtraction per group (its borrow: the pick
        // is below the start) serves both bounds and the offset.
        // (written out: hdl_gen refuses a bit_cast of a loop-indexed element)
        self.pick_past_start[0].next = bit_cast::<8, 7>(self.s6_pick.q.val()) - bit_cast::<8, 7>(self.s6_group_start[0].q.val());
        self.pick_past_start[1].next = bit_cast::<8, 7>(self.s6_pick.q.val()) - bit_cast::<8, 7>(self.s6_group_start[1].q.val());
        self.pick_past_start[2].next = bit_cast::<8, 7>(self.s6_pick.q.val()) - bit_cast::<8, 7>(self.s6_group_start[2].q.val());
        self.pick_past_start[3].next = bit_cast::<8, 7>(self.s6_pick.q.val()) - bit_cast::<8, 7>(self.s6_group_start[3].q.val());
        self.pick_past_start[4].next = bit_cast::<8, 7>(self.s6_pick.q.val()) - bit_cast::<8, 7>(self.s6_group_start[4].q.val());
        self.pick_past_start[5].next = bit_cast::<8, 7>(self.s6_pick.q.val()) - bit_cast::<8, 7>(self.s6_group_start[5].q.val());
        self.pick_past_start[6].next = bit_cast::<8, 7>(self.s6_pick.q.val()) - bit_cast::<8, 7>(self.s6_group_start[6].q.val());
        self.pick_past_start[7].next = bit_cast::<8, 7>(self.s6_pick.q.val()) - bit_cast::<8, 7>(self.s6_group_start[7].q.val());
        for g in 0..GROUPS {
            self.reaches_group[g].next = !self.pick_past_start[g].val().get_bit(7);
        }
        self.below_count.next = self.s6_pick.q.val() < self.s6_count.q.val();
        for g in 0..7 {
            self.s7_holds_pick[g].d.next = self.reaches_group[g].val() & !self.reaches_group[g + 1].val();
        }
        self.s7_holds_pick[7].d.next = self.reaches_group[7].val() & self.below_count.val();
        for g in 0..GROUPS {
            self.s7_holds_pick[g].clock.next = self.clock.val();
            self.s7_offset[g].clock.next = self.clock.val();
            self.s7_offset[g].d.next = self.pick_past_start[g].val().get_bits::<7>(0);
        }
        // stage 6 -> 7: each tied member's rank within its group, from pair
        // and quad counts of the delayed mask (3-bit adds, three deep at
        // most), so that the last stage only compares
        for j in 0..PAIRS {
            self.rank_pair[j].next = 0.into();
            if self.s6_tie[2 * j].q.val() & self.s6_tie[2 * j + 1].q.val() {
                self.rank_pair[j].next = 2.into();
            } else if self.s6_tie[2 * j].q.val() | self.s6_tie[2 * j + 1].q.val() {
                self.rank_pair[j].next = 1.into();
            }
        }
        for g in 0..GROUPS {
            self.rank_first_quad[g].next = self.rank_pair[4 * g].val() + self.rank_pair[4 * g + 1].val();
        }
        for g in 0..GROUPS {
            self.rank_below[8 * g].next = 0.into();
            self.rank_below[8 * g + 1].next = 0.into();
            if self.s6_tie[8 * g].q.val() {
                self.rank_below[8 * g + 1].next = 1.into();
            }
            self.rank_below[8 * g + 2].next = self.rank_pair[4 * g].val();
            if self.s6_tie[8 * g + 2].q.val() {
                self.rank_below[8 * g + 3].next = self.rank_pair[4 * g].val() + 1;
            } else {
                self.rank_below[8 * g + 3].next = self.rank_pair[4 * g].val();
            }
            self.rank_below[8 * g + 4].next = self.rank_first_quad[g].val();
            if self.s6_tie[8 * g + 4].q.val() {
                self.rank_below[8 * g + 5].next = self.rank_first_quad[g].val() + 1;
            } else {
                self.rank_below[8 * g + 5].next = self.rank_first_quad[g].val();
            }
            self.rank_below[8 * g + 6].next = self.rank_first_quad[g].val() + self.rank_pair[4 * g + 2].val();
            if self.s6_tie[8 * g + 6].q.val() {
                self.rank_below[8 * g + 7].next = self.rank_below[8 * g + 6].val() + 1;
            } else {
                self.rank_below[8 * g + 7].next = self.rank_below[8 * g + 6].val();
            }
        }
        for k in 0..MEMBERS {
            self.s7_rank[k].d.next = self.rank_below[k].val();
        }
        // stage 7 -> 8: that group's bits, ranks and offset, OR-ed over the
        // one-hot (no group: group 0, no bit set, member 0)
        self.held_group.next = 0.into();
        self.held_offset.next = 0.into();
        for b in 0..GROUP {
            self.held_bits[b].next = false;
            self.held_ranks[b].next = 0.into();
        }
        for g in 0..GROUPS {
            if self.s7_holds_pick[g].q.val() {
                self.held_group.next = self.held_group.val() | g.to_bits::<3>();
                self.held_offset.next = self.held_offset.val() | self.s7_offset[g].q.val();
                for b in 0..GROUP {
                    self.held_bits[b].next = self.held_bits[b].val() | self.s7_tie[8 * g + b].q.val();
                    self.held_ranks[b].next = self.held_ranks[b].val() | self.s7_rank[8 * g + b].q.val();
                }
            }
        }
        self.s8_group.d.next = self.held_group.val();
        self.s8_offset.d.next = self.held_offset.val();
        for b in 0..GROUP {
            self.s8_group_bits[b].clock.next = self.clock.val();
            self.s8_group_ranks[b].clock.next = self.clock.val();
            self.s8_group_bits[b].d.next = self.held_bits[b].val();
            self.s8_group_ranks[b].d.next = self.held_ranks[b].val();
        }
        // stage 8 -> 9: the set bit of that rank in the group
        self.offset_in_group.next = bit_cast::<3, _>(self.s8_offset.q.val());
        self.bit_in_group.next = 0.into();
        for b in 0..GROUP {
            if self.s8_group_bits[b].q.val() & (self.s8_group_ranks[b].q.val() == self.offset_in_group.val()) {
                self.bit_in_group.next = self.bit_in_group.val() | b.to_bits::<3>();
            }
        }
        self.s9_picked.d.next = (bit_cast::<6, 3>(self.s8_group.q.val()) << 3) | bit_cast::<6, 3>(self.bit_in_group.val());
        // cycle 9: the answer
        if self.use_hash.val() {
            self.chosen.next = self.hash_member.val();
        } else if self.keep_slot_q[8].q.val() | self.stay_q[8].q.val() {
            self.chosen.next = self.slot_member_q[8].q.val();
        } else {
            self.chosen.next = self.s9_picked.q.val();
        }
        self.member.next = self.chosen.val();
        self.moved.next = !self.use_hash.val() & self.reselect_q[8].q.val() & self.slot_valid_q[8].q.val()
            & (self.chosen.val() != self.slot_member_q[8].q.val());
    }
}
