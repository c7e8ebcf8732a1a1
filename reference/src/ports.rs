//! The switch's ports: link rate, propagation delay, whether a NIC sits at
//! the far end, and the PFC pause arithmetic that depends on them.
//!
//! [model] Pause time = quanta x 512 bit times at the port rate + link
//! delay, in whole nanoseconds, computed as
//! `((quanta x quantum_q16) >> 16) + delay_ns` where
//! `quantum_q16 = floor(512 x 10^9 x 2^16 / rate_bps)` is one quantum in
//! ns with 16 fraction bits and `delay_ns = floor(delay_ps / 1000)`. At
//! 400 Gbps and 500 ns a full pause (65535 quanta) lasts 84,384 ns (the
//! vendor's 84.4 us), re-sent every half of it, 42,192 ns.

use crate::config::SwitchConfig;

/// The quanta a pause frame requests.
pub const PAUSE_QUANTA: u16 = 65535;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Port {
    pub rate_bps: u64,
    pub delay_ps: u64,
    /// Downlinks face NICs: a packet trimmed towards one is trimmed-last-hop.
    pub faces_nic: bool,
}

impl Port {
    /// One pause quantum (512 bit times) in ns, with 16 fraction bits, if
    /// it fits the 32-bit register (rates from 7.8125 Mb/s up).
    pub fn exact_quantum_q16(&self) -> Option<u32> {
        let quantum = (512u128 * 1_000_000_000 * 65536).checked_div(self.rate_bps as u128)?;
        u32::try_from(quantum).ok()
    }

    /// The link delay in whole ns, if it fits the 32-bit register.
    pub fn exact_delay_ns(&self) -> Option<u32> {
        u32::try_from(self.delay_ps / 1000).ok()
    }

    /// [`exact_quantum_q16`](Self::exact_quantum_q16) of a port whose rate
    /// was checked against [`crate::limits::MIN_LINK_RATE_BPS`].
    pub fn quantum_q16(&self) -> u32 {
        self.exact_quantum_q16().expect("link rates are checked against limits::MIN_LINK_RATE_BPS")
    }

    /// [`exact_delay_ns`](Self::exact_delay_ns) of a port whose delay was
    /// checked against [`crate::limits::MAX_DELAY_PS`].
    pub fn delay_ns(&self) -> u32 {
        self.exact_delay_ns().expect("link delays are checked against limits::MAX_DELAY_PS")
    }

    /// How long `quanta` pause this port's peer (or this port), in ns.
    pub fn pause_ns(&self, quanta: u16) -> u64 {
        pause_ns(quanta, self.quantum_q16(), self.delay_ns())
    }

    /// Interval between re-sent pauses while this port is paused.
    pub fn resend_interval_ns(&self) -> u64 {
        self.pause_ns(PAUSE_QUANTA) / 2
    }

    /// Serialization time of `wire_bytes` at the port rate, in ps.
    pub fn serialization_ps(&self, wire_bytes: u64) -> u64 {
        ((wire_bytes as u128 * 8 * 1_000_000_000_000) / self.rate_bps.max(1) as u128) as u64
    }
}

/// The pause arithmetic on register values.
pub fn pause_ns(quanta: u16, quantum_q16: u32, delay_ns: u32) -> u64 {
    ((quanta as u64 * quantum_q16 as u64) >> 16) + delay_ns as u64
}

/// The ports of one switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortMap {
    pub ports: Vec<Port>,
}

impl PortMap {
    /// [model] For replay: `count` ports; the last `uplinks` are uplinks
    /// (the uplink DataRate, this switch's Delay, a switch at the far end),
    /// the others downlinks (the downlink DataRate, a NIC at the far end,
    /// assumed to use the same Delay since the peer's is not known).
    pub fn from_config(config: &SwitchConfig, count: usize, uplinks: usize) -> PortMap {
        let uplinks = uplinks.min(count);
        let ports = (0..count)
            .map(|i| {
                let uplink = i >= count - uplinks;
                Port {
                    rate_bps: if uplink { config.uplink_rate_bps } else { config.downlink_rate_bps },
                    delay_ps: config.uplink_delay_ps,
                    faces_nic: !uplink,
                }
            })
            .collect();
        PortMap { ports }
    }

    pub fn len(&self) -> usize {
        self.ports.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ports.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendor_pause_time_at_400g() {
        let p = Port { rate_bps: 400_000_000_000, delay_ps: 500_000, faces_nic: true };
        assert_eq!(p.quantum_q16(), 83_886);
        assert_eq!(p.pause_ns(PAUSE_QUANTA), 84_384);
        assert_eq!(p.resend_interval_ns(), 42_192);
        assert_eq!(p.pause_ns(0), 500);
        assert_eq!(p.serialization_ps(4_018), 80_360);
    }
}
