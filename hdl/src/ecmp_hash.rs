//! ECMP hash block: the 16-bit flow hash of a five-tuple under one of six
//! methods, and the member it selects in an equal-cost set of 1 to 64.
//!
//! Bit-exact with `reference::ecmp_hash` (key order, IEEE CRC-32 seeded
//! with the salt, `rotl(x, 8) ^ y` Speck-style finalizer, XOR folds, dpr).
//!
//! Parameters: none (all configuration is in registers, see
//! `reference::register_map::ECMP_HASH_REGISTERS`).
//!
//! Ports, by channel (all synchronous to `clock`):
//! * control: `reset` (synchronous; empties the pipeline, keeps registers)
//! * configuration: `cfg_write`, `cfg_address` (8 bits), `cfg_data` (32 bits)
//! * key (one per clock): `key_valid`, `key_proto`, `key_src`, `key_dst`
//!   (IPv4, 32 bits), `key_sport`, `key_dport` (16 bits), `set_size`
//!   (members, 1..64; 0 counts as 1; in the cycle after its key in a build
//!   made by [`EcmpHash::with_late_set_size`], for a user that reads the
//!   size from a RAM addressed in the key's cycle)
//! * early result, [`HASH_LATENCY`] (6) cycles after the key: `early_valid`,
//!   `early_flow_hash` (16 bits): the flow hash alone, for a user that needs
//!   no member (the switch datapath: the flowlet table picks the member)
//! * result: `hash_valid`, `flow_hash` (16 bits), `member` (6 bits),
//!   `crc` (32 bits) with `crc_valid` for the CRC methods and a dpr fallback
//!
//! Latency 21 cycles ([`LATENCY`]; the early result 6), throughput one key
//! per cycle (II = 1). A configuration write applies to the key given in
//! the same cycle.
//!
//! ```text
//!  key ─►[s1 key, TCP/UDP gate]─► CRC XOR matrix, fold ─►[s2]─► ARX round 1,
//!        salted fold ─►[s3]─► round 2 ─►[s4]─► round 3, each method's hash
//!  ─►[s5]─► method mux ─►[s6 hash, size]─► SetMember: 15 restoring steps,
//!        one per stage ─►[s21] member; hash, CRC and crc_valid ride as its tag
//! ```
//!
//! The CRC is the [`CrcMatrix`] sub-block: one XOR tree per output bit (a
//! loop-form CRC measured 44 MHz on ECP5, the matrix form 125 MHz). The
//! member is the [`SetMember`] sub-block, exact `hash mod size` without a
//! multiplier (a reciprocal multiply through a MULT18X18D between fabric
//! registers topped out at 175 MHz).
//!
//! Place and route (`sswitch synth --block ecmp-hash`, Yosys 0.23,
//! nextpnr-ecp5 0.11 from yowasp 0.11.1.0.post826, LFE5U-85F out of
//! context, seed 1): 205.7 MHz at speed 8, 174.6 MHz at speed 6, the CRC
//! XOR trees into `s2_crc` the limit; 1,381 LUT4, 1,631 flip-flops, 191
//! carry cells, no block RAM or multiplier. (Before the early result's
//! two output ports, 217.9 and 166.2 MHz: the same logic placed anew.)

use crate::crc_matrix::CrcMatrix;
use crate::set_member::{self, SetMember};
use reference::ecmp_hash::{PROTO_TCP, PROTO_UDP};
use reference::register_map::{ECMP_HASH_METHOD, ECMP_HASH_SALT};
use rust_hdl::prelude::*;

/// Method codes, as in the register map.
const DPR: u32 = 0;
const HASH_WITH_SALT: u32 = 2;
const CRC32_PLAIN: u32 = 3;
const CRC32_WITH_SALT: u32 = 4;
const DPR_WITH_FALLBACK: u32 = 5;

/// Cycles from `key_valid` to `early_valid`: the stages to the flow hash.
pub const HASH_LATENCY: usize = 6;
/// Pipeline latency from `key_valid` to `hash_valid`, in cycles: six
/// stages to the flow hash, then the set member's.
pub const LATENCY: usize = HASH_LATENCY + set_member::LATENCY;

// The valid line above is one bit per set-member stage.
const _: () = assert!(set_member::LATENCY == 15);

/// Width of the tag carried beside the set member: crc_valid, flow hash, CRC.
const TAG_BITS: usize = 1 + 16 + 32;

#[derive(LogicBlock)]
pub struct EcmpHash {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the pipeline (registers keep their values).
    pub reset: Signal<In, Bit>,
    // configuration channel
    pub cfg_write: Signal<In, Bit>,
    pub cfg_address: Signal<In, Bits<8>>,
    pub cfg_data: Signal<In, Bits<32>>,
    // key channel
    pub key_valid: Signal<In, Bit>,
    pub key_proto: Signal<In, Bits<8>>,
    pub key_src: Signal<In, Bits<32>>,
    pub key_dst: Signal<In, Bits<32>>,
    pub key_sport: Signal<In, Bits<16>>,
    pub key_dport: Signal<In, Bits<16>>,
    pub set_size: Signal<In, Bits<7>>,
    // early result channel
    pub early_valid: Signal<Out, Bit>,
    pub early_flow_hash: Signal<Out, Bits<16>>,
    // result channel
    pub hash_valid: Signal<Out, Bit>,
    pub flow_hash: Signal<Out, Bits<16>>,
    pub member: Signal<Out, Bits<6>>,
    pub crc: Signal<Out, Bits<32>>,
    pub crc_valid: Signal<Out, Bit>,
    // registers
    method_code: DFF<Bits<3>>,
    salt: DFF<Bits<32>>,
    // stage 1: the key
    s1_valid: DFF<Bit>,
    s1_proto: DFF<Bits<8>>,
    s1_ports: DFF<Bits<32>>,
    s1_src: DFF<Bits<32>>,
    s1_dst: DFF<Bits<32>>,
    s1_dst_low: DFF<Bits<16>>,
    s1_size: DFF<Bits<7>>,
    // stage 2: CRC, fold word, dpr value
    s2_valid: DFF<Bit>,
    s2_crc: DFF<Bits<32>>,
    s2_fold: DFF<Bits<32>>,
    s2_dpr: DFF<Bits<16>>,
    s2_size: DFF<Bits<7>>,
    // stage 3: finalizer after round 1
    s3_valid: DFF<Bit>,
    s3_x: DFF<Bits<16>>,
    s3_y: DFF<Bits<16>>,
    s3_crc: DFF<Bits<32>>,
    s3_fold: DFF<Bits<32>>,
    s3_dpr: DFF<Bits<16>>,
    s3_size: DFF<Bits<7>>,
    // stage 4: finalizer after round 2
    s4_valid: DFF<Bit>,
    s4_x: DFF<Bits<16>>,
    s4_y: DFF<Bits<16>>,
    s4_crc: DFF<Bits<32>>,
    s4_fold: DFF<Bits<32>>,
    s4_dpr: DFF<Bits<16>>,
    s4_size: DFF<Bits<7>>,
    // stage 5: the candidate hashes of every method
    s5_valid: DFF<Bit>,
    s5_salted_hash: DFF<Bits<16>>,
    s5_fold_hash: DFF<Bits<16>>,
    s5_crc_hash: DFF<Bits<16>>,
    s5_dpr: DFF<Bits<16>>,
    s5_dpr_in_set: DFF<Bit>,
    s5_crc: DFF<Bits<32>>,
    s5_size: DFF<Bits<7>>,
    // stage 6: flow hash and reciprocal of the set size
    s6_valid: DFF<Bit>,
    s6_hash: DFF<Bits<16>>,
    s6_crc: DFF<Bits<32>>,
    s6_crc_valid: DFF<Bit>,
    s6_size: DFF<Bits<7>>,
    // stages 7 to 14: the member, with the other results as its tag
    set_member: SetMember<TAG_BITS>,
    /// Valid bits of the set member's stages (bit 0 first).
    valid_line: DFF<Bits<15>>,
    tag_crc_valid: Signal<Local, Bits<49>>,
    s6_valid_bit: Signal<Local, Bits<1>>,
    // combinational intermediates
    hashed_key: Signal<Local, Bit>,
    key_proto_hashed: Signal<Local, Bits<8>>,
    key_ports_hashed: Signal<Local, Bits<32>>,
    key_src_hashed: Signal<Local, Bits<32>>,
    key_dst_hashed: Signal<Local, Bits<32>>,
    /// The salt when the method is crc32WithSalt, else 0.
    crc_init: DFF<Bits<32>>,
    method_next: Signal<Local, Bits<3>>,
    salt_next: Signal<Local, Bits<32>>,
    crc_matrix: CrcMatrix,
    fold_word: Signal<Local, Bits<32>>,
    round1_x: Signal<Local, Bits<16>>,
    round1_y: Signal<Local, Bits<16>>,
    round2_x: Signal<Local, Bits<16>>,
    round2_y: Signal<Local, Bits<16>>,
    round3_x: Signal<Local, Bits<16>>,
    round3_y: Signal<Local, Bits<16>>,
    salt_lo: Signal<Local, Bits<16>>,
    salt_hi: Signal<Local, Bits<16>>,
    proto_tcp: Constant<Bits<8>>,
    proto_udp: Constant<Bits<8>>,
    reg_method: Constant<Bits<8>>,
    reg_salt: Constant<Bits<8>>,
    code_dpr: Constant<Bits<3>>,
    code_hash_with_salt: Constant<Bits<3>>,
    code_crc32: Constant<Bits<3>>,
    code_crc32_with_salt: Constant<Bits<3>>,
    code_dpr_with_fallback: Constant<Bits<3>>,
    /// Set: `set_size` comes a cycle after its key (it is first needed in
    /// stage 4, by `dprWithFallback`).
    set_size_late: Constant<Bit>,
}

impl EcmpHash {
    /// The block taking each key's `set_size` one cycle after the key;
    /// answers as the default build's.
    pub fn with_late_set_size() -> Self {
        EcmpHash { set_size_late: Constant::new(true), ..Default::default() }
    }
}

/// The member the block computes: `hash mod size` via the reciprocal.
pub fn member_by_reciprocal(hash: u16, size: u32) -> u32 {
    if size <= 1 {
        return 0;
    }
    let recip = 65536 / size;
    let quotient = (hash as u32 * recip) >> 16;
    let remainder = (hash as u32).wrapping_sub(quotient * size) & 0xFFFF;
    if remainder >= size { remainder - size } else { remainder }
}

fn constant<const W: usize>(value: impl Into<u64>) -> Constant<Bits<W>> {
    Constant::new(Bits::<W>::from(value.into() as LiteralType))
}

impl Default for EcmpHash {
    fn default() -> Self {
        EcmpHash {
            clock: Default::default(),
            reset: Default::default(),
            cfg_write: Default::default(),
            cfg_address: Default::default(),
            cfg_data: Default::default(),
            key_valid: Default::default(),
            key_proto: Default::default(),
            key_src: Default::default(),
            key_dst: Default::default(),
            key_sport: Default::default(),
            key_dport: Default::default(),
            set_size: Default::default(),
            early_valid: Default::default(),
            early_flow_hash: Default::default(),
            hash_valid: Default::default(),
            flow_hash: Default::default(),
            member: Default::default(),
            crc: Default::default(),
            crc_valid: Default::default(),
            method_code: Default::default(),
            salt: Default::default(),
            s1_valid: Default::default(),
            s1_proto: Default::default(),
            s1_ports: Default::default(),
            s1_src: Default::default(),
            s1_dst: Default::default(),
            s1_dst_low: Default::default(),
            s1_size: Default::default(),
            s2_valid: Default::default(),
            s2_crc: Default::default(),
            s2_fold: Default::default(),
            s2_dpr: Default::default(),
            s2_size: Default::default(),
            s3_valid: Default::default(),
            s3_x: Default::default(),
            s3_y: Default::default(),
            s3_crc: Default::default(),
            s3_fold: Default::default(),
            s3_dpr: Default::default(),
            s3_size: Default::default(),
            s4_valid: Default::default(),
            s4_x: Default::default(),
            s4_y: Default::default(),
            s4_crc: Default::default(),
            s4_fold: Default::default(),
            s4_dpr: Default::default(),
            s4_size: Default::default(),
            s5_valid: Default::default(),
            s5_salted_hash: Default::default(),
            s5_fold_hash: Default::default(),
            s5_crc_hash: Default::default(),
            s5_dpr: Default::default(),
            s5_dpr_in_set: Default::default(),
            s5_crc: Default::default(),
            s5_size: Default::default(),
            s6_valid: Default::default(),
            s6_hash: Default::default(),
            s6_crc: Default::default(),
            s6_crc_valid: Default::default(),
            s6_size: Default::default(),
            set_member: Default::default(),
            valid_line: Default::default(),
            tag_crc_valid: Default::default(),
            s6_valid_bit: Default::default(),
            hashed_key: Default::default(),
            key_proto_hashed: Default::default(),
            key_ports_hashed: Default::default(),
            key_src_hashed: Default::default(),
            key_dst_hashed: Default::default(),
            crc_init: Default::default(),
            method_next: Default::default(),
            salt_next: Default::default(),
            crc_matrix: Default::default(),
            fold_word: Default::default(),
            round1_x: Default::default(),
            round1_y: Default::default(),
            round2_x: Default::default(),
            round2_y: Default::default(),
            round3_x: Default::default(),
            round3_y: Default::default(),
            salt_lo: Default::default(),
            salt_hi: Default::default(),
            proto_tcp: constant(PROTO_TCP),
            proto_udp: constant(PROTO_UDP),
            reg_method: constant(ECMP_HASH_METHOD),
            reg_salt: constant(ECMP_HASH_SALT),
            code_dpr: constant(DPR),
            code_hash_with_salt: constant(HASH_WITH_SALT),
            code_crc32: constant(CRC32_PLAIN),
            code_crc32_with_salt: constant(CRC32_WITH_SALT),
            code_dpr_with_fallback: constant(DPR_WITH_FALLBACK),
            set_size_late: Constant::new(false),
        }
    }
}

impl Logic for EcmpHash {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, method_code, salt, crc_init,
            s1_valid, s1_proto, s1_ports, s1_src, s1_dst, s1_dst_low, s1_size,
            s2_valid, s2_crc, s2_fold, s2_dpr, s2_size,
            s3_valid, s3_x, s3_y, s3_crc, s3_fold, s3_dpr, s3_size,
            s4_valid, s4_x, s4_y, s4_crc, s4_fold, s4_dpr, s4_size,
            s5_valid, s5_salted_hash, s5_fold_hash, s5_crc_hash, s5_dpr, s5_dpr_in_set, s5_crc, s5_size,
            s6_valid, s6_hash, s6_crc, s6_crc_valid, s6_size, valid_line);
        // Configuration channel. The CRC's initial value is a register of
        // its own, computed from the registers' next values (so it changes
        // with them): a mux from method and salt into the CRC trees measured
        // 161 MHz at speed 6.
        self.method_next.next = self.method_code.q.val();
        if self.cfg_write.val() & (self.cfg_address.val() == self.reg_method.val()) {
            self.method_next.next = bit_cast::<3, _>(self.cfg_data.val());
        }
        self.salt_next.next = self.salt.q.val();
        if self.cfg_write.val() & (self.cfg_address.val() == self.reg_salt.val()) {
            self.salt_next.next = self.cfg_data.val();
        }
        self.method_code.d.next = self.method_next.val();
        self.salt.d.next = self.salt_next.val();
        self.crc_init.d.next = 0.into();
        if self.method_next.val() == self.code_crc32_with_salt.val() {
            self.crc_init.d.next = self.salt_next.val();
        }
        // Stage 1: register the key; only TCP and UDP are hashed, others
        // use the zero key (decided here, so stage 2 is the XOR trees alone).
        self.hashed_key.next = (self.key_proto.val() == self.proto_tcp.val()) | (self.key_proto.val() == self.proto_udp.val());
        self.key_proto_hashed.next = 0.into();
        self.key_ports_hashed.next = 0.into();
        self.key_src_hashed.next = 0.into();
        self.key_dst_hashed.next = 0.into();
        if self.hashed_key.val() {
            self.key_proto_hashed.next = self.key_proto.val();
            self.key_ports_hashed.next = (bit_cast::<32, 16>(self.key_sport.val()) << 16) | bit_cast::<32, 16>(self.key_dport.val());
            self.key_src_hashed.next = self.key_src.val();
            self.key_dst_hashed.next = self.key_dst.val();
        }
        self.s1_valid.d.next = self.key_valid.val();
        self.s1_proto.d.next = self.key_proto_hashed.val();
        self.s1_ports.d.next = self.key_ports_hashed.val();
        self.s1_src.d.next = self.key_src_hashed.val();
        self.s1_dst.d.next = self.key_dst_hashed.val();
        self.s1_dst_low.d.next = bit_cast::<16, 32>(self.key_dst.val());
        self.s1_size.d.next = self.set_size.val();
        // Stage 2: CRC matrix, XOR fold, dpr value.
        self.crc_matrix.key_proto.next = self.s1_proto.q.val();
        self.crc_matrix.key_ports.next = self.s1_ports.q.val();
        self.crc_matrix.key_src.next = self.s1_src.q.val();
        self.crc_matrix.key_dst.next = self.s1_dst.q.val();
        self.crc_matrix.crc_init.next = self.crc_init.q.val();
        self.fold_word.next = self.s1_src.q.val() ^ self.s1_dst.q.val() ^ self.s1_ports.q.val()
            ^ bit_cast::<32, 8>(self.s1_proto.q.val());
        self.s2_valid.d.next = self.s1_valid.q.val();
        self.s2_crc.d.next = self.crc_matrix.crc_word.val();
        self.s2_fold.d.next = self.fold_word.val();
        self.s2_dpr.d.next = (self.s1_dst_low.q.val() - 1) & 0x1FF;
        if self.set_size_late.val() {
            self.s2_size.d.next = self.set_size.val();
        } else {
            self.s2_size.d.next = self.s1_size.q.val();
        }
        // Stage 3: finalizer round 1 (x = (rotr(x,7) + y) ^ k; y = rotl(y,2) ^ x).
        self.salt_lo.next = bit_cast::<16, 32>(self.salt.q.val());
        self.salt_hi.next = bit_cast::<16, 32>(self.salt.q.val() >> 16);
        self.round1_x.next = (((bit_cast::<16, 32>(self.s2_crc.q.val() >> 16) >> 7) | (bit_cast::<16, 32>(self.s2_crc.q.val() >> 16) << 9))
            + bit_cast::<16, 32>(self.s2_crc.q.val())) ^ self.salt_lo.val();
        self.round1_y.next = ((bit_cast::<16, 32>(self.s2_crc.q.val()) << 2) | (bit_cast::<16, 32>(self.s2_crc.q.val()) >> 14)) ^ self.round1_x.val();
        self.s3_valid.d.next = self.s2_valid.q.val();
        self.s3_x.d.next = self.round1_x.val();
        self.s3_y.d.next = self.round1_y.val();
        self.s3_crc.d.next = self.s2_crc.q.val();
        // The salted fold adds in this stage: in stage 2 it followed the XOR (200.8 MHz).
        self.s3_fold.d.next = self.s2_fold.q.val();
        if self.method_code.q.val() == self.code_hash_with_salt.val() {
            self.s3_fold.d.next = self.s2_fold.q.val() + self.salt.q.val();
        }
        self.s3_dpr.d.next = self.s2_dpr.q.val();
        self.s3_size.d.next = self.s2_size.q.val();
        // Stage 4: finalizer round 2.
        self.round2_x.next = (((self.s3_x.q.val() >> 7) | (self.s3_x.q.val() << 9)) + self.s3_y.q.val()) ^ self.salt_hi.val();
        self.round2_y.next = ((self.s3_y.q.val() << 2) | (self.s3_y.q.val() >> 14)) ^ self.round2_x.val();
        self.s4_valid.d.next = self.s3_valid.q.val();
        self.s4_x.d.next = self.round2_x.val();
        self.s4_y.d.next = self.round2_y.val();
        self.s4_crc.d.next = self.s3_crc.q.val();
        self.s4_fold.d.next = self.s3_fold.q.val();
        self.s4_dpr.d.next = self.s3_dpr.q.val();
        self.s4_size.d.next = self.s3_size.q.val();
        // Stage 5: the last round, and each method's candidate hash.
        self.round3_x.next = (((self.s4_x.q.val() >> 7) | (self.s4_x.q.val() << 9)) + self.s4_y.q.val()) ^ (self.salt_lo.val() ^ self.salt_hi.val());
        self.round3_y.next = ((self.s4_y.q.val() << 2) | (self.s4_y.q.val() >> 14)) ^ self.round3_x.val();
        self.s5_valid.d.next = self.s4_valid.q.val();
        self.s5_salted_hash.d.next = ((self.round3_x.val() << 8) | (self.round3_x.val() >> 8)) ^ self.round3_y.val();
        self.s5_fold_hash.d.next = bit_cast::<16, 32>(self.s4_fold.q.val() >> 16) ^ bit_cast::<16, 32>(self.s4_fold.q.val());
        self.s5_crc_hash.d.next = bit_cast::<16, 32>(self.s4_crc.q.val() >> 16) ^ bit_cast::<16, 32>(self.s4_crc.q.val());
        self.s5_dpr.d.next = self.s4_dpr.q.val();
        self.s5_dpr_in_set.d.next = self.s4_dpr.q.val() < bit_cast::<16, 7>(self.s4_size.q.val());
        self.s5_crc.d.next = self.s4_crc.q.val();
        self.s5_size.d.next = self.s4_size.q.val();
        // Stage 6: the method's hash; reciprocal of the size.
        self.s6_valid.d.next = self.s5_valid.q.val();
        self.s6_crc.d.next = self.s5_crc.q.val();
        self.s6_size.d.next = self.s5_size.q.val();
        self.s6_crc_valid.d.next = false;
        self.s6_hash.d.next = self.s5_fold_hash.q.val();
        if self.method_code.q.val() == self.code_dpr.val() {
            self.s6_hash.d.next = self.s5_dpr.q.val();
        }
        if self.method_code.q.val() == self.code_crc32.val() {
            self.s6_hash.d.next = self.s5_crc_hash.q.val();
            self.s6_crc_valid.d.next = true;
        }
        if self.method_code.q.val() == self.code_crc32_with_salt.val() {
            self.s6_hash.d.next = self.s5_salted_hash.q.val();
            self.s6_crc_valid.d.next = true;
        }
        if self.method_code.q.val() == self.code_dpr_with_fallback.val() {
            if self.s5_dpr_in_set.q.val() {
                self.s6_hash.d.next = self.s5_dpr.q.val();
            } else {
                self.s6_hash.d.next = self.s5_crc_hash.q.val();
                self.s6_crc_valid.d.next = true;
            }
        }
        // Stages 7 to 14: the member, the other results riding along as its tag.
        self.set_member.clock.next = self.clock.val();
        self.set_member.value.next = self.s6_hash.q.val();
        self.set_member.set_size.next = self.s6_size.q.val();
        self.s6_valid_bit.next = 0.into();
        if self.s6_valid.q.val() {
            self.s6_valid_bit.next = 1.into();
        }
        // Tag layout (TAG_BITS): bit 0 crc_valid, bits 1-16 flow hash, bits 17-48 CRC.
        self.tag_crc_valid.next = 0.into();
        if self.s6_crc_valid.q.val() {
            self.tag_crc_valid.next = 1.into();
        }
        self.set_member.tag_in.next = self.tag_crc_valid.val()
            | (bit_cast::<49, 16>(self.s6_hash.q.val()) << 1)
            | (bit_cast::<49, 32>(self.s6_crc.q.val()) << 17);
        // Valid bits of stages 7 to 14, shifted in from stage 6.
        self.valid_line.d.next = (self.valid_line.q.val() << 1) | bit_cast::<15, 1>(self.s6_valid_bit.val());
        if self.reset.val() {
            self.s1_valid.d.next = false;
            self.s2_valid.d.next = false;
            self.s3_valid.d.next = false;
            self.s4_valid.d.next = false;
            self.s5_valid.d.next = false;
            self.s6_valid.d.next = false;
            self.valid_line.d.next = 0.into();
        }
        // Early result channel: stage 6, the flow hash before its member.
        self.early_valid.next = self.s6_valid.q.val();
        self.early_flow_hash.next = self.s6_hash.q.val();
        // Result channel.
        self.hash_valid.next = self.valid_line.q.val().get_bit(14);
        self.crc_valid.next = self.set_member.tag_out.val().get_bit(0);
        self.flow_hash.next = self.set_member.tag_out.val().get_bits::<16>(1);
        self.crc.next = self.set_member.tag_out.val().get_bits::<32>(17);
        self.member.next = self.set_member.member.val();
    }
}
