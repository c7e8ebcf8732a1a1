//! Attribute types of the platform's `typedParameters` and their units.
//!
//! Every dimensional value is converted to an exact integer in a base unit:
//! bytes, bits per second, or picoseconds. Values are read as exact decimals
//! (`rust_decimal`), so `0.5 KB` is exactly 500 bytes and no result depends
//! on binary floating point.

use rust_decimal::Decimal;
use std::fmt;

/// The `type` field of an attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrType {
    Uint,
    Bool,
    Double,
    String,
    Bytes,
    Datarate,
    Timeval,
}

impl AttrType {
    pub fn name(self) -> &'static str {
        match self {
            AttrType::Uint => "uint",
            AttrType::Bool => "bool",
            AttrType::Double => "double",
            AttrType::String => "string",
            AttrType::Bytes => "bytes",
            AttrType::Datarate => "datarate",
            AttrType::Timeval => "timeval",
        }
    }

    pub fn from_name(name: &str) -> Option<AttrType> {
        [
            AttrType::Uint,
            AttrType::Bool,
            AttrType::Double,
            AttrType::String,
            AttrType::Bytes,
            AttrType::Datarate,
            AttrType::Timeval,
        ]
        .into_iter()
        .find(|t| t.name() == name)
    }

    /// Whether values of this type carry a `unit` field.
    pub fn is_dimensional(self) -> bool {
        matches!(self, AttrType::Bytes | AttrType::Datarate | AttrType::Timeval)
    }

    /// Units accepted for this type, with the number of base units in one.
    /// Base units: bytes, bits per second, picoseconds.
    pub fn units(self) -> &'static [(&'static str, u64)] {
        match self {
            AttrType::Bytes => &[("B", 1), ("KB", 1_000), ("MB", 1_000_000)],
            AttrType::Datarate => &[("Gbps", 1_000_000_000)],
            AttrType::Timeval => &[
                ("ps", 1),
                ("ns", 1_000),
                ("us", 1_000_000),
                ("ms", 1_000_000_000),
                ("s", 1_000_000_000_000),
            ],
            _ => &[],
        }
    }

    pub fn unit_factor(self, unit: &str) -> Option<u64> {
        self.units().iter().find(|(u, _)| *u == unit).map(|(_, f)| *f)
    }

    pub fn unit_list(self) -> String {
        self.units().iter().map(|(u, _)| *u).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for AttrType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Largest value a `bytes` attribute may hold, in bytes.
pub const MAX_BYTES: u64 = 4_294_967_295;

/// Parses the text of a JSON number as an exact decimal (plain or scientific).
pub fn decimal_from_json_number(text: &str) -> Option<Decimal> {
    if text.contains(['e', 'E']) {
        Decimal::from_scientific(text).ok()
    } else {
        text.parse::<Decimal>().ok()
    }
}

/// `value x factor` as an exact integer, or None when it is negative, not a
/// whole number of base units, or does not fit in 64 bits.
pub fn to_base_units(value: Decimal, factor: u64) -> Option<u64> {
    let scaled = value.checked_mul(Decimal::from(factor))?;
    if scaled.is_sign_negative() && !scaled.is_zero() {
        return None;
    }
    if scaled.fract() != Decimal::ZERO {
        return None;
    }
    u64::try_from(scaled.trunc()).ok()
}

/// `floor(fraction x amount)` for an exact decimal fraction and an integer
/// amount: the one rounding rule for byte figures derived from fractions.
pub fn floor_mul(fraction: Decimal, amount: u64) -> u64 {
    let product = fraction
        .checked_mul(Decimal::from(amount))
        .expect("fraction x byte count stays far inside Decimal's range");
    u64::try_from(product.floor()).unwrap_or(0)
}

/// Formats a time in picoseconds with the largest unit that divides it.
pub fn format_time_ps(ps: u64) -> String {
    let units = AttrType::Timeval.units();
    for (name, factor) in units.iter().rev() {
        if ps.is_multiple_of(*factor) && ps != 0 {
            return format!("{}{}", ps / factor, name);
        }
    }
    format!("{ps}ps")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_are_exact() {
        let d = decimal_from_json_number("0.1").unwrap();
        assert_eq!(floor_mul(d, 223_232_000), 22_323_200);
        assert_eq!(decimal_from_json_number("1e-1").unwrap(), d);
        assert_eq!(to_base_units(decimal_from_json_number("0.5").unwrap(), 1000), Some(500));
        assert_eq!(to_base_units(decimal_from_json_number("0.0005").unwrap(), 1000), None);
        assert_eq!(to_base_units(decimal_from_json_number("-1").unwrap(), 1), None);
    }

    #[test]
    fn time_formatting_picks_largest_unit() {
        assert_eq!(format_time_ps(1_000_000_000), "1ms");
        assert_eq!(format_time_ps(500_000), "500ns");
        assert_eq!(format_time_ps(0), "0ps");
    }
}
