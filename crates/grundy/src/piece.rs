//! Games of one piece moving towards the corner (0, 0) of an N x N board: Wythoff's queen, the
//! knight of "All the King's Horses", a rook (which is two-heap Nim), or any set of move vectors
//! that jump once or slide any number of steps.
//!
//! A move vector (dx, dy) takes the piece from (x, y) to (x - dx, y - dy). Every vector must
//! lower x + y, so every game ends; the table is filled by increasing x + y.

use std::fmt;

use crate::GrundyError;

/// The largest board side: the table has side² two-byte values.
pub const MAX_SIZE: usize = 1 << 15;

/// One kind of move: a vector and whether the piece may repeat it (slide) or not (jump).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Decrease of x.
    pub dx: i32,
    /// Decrease of y.
    pub dy: i32,
    /// Whether the piece may go any positive number of steps along the vector.
    pub slide: bool,
}

/// A piece game: its moves.
///
/// ```
/// use zermelo_grundy::piece::PieceGame;
/// let rook = PieceGame::rook();
/// let table = rook.solve(8).unwrap();
/// assert_eq!(table.value(3, 5), 3 ^ 5);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PieceGame {
    name: String,
    moves: Vec<Move>,
}

/// The values of a piece game on an N x N board.
#[derive(Debug, Clone)]
pub struct PieceTable {
    size: usize,
    values: Vec<u16>,
}

impl PieceGame {
    /// A game from its moves; each must lower x + y.
    ///
    /// ```
    /// use zermelo_grundy::piece::{Move, PieceGame};
    /// assert!(PieceGame::new("up", vec![Move { dx: 1, dy: -1, slide: false }]).is_err());
    /// ```
    pub fn new(name: &str, moves: Vec<Move>) -> Result<Self, GrundyError> {
        if moves.is_empty() {
            return Err(GrundyError::BadPiece("no move vectors given".into()));
        }
        for m in &moves {
            if i64::from(m.dx) + i64::from(m.dy) <= 0 {
                return Err(GrundyError::BadPiece(format!(
                    "the vector ({}, {}) does not move towards the corner (dx + dy must be \
                     positive, or the game could go on for ever)",
                    m.dx, m.dy
                )));
            }
        }
        Ok(PieceGame {
            name: name.to_string(),
            moves,
        })
    }

    /// Wythoff's queen: slides west, north and north-west.
    #[must_use]
    pub fn wythoff() -> Self {
        let slide = |dx, dy| Move {
            dx,
            dy,
            slide: true,
        };
        PieceGame::new("wythoff", vec![slide(1, 0), slide(0, 1), slide(1, 1)]).expect("valid")
    }

    /// A rook moving west or north: two-heap Nim.
    #[must_use]
    pub fn rook() -> Self {
        let slide = |dx, dy| Move {
            dx,
            dy,
            slide: true,
        };
        PieceGame::new("rook", vec![slide(1, 0), slide(0, 1)]).expect("valid")
    }

    /// The knight of "All the King's Horses" (Winning Ways): the four knight moves that lower
    /// x + y.
    #[must_use]
    pub fn knight() -> Self {
        let jump = |dx, dy| Move {
            dx,
            dy,
            slide: false,
        };
        PieceGame::new(
            "knight",
            vec![jump(2, 1), jump(2, -1), jump(1, 2), jump(-1, 2)],
        )
        .expect("valid")
    }

    /// Parses vectors such as `2,1;1,2` (semicolon-separated dx,dy pairs).
    ///
    /// ```
    /// use zermelo_grundy::piece::PieceGame;
    /// let moves = PieceGame::parse_vectors("1,0; 0,1", true).unwrap();
    /// assert_eq!(moves.len(), 2);
    /// assert!(PieceGame::parse_vectors("1", false).is_err());
    /// ```
    pub fn parse_vectors(text: &str, slide: bool) -> Result<Vec<Move>, GrundyError> {
        text.split(';')
            .filter(|part| !part.trim().is_empty())
            .map(|part| {
                let bad = || {
                    GrundyError::BadPiece(format!(
                        "{:?} is not a vector dx,dy of whole numbers",
                        part.trim()
                    ))
                };
                let (dx, dy) = part.split_once(',').ok_or_else(bad)?;
                let dx: i32 = dx.trim().parse().map_err(|_| bad())?;
                let dy: i32 = dy.trim().parse().map_err(|_| bad())?;
                Ok(Move { dx, dy, slide })
            })
            .collect()
    }

    /// The moves.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether a piece's value depends on the board's side: some move raises a coordinate (the
    /// knight's), so the far edges limit it. Wythoff's queen and the rook never look past their
    /// cell.
    ///
    /// ```
    /// use zermelo_grundy::piece::PieceGame;
    /// assert!(PieceGame::knight().board_matters());
    /// assert!(!PieceGame::wythoff().board_matters());
    /// ```
    #[must_use]
    pub fn board_matters(&self) -> bool {
        self.moves.iter().any(|m| m.dx < 0 || m.dy < 0)
    }

    /// Every cell the piece can move to from (x, y) on a board of side `size`.
    ///
    /// ```
    /// use zermelo_grundy::piece::PieceGame;
    /// let mut targets = PieceGame::knight().targets(2, 1, 8);
    /// targets.sort();
    /// assert_eq!(targets, vec![(0, 0), (0, 2)]);
    /// ```
    #[must_use]
    pub fn targets(&self, x: usize, y: usize, size: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for m in &self.moves {
            let (mut cx, mut cy) = (x as i64, y as i64);
            loop {
                cx -= i64::from(m.dx);
                cy -= i64::from(m.dy);
                if cx < 0 || cy < 0 || cx >= size as i64 || cy >= size as i64 {
                    break;
                }
                out.push((cx as usize, cy as usize));
                if !m.slide {
                    break;
                }
            }
        }
        out
    }

    /// Solves the N x N board (`size` = N).
    pub fn solve(&self, size: usize) -> Result<PieceTable, GrundyError> {
        self.solve_with_progress(size, |_| {})
    }

    /// The number of moves from every cell of the board together: the work of
    /// [`PieceGame::solve`], which looks at each move once. Sliding pieces have about N³ of them,
    /// jumping pieces about N², so this is what a progress report counts.
    ///
    /// ```
    /// use zermelo_grundy::piece::PieceGame;
    /// // The rook on 3x3: from (x, y), x moves left and y moves down.
    /// assert_eq!(PieceGame::rook().move_count(3), 18);
    /// let knight = PieceGame::knight();
    /// let by_hand: usize = (0..8).flat_map(|x| (0..8).map(move |y| (x, y)))
    ///     .map(|(x, y)| knight.targets(x, y, 8).len()).sum();
    /// assert_eq!(knight.move_count(8), by_hand as u64);
    /// ```
    #[must_use]
    pub fn move_count(&self, size: usize) -> u64 {
        let n = size as u64;
        self.moves
            .iter()
            .map(|m| {
                // How many steps the vector can be taken along each axis from each coordinate
                // (None: no limit); a move's count from (x, y) depends on x and y separately.
                let steps = |d: i32| -> Vec<Option<u64>> {
                    (0..n)
                        .map(|c| match d.cmp(&0) {
                            std::cmp::Ordering::Greater => Some(c / d as u64),
                            std::cmp::Ordering::Less => Some((n - 1 - c) / d.unsigned_abs() as u64),
                            std::cmp::Ordering::Equal => None,
                        })
                        .collect()
                };
                let (xs, ys) = (steps(m.dx), steps(m.dy));
                if !m.slide {
                    let ok = |v: &[Option<u64>]| {
                        v.iter().filter(|s| s.is_none_or(|k| k >= 1)).count() as u64
                    };
                    return ok(&xs) * ok(&ys);
                }
                sum_of_minima(&xs, &ys)
            })
            .sum()
    }

    /// Like [`PieceGame::solve`], calling `on_progress` after each anti-diagonal (x + y
    /// constant) of the board with the number of moves looked at so far, out of
    /// [`PieceGame::move_count`].
    ///
    /// ```
    /// use zermelo_grundy::piece::PieceGame;
    /// let mut seen = Vec::new();
    /// PieceGame::rook().solve_with_progress(3, |moves| seen.push(moves)).unwrap();
    /// assert_eq!(seen, [0, 2, 8, 14, 18]);
    /// ```
    pub fn solve_with_progress(
        &self,
        size: usize,
        mut on_progress: impl FnMut(u64),
    ) -> Result<PieceTable, GrundyError> {
        if size == 0 || size > MAX_SIZE {
            return Err(GrundyError::BadPiece(format!(
                "board size {size} is outside 1..={MAX_SIZE}"
            )));
        }
        let mut values = vec![0u16; size * size];
        let mut seen: Vec<bool> = Vec::new();
        let mut moves = 0u64;
        for sum in 0..2 * size - 1 {
            for x in sum.saturating_sub(size - 1)..=sum.min(size - 1) {
                let y = sum - x;
                seen.clear();
                let targets = self.targets(x, y, size);
                moves += targets.len() as u64;
                for (tx, ty) in targets {
                    let v = usize::from(values[ty * size + tx]);
                    if seen.len() <= v {
                        seen.resize(v + 1, false);
                    }
                    seen[v] = true;
                }
                let v = seen.iter().position(|&b| !b).unwrap_or(seen.len());
                values[y * size + x] =
                    u16::try_from(v).map_err(|_| GrundyError::ValueOverflow {
                        at: format!("cell ({x}, {y})"),
                    })?;
            }
            on_progress(moves);
        }
        Ok(PieceTable { size, values })
    }
}

/// The sum of min(a, b) over every pair of an `a` in `xs` and a `b` in `ys`, `None` standing for
/// no limit (a pair of two `None`s cannot occur: a move changes x or y). Sorting makes it
/// O(N log N) instead of O(N²).
fn sum_of_minima(xs: &[Option<u64>], ys: &[Option<u64>]) -> u64 {
    let finite = |v: &[Option<u64>]| {
        let mut f: Vec<u64> = v.iter().flatten().copied().collect();
        f.sort_unstable();
        f
    };
    let (a, b) = (finite(xs), finite(ys));
    let (a_free, b_free) = ((xs.len() - a.len()) as u64, (ys.len() - b.len()) as u64);
    // A limited coordinate paired with an unlimited one gives the limited count.
    let mut total = a_free * b.iter().sum::<u64>() + b_free * a.iter().sum::<u64>();
    // Limited pairs: for each a (ascending), the b below it count as themselves, the rest as a.
    let (mut j, mut below) = (0, 0u64);
    for &x in &a {
        while j < b.len() && b[j] < x {
            below += b[j];
            j += 1;
        }
        total += below + x * (b.len() - j) as u64;
    }
    total
}

impl fmt::Display for PieceGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)
    }
}

impl PieceTable {
    /// The side of the board.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// G(x, y).
    ///
    /// # Panics
    /// If the cell is off the board.
    #[must_use]
    pub fn value(&self, x: usize, y: usize) -> u16 {
        assert!(x < self.size && y < self.size, "cell off the board");
        self.values[y * self.size + x]
    }

    /// The values row by row (y outer, x inner).
    #[must_use]
    pub fn values(&self) -> &[u16] {
        &self.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_counts_match_the_moves_listed() {
        let custom = PieceGame::new(
            "custom",
            [(2, -1, true), (3, 0, false), (1, 2, true), (-1, 3, false)]
                .iter()
                .map(|&(dx, dy, slide)| Move { dx, dy, slide })
                .collect(),
        )
        .unwrap();
        for game in [PieceGame::wythoff(), PieceGame::knight(), custom] {
            for n in 1..14 {
                let listed: usize = (0..n)
                    .flat_map(|x| (0..n).map(move |y| (x, y)))
                    .map(|(x, y)| game.targets(x, y, n).len())
                    .sum();
                assert_eq!(game.move_count(n), listed as u64, "{game} on {n}x{n}");
            }
        }
    }

    #[test]
    fn rook_is_two_heap_nim() {
        let t = PieceGame::rook().solve(40).unwrap();
        for x in 0..40 {
            for y in 0..40 {
                assert_eq!(usize::from(t.value(x, y)), x ^ y);
            }
        }
    }

    #[test]
    fn wythoff_p_positions_follow_the_golden_ratio() {
        let n = 300;
        let t = PieceGame::wythoff().solve(n).unwrap();
        // (floor(k phi), floor(k phi^2)) with floor(k phi) = floor((k + sqrt(5 k^2)) / 2), in
        // integers: sqrt(5) k is irrational for k > 0, so flooring it first changes nothing.
        let isqrt = |v: usize| -> usize {
            let mut r = (v as f64).sqrt() as usize;
            while r * r > v {
                r -= 1;
            }
            while (r + 1) * (r + 1) <= v {
                r += 1;
            }
            r
        };
        let mut expected = std::collections::BTreeSet::new();
        for k in 0..n {
            let a = (k + isqrt(5 * k * k)) / 2;
            let b = a + k;
            if b < n {
                expected.insert((a, b));
                expected.insert((b, a));
            }
        }
        let zeros: std::collections::BTreeSet<(usize, usize)> = (0..n)
            .flat_map(|x| (0..n).map(move |y| (x, y)))
            .filter(|&(x, y)| t.value(x, y) == 0)
            .collect();
        assert_eq!(zeros, expected);
    }

    #[test]
    fn knight_table_matches_the_8x8_slide() {
        let expected = [
            [0, 0, 1, 1, 0, 0, 1, 1],
            [0, 0, 2, 1, 0, 0, 1, 1],
            [1, 2, 2, 2, 3, 2, 2, 2],
            [1, 1, 2, 1, 4, 3, 2, 3],
            [0, 0, 3, 4, 0, 0, 1, 1],
            [0, 0, 2, 3, 0, 0, 2, 1],
            [1, 1, 2, 2, 1, 2, 2, 2],
            [1, 1, 2, 3, 1, 1, 2, 0],
        ];
        let t = PieceGame::knight().solve(8).unwrap();
        for (y, row) in expected.iter().enumerate() {
            for (x, &v) in row.iter().enumerate() {
                assert_eq!(t.value(x, y), v, "({x}, {y})");
            }
        }
    }

    #[test]
    fn bad_games_are_refused() {
        assert!(PieceGame::new("none", vec![]).is_err());
        assert!(PieceGame::parse_vectors("1,x", true).is_err());
        assert!(PieceGame::rook().solve(0).is_err());
        assert!(PieceGame::rook().solve(MAX_SIZE + 1).is_err());
    }
}
