//! Permanently inferior cells: empty cells that can be given to one player in normal play
//! without changing who wins, whoever is to move (fill-in), the player's stone there changing
//! nothing the opponent's stone there would not change back.
//!
//! **The pattern.** Call the player X and the opponent Y. As in [`super::inferior`], a
//! neighbour of a cell is X's when it is X's stone or lies off the board beyond X's edge; here
//! it is *Y's alone* when it is Y's and not X's as well (the position beyond an obtuse corner
//! counts for both players). An empty cell c qualifies when three consecutive neighbours n1 n2
//! n3 are X's, the other three e3 e2 e1 are empty cells (e1 beside n1, e3 beside n3, e2
//! between them), and both sides hold:
//! - S1: e1's other neighbours are, in order from n1, o1 (beside n1), a, b (beside e2); one of
//!   them settles the side: o1 X's, or a Y's alone, or b X's;
//! - S3: the same around e3: o3 (beside n3) X's, or k Y's alone, or h (beside e2) X's.
//!
//! ```text
//!       a   b
//!     o1  e1  e2  h
//!       n1  c   e3  k      (rotation 0 of six)
//!         n2  n3  o3
//! ```
//!
//! *Theorem: the position P and P with X on c have the same winner, whoever is to move.*
//!
//! *Proof.* An extra stone never hurts its owner, so if X wins P, X wins P + c. Conversely let
//! X win V = P + c with a strategy σ. X plays the real game R from P by playing σ in V: each
//! move of either player is made on both boards, with two exceptions.
//! 1. While c is alive in R and not X's, when Y plays c, e1 or e3, X answers at once and the
//!    two moves are not made in V. The answer is e2 if it is empty; otherwise an empty cell of
//!    e1 and e3 if there is one; otherwise c. (Alive: not dead in the sense of
//!    [`super::inferior`], whose proof holds as well for a cell already taken: its colour then
//!    changes no full board's winner.)
//! 2. When σ asks for a cell already taken in R, or Y plays c once it is dead, X plays any
//!    empty cell (an extra stone, which never hurts).
//!
//! While c is alive and not X's, X holds no cell of L = {c, e1, e2, e3} but e2 (with X on e1
//! or e3, four neighbours of c in a row are X's, and c is dead), and Y holds at most one cell
//! of L, which is c, e1 or e3 (with Y on e2, c's neighbours that are Y's or empty are joined
//! through e2, and c is dead; and each move of Y's on c, e1 or e3 is answered). So an answer
//! of rule 1 is e2, or leaves c dead or X's: X holds e2 and, Y having taken c, X takes e1 or
//! e3 (c's one neighbour not X's is then the other); or, Y having taken one of e1 and e3, X
//! takes the other (c's one neighbour not X's is Y's); or Y holds e1 and e3 and X takes c.
//!
//! When R's board is full, complete V by letting σ answer until its board is full too (its
//! empty cells are then cells of L, or cells where R has an extra stone of X's); X connects in
//! V. If rule 1 never applied, c is X's in R, or Y's but dead (so its colour does not matter),
//! and X holds in R every cell X holds in V: X connects in R. Otherwise X holds e2 in R and, by
//! the end, one of c, e1 and e3: while c is alive with X on e2 and c not X's, X holds none of
//! them and every move of Y's there is answered, and c, Y's or empty, is dead only once X
//! holds e1 or e3. These cells and n1
//! n2 n3 form a connected set K of X's (e2 touches c, e1 and e3; c touches n1 n2 n3; e1
//! touches n1; e3 touches n3). K touches every cell next to L outside it, or X's cells that
//! touch both: e2's other neighbours touch e2 (among them b and h); o1 and o3 touch n1 and
//! n3; a touches o1 or b when they are X's, and otherwise is Y's alone, which no connection
//! of X's passes; the same for k. So in
//! X's connection in V, the cells in L can be replaced by K, and the rest are X's in R too
//! (outside L, R has X's stones where V has them, and Y's moves are made in both): X connects
//! in R. ∎
//!
//! *After X's own move, c stays fillable.* A stone of X's elsewhere keeps the pattern (it
//! only adds X's stones). With X on e1 or e3, c is dead. With X on e2, c and e1 form a captured
//! pair of X's ([`DeadCells::captured`]): with X on e1, c is dead; with X on c, e1's
//! neighbours n1, c, e2 are X's and S1 gives a fourth in a row (o1 or b) or Y's alone opposite
//! c (a), so e1 is dead. Giving X one cell of a captured pair leaves the value as it is, as it
//! lies between the values with none and with both given. So all the cells found can be
//! filled together, one after another: after each, every other one still matches, or is dead,
//! or is in a captured pair of X's (and stays so as X's stones are added). And the same holds
//! after a move of X's: every cell found that is still empty can then be filled, all of them
//! together, so a move of X's that wins once they are filled wins before.

use super::inferior::{toward, DeadCells, DIRECTIONS};
use crate::Bitboard;

impl DeadCells {
    /// The permanently inferior cells of the player (Black if `black`, with stones `stones`;
    /// `other` holds the opponent's), as the module's documentation defines them: empty cells
    /// that can be filled with the player's colour without changing the value of the position.
    pub(crate) fn permanently_inferior(
        &self,
        stones: Bitboard,
        other: Bitboard,
        empty: Bitboard,
        black: bool,
    ) -> Bitboard {
        let g = self.g;
        let x = self.around(stones, black);
        let y = self.around(other, !black);
        let open: [Bitboard; 6] = std::array::from_fn(|k| toward(g, empty, DIRECTIONS[k]));
        let mut found = Bitboard::EMPTY;
        // Directions 0 … 5 are E, NE, NW, W, SW, SE; in rotation r, direction i becomes i + r.
        // The drawing above is rotation 0: e3 E, e2 NE, e1 NW, n1 W, n2 SW, n3 SE.
        for r in 0..6 {
            let d = |i: usize| (i + r) % 6;
            let pattern = x[d(3)] & x[d(4)] & x[d(5)] & open[d(0)] & open[d(1)] & open[d(2)];
            // S1 around e1 (c's NW): o1 its W, a its NW, b its NE neighbour.
            let s1 = empty & (x[d(3)] | y[d(2)].minus(x[d(2)]) | x[d(1)]);
            // S3 around e3 (c's E): o3 its SE, k its E, h its NE neighbour.
            let s3 = empty & (x[d(5)] | y[d(0)].minus(x[d(0)]) | x[d(1)]);
            found |= pattern & toward(g, s1, DIRECTIONS[d(2)]) & toward(g, s3, DIRECTIONS[d(0)]);
        }
        found & empty
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{on_exact_positions, random_colouring, xorshift, Minimax};
    use crate::Geometry;

    /// The cells of the pattern, as offsets (dx, dy) from c in the drawing of the module's
    /// documentation (rotation 0), with what each must be: X's, empty, or one of the sides.
    const CORE: [((i64, i64), char); 6] = [
        ((-1, 0), 'X'),
        ((-1, 1), 'X'),
        ((0, 1), 'X'),
        ((0, -1), '.'),
        ((1, -1), '.'),
        ((1, 0), '.'),
    ];
    /// S1's cells o1, a, b and S3's o3, k, h, each with the condition that settles its side.
    const S1: [((i64, i64), char); 3] = [((-1, -1), 'X'), ((0, -2), 'Y'), ((1, -2), 'X')];
    const S3: [((i64, i64), char); 3] = [((1, 1), 'X'), ((2, 0), 'Y'), ((2, -1), 'X')];

    /// The pattern by its definition, cell by cell on the coordinates: whether cell c of an
    /// n x n board is permanently inferior for the player (Black if `black`).
    fn matches(n: usize, black: Bitboard, white: Bitboard, is_black: bool, c: usize) -> bool {
        let (cx, cy) = ((c % n) as i64, (c / n) as i64);
        // 'X' the player's (stone or edge), 'Y' the opponent's alone, '.' an empty cell.
        let holds = |(dx, dy): (i64, i64), want: char| {
            let (x, y) = (cx + dx, cy + dy);
            let (rows, columns) = ((0..n as i64).contains(&y), (0..n as i64).contains(&x));
            let (mine, theirs, empty) = if rows && columns {
                let i = (y * n as i64 + x) as usize;
                let (b, w) = (black.has(i), white.has(i));
                let (m, t) = if is_black { (b, w) } else { (w, b) };
                (m, t, !b && !w)
            } else {
                // Black's edges lie beyond the rows, White's beyond the columns.
                let (b, w) = (!rows, !columns);
                if is_black {
                    (b, w, false)
                } else {
                    (w, b, false)
                }
            };
            match want {
                'X' => mine,
                'Y' => theirs && !mine,
                _ => empty,
            }
        };
        // A rotation by 60°: (dx, dy) → (−dy, dx + dy) turns each direction into the one
        // before it in the order E, NE, NW, W, SW, SE; the six rotations are all tried.
        let turn = |(dx, dy): (i64, i64), r: usize| (0..r).fold((dx, dy), |(a, b), _| (-b, a + b));
        (0..6).any(|r| {
            let all =
                |cells: &[((i64, i64), char)]| cells.iter().all(|&(o, w)| holds(turn(o, r), w));
            let any =
                |cells: &[((i64, i64), char)]| cells.iter().any(|&(o, w)| holds(turn(o, r), w));
            holds((0, 0), '.') && all(&CORE) && any(&S1) && any(&S3)
        })
    }

    /// The permanently inferior cells of Black (`is_black`) or White in a position.
    fn found_for(dead: &DeadCells, black: Bitboard, white: Bitboard, is_black: bool) -> Bitboard {
        let empty = dead.g.board.minus(black | white);
        match is_black {
            true => dead.permanently_inferior(black, white, empty, true),
            false => dead.permanently_inferior(white, black, empty, false),
        }
    }

    /// On random positions of boards 3x3 to 8x8, the cells found are those of the definition,
    /// cell by cell, for both players.
    #[test]
    fn the_cells_found_are_the_pattern() {
        let mut next = xorshift(0x5eed_1234_abcd_0042);
        let mut found = 0;
        for n in 3..=8 {
            let g = Geometry::of(n);
            let dead = DeadCells::new(g);
            for _ in 0..10_000 {
                let (black, white) = random_colouring(n, 5, &mut next);
                for is_black in [true, false] {
                    let cells = found_for(&dead, black, white, is_black);
                    for c in 0..n * n {
                        assert_eq!(
                            cells.has(c),
                            matches(n, black, white, is_black, c),
                            "{n}x{n} cell {c} black {black:?} white {white:?} for {is_black}"
                        );
                    }
                    found += cells.count();
                }
            }
        }
        assert!(found > 1000, "only {found} cells found");
    }

    /// The theorem against exact values: on 4x4 positions (one colouring in four, a step
    /// prime to 3 so that every cell takes every colour) and random 5x5 ones with at most ten
    /// empty cells, giving the player any one cell found, or all of them, leaves the winner
    /// unchanged with either side to move; and after any move of the player's, each cell found
    /// that is still empty, and all of them together, can still be given to them without
    /// changing the winner, as the search's fill-in needs.
    #[test]
    fn filling_them_keeps_the_winner() {
        // The cells found in one position (`dead` for its board), each checked.
        fn check(m: &mut Minimax, dead: &DeadCells, black: Bitboard, white: Bitboard) -> usize {
            let g = m.g;
            let mut found = 0;
            let empty = g.board.minus(black | white);
            for is_black in [true, false] {
                let cells = found_for(dead, black, white, is_black);
                let with = |extra: Bitboard| match is_black {
                    true => (black | extra, white),
                    false => (black, white | extra),
                };
                let context = format!("black {black:?} white {white:?} for black {is_black}");
                if cells.count() > 1 {
                    let (b, w) = with(cells);
                    for to_move in [true, false] {
                        assert_eq!(
                            m.wins(black, white, to_move),
                            m.wins(b, w, to_move),
                            "{context}: all of {cells:?}"
                        );
                    }
                }
                for c in cells.cells() {
                    found += 1;
                    let (b, w) = with(Bitboard::single(c));
                    for to_move in [true, false] {
                        assert_eq!(
                            m.wins(black, white, to_move),
                            m.wins(b, w, to_move),
                            "{context}: {c}"
                        );
                    }
                    for x in empty.minus(Bitboard::single(c)).cells() {
                        let (b, w) = with(Bitboard::single(x));
                        let (bc, wc) = with(Bitboard::single(x).with(c));
                        let after = m.wins(b, w, !is_black);
                        assert_eq!(after, m.wins(bc, wc, !is_black), "{context}: {c} after {x}");
                    }
                }
                // All of them together after a move of the player's, as the search fills them.
                for x in empty.cells() {
                    let rest = cells.minus(Bitboard::single(x));
                    if rest.is_empty() {
                        continue;
                    }
                    let (b, w) = with(Bitboard::single(x));
                    let (bc, wc) = with(rest.with(x));
                    let after = m.wins(b, w, !is_black);
                    assert_eq!(after, m.wins(bc, wc, !is_black), "{context}: all after {x}");
                }
            }
            found
        }
        let any = |dead: &DeadCells, black, white| {
            !(found_for(dead, black, white, true) | found_for(dead, black, white, false)).is_empty()
        };
        let (small_found, large_found) =
            on_exact_positions(4, (0x0ddb_a11c_afe5_eed5, 400), any, check);
        assert!(small_found > 10_000, "{small_found} cells on 4x4");
        assert!(large_found > 150, "{large_found} cells on 5x5");
    }
}
