//! Co-simulation adapter of the ECMP hash block: its ports, the stimulus
//! operations, and the reference model's expected outputs.

use crate::cosim::{blank_until_reset, framed, write_inputs, ControlOps, Trace};
use hdl::ecmp_hash::{EcmpHash, HASH_LATENCY, LATENCY};
use reference::ecmp_hash::{flow_hash, member_index, EcmpHashParams, FlowKey};
use reference::register_map::{apply_ecmp_hash_write, ecmp_hash_reset_params, RegisterWrite};

/// One cycle of stimulus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Idle,
    Reset,
    Write(RegisterWrite),
    Key(FlowKey, u8),
}

/// The harness; `fault` builds a deliberately wrong reference (tests
/// only); `late_set_size` builds the block that takes each key's set size
/// a cycle after the key (`EcmpHash::with_late_set_size`, as the switch
/// datapath does), and gives it so.
#[derive(Clone, Copy, Debug, Default)]
pub struct EcmpHashBench {
    pub fault: Option<Fault>,
    pub late_set_size: bool,
}

/// Wrong reference variants that must make the co-simulation fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Member off by one.
    MemberOffByOne,
    /// The salt ignored by crc32WithSalt's CRC.
    UnsaltedCrc,
    /// The early flow hash a cycle after the stage that has it.
    EarlyHashLate,
}

const CFG: &str = "configuration";
const KEY: &str = "key";
const EARLY: &str = "early result";
const RESULT: &str = "result";

crate::harness! {
    impl[] Harness for EcmpHashBench {
        uut: EcmpHash, name: "ecmp_hash",
        build(self) { if self.late_set_size { EcmpHash::with_late_set_size() } else { EcmpHash::default() } }
        inputs {
            reset: 1 => "control",
            cfg_write: 1 => CFG,
            cfg_address: 8 => CFG,
            cfg_data: 32 => CFG,
            key_valid: 1 => KEY,
            key_proto: 8 => KEY,
            key_src: 32 => KEY,
            key_dst: 32 => KEY,
            key_sport: 16 => KEY,
            key_dport: 16 => KEY,
            set_size: 7 => KEY,
        }
        outputs {
            early_valid: 1 => EARLY,
            early_flow_hash: 16 => EARLY,
            hash_valid: 1 => RESULT,
            flow_hash: 16 => RESULT,
            member: 6 => RESULT,
            crc: 32 => RESULT,
            crc_valid: 1 => RESULT,
        }
    }
}

impl ControlOps for Op {
    const IDLE: Op = Op::Idle;
    const RESET: Op = Op::Reset;
}

const CFG_PORTS: [usize; 3] = [inputs::cfg_write, inputs::cfg_address, inputs::cfg_data];

fn inputs_of(op: &Op) -> Vec<u64> {
    let mut v = vec![0u64; inputs::COUNT];
    match *op {
        Op::Idle => {}
        Op::Reset => v[inputs::reset] = 1,
        Op::Write(w) => write_inputs(&mut v, w, CFG_PORTS),
        Op::Key(k, size) => {
            v[inputs::key_valid] = 1;
            v[inputs::key_proto] = k.proto as u64;
            v[inputs::key_src] = k.src as u64;
            v[inputs::key_dst] = k.dst as u64;
            v[inputs::key_sport] = k.sport as u64;
            v[inputs::key_dport] = k.dport as u64;
            v[inputs::set_size] = size as u64;
        }
    }
    v
}

/// Moves every cycle's `set_size` to the cycle after it.
fn delay_set_sizes(inputs: &mut [Vec<u64>]) {
    let mut carried = 0;
    for v in inputs.iter_mut() {
        carried = std::mem::replace(&mut v[inputs::set_size], carried);
    }
}

/// Positions of the outputs on `channel`, as the harness declares them.
fn outputs_on(channel: &str) -> Vec<usize> {
    use crate::cosim::Harness;
    EcmpHashBench::OUTPUTS.iter().enumerate().filter(|(_, p)| p.channel == channel).map(|(k, _)| k).collect()
}

impl EcmpHashBench {
    /// The reference's answer for one key.
    fn expected(&self, params: &EcmpHashParams, key: &FlowKey, size: u8) -> Vec<Option<u64>> {
        let mut p = *params;
        if self.fault == Some(Fault::UnsaltedCrc) && p.method == reference::config::HashMethod::Crc32WithSalt {
            p.salt = 0;
        }
        let h = flow_hash(&p, key, size as usize);
        let mut member = member_index(h.flow_hash, size.max(1) as usize) as u64;
        if self.fault == Some(Fault::MemberOffByOne) && size > 1 {
            member = (member + 1) % size as u64;
        }
        let mut e = vec![None; outputs::COUNT];
        e[outputs::early_valid] = Some(1);
        e[outputs::early_flow_hash] = Some(h.flow_hash as u64);
        e[outputs::hash_valid] = Some(1);
        e[outputs::flow_hash] = Some(h.flow_hash as u64);
        e[outputs::member] = Some(member);
        e[outputs::crc] = h.crc32.map(|c| c as u64);
        e[outputs::crc_valid] = Some(h.crc32.is_some() as u64);
        e
    }

    /// Turns stimulus into a trace: every cycle's inputs, and the outputs
    /// the reference expects `LATENCY - 1` samples later (the early flow
    /// hash `HASH_LATENCY - 1` samples later). The first
    /// `LATENCY` cycles hold reset (Verilog registers start unknown).
    /// Register writes must only come when no key is in flight.
    pub fn trace(&self, ops: &[Op]) -> Trace {
        let all: Vec<Op> = framed(ops.iter().cloned(), LATENCY);
        let mut idle = vec![None; outputs::COUNT];
        idle[outputs::early_valid] = Some(0);
        idle[outputs::hash_valid] = Some(0);
        let mut expected = vec![idle.clone(); all.len()];
        let mut params = ecmp_hash_reset_params();
        for (cycle, op) in all.iter().enumerate() {
            match op {
                Op::Write(w) => apply_ecmp_hash_write(&mut params, *w),
                Op::Key(key, size) => {
                    let answer = self.expected(&params, key, *size);
                    let early_delay = HASH_LATENCY - 1 + (self.fault == Some(Fault::EarlyHashLate)) as usize;
                    for (delay, channel) in [(LATENCY - 1, RESULT), (early_delay, EARLY)] {
                        let at = cycle + delay;
                        let reset_in_flight = all[cycle..=at].contains(&Op::Reset);
                        if !reset_in_flight {
                            for field in outputs_on(channel) {
                                expected[at][field] = answer[field];
                            }
                        }
                    }
                }
                Op::Idle | Op::Reset => {}
            }
        }
        // Before the first reset has emptied the pipeline nothing is known.
        blank_until_reset(&mut expected, LATENCY, outputs::COUNT);
        let mut inputs: Vec<Vec<u64>> = all.iter().map(inputs_of).collect();
        if self.late_set_size {
            delay_set_sizes(&mut inputs);
        }
        Trace { inputs, expected }
    }
}

/// Stimulus generators for proptest.
pub mod strategies {
    use super::Op;
    use hdl::ecmp_hash::LATENCY;
    use proptest::prelude::*;
    use reference::ecmp_hash::FlowKey;
    use reference::register_map::{RegisterWrite, ECMP_HASH_METHOD, ECMP_HASH_SALT};

    fn corner_u32() -> impl Strategy<Value = u32> {
        prop_oneof![Just(0u32), Just(1), Just(2), Just(u32::MAX), Just(0x8000_0000), Just(0x1FF), Just(0x200), any::<u32>()]
    }

    fn corner_u16() -> impl Strategy<Value = u16> {
        prop_oneof![Just(0u16), Just(1), Just(u16::MAX), Just(0x8000), any::<u16>()]
    }

    pub fn key() -> impl Strategy<Value = FlowKey> {
        let proto = prop_oneof![Just(6u8), Just(17), Just(1), Just(0), Just(255), any::<u8>()];
        (proto, corner_u32(), corner_u32(), corner_u16(), corner_u16())
            .prop_map(|(proto, src, dst, sport, dport)| FlowKey { proto, src, dst, sport, dport })
    }

    pub fn set_size() -> impl Strategy<Value = u8> {
        prop_oneof![Just(0u8), Just(1), Just(2), Just(3), Just(63), Just(64), 1u8..=64]
    }

    /// A configuration burst: method and salt, written with the pipeline empty.
    pub fn program() -> impl Strategy<Value = Vec<Op>> {
        (0u32..8, any::<u32>()).prop_map(|(method, salt)| {
            let mut ops = vec![Op::Idle; LATENCY];
            ops.push(Op::Write(RegisterWrite { address: ECMP_HASH_METHOD, data: method }));
            ops.push(Op::Write(RegisterWrite { address: ECMP_HASH_SALT, data: salt }));
            ops
        })
    }

    /// Bursts of back-to-back keys, idle gaps, resets and reprogramming.
    pub fn ops(len: usize) -> impl Strategy<Value = Vec<Op>> {
        let burst = prop::collection::vec((key(), set_size()).prop_map(|(k, s)| Op::Key(k, s)), 1..64);
        let gap = (1usize..8).prop_map(|n| vec![Op::Idle; n]);
        let reset = Just(vec![Op::Reset]);
        let chunk = prop_oneof![8 => burst, 2 => gap, 1 => reset, 1 => program()];
        (program(), prop::collection::vec(chunk, 1..len)).prop_map(|(first, chunks)| {
            let mut ops = first;
            ops.extend(chunks.into_iter().flatten());
            ops
        })
    }
}
