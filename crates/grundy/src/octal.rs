//! Octal and hexadecimal take-and-break games given by their code.
//!
//! A code `D.d1d2d3…` lists, for each k, which moves may remove k tokens from one heap: bit 1 of
//! dk lets a heap of exactly k be removed entirely, bit 2 lets the rest stay as one nonempty heap,
//! bit 4 lets it be split into two nonempty heaps and (hexadecimal codes) bit 8 into three. The
//! digit D before the point gives moves that remove nothing but split a heap (4: into two
//! nonempty heaps, 8: into three); its bits 1 and 2 would be no move or a pass, so they are
//! refused. A `!` after a digit restricts its two-heap splits to unequal heaps: Grundy's game is
//! `4!.0`.

use std::fmt;
use std::str::FromStr;

use crate::GrundyError;

/// The most digits after the point a code may have; the naive engine's work grows with it.
pub const MAX_DIGITS: usize = 1024;

/// An octal or hexadecimal game, parsed from its code.
///
/// ```
/// use zermelo_grundy::OctalGame;
/// let kayles: OctalGame = "0.77".parse().unwrap();
/// assert_eq!(kayles.last_place(), 2);
/// assert_eq!(kayles.digit(1), 7);
/// assert_eq!(kayles.to_string(), "0.77");
/// let grundy: OctalGame = "4!.0".parse().unwrap();
/// assert!(grundy.is_unequal(0));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OctalGame {
    /// `digits[k]` is the code digit for removing k tokens; `digits[0]` is the one before the
    /// point. Trailing zero digits are dropped, so the last entry is the last nonzero place.
    digits: Vec<u8>,
    /// `unequal[k]`: the two-heap splits of digit k must leave unequal heaps (`!`).
    unequal: Vec<bool>,
}

/// A move of an octal game: `removed` tokens are taken and the rest is left as `heaps`.
///
/// ```
/// use zermelo_grundy::{OctalGame, OctalMove};
/// let kayles: OctalGame = "0.77".parse().unwrap();
/// let moves = kayles.moves(3);
/// assert!(moves.contains(&OctalMove { removed: 1, heaps: vec![1, 1] }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OctalMove {
    /// Tokens removed.
    pub removed: usize,
    /// The nonempty heaps left, smallest first.
    pub heaps: Vec<usize>,
}

impl OctalGame {
    /// The code digit for removing `k` tokens (0 beyond the last place).
    #[must_use]
    pub fn digit(&self, k: usize) -> u8 {
        self.digits.get(k).copied().unwrap_or(0)
    }

    /// The last place with a nonzero digit (the t of the Guy–Smith theorem); 0 when only the
    /// digit before the point is nonzero or when the game has no moves at all.
    #[must_use]
    pub fn last_place(&self) -> usize {
        self.digits.len().saturating_sub(1)
    }

    /// Whether the two-heap splits of digit `k` must leave unequal heaps.
    #[must_use]
    pub fn is_unequal(&self, k: usize) -> bool {
        self.unequal.get(k).copied().unwrap_or(false)
    }

    /// Whether any `!` restriction is present (the Guy–Smith argument does not cover these).
    #[must_use]
    pub fn has_unequal(&self) -> bool {
        self.unequal.iter().any(|&u| u)
    }

    /// Whether some move splits a heap into three (a hexadecimal digit with bit 8).
    #[must_use]
    pub fn has_three_heap_moves(&self) -> bool {
        self.digits.iter().any(|d| d & 8 != 0)
    }

    /// Whether some move splits a heap into two.
    #[must_use]
    pub fn has_two_heap_moves(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }

    /// Whether the game has any move at all.
    #[must_use]
    pub fn has_moves(&self) -> bool {
        self.digits.iter().any(|&d| d != 0)
    }

    /// The same game with the digit for removing `k` tokens (k ≥ 1) replaced by `d`, which
    /// keeps the digit's bit 4 (so a `!` stays meaningful); trailing zero digits are dropped as
    /// when parsing.
    pub(crate) fn with_digit(&self, k: usize, d: u8) -> OctalGame {
        debug_assert!(k >= 1 && d & 4 == self.digit(k) & 4);
        let mut game = self.clone();
        if k >= game.digits.len() {
            game.digits.resize(k + 1, 0);
            game.unequal.resize(k + 1, false);
        }
        game.digits[k] = d;
        while game.digits.len() > 1 && *game.digits.last().unwrap() == 0 {
            game.digits.pop();
            game.unequal.pop();
        }
        game
    }

    /// Every move from a heap of `n`, each resulting set of heaps once.
    ///
    /// ```
    /// use zermelo_grundy::OctalGame;
    /// let dawson: OctalGame = "0.07".parse().unwrap();
    /// // From 2 tokens: take both. From 4: take 2 leaving 2, or leaving 1 and 1.
    /// assert_eq!(dawson.moves(2).len(), 1);
    /// assert_eq!(dawson.moves(4).len(), 2);
    /// ```
    #[must_use]
    pub fn moves(&self, n: usize) -> Vec<OctalMove> {
        let mut out = Vec::new();
        for (k, &d) in self.digits.iter().enumerate() {
            if k > n {
                break;
            }
            let m = n - k;
            let mut push = |heaps: Vec<usize>| out.push(OctalMove { removed: k, heaps });
            if d & 1 != 0 && m == 0 {
                push(vec![]);
            }
            if d & 2 != 0 && m >= 1 {
                push(vec![m]);
            }
            if d & 4 != 0 {
                for a in 1..=m / 2 {
                    if !(self.is_unequal(k) && 2 * a == m) {
                        push(vec![a, m - a]);
                    }
                }
            }
            if d & 8 != 0 {
                for a in 1..=m / 3 {
                    for b in a..=(m - a) / 2 {
                        push(vec![a, b, m - a - b]);
                    }
                }
            }
        }
        out
    }
}

fn parse_digit(c: char, code: &str) -> Result<u8, GrundyError> {
    c.to_digit(16)
        .map(|d| d as u8)
        .ok_or_else(|| bad(code, format!("{c:?} is not an octal or hexadecimal digit")))
}

fn bad(code: &str, reason: impl Into<String>) -> GrundyError {
    GrundyError::BadCode {
        code: code.to_string(),
        reason: reason.into(),
    }
}

impl FromStr for OctalGame {
    type Err = GrundyError;

    fn from_str(code: &str) -> Result<Self, GrundyError> {
        let trimmed = code.trim();
        let (before, after) = trimmed.split_once('.').ok_or_else(|| {
            bad(
                code,
                "expected a digit, a point and the digits after it, as in 0.77",
            )
        })?;
        let mut digits = Vec::new();
        let mut unequal = Vec::new();
        let mut push_part = |part: &str, single: bool| -> Result<(), GrundyError> {
            let start = digits.len();
            for c in part.chars() {
                if c == '!' {
                    let Some(&last) = digits.last() else {
                        return Err(bad(code, "'!' must follow a digit"));
                    };
                    if digits.len() == start {
                        return Err(bad(code, "'!' must follow a digit"));
                    }
                    if last & 4 == 0 {
                        return Err(bad(
                            code,
                            "'!' (unequal heaps) only applies to a digit with two-heap splits (bit 4)",
                        ));
                    }
                    let flag: &mut bool = unequal.last_mut().expect("one flag per digit");
                    if *flag {
                        return Err(bad(code, "'!' repeated"));
                    }
                    *flag = true;
                } else {
                    digits.push(parse_digit(c, code)?);
                    unequal.push(false);
                }
            }
            if digits.len() == start {
                return Err(bad(
                    code,
                    if single {
                        "missing the digit before the point"
                    } else {
                        "missing the digits after the point"
                    },
                ));
            }
            if single && digits.len() - start > 1 {
                return Err(bad(code, "only one digit may stand before the point"));
            }
            Ok(())
        };
        push_part(before, true)?;
        push_part(after, false)?;
        if digits[0] & 3 != 0 {
            return Err(bad(
                code,
                "the digit before the point may only split heaps (bits 4 and 8); bits 1 and 2 \
                 would remove nothing and leave the heap as it was",
            ));
        }
        if digits.len() - 1 > MAX_DIGITS {
            return Err(bad(
                code,
                format!("more than {MAX_DIGITS} digits after the point"),
            ));
        }
        while digits.len() > 1 && *digits.last().unwrap() == 0 {
            digits.pop();
            unequal.pop();
        }
        Ok(OctalGame { digits, unequal })
    }
}

impl fmt::Display for OctalGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digit = |k: usize| -> String {
            let d = char::from_digit(u32::from(self.digits[k]), 16)
                .expect("digits are below 16")
                .to_ascii_uppercase();
            if self.unequal[k] {
                format!("{d}!")
            } else {
                d.to_string()
            }
        };
        write!(f, "{}.", digit(0))?;
        if self.digits.len() == 1 {
            return write!(f, "0");
        }
        for k in 1..self.digits.len() {
            write!(f, "{}", digit(k))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_in_canonical_form() {
        for (input, canonical) in [
            ("0.77", "0.77"),
            ("0.137", "0.137"),
            ("4!.0", "4!.0"),
            ("4.07", "4.07"),
            ("0.f", "0.F"),
            ("0.770", "0.77"),
            ("0.0", "0.0"),
            (" 0.6 ", "0.6"),
            ("0.4!4", "0.4!4"),
        ] {
            let game: OctalGame = input.parse().unwrap();
            assert_eq!(game.to_string(), canonical, "{input}");
            assert_eq!(canonical.parse::<OctalGame>().unwrap(), game);
        }
    }

    #[test]
    fn malformed_codes_are_refused() {
        for code in [
            "", "0", "77", ".77", "0.", "0.7x", "1.07", "2.07", "00.7", "0.3!", "!4.0", "4!!.0",
            "0.-7", "0.g",
        ] {
            assert!(
                matches!(code.parse::<OctalGame>(), Err(GrundyError::BadCode { .. })),
                "{code:?} was accepted"
            );
        }
        let long = format!("0.{}", "7".repeat(MAX_DIGITS + 1));
        assert!(long.parse::<OctalGame>().is_err());
    }

    #[test]
    fn moves_follow_the_digit_bits() {
        let game: OctalGame = "0.137".parse().unwrap();
        // Heap of 1: take it (digit 1 bit 1).
        assert_eq!(game.moves(1).len(), 1);
        // Heap of 3: take 2 leaving 1 (d2 = 3); take 3 (d3 = 7); take 1? d1 = 1 only if n = 1.
        let m3 = game.moves(3);
        assert!(m3.contains(&OctalMove {
            removed: 2,
            heaps: vec![1]
        }));
        assert!(m3.contains(&OctalMove {
            removed: 3,
            heaps: vec![]
        }));
        assert_eq!(m3.len(), 2);
        let grundy: OctalGame = "4!.0".parse().unwrap();
        // 6 splits into 1+5 and 2+4 but not 3+3.
        assert_eq!(grundy.moves(6).len(), 2);
        let hex: OctalGame = "0.8".parse().unwrap();
        // Take 1 from 7 leaving three heaps summing to 6: 1+1+4, 1+2+3, 2+2+2.
        assert_eq!(hex.moves(7).len(), 3);
    }
}
