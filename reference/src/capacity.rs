//! Oversubscription: the page compares `SwitchingCapacity` with the sum of
//! the switch's port speeds "to show whether the switch is oversubscribed";
//! it never limits what the switch forwards. Port speeds are the switch's
//! own interface `DataRate`s (a link may run slower when its peer is).

use crate::config::SwitchConfig;
use serde_json::{json, Value};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Oversubscription {
    pub downlinks: u64,
    pub downlink_rate_bps: u64,
    pub uplinks: u64,
    pub uplink_rate_bps: u64,
    pub capacity_bps: u64,
}

impl Oversubscription {
    pub fn new(config: &SwitchConfig, downlinks: u32, uplinks: u32) -> Oversubscription {
        Oversubscription {
            downlinks: downlinks as u64,
            downlink_rate_bps: config.downlink_rate_bps,
            uplinks: uplinks as u64,
            uplink_rate_bps: config.uplink_rate_bps,
            capacity_bps: config.switching_capacity_bps,
        }
    }

    /// The sum of the port speeds (u128: 4096 ports of 100 Tb/s overflow nothing).
    pub fn port_speeds_bps(&self) -> u128 {
        self.downlinks as u128 * self.downlink_rate_bps as u128 + self.uplinks as u128 * self.uplink_rate_bps as u128
    }

    pub fn is_oversubscribed(&self) -> bool {
        self.port_speeds_bps() > self.capacity_bps as u128
    }

    /// Port speeds over capacity (infinite for a capacity of 0).
    pub fn ratio(&self) -> f64 {
        self.port_speeds_bps() as f64 / self.capacity_bps as f64
    }

    pub fn to_json(&self) -> Value {
        json!({
            "downlinks": self.downlinks, "downlink_rate_bps": self.downlink_rate_bps,
            "uplinks": self.uplinks, "uplink_rate_bps": self.uplink_rate_bps,
            "port_speeds_bps": self.port_speeds_bps() as f64, "switching_capacity_bps": self.capacity_bps,
            "oversubscribed": self.is_oversubscribed(),
        })
    }
}

fn gbps(bps: u128) -> String {
    let whole = bps / 1_000_000_000;
    let rest = bps % 1_000_000_000;
    if rest == 0 {
        format!("{whole} Gbps")
    } else {
        format!("{}.{} Gbps", whole, format!("{rest:09}").trim_end_matches('0'))
    }
}

impl fmt::Display for Oversubscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.is_oversubscribed() {
            format!("oversubscribed {:.2}:1", self.ratio())
        } else {
            "not oversubscribed".into()
        };
        write!(
            f,
            "{} downlinks x {} + {} uplinks x {} = {} of ports against SwitchingCapacity {}: {verdict}",
            self.downlinks,
            gbps(self.downlink_rate_bps as u128),
            self.uplinks,
            gbps(self.uplink_rate_bps as u128),
            gbps(self.port_speeds_bps()),
            gbps(self.capacity_bps as u128),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn over(downlinks: u64, uplinks: u64, capacity_gbps: u64) -> Oversubscription {
        Oversubscription {
            downlinks,
            downlink_rate_bps: 400_000_000_000,
            uplinks,
            uplink_rate_bps: 800_000_000_000,
            capacity_bps: capacity_gbps * 1_000_000_000,
        }
    }

    #[test]
    fn compares_the_sum_of_port_speeds_with_the_capacity() {
        let balanced = over(64, 32, 51_200);
        assert!(!balanced.is_oversubscribed());
        assert_eq!(balanced.to_string(),
            "64 downlinks x 400 Gbps + 32 uplinks x 800 Gbps = 51200 Gbps of ports against SwitchingCapacity 51200 Gbps: not oversubscribed");
        let over = over(64, 33, 51_200);
        assert!(over.is_oversubscribed());
        assert!(over.to_string().ends_with("oversubscribed 1.02:1"), "{over}");
        assert_eq!(gbps(12_500_000), "0.0125 Gbps");
    }
}
