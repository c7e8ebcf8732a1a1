//! The priority group of a pool: its lossless classes, the classes a pause
//! or resume frame for that pool names.
//!
//! Class n is in the group when it is lossless (`pfc_enabled` bit n) and
//! maps to the pool: through the class-to-pool table (`tc_pool`, 3 bits per
//! class, class n in bits 3n+2..3n), or, under the UET policy, when n is
//! the pool's number.
//!
//! Ports (combinational, no clock):
//! * query: `pool`
//! * configuration: `uet_policy`, `tc_pool`, `pfc_enabled`
//! * group: `classes` (bit n: class n)
//!
//! Latency 0 cycles (logic only).

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct PriorityGroup {
    // query
    pub pool: Signal<In, Bits<3>>,
    // configuration
    pub uet_policy: Signal<In, Bit>,
    pub tc_pool: Signal<In, Bits<24>>,
    pub pfc_enabled: Signal<In, Bits<8>>,
    // group
    pub classes: Signal<Out, Bits<8>>,
    /// One term per class, combined at the end (a local never reads itself).
    class_in_group: [Signal<Local, Bits<8>>; 8],
}

impl Logic for PriorityGroup {
    #[hdl_gen]
    fn update(&mut self) {
        for t in 0..8 {
            self.class_in_group[t].next = 0.into();
            if self.pfc_enabled.val().get_bit(t) {
                if self.uet_policy.val() {
                    if self.pool.val().index() == t {
                        self.class_in_group[t].next = (1 << t).into();
                    }
                } else if self.tc_pool.val().get_bits::<3>(3 * t) == self.pool.val() {
                    self.class_in_group[t].next = (1 << t).into();
                }
            }
        }
        self.classes.next = self.class_in_group[0].val() | self.class_in_group[1].val() | self.class_in_group[2].val()
            | self.class_in_group[3].val() | self.class_in_group[4].val() | self.class_in_group[5].val()
            | self.class_in_group[6].val() | self.class_in_group[7].val();
    }
}
