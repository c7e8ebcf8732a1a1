//! The largest and smallest values the tool accepts from its inputs (event
//! files, scenarios, configurations), in one place. A value outside them is
//! refused with one line naming the field, the value and the limit; none
//! is capped or wrapped. The README's "Limits" section lists them.
//!
//! They are chosen so that every sum of times and bytes the model forms
//! from accepted inputs fits 64 bits, and so that what the hardware holds
//! in 32-bit registers fits there.

/// The latest event time of a replay: 10^15 ns (1,000,000 s). A pause
/// time (at most about 2^48 ns) added to it cannot overflow.
pub const MAX_TIME_NS: u64 = 1_000_000_000_000_000;

/// The longest simulated time and the latest time in a scenario:
/// 10^18 ps (1,000,000 s).
pub const MAX_SIM_TIME_PS: u64 = 1_000_000_000_000_000_000;

/// The hardware keeps time as 32-bit nanoseconds: an event later than
/// this cannot reach it (4.29 s).
pub const MAX_HARDWARE_TIME_NS: u64 = u32::MAX as u64;

/// Pause re-sends that may fall due before one replayed event. A port
/// paused at 0 ns and an event a day later would otherwise make billions
/// of re-sends (one every 42 us at 400 Gbps) and hold them all in memory.
pub const MAX_RESENDS_PER_EVENT: u64 = 100_000;

/// Link rates (DataRate, scenario peer rates): from 10 Mb/s, where one
/// pause quantum (512 bit times, ns x 2^16) still fits the 32-bit register,
/// to 100 Tb/s, where a full pause still lasts more than 2 ns.
pub const MIN_LINK_RATE_BPS: u64 = 10_000_000;
pub const MAX_LINK_RATE_BPS: u64 = 100_000_000_000_000;

/// A scenario flow's rate: at least 1 Mb/s (and at most its link's rate).
pub const MIN_FLOW_RATE_BPS: u64 = 1_000_000;

/// Link delays (Delay, `downlink_peer_delay`): the hardware holds them as
/// 32-bit nanoseconds (4.29 s).
pub const MAX_DELAY_PS: u64 = u32::MAX as u64 * 1000;

/// Bytes values the hardware holds in 32-bit registers (the page's own
/// largest `bytes` value).
pub const MAX_REGISTER_BYTES: u64 = u32::MAX as u64;

/// PFC frames one `peer_pauses` entry of a scenario may expand to.
pub const MAX_PEER_PAUSE_FRAMES: u64 = 1_000_000;

/// Ports of a hardware block (the 8-bit `port_select` register).
pub const MAX_HARDWARE_PORTS: u32 = 256;

/// Ports of a switch in a replay or scenario.
pub const MAX_PORTS: u32 = 4096;

/// Random flows of one `sswitch polarization` study.
pub const MAX_POLARIZATION_FLOWS: u64 = 100_000_000;

/// A replay time as the hardware's 32-bit nanoseconds, or the reason it
/// cannot be one.
pub fn hardware_time_ns(t_ns: u64) -> Result<u32, String> {
    u32::try_from(t_ns).map_err(|_| {
        format!("field `t_ns`: {t_ns} ns is past {MAX_HARDWARE_TIME_NS} ns, the latest time the hardware's 32-bit clock holds")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::{Port, PAUSE_QUANTA};

    #[test]
    fn link_rate_limits_keep_the_pause_registers_exact() {
        let slowest = Port { rate_bps: MIN_LINK_RATE_BPS, delay_ps: MAX_DELAY_PS, faces_nic: false };
        assert!(slowest.exact_quantum_q16().is_some());
        let fastest = Port { rate_bps: MAX_LINK_RATE_BPS, delay_ps: 0, faces_nic: false };
        assert!(fastest.resend_interval_ns() >= 1);
        assert!(MAX_TIME_NS.checked_add(slowest.pause_ns(PAUSE_QUANTA)).is_some());
    }

    #[test]
    fn hardware_time_is_32_bit() {
        assert_eq!(hardware_time_ns(4_294_967_295), Ok(u32::MAX));
        let e = hardware_time_ns(4_294_967_296).unwrap_err();
        assert!(e.contains("t_ns") && e.contains("4294967296"), "{e}");
    }
}
