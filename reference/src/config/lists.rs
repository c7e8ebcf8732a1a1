//! The eight-entry list attributes (`"[0.9, 0.1, 0, 0, 0, 0, 0, 0]"`).

use super::units::decimal_from_json_number;
use rust_decimal::Decimal;

/// Entries of a list attribute: one per traffic class or pool.
pub const LIST_LEN: usize = 8;

/// Splits `[a, b, ...]` into trimmed entries; None without the brackets.
pub fn split_entries(text: &str) -> Option<Vec<&str>> {
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?;
    if inner.trim().is_empty() {
        return Some(Vec::new());
    }
    Some(inner.split(',').map(str::trim).collect())
}

/// The platform's patch-time form check: brackets, exactly eight entries,
/// each made of letters, digits, `.`, `_`, `+` or `-`.
pub fn check_patch_form(text: &str) -> Result<(), String> {
    let entries = split_entries(text)
        .ok_or_else(|| "a list must be a string in square brackets".to_string())?;
    if entries.len() != LIST_LEN {
        return Err(format!("a list must have exactly {LIST_LEN} entries, found {}", entries.len()));
    }
    for entry in entries {
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-');
        if entry.is_empty() || !entry.chars().all(allowed) {
            return Err(format!(
                "list entry {entry:?} may hold only letters, digits, '.', '_', '+' or '-'"
            ));
        }
    }
    Ok(())
}

/// Parses eight numbers (exact decimals).
pub fn parse_numbers(text: &str) -> Result<[Decimal; LIST_LEN], String> {
    let entries = eight_entries(text)?;
    let mut out = [Decimal::ZERO; LIST_LEN];
    for (slot, entry) in out.iter_mut().zip(entries) {
        *slot = decimal_from_json_number(entry.trim_start_matches('+'))
            .filter(|_| !entry.is_empty())
            .ok_or_else(|| format!("entry {entry:?} is not a number"))?;
    }
    Ok(out)
}

/// Parses eight whole numbers (`1`, `1.0` and `+1` are whole; `1.5` is not).
pub fn parse_whole_numbers(text: &str) -> Result<[i64; LIST_LEN], String> {
    let numbers = parse_numbers(text)
        .map_err(|e| e.replace("is not a number", "is not a whole number"))?;
    let mut out = [0i64; LIST_LEN];
    for (slot, n) in out.iter_mut().zip(numbers) {
        if n.fract() != Decimal::ZERO {
            return Err(format!("entry {n} is not a whole number"));
        }
        *slot = i64::try_from(n).map_err(|_| format!("entry {n} is out of range"))?;
    }
    Ok(out)
}

fn eight_entries(text: &str) -> Result<Vec<&str>, String> {
    let entries = split_entries(text)
        .ok_or_else(|| format!("{text:?} is not a list in square brackets"))?;
    if entries.len() != LIST_LEN {
        return Err(format!("has {} entries, not exactly {LIST_LEN}", entries.len()));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_default_lists() {
        let pools = parse_numbers("[0.9, 0.1, 0, 0, 0, 0, 0, 0]").unwrap();
        assert_eq!(pools[0].to_string(), "0.9");
        assert_eq!(parse_whole_numbers("[1, 1, 0, 0, 0, 0, 0, 0]").unwrap()[1], 1);
        assert_eq!(parse_whole_numbers("[1.0, +1, 0, 0, 0, 0, 0, 0]").unwrap()[1], 1);
    }

    #[test]
    fn rejects_bad_lists() {
        assert!(parse_numbers("[0.9, 0.1]").is_err());
        assert!(parse_numbers("0.9, 0.1, 0, 0, 0, 0, 0, 0").is_err());
        assert!(parse_numbers("[x, 0.1, 0, 0, 0, 0, 0, 0]").is_err());
        assert!(parse_whole_numbers("[1.5, 1, 0, 0, 0, 0, 0, 0]").is_err());
        assert!(check_patch_form("[0.9, 0.1, 0, 0, 0, 0, 0, 0]").is_ok());
        assert!(check_patch_form("[0.9; 0.1, 0, 0, 0, 0, 0, 0]").is_err());
        assert!(check_patch_form("[0.9, 0.1, 0, 0, 0, 0, 0, 0, 0]").is_err());
        assert!(check_patch_form("[0.9, , 0, 0, 0, 0, 0, 0]").is_err());
    }
}
