//! The environment variables that scale or configure the tests and
//! benchmarks (`SSWITCH_PROPTEST_CASES`, `SSWITCH_VERILATOR_CYCLES`, ...).
//!
//! A variable that is not set gives the default. A value that does not
//! follow the variable's rule stops the run with one line naming the
//! variable, the value and the rule: a typo such as `SSWITCH_PROPTEST_CASES=1e6`
//! must not quietly run the default, and `0` must not run a property that
//! checks nothing.

use std::str::FromStr;

/// `text` (the variable's value, `None` when unset) read as a `T` that
/// passes `valid`; `default` when unset. The error is the one line to show.
pub fn parse_setting<T: FromStr>(
    name: &str,
    text: Option<&str>,
    default: T,
    rule: &str,
    valid: impl Fn(&T) -> bool,
) -> Result<T, String> {
    let Some(text) = text else { return Ok(default) };
    match text.parse::<T>() {
        Ok(value) if valid(&value) => Ok(value),
        _ => Err(format!("{name} = {text:?}: must be {rule}")),
    }
}

/// The environment variable `name` through [`parse_setting`]. A value
/// that is not Unicode is refused too.
pub fn setting<T: FromStr>(name: &str, default: T, rule: &str, valid: impl Fn(&T) -> bool) -> Result<T, String> {
    match std::env::var(name) {
        Err(std::env::VarError::NotPresent) => Ok(default),
        Err(std::env::VarError::NotUnicode(raw)) => Err(format!("{name} = {raw:?}: must be {rule}")),
        Ok(text) => parse_setting(name, Some(&text), default, rule, valid),
    }
}

/// The rule of a count setting whose largest value is `max`.
pub fn count_rule(max: impl std::fmt::Display) -> String {
    format!("a whole number from 1 to {max}")
}

fn count_up_to<T: FromStr + PartialOrd + From<u8>>(name: &str, default: T, max: impl std::fmt::Display) -> T {
    setting(name, default, &count_rule(max), |count| *count >= T::from(1)).unwrap_or_else(|line| panic!("{line}"))
}

/// A count of cycles or events from `name`, or `default` when unset; a
/// bad value fails the test that asked, with the one line.
pub fn count_setting(name: &str, default: usize) -> usize {
    count_up_to(name, default, usize::MAX)
}

/// A count of proptest cases from `name` (proptest counts in `u32`), or
/// `default` when unset; a bad value fails the test that asked.
pub fn case_count_setting(name: &str, default: u32) -> u32 {
    count_up_to(name, default, u32::MAX)
}

/// The rule of every switch setting.
pub const SWITCH_RULE: &str = "0 (off) or 1 (on)";

/// An on/off switch from `name`: off when unset or `0`, on for `1`; any
/// other value fails the test that asked, with the one line.
pub fn switch_setting(name: &str) -> bool {
    setting::<u8>(name, 0, SWITCH_RULE, |&value| value <= 1).map(|value| value == 1).unwrap_or_else(|line| panic!("{line}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: Option<&str>) -> Result<u32, String> {
        parse_setting("SSWITCH_TEST_CASES", text, 7u32, &count_rule(u32::MAX), |&n| n > 0)
    }

    #[test]
    fn an_unset_count_is_the_default_and_a_good_one_is_used_as_given() {
        assert_eq!(count(None), Ok(7));
        assert_eq!(count(Some("1")), Ok(1));
        assert_eq!(count(Some("4294967295")), Ok(u32::MAX));
    }

    #[test]
    fn a_bad_count_is_refused_with_one_line_naming_variable_value_and_rule() {
        for text in ["", "0", "-3", "1e6", "12 ", "many", "4294967296"] {
            let line = count(Some(text)).expect_err(text);
            assert_eq!(line, format!("SSWITCH_TEST_CASES = {text:?}: must be a whole number from 1 to 4294967295"));
            assert!(!line.contains('\n'));
        }
    }

    #[test]
    fn a_switch_is_zero_or_one() {
        let switch = |text| parse_setting::<u8>("SSWITCH_TEST_FLAG", text, 0, SWITCH_RULE, |&v| v <= 1);
        assert_eq!(switch(None), Ok(0));
        assert_eq!(switch(Some("1")), Ok(1));
        assert_eq!(switch(Some("0")), Ok(0));
        for text in ["yes", "2", "true", ""] {
            assert_eq!(switch(Some(text)), Err(format!("SSWITCH_TEST_FLAG = {text:?}: must be 0 (off) or 1 (on)")));
        }
    }
}
