//! Counts as users write them: a whole number (`4194304`) or a power (`2^22`), for heap bounds
//! and table sizes in options and job files.

use crate::GrundyError;

/// Parses a whole number or a power `B^E`; `what` names the option or field in the error.
///
/// ```
/// use zermelo_grundy::parse_count;
/// assert_eq!(parse_count("2^22", "--max").unwrap(), 4_194_304);
/// assert_eq!(parse_count("1000", "--max").unwrap(), 1000);
/// assert!(parse_count("2^99", "--max").is_err());
/// ```
pub fn parse_count(text: &str, what: &str) -> Result<u64, GrundyError> {
    let bad = || {
        GrundyError::Unsupported(format!(
            "{what}: {text:?} is not a size (a whole number such as 4194304, or a power such as \
             2^22)"
        ))
    };
    let text = text.trim();
    if let Some((base, exp)) = text.split_once('^') {
        let base: u64 = base.trim().parse().map_err(|_| bad())?;
        let exp: u32 = exp.trim().parse().map_err(|_| bad())?;
        base.checked_pow(exp).ok_or_else(|| {
            GrundyError::Unsupported(format!("{what}: {text} is too large for 64 bits"))
        })
    } else {
        text.parse().map_err(|_| bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_as_numbers_or_powers() {
        assert_eq!(parse_count("4194304", "--max").unwrap(), 1 << 22);
        assert_eq!(parse_count(" 2 ^ 22 ", "--max").unwrap(), 1 << 22);
        assert_eq!(parse_count("2^0", "--max").unwrap(), 1);
        for bad in ["-5", "2^99", "ten", "", "^", "2^", "^3", "2^-1", "1.5"] {
            let err = parse_count(bad, "--max").unwrap_err().to_string();
            assert!(err.starts_with("--max: "), "{bad}: {err}");
        }
    }
}
