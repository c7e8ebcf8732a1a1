//! Co-simulation adapter of the flowlet table block: its ports, the
//! stimulus, and the outputs `reference::flowlet::LoadBalancer` expects.
//!
//! The reference sees each cycle in the block's order: the select first
//! (it sees every earlier write), then the cycle's commit, occupancy and
//! pause writes. Commits and drops pop the oldest selection not yet
//! decided, as a buffer manager would answer them in order.

use crate::cosim::{write_inputs, ControlOps, Trace};
use hdl::flowlet_table::{latency, FlowletTable};
use hdl::stage_register::WiredRanks;
use reference::config::LoadBalancing;
use reference::flowlet::{FlowletParams, LoadBalancer, PortState, Selection};
use reference::register_map::{
    apply_flowlet_write, flowlet_set_writes, RegisterWrite,
};
use std::collections::VecDeque;

/// A select: the set, the flow hash, the packet's class and the time (ns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Select {
    pub set: u16,
    pub flow_hash: u16,
    pub tc: u8,
    pub now_ns: u64,
}

/// What one traffic cycle carries on each channel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cycle {
    pub select: Option<Select>,
    /// Admit (commit) or drop the oldest selection not yet decided.
    pub decide: Option<Decision>,
    pub occupancy: Option<(u8, u32)>,
    pub pause: Option<(u8, u8)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Admit,
    Drop,
}

/// One step of stimulus. `Reset` and `Write` wait for the pipeline to
/// drain; `Reset` is followed by the sweep (2^T cycles), during which a
/// select and a commit are given every cycle and must be dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Idle,
    Reset,
    Write(RegisterWrite),
    /// Equal-cost sets, ids in order: each a list of distinct ports.
    Sets(Vec<Vec<u16>>),
    Traffic(Cycle),
}

/// Wrong reference variants that must make the co-simulation fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The slot is updated on an egress drop too.
    SlotUpdatedOnDrop,
    /// PFC awareness ignored.
    PfcIgnored,
    /// The tie draw taken when only one candidate ties.
    DrawOnSingleTie,
}

/// The harness for a block of 2^P ports, 2^S sets, 2^(T-9) tables.
#[derive(Clone, Copy, Debug, Default)]
pub struct FlowletTableBench<const P: usize, const S: usize, const T: usize, const E: usize> {
    pub fault: Option<Fault>,
    /// Build the hardware without the set map's forwarding of the last
    /// write.
    pub without_map_forwarding: bool,
    /// Build the hardware without the set map's forwarding of the older
    /// write in flight.
    pub without_older_map_forwarding: bool,
    /// Build the shallow block without these cycles' registers (the
    /// switch datapath's build: `hdl::switch_datapath::FLOWLET_WIRED`).
    pub wired: WiredRanks,
}

/// The build the property tests use: 64 ports (sets of up to 64
/// members), 256 set ids (16 used), 2 tables (so sets past the last table are reached
/// quickly; the sweep takes 1,024 cycles).
pub type SmallBench = FlowletTableBench<6, 8, 10, 14>;
/// The full build: 256 ports, 256 sets, 128 tables.
pub type FullBench = FlowletTableBench<8, 8, 16, 14>;

const CFG: &str = "configuration";
const SELECT: &str = "select";
const COMMIT: &str = "commit";
const PORT_STATE: &str = "port state";
const RESULT: &str = "result";

crate::harness! {
    impl[const P: usize, const S: usize, const T: usize, const E: usize] Harness for FlowletTableBench<P, S, T, E> {
        uut: FlowletTable<P, S, T, E>, name: "flowlet_table",
        build(self) {
            if self.without_map_forwarding {
                FlowletTable::without_map_forwarding().expect("a valid build")
            } else if self.without_older_map_forwarding {
                FlowletTable::without_older_map_forwarding().expect("a valid build")
            } else {
                FlowletTable::shallow(self.wired).expect("a valid build")
            }
        }
        inputs {
            reset: 1 => "control",
            cfg_write: 1 => CFG,
            cfg_address: 8 => CFG,
            cfg_data: 32 => CFG,
            select_valid: 1 => SELECT,
            select_set: S => SELECT,
            flow_hash: 16 => SELECT,
            tc: 3 => SELECT,
            now_ns: 50 => SELECT,
            commit_valid: 1 => COMMIT,
            commit_slot: 16 => COMMIT,
            commit_member: 6 => COMMIT,
            commit_ns: 50 => COMMIT,
            occupancy_write: 1 => PORT_STATE,
            occupancy_port: 8 => PORT_STATE,
            occupancy_bytes: 32 => PORT_STATE,
            pause_write: 1 => PORT_STATE,
            pause_port: 8 => PORT_STATE,
            paused_classes: 8 => PORT_STATE,
        }
        outputs {
            ready: 1 => "control",
            result_valid: 1 => RESULT,
            member: 6 => RESULT,
            egress_port: 8 => RESULT,
            selected: 1 => RESULT,
            moved: 1 => RESULT,
            all_paused: 1 => RESULT,
            has_slot: 1 => RESULT,
            slot: 16 => RESULT,
        }
    }
}

impl ControlOps for Op {
    const IDLE: Op = Op::Idle;
    const RESET: Op = Op::Reset;
}

const CFG_PORTS: [usize; 3] = [inputs::cfg_write, inputs::cfg_address, inputs::cfg_data];

/// Port state as the datapath writes it into the block.
struct Ports {
    occupancy: Vec<u64>,
    paused: Vec<u8>,
}

impl PortState for Ports {
    fn egress_bytes(&self, port: usize) -> u64 {
        self.occupancy[port]
    }
    fn is_paused(&self, port: usize, tc: usize, _now_ns: u64) -> bool {
        self.paused[port] >> tc & 1 == 1
    }
}

/// The register writes of a set table (the stimulus only makes valid sets).
pub fn set_writes(sets: &[Vec<u16>]) -> Vec<RegisterWrite> {
    flowlet_set_writes(sets).expect("sets of 1 to 64 ports below 256")
}

/// What the reference says, cycle by cycle, and what the stimulus reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub selects: usize,
    /// Re-selections of a valid slot whose gap had passed.
    pub reselected_at_gap: usize,
    /// Re-selections that stayed on the slot's member, tied at the minimum.
    pub stayed_on_tie: usize,
    /// Draws among several tied candidates.
    pub draws: usize,
    pub all_paused: usize,
    /// Egress drops of a selection that had a slot.
    pub slot_left_on_drop: usize,
    /// Selects on sets without a table although the method is flowlet.
    pub past_last_table: usize,
    pub kept_within_gap: usize,
}

impl Coverage {
    /// The cases the property tests must reach that this stimulus did not.
    pub fn missing(&self) -> Vec<&'static str> {
        [
            ("reselected_at_gap", self.reselected_at_gap),
            ("stayed_on_tie", self.stayed_on_tie),
            ("draws", self.draws),
            ("all_paused", self.all_paused),
            ("slot_left_on_drop", self.slot_left_on_drop),
            ("past_last_table", self.past_last_table),
            ("kept_within_gap", self.kept_within_gap),
        ]
        .into_iter()
        .filter(|(_, n)| *n == 0)
        .map(|(name, _)| name)
        .collect()
    }
}

impl std::ops::AddAssign<&Coverage> for Coverage {
    fn add_assign(&mut self, other: &Coverage) {
        self.selects += other.selects;
        self.reselected_at_gap += other.reselected_at_gap;
        self.stayed_on_tie += other.stayed_on_tie;
        self.draws += other.draws;
        self.all_paused += other.all_paused;
        self.slot_left_on_drop += other.slot_left_on_drop;
        self.past_last_table += other.past_last_table;
        self.kept_within_gap += other.kept_within_gap;
    }
}

impl<const P: usize, const S: usize, const T: usize, const E: usize> FlowletTableBench<P, S, T, E> {
    /// Cycles the sweep takes.
    pub const SWEEP: usize = 1 << T;

    pub fn tables() -> usize {
        FlowletTable::<P, S, T, E>::tables()
    }

    fn balancer(&self) -> LoadBalancer {
        let params = FlowletParams {
            method: LoadBalancing::None,
            gap_ns: 0,
            pfc_aware: false,
            seed: 0,
        };
        let lb = LoadBalancer::with_table_limit(params, Self::tables());
        if self.fault == Some(Fault::DrawOnSingleTie) {
            lb.with_draw_on_single_tie()
        } else {
            lb
        }
    }

    /// Turns stimulus into a trace, and counts what it reached.
    pub fn trace_with_coverage(&self, ops: &[Op]) -> (Trace, Coverage) {
        let mut cycles: Vec<(Vec<u64>, Option<Select>)> = Vec::new();
        let mut coverage = Coverage::default();
        let mut lb = self.balancer();
        let mut ports = Ports {
            occupancy: vec![0; 256],
            paused: vec![0; 256],
        };
        let mut pending: VecDeque<(Selection, u64)> = VecDeque::new();
        let mut results: Vec<(usize, Vec<Option<u64>>)> = Vec::new();
        let mut resets: Vec<usize> = Vec::new();
        let idle = |cycles: &mut Vec<(Vec<u64>, Option<Select>)>, n: usize| {
            for _ in 0..n {
                cycles.push((vec![0; inputs::COUNT], None));
            }
        };
        // One reset first (its sweep clears the slots), the answers drained last.
        for op in std::iter::once(Op::Reset).chain(ops.iter().cloned()) {
            // New sets replace the old: the flows go first.
            let op = match op {
                Op::Sets(sets) if !lb.groups().is_empty() => {
                    lb.forget_sets();
                    vec![Op::Reset, Op::Sets(sets)]
                }
                op => vec![op],
            };
            for op in op {
                match op {
                    Op::Idle => idle(&mut cycles, 1),
                    Op::Reset => {
                        idle(&mut cycles, latency(self.wired));
                        let mut v = vec![0; inputs::COUNT];
                        v[inputs::reset] = 1;
                        cycles.push((v, None));
                        resets.push(cycles.len() - 1);
                        lb.forget_flows();
                        pending.clear();
                        // The sweep: a select and a commit every cycle, both dropped.
                        for _ in 0..Self::SWEEP {
                            let mut v = vec![0; inputs::COUNT];
                            v[inputs::select_valid] = 1;
                            v[inputs::commit_valid] = 1;
                            v[inputs::commit_member] = 1;
                            cycles.push((v, None));
                        }
                    }
                    Op::Write(w) => {
                        idle(&mut cycles, latency(self.wired));
                        let mut v = vec![0; inputs::COUNT];
                        write_inputs(&mut v, w, CFG_PORTS);
                        apply_flowlet_write(&mut lb, w);
                        cycles.push((v, None));
                    }
                    Op::Sets(sets) => {
                        idle(&mut cycles, latency(self.wired));
                        for w in set_writes(&sets) {
                            let mut v = vec![0; inputs::COUNT];
                            write_inputs(&mut v, w, CFG_PORTS);
                            cycles.push((v, None));
                        }
                        for (id, members) in sets.iter().enumerate() {
                            assert_eq!(
                                lb.register(members),
                                id,
                                "set lists must be distinct and registered once, in order"
                            );
                        }
                    }
                    Op::Traffic(c) => {
                        let mut v = vec![0; inputs::COUNT];
                        let cycle = cycles.len();
                        if let Some(s) = c.select {
                            v[inputs::select_valid] = 1;
                            v[inputs::select_set] = s.set as u64;
                            v[inputs::flow_hash] = s.flow_hash as u64;
                            v[inputs::tc] = s.tc as u64;
                            v[inputs::now_ns] = s.now_ns;
                            let before = lb.groups()[s.set as usize]
                                .table
                                .map(|t| (t, lb.slot(s.set as usize, s.flow_hash as usize & 511)));
                            let draw_before = lb.draw_state();
                            let sel = lb.select(
                                s.now_ns,
                                s.set as usize,
                                s.flow_hash,
                                s.tc as usize,
                                &ports,
                            );
                            let table = lb.groups()[s.set as usize].table;
                            coverage.draws += (lb.draw_state() != draw_before) as usize;
                            self.count(&mut coverage, &lb, &sel, before.and_then(|(_, slot)| slot));
                            results.push((cycle + latency(self.wired) - 1, expected_of(&sel, table)));
                            pending.push_back((sel, s.now_ns));
                        }
                        if let Some(decision) = c.decide {
                            if let Some((sel, now)) = pending.pop_front() {
                                let table = lb.groups()[sel.group].table;
                                let admit = decision == Decision::Admit
                                    || self.fault == Some(Fault::SlotUpdatedOnDrop);
                                if decision == Decision::Drop && sel.slot.is_some() {
                                    coverage.slot_left_on_drop += 1;
                                }
                                if decision == Decision::Admit {
                                    if let (Some(t), Some(slot)) = (table, sel.slot) {
                                        v[inputs::commit_valid] = 1;
                                        v[inputs::commit_slot] = (t * 512 + slot) as u64;
                                        v[inputs::commit_member] = sel.member as u64;
                                        v[inputs::commit_ns] = now;
                                    }
                                }
                                if admit {
                                    lb.commit(now, &sel, 0);
                                }
                            }
                        }
                        if let Some((port, bytes)) = c.occupancy {
                            v[inputs::occupancy_write] = 1;
                            v[inputs::occupancy_port] = port as u64;
                            v[inputs::occupancy_bytes] = bytes as u64;
                            ports.occupancy[port as usize] = bytes as u64;
                        }
                        if let Some((port, classes)) = c.pause {
                            v[inputs::pause_write] = 1;
                            v[inputs::pause_port] = port as u64;
                            v[inputs::paused_classes] = classes as u64;
                            ports.paused[port as usize] = classes;
                        }
                        cycles.push((v, c.select));
                    }
                }
            }
            if self.fault == Some(Fault::PfcIgnored) {
                lb.params_mut().pfc_aware = false;
            }
        }
        idle(&mut cycles, latency(self.wired));
        let mut expected = vec![vec![None; outputs::COUNT]; cycles.len()];
        let mut last_reset = 0;
        for (n, e) in expected.iter_mut().enumerate() {
            last_reset = resets.iter().copied().take_while(|&r| r <= n).last().unwrap_or(last_reset);
            e[outputs::ready] = Some((n >= last_reset + Self::SWEEP) as u64);
            e[outputs::result_valid] = Some(0);
        }
        for (at, e) in results {
            expected[at] = e;
            expected[at][outputs::ready] = Some(1);
        }
        // Before the first reset has emptied the pipeline nothing is known.
        for e in expected.iter_mut().take(latency(self.wired) - 1) {
            *e = vec![None; outputs::COUNT];
        }
        (
            Trace {
                inputs: cycles.into_iter().map(|(v, _)| v).collect(),
                expected,
            },
            coverage,
        )
    }

    pub fn trace(&self, ops: &[Op]) -> Trace {
        self.trace_with_coverage(ops).0
    }

    fn count(
        &self,
        c: &mut Coverage,
        lb: &LoadBalancer,
        sel: &Selection,
        slot_before: Option<reference::flowlet::Slot>,
    ) {
        c.selects += 1;
        let flowlet = lb.params().method == LoadBalancing::Flowlet;
        if flowlet && sel.slot.is_none() && lb.groups()[sel.group].table.is_none() {
            c.past_last_table += 1;
        }
        if sel.slot.is_some() && !sel.selected {
            c.kept_within_gap += 1;
        }
        if let (Some(slot), true) = (slot_before, sel.selected && sel.slot.is_some()) {
            if slot.valid && lb.params().gap_ns > 0 {
                c.reselected_at_gap += 1;
                if sel.member == slot.member as usize {
                    c.stayed_on_tie += 1;
                }
            }
        }
        if sel.paused_selection {
            c.all_paused += 1;
        }
    }
}

/// The result outputs for a selection.
fn expected_of(sel: &Selection, table: Option<usize>) -> Vec<Option<u64>> {
    let mut e = vec![None; outputs::COUNT];
    e[outputs::result_valid] = Some(1);
    e[outputs::member] = Some(sel.member as u64);
    e[outputs::egress_port] = Some(sel.egress_port as u64);
    e[outputs::selected] = Some(sel.selected as u64);
    e[outputs::moved] = Some(sel.moved_from.is_some() as u64);
    e[outputs::all_paused] = Some(sel.paused_selection as u64);
    e[outputs::has_slot] = Some(sel.slot.is_some() as u64);
    e[outputs::slot] = Some(match (table, sel.slot) {
        (Some(t), Some(slot)) => (t * 512 + slot) as u64,
        _ => 0,
    });
    e
}

/// Stimulus generators for proptest.
pub mod strategies {
    use super::{Cycle, Decision, Op, Select};
    use proptest::prelude::*;
    use reference::register_map::{
        RegisterWrite, FLOWLET_GAP, FLOWLET_METHOD, FLOWLET_PFC_AWARE, FLOWLET_SEED,
    };

    /// The longest time a replay takes (ns); times wrap below it.
    pub const TIME_LIMIT_NS: u64 = 1_000_000_000_000_000;

    /// Up to `max_sets` distinct member lists over `ports` ports, sizes 1 to 64.
    pub fn sets(ports: usize, max_sets: usize) -> impl Strategy<Value = Vec<Vec<u16>>> {
        let size = prop_oneof![
            Just(1usize),
            Just(2),
            Just(3),
            Just(4),
            Just(64),
            1usize..=64
        ];
        let one = (size, any::<u64>()).prop_map(move |(size, seed)| {
            let mut ports: Vec<u16> = (0..ports as u16).collect();
            let mut state = seed | 1;
            for i in (1..ports.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                ports.swap(i, (state % (i as u64 + 1)) as usize);
            }
            ports.truncate(size.min(ports.len()));
            ports
        });
        prop::collection::vec(one, 1..=max_sets).prop_map(|mut sets| {
            let mut seen = std::collections::HashSet::new();
            sets.retain(|s| seen.insert(s.clone()));
            sets
        })
    }

    pub fn gap_ns() -> impl Strategy<Value = u32> {
        prop_oneof![
            Just(0u32),
            Just(1),
            Just(1_000),
            Just(50_000),
            Just((1 << 25) - 1),
            Just(1 << 25),
            Just(2_000_000_000),
            Just(u32::MAX),
            any::<u32>()
        ]
    }

    /// The selection registers, written with the pipeline empty.
    pub fn program() -> impl Strategy<Value = Vec<Op>> {
        (
            prop_oneof![4 => Just(1u32), 1 => Just(0u32)],
            gap_ns(),
            any::<bool>(),
            any::<u32>(),
        )
            .prop_map(|(method, gap, pfc, seed)| {
                vec![
                    Op::Write(RegisterWrite {
                        address: FLOWLET_METHOD,
                        data: method,
                    }),
                    Op::Write(RegisterWrite {
                        address: FLOWLET_GAP,
                        data: gap,
                    }),
                    Op::Write(RegisterWrite {
                        address: FLOWLET_PFC_AWARE,
                        data: pfc as u32,
                    }),
                    Op::Write(RegisterWrite {
                        address: FLOWLET_SEED,
                        data: seed,
                    }),
                ]
            })
    }

    /// A time step (ns): none, a little, around the common gaps, or far.
    fn step_ns() -> impl Strategy<Value = u64> {
        prop_oneof![
            3 => Just(0u64), 3 => 1u64..2_000, 2 => 45_000u64..55_000, 1 => Just(1 << 25), 1 => Just(2_000_000_000),
            1 => 0u64..(1 << 40), 1 => Just(TIME_LIMIT_NS - 1)
        ]
    }

    /// A traffic cycle over `sets` sets and `ports` ports, with a time step.
    fn cycle(sets: usize, ports: usize) -> impl Strategy<Value = (Cycle, u64)> {
        let hash = prop_oneof![
            Just(0u16),
            Just(1),
            Just(511),
            Just(512),
            Just(0xFFFF),
            0u16..4,
            any::<u16>()
        ];
        let set = prop_oneof![3 => 0..sets.min(3) as u16, 1 => 0..sets as u16];
        let select =
            prop::option::weighted(0.8, (set, hash, prop_oneof![3 => 0u8..2, 1 => 0u8..8]));
        let decide = prop::option::weighted(
            0.85,
            prop_oneof![4 => Just(Decision::Admit), 1 => Just(Decision::Drop)],
        );
        let bytes = prop_oneof![
            Just(0u32),
            Just(1_500),
            Just(3_000),
            Just(u32::MAX),
            0u32..4,
            any::<u32>()
        ];
        let occupancy = prop::option::weighted(0.5, (0..ports as u8, bytes));
        let classes = prop_oneof![Just(0u8), Just(0xFF), Just(1), any::<u8>()];
        let pause = prop::option::weighted(0.15, (0..ports as u8, classes));
        (select, decide, occupancy, pause, step_ns()).prop_map(
            |(select, decide, occupancy, pause, step)| {
                let select = select.map(|(set, flow_hash, tc)| Select {
                    set,
                    flow_hash,
                    tc,
                    now_ns: 0,
                });
                (
                    Cycle {
                        select,
                        decide,
                        occupancy,
                        pause,
                    },
                    step,
                )
            },
        )
    }

    /// Sets, registers, then bursts of traffic, idle gaps, reprogramming
    /// and (rarely) resets; times advance by the cycles' steps and wrap
    /// below [`TIME_LIMIT_NS`].
    pub fn ops(ports: usize, max_sets: usize, chunks: usize) -> impl Strategy<Value = Vec<Op>> {
        (sets(ports, max_sets), program())
            .prop_flat_map(move |(sets, first)| {
                let n = sets.len();
                let burst = prop::collection::vec(cycle(n, ports), 1..64).prop_map(|cs| {
                    cs.into_iter()
                        .map(|(c, s)| (Op::Traffic(c), s))
                        .collect::<Vec<_>>()
                });
                let gap = (1usize..8).prop_map(|k| vec![(Op::Idle, 0); k]);
                let reprogram =
                    program().prop_map(|ops| ops.into_iter().map(|op| (op, 0)).collect::<Vec<_>>());
                let reset = Just(vec![(Op::Reset, 0)]);
                let chunk = prop_oneof![24 => burst, 3 => gap, 2 => reprogram, 1 => reset];
                (
                    Just(sets),
                    Just(first),
                    prop::collection::vec(chunk, 1..chunks),
                )
            })
            .prop_map(|(sets, first, chunks)| {
                let mut ops = vec![Op::Sets(sets)];
                ops.extend(first);
                let mut now = 0u64;
                for (op, step) in chunks.into_iter().flatten() {
                    now = (now + step) % TIME_LIMIT_NS;
                    ops.push(match op {
                        Op::Traffic(mut c) => {
                            if let Some(s) = c.select.as_mut() {
                                s.now_ns = now;
                            }
                            Op::Traffic(c)
                        }
                        other => other,
                    });
                }
                ops
            })
    }
}
