//! The template finder: every minimal edge template of a row whose carrier lies in a fixed
//! search region, each proven by exhaustive play.
//!
//! The game inside a carrier C: the player holds the stone, the opponent holds every cell
//! outside C, and the opponent moves first; the player wins by joining the stone to the edge.
//! Giving the player an extra cell never hurts them, so the carriers that win form an
//! up-closed family, and a winning C is minimal exactly when C minus any one cell loses.
//!
//! The minimal carriers inside a region R are enumerated by branching on a minimal carrier M
//! of R found by shrinking (dropping each cell in turn while the rest still wins): every other
//! minimal carrier of R misses some cell c of M (it cannot hold all of M and be minimal), so it
//! is a minimal carrier of R minus c. Regions already seen are skipped; a region that holds a
//! carrier found already wins without play, and one inside a region that lost loses.
//!
//! Each carrier's game is played out by the exact solver on a Hex board that embeds it (see
//! [`Board`]), with the edge templates of the lower rows only, already proven, among its
//! knowledge: no template of the row being searched is assumed while it is proven.
//!
//! Templates with a second stone of the player's are found the same way, one enumeration for
//! each cell of the second stone, the game's solver knowing the single-stone templates of the
//! row and below. Most of what they find the connection engine derives already (the second
//! stone joined to the first and to the edge by templates and bridges whose carriers its AND
//! and OR rules combine), so a carrier is kept only where the engine, building the carrier's
//! position with the single-stone templates, does not join the stone to the edge.

use std::collections::HashSet;

use super::Template;
use crate::solver::connections::{edge_connection, Proves};
use crate::{Bitboard, Geometry, HexError, Player, Position, Solver, SolverConfig, MAX_SIZE};

/// Where the finder looks for the templates of a row: the cells (x, h) with 1 ≤ h ≤ row + 1
/// and `x_range(h)`; the stone is (0, row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// The stone's row.
    pub row: i8,
    /// How many cells the region reaches beyond the stone's cone on the left (towards −x),
    /// on the rows up to the stone's; on the row above the stone's it holds the cells
    /// −left ≤ x ≤ −1.
    pub left: i8,
    /// How many cells the region reaches beyond the stone's cone on the right.
    pub right: i8,
}

impl Region {
    /// The region searched for row `row` by [`find`]: the stone's cone widened by two cells
    /// on the right and as many on the left as the largest board allows (its row 1 as wide as
    /// the board), with the row above the stone's on the left. A template and its mirror image
    /// are one entry of the list, so a template needs only one of the two to fit. The row
    /// above the stone's is searched left of the stone only, so that its cells next to
    /// the column of stones of the finder's board are next to the stone as well.
    #[must_use]
    pub fn for_row(row: i8) -> Region {
        let right = 2;
        Region {
            row,
            left: MAX_SIZE as i8 - row - right,
            right,
        }
    }

    /// The region searched for templates of row `row` with a second stone: the stone's cone
    /// widened by two cells on each side, with the row above the stone's on the left. Narrower
    /// than a single stone's region, since each cell of the second stone is an enumeration of
    /// its own: with four cells on the left, the fifth row's search took 372 s instead of
    /// about 5, and kept 291 templates instead of 71, most of them wide ones that reach over
    /// the stone's row.
    #[must_use]
    pub fn for_second_stone(row: i8) -> Region {
        Region {
            row,
            left: 2,
            right: 2,
        }
    }

    /// The columns of row `h` in the region: up to the stone's row, the stone's cone (the
    /// cells of row h whose distance to the stone is row − h) widened by the margins; on the
    /// row above, the cells left of the stone's column.
    fn x_range(self, h: i8) -> std::ops::RangeInclusive<i8> {
        if h > self.row {
            -self.left..=-1
        } else {
            -self.left..=self.row - h + self.right
        }
    }

    /// The region's cells other than the stone, nearest the stone first.
    fn cells(self) -> Vec<(i8, i8)> {
        let mut cells: Vec<(i8, i8)> = (1..=self.row + 1)
            .flat_map(|h| self.x_range(h).map(move |x| (x, h)))
            .filter(|&c| c != (0, self.row))
            .collect();
        cells.sort_by_key(|&(x, h)| (distance((x, h), (0, self.row)), -h, x));
        cells
    }
}

/// The number of steps between two cells.
fn distance(a: (i8, i8), b: (i8, i8)) -> i8 {
    let (dx, dh) = (a.0 - b.0, a.1 - b.1);
    // In these axes the third cube coordinate is −x − h.
    (dx.abs() + dh.abs() + (dx + dh).abs()) / 2
}

/// A region drawn on a Hex board, so that the game inside a carrier is a Hex position.
///
/// The template's edge is Black's north edge: (x, h) is the board cell in column x0 + x of
/// row h − 1. Black holds the stone and a column of stones from it to the south edge,
/// (0, h) for h above the stone's row; White holds every other cell outside the carrier, and
/// moves first. Black then wins exactly when the player wins the carrier's game: the column's
/// only neighbours off the column that White does not hold are the stone, (1, row) and
/// (−1, row + 1), both next to the stone (the region's row above the stone's keeps to the
/// left of the column, and no region cell lies higher), so a black chain from the north edge
/// to the south one runs from the north edge through carrier cells to the stone; and any
/// chain of carrier cells from the stone to row 1 is such a chain.
///
/// A second stone of the template's is a black stone on its region cell, which the carrier
/// leaves out. It lies on the stone's row or below, so the only one of its cells next to the
/// column, (1, row), is next to the stone too, and the argument stands with chains through it.
#[derive(Clone)]
struct Board {
    /// The stone's row.
    row: i8,
    /// The region's cells, in the order of [`Region::cells`].
    cells: Vec<(i8, i8)>,
    n: usize,
    /// The board cell of each region cell.
    on_board: Vec<usize>,
    /// The stone and its column, and a second stone if any.
    black: Bitboard,
}

impl Board {
    fn new(region: Region) -> Result<Board, HexError> {
        let cells = region.cells();
        assert!(cells.len() <= 64, "a region's carriers fit one u64");
        let x0 = -cells.iter().map(|c| c.0).min().unwrap_or(0).min(0);
        // The widest row sets the size; a row above the region's top row keeps its cells off
        // the south edge.
        let n = cells
            .iter()
            .map(|&(x, _)| (x + x0) as usize + 1)
            .max()
            .unwrap_or(1)
            .max(region.row as usize + 2);
        if n > MAX_SIZE {
            return Err(HexError::BadSize(n));
        }
        let place = |(x, h): (i8, i8)| (h as usize - 1) * n + (x + x0) as usize;
        let black = (region.row..=n as i8).fold(Bitboard::EMPTY, |b, h| b.with(place((0, h))));
        Ok(Board {
            row: region.row,
            on_board: cells.iter().map(|&c| place(c)).collect(),
            cells,
            n,
            black,
        })
    }

    /// The board cells of a set of region cells.
    fn board_cells(&self, set: u64) -> Bitboard {
        self.on_board
            .iter()
            .enumerate()
            .filter(|&(i, _)| set >> i & 1 == 1)
            .fold(Bitboard::EMPTY, |b, (_, &c)| b.with(c))
    }

    /// The position of the game inside `carrier` (a set of region cells), White to move.
    fn position(&self, carrier: u64) -> Result<Position, HexError> {
        let free = self.board_cells(carrier);
        let white = Geometry::of(self.n).board.minus(self.black).minus(free);
        Position::from_setup(self.n, self.black, white, Player::White)
    }
}

/// Settles carriers by solving their positions, with one table for all of them.
struct Prover<'a> {
    board: &'a Board,
    solver: &'a Solver,
}

impl Prover<'_> {
    /// Whether the player wins the game inside `carrier`.
    fn wins(&self, carrier: u64) -> Result<bool, HexError> {
        let p = self.board.position(carrier)?;
        Ok(match p.connected() {
            Some(player) => player == Player::Black,
            None => self.solver.solve(&p, false)?.winner == Player::Black,
        })
    }
}

/// Enumerates the minimal carriers of one region (see the module's documentation).
struct Enumeration<'a> {
    prover: Prover<'a>,
    found: Vec<u64>,
    lost: Vec<u64>,
    seen: HashSet<u64>,
}

impl Enumeration<'_> {
    /// Whether the carrier `c` wins, from the carriers found and lost so far when they decide.
    fn carrier_wins(&mut self, c: u64) -> Result<bool, HexError> {
        if self.found.iter().any(|&f| f & !c == 0) {
            return Ok(true);
        }
        if self.lost.iter().any(|&l| l & c == c) {
            return Ok(false);
        }
        let v = self.prover.wins(c)?;
        if !v {
            self.lost.retain(|&l| l & c != l);
            self.lost.push(c);
        }
        Ok(v)
    }

    /// A minimal winning carrier inside the winning carrier `c`: each cell dropped in turn,
    /// farthest from the stone first, while the rest wins. One pass suffices: a cell kept
    /// because the rest lost stays needed, as a subset of a losing carrier loses.
    fn shrink(&mut self, c: u64, order: &[usize]) -> Result<u64, HexError> {
        let mut c = c;
        for &i in order {
            if c >> i & 1 == 1 && self.carrier_wins(c & !(1 << i))? {
                c &= !(1 << i);
            }
        }
        Ok(c)
    }

    fn all(&mut self, region: u64, order: &[usize]) -> Result<(), HexError> {
        if !self.seen.insert(region) || !self.carrier_wins(region)? {
            return Ok(());
        }
        let m = self.shrink(region, order)?;
        if !self.found.contains(&m) {
            self.found.push(m);
        }
        let mut cells = m;
        while cells != 0 {
            let i = cells.trailing_zeros();
            cells &= cells - 1;
            self.all(region & !(1 << i), order)?;
        }
        Ok(())
    }
}

/// The minimal carriers of `board`'s game among the region cells `whole` (bits over the
/// region's cells), each proven by `solver`.
fn minimal_carriers(board: &Board, whole: u64, solver: &Solver) -> Result<Vec<u64>, HexError> {
    // Farthest cells from the stone first, so the first carriers found are compact ones.
    let stone = (0, board.row);
    let mut order: Vec<usize> = (0..board.cells.len())
        .filter(|&i| whole >> i & 1 == 1)
        .collect();
    order.sort_by_key(|&i| std::cmp::Reverse((distance(board.cells[i], stone), i)));
    let mut e = Enumeration {
        prover: Prover { board, solver },
        found: Vec::new(),
        lost: Vec::new(),
        seen: HashSet::new(),
    };
    e.all(whole, &order)?;
    Ok(e.found)
}

/// A solver for the finder's games: one thread, the connection engine knowing `templates`.
fn solver(templates: Proves) -> Result<Solver, HexError> {
    let config = SolverConfig {
        threads: 1,
        tt_mb: 64,
        ..SolverConfig::default()
    };
    Ok(Solver::new(config)?.with_templates(templates))
}

/// The region's cells of the set `m`.
fn cells_of(board: &Board, m: u64) -> Vec<(i8, i8)> {
    (0..board.cells.len())
        .filter(|&i| m >> i & 1 == 1)
        .map(|i| board.cells[i])
        .collect()
}

/// One of each mirror pair, sorted.
fn canonical_list(list: Vec<Template>) -> Vec<Template> {
    let mut out: Vec<Template> = list.into_iter().map(Template::canonical).collect();
    out.sort();
    out.dedup();
    out
}

/// Every minimal template of row `region.row` whose carrier lies in `region`, one of each
/// mirror pair, in a fixed order (see [`Template::canonical`]). The proofs use the committed
/// templates of the lower rows, and no others. Fails if the region does not fit the largest
/// board.
pub fn find_in(region: Region) -> Result<Vec<Template>, HexError> {
    let board = Board::new(region)?;
    let whole = u64::MAX >> (64 - board.cells.len());
    let below = Proves::Connections {
        below: region.row,
        stones: false,
    };
    let found = minimal_carriers(&board, whole, &solver(below)?)?;
    Ok(canonical_list(
        found
            .iter()
            .map(|&m| Template {
                row: region.row,
                stones: Vec::new(),
                cells: cells_of(&board, m),
            })
            .collect(),
    ))
}

/// Every minimal template of row `region.row` with a second stone of the player's, both in
/// `region`, that the connection engine does not derive from the committed single-stone
/// templates (of every row up to this one, with which the proofs are made too); one of each
/// mirror pair, in a fixed order. The second stone is on the stone's row or below.
fn find_with_second_stone_in(region: Region) -> Result<Vec<Template>, HexError> {
    let row = region.row;
    let single = Proves::Connections {
        below: row + 1,
        stones: false,
    };
    let mut out = Vec::new();
    // One table for every second stone: its positions hold the second stone, so they differ.
    let solver = solver(single)?;
    let base = Board::new(region)?;
    let g = Geometry::of(base.n);
    let whole = u64::MAX >> (64 - base.cells.len());
    for (i, &second) in base.cells.iter().enumerate().filter(|(_, c)| c.1 <= row) {
        let mut board = base.clone();
        board.black = board.black.with(board.on_board[i]);
        // A second stone on row 1 next to the stone joins it to the edge: no template.
        if !(g.flood(board.black & g.north, board.black) & g.south).is_empty() {
            continue;
        }
        for m in minimal_carriers(&board, whole & !(1 << i), &solver)? {
            // The column joins the stone to the south edge, so a full connection between
            // Black's edges is one from the stone to the template's edge.
            let empty = board.board_cells(m);
            if edge_connection(g, board.black, empty, g.north, g.south, single)
                .full
                .is_none()
            {
                out.push(Template {
                    row,
                    stones: vec![second],
                    cells: cells_of(&board, m),
                });
            }
        }
    }
    Ok(canonical_list(out))
}

/// The minimal templates of rows 2 to `max_row`: for each row, those of one stone, searched
/// in [`Region::for_row`], with carriers of at most `max_cells[0]` cells, then those with a
/// second stone, in [`Region::for_second_stone`], of at most `max_cells[1]`. `progress` is
/// called with each row, the number of other stones, the templates kept and how many larger
/// ones were left out, as each search is done.
pub fn find(
    max_row: i8,
    max_cells: [usize; 2],
    mut progress: impl FnMut(i8, usize, &[Template], usize),
) -> Result<Vec<Template>, HexError> {
    let mut all: Vec<Template> = Vec::new();
    for row in 2..=max_row {
        for (stones, &limit) in max_cells.iter().enumerate() {
            let found = if stones == 0 {
                find_in(Region::for_row(row))?
            } else {
                find_with_second_stone_in(Region::for_second_stone(row))?
            };
            let (kept, larger): (Vec<Template>, Vec<Template>) =
                found.into_iter().partition(|t| t.cells.len() <= limit);
            progress(row, stones, &kept, larger.len());
            all.extend(kept);
        }
    }
    Ok(all)
}
