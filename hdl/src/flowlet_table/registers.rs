//! The flowlet table's register decoding: configuration writes into named
//! fields (docs/register_map.md, `flowlet-table`), and the set-table
//! writes passed on as strobes.
//!
//! Parameters: `S`, set id bits (up to 2^S sets).
//!
//! Ports (all on `clock`):
//! * configuration: `cfg_write`, `cfg_address` (8 bits), `cfg_data` (32)
//! * fields, a cycle after their write: `flowlet_method` (set: flowlet,
//!   clear: none), `gap_ns` (32 bits, ns), `pfc_aware`, `set_select` (S bits)
//! * seed, in the write's own cycle: `seed_write`, `seed` (32 bits)
//! * set table, in the write's own cycle: `size_write` with `set_size`
//!   (7 bits, members); `member_write` with `member_index` (6 bits) and
//!   `member_port` (8 bits); both for the set `set_select` holds
//!
//! Latency: fields one cycle after the write; strobes none.

use reference::register_map::*;
use rust_hdl::prelude::*;
use crate::build_checks::c8;

#[derive(LogicBlock)]
pub struct Registers<const S: usize> {
    pub clock: Signal<In, Clock>,
    // configuration channel
    pub cfg_write: Signal<In, Bit>,
    pub cfg_address: Signal<In, Bits<8>>,
    pub cfg_data: Signal<In, Bits<32>>,
    // fields
    pub flowlet_method: Signal<Out, Bit>,
    pub gap_ns: Signal<Out, Bits<32>>,
    pub pfc_aware: Signal<Out, Bit>,
    pub set_select: Signal<Out, Bits<S>>,
    // seed
    pub seed_write: Signal<Out, Bit>,
    pub seed: Signal<Out, Bits<32>>,
    // set table
    pub size_write: Signal<Out, Bit>,
    pub set_size: Signal<Out, Bits<7>>,
    pub member_write: Signal<Out, Bit>,
    pub member_index: Signal<Out, Bits<6>>,
    pub member_port: Signal<Out, Bits<8>>,
    // the registers
    method_is_flowlet: DFF<Bit>,
    gap: DFF<Bits<32>>,
    pfc_aware_flag: DFF<Bit>,
    selected_set: DFF<Bits<S>>,
    reg_method: Constant<Bits<8>>,
    reg_gap: Constant<Bits<8>>,
    reg_pfc_aware: Constant<Bits<8>>,
    reg_seed: Constant<Bits<8>>,
    reg_set_select: Constant<Bits<8>>,
    reg_set_size: Constant<Bits<8>>,
    reg_set_member: Constant<Bits<8>>,
}

impl<const S: usize> Default for Registers<S> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            cfg_write: Default::default(),
            cfg_address: Default::default(),
            cfg_data: Default::default(),
            flowlet_method: Default::default(),
            gap_ns: Default::default(),
            pfc_aware: Default::default(),
            set_select: Default::default(),
            seed_write: Default::default(),
            seed: Default::default(),
            size_write: Default::default(),
            set_size: Default::default(),
            member_write: Default::default(),
            member_index: Default::default(),
            member_port: Default::default(),
            method_is_flowlet: Default::default(),
            gap: Default::default(),
            pfc_aware_flag: Default::default(),
            selected_set: Default::default(),
            reg_method: c8(FLOWLET_METHOD),
            reg_gap: c8(FLOWLET_GAP),
            reg_pfc_aware: c8(FLOWLET_PFC_AWARE),
            reg_seed: c8(FLOWLET_SEED),
            reg_set_select: c8(FLOWLET_SET_SELECT),
            reg_set_size: c8(FLOWLET_SET_SIZE),
            reg_set_member: c8(FLOWLET_SET_MEMBER),
        }
    }
}

impl<const S: usize> Logic for Registers<S> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, method_is_flowlet, gap, pfc_aware_flag, selected_set);
        if self.cfg_write.val() {
            if self.cfg_address.val() == self.reg_method.val() {
                self.method_is_flowlet.d.next = self.cfg_data.val().get_bit(0);
            }
            if self.cfg_address.val() == self.reg_gap.val() {
                self.gap.d.next = self.cfg_data.val();
            }
            if self.cfg_address.val() == self.reg_pfc_aware.val() {
                self.pfc_aware_flag.d.next = self.cfg_data.val().get_bit(0);
            }
            if self.cfg_address.val() == self.reg_set_select.val() {
                self.selected_set.d.next = bit_cast::<S, _>(self.cfg_data.val());
            }
        }
        self.flowlet_method.next = self.method_is_flowlet.q.val();
        self.gap_ns.next = self.gap.q.val();
        self.pfc_aware.next = self.pfc_aware_flag.q.val();
        self.set_select.next = self.selected_set.q.val();
        self.seed_write.next = self.cfg_write.val() & (self.cfg_address.val() == self.reg_seed.val());
        self.seed.next = self.cfg_data.val();
        self.size_write.next = self.cfg_write.val() & (self.cfg_address.val() == self.reg_set_size.val());
        self.set_size.next = bit_cast::<7, _>(self.cfg_data.val());
        self.member_write.next = self.cfg_write.val() & (self.cfg_address.val() == self.reg_set_member.val());
        self.member_index.next = self.cfg_data.val().get_bits::<6>(8);
        self.member_port.next = bit_cast::<8, _>(self.cfg_data.val());
    }
}
