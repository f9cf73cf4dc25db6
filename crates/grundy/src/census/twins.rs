//! Codes whose tables are identical by a theorem on their digits, so that the census computes
//! one game of each such family and gives the others its values.

use crate::{naive, GrundyError, OctalGame};

/// Codes with more bits that could be cleared than this are left as they are: every subset of
/// those bits is tried (at most 2^8 for the four-digit census).
const MAX_CLEARED: usize = 12;

/// The first code in census order (the digits read as one number) that the theorem below shows
/// to have the same table as `game`, G_A(n) = G_B(n) for every n; `game` itself when there is
/// none before it.
///
/// **Theorem.** Let B be a code and A the code left when some bits 1 and 2 of digits d_k, k ≥ 1,
/// are cleared (the digit before the point, bits 4 and 8 and the `!` marks stay). Let K be the
/// last place of B. If
/// 1. G_A(n) = G_B(n) for every n ≤ K, and
/// 2. for every bit 2 cleared from a digit d_k there is a place j < k where A has bit 4 without
///    `!` and G_A(k − j) = 0,
///
/// then G_A(n) = G_B(n) for every n.
///
/// *Proof*, by induction on n > K (condition 1 covers n ≤ K). B has every move of A and, for
/// each cleared bit, the moves that bit allows. A cleared bit 1 of d_k takes a whole heap of k
/// ≤ K < n: it allows no move from n. A cleared bit 2 of d_k leaves one heap n − k ≥ 1, of value
/// G_B(n − k) = G_A(n − k) by induction; A has the move that removes j tokens and splits the
/// n − j left into k − j ≥ 1 and n − k ≥ 1 (no `!` to forbid equal parts), of value
/// G_A(k − j) ⊕ G_A(n − k) = G_A(n − k). So the options of n have the same set of values in
/// both games (both tables agree below n), and the same mex. ∎
///
/// For example `0.063` has the table of `0.06`: its bit 1 of d3 only matters at n = 3, where
/// both tables agree, and its bit 2 of d3 leaves n − 3, which `0.06` reaches by taking 2 and
/// leaving 1 and n − 3, as G(1) = 0.
///
/// ```
/// use zermelo_grundy::census::same_table_as;
/// let twin = same_table_as(&"0.063".parse().unwrap()).unwrap();
/// assert_eq!(twin.to_string(), "0.06");
/// ```
pub fn same_table_as(game: &OctalGame) -> Result<OctalGame, GrundyError> {
    let last = game.last_place();
    let bits: Vec<(usize, u8)> = (1..=last)
        .flat_map(|k| [(k, 1), (k, 2)])
        .filter(|&(k, bit)| game.digit(k) & bit != 0)
        .collect();
    if bits.len() > MAX_CLEARED {
        return Ok(game.clone());
    }
    let g = naive::values(game, last)?;
    let order = |a: &OctalGame| -> Vec<u8> { (0..=last).map(|k| a.digit(k)).collect() };
    let mut best = game.clone();
    for subset in 1usize..1 << bits.len() {
        let mut a = game.clone();
        for (i, &(k, bit)) in bits.iter().enumerate() {
            if subset >> i & 1 == 1 {
                a = a.with_digit(k, a.digit(k) & !bit);
            }
        }
        if order(&a) < order(&best) && proven_same(game, &g, &a)? {
            best = a;
        }
    }
    Ok(best)
}

/// Whether the theorem's conditions hold for B = `game` (with G(0..=K) = `g`) and A = `a`.
fn proven_same(game: &OctalGame, g: &[u16], a: &OctalGame) -> Result<bool, GrundyError> {
    let last = game.last_place();
    let g_a = naive::values(a, last)?;
    if g_a != g {
        return Ok(false);
    }
    Ok((1..=last)
        .filter(|&k| game.digit(k) & 2 != 0 && a.digit(k) & 2 == 0)
        .all(|k| (0..k).any(|j| a.digit(j) & 4 != 0 && !a.is_unequal(j) && g_a[k - j] == 0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn twin(code: &str) -> String {
        same_table_as(&code.parse().unwrap()).unwrap().to_string()
    }

    #[test]
    fn twins_of_known_families() {
        assert_eq!(twin("0.063"), "0.06");
        assert_eq!(twin("0.06"), "0.06");
        // Taking one token and leaving one heap is splitting off a heap of 1, of value 0.
        assert_eq!(twin("4.237"), "4.026");
        assert_eq!(twin("0.435"), "0.414");
        // Kayles keeps its bits: G(1) = 1 differs from 0.67's G(1) = 0.
        assert_eq!(twin("0.77"), "0.77");
    }

    #[test]
    fn each_condition_is_needed() {
        // Condition 1 alone fails: 0.17 takes a heap of 1, 0.07 does not (G(1) is 1 and 0).
        let g17 = naive::values(&"0.17".parse().unwrap(), 100).unwrap();
        let g07 = naive::values(&"0.07".parse().unwrap(), 100).unwrap();
        assert_ne!(g17, g07);
        assert_eq!(twin("0.17"), "0.17");
        // Condition 2 alone fails: 0.142 and 0.14 agree up to the last place 3, but the move
        // that leaves n − 3 has no split of 0.14 standing for it (the only one, taking 2 and
        // leaving 1 and n − 3, has G(1) = 1), and the tables part later.
        let b: OctalGame = "0.142".parse().unwrap();
        let a: OctalGame = "0.14".parse().unwrap();
        let (gb, ga) = (
            naive::values(&b, 300).unwrap(),
            naive::values(&a, 300).unwrap(),
        );
        assert_eq!(gb[..=3], ga[..=3]);
        assert_ne!(gb, ga);
        assert!(!proven_same(&b, &gb[..=3], &a).unwrap());
        assert_eq!(twin("0.142"), "0.142");
    }
}
