//! Sealed carriers: a fill-in that the connection engine's full connections give, where the
//! opponent's stones wall a connection's carrier in (Benzene's "VC decomposition", in a form
//! proven here).
//!
//! Call the player c and the opponent X. Let c have a full connection between two of c's
//! points g1 and g2 (stone groups, or an edge of c's with the stones joined to it) with
//! carrier C: c, playing second inside C, ends with c's stones of C joining g1 and g2. A cell
//! *touches* a point when it is next to one of the point's stones or, for an edge, on the
//! edge's row. Let F ⊇ C be a set of empty cells that is **sealed**: every cell outside F next
//! to a cell of F is X's, or a stone of g1 or g2, or an empty cell that touches g1 or g2; and F
//! has no cell on the row of an edge of c's that is neither g1 nor g2.
//!
//! *Theorem.* Giving every cell of F to c leaves the winner unchanged, whoever is to move.
//!
//! *The board lemma.* Let B be a full board in which c's stones of F join g1 and g2, every
//! cell outside F is as in a board B′ that has all of F c's, and the seal holds (each
//! neighbour of F outside F is X's, of g1 or g2, or touches one of them). If c is connected in
//! B′, c is connected in B. Take a chain Λ of c's in B′ between c's edges. If it has no cell
//! of F it is a chain of B. Otherwise let Λ[i] and Λ[j] be its first and last cells in F. The
//! cell before Λ[i] is outside F and c's (in B as in B′), so by the seal it is of g1 or g2 or
//! next to a stone of theirs or on an edge row of g1 or g2: it is joined to g1 or g2 in B;
//! and when Λ[i] is Λ's first cell, the edge it starts from has a cell of F on its row, so it
//! is g1 or g2 itself. The same holds after Λ[j]. In B, g1 and g2 are joined through F; so Λ
//! before Λ[i], g1 and g2 with their join, and Λ after Λ[j] make a chain of c's between c's
//! edges in B. ∎
//!
//! *Proof of the theorem.* A stone more never hurts its owner, so c wins with F filled
//! whenever c wins without. Conversely, let c win the filled position with strategy τ. In
//! the real one c plays τ outside F, as if X's moves in F were passes, and answers each move of
//! X's inside C by the connection's strategy inside C, and each inside F but outside C with
//! any cell (a stone more, ignored by τ; when τ asks for a cell c holds already, c plays
//! anywhere). Played to the full board B, the cells outside F are as in a full board B′ of τ's,
//! with F all c's, where c is connected, and c's stones of C join g1 and g2. The seal holds in
//! B: the neighbours of F outside it are X's or of g1 or g2 in the position already, and an
//! empty one that touches g1 or g2 stays next to them whoever takes it. By the lemma c is
//! connected in B. ∎
//!
//! *What the search needs.* (1) A move m of X's outside F: the seal holds after m (m becomes
//! one more X stone beside F), so the positions after m with and without F filled have the
//! same winner, and m wins one exactly when it wins the other; X's moves are looked for
//! outside F. (2) More stones of X's outside F, as a proof set's cells given to X are, keep
//! the carrier (a carrier is all X needs to attack) and the seal, so F is kept whole in the
//! proof set of a loss and the position with the cells outside the set given to X is still
//! worth its filled form.

use crate::{Bitboard, Geometry};

/// One end of a full connection of c's, as the seal reads it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct End {
    /// The point's stones: a group, or the stones joined to an edge.
    pub stones: Bitboard,
    /// The cells that touch the point: next to its stones, or on its edge's row.
    pub touch: Bitboard,
}

/// The smallest sealed set F ⊇ `carrier` (see the module's documentation) for a full connection
/// of c's between `ends` with that carrier, c holding `stones`, or `None` when none is sealed.
/// `free_rows` are the rows of c's edges that are neither end.
///
/// F grows from the carrier by every empty neighbour that touches neither end (those may be
/// left outside F); it fails once it comes next to a stone of c's outside the ends or reaches
/// a free edge row.
#[must_use]
pub(crate) fn sealed(
    g: &Geometry,
    (stones, empty): (Bitboard, Bitboard),
    ends: [End; 2],
    free_rows: Bitboard,
    carrier: Bitboard,
) -> Option<Bitboard> {
    let end_stones = ends[0].stones | ends[1].stones;
    let rim = ends[0].touch | ends[1].touch;
    let mut fill = carrier;
    loop {
        if !(fill & free_rows).is_empty() {
            return None;
        }
        let around = g.neighbours(fill).minus(fill);
        if !(around & stones).minus(end_stones).is_empty() {
            return None;
        }
        let grow = (around & empty).minus(rim);
        if grow.is_empty() {
            return Some(fill);
        }
        fill |= grow;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On 4x4, Black (north–south) with a stone on b2 and the north edge as the ends: the
    /// second row's bridge to the edge, b1 and c1, is sealed as it is (it is the first-row
    /// pair that the fill-in captures already); c1 and d1 are not, the set growing from d2 to
    /// the free south edge, unless a stone of White's on d2 walls them in.
    #[test]
    fn a_walled_carrier_is_sealed_and_an_open_one_is_not() {
        let g = Geometry::of(4);
        let cell = |x: usize, y: usize| y * 4 + x;
        let set = |cells: &[(usize, usize)]| {
            cells
                .iter()
                .fold(Bitboard::EMPTY, |s, &(x, y)| s.with(cell(x, y)))
        };
        let black = set(&[(1, 1)]);
        let ends = [
            End {
                stones: Bitboard::EMPTY,
                touch: g.north,
            },
            End {
                stones: black,
                touch: g.neighbours(black),
            },
        ];
        let empty = g.board.minus(black);
        let bridge = set(&[(1, 0), (2, 0)]);
        let seal = |empty: Bitboard, carrier| sealed(g, (black, empty), ends, g.south, carrier);
        assert_eq!(seal(empty, bridge), Some(bridge));
        let wide = set(&[(2, 0), (3, 0)]);
        assert_eq!(seal(empty, wide), None);
        let walled = empty.minus(set(&[(3, 1)]));
        assert_eq!(seal(walled, wide), Some(wide));
    }

    /// The set found is sealed, read cell by cell from the definition, on random 5x5
    /// positions: a carrier of random empty cells, Black's north edge and a group of
    /// Black's as the ends. Some are sealed (more than the carrier among them), some not.
    #[test]
    fn what_is_found_is_sealed() {
        let g = Geometry::of(5);
        let mut next = crate::solver::xorshift(0x5EA1_ED00);
        let (mut found, mut grown, mut none) = (0, 0, 0);
        for _ in 0..20_000 {
            let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
            for c in 0..25 {
                match next() % 5 {
                    0 => black = black.with(c),
                    1 | 2 => white = white.with(c),
                    _ => {}
                }
            }
            let empty = g.board.minus(black | white);
            let Some(s) = black.minus(g.north | g.south).first() else {
                continue;
            };
            let group = g.flood(Bitboard::single(s), black);
            let at_north = g.flood(g.north, black);
            let ends = [
                End {
                    stones: at_north,
                    touch: g.north | g.neighbours(at_north),
                },
                End {
                    stones: group,
                    touch: g.neighbours(group),
                },
            ];
            let carrier = empty & Bitboard((u128::from(next()) & u128::from(next())) & g.board.0);
            if carrier.is_empty() {
                continue;
            }
            let Some(fill) = sealed(g, (black, empty), ends, g.south, carrier) else {
                none += 1;
                continue;
            };
            found += 1;
            grown += usize::from(fill != carrier);
            assert_eq!(fill & carrier, carrier);
            assert_eq!(fill.minus(empty), Bitboard::EMPTY);
            assert!((fill & g.south).is_empty());
            let touches = |d: usize| {
                g.north.has(d)
                    || (at_north | group)
                        .cells()
                        .any(|t| g.cell_neighbours(t).has(d))
            };
            for c in fill.cells() {
                for d in g.cell_neighbours(c).minus(fill).cells() {
                    let ok = white.has(d)
                        || at_north.has(d)
                        || group.has(d)
                        || (empty.has(d) && touches(d));
                    assert!(ok, "{black:?} {white:?}: {d} beside {fill:?}");
                }
            }
        }
        assert!(
            found > 100 && grown > 10 && none > 100,
            "{found} {grown} {none}"
        );
    }

    /// The theorem against exact values (memoised minimax): for each player, the sealed set
    /// the connection engine gives, handed to that player, leaves the winner unchanged with
    /// either side to move. On 4x4 colourings (one in 97) and random 5x5 positions with at
    /// most twelve empty cells, every position not over yet; many of the sets have more cells
    /// than a second-row stone's bridge to its edge.
    #[test]
    fn a_sealed_set_given_to_its_player_leaves_the_winner() {
        use crate::solver::connections::{edge_connection, ALL_TEMPLATES};
        use crate::solver::{colourings, random_colouring, Minimax};
        fn check(m: &mut Minimax, black: Bitboard, white: Bitboard) -> (usize, usize) {
            let g = m.g;
            if g.connects(black, g.north, g.south) || g.connects(white, g.west, g.east) {
                return (0, 0);
            }
            let empty = g.board.minus(black | white);
            let (mut sets, mut large) = (0, 0);
            for black_fills in [true, false] {
                let (stones, a, b) = match black_fills {
                    true => (black, g.north, g.south),
                    false => (white, g.west, g.east),
                };
                let found = edge_connection(g, stones, empty, a, b, ALL_TEMPLATES);
                let Some(fill) = found.sealed else {
                    continue;
                };
                assert_eq!(fill.minus(empty), Bitboard::EMPTY);
                let (b2, w2) = match black_fills {
                    true => (black | fill, white),
                    false => (black, white | fill),
                };
                for black_to_move in [true, false] {
                    assert_eq!(
                        m.wins(black, white, black_to_move),
                        m.wins(b2, w2, black_to_move),
                        "{}x{} {black:?} {white:?}, black to move {black_to_move}: \
                         {fill:?} given to black {black_fills}",
                        g.n,
                        g.n
                    );
                }
                sets += 1;
                large += usize::from(fill.count() > 2);
            }
            (sets, large)
        }
        let (mut sets, mut large) = (0, 0);
        let mut m4 = Minimax::new(4);
        for (black, white) in colourings(4, 97) {
            let (s, l) = check(&mut m4, black, white);
            (sets, large) = (sets + s, large + l);
        }
        let mut m5 = Minimax::new(5);
        let mut next = crate::solver::xorshift(0x5EA1_0005);
        let mut sampled = 0;
        while sampled < 400 {
            let (black, white) = random_colouring(5, 5, &mut next);
            if m5.g.board.minus(black | white).count() > 12 {
                continue;
            }
            let (s, l) = check(&mut m5, black, white);
            (sets, large, sampled) = (sets + s, large + l, sampled + 1);
        }
        assert!(
            sets > 50_000 && large > 2_000,
            "{sets} sealed sets, {large} of more than 2 cells"
        );
    }
}
