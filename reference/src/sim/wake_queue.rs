//! The simulation's pending wakes, popped in (time, order of scheduling)
//! order: a calendar queue.
//!
//! A binary heap of every pending wake costs O(log n) per operation with n
//! growing with the switch (each port keeps a sender, frames on the wire
//! and an egress frame pending); the profile of a 256-port run at full load
//! spent 43% of its time in `BinaryHeap::pop`. Here a wake goes to a ring
//! of buckets, one per `BUCKET_PS` of time, covering `HORIZON_BUCKETS`
//! buckets ahead of now. Entering a bucket sorts its wakes once; wakes
//! scheduled into the bucket being drained (a wake "now") go to a small
//! heap beside it, and each pop takes the earlier of the two heads. Wakes
//! beyond the horizon (reports, long pauses) wait in an overflow heap and
//! join the current bucket when their time comes.
//!
//! The order is exactly one heap's: every wake of bucket b pops before any
//! of bucket b+1, and inside a bucket both parts order by (time, sequence).
//! A wake is never scheduled before the current time, so it never lands in
//! a bucket already drained.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// log2 of a bucket's width in ps (1,024 ps).
const BUCKET_SHIFT: u32 = 10;
/// Buckets in the ring: 4,096 x 1,024 ps = 4.2 us ahead, longer than a
/// 9 KB frame at 25 Gb/s plus a few us of link delay.
const HORIZON_BUCKETS: u64 = 4096;

/// One pending wake: its time in ps, the order it was scheduled in, and
/// what it wakes.
type Entry<W> = Reverse<(u64, u64, W)>;

pub struct WakeQueue<W: Ord> {
    /// Wakes of the bucket being drained (`current_bucket`) that were in
    /// it when it was entered, sorted latest first (the next is last).
    current_sorted: Vec<Entry<W>>,
    /// Wakes scheduled into the bucket while it is drained.
    current: BinaryHeap<Entry<W>>,
    current_bucket: u64,
    /// `ring[b % HORIZON_BUCKETS]` holds the wakes of bucket b, for b in
    /// (current_bucket, current_bucket + HORIZON_BUCKETS).
    ring: Vec<Vec<Entry<W>>>,
    /// Bit `s` set when `ring[s]` holds wakes, so a sparse ring is crossed
    /// a word at a time rather than a bucket at a time.
    occupied: [u64; (HORIZON_BUCKETS / 64) as usize],
    in_ring: usize,
    /// Wakes at or past the horizon when they were scheduled.
    overflow: BinaryHeap<Entry<W>>,
    scheduled: u64,
}

impl<W: Ord> Default for WakeQueue<W> {
    fn default() -> Self {
        Self {
            current_sorted: Vec::new(),
            current: BinaryHeap::new(),
            current_bucket: 0,
            ring: (0..HORIZON_BUCKETS).map(|_| Vec::new()).collect(),
            occupied: [0; (HORIZON_BUCKETS / 64) as usize],
            in_ring: 0,
            overflow: BinaryHeap::new(),
            scheduled: 0,
        }
    }
}

impl<W: Ord> WakeQueue<W> {
    /// Schedules `wake` at `t_ps`, which must not be before the last popped
    /// time.
    pub fn push(&mut self, t_ps: u64, wake: W) {
        self.scheduled += 1;
        let entry = Reverse((t_ps, self.scheduled, wake));
        let bucket = t_ps >> BUCKET_SHIFT;
        debug_assert!(bucket >= self.current_bucket, "a wake in the past");
        if bucket <= self.current_bucket {
            self.current.push(entry);
        } else if bucket - self.current_bucket < HORIZON_BUCKETS {
            let slot = (bucket % HORIZON_BUCKETS) as usize;
            self.ring[slot].push(entry);
            self.occupied[slot / 64] |= 1 << (slot % 64);
            self.in_ring += 1;
        } else {
            self.overflow.push(entry);
        }
    }

    /// The earliest wake (first scheduled among equal times), with its time.
    pub fn pop(&mut self) -> Option<(u64, W)> {
        loop {
            let from_sorted = match (self.current_sorted.last(), self.current.peek()) {
                (Some(sorted), Some(late)) => sorted > late,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => {
                    if !self.enter_next_bucket() {
                        return None;
                    }
                    continue;
                }
            };
            let Reverse((t, _, wake)) = if from_sorted { self.current_sorted.pop() } else { self.current.pop() }.expect("a head was seen");
            return Some((t, wake));
        }
    }

    /// The first bucket after the current one whose ring slot holds wakes,
    /// or the first overflow wake's bucket if that comes earlier (the ring
    /// holds wakes, so one slot is occupied).
    fn next_occupied_bucket(&self) -> u64 {
        let words = self.occupied.len();
        let start = ((self.current_bucket + 1) % HORIZON_BUCKETS) as usize;
        let mut distance = None;
        // Scan the words from the one holding `start`, wrapping once.
        for k in 0..=words {
            let w = (start / 64 + k) % words;
            let mut bits = self.occupied[w];
            if k == 0 {
                bits &= !0u64 << (start % 64);
            } else if k == words {
                bits &= !(!0u64 << (start % 64));
            }
            if bits != 0 {
                let slot = w * 64 + bits.trailing_zeros() as usize;
                distance = Some((slot + HORIZON_BUCKETS as usize - start) % HORIZON_BUCKETS as usize);
                break;
            }
        }
        let from_ring = self.current_bucket + 1 + distance.expect("the ring holds wakes") as u64;
        match self.overflow.peek() {
            Some(Reverse((t, _, _))) => from_ring.min(t >> BUCKET_SHIFT),
            None => from_ring,
        }
    }

    /// Moves to the next bucket that may hold wakes and gathers them into
    /// `current`; false when nothing is pending.
    fn enter_next_bucket(&mut self) -> bool {
        let next = if self.in_ring > 0 {
            self.next_occupied_bucket()
        } else if let Some(Reverse((t, _, _))) = self.overflow.peek() {
            t >> BUCKET_SHIFT
        } else {
            return false;
        };
        self.current_bucket = next;
        let slot = (next % HORIZON_BUCKETS) as usize;
        self.occupied[slot / 64] &= !(1 << (slot % 64));
        self.in_ring -= self.ring[slot].len();
        std::mem::swap(&mut self.current_sorted, &mut self.ring[slot]);
        while self.overflow.peek().is_some_and(|Reverse((t, _, _))| t >> BUCKET_SHIFT <= next) {
            let entry = self.overflow.pop().expect("peeked");
            self.current_sorted.push(entry);
        }
        // Latest first: the next wake pops from the end.
        self.current_sorted.sort_unstable_by(|a, b| (a.0 .0, a.0 .1).cmp(&(b.0 .0, b.0 .1)).reverse());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any interleaving of pushes (never before the last popped time) and
        /// pops gives the order of one binary heap of (time, sequence).
        #[test]
        fn pops_in_the_order_of_one_heap(steps in proptest::collection::vec((any::<bool>(), 0u64..3, 0u64..20_000_000), 1..400)) {
            let mut queue = WakeQueue::default();
            let mut heap = BinaryHeap::new();
            let (mut now, mut sequence) = (0u64, 0u64);
            for (i, (pop, scale, delay)) in steps.into_iter().enumerate() {
                if pop {
                    let expected = heap.pop().map(|Reverse((t, _, w)): Entry<usize>| (t, w));
                    prop_assert_eq!(queue.pop(), expected);
                    if let Some((t, _)) = expected { now = t; }
                } else {
                    // Delays near zero, within the horizon, and far past it.
                    let t = now + delay / [10_000, 100, 1][scale as usize];
                    sequence += 1;
                    heap.push(Reverse((t, sequence, i)));
                    queue.push(t, i);
                }
            }
            while let Some(Reverse((t, _, w))) = heap.pop() {
                prop_assert_eq!(queue.pop(), Some((t, w)));
            }
            prop_assert_eq!(queue.pop(), None);
        }
    }
}
