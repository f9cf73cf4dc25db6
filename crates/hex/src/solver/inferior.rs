//! Dead cells: empty cells whose colour cannot matter to who connects.
//!
//! Around an empty cell c, call a neighbour (in circular order n0 … n5) a player's when it is a
//! stone of theirs or a position just off the board beyond one of their edges. *Theorem: c is
//! dead when, for each player, any two neighbours that are the player's or empty are joined by
//! an arc of the circle whose inner neighbours are all the player's.* *Proof.* Take a full
//! board and a chain of one player through c; it enters and leaves c by two neighbours u and v,
//! both the player's then. The arc between them, made of the player's stones and of their
//! edge (consecutive neighbours touch, and a neighbour beside an off-board position touches
//! that edge), joins u and v without c. So every chain through c has a way round it, whatever
//! colour c takes, and the outcome of the game is the same either way. In normal play a stone
//! there is then worth no more than a pass: never better than another move, since an extra
//! stone never hurts its owner in Hex.
//!
//! Checked over all 3⁶ colourings of the circle, the condition holds exactly when one player,
//! P, and the other, Q, own (up to rotation and the exchange of P and Q):
//! - four consecutive neighbours n0 … n3, P's (the other two touch each other);
//! - three, n0 n1 n2, P's, and the one opposite their middle, n4, Q's;
//! - two, n0 n1, P's, and the two opposite, n3 n4, Q's.
//!
//! The test is bit-parallel: for each of the six directions and each player, the set of cells
//! whose neighbour in that direction belongs to the player, then for each rotation of each
//! pattern the conjunction of four of those sets.

use crate::{Bitboard, Geometry};

/// The six directions around a cell, in circular order: E, NE, NW, W, SW, SE as (dx, dy).
pub(super) const DIRECTIONS: [(i64, i64); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// The cells whose neighbour in direction `d` lies in `s`.
pub(super) fn toward(g: &Geometry, s: Bitboard, d: (i64, i64)) -> Bitboard {
    let n = g.n as i64;
    let offset = d.1 * n + d.0;
    let shifted = if offset >= 0 {
        s.0 >> offset
    } else {
        s.0 << -offset
    };
    // A shift by ±1 column wraps between rows: drop cells whose neighbour would wrap.
    let keep = match d.0 {
        1 => !g.east.0,
        -1 => !g.west.0,
        _ => !0,
    };
    Bitboard(shifted & keep & g.board.0)
}

/// The cells whose neighbour in direction `d` is off the board beyond Black's edges (north,
/// south) and beyond White's (west, east). A neighbour off the board on both counts (beyond a
/// corner) belongs to both players.
///
/// Only the two obtuse corners have such a neighbour: the bottom-left cell (0, n−1) to its
/// south-west, the top-right one (n−1, 0) to its north-east. Take the bottom-left cell c, whose
/// neighbours in circular order are E, NE, NW (cells), W (White's edge), SW (the corner), SE
/// (Black's edge); the other corner is its 180° rotation. The theorem of the module holds with
/// SW counted for both: for Black, SW is Black's edge, beside SE, the same edge, so an arc
/// through SW joins what the arc through SE joins; its other side, W, is never Black's, so
/// no arc of Black's goes on past it. The same holds for White with W in place of SE. (The
/// runs through SW that this adds, for instance NE, NW, W, SW for White, leave the other
/// player two neighbours that touch each other, E and SE here.)
fn off_board(g: &Geometry, d: (i64, i64)) -> (Bitboard, Bitboard) {
    let (n, mut black, mut white) = (g.n as i64, Bitboard::EMPTY, Bitboard::EMPTY);
    for i in g.board.cells() {
        let (x, y) = ((i as i64 % n) + d.0, (i as i64 / n) + d.1);
        let off_rows = !(0..n).contains(&y);
        let off_columns = !(0..n).contains(&x);
        match (off_rows, off_columns) {
            (true, false) => black = black.with(i),
            (false, true) => white = white.with(i),
            (true, true) => {
                black = black.with(i);
                white = white.with(i);
            }
            _ => {}
        }
    }
    (black, white)
}

/// The cells dead by one of the three patterns of the module's documentation, given for each
/// direction the cells whose neighbour that way is one player's (`p`) and the other's (`q`).
#[inline(always)]
fn dead_by(p: &[Bitboard; 6], q: &[Bitboard; 6]) -> Bitboard {
    let mut dead = Bitboard::EMPTY;
    for k in 0..6 {
        let at = |a: &[Bitboard; 6], j: usize| a[(k + j) % 6];
        let (p01, q01) = (at(p, 0) & at(p, 1), at(q, 0) & at(q, 1));
        dead |= p01 & at(p, 2) & (at(p, 3) | at(q, 4));
        dead |= q01 & at(q, 2) & (at(q, 3) | at(p, 4));
        dead |= p01 & at(q, 3) & at(q, 4);
    }
    dead
}

/// Dead-cell detection for one board size: the off-board masks are computed once.
pub(crate) struct DeadCells {
    pub(super) g: &'static Geometry,
    black_edges: [Bitboard; 6],
    white_edges: [Bitboard; 6],
}

impl DeadCells {
    pub(crate) fn new(g: &'static Geometry) -> DeadCells {
        let mut black_edges = [Bitboard::EMPTY; 6];
        let mut white_edges = [Bitboard::EMPTY; 6];
        for (k, &d) in DIRECTIONS.iter().enumerate() {
            (black_edges[k], white_edges[k]) = off_board(g, d);
        }
        DeadCells {
            g,
            black_edges,
            white_edges,
        }
    }

    /// For each direction, the cells whose neighbour that way belongs to the player (a stone
    /// of `stones`, or off the board beyond one of their edges).
    pub(super) fn around(&self, stones: Bitboard, black: bool) -> [Bitboard; 6] {
        let edges = if black {
            &self.black_edges
        } else {
            &self.white_edges
        };
        let mut around = [Bitboard::EMPTY; 6];
        for (k, &d) in DIRECTIONS.iter().enumerate() {
            around[k] = toward(self.g, stones, d) | edges[k];
        }
        around
    }

    /// The dead empty cells of a position.
    pub(crate) fn find(&self, black: Bitboard, white: Bitboard) -> Bitboard {
        let empty = self.g.board.minus(black | white);
        dead_by(&self.around(black, true), &self.around(white, false)) & empty
    }

    /// For each direction k, the empty cells that would be dead with one more stone of the
    /// player (Black if `black`, whose stones are `stones`; `other` holds the opponent's) on
    /// their empty neighbour in direction k. Cells already dead are among them.
    fn dead_if(
        &self,
        stones: Bitboard,
        other: Bitboard,
        empty: Bitboard,
        black: bool,
    ) -> [Bitboard; 6] {
        self.dead_if_around(
            &self.around(stones, black),
            &self.around(other, !black),
            empty,
        )
    }

    /// [`DeadCells::dead_if`] from the player's and the opponent's neighbour sets
    /// ([`DeadCells::around`]).
    fn dead_if_around(
        &self,
        mine: &[Bitboard; 6],
        theirs: &[Bitboard; 6],
        empty: Bitboard,
    ) -> [Bitboard; 6] {
        std::array::from_fn(|k| {
            let open = empty & toward(self.g, empty, DIRECTIONS[k]);
            let mut with = *mine;
            with[k] = open;
            dead_by(&with, theirs) & open
        })
    }

    /// The mover's candidate moves without the reversible (vulnerable among them) and the
    /// dominated ones, in normal play. The mover is Black if `black`; `empty` holds every empty
    /// cell, `moves` the candidates, which must hold a winning move whenever the mover has one,
    /// and none that connects the mover at once.
    ///
    /// **Reversible cells.** A cell x is reversible when, after the mover plays x, the opponent
    /// has an answer y after which x is dead once the opponent's captured pairs C (see
    /// [`DeadCells::captured`]) are given to them. It is vulnerable when y is a neighbour
    /// that makes x dead on its own, with no pairs. *Theorem: if the mover wins by x, they win
    /// by a move that is not reversible, or by every move.* *Proof.* After x and the answer y,
    /// the pairs C can be filled in for the opponent without changing the value, and then x
    /// is dead, so the position Q is worth the same with x, y and C all the opponent's. The
    /// mover, to move, wins Q since x won; let m be a winning move there. With fewer opponent
    /// stones, m wins the original position too (an opponent's stone never helps the mover).
    /// If m is reversible as well, with answer y′ and pairs C′, these still do their work in
    /// Q, where only opponent stones were added: a dead cell stays dead when more cells are
    /// fixed, and a pair stays captured, or has a cell the opponent's and the other then dead.
    /// So were y′ taken in Q, m would already be dead after m and C′, worth a pass, and the
    /// mover would win Q even with the opponent to move, hence the original position with the
    /// opponent to move (fewer opponent stones), hence after every move of the original
    /// position. Otherwise m is reversible in Q and the argument repeats in Q. Each round
    /// fixes two more cells, so it ends, at a winning move that is not reversible in the
    /// round's position, hence not in the original one (were its answer already taken there,
    /// it would be the case above), or with every move winning.
    ///
    /// **Dominated cells.** If cell x is dead once the mover has a stone on its neighbour y,
    /// the move y is at least as good as x. *Proof.* With the mover on y, x is dead, so its
    /// colour does not change the value: the position is worth as much as with the mover on
    /// both y and x, at least as much as with the mover on x alone, since an extra stone never
    /// hurts its owner in Hex; both with the opponent to move. The same holds if x is one cell
    /// of a captured pair {x, z} of the mover's once the mover has y (see
    /// [`DeadCells::captured`]): the position with the mover on y is then worth as much as
    /// with the mover on y, x and z, again at least as much as with the mover on x alone. (On
    /// the first row, a stone on the second row makes its two empty first-row neighbours such
    /// a pair, so each of them is dominated by it.) And the pairs may come in rounds (see
    /// [`DeadCells::taken_after`]): with the mover on y, disjoint captured pairs D₁ of the
    /// mover's can be given to the mover without changing the value (fill-in, with either side
    /// to move), then pairs D₂ of the position so filled, and so on; if x is in a captured pair
    /// of some round's position, or dead in the last, the position with the mover on y is
    /// worth as much as with the mover on y, the pairs of the rounds before, and x (with its
    /// partner), again at least as much as with the mover on x alone. For instance on 7x7
    /// after a4 c5 e4 e5 b6, White to move: once White has f5, the edge cells g4 and g5 are a
    /// pair of White's; given to White, they make f4 and g3 a pair of the next round, so f5 is
    /// at least as good as f4 for White, which the first round alone does not show.
    ///
    /// The reversible candidates are pruned first; then a candidate x is pruned as dominated
    /// when some such y is not pruned (yet). So a pruned x leads, through cells pruned later
    /// and later, to a y that is kept, a candidate or not, and at least as good as x: a kept
    /// candidate, or a move outside the candidates, which loses or is dead (worth a pass, so
    /// that every move is as good). Together: when the mover wins, a winning move that is not
    /// reversible exists, and it or a kept move at least as good is kept, unless every move
    /// wins. If every candidate were pruned, the first is kept, which wins whenever any does.
    pub(crate) fn superior(
        &self,
        mine: Bitboard,
        theirs: Bitboard,
        empty: Bitboard,
        black: bool,
        moves: Bitboard,
    ) -> Bitboard {
        // Each player's neighbour sets, shared by the three tests below.
        let mine_around = self.around(mine, black);
        let theirs_around = self.around(theirs, !black);
        let killed_if = self.dead_if_around(&theirs_around, &mine_around, empty);
        let mut pruned = moves & killed_if.iter().fold(Bitboard::EMPTY, |v, &k| v | k);
        pruned |= self.reversible(
            &mine_around,
            &theirs_around,
            theirs,
            empty,
            black,
            moves.minus(pruned),
        );
        let dead_if = self.dead_if_around(&mine_around, &theirs_around, empty);
        let n = self.g.n as i64;
        // The cells the mover could be given once the mover has y, for each y asked.
        let mut taken = [Bitboard::EMPTY; 128];
        let mut asked = Bitboard::EMPTY;
        for x in moves.minus(pruned).cells() {
            let by_dead = (0..6).any(|k| {
                let (dx, dy) = DIRECTIONS[k];
                let y = (x as i64 + dy * n + dx) as usize;
                dead_if[k].has(x) && !pruned.has(y)
            });
            let dominated = by_dead
                || (self.g.cell_neighbours(x) & empty)
                    .minus(pruned)
                    .cells()
                    .any(|y| {
                        if !asked.has(y) {
                            asked = asked.with(y);
                            let after = empty.minus(Bitboard::single(y));
                            taken[y] = self.taken_after(mine.with(y), theirs, after, black);
                        }
                        taken[y].has(x)
                    });
            if dominated {
                pruned = pruned.with(x);
            }
        }
        match moves.minus(pruned) {
            kept if kept.is_empty() => moves.first().map_or(kept, Bitboard::single),
            kept => kept,
        }
    }

    /// The cells of `moves` that are reversible for the mover (Black if `black`): some answer
    /// y of the opponent leaves them dead once the opponent's captured pairs are given to the
    /// opponent (see [`DeadCells::superior`]). The players' neighbour sets
    /// ([`DeadCells::around`]) come with their stones, as the caller has them already.
    ///
    /// The pairs are those of the position after y alone, without the mover's stone on x: they
    /// stay captured once x is the mover's (a dead cell stays dead when more cells are fixed),
    /// unless x is in one of them, and then x is not found dead since it is the opponent's in
    /// the position tested. Only a cell that would be dead with every empty cell the opponent's
    /// can be reversed, and only by an answer within two steps of it (x's colour matters only
    /// through its neighbours, which y takes or makes into pairs with their own neighbours).
    fn reversible(
        &self,
        mine_around: &[Bitboard; 6],
        theirs_around: &[Bitboard; 6],
        theirs: Bitboard,
        empty: Bitboard,
        black: bool,
        moves: Bitboard,
    ) -> Bitboard {
        let all_theirs = self.around(theirs | empty, !black);
        let open = moves & dead_by(mine_around, &all_theirs);
        let near = |set: Bitboard| set | self.g.neighbours(set);
        let mut found = Bitboard::EMPTY;
        for y in (near(near(open)) & empty).cells() {
            let with_y: [Bitboard; 6] = std::array::from_fn(|k| {
                theirs_around[k] | toward(self.g, Bitboard::single(y), DIRECTIONS[k])
            });
            let after = empty.minus(Bitboard::single(y));
            let pairs =
                self.disjoint(self.pairs_of(&self.dead_if_around(&with_y, mine_around, after)));
            let with_pairs: [Bitboard; 6] =
                std::array::from_fn(|k| with_y[k] | toward(self.g, pairs, DIRECTIONS[k]));
            // dead_by treats its two players alike.
            found |= open & dead_by(&with_pairs, mine_around) & after.minus(pairs);
        }
        found
    }

    /// The mover's candidate moves without the dominated ones, in misère play. The mover is
    /// Black if `black`; `moves` are the candidates, none of them dead.
    ///
    /// **Domination in misère play.** If a stone on cell k, of either colour, would make its
    /// empty neighbour v dead, the move v is at least as good as k. *Proof.* Say the mover X
    /// wins by k. X plays v instead and follows the winning strategy as if X stood on k and v
    /// were empty: when it asks for v, X plays k, and the two boards agree; when the opponent
    /// Y plays k, X pretends Y played v. Both boards then have the same empty cells to the
    /// end, and differ at most in that pair: the real one has X on v and Y on k, the pretended
    /// one X on k and Y on v. If Y's stone on k makes v dead, the real board is worth the same
    /// with Y on v too, and then differs from the pretended one only at k, Y's instead of X's.
    /// If X's stone on k makes v dead, the pretended board is worth the same with X on v too,
    /// and the real one differs from that only at k, Y's instead of X's. In misère Hex an
    /// opponent's stone in place of one's own never hurts (a full board where the opponent
    /// connects stays so with one more opponent's cell), so X wins the real game too.
    ///
    /// A candidate k is pruned when a neighbour v that dominates it is a candidate still kept,
    /// and v is then never pruned: every pruned move has a kept one at least as good.
    pub(crate) fn misere_superior(
        &self,
        mine: Bitboard,
        theirs: Bitboard,
        empty: Bitboard,
        black: bool,
        moves: Bitboard,
    ) -> Bitboard {
        let by_theirs = self.dead_if(theirs, mine, empty, !black);
        let by_mine = self.dead_if(mine, theirs, empty, black);
        let n = self.g.n as i64;
        let (mut kept, mut dominators) = (moves, Bitboard::EMPTY);
        for v in moves.cells() {
            if !kept.has(v) {
                continue;
            }
            for (j, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                if !(by_theirs[j] | by_mine[j]).has(v) {
                    continue;
                }
                // dead_if puts v in direction j only when that neighbour is on the board.
                let k = (v as i64 + dy * n + dx) as usize;
                if kept.has(k) && !dominators.has(k) {
                    kept = kept.minus(Bitboard::single(k));
                    dominators = dominators.with(v);
                }
            }
        }
        kept
    }

    /// The empty cells that a player (Black if `black`, with `stones`; `other` holds the
    /// opponent's) could be given without changing the value, round after round: the cells of
    /// the player's captured pairs ([`DeadCells::in_captured_pairs`]); then, with disjoint
    /// pairs among them filled in for the player, the cells of the pairs of that position;
    /// and so on while pairs remain; and the cells dead once none does. Each is, with its
    /// partner and the pairs of the rounds before, a set whose filling in for the player keeps
    /// the value (see [`DeadCells::superior`]).
    fn taken_after(
        &self,
        mut stones: Bitboard,
        other: Bitboard,
        mut empty: Bitboard,
        black: bool,
    ) -> Bitboard {
        let start = empty;
        let mut cells = Bitboard::EMPTY;
        loop {
            let starts = self.pair_starts(stones, other, empty, black);
            cells |= self.pair_cells(starts);
            let pairs = self.disjoint(starts);
            if pairs.is_empty() {
                let (b, w) = if black {
                    (stones, other)
                } else {
                    (other, stones)
                };
                return cells | (self.find(b, w) & start);
            }
            stones |= pairs;
            empty = empty.minus(pairs);
        }
    }

    /// Every empty cell that belongs to a captured pair of the player (Black if `black`), as
    /// [`DeadCells::captured`] defines them, the pairs not made disjoint: the first round of
    /// [`DeadCells::taken_after`], which the tests set it against.
    #[cfg(test)]
    fn in_captured_pairs(
        &self,
        stones: Bitboard,
        other: Bitboard,
        empty: Bitboard,
        black: bool,
    ) -> Bitboard {
        self.pair_cells(self.pair_starts(stones, other, empty, black))
    }

    /// Both cells of every pair that `starts` gives ([`DeadCells::pair_starts`]).
    fn pair_cells(&self, starts: [Bitboard; 3]) -> Bitboard {
        (0..3).fold(Bitboard::EMPTY, |cells, k| {
            cells | starts[k] | toward(self.g, starts[k], DIRECTIONS[k + 3])
        })
    }

    /// For each of the first three directions k, the cells a of the player's captured pairs
    /// {a, b} (see [`DeadCells::captured`]) whose other cell b is a's neighbour in direction k:
    /// a is dead with the player on b, and b is dead with the player on a.
    fn pair_starts(
        &self,
        stones: Bitboard,
        other: Bitboard,
        empty: Bitboard,
        black: bool,
    ) -> [Bitboard; 3] {
        self.pairs_of(&self.dead_if(stones, other, empty, black))
    }

    /// [`DeadCells::pair_starts`] from the player's [`DeadCells::dead_if`].
    fn pairs_of(&self, dead_if: &[Bitboard; 6]) -> [Bitboard; 3] {
        std::array::from_fn(|k| dead_if[k] & toward(self.g, dead_if[k + 3], DIRECTIONS[k]))
    }

    /// Disjoint captured pairs of one player (Black if `black`): two neighbouring empty cells
    /// such that a stone of either on one of them, with the player's own on the other, would be
    /// dead. Whichever cell the opponent takes, the player answers on the other and the
    /// opponent's stone is dead, so in normal play both cells can be given to the player without
    /// changing the value of the position (fill-in), and moves there are never needed.
    pub(crate) fn captured(
        &self,
        stones: Bitboard,
        other: Bitboard,
        empty: Bitboard,
        black: bool,
    ) -> Bitboard {
        self.disjoint(self.pair_starts(stones, other, empty, black))
    }

    /// The cells of disjoint pairs among those `starts` gives ([`DeadCells::pair_starts`]),
    /// taken greedily.
    fn disjoint(&self, starts: [Bitboard; 3]) -> Bitboard {
        let mut taken = Bitboard::EMPTY;
        let n = self.g.n as i64;
        for (k, pairs) in starts.into_iter().enumerate() {
            let (dx, dy) = DIRECTIONS[k];
            for a in pairs.cells() {
                let b = (a as i64 + dy * n + dx) as usize;
                if !taken.has(a) && !taken.has(b) {
                    taken = taken.with(a).with(b);
                }
            }
        }
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{on_exact_positions, random_colouring, xorshift, Minimax};

    /// The winner of a full board: whoever connects (exactly one player does).
    fn black_connects(g: &Geometry, black: Bitboard) -> bool {
        g.connects(black, g.north, g.south)
    }

    /// Asserts that on eight random completions of the cells `rest` (Black's stones `black`
    /// besides), Black taking `cell` or not does not change who connects.
    fn assert_dead(
        g: &Geometry,
        black: Bitboard,
        rest: Bitboard,
        cell: usize,
        next: &mut impl FnMut() -> u64,
        context: &str,
    ) {
        for _ in 0..8 {
            let mut b = black;
            for i in rest.cells() {
                if next() % 2 == 0 {
                    b = b.with(i);
                }
            }
            assert_eq!(
                black_connects(g, b),
                black_connects(g, b.with(cell)),
                "{context}: cell {cell} is not dead, black {b:?}"
            );
        }
    }

    #[test]
    fn toward_matches_the_definition() {
        for n in 1..=6 {
            let g = Geometry::of(n);
            for i in 0..n * n {
                for &d in &DIRECTIONS {
                    let cells = toward(g, Bitboard::single(i), d);
                    let expected: Vec<usize> = (0..n * n)
                        .filter(|&c| {
                            let (x, y) = ((c % n) as i64 + d.0, (c / n) as i64 + d.1);
                            (0..n as i64).contains(&x)
                                && (0..n as i64).contains(&y)
                                && (y * n as i64 + x) as usize == i
                        })
                        .collect();
                    assert_eq!(
                        cells.cells().collect::<Vec<_>>(),
                        expected,
                        "n {n} cell {i} {d:?}"
                    );
                }
            }
        }
    }

    /// On every completion of sampled 3x3 to 5x5 positions to a full board, the colour of a
    /// cell found dead does not change who connects.
    #[test]
    fn dead_cells_do_not_change_the_outcome() {
        let mut next = xorshift(0x1234_5678_9abc_def1u64);
        let mut found = 0;
        for n in [3, 4, 5] {
            let g = Geometry::of(n);
            let dead = DeadCells::new(g);
            for _ in 0..4000 {
                let (black, white) = random_colouring(n, 3, &mut next);
                let cells = dead.find(black, white);
                for d in cells.cells() {
                    found += 1;
                    let rest = g.board.minus(black | white).minus(Bitboard::single(d));
                    assert_dead(g, black, rest, d, &mut next, &format!("{n}x{n}"));
                }
            }
        }
        assert!(found > 1000, "only {found} dead cells seen");
    }

    /// Every colouring of `cells` (each empty, Black's or White's), as (black, white).
    fn colourings(cells: &[usize]) -> impl Iterator<Item = (Bitboard, Bitboard)> + '_ {
        (0..3u64.pow(cells.len() as u32))
            .map(move |code| crate::solver::colouring(cells.iter().copied(), code))
    }

    /// Asserts that on every completion of the empty cells other than `cell` (Black's stones
    /// `black`, White's `white` besides), Black taking `cell` or not does not change who
    /// connects.
    fn assert_dead_on_every_completion(
        g: &Geometry,
        black: Bitboard,
        white: Bitboard,
        cell: usize,
        context: &str,
    ) {
        let free: Vec<usize> = g
            .board
            .minus(black | white)
            .minus(Bitboard::single(cell))
            .cells()
            .collect();
        for fill in 0..1u32 << free.len() {
            let b = free
                .iter()
                .enumerate()
                .filter(|&(k, _)| fill >> k & 1 == 1)
                .fold(black, |b, (_, &i)| b.with(i));
            assert_eq!(
                black_connects(g, b),
                black_connects(g, b.with(cell)),
                "{context}: black {black:?} white {white:?} fill {b:?}"
            );
        }
    }

    /// Every cell of boards 2x2 to 4x4, each colouring of its neighbours with every other cell
    /// empty: the cell is found dead exactly when the condition of the module's theorem holds,
    /// checked here arc by arc, and a cell found dead is dead on every completion of the board.
    /// Each of the three patterns is seen.
    #[test]
    fn dead_cells_are_the_arc_condition() {
        let mut seen = [0usize; 3];
        for n in 2..=4 {
            let g = Geometry::of(n);
            let dead = DeadCells::new(g);
            for c in 0..n * n {
                // Each neighbour position around c: its cell, or None off the board, with the
                // players it belongs to when off the board (Black beyond rows, White beyond
                // columns).
                let ring: Vec<(Option<usize>, bool, bool)> = DIRECTIONS
                    .iter()
                    .map(|&(dx, dy)| {
                        let (x, y) = ((c % n) as i64 + dx, (c / n) as i64 + dy);
                        let rows = (0..n as i64).contains(&y);
                        let columns = (0..n as i64).contains(&x);
                        let cell = (rows && columns).then(|| (y * n as i64 + x) as usize);
                        (cell, !rows, !columns)
                    })
                    .collect();
                let cells: Vec<usize> = ring.iter().filter_map(|r| r.0).collect();
                for (black, white) in colourings(&cells) {
                    // Whether ring position i is the player's, and whether it is empty.
                    let owns = |i: usize, is_black: bool| match ring[i] {
                        (Some(cell), _, _) => (if is_black { black } else { white }).has(cell),
                        (None, beyond_rows, beyond_columns) => {
                            if is_black {
                                beyond_rows
                            } else {
                                beyond_columns
                            }
                        }
                    };
                    let empty_at =
                        |i: usize| ring[i].0.is_some_and(|cell| !(black | white).has(cell));
                    let holds = [true, false].iter().all(|&is_black| {
                        let possible: Vec<usize> = (0..6)
                            .filter(|&i| owns(i, is_black) || empty_at(i))
                            .collect();
                        possible.iter().enumerate().all(|(a, &u)| {
                            possible[a + 1..].iter().all(|&v| {
                                let inner_owned = |from: usize, step: usize| {
                                    let mut i = (from + step) % 6;
                                    while i != v {
                                        if !owns(i, is_black) {
                                            return false;
                                        }
                                        i = (i + step) % 6;
                                    }
                                    true
                                };
                                inner_owned(u, 1) || inner_owned(u, 5)
                            })
                        })
                    });
                    let found = dead.find(black, white).has(c);
                    assert_eq!(
                        found, holds,
                        "{n}x{n} cell {c} black {black:?} white {white:?}"
                    );
                    if !found {
                        continue;
                    }
                    // Which pattern: the most consecutive positions one player owns.
                    let longest = [true, false]
                        .iter()
                        .map(|&is_black| {
                            (0..6)
                                .map(|k| {
                                    (0..6).take_while(|&j| owns((k + j) % 6, is_black)).count()
                                })
                                .max()
                                .unwrap_or(0)
                        })
                        .max()
                        .unwrap_or(0);
                    seen[4usize.saturating_sub(longest.min(4))] += 1;
                    assert_dead_on_every_completion(
                        g,
                        black,
                        white,
                        c,
                        &format!("{n}x{n} cell {c}"),
                    );
                }
            }
        }
        assert!(
            seen.iter().all(|&s| s > 0),
            "cells dead by four, three, two in a row: {seen:?}"
        );
    }

    /// The two obtuse corner cells on boards up to 4x4, each colouring of their board
    /// neighbours with every other cell empty: a corner found dead is dead on every completion
    /// of the board, and the runs that end beyond the corner are found.
    #[test]
    fn obtuse_corners_are_dead_when_found() {
        for n in 2..=4 {
            let g = Geometry::of(n);
            let dead = DeadCells::new(g);
            for corner in [(n - 1) * n, n - 1] {
                let around: Vec<usize> = g.cell_neighbours(corner).cells().collect();
                let mut found = 0;
                for (black, white) in colourings(&around) {
                    if !dead.find(black, white).has(corner) {
                        continue;
                    }
                    found += 1;
                    let context = format!("{n}x{n} corner {corner}");
                    assert_dead_on_every_completion(g, black, white, corner, &context);
                }
                // The two cells of each run beside the corner's own neighbours: NE and NW
                // White's, or E and NE Black's, besides the edges.
                let (x, y) = (corner % n, corner / n);
                let at = |dx: i64, dy: i64| {
                    let (cx, cy) = (x as i64 + dx, y as i64 + dy);
                    Bitboard::single((cy * n as i64 + cx) as usize)
                };
                let (ne, nw, e) = if corner == n - 1 {
                    (at(-1, 1), at(0, 1), at(-1, 0))
                } else {
                    (at(1, -1), at(0, -1), at(1, 0))
                };
                assert!(
                    dead.find(Bitboard::EMPTY, ne | nw).has(corner),
                    "{n}x{n} {corner}"
                );
                assert!(
                    dead.find(e | ne, Bitboard::EMPTY).has(corner),
                    "{n}x{n} {corner}"
                );
                assert!(
                    found >= 2,
                    "{n}x{n} corner {corner}: {found} colourings dead"
                );
            }
        }
    }

    /// On sampled positions, each captured pair {a, b} of a player is as claimed: with the
    /// player's stone on either cell, the other is dead (its colour does not change who connects
    /// on random completions), and the pairs are disjoint empty cells that touch.
    #[test]
    fn captured_pairs_hold() {
        let mut next = xorshift(0x0bad_cafe_1234_5678u64);
        let mut found = 0;
        for n in [3, 4, 5, 6] {
            let g = Geometry::of(n);
            let dead = DeadCells::new(g);
            for _ in 0..3000 {
                let (black, white) = random_colouring(n, 5, &mut next);
                let empty = g.board.minus(black | white);
                for is_black in [true, false] {
                    let owner = if is_black { black } else { white };
                    let other = if is_black { white } else { black };
                    let cells = dead.captured(owner, other, empty, is_black);
                    assert_eq!(cells.minus(empty), Bitboard::EMPTY);
                    assert_eq!(cells.count() % 2, 0);
                    for a in cells.cells() {
                        found += 1;
                        // Its partner: the one neighbour among the pairs' cells that makes
                        // `a` dead.
                        let partners = g.cell_neighbours(a) & cells;
                        let b = partners
                            .cells()
                            .find(|&b| {
                                let mine = owner.with(b);
                                let (bl, wh) = if is_black {
                                    (mine, white)
                                } else {
                                    (black, mine)
                                };
                                dead.find(bl, wh).has(a)
                            })
                            .unwrap_or_else(|| panic!("{n}x{n}: no partner for {a}"));
                        let rest = empty.minus(Bitboard::single(a).with(b));
                        let bl = if is_black { black.with(b) } else { black };
                        let context = format!("{n}x{n}, once {b} is taken");
                        assert_dead(g, bl, rest, a, &mut next, &context);
                    }
                }
            }
        }
        assert!(found > 500, "only {found} captured cells seen");
    }

    /// Vulnerable, reversible and dominated moves against the retrograde oracle: on 4x4
    /// positions in play (one in four), with every move but immediate wins as candidates, each
    /// dominator (by a dead or a captured cell) wins whenever the cell it dominates does, the
    /// reversible cells leave a winning move whenever they hold one, a kept move wins
    /// whenever some move does, and the rules prune often enough to be tested.
    #[test]
    fn inferior_moves_leave_a_winning_move() {
        use crate::retro::RetroTable;
        use crate::solver::{in_play, oracle_move_wins, Rules};
        let n = 4;
        let g = Geometry::of(n);
        let table = RetroTable::compute(n, false).unwrap();
        let dead = DeadCells::new(g);
        let (mut pruned, mut by_capture, mut reversed) = (0, 0, 0);
        for (node, _) in in_play(&table, n, 4) {
            let (black, white, black_to_move) = (node.black, node.white, node.black_to_move);
            let empty = g.board.minus(black | white);
            let wins = |m: usize| oracle_move_wins(&table, Rules::Normal, node, m);
            let (mine, theirs, a, b) = if black_to_move {
                (black, white, g.north, g.south)
            } else {
                (white, black, g.west, g.east)
            };
            let moves = empty.minus(g.winning_cells(mine, empty, a, b));
            if moves != empty {
                continue;
            }
            let kept = dead.superior(mine, theirs, empty, black_to_move, moves);
            // Each theorem on its own: a dominator is at least as good as the cell it
            // dominates; a winning vulnerable (or reversible) cell leaves a winning move that
            // is not vulnerable (reversible), or every move wins.
            let dead_if = dead.dead_if(mine, theirs, empty, black_to_move);
            let killed_if = dead.dead_if(theirs, mine, empty, !black_to_move);
            let vulnerable = killed_if.iter().fold(Bitboard::EMPTY, |v, &k| v | k);
            for (k, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                for x in dead_if[k].cells() {
                    let y = (x as i64 + dy * n as i64 + dx) as usize;
                    assert!(
                        !wins(x) || wins(y),
                        "{x} dominated by {y}: {black:?} {white:?}"
                    );
                }
            }
            for y in empty.cells() {
                let after = empty.minus(Bitboard::single(y));
                let captured = dead.taken_after(mine.with(y), theirs, after, black_to_move);
                for x in (captured & g.cell_neighbours(y)).cells() {
                    by_capture += 1;
                    assert!(
                        !wins(x) || wins(y),
                        "{x} captured after {y}: {black:?} {white:?}"
                    );
                }
            }
            if vulnerable.cells().any(wins) {
                assert!(
                    empty.minus(vulnerable).cells().any(wins) || empty.cells().all(wins),
                    "vulnerable {vulnerable:?}: {black:?} {white:?}"
                );
            }
            let reversible = dead.reversible(
                &dead.around(mine, black_to_move),
                &dead.around(theirs, !black_to_move),
                theirs,
                empty,
                black_to_move,
                empty,
            );
            reversed += reversible.minus(vulnerable).count() as usize;
            if reversible.cells().any(wins) {
                assert!(
                    empty.minus(reversible).cells().any(wins) || empty.cells().all(wins),
                    "reversible {reversible:?}: {black:?} {white:?}"
                );
            }
            pruned += (empty.count() - kept.count()) as usize;
            assert_eq!(
                empty.cells().any(wins),
                kept.cells().any(wins),
                "black {black:?} white {white:?}: kept {kept:?}"
            );
        }
        assert!(pruned > 10_000, "{pruned} moves pruned");
        assert!(
            by_capture > 1000,
            "{by_capture} cells captured after a neighbour"
        );
        assert!(
            reversed > 1000,
            "{reversed} cells reversible and not vulnerable"
        );
    }

    /// The cells a player could be given once they have y ([`DeadCells::taken_after`]),
    /// against exact values: on 4x4 positions (one colouring in 307) and random 5x5 ones with
    /// at most ten empty cells, for each player, each empty y and each cell x found, the
    /// position with the player on y has the same winner with x the player's too, with
    /// either side to move, and the player's move x wins only if y does. Cells that the
    /// first round alone misses (later rounds of pairs, or dead only once the pairs are
    /// filled) are among them, and the 7x7 example of [`DeadCells::superior`] holds.
    #[test]
    fn rounds_of_pairs_can_be_given() {
        fn check(m: &mut Minimax, dead: &DeadCells, black: Bitboard, white: Bitboard) -> usize {
            let empty = m.g.board.minus(black | white);
            let mut later = 0;
            for is_black in [true, false] {
                let (mine, theirs) = if is_black {
                    (black, white)
                } else {
                    (white, black)
                };
                let with = |extra: Bitboard| match is_black {
                    true => (black | extra, white),
                    false => (black, white | extra),
                };
                for y in empty.cells() {
                    let after = empty.minus(Bitboard::single(y));
                    let taken = dead.taken_after(mine.with(y), theirs, after, is_black);
                    let first = dead.in_captured_pairs(mine.with(y), theirs, after, is_black);
                    let (by, wy) = with(Bitboard::single(y));
                    let dead_after_y = dead.find(by, wy);
                    for x in taken.cells() {
                        let context = format!("black {black:?} white {white:?}: {x} after {y}");
                        let (bx, wx) = with(Bitboard::single(y).with(x));
                        for to_move in [true, false] {
                            assert_eq!(
                                m.wins(by, wy, to_move),
                                m.wins(bx, wx, to_move),
                                "{context}"
                            );
                        }
                        let (b1, w1) = with(Bitboard::single(x));
                        // The opponent is to move after either move.
                        let x_wins = !m.wins(b1, w1, !is_black);
                        assert!(!x_wins || !m.wins(by, wy, !is_black), "{context}");
                        later += usize::from(!first.has(x) && !dead_after_y.has(x));
                    }
                }
            }
            later
        }
        let (small, large) =
            on_exact_positions(307, (0x5eed_0f9a_1b2c_3d4e, 100), |_, _, _| true, check);
        let later = small + large;
        assert!(
            later > 10_000,
            "only {later} cells found after the first round"
        );
        // The example: 7x7 after a4 c5 e4 e5 b6, White to move; f5 dominates f4.
        let g = Geometry::of(7);
        let dead = DeadCells::new(g);
        let cell = |s: &str| crate::Cell::parse(s, 7).unwrap().index(7);
        let stones = |l: &[&str]| l.iter().fold(Bitboard::EMPTY, |b, s| b.with(cell(s)));
        let (black, white) = (stones(&["a4", "e4", "b6"]), stones(&["c5", "e5"]));
        let empty = g.board.minus(black | white);
        let after = empty.minus(Bitboard::single(cell("f5")));
        let mine = white.with(cell("f5"));
        assert!(!dead
            .in_captured_pairs(mine, black, after, false)
            .has(cell("f4")));
        assert!(dead.taken_after(mine, black, after, false).has(cell("f4")));
        let kept = dead.superior(white, black, empty, false, empty);
        assert!(!kept.has(cell("f4")) && kept.has(cell("f5")), "{kept:?}");
    }

    /// Domination in misère play against the retrograde oracle: on every 3x3 position in play
    /// and 4x4 ones (one in four), a cell whose neighbour would be dead after a stone of
    /// either colour on it wins only if that neighbour wins too, and the kept moves hold a
    /// winning move whenever the candidates (every move but those that connect the mover) do.
    #[test]
    fn misere_domination_holds() {
        use crate::retro::RetroTable;
        use crate::solver::{in_play, oracle_move_wins, Rules};
        let mut pruned = 0;
        for (n, step) in [(3, 1), (4, 4)] {
            let g = Geometry::of(n);
            let table = RetroTable::compute(n, true).unwrap();
            let dead = DeadCells::new(g);
            for (node, _) in in_play(&table, n, step) {
                let (black, white, black_to_move) = (node.black, node.white, node.black_to_move);
                let empty = g.board.minus(black | white);
                // In misère play a move that connects the mover (game over) loses.
                let wins = |m: usize| oracle_move_wins(&table, Rules::Misere, node, m);
                let (mine, theirs, a, b) = if black_to_move {
                    (black, white, g.north, g.south)
                } else {
                    (white, black, g.west, g.east)
                };
                let moves = empty.minus(g.winning_cells(mine, empty, a, b));
                let by_mine = dead.dead_if(mine, theirs, empty, black_to_move);
                let by_theirs = dead.dead_if(theirs, mine, empty, !black_to_move);
                for (j, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                    for v in (by_mine[j] | by_theirs[j]).cells() {
                        let k = (v as i64 + dy * n as i64 + dx) as usize;
                        assert!(
                            !wins(k) || wins(v),
                            "{k} dominated by {v}: {black:?} {white:?}"
                        );
                    }
                }
                let kept = dead.misere_superior(mine, theirs, empty, black_to_move, moves);
                pruned += (moves.count() - kept.count()) as usize;
                assert_eq!(
                    moves.cells().any(wins),
                    kept.cells().any(wins),
                    "black {black:?} white {white:?}: kept {kept:?}"
                );
            }
        }
        assert!(pruned > 1_000, "{pruned} moves pruned");
    }
}
