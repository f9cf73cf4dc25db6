//! Every placement of the committed templates on a board: for each edge and each cell, the
//! carriers of the templates whose stone is that cell and whose carrier lies on the board.
//!
//! A placement is a template on the board as its proof assumes: its row-1 cells touch the
//! edge, and every carrier cell is a cell of the board, so the game inside the carrier is the
//! one the template's proof plays (the same cells, the same adjacencies, each row-1 cell next
//! to the edge). A carrier that would leave the board is not placed: the cells beyond it
//! belong to no one the proof knows of.

use std::sync::OnceLock;

use super::{committed, Template};
use crate::{Bitboard, Geometry, MAX_SIZE};

/// The lowest row whose templates the connection engine takes: the bridge to the edge (row 2)
/// is what its AND and OR rules derive from the base connections anyway, so placing it adds
/// work and no knowledge. (The row-3 templates pay: 7x7 after a4, 154,308 nodes without them,
/// 130,101 with them; the row-4 ones a little: 7x7 after a4 on one thread, 118,687 nodes
/// without them, 113,675 with them.)
const MIN_ROW: i8 = 3;

/// A template placed on a board: its row, the cells of the player's other stones it needs
/// (none for most), and its carrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placed {
    pub(crate) row: i8,
    pub(crate) stones: Bitboard,
    pub(crate) carrier: Bitboard,
}

impl Placed {
    /// Whether the template holds for the player with `stones` where the cells `open` are the
    /// player's or empty: the player has its other stones, and the opponent has no stone in
    /// its carrier.
    #[inline(always)]
    pub(crate) fn stands(&self, stones: Bitboard, open: Bitboard) -> bool {
        self.stones & stones == self.stones && self.carrier & open == self.carrier
    }
}

/// The placements of the committed templates on one board size.
pub(crate) struct BoardTemplates {
    /// Indexed by edge (north, south, west, east) and then cell: the templates from that cell
    /// to that edge.
    placed: [Vec<Vec<Placed>>; 4],
}

impl BoardTemplates {
    fn new(n: usize, templates: &[Template]) -> BoardTemplates {
        let g = Geometry::of(n);
        let cells = n * n;
        let mut north: Vec<Vec<Placed>> = vec![Vec::new(); cells];
        for t in templates.iter().filter(|t| t.row >= MIN_ROW) {
            for t in [t.clone(), t.mirror()] {
                let y = t.row as usize - 1;
                if y >= n {
                    continue;
                }
                for x0 in 0..n {
                    let on_board = |set: &[(i8, i8)]| {
                        set.iter().try_fold(Bitboard::EMPTY, |m, &(x, h)| {
                            let x = x0 as i64 + i64::from(x);
                            let y = i64::from(h) - 1;
                            let inside = (0..n as i64).contains(&x) && (0..n as i64).contains(&y);
                            inside.then(|| m.with(y as usize * n + x as usize))
                        })
                    };
                    if let (Some(stones), Some(carrier)) = (on_board(&t.stones), on_board(&t.cells))
                    {
                        let list = &mut north[y * n + x0];
                        let p = Placed {
                            row: t.row,
                            stones,
                            carrier,
                        };
                        if !list.contains(&p) {
                            list.push(p);
                        }
                    }
                }
            }
        }
        // The other edges by the board's symmetries: the 180° rotation takes the north edge
        // to the south one, the transposition takes Black's edges to White's.
        let map = |f: &dyn Fn(Bitboard) -> Bitboard| {
            let mut out = vec![Vec::new(); cells];
            for (s, list) in north.iter().enumerate() {
                let to = f(Bitboard::single(s))
                    .first()
                    .expect("a cell maps to a cell");
                out[to] = list
                    .iter()
                    .map(|p| Placed {
                        row: p.row,
                        stones: f(p.stones),
                        carrier: f(p.carrier),
                    })
                    .collect();
            }
            out
        };
        let south = map(&|b| g.rotate(b));
        let west = map(&|b| g.transpose(b));
        let east = map(&|b| g.transpose(g.rotate(b)));
        BoardTemplates {
            placed: [north, south, west, east],
        }
    }

    /// The templates from cell `c` to `edge`, which must be one of the board's four edges
    /// (`g`'s masks); none for anything else.
    pub(crate) fn at(&self, g: &Geometry, edge: Bitboard, c: usize) -> &[Placed] {
        let which = [g.north, g.south, g.west, g.east]
            .iter()
            .position(|&e| e == edge);
        which.map_or(&[], |e| &self.placed[e][c])
    }
}

/// The placements on an n x n board, computed once per size.
pub(crate) fn for_board(n: usize) -> &'static BoardTemplates {
    static ALL: [OnceLock<BoardTemplates>; MAX_SIZE + 1] =
        [const { OnceLock::new() }; MAX_SIZE + 1];
    ALL[n].get_or_init(|| BoardTemplates::new(n, committed()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The carriers of `size` cells of the single-stone templates of row `row` placed on each
    /// edge of an n x n board.
    fn placed(n: usize, row: i8, size: u32) -> Vec<Vec<Bitboard>> {
        let g = Geometry::of(n);
        let placed = for_board(n);
        [g.north, g.south, g.west, g.east]
            .iter()
            .map(|&edge| {
                (0..n * n)
                    .flat_map(|c| placed.at(g, edge, c))
                    .filter(|p| p.row == row && p.stones.is_empty() && p.carrier.count() == size)
                    .map(|p| p.carrier)
                    .collect()
            })
            .collect()
    }

    /// The fifth row's template is 10 cells wide on row 1 (its mirror image too, one cell
    /// further along), so it is placed on boards of 10 and 11 only: on each edge, once and
    /// its mirror once on 10x10, twice each on 11x11.
    #[test]
    fn the_fifth_row_template_fits_boards_of_10_and_11_only() {
        for n in 1..=MAX_SIZE {
            let expected = match n {
                10 => 2,
                11 => 4,
                _ => 0,
            };
            for on_edge in placed(n, 5, 34) {
                assert_eq!(on_edge.len(), expected, "{n}x{n}");
            }
        }
    }

    /// The fourth row's widest template, of 31 cells, spans 9 columns (its row 1 and the
    /// stone's column inside them) and 5 rows, so it and its mirror image are placed n − 8
    /// times each on every edge of an n x n board from 9 up.
    #[test]
    fn the_widest_fourth_row_template_fits_boards_from_9() {
        for n in 1..=MAX_SIZE {
            let expected = if n >= 9 { 2 * (n - 8) } else { 0 };
            for on_edge in placed(n, 4, 31) {
                assert_eq!(on_edge.len(), expected, "{n}x{n}");
            }
        }
    }
}
