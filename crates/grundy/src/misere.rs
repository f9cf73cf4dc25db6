//! Misère play of octal games: who wins a position of several heaps when whoever makes the last
//! move loses. Misère values do not add like nim-values, so the position (a multiset of heaps)
//! is searched as a whole, with memoisation; this is for small heaps.

use std::collections::HashMap;

use crate::{GrundyError, OctalGame, OctalMove};

/// The default bound on memoised positions.
pub const DEFAULT_LIMIT: usize = 2_000_000;

/// Bytes a memoised position takes, about: the hash map's slot and the heap list it owns
/// (a few heaps), for sizing a limit against the memory available.
pub const BYTES_PER_POSITION: usize = 96;

/// A memoised misère search over positions of one octal game.
///
/// ```
/// use zermelo_grundy::{misere::MisereSearch, OctalGame};
/// let kayles: OctalGame = "0.77".parse().unwrap();
/// let mut search = MisereSearch::new(&kayles, 100_000);
/// // A single pin: the player to move must take it, and loses.
/// assert!(search.is_p(&[1]).unwrap());
/// // Two pins side by side: take one, leave one for the opponent.
/// assert!(!search.is_p(&[2]).unwrap());
/// ```
#[derive(Debug, Clone)]
pub struct MisereSearch {
    game: OctalGame,
    /// Moves from each heap size, computed once.
    moves: Vec<Vec<OctalMove>>,
    memo: HashMap<Vec<u32>, bool>,
    limit: usize,
}

impl MisereSearch {
    /// A search for `game` that refuses to memoise more than `limit` positions.
    #[must_use]
    pub fn new(game: &OctalGame, limit: usize) -> Self {
        MisereSearch {
            game: game.clone(),
            moves: Vec::new(),
            memo: HashMap::new(),
            limit,
        }
    }

    fn moves_of(&mut self, h: usize) -> &[OctalMove] {
        while self.moves.len() <= h {
            let n = self.moves.len();
            self.moves.push(self.game.moves(n));
        }
        &self.moves[h]
    }

    /// The canonical form of a position: heaps without moves left out (they change nothing),
    /// the rest sorted.
    fn canonical(&mut self, heaps: &[usize]) -> Vec<u32> {
        let mut key: Vec<u32> = Vec::with_capacity(heaps.len());
        for &h in heaps {
            if !self.moves_of(h).is_empty() {
                key.push(h as u32);
            }
        }
        key.sort_unstable();
        key
    }

    /// Whether the position (heap sizes) is a misère P-position: the player to move loses.
    pub fn is_p(&mut self, heaps: &[usize]) -> Result<bool, GrundyError> {
        let key = self.canonical(heaps);
        self.p_of(&key)
    }

    fn p_of(&mut self, key: &[u32]) -> Result<bool, GrundyError> {
        if let Some(&p) = self.memo.get(key) {
            return Ok(p);
        }
        if self.memo.len() >= self.limit {
            return Err(GrundyError::PositionLimit {
                what: format!("the misère search of {}", self.game),
                limit: self.limit,
            });
        }
        // No move at all: whoever is to move has already won (the opponent moved last).
        let mut p = !key.is_empty();
        for i in 0..key.len() {
            if i > 0 && key[i] == key[i - 1] {
                continue;
            }
            let moves = self.moves_of(key[i] as usize).to_vec();
            for mv in moves {
                let mut next: Vec<usize> = key
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &h)| h as usize)
                    .collect();
                next.extend(&mv.heaps);
                let next = self.canonical(&next);
                if self.p_of(&next)? {
                    p = false;
                    break;
                }
            }
            if !p {
                break;
            }
        }
        self.memo.insert(key.to_vec(), p);
        Ok(p)
    }

    /// Every winning move: (index of the heap in `heaps`, the move), each leading to a misère
    /// P-position. Empty for a P-position.
    ///
    /// ```
    /// use zermelo_grundy::{misere::MisereSearch, OctalGame};
    /// let nim: OctalGame = "0.3333".parse().unwrap();
    /// let mut search = MisereSearch::new(&nim, 100_000);
    /// // Misère Nim 1 1 2: take one from the 2, leaving three single heaps.
    /// let wins = search.winning_moves(&[1, 1, 2]).unwrap();
    /// assert_eq!(wins.len(), 1);
    /// assert_eq!(wins[0].1.heaps, vec![1]);
    /// ```
    pub fn winning_moves(
        &mut self,
        heaps: &[usize],
    ) -> Result<Vec<(usize, OctalMove)>, GrundyError> {
        let mut out = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            if heaps[..i].contains(&h) {
                continue;
            }
            for mv in self.moves_of(h).to_vec() {
                let mut next: Vec<usize> = heaps
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &x)| x)
                    .collect();
                next.extend(&mv.heaps);
                if self.is_p(&next)? {
                    out.push((i, mv));
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multiheap::moore_misere_p;
    use crate::subtraction::SubtractionGame;

    #[test]
    fn octal_nim_follows_the_misere_nim_rule() {
        let nim: OctalGame = "0.3333333".parse().unwrap();
        let mut search = MisereSearch::new(&nim, DEFAULT_LIMIT);
        for a in 0..=7 {
            for b in 0..=7 {
                for c in 0..=7 {
                    let heaps = [a, b, c];
                    assert_eq!(
                        search.is_p(&heaps).unwrap(),
                        moore_misere_p(&heaps, 1),
                        "{heaps:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn single_heaps_agree_with_the_misere_subtraction_table() {
        for (code, set) in [("0.333", "1,2,3"), ("0.3033", "1,3,4"), ("0.033", "2,3")] {
            let game: OctalGame = code.parse().unwrap();
            let table = SubtractionGame::parse(set, false)
                .unwrap()
                .misere_values(60)
                .unwrap();
            let mut search = MisereSearch::new(&game, DEFAULT_LIMIT);
            for (n, &v) in table.iter().enumerate() {
                assert_eq!(search.is_p(&[n]).unwrap(), v == 0, "{code} heap {n}");
            }
        }
    }

    #[test]
    fn winning_moves_lead_to_p_positions_and_the_limit_is_kept() {
        let kayles: OctalGame = "0.77".parse().unwrap();
        let mut search = MisereSearch::new(&kayles, DEFAULT_LIMIT);
        for n in 1..20 {
            let wins = search.winning_moves(&[n, 3]).unwrap();
            assert_eq!(wins.is_empty(), search.is_p(&[n, 3]).unwrap());
        }
        let mut small = MisereSearch::new(&kayles, 10);
        assert!(matches!(
            small.is_p(&[30, 30]),
            Err(GrundyError::PositionLimit { limit: 10, .. })
        ));
    }
}
