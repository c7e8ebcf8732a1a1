//! Flowlet table block: the member of an equal-cost set each packet
//! takes, bit-exact with `reference::flowlet::LoadBalancer`: `none` (flow
//! hash mod set size) or `flowlet` (a slot per flow hash that keeps its
//! member within the gap and otherwise moves to the least-occupied
//! member, PFC-aware, ties broken by a seeded draw).
//!
//! Parameters (bits of address, checked by [`FlowletTable::new`]):
//! * `P`: port bits, 2^P egress ports (1 to 8: up to 256 ports);
//! * `S`: set id bits, 2^S equal-cost sets of 1 to 64 members;
//! * `T`: slot address bits, 512 slots per table, so 2^(T-9) flow tables
//!   (9 to 16: 1 to 128 tables); `S <= T` (the sweep clears both);
//! * `E = S + 6`: the (set, member) lookup's address bits.
//!
//! Ports, by channel (all synchronous to `clock`):
//! * control: `reset` (forgets every flow: the sweep clears the slots and
//!   the set-to-table map again; keeps registers, sets, port state and the
//!   draw), `ready` (low while the sweep runs, 2^T cycles after power-up
//!   or reset; selects and commits given then are dropped)
//! * configuration: `cfg_write`, `cfg_address` (8 bits), `cfg_data` (32);
//!   the register map is `docs/register_map.md`, section flowlet-table
//! * select (one per cycle): `select_valid`, `select_set` (S bits),
//!   `flow_hash` (16 bits), `tc` (3 bits, the packet's class), `now_ns`
//!   (50 bits, ns)
//! * commit (the packet was admitted at egress; any cycle after its
//!   select): `commit_valid`, `commit_slot` (16 bits: table x 512 + slot,
//!   as `slot` answered), `commit_member` (6 bits), `commit_ns` (50 bits,
//!   the select's time)
//! * port state: `occupancy_write`, `occupancy_port` (8 bits),
//!   `occupancy_bytes` (32 bits, bytes over all pools); `pause_write`,
//!   `pause_port` (8 bits), `paused_classes` (bit n: class n paused)
//! * result, [`LATENCY`] cycles after the select: `result_valid`,
//!   `member` (6 bits), `egress_port` (8 bits), `selected` (chosen again
//!   now, not kept from the slot), `moved` (re-selection left the slot's
//!   member), `all_paused` (every member paused, all were candidates),
//!   `has_slot`, `slot` (16 bits, for the commit; 0 without a slot)
//!
//! Ordering: a select sees every commit, port-state write and register
//! write given in earlier cycles, and none of its own cycle.
//!
//! Latency 24 cycles, throughput one select per cycle, back to back on
//! one slot, one set and one port included.
//!
//! Shallow builds ([`FlowletTable::shallow`]): the registers into any of
//! cycles 9 to 23 (the least-occupied levels, the tie break, hash mod
//! size, and the context beside them) are
//! [`StageRegister`]s, and a build may leave out whole cycles of them
//! ([`WiredRanks`]), for a design whose clock is slow enough to do two
//! stages in one; its latency is [`latency`]`(wired)`, its answers the
//! same. The switch datapath, clocked at about 56 MHz by the buffer
//! manager, leaves out every second one (17 cycles). The cycles before
//! stay: the slot and port-state RAMs' reads and writes are aligned
//! cycle by cycle there, and the egress port is read from a RAM after.
//!
//! ```text
//!  cycle  0        2,3            3        5          14           23          24
//!  set ─► set_table ─► member ports ─► port_state ─► least_occupied ─► tie_break ─► set_table
//!      └► table_map ─► table ─► slot_table ─► expired ───────────────┘   member ─► egress_port
//!                     hash (cycle 8) ─► set_member (hash mod size) ──────┘
//! ```
//!
//! Fmax and size (16 ports, 4 tables, LFE5U-85F, out of context, seed 1,
//! Yosys 0.23, nextpnr-ecp5 0.11, `sswitch synth`): 158.8 MHz at speed 8,
//! the least-occupied levels (6.3 ns) the limit, and 123.6 MHz at speed
//! 6; 15,021 LUT4, 16,603 FF, 17 DP16KD, no MULT18X18D, 1,545 CCU2C, 1,664
//! TRELLIS_DPR16X4 (the member RAMs). At 128 ports 146.8 MHz at speed 8,
//! the least-occupied levels (6.8 ns) again (109.8 MHz at speed 6);
//! 14,398 LUT4, 12,211 FF, 145 DP16KD, 1,024 TRELLIS_DPR16X4. The port
//! state's copies are
//! [`OutputRegisteredCopies`](crate::output_registered_copies::OutputRegisteredCopies)
//! since Dec 5 (latency 23 -> 24): at 128 ports each is a DP16KD, which
//! rust_hdl's RAM left read without its output register, 4.3 ns from the
//! clock and 3.3 ns of routing into the least-occupied tree (127.9 MHz);
//! at 16 ports they are LUT RAM, and the copies' forwarding muxes cost
//! about 2,800 LUT4 and 3,000 flip-flops for no change in speed.
//! The set sizes, the set-to-table map and the slots are
//! [`OutputRegisteredRam`](crate::output_registered_ram::OutputRegisteredRam)s
//! (the member RAMs the banked form of it), so their data leaves the
//! DP16KD's own register (0.7 ns instead of
//! 5.6 ns: README, "Block RAM in the open flow"). The slowest registers
//! are now logic, about 6.1 to 6.7 ns after the edge: the egress lookup's
//! RAM address (the set member's size check and the tie break's answer
//! muxed into it), the least-occupied levels, the draw.
//! Earlier limits, each now a register, a tree or a stage: the slot RAM's
//! output into the age check (91.1 MHz), the tie break's chained counts
//! (95.9, 93.4 MHz), the set size RAM's output into hash mod size (105.8
//! MHz), the set-to-table map's RAM output into its first-use choice
//! (115.7 MHz; registered, with a second forwarding register), the tie
//! break's prefix sums, draw multiply and group priority chain, and the
//! least-occupied levels driving 64 tie bits (130.1 MHz; latency 18 -> 22),
//! the block RAMs' clock-to-out (140.6 MHz), the pick's fan-out into
//! sixteen group-bound comparisons (one subtraction per group now serves
//! both bounds).
//!
//! Storage: the slots (57 bits each: valid, member, 50-bit time) are not
//! initialised: after power-up and every reset a sweep clears them, one
//! per cycle (Yosys does not finish initialised RAMs of 2^16 entries).
//! The full 128 tables hold 64 Ki slots, 3.7 Mbit, about the whole block
//! RAM of an LFE5U-85F; port state is kept once per member position (64
//! copies) so that all 64 members are read in one cycle.
//!
//! Hazards: reads and writes of the slots and the port state are aligned
//! (writes land as many cycles after they are given as a select of that
//! cycle takes to read: three for slots and for port state), so no
//! forwarding is needed there; the set-to-table map is written by the
//! select itself in cycle 2 and forwards that write to the next two
//! selects ([`FlowletTable::without_map_forwarding`] and
//! [`FlowletTable::without_older_map_forwarding`] each leave out one of
//! the two, and the co-simulation must catch both). Inside each
//! output-registered RAM a write reaches the memory a cycle late and the
//! leaf forwards it to the read it collides with, so the RAMs answer as
//! rust_hdl's read-first RAM would (its fault build, without that
//! forwarding, is caught in `testbench/tests/output_registered_ram.rs`).

mod least_occupied;
mod port_state;
pub mod registers;
mod set_table;
mod slot_table;
mod table_map;
mod tie_break;

pub use set_table::MEMBERS;
pub use slot_table::TIME_HALF_BITS;

use crate::build_checks::BuildError;
use crate::set_member::SetMember;
use crate::stage_register::{StageRegister, WiredRanks};
use least_occupied::LeastOccupied;
use port_state::PortState;
use registers::Registers;
use rust_hdl::prelude::*;
use set_table::SetTable;
use slot_table::SlotTable;
use table_map::TableMap;
use tie_break::TieBreak;

/// Cycles from a select to its result, every stage kept.
pub const LATENCY: usize = 24;
/// The first and last cycle whose registers a shallow build may leave out.
pub const FIRST_WIRABLE: usize = SLOT_ANSWER + 1;
pub const LAST_WIRABLE: usize = MEMBER_READY;
/// Cycle at which hash mod size starts.
const HASH_MEMBER_START: usize = 8;

/// Cycles from a select to its result in a build without the `wired`
/// cycles' registers.
pub const fn latency(wired: WiredRanks) -> usize {
    LATENCY - wired.count()
}

/// `wired` names only cycles a shallow build can leave out.
pub fn check_wired(wired: WiredRanks) -> Result<(), BuildError> {
    match (wired.lowest(), wired.highest()) {
        (Some(low), _) if low < FIRST_WIRABLE => Err(BuildError(format!(
            "flowlet-table: wired cycle {low}: only cycles {FIRST_WIRABLE} to {LAST_WIRABLE} (the reduction stages) can leave out their registers"))),
        (_, Some(high)) if high > LAST_WIRABLE => Err(BuildError(format!(
            "flowlet-table: wired cycle {high}: only cycles {FIRST_WIRABLE} to {LAST_WIRABLE} (the reduction stages) can leave out their registers"))),
        _ => Ok(()),
    }
}
/// Bits of a time in ns (10^15 ns, the longest replay, fits).
pub const TIME_BITS: usize = 2 * TIME_HALF_BITS;
/// Cycle at which the set's table is known (the slot address).
const TABLE_READY: usize = table_map::ANSWER;
/// Cycle at which the slot table answers (its read address is given in
/// cycle 3, its own cycle 1).
const SLOT_ANSWER: usize = slot_table::ANSWER + TABLE_READY - 1;
/// Cycle at which the member ports' state is known (their ports are
/// registered twice out of the member RAMs and read in cycle 3; the port
/// state answers two cycles later).
const PORT_STATE_READY: usize = 5;
/// Cycle at which the tie mask is ready.
const TIES_READY: usize = PORT_STATE_READY + least_occupied::LATENCY;
/// Cycle at which the member is known.
const MEMBER_READY: usize = TIES_READY + tie_break::LATENCY;

// rust_hdl writes a Rust constant inside a kernel as a bare Verilog name,
// so the kernel spells these positions as literals (a shallow build keeps
// them: its wired registers pass their cycle's value on within the cycle); the asserts keep them
// equal to the named constants.
const _: () = assert!(LATENCY == 24 && TABLE_READY == 3 && SLOT_ANSWER == 8 && PORT_STATE_READY == 5 && TIES_READY == 14 && MEMBER_READY == 23 && TIME_HALF_BITS == 25);
// The set member (hash mod size) starts in cycle 8 and answers with the tie break.
const _: () = assert!(HASH_MEMBER_START == 8 && HASH_MEMBER_START + crate::set_member::LATENCY == MEMBER_READY);

#[derive(LogicBlock)]
pub struct FlowletTable<const P: usize, const S: usize, const T: usize, const E: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub ready: Signal<Out, Bit>,
    // configuration channel
    pub cfg_write: Signal<In, Bit>,
    pub cfg_address: Signal<In, Bits<8>>,
    pub cfg_data: Signal<In, Bits<32>>,
    // select channel
    pub select_valid: Signal<In, Bit>,
    pub select_set: Signal<In, Bits<S>>,
    pub flow_hash: Signal<In, Bits<16>>,
    pub tc: Signal<In, Bits<3>>,
    pub now_ns: Signal<In, Bits<TIME_BITS>>,
    // commit channel
    pub commit_valid: Signal<In, Bit>,
    pub commit_slot: Signal<In, Bits<16>>,
    pub commit_member: Signal<In, Bits<6>>,
    pub commit_ns: Signal<In, Bits<TIME_BITS>>,
    // port state channel
    pub occupancy_write: Signal<In, Bit>,
    pub occupancy_port: Signal<In, Bits<8>>,
    pub occupancy_bytes: Signal<In, Bits<32>>,
    pub pause_write: Signal<In, Bit>,
    pub pause_port: Signal<In, Bits<8>>,
    pub paused_classes: Signal<In, Bits<8>>,
    // result channel
    pub result_valid: Signal<Out, Bit>,
    pub member: Signal<Out, Bits<6>>,
    pub egress_port: Signal<Out, Bits<8>>,
    pub selected: Signal<Out, Bit>,
    pub moved: Signal<Out, Bit>,
    pub all_paused: Signal<Out, Bit>,
    pub has_slot: Signal<Out, Bit>,
    pub slot: Signal<Out, Bits<16>>,
    // sub-blocks
    registers: Registers<S>,
    set_table: SetTable<S, E, P>,
    table_map: TableMap<S>,
    slot_table: SlotTable<T>,
    port_state: PortState<P>,
    least_occupied: LeastOccupied,
    tie_break: TieBreak,
    hash_member: SetMember<S>,
    table_count: Constant<Bits<8>>,
    // the select's context: `x_at[c - 1]` holds x in cycle c
    valid_at: [StageRegister<Bit>; LATENCY],
    hash_at1: DFF<Bits<16>>,
    tc_at1: DFF<Bits<3>>,
    tc_at2: DFF<Bits<3>>,
    tc_at3: DFF<Bits<3>>,
    now_low_at1: DFF<Bits<TIME_HALF_BITS>>,
    now_high_at1: DFF<Bits<TIME_HALF_BITS>>,
    hash_at2: DFF<Bits<16>>,
    hash_at3: DFF<Bits<16>>,
    now_low_at2: DFF<Bits<TIME_HALF_BITS>>,
    now_high_at2: DFF<Bits<TIME_HALF_BITS>>,
    now_low_at3: DFF<Bits<TIME_HALF_BITS>>,
    now_high_at3: DFF<Bits<TIME_HALF_BITS>>,
    size_at3: DFF<Bits<7>>,
    has_table_at: [StageRegister<Bit>; LATENCY],
    slot_at: [StageRegister<Bits<16>>; LATENCY],
    expired_at: [StageRegister<Bit>; LATENCY],
    slot_valid_at: [StageRegister<Bit>; TIES_READY],
    slot_member_at: [StageRegister<Bits<6>>; TIES_READY],
    set_at1: DFF<Bits<S>>,
    set_at2: DFF<Bits<S>>,
    set_at3: DFF<Bits<S>>,
    set_at4: DFF<Bits<S>>,
    set_at5: DFF<Bits<S>>,
    set_at6: DFF<Bits<S>>,
    hash_at6: DFF<Bits<16>>,
    size_at6: DFF<Bits<7>>,
    set_at7: DFF<Bits<S>>,
    hash_at7: DFF<Bits<16>>,
    size_at7: DFF<Bits<7>>,
    set_at8: DFF<Bits<S>>,
    hash_at8: DFF<Bits<16>>,
    size_at8: DFF<Bits<7>>,
    hash_at4: DFF<Bits<16>>,
    hash_at5: DFF<Bits<16>>,
    size_at4: DFF<Bits<7>>,
    size_at5: DFF<Bits<7>>,
    all_paused_at: [StageRegister<Bit>; LATENCY],
    result_member: DFF<Bits<6>>,
    result_moved: DFF<Bit>,
    slot_address: Signal<Local, Bits<T>>,
}

impl<const P: usize, const S: usize, const T: usize, const E: usize> FlowletTable<P, S, T, E> {
    /// The block, or the parameter it cannot be built with.
    pub fn new() -> Result<Self, BuildError> {
        Self::check_parameters()?;
        Ok(Self::build(true, true, WiredRanks::NONE))
    }

    /// The parameters the block can be built with, or the one it cannot.
    fn check_parameters() -> Result<(), BuildError> {
        if !(1..=8).contains(&P) {
            return Err(BuildError(format!("flowlet-table: P = {P} port bits: supported 1 to 8 (up to 256 ports)")));
        }
        if !(9..=16).contains(&T) {
            return Err(BuildError(format!("flowlet-table: T = {T} slot address bits: supported 9 to 16 (1 to 128 tables of 512 slots)")));
        }
        if S == 0 || S > T {
            return Err(BuildError(format!("flowlet-table: S = {S} set id bits: supported 1 to T = {T} (the sweep clears the set map)")));
        }
        if E != S + 6 {
            return Err(BuildError(format!("flowlet-table: E = {E}: must be S + 6 = {} (set id and member index)", S + 6)));
        }
        Ok(())
    }

    /// The block with the registers into the `wired` cycles left out, for
    /// a slower clock: latency [`latency`]`(wired)`. Only the reduction
    /// stages can go (cycles [`FIRST_WIRABLE`] to [`LAST_WIRABLE`]): the
    /// RAMs' reads and writes before them are aligned cycle by cycle, and
    /// the egress port is read from a RAM after them.
    pub fn shallow(wired: WiredRanks) -> Result<Self, BuildError> {
        Self::check_parameters()?;
        check_wired(wired)?;
        Ok(Self::build(true, true, wired))
    }

    /// A deliberately wrong build for the fault-injection tests: the set
    /// map's last write is not forwarded to the next select.
    pub fn without_map_forwarding() -> Result<Self, BuildError> {
        Self::check_parameters().map(|_| Self::build(false, true, WiredRanks::NONE))
    }

    /// A deliberately wrong build for the fault-injection tests: the set
    /// map's older write in flight is not forwarded to the select two
    /// after it.
    pub fn without_older_map_forwarding() -> Result<Self, BuildError> {
        Self::check_parameters().map(|_| Self::build(true, false, WiredRanks::NONE))
    }

    /// How many flow tables the block holds.
    pub const fn tables() -> usize {
        1 << (T - 9)
    }

    fn build(forward_last: bool, forward_older: bool, wired: WiredRanks) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ready: Default::default(),
            cfg_write: Default::default(),
            cfg_address: Default::default(),
            cfg_data: Default::default(),
            select_valid: Default::default(),
            select_set: Default::default(),
            flow_hash: Default::default(),
            tc: Default::default(),
            now_ns: Default::default(),
            commit_valid: Default::default(),
            commit_slot: Default::default(),
            commit_member: Default::default(),
            commit_ns: Default::default(),
            occupancy_write: Default::default(),
            occupancy_port: Default::default(),
            occupancy_bytes: Default::default(),
            pause_write: Default::default(),
            pause_port: Default::default(),
            paused_classes: Default::default(),
            result_valid: Default::default(),
            member: Default::default(),
            egress_port: Default::default(),
            selected: Default::default(),
            moved: Default::default(),
            all_paused: Default::default(),
            has_slot: Default::default(),
            slot: Default::default(),
            registers: Default::default(),
            set_table: Default::default(),
            table_map: TableMap::new(forward_last, forward_older),
            slot_table: Default::default(),
            port_state: Default::default(),
            least_occupied: LeastOccupied::new(wired.from_cycle(PORT_STATE_READY)),
            tie_break: TieBreak::new(wired.from_cycle(TIES_READY)),
            hash_member: SetMember::new(wired.from_cycle(HASH_MEMBER_START)),
            table_count: Constant::new((Self::tables() as LiteralType).into()),
            valid_at: wired.delay_line(1),
            hash_at1: Default::default(),
            tc_at1: Default::default(),
            tc_at2: Default::default(),
            tc_at3: Default::default(),
            now_low_at1: Default::default(),
            now_high_at1: Default::default(),
            hash_at2: Default::default(),
            hash_at3: Default::default(),
            now_low_at2: Default::default(),
            now_high_at2: Default::default(),
            now_low_at3: Default::default(),
            now_high_at3: Default::default(),
            size_at3: Default::default(),
            has_table_at: wired.delay_line(1),
            slot_at: wired.delay_line(1),
            expired_at: wired.delay_line(1),
            slot_valid_at: wired.delay_line(1),
            slot_member_at: wired.delay_line(1),
            set_at1: Default::default(),
            set_at2: Default::default(),
            set_at3: Default::default(),
            set_at4: Default::default(),
            set_at5: Default::default(),
            set_at6: Default::default(),
            hash_at6: Default::default(),
            size_at6: Default::default(),
            set_at7: Default::default(),
            hash_at7: Default::default(),
            size_at7: Default::default(),
            set_at8: Default::default(),
            hash_at8: Default::default(),
            size_at8: Default::default(),
            hash_at4: Default::default(),
            hash_at5: Default::default(),
            size_at4: Default::default(),
            size_at5: Default::default(),
            all_paused_at: wired.delay_line(1),
            result_member: Default::default(),
            result_moved: Default::default(),
            slot_address: Default::default(),
        }
    }
}

impl<const P: usize, const S: usize, const T: usize, const E: usize> Logic for FlowletTable<P, S, T, E> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, set_at1, set_at2, set_at3, set_at4, set_at5, set_at6, set_at7, set_at8, hash_at4, hash_at5, hash_at6, hash_at7, hash_at8, size_at4, size_at5, size_at6, size_at7, size_at8, hash_at1, tc_at1, tc_at2, tc_at3, now_low_at1, now_high_at1, hash_at2, hash_at3, now_low_at2, now_high_at2,
            now_low_at3, now_high_at3, size_at3, result_member, result_moved);
        for c in 0..LATENCY {
            self.valid_at[c].clock.next = self.clock.val();
            self.has_table_at[c].clock.next = self.clock.val();
            self.slot_at[c].clock.next = self.clock.val();
            self.all_paused_at[c].clock.next = self.clock.val();
            self.expired_at[c].clock.next = self.clock.val();
        }
        for c in 0..TIES_READY {
            self.slot_valid_at[c].clock.next = self.clock.val();
            self.slot_member_at[c].clock.next = self.clock.val();
        }
        self.registers.clock.next = self.clock.val();
        self.set_table.clock.next = self.clock.val();
        self.table_map.clock.next = self.clock.val();
        self.slot_table.clock.next = self.clock.val();
        self.port_state.clock.next = self.clock.val();
        self.least_occupied.clock.next = self.clock.val();
        self.tie_break.clock.next = self.clock.val();
        self.hash_member.clock.next = self.clock.val();
        // configuration
        self.registers.cfg_write.next = self.cfg_write.val();
        self.registers.cfg_address.next = self.cfg_address.val();
        self.registers.cfg_data.next = self.cfg_data.val();
        self.set_table.size_write.next = self.registers.size_write.val();
        self.set_table.member_write.next = self.registers.member_write.val();
        self.set_table.write_set.next = self.registers.set_select.val();
        self.set_table.write_size.next = self.registers.set_size.val();
        self.set_table.write_index.next = self.registers.member_index.val();
        self.set_table.write_port.next = self.registers.member_port.val();
        self.ready.next = self.slot_table.ready.val();
        // cycle 0: the set's members and table
        self.valid_at[0].d.next = self.select_valid.val() & self.slot_table.ready.val() & !self.reset.val();
        self.set_at1.d.next = self.select_set.val();
        self.hash_at1.d.next = self.flow_hash.val();
        self.tc_at1.d.next = self.tc.val();
        self.now_low_at1.d.next = bit_cast::<TIME_HALF_BITS, _>(self.now_ns.val());
        self.now_high_at1.d.next = self.now_ns.val().get_bits::<TIME_HALF_BITS>(25);
        self.set_table.lookup_set.next = self.select_set.val();
        self.table_map.reset.next = self.reset.val();
        self.table_map.sweeping.next = !self.slot_table.ready.val();
        self.table_map.sweep_set.next = bit_cast::<S, _>(self.slot_table.sweep_address.val());
        self.table_map.flowlet_method.next = self.registers.flowlet_method.val();
        self.table_map.table_count.next = self.table_count.val();
        self.table_map.lookup_valid.next = self.select_valid.val() & self.slot_table.ready.val() & !self.reset.val();
        self.table_map.lookup_set.next = self.select_set.val();
        // cycle 2: the set's size (registered out of its RAM)
        self.hash_at2.d.next = self.hash_at1.q.val();
        self.now_low_at2.d.next = self.now_low_at1.q.val();
        self.now_high_at2.d.next = self.now_high_at1.q.val();
        // cycle 3: the slot (the set's table known)
        self.hash_at3.d.next = self.hash_at2.q.val();
        self.now_low_at3.d.next = self.now_low_at2.q.val();
        self.now_high_at3.d.next = self.now_high_at2.q.val();
        self.slot_address.next = (bit_cast::<T, 7>(self.table_map.table_index.val()) << 9) | bit_cast::<T, 9>(bit_cast::<9, _>(self.hash_at3.q.val()));
        self.slot_table.reset.next = self.reset.val();
        self.slot_table.read_address.next = self.slot_address.val();
        self.slot_table.now_ns_low.next = self.now_low_at3.q.val();
        self.slot_table.now_ns_high.next = self.now_high_at3.q.val();
        self.slot_table.gap_ns.next = self.registers.gap_ns.val();
        self.slot_table.commit_valid.next = self.commit_valid.val();
        self.slot_table.commit_address.next = bit_cast::<T, _>(self.commit_slot.val());
        self.slot_table.commit_member.next = self.commit_member.val();
        self.slot_table.commit_ns_low.next = bit_cast::<TIME_HALF_BITS, _>(self.commit_ns.val());
        self.slot_table.commit_ns_high.next = self.commit_ns.val().get_bits::<TIME_HALF_BITS>(25);
        for k in 0..MEMBERS {
            self.port_state.member_ports[k].next = self.set_table.member_ports[k].val();
        }
        // cycle 3: the members (registered twice out of their RAMs) read their port state
        self.tc_at2.d.next = self.tc_at1.q.val();
        self.tc_at3.d.next = self.tc_at2.q.val();
        self.port_state.tc.next = self.tc_at3.q.val();
        self.port_state.occupancy_write.next = self.occupancy_write.val();
        self.port_state.occupancy_port.next = self.occupancy_port.val();
        self.port_state.occupancy_bytes.next = self.occupancy_bytes.val();
        self.port_state.pause_write.next = self.pause_write.val();
        self.port_state.pause_port.next = self.pause_port.val();
        self.port_state.paused_classes.next = self.paused_classes.val();
        self.set_at2.d.next = self.set_at1.q.val();
        self.set_at3.d.next = self.set_at2.q.val();
        self.size_at3.d.next = self.set_table.set_size.val();
        // cycle 8: hash mod size, answered in cycle 23 with the tie break
        self.hash_at4.d.next = self.hash_at3.q.val();
        self.hash_at5.d.next = self.hash_at4.q.val();
        self.size_at4.d.next = self.size_at3.q.val();
        self.size_at5.d.next = self.size_at4.q.val();
        self.set_at4.d.next = self.set_at3.q.val();
        self.set_at5.d.next = self.set_at4.q.val();
        self.hash_at6.d.next = self.hash_at5.q.val();
        self.size_at6.d.next = self.size_at5.q.val();
        self.set_at6.d.next = self.set_at5.q.val();
        self.hash_at7.d.next = self.hash_at6.q.val();
        self.size_at7.d.next = self.size_at6.q.val();
        self.set_at7.d.next = self.set_at6.q.val();
        self.hash_at8.d.next = self.hash_at7.q.val();
        self.size_at8.d.next = self.size_at7.q.val();
        self.set_at8.d.next = self.set_at7.q.val();
        self.hash_member.value.next = self.hash_at8.q.val();
        self.hash_member.set_size.next = self.size_at8.q.val();
        self.hash_member.tag_in.next = self.set_at8.q.val();
        for c in 0..TABLE_READY {
            self.has_table_at[c].d.next = false;
            self.slot_at[c].d.next = 0.into();
        }
        self.has_table_at[3].d.next = self.table_map.has_table.val();
        self.slot_at[3].d.next = bit_cast::<16, T>(self.slot_address.val());
        // cycle 5 on: the least-occupied candidates
        for k in 0..MEMBERS {
            self.least_occupied.occupancy_bytes_of[k].next = self.port_state.occupancy_bytes_of[k].val();
            self.least_occupied.paused_of[k].next = self.port_state.paused_of[k].val();
        }
        self.least_occupied.set_size.next = self.size_at5.q.val();
        self.least_occupied.pfc_aware.next = self.registers.pfc_aware.val();
        // the context down the stages
        for c in 1..LATENCY {
            self.valid_at[c].d.next = self.valid_at[c - 1].q.val() & !self.reset.val();
        }
        for c in 4..LATENCY {
            self.has_table_at[c].d.next = self.has_table_at[c - 1].q.val();
            self.slot_at[c].d.next = self.slot_at[c - 1].q.val();
        }
        for c in 0..SLOT_ANSWER {
            self.expired_at[c].d.next = false;
        }
        self.expired_at[8].d.next = self.slot_table.expired.val();
        for c in 9..LATENCY {
            self.expired_at[c].d.next = self.expired_at[c - 1].q.val();
        }
        for c in 0..SLOT_ANSWER {
            self.slot_valid_at[c].d.next = false;
            self.slot_member_at[c].d.next = 0.into();
        }
        self.slot_valid_at[8].d.next = self.slot_table.slot_valid.val();
        self.slot_member_at[8].d.next = self.slot_table.slot_member.val();
        for c in 9..TIES_READY {
            self.slot_valid_at[c].d.next = self.slot_valid_at[c - 1].q.val();
            self.slot_member_at[c].d.next = self.slot_member_at[c - 1].q.val();
        }
        for c in 0..TIES_READY {
            self.all_paused_at[c].d.next = false;
        }
        self.all_paused_at[14].d.next = self.least_occupied.all_paused.val();
        for c in 15..LATENCY {
            self.all_paused_at[c].d.next = self.all_paused_at[c - 1].q.val();
        }
        // cycle 14: the tie break (slot answer delayed alongside)
        self.tie_break.seed_write.next = self.registers.seed_write.val();
        self.tie_break.seed.next = self.registers.seed.val();
        for k in 0..MEMBERS {
            self.tie_break.tie_mask[k].next = self.least_occupied.tie_mask[k].val();
        }
        self.tie_break.reselect.next = self.valid_at[13].q.val() & self.has_table_at[13].q.val()
            & self.expired_at[13].q.val();
        self.tie_break.keep_slot.next = self.valid_at[13].q.val() & self.has_table_at[13].q.val()
            & !self.expired_at[13].q.val();
        self.tie_break.slot_valid.next = self.slot_valid_at[13].q.val();
        self.tie_break.slot_member.next = self.slot_member_at[13].q.val();
        // cycle 23: the member and its port
        self.tie_break.use_hash.next = !self.has_table_at[22].q.val();
        self.tie_break.hash_member.next = self.hash_member.member.val();
        self.set_table.egress_set.next = self.hash_member.tag_out.val();
        self.set_table.egress_member.next = self.tie_break.member.val();
        self.result_member.d.next = self.tie_break.member.val();
        self.result_moved.d.next = self.tie_break.moved.val();
        // cycle 24: the result
        self.result_valid.next = self.valid_at[23].q.val();
        self.member.next = self.result_member.q.val();
        self.egress_port.next = self.set_table.egress_port.val();
        self.selected.next = !self.has_table_at[23].q.val() | self.expired_at[23].q.val();
        self.moved.next = self.result_moved.q.val();
        self.all_paused.next = self.has_table_at[23].q.val() & self.expired_at[23].q.val()
            & self.all_paused_at[23].q.val();
        self.has_slot.next = self.has_table_at[23].q.val();
        self.slot.next = 0.into();
        if self.has_table_at[23].q.val() {
            self.slot.next = self.slot_at[23].q.val();
        }
    }
}
