//! Which set has which flow table: tables go to sets in the order the
//! switch first selects on them, while tables are left and the method is
//! flowlet; a set first used after that never gets one.
//!
//! Parameters: `S`, set id bits. The table count comes from the top block
//! (`table_count`, 1 to 128).
//!
//! Ports (all on `clock`):
//! * control: `reset` (forget every assignment: `tables_used` back to 0;
//!   the entries are cleared by the sweep)
//! * sweep: `sweeping` with `sweep_set` (clear that set's entry)
//! * configuration: `flowlet_method`, `table_count` (8 bits)
//! * lookup: `lookup_valid`, `lookup_set` in cycle 0 -> `has_table`,
//!   `table_index` (7 bits) in cycle 3 ([`ANSWER`]), registered (the map
//!   is an [`OutputRegisteredRam`]: its entry comes out of the RAM's own
//!   register in cycle 2, where the first use is decided and written)
//!
//! Hazard: a lookup reads the RAM at the end of its cycle 0 and decides in
//! cycle 2, so the writes of the two lookups before it are not in what it
//! read (the one just before writes at the end of this lookup's cycle 1,
//! the one before that at the end of its cycle 0, the read's own edge:
//! the RAM reads first). Both are kept (`last_write_*`, `older_write_*`)
//! and used when their set matches, the later first; the set compares are
//! made a cycle ahead. Writes three or more lookups back are in the RAM.
//! [`TableMap::new`] can leave out either forwarding, for the fault tests.
//!
//! ```text
//!  lookup_set ─► map_ram (output registered) ─► (last, else older write if same set) ─► first use? ─► [reg] has_table, table_index
//!                   ▲                                                             │
//!                   └──────────────────────── write (formed) ◄────────────────────┘
//! ```

use crate::output_registered_ram::OutputRegisteredRam;
use rust_hdl::prelude::*;

/// Cycle at which `has_table` and `table_index` answer a lookup.
pub const ANSWER: usize = 3;

/// Entry layout: the set was selected on.
pub const ENTRY_FORMED: usize = 8;
/// Entry layout: the set has a table (its index in bits 6..0).
pub const ENTRY_HAS_TABLE: usize = 7;

// rust_hdl writes a Rust constant inside a kernel as a bare Verilog name,
// so the kernel spells these positions as literals; the asserts keep them
// equal to the named constants.
const _: () = assert!(ENTRY_FORMED == 8 && ENTRY_HAS_TABLE == 7);

#[derive(LogicBlock)]
pub struct TableMap<const S: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // sweep
    pub sweeping: Signal<In, Bit>,
    pub sweep_set: Signal<In, Bits<S>>,
    // configuration
    pub flowlet_method: Signal<In, Bit>,
    pub table_count: Signal<In, Bits<8>>,
    // lookup
    pub lookup_valid: Signal<In, Bit>,
    pub lookup_set: Signal<In, Bits<S>>,
    pub has_table: Signal<Out, Bit>,
    pub table_index: Signal<Out, Bits<7>>,
    map_ram: OutputRegisteredRam<Bits<9>, S>,
    s1_valid: DFF<Bit>,
    s1_set: DFF<Bits<S>>,
    // cycle 2: the entry read, and whether the writes in flight are its set's
    s2_valid: DFF<Bit>,
    s2_set: DFF<Bits<S>>,
    s2_matches_last: DFF<Bit>,
    s2_matches_older: DFF<Bit>,
    tables_used: DFF<Bits<8>>,
    last_write_valid: DFF<Bit>,
    last_write_set: DFF<Bits<S>>,
    last_write_entry: DFF<Bits<9>>,
    older_write_valid: DFF<Bit>,
    older_write_entry: DFF<Bits<9>>,
    out_has_table: DFF<Bit>,
    out_table_index: DFF<Bits<7>>,
    entry: Signal<Local, Bits<9>>,
    first_use: Signal<Local, Bit>,
    gets_table: Signal<Local, Bit>,
    new_entry: Signal<Local, Bits<9>>,
    /// Clear in the fault build without the last write's forwarding.
    forward_last: Constant<Bit>,
    /// Clear in the fault build without the older write's forwarding.
    forward_older: Constant<Bit>,
}

impl<const S: usize> TableMap<S> {
    /// The map; `forward_last` or `forward_older` false builds a fault
    /// variant that misses the write of the lookup one, or two, before.
    pub fn new(forward_last: bool, forward_older: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            sweeping: Default::default(),
            sweep_set: Default::default(),
            flowlet_method: Default::default(),
            table_count: Default::default(),
            lookup_valid: Default::default(),
            lookup_set: Default::default(),
            has_table: Default::default(),
            table_index: Default::default(),
            map_ram: OutputRegisteredRam::new(true),
            s1_valid: Default::default(),
            s1_set: Default::default(),
            s2_valid: Default::default(),
            s2_set: Default::default(),
            s2_matches_last: Default::default(),
            s2_matches_older: Default::default(),
            tables_used: Default::default(),
            last_write_valid: Default::default(),
            last_write_set: Default::default(),
            last_write_entry: Default::default(),
            older_write_valid: Default::default(),
            older_write_entry: Default::default(),
            out_has_table: Default::default(),
            out_table_index: Default::default(),
            entry: Default::default(),
            first_use: Default::default(),
            gets_table: Default::default(),
            new_entry: Default::default(),
            forward_last: Constant::new(forward_last),
            forward_older: Constant::new(forward_older),
        }
    }
}

impl<const S: usize> Logic for TableMap<S> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s1_valid, s1_set, s2_valid, s2_set, s2_matches_last, s2_matches_older,
            tables_used, last_write_valid, last_write_set, last_write_entry, older_write_valid, older_write_entry,
            out_has_table, out_table_index);
        self.map_ram.clock.next = self.clock.val();
        self.map_ram.read_address.next = self.lookup_set.val();
        self.s1_valid.d.next = self.lookup_valid.val() & !self.reset.val();
        self.s1_set.d.next = self.lookup_set.val();
        // cycle 1: the entry registered; which writes in flight are this set's
        // (the lookup ahead decides now and writes next; the one before it
        // wrote last cycle)
        self.s2_valid.d.next = self.s1_valid.q.val() & !self.reset.val();
        self.s2_set.d.next = self.s1_set.q.val();
        self.s2_matches_last.d.next = self.s1_set.q.val() == self.s2_set.q.val();
        self.s2_matches_older.d.next = self.s1_set.q.val() == self.last_write_set.q.val();
        // cycle 2: the entry as of every earlier write
        if self.forward_last.val() & self.last_write_valid.q.val() & self.s2_matches_last.q.val() {
            self.entry.next = self.last_write_entry.q.val();
        } else if self.forward_older.val() & self.older_write_valid.q.val() & self.s2_matches_older.q.val() {
            self.entry.next = self.older_write_entry.q.val();
        } else {
            self.entry.next = self.map_ram.read_data.val();
        }
        self.first_use.next = self.s2_valid.q.val() & !self.entry.val().get_bit(8) & !self.reset.val();
        self.gets_table.next = self.flowlet_method.val() & (self.tables_used.q.val() < self.table_count.val());
        self.new_entry.next = bit_cast::<9, 1>(1.into()) << 8;
        if self.gets_table.val() {
            self.new_entry.next = (bit_cast::<9, 1>(1.into()) << 8) | (bit_cast::<9, 1>(1.into()) << 7)
                | bit_cast::<9, 7>(bit_cast::<7, _>(self.tables_used.q.val()));
        }
        if self.first_use.val() {
            self.out_has_table.d.next = self.gets_table.val();
            self.out_table_index.d.next = bit_cast::<7, _>(self.tables_used.q.val());
        } else {
            self.out_has_table.d.next = self.entry.val().get_bit(7);
            self.out_table_index.d.next = bit_cast::<7, _>(self.entry.val());
        }
        self.has_table.next = self.out_has_table.q.val();
        self.table_index.next = self.out_table_index.q.val();
        if self.first_use.val() & self.gets_table.val() {
            self.tables_used.d.next = self.tables_used.q.val() + 1;
        }
        if self.reset.val() {
            self.tables_used.d.next = 0.into();
        }
        // the write: a first use, or the sweep clearing an entry
        if self.sweeping.val() {
            self.map_ram.write_address.next = self.sweep_set.val();
            self.map_ram.write_data.next = 0.into();
            self.map_ram.write_enable.next = true;
        } else {
            self.map_ram.write_address.next = self.s2_set.q.val();
            self.map_ram.write_data.next = self.new_entry.val();
            self.map_ram.write_enable.next = self.first_use.val();
        }
        self.last_write_valid.d.next = self.first_use.val() & !self.sweeping.val();
        self.last_write_set.d.next = self.s2_set.q.val();
        self.last_write_entry.d.next = self.new_entry.val();
        self.older_write_valid.d.next = self.last_write_valid.q.val() & !self.sweeping.val();
        self.older_write_entry.d.next = self.last_write_entry.q.val();
    }
}
