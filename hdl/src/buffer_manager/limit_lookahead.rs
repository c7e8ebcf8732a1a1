//! The egress limits of an event, computed two cycles ahead of its
//! decision so that the multiply is out of the admission loop.
//!
//! The dynamic limit of event n depends on its pool's free bytes after
//! event n-1, which decides only in the cycle before n. So the limit is
//! computed for each way the two events ahead can turn out: from the pool's
//! free bytes (size - egress bytes) after event n-3 (the registers, when n
//! is two stages before its decision) less, for each of n-2 and n-1, the
//! change it makes to that pool's egress bytes if it is applied (an arrival
//! admitted at egress: + its bytes; a release: - its bytes; a trimmed
//! arrival: + 46 B to pool 1) or not. Four candidates for the packet's pool
//! and four for pool 1 (trimming); at the decision the outcomes of n-2 and
//! n-1 (`decided_*`, registered here) pick one. Bit-exact: each candidate
//! is the limit the one-cycle design computes when the outcomes are those.
//!
//! The packet's pool comes from its classification late in C1, so the
//! candidates are summed before it is known, for the three pools the two
//! events ahead can change (n-2's pool, n-1's pool, pool 1), and the pool
//! then only picks one of the three sets, or the plain free bytes of a pool
//! neither event touches. Free bytes are 33-bit two's complement (negative:
//! the pool is over its size); the true value of a picked candidate always
//! fits, so the wrap of an intermediate sum does no harm.
//!
//! Stages (the buffer manager's):
//! * C1: each pool's size and egress bytes, the two events ahead
//!   (`older_*` is n-2, `newer_*` n-1), then `pool` -> the pool's free
//!   bytes of each candidate;
//! * C2: configuration (`dynamic_limit`, `alpha_q10`, the fixed limits)
//!   -> eight [`EgressLimit`]s;
//! * D: `limit_bytes`, `trim_limit_bytes` for the event deciding, from the
//!   outcomes of the two events decided before it.
//!
//! ```text
//!  C1: F[p] = size[p] - E[p] (x8); for x in {pool(n-2), pool(n-1), 1}:
//!      F[x] - {0, d(n-2)} - {0, d(n-1)} (x4 each); pool ─► pick a set ─►[reg]
//!  C2: egress_limit x8 ─►[reg]
//!  D:  outcome(n-2), outcome(n-1) ─► pick one of four ─► limit_bytes, trim_limit_bytes
//! ```

use super::egress_limit::EgressLimit;
use rust_hdl::prelude::*;

/// The bytes a trimmed packet is charged (and adds to pool 1).
const TRIMMED_CHARGE: u32 = 46;
/// Trimmed packets go to pool 1.
const TRIM_POOL: u32 = 1;
/// The pools.
const POOLS: usize = 8;
/// The pools whose candidates are summed before the packet's pool is
/// known, in this order: the pool of the event two ahead, of the event one
/// ahead, pool 1. (The kernel writes the indices as numbers: rust_hdl puts
/// a constant's name, not its value, into the Verilog.)
const SUMMED_POOLS: usize = 3;

#[derive(LogicBlock)]
pub struct LimitLookahead {
    pub clock: Signal<In, Clock>,
    // stage C1: every pool (egress bytes after event n-3), the event's pool
    pub pool_size_of: [Signal<In, Bits<32>>; POOLS],
    pub pool_egress_of: [Signal<In, Bits<32>>; POOLS],
    pub pool: Signal<In, Bits<3>>,
    // stage C1: the events two and one ahead (charged bytes)
    pub older_arrival: Signal<In, Bit>,
    pub older_release: Signal<In, Bit>,
    pub older_pool: Signal<In, Bits<3>>,
    pub older_bytes: Signal<In, Bits<32>>,
    pub newer_arrival: Signal<In, Bit>,
    pub newer_release: Signal<In, Bit>,
    pub newer_pool: Signal<In, Bits<3>>,
    pub newer_bytes: Signal<In, Bits<32>>,
    // stage C2: configuration
    pub dynamic_limit: Signal<In, Bit>,
    pub alpha_q10: Signal<In, Bits<16>>,
    pub fixed_limit_bytes: Signal<In, Bits<32>>,
    pub pool1_fixed_bytes: Signal<In, Bits<32>>,
    // stage D: the outcome of the event deciding (registered for the next two)
    pub decided_added: Signal<In, Bit>,
    pub decided_trimmed: Signal<In, Bit>,
    pub decided_released: Signal<In, Bit>,
    // stage D: the limits of the event deciding
    pub limit_bytes: Signal<Out, Bits<32>>,
    pub trim_limit_bytes: Signal<Out, Bits<32>>,
    // C1 -> C2: the pool's free bytes per candidate, index 2a + b (a: n-2
    // applied, b: n-1 applied)
    c2_free: [DFF<Bits<33>>; 4],
    c2_free1: [DFF<Bits<33>>; 4],
    // C2 -> D: limits per candidate
    d_limit: [DFF<Bits<32>>; 4],
    d_limit1: [DFF<Bits<32>>; 4],
    limits: [EgressLimit; 4],
    limits1: [EgressLimit; 4],
    // what each event ahead would change, for the packet's pool and pool 1,
    // carried from C1 to D: (older, newer) x (adds, trims, releases)
    c2_kinds: DFF<Bits<12>>,
    d_kinds: DFF<Bits<12>>,
    // outcomes of the last two decided events
    added1: DFF<Bit>,
    trimmed1: DFF<Bit>,
    released1: DFF<Bit>,
    added2: DFF<Bit>,
    trimmed2: DFF<Bit>,
    released2: DFF<Bit>,
    kinds: Signal<Local, Bits<12>>,
    /// One term per kind bit, combined below (a local never reads itself).
    kind_term: [Signal<Local, Bits<12>>; 12],
    /// Each pool's size - egress bytes.
    free_of: [Signal<Local, Bits<33>>; POOLS],
    /// The summed pools (n-2's, n-1's, pool 1), their free bytes, and the
    /// change to them of the event two and one ahead.
    summed_pool: [Signal<Local, Bits<3>>; SUMMED_POOLS],
    summed_free: [Signal<Local, Bits<33>>; SUMMED_POOLS],
    older_change: [Signal<Local, Bits<33>>; SUMMED_POOLS],
    newer_change: [Signal<Local, Bits<33>>; SUMMED_POOLS],
    /// Candidate c of summed pool x at 4x + c: n-2's pool at 0-3, n-1's
    /// at 4-7, pool 1's at 8-11.
    summed_candidate: [Signal<Local, Bits<33>>; 12],
    free_of_pool: Signal<Local, Bits<33>>,
    candidate: [Signal<Local, Bits<33>>; 4],
    older_applied: Signal<Local, Bit>,
    newer_applied: Signal<Local, Bit>,
    older_applied1: Signal<Local, Bit>,
    newer_applied1: Signal<Local, Bit>,
    picked: Signal<Local, Bits<32>>,
    picked1: Signal<Local, Bits<32>>,
    trimmed_charge: Constant<Bits<33>>,
    trim_pool: Constant<Bits<3>>,
    /// False only in the fault-injection build that ignores the outcome of
    /// the event two ahead (the test must catch it).
    older_lookahead: Constant<Bit>,
}

impl LimitLookahead {
    pub fn new(older_lookahead: bool) -> LimitLookahead {
        LimitLookahead {
            clock: Default::default(),
            pool_size_of: Default::default(),
            pool_egress_of: Default::default(),
            pool: Default::default(),
            older_arrival: Default::default(),
            older_release: Default::default(),
            older_pool: Default::default(),
            older_bytes: Default::default(),
            newer_arrival: Default::default(),
            newer_release: Default::default(),
            newer_pool: Default::default(),
            newer_bytes: Default::default(),
            dynamic_limit: Default::default(),
            alpha_q10: Default::default(),
            fixed_limit_bytes: Default::default(),
            pool1_fixed_bytes: Default::default(),
            decided_added: Default::default(),
            decided_trimmed: Default::default(),
            decided_released: Default::default(),
            limit_bytes: Default::default(),
            trim_limit_bytes: Default::default(),
            c2_free: Default::default(),
            c2_free1: Default::default(),
            d_limit: Default::default(),
            d_limit1: Default::default(),
            limits: Default::default(),
            limits1: Default::default(),
            c2_kinds: Default::default(),
            d_kinds: Default::default(),
            added1: Default::default(),
            trimmed1: Default::default(),
            released1: Default::default(),
            added2: Default::default(),
            trimmed2: Default::default(),
            released2: Default::default(),
            kinds: Default::default(),
            kind_term: Default::default(),
            free_of: Default::default(),
            summed_pool: Default::default(),
            summed_free: Default::default(),
            older_change: Default::default(),
            newer_change: Default::default(),
            summed_candidate: Default::default(),
            free_of_pool: Default::default(),
            candidate: Default::default(),
            older_applied: Default::default(),
            newer_applied: Default::default(),
            older_applied1: Default::default(),
            newer_applied1: Default::default(),
            picked: Default::default(),
            picked1: Default::default(),
            trimmed_charge: Constant::new(Bits::<33>::from(TRIMMED_CHARGE as LiteralType)),
            trim_pool: Constant::new(Bits::<3>::from(TRIM_POOL as LiteralType)),
            older_lookahead: Constant::new(older_lookahead),
        }
    }
}

impl Default for LimitLookahead {
    fn default() -> Self {
        LimitLookahead::new(true)
    }
}

impl Logic for LimitLookahead {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, c2_kinds, d_kinds, added1, trimmed1, released1, added2, trimmed2, released2);
        for c in 0..4 {
            self.c2_free[c].clock.next = self.clock.val();
            self.c2_free1[c].clock.next = self.clock.val();
            self.d_limit[c].clock.next = self.clock.val();
            self.d_limit[c].d.next = self.d_limit[c].q.val();
            self.d_limit1[c].clock.next = self.clock.val();
            self.d_limit1[c].d.next = self.d_limit1[c].q.val();
        }
        // C1: what each event ahead would change. Kind bits: 0-2 older
        // (adds, trims, releases) for the packet's pool, 3-5 newer, 6-8
        // older for pool 1, 9-11 newer for pool 1.
        self.kind_term[0].next = 0.into();
        if self.older_arrival.val() & (self.older_pool.val() == self.pool.val()) {
            self.kind_term[0].next = (1).into();
        }
        self.kind_term[1].next = 0.into();
        if self.older_arrival.val() & (self.older_pool.val() != self.pool.val()) & (self.pool.val() == self.trim_pool.val()) {
            self.kind_term[1].next = (2).into();
        }
        self.kind_term[2].next = 0.into();
        if self.older_release.val() & (self.older_pool.val() == self.pool.val()) {
            self.kind_term[2].next = (4).into();
        }
        self.kind_term[3].next = 0.into();
        if self.newer_arrival.val() & (self.newer_pool.val() == self.pool.val()) {
            self.kind_term[3].next = (8).into();
        }
        self.kind_term[4].next = 0.into();
        if self.newer_arrival.val() & (self.newer_pool.val() != self.pool.val()) & (self.pool.val() == self.trim_pool.val()) {
            self.kind_term[4].next = (16).into();
        }
        self.kind_term[5].next = 0.into();
        if self.newer_release.val() & (self.newer_pool.val() == self.pool.val()) {
            self.kind_term[5].next = (32).into();
        }
        self.kind_term[6].next = 0.into();
        if self.older_arrival.val() & (self.older_pool.val() == self.trim_pool.val()) {
            self.kind_term[6].next = (64).into();
        }
        self.kind_term[7].next = 0.into();
        if self.older_arrival.val() & (self.older_pool.val() != self.trim_pool.val()) {
            self.kind_term[7].next = (128).into();
        }
        self.kind_term[8].next = 0.into();
        if self.older_release.val() & (self.older_pool.val() == self.trim_pool.val()) {
            self.kind_term[8].next = (256).into();
        }
        self.kind_term[9].next = 0.into();
        if self.newer_arrival.val() & (self.newer_pool.val() == self.trim_pool.val()) {
            self.kind_term[9].next = (512).into();
        }
        self.kind_term[10].next = 0.into();
        if self.newer_arrival.val() & (self.newer_pool.val() != self.trim_pool.val()) {
            self.kind_term[10].next = (1024).into();
        }
        self.kind_term[11].next = 0.into();
        if self.newer_release.val() & (self.newer_pool.val() == self.trim_pool.val()) {
            self.kind_term[11].next = (2048).into();
        }
        self.kinds.next = self.kind_term[0].val()
            | self.kind_term[1].val()
            | self.kind_term[2].val()
            | self.kind_term[3].val()
            | self.kind_term[4].val()
            | self.kind_term[5].val()
            | self.kind_term[6].val()
            | self.kind_term[7].val()
            | self.kind_term[8].val()
            | self.kind_term[9].val()
            | self.kind_term[10].val()
            | self.kind_term[11].val();
        // C1, before the pool is known: every pool's free bytes, and the
        // candidates of the pools the events ahead can change. The changes
        // are to free bytes: an arrival or a trim takes, a release gives.
        // Written out: hdl_gen loses a loop's index inside `bit_cast`.
        self.free_of[0].next = bit_cast::<33, 32>(self.pool_size_of[0].val()) - bit_cast::<33, 32>(self.pool_egress_of[0].val());
        self.free_of[1].next = bit_cast::<33, 32>(self.pool_size_of[1].val()) - bit_cast::<33, 32>(self.pool_egress_of[1].val());
        self.free_of[2].next = bit_cast::<33, 32>(self.pool_size_of[2].val()) - bit_cast::<33, 32>(self.pool_egress_of[2].val());
        self.free_of[3].next = bit_cast::<33, 32>(self.pool_size_of[3].val()) - bit_cast::<33, 32>(self.pool_egress_of[3].val());
        self.free_of[4].next = bit_cast::<33, 32>(self.pool_size_of[4].val()) - bit_cast::<33, 32>(self.pool_egress_of[4].val());
        self.free_of[5].next = bit_cast::<33, 32>(self.pool_size_of[5].val()) - bit_cast::<33, 32>(self.pool_egress_of[5].val());
        self.free_of[6].next = bit_cast::<33, 32>(self.pool_size_of[6].val()) - bit_cast::<33, 32>(self.pool_egress_of[6].val());
        self.free_of[7].next = bit_cast::<33, 32>(self.pool_size_of[7].val()) - bit_cast::<33, 32>(self.pool_egress_of[7].val());
        self.summed_pool[0].next = self.older_pool.val();
        self.summed_pool[1].next = self.newer_pool.val();
        self.summed_pool[2].next = self.trim_pool.val();
        for x in 0..3 {
            self.summed_free[x].next = self.free_of[0].val();
            for p in 1..8 {
                if self.summed_pool[x].val().index() == p {
                    self.summed_free[x].next = self.free_of[p].val();
                }
            }
            self.older_change[x].next = 0.into();
            if self.older_arrival.val() & (self.older_pool.val() == self.summed_pool[x].val()) {
                self.older_change[x].next = !bit_cast::<33, 32>(self.older_bytes.val()) + 1;
            }
            if self.older_arrival.val() & (self.older_pool.val() != self.summed_pool[x].val()) & (self.summed_pool[x].val() == self.trim_pool.val()) {
                self.older_change[x].next = !self.trimmed_charge.val() + 1;
            }
            if self.older_release.val() & (self.older_pool.val() == self.summed_pool[x].val()) {
                self.older_change[x].next = bit_cast::<33, 32>(self.older_bytes.val());
            }
            self.newer_change[x].next = 0.into();
            if self.newer_arrival.val() & (self.newer_pool.val() == self.summed_pool[x].val()) {
                self.newer_change[x].next = !bit_cast::<33, 32>(self.newer_bytes.val()) + 1;
            }
            if self.newer_arrival.val() & (self.newer_pool.val() != self.summed_pool[x].val()) & (self.summed_pool[x].val() == self.trim_pool.val()) {
                self.newer_change[x].next = !self.trimmed_charge.val() + 1;
            }
            if self.newer_release.val() & (self.newer_pool.val() == self.summed_pool[x].val()) {
                self.newer_change[x].next = bit_cast::<33, 32>(self.newer_bytes.val());
            }
            // Candidate 2a + b: the free bytes with n-2's change if a, n-1's if b.
            self.summed_candidate[4 * x].next = self.summed_free[x].val();
            self.summed_candidate[4 * x + 1].next = self.summed_free[x].val() + self.newer_change[x].val();
            self.summed_candidate[4 * x + 2].next = self.summed_free[x].val() + self.older_change[x].val();
            self.summed_candidate[4 * x + 3].next = self.summed_free[x].val() + self.older_change[x].val() + self.newer_change[x].val();
        }
        // C1, once the pool is known: its summed set, or its plain free
        // bytes when neither event ahead changes it.
        self.free_of_pool.next = self.free_of[0].val();
        for p in 1..8 {
            if self.pool.val().index() == p {
                self.free_of_pool.next = self.free_of[p].val();
            }
        }
        for c in 0..4 {
            self.candidate[c].next = self.free_of_pool.val();
            if self.pool.val() == self.trim_pool.val() {
                self.candidate[c].next = self.summed_candidate[8 + c].val();
            }
            if self.pool.val() == self.newer_pool.val() {
                self.candidate[c].next = self.summed_candidate[4 + c].val();
            }
            if self.pool.val() == self.older_pool.val() {
                self.candidate[c].next = self.summed_candidate[c].val();
            }
            self.c2_free[c].d.next = self.candidate[c].val();
            self.c2_free1[c].d.next = self.summed_candidate[8 + c].val();
        }
        self.c2_kinds.d.next = self.kinds.val();
        // C2: the limits of the candidates.
        for c in 0..4 {
            self.limits[c].dynamic_limit.next = self.dynamic_limit.val();
            self.limits[c].alpha_q10.next = self.alpha_q10.val();
            self.limits[c].free_difference.next = self.c2_free[c].q.val();
            self.limits[c].fixed_limit_bytes.next = self.fixed_limit_bytes.val();
            self.d_limit[c].d.next = self.limits[c].limit_bytes.val();
            self.limits1[c].dynamic_limit.next = self.dynamic_limit.val();
            self.limits1[c].alpha_q10.next = self.alpha_q10.val();
            self.limits1[c].free_difference.next = self.c2_free1[c].q.val();
            self.limits1[c].fixed_limit_bytes.next = self.pool1_fixed_bytes.val();
            self.d_limit1[c].d.next = self.limits1[c].limit_bytes.val();
        }
        self.d_kinds.d.next = self.c2_kinds.q.val();
        // D: did each event ahead make its change?
        self.added1.d.next = self.decided_added.val();
        self.trimmed1.d.next = self.decided_trimmed.val();
        self.released1.d.next = self.decided_released.val();
        self.added2.d.next = self.added1.q.val();
        self.trimmed2.d.next = self.trimmed1.q.val();
        self.released2.d.next = self.released1.q.val();
        self.older_applied.next = self.older_lookahead.val()
            & ((self.d_kinds.q.val().get_bit(0) & self.added2.q.val())
                | (self.d_kinds.q.val().get_bit(1) & self.trimmed2.q.val())
                | (self.d_kinds.q.val().get_bit(2) & self.released2.q.val()));
        self.newer_applied.next = (self.d_kinds.q.val().get_bit(3) & self.added1.q.val())
            | (self.d_kinds.q.val().get_bit(4) & self.trimmed1.q.val())
            | (self.d_kinds.q.val().get_bit(5) & self.released1.q.val());
        self.older_applied1.next = self.older_lookahead.val()
            & ((self.d_kinds.q.val().get_bit(6) & self.added2.q.val())
                | (self.d_kinds.q.val().get_bit(7) & self.trimmed2.q.val())
                | (self.d_kinds.q.val().get_bit(8) & self.released2.q.val()));
        self.newer_applied1.next = (self.d_kinds.q.val().get_bit(9) & self.added1.q.val())
            | (self.d_kinds.q.val().get_bit(10) & self.trimmed1.q.val())
            | (self.d_kinds.q.val().get_bit(11) & self.released1.q.val());
        self.picked.next = self.d_limit[0].q.val();
        if self.older_applied.val() & self.newer_applied.val() {
            self.picked.next = self.d_limit[3].q.val();
        } else if self.older_applied.val() {
            self.picked.next = self.d_limit[2].q.val();
        } else if self.newer_applied.val() {
            self.picked.next = self.d_limit[1].q.val();
        }
        self.picked1.next = self.d_limit1[0].q.val();
        if self.older_applied1.val() & self.newer_applied1.val() {
            self.picked1.next = self.d_limit1[3].q.val();
        } else if self.older_applied1.val() {
            self.picked1.next = self.d_limit1[2].q.val();
        } else if self.newer_applied1.val() {
            self.picked1.next = self.d_limit1[1].q.val();
        }
        // Each output is assigned once (see `crate::forwarding_ram`).
        self.limit_bytes.next = self.picked.val();
        self.trim_limit_bytes.next = self.picked1.val();
    }
}
