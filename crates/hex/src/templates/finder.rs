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
//! The game itself is solved by [`Game::wins`], plain minimax with memory, made fast by three
//! sound shortcuts, each argued where it is applied: the templates of lower rows (already
//! proven) end the game early, the player's one-move threats narrow the opponent's moves, and
//! cells outside the stone's reach are never played.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use super::Template;
use crate::solver::connections::{edge_connection, EdgeConnection, Proves};
use crate::{Bitboard, Geometry, MAX_SIZE};

/// A hasher for the game's memory, whose keys are pairs of cell sets (random-looking already).
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type Memo<K, V> = HashMap<K, V, BuildHasherDefault<MixHasher>>;

/// Where the finder looks for the templates of a row: the cells (x, h) with 1 ≤ h ≤ row + up
/// and `x_range(h)`; the stone is (0, row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// The stone's row.
    pub row: i8,
    /// How many cells the region reaches beyond the stone's cone on each side.
    pub margin: i8,
    /// How many rows above the stone's row the region holds.
    pub up: i8,
}

impl Region {
    /// The region searched for row `row` by [`find`]: the cone of cells between the stone and
    /// the edge, widened by two cells on each side, with no row above the stone's.
    #[must_use]
    pub fn for_row(row: i8) -> Region {
        Region {
            row,
            margin: 2,
            up: 0,
        }
    }

    /// The columns of row `h` in the region: the stone's cone (the cells of row h whose
    /// distance to the stone is |row − h|) widened by the margin on each side.
    fn x_range(self, h: i8) -> std::ops::RangeInclusive<i8> {
        let (lo, hi) = if h <= self.row {
            (0, self.row - h)
        } else {
            (self.row - h, 0)
        };
        lo - self.margin..=hi + self.margin
    }

    /// The region's cells other than the stone, nearest the stone first: both players' moves
    /// are tried in this order, and the moves that decide are mostly near the stone.
    fn cells(self) -> Vec<(i8, i8)> {
        let mut cells: Vec<(i8, i8)> = (1..=self.row + self.up)
            .flat_map(|h| self.x_range(h).map(move |x| (x, h)))
            .filter(|&c| c != (0, self.row))
            .collect();
        cells.sort_by_key(|&(x, h)| (distance((x, h), (0, self.row)), -h, x));
        cells
    }
}

/// The board of one search: the region's cells as bits of a `u64`.
struct Board {
    cells: Vec<(i8, i8)>,
    /// The neighbours of each cell (bit per cell); the stone is not a cell.
    neighbours: Vec<u64>,
    /// The cells next to the stone.
    at_stone: u64,
    /// The cells of row 1, next to the edge.
    row1: u64,
    /// For each cell, the carriers of the lower rows' templates with their stone there (each
    /// with its mirror image), those that fit in the region.
    known: Vec<Vec<u64>>,
    /// The region drawn on a board, its edge the north one, for the connection engine: the
    /// board's size, the board cell of each region cell, and the stone's.
    n: usize,
    on_board: Vec<usize>,
    stone_on_board: usize,
    /// The board cells beside the region on the left and on the right, up to the stone's row:
    /// the opponent's, and the two sides the opponent joins to cut the stone from the edge.
    /// (The rows above the stone's are left to no one: a chain over the stone cuts nothing.)
    sides: (Bitboard, Bitboard),
}

/// The number of steps between two cells.
fn distance(a: (i8, i8), b: (i8, i8)) -> i8 {
    let (dx, dh) = (a.0 - b.0, a.1 - b.1);
    // In these axes the third cube coordinate is −x − h.
    (dx.abs() + dh.abs() + (dx + dh).abs()) / 2
}

/// The six neighbours of (x, h), in the board's convention.
fn around((x, h): (i8, i8)) -> [(i8, i8); 6] {
    [
        (x + 1, h),
        (x - 1, h),
        (x, h + 1),
        (x, h - 1),
        (x + 1, h - 1),
        (x - 1, h + 1),
    ]
}

impl Board {
    fn new(region: Region, lower: &[Template]) -> Board {
        let cells = region.cells();
        assert!(cells.len() <= 64, "a region fits one u64");
        let index: HashMap<(i8, i8), usize> =
            cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let mask_of = |list: &[(i8, i8)]| -> Option<u64> {
            list.iter()
                .try_fold(0u64, |m, c| index.get(c).map(|&i| m | 1 << i))
        };
        let neighbours = cells
            .iter()
            .map(|&c| mask_of(&around(c)).unwrap_or_else(|| partial(&index, &around(c))))
            .collect();
        let at_stone = partial(&index, &around((0, region.row)));
        let row1 = cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.1 == 1)
            .fold(0, |m, (i, _)| m | 1 << i);
        let known = cells
            .iter()
            .map(|&(x, h)| {
                lower
                    .iter()
                    .filter(|t| t.row == h)
                    .flat_map(|t| [t.clone(), t.mirror()])
                    .filter_map(|t| {
                        let moved: Vec<(i8, i8)> =
                            t.cells.iter().map(|&(cx, ch)| (cx + x, ch)).collect();
                        mask_of(&moved)
                    })
                    .collect()
            })
            .collect();
        // Column x0 + x of row h − 1 for (x, h); the region's widest row sets the size.
        let x0 = -cells.iter().map(|c| c.0).min().unwrap_or(0);
        let n = cells
            .iter()
            .map(|&(x, h)| ((x + x0) as usize + 1).max(h as usize))
            .max()
            .unwrap_or(1)
            .max(region.row as usize);
        assert!(n <= MAX_SIZE, "a region fits the largest board");
        let place = |(x, h): (i8, i8)| (h as usize - 1) * n + (x + x0) as usize;
        let mut sides = (Bitboard::EMPTY, Bitboard::EMPTY);
        for h in 1..=region.row + region.up {
            let xs = region.x_range(h);
            for col in 0..n as i8 {
                let cell = place((col - x0, h));
                if col - x0 < *xs.start() {
                    sides.0 = sides.0.with(cell);
                } else if col - x0 > *xs.end() {
                    sides.1 = sides.1.with(cell);
                }
            }
        }
        Board {
            sides,
            on_board: cells.iter().map(|&c| place(c)).collect(),
            stone_on_board: place((0, region.row)),
            n,
            cells,
            neighbours,
            at_stone,
            row1,
            known,
        }
    }

    /// A set of region cells as board cells.
    fn board_cells(&self, set: u64) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let mut s = set;
        while s != 0 {
            out = out.with(self.on_board[s.trailing_zeros() as usize]);
            s &= s - 1;
        }
        out
    }

    /// A set of board cells as region cells (board cells outside the region are dropped).
    fn region_cells(&self, set: Bitboard) -> u64 {
        self.on_board
            .iter()
            .enumerate()
            .filter(|&(_, &c)| set.has(c))
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The cells of `within` connected to `seed` through `within`.
    fn flood(&self, seed: u64, within: u64) -> u64 {
        let mut reached = seed & within;
        let mut frontier = reached;
        while frontier != 0 {
            let mut grown = 0;
            let mut f = frontier;
            while f != 0 {
                grown |= self.neighbours[f.trailing_zeros() as usize];
                f &= f - 1;
            }
            frontier = grown & within & !reached;
            reached |= frontier;
        }
        reached
    }
}

/// The mask of those of `list` that are cells of the region.
fn partial(index: &HashMap<(i8, i8), usize>, list: &[(i8, i8)]) -> u64 {
    list.iter()
        .filter_map(|c| index.get(c))
        .fold(0, |m, &i| m | 1 << i)
}

/// The game inside a carrier, solved with memory shared by every carrier of one region (a
/// position is the player's cells and the free cells: the opponent holds the rest).
struct Game<'a> {
    board: &'a Board,
    memo: Memo<(u64, u64), bool>,
}

impl Game<'_> {
    /// Whether the player, holding the stone and `mine`, joins the stone to the edge with the
    /// opponent to move and only the cells of `free` left to play.
    fn wins(&mut self, mine: u64, free: u64) -> bool {
        let b = self.board;
        let group = b.flood(b.at_stone & mine, mine);
        if group & b.row1 != 0 {
            return true;
        }
        // The cells the stone can still reach: no other cell is worth a move to either side.
        // For the player a stone there joins nothing. For the opponent it is a pass, which
        // refutes only if the player loses moving first; then the player loses after any
        // opponent move as well (fewer free cells never help), so a move in reach refutes too
        // and nothing is lost by skipping the others.
        let reach = b.flood(b.at_stone | group, mine | free);
        if reach & b.row1 == 0 {
            return false;
        }
        let free = free & reach;
        let mine = mine & reach;
        // A lower row's template from a cell the stone's group holds, inside the player's cells
        // and the free ones: the stone's group reaches the edge by that template's strategy.
        let held = mine | free;
        let mut g = group;
        while g != 0 {
            let s = g.trailing_zeros() as usize;
            g &= g - 1;
            if b.known[s].iter().any(|&c| c & !held == 0) {
                return true;
            }
        }
        if let Some(&v) = self.memo.get(&(mine, free)) {
            return v;
        }
        // The connection engine's rules (not its templates, which this proves), with the stone
        // as one end and the edge as the other: a full connection wins, and the opponent must
        // play in every semi connection's carrier.
        let g = Geometry::of(b.n);
        let stone = Bitboard::single(b.stone_on_board);
        let seen = edge_connection(
            g,
            b.board_cells(mine) | stone,
            b.board_cells(free),
            g.north,
            stone,
            Proves::RulesOnly,
        );
        if seen.full.is_some() {
            self.memo.insert((mine, free), true);
            return true;
        }
        // The opponent's side of the same game: joining the two sides below the stone cuts it
        // from the edge, so a full or semi connection between them wins for the opponent,
        // who is to move.
        if self.cut(mine, free).is_none_or(|c| c.semi.is_some()) {
            self.memo.insert((mine, free), false);
            return false;
        }
        // The player's threats: a free cell p next to the group that joins the edge at once
        // (row 1) or by a lower template with its carrier free. The opponent must play in
        // every threat's cells (p and its carrier), else the player plays p and is joined;
        // threats with no common cell win for the player whatever the opponent plays.
        let mut must = free & b.region_cells(seen.must_play);
        let mut threats = free & next_to(b, group);
        while threats != 0 && must != 0 {
            let p = threats.trailing_zeros() as usize;
            threats &= threats - 1;
            let bit = 1u64 << p;
            if bit & b.row1 != 0 {
                must &= bit;
                continue;
            }
            if let Some(&c) = b.known[p].iter().find(|&&c| c & !(held & !bit) == 0) {
                must &= bit | (c & free);
            }
        }
        let v = must == 0 || self.refutes_none(mine, free, must);
        self.memo.insert((mine, free), v);
        v
    }

    /// What the connection engine proves for the opponent, who holds every region cell
    /// outside `mine` and `free`, between the two sides (see [`Board::sides`]); `None` when
    /// the opponent is fully connected (the stone is cut off).
    fn cut(&self, mine: u64, free: u64) -> Option<EdgeConnection> {
        let b = self.board;
        let g = Geometry::of(b.n);
        let all = (1u64 << b.cells.len()) - 1;
        let theirs = b.board_cells(all & !mine & !free) | b.sides.0 | b.sides.1;
        let c = edge_connection(
            g,
            theirs,
            b.board_cells(free),
            b.sides.0,
            b.sides.1,
            Proves::RulesOnly,
        );
        c.full.is_none().then_some(c)
    }

    /// Whether every opponent move of `moves` has a winning answer for the player.
    fn refutes_none(&mut self, mine: u64, free: u64, moves: u64) -> bool {
        let b = self.board;
        let mut m = moves;
        while m != 0 {
            let o = m.trailing_zeros() as usize;
            m &= m - 1;
            let left = free & !(1 << o);
            let group = b.flood(b.at_stone & mine, mine);
            // The player, to move, must play in every carrier of the opponent's semi
            // connections between the sides, and loses to a full one.
            let Some(cut) = self.cut(mine, left) else {
                return false;
            };
            let left_moves = left & b.region_cells(cut.must_play);
            // Answers next to the stone's group first: they are the likeliest to win.
            let near = left_moves & next_to(b, group);
            let answered = [near, left_moves & !near].into_iter().any(|set| {
                let mut s = set;
                while s != 0 {
                    let p = s.trailing_zeros() as usize;
                    s &= s - 1;
                    if self.wins(mine | 1 << p, left & !(1 << p)) {
                        return true;
                    }
                }
                false
            });
            if !answered {
                return false;
            }
        }
        true
    }
}

/// The cells next to the stone or to a cell of `group`.
fn next_to(b: &Board, group: u64) -> u64 {
    let mut out = b.at_stone;
    let mut s = group;
    while s != 0 {
        out |= b.neighbours[s.trailing_zeros() as usize];
        s &= s - 1;
    }
    out
}

/// Enumerates the minimal carriers of one region (see the module's documentation).
struct Enumeration<'a> {
    game: Game<'a>,
    found: Vec<u64>,
    lost: Vec<u64>,
    seen: HashSet<u64, BuildHasherDefault<MixHasher>>,
}

impl Enumeration<'_> {
    /// Whether the carrier `c` wins, from the carriers found and lost so far when they decide.
    fn carrier_wins(&mut self, c: u64) -> bool {
        if self.found.iter().any(|&f| f & !c == 0) {
            return true;
        }
        if self.lost.iter().any(|&l| l & c == c) {
            return false;
        }
        let v = self.game.wins(0, c);
        if !v {
            self.lost.retain(|&l| l & c != l);
            self.lost.push(c);
        }
        v
    }

    /// A minimal winning carrier inside the winning carrier `c`: each cell dropped in turn,
    /// farthest from the stone first, while the rest wins. One pass suffices: a cell kept
    /// because the rest lost stays needed, as a subset of a losing carrier loses.
    fn shrink(&mut self, c: u64, order: &[usize]) -> u64 {
        let mut c = c;
        for &i in order {
            if c >> i & 1 == 1 && self.carrier_wins(c & !(1 << i)) {
                c &= !(1 << i);
            }
        }
        c
    }

    fn all(&mut self, region: u64, order: &[usize]) {
        if !self.seen.insert(region) || !self.carrier_wins(region) {
            return;
        }
        let m = self.shrink(region, order);
        if !self.found.contains(&m) {
            self.found.push(m);
        }
        let mut cells = m;
        while cells != 0 {
            let i = cells.trailing_zeros();
            cells &= cells - 1;
            self.all(region & !(1 << i), order);
        }
    }
}

/// Every minimal template of row `region.row` whose carrier lies in `region`, given the
/// templates of the lower rows (which shorten the proofs), one of each mirror pair, in a
/// fixed order (see [`Template::canonical`]).
#[must_use]
pub fn find_in(region: Region, lower: &[Template]) -> Vec<Template> {
    let board = Board::new(region, lower);
    let n = board.cells.len();
    // Farthest cells from the stone first, so the first carriers found are compact ones.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| {
        let (x, h) = board.cells[i];
        std::cmp::Reverse((distance((x, h), (0, region.row)), i))
    });
    let mut e = Enumeration {
        game: Game {
            board: &board,
            memo: Memo::default(),
        },
        found: Vec::new(),
        lost: Vec::new(),
        seen: HashSet::default(),
    };
    let whole = if n == 64 { u64::MAX } else { (1 << n) - 1 };
    e.all(whole, &order);
    let mut out: Vec<Template> = e
        .found
        .iter()
        .map(|&m| Template {
            row: region.row,
            cells: (0..n)
                .filter(|&i| m >> i & 1 == 1)
                .map(|i| board.cells[i])
                .collect(),
        })
        .map(Template::canonical)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The minimal templates of rows 2 to `max_row`, each row searched in
/// [`Region::for_row`], lower rows first (their templates shorten the proofs of higher ones);
/// `progress` is called with each row and its templates as it is done.
pub fn find(max_row: i8, mut progress: impl FnMut(i8, &[Template])) -> Vec<Template> {
    let mut all: Vec<Template> = Vec::new();
    for row in 2..=max_row {
        let found = find_in(Region::for_row(row), &all);
        progress(row, &found);
        all.extend(found);
    }
    all
}
