//! Subtraction games S(s1, s2, …): a move takes s tokens from the heap for some s in the set;
//! all-but subtraction games: any positive number of tokens except those in the set.

use std::fmt;

use crate::period::ProofRule;
use crate::GrundyError;

/// The largest number allowed in a subtraction set: larger ones only make tables longer to no
/// purpose and would make the window of the periodicity proof absurd.
pub const MAX_SUBTRACTION: usize = 1 << 24;

/// A subtraction game or all-but subtraction game.
///
/// ```
/// use zermelo_grundy::subtraction::SubtractionGame;
/// let game = SubtractionGame::parse("1,3,4", false).unwrap();
/// assert_eq!(game.values(8).unwrap(), vec![0, 1, 0, 1, 2, 3, 2, 0, 1]);
/// assert_eq!(game.to_string(), "S(1,3,4)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SubtractionGame {
    set: Vec<usize>,
    all_but: bool,
}

impl SubtractionGame {
    /// A game from its set (any order, repeats ignored); `all_but` makes the set the excluded
    /// numbers. Empty sets and zero are refused.
    pub fn new(mut set: Vec<usize>, all_but: bool) -> Result<Self, GrundyError> {
        if set.is_empty() {
            return Err(GrundyError::BadSubtraction(
                "the set is empty; give at least one positive number, as in 1,3,4".into(),
            ));
        }
        if set.contains(&0) {
            return Err(GrundyError::BadSubtraction(
                "0 is not a move: every number must be positive".into(),
            ));
        }
        if let Some(&big) = set.iter().find(|&&s| s > MAX_SUBTRACTION) {
            return Err(GrundyError::BadSubtraction(format!(
                "{big} is larger than {MAX_SUBTRACTION}"
            )));
        }
        set.sort_unstable();
        set.dedup();
        Ok(SubtractionGame { set, all_but })
    }

    /// Parses a comma-separated set such as `1,3,4`.
    ///
    /// ```
    /// use zermelo_grundy::subtraction::SubtractionGame;
    /// assert!(SubtractionGame::parse("2, 3", false).is_ok());
    /// assert!(SubtractionGame::parse("", false).is_err());
    /// assert!(SubtractionGame::parse("0,1", false).is_err());
    /// assert!(SubtractionGame::parse("1,-2", false).is_err());
    /// ```
    pub fn parse(text: &str, all_but: bool) -> Result<Self, GrundyError> {
        let mut set = Vec::new();
        for part in text.split(',') {
            let part = part.trim();
            if part.is_empty() && text.trim().is_empty() {
                break;
            }
            let s: usize = part.parse().map_err(|_| {
                GrundyError::BadSubtraction(format!(
                    "{part:?} is not a positive whole number (expected a list such as 1,3,4)"
                ))
            })?;
            set.push(s);
        }
        Self::new(set, all_but)
    }

    /// The numbers of the set, increasing.
    #[must_use]
    pub fn set(&self) -> &[usize] {
        &self.set
    }

    /// Whether the set lists the excluded numbers.
    #[must_use]
    pub fn is_all_but(&self) -> bool {
        self.all_but
    }

    /// The heaps a heap of `n` can move to, largest first.
    ///
    /// ```
    /// use zermelo_grundy::subtraction::SubtractionGame;
    /// let game = SubtractionGame::parse("2", true).unwrap();
    /// assert_eq!(game.moves(4), vec![3, 1, 0]);
    /// ```
    #[must_use]
    pub fn moves(&self, n: usize) -> Vec<usize> {
        if self.all_but {
            (1..=n)
                .filter(|s| self.set.binary_search(s).is_err())
                .map(|s| n - s)
                .collect()
        } else {
            self.set
                .iter()
                .filter(|&&s| s <= n)
                .map(|&s| n - s)
                .collect()
        }
    }

    /// The rule that proves a period: a subtraction game's value depends only on the last
    /// max(S) values; all-but games have no such window.
    #[must_use]
    pub fn proof_rule(&self) -> ProofRule {
        let window = *self.set.last().expect("the set is not empty");
        if self.all_but {
            ProofRule::Unproven { t: window }
        } else {
            ProofRule::Window { window }
        }
    }

    /// The Grundy values G(0..=max) in normal play.
    pub fn values(&self, max: usize) -> Result<Vec<u16>, GrundyError> {
        self.table(max, false)
    }

    /// The misère values G⁻(0..=max): the mex of the options' values, with 1 for a heap that
    /// has no move (whoever cannot move wins). A heap is a misère P-position exactly when its
    /// misère value is 0.
    ///
    /// ```
    /// use zermelo_grundy::subtraction::SubtractionGame;
    /// let game = SubtractionGame::parse("1,2,3,4", false).unwrap();
    /// let m = game.misere_values(11).unwrap();
    /// // Misère take-1-to-4: P exactly when n = 1 (mod 5).
    /// let p: Vec<usize> = (0..=11).filter(|&n| m[n] == 0).collect();
    /// assert_eq!(p, vec![1, 6, 11]);
    /// ```
    pub fn misere_values(&self, max: usize) -> Result<Vec<u16>, GrundyError> {
        self.table(max, true)
    }

    fn table(&self, max: usize, misere: bool) -> Result<Vec<u16>, GrundyError> {
        let mut g: Vec<u16> = Vec::new();
        g.try_reserve_exact(max.saturating_add(1))
            .map_err(|_| GrundyError::TooLarge {
                what: format!("{} values", max as u128 + 1),
                needed: (max as u128 + 1) * 2,
                limit: isize::MAX as u128,
            })?;
        // All-but games: counts of each value so far, so that the mex over all earlier heaps
        // minus the few excluded ones costs O(|S|) instead of O(n).
        let mut count: Vec<u64> = Vec::new();
        let mut global_mex = 0usize;
        for n in 0..=max {
            let v = if self.all_but {
                self.all_but_value(&g, &count, global_mex, n, misere)
            } else {
                let mut seen = [false; 65];
                let mut wide: Vec<u16> = Vec::new();
                let mut any = false;
                for &s in &self.set {
                    if s > n {
                        break;
                    }
                    any = true;
                    let v = g[n - s];
                    if usize::from(v) < seen.len() {
                        seen[usize::from(v)] = true;
                    } else {
                        wide.push(v);
                    }
                }
                if misere && !any {
                    1
                } else {
                    let mut v = seen.iter().position(|&b| !b).unwrap_or(seen.len());
                    if v == seen.len() {
                        while wide.contains(&(v as u16)) {
                            v += 1;
                        }
                    }
                    v
                }
            };
            let v = u16::try_from(v).map_err(|_| GrundyError::ValueOverflow {
                at: format!("heap {n}"),
            })?;
            if self.all_but {
                if count.len() <= usize::from(v) {
                    count.resize(usize::from(v) + 1, 0);
                }
                count[usize::from(v)] += 1;
                while count.get(global_mex).is_some_and(|&c| c > 0) {
                    global_mex += 1;
                }
            }
            g.push(v);
        }
        Ok(g)
    }

    /// G(n) for an all-but game: the options are every earlier heap except n - s for s in S.
    fn all_but_value(
        &self,
        g: &[u16],
        count: &[u64],
        global_mex: usize,
        n: usize,
        misere: bool,
    ) -> usize {
        let excluded: Vec<u16> = self
            .set
            .iter()
            .filter(|&&s| s <= n)
            .map(|&s| g[n - s])
            .collect();
        if misere && excluded.len() == n {
            return 1;
        }
        let mut v = global_mex;
        for &x in &excluded {
            let x_count = excluded.iter().filter(|&&y| y == x).count() as u64;
            if usize::from(x) < v && count[usize::from(x)] == x_count {
                v = usize::from(x);
            }
        }
        v
    }
}

impl fmt::Display for SubtractionGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list: Vec<String> = self.set.iter().map(|s| s.to_string()).collect();
        let name = if self.all_but { "all-but" } else { "S" };
        write!(f, "{name}({})", list.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{naive, period, OctalGame};

    /// Values by the plain mex over the moves list.
    fn by_moves(game: &SubtractionGame, max: usize, misere: bool) -> Vec<u16> {
        let mut g: Vec<u16> = Vec::new();
        for n in 0..=max {
            let opts: Vec<u16> = game.moves(n).iter().map(|&m| g[m]).collect();
            let v = if misere && opts.is_empty() {
                1
            } else {
                (0..).find(|v| !opts.contains(v)).unwrap()
            };
            g.push(v);
        }
        g
    }

    #[test]
    fn agrees_with_the_moves_list_and_the_octal_code() {
        for (set, code) in [
            ("1,2,3", "0.333"),
            ("2,3", "0.033"),
            ("1,3,4", "0.3033"),
            ("3,5,9", "0.003030003"),
        ] {
            let game = SubtractionGame::parse(set, false).unwrap();
            let octal: OctalGame = code.parse().unwrap();
            let g = game.values(400).unwrap();
            assert_eq!(g, by_moves(&game, 400, false), "{set}");
            assert_eq!(g, naive::values(&octal, 400).unwrap(), "{set}");
            assert_eq!(game.misere_values(400).unwrap(), by_moves(&game, 400, true));
        }
    }

    #[test]
    fn all_but_games_agree_with_the_moves_list() {
        for set in ["1", "2", "1,2", "2,5,6", "3,4,9"] {
            let game = SubtractionGame::parse(set, true).unwrap();
            assert_eq!(
                game.values(300).unwrap(),
                by_moves(&game, 300, false),
                "{set}"
            );
            assert_eq!(
                game.misere_values(300).unwrap(),
                by_moves(&game, 300, true),
                "{set}"
            );
        }
    }

    #[test]
    fn s23_has_period_5_from_the_start() {
        let game = SubtractionGame::parse("2,3", false).unwrap();
        let g = game.values(50).unwrap();
        let found = period::find(&g, game.proof_rule()).unwrap();
        assert_eq!((found.preperiod, found.period, found.proven), (0, 5, true));
    }

    #[test]
    fn take_1_to_k_is_n_mod_k_plus_1() {
        for k in 1..8 {
            let set: Vec<usize> = (1..=k).collect();
            let game = SubtractionGame::new(set, false).unwrap();
            let g = game.values(200).unwrap();
            assert!(g
                .iter()
                .enumerate()
                .all(|(n, &v)| usize::from(v) == n % (k + 1)));
        }
    }

    #[test]
    fn bad_sets_are_refused() {
        for text in ["", " ", "0", "1,0", "a", "1,,2", "-1", "1.5"] {
            assert!(
                SubtractionGame::parse(text, false).is_err(),
                "{text:?} accepted"
            );
        }
        assert!(SubtractionGame::new(vec![MAX_SUBTRACTION + 1], false).is_err());
    }
}
