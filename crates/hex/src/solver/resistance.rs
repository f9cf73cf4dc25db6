//! Move ordering by electrical resistance: each player's board as a circuit between their two
//! edges, and each empty cell scored by the current that flows through it in both circuits.
//!
//! A player's circuit has a node for each edge (with the player's stones joined to it), for
//! each other group of the player's stones and for each empty cell; the opponent's stones are
//! cut out. Two adjacent empty cells are joined by a conductance of 1, an empty cell and a
//! group or edge beside it by 2, and a bridge (a point two steps away with two common empty
//! neighbours, which the player joins whatever the opponent does) by a third of that; a point
//! with three or more common empty neighbours counts as adjacent. An empty cell or a group
//! joined to an edge by an edge template (of row 3 or more, whose carrier holds none of the
//! opponent's stones and whose other stones, if any, are the player's) is linked to that edge
//! too, as Benzene links the points its connections join: by the stone-to-cell conductance
//! divided by one more than the number of cells that every such template's carrier holds (so a
//! bridge would count a third, as above). A unit current enters at
//! one edge and leaves at the other: a cell that carries much of it lies on many short paths
//! of that player's, and is a good move for either player (to build the path or to cut it).
//! The score of a cell is the current through its links, in the two circuits added up.
//!
//! The scores only order the moves the search tries; they never decide a value.

use std::cell::RefCell;

use crate::templates::{self, BoardTemplates};
use crate::{Bitboard, Geometry};

/// The score of every cell (0 for stones and for cells no current reaches).
pub(crate) type Scores = [f32; 128];

/// The conductance between two adjacent empty cells.
const EMPTY_TO_EMPTY: f64 = 1.0;
/// The conductance between an empty cell and a group or edge beside it.
const STONE_TO_EMPTY: f64 = 2.0;
/// A bridge's conductance is the adjacent one divided by this.
const BRIDGE: f64 = 3.0;
/// The node of the sink, which has no row in the system (its voltage is 0).
const SINK: usize = usize::MAX;

/// A circuit's links and matrix, reused from one evaluation to the next on a thread.
#[derive(Default)]
struct Work {
    /// (empty cell's node, other node, conductance); the other node may be [`SINK`].
    links: Vec<(usize, usize, f64)>,
    /// The empty cells beside each group and edge, by node.
    around: Vec<(usize, Bitboard)>,
    /// Each group other than the edges', by node, with its stones.
    groups: Vec<(usize, Bitboard)>,
    /// The conductance matrix, then its Cholesky factor, row by row.
    matrix: Vec<f64>,
    /// The voltages.
    volts: Vec<f64>,
    /// The first column of each row's envelope in the matrix.
    first: Vec<usize>,
}

thread_local! {
    static WORK: RefCell<Work> = RefCell::new(Work::default());
}

/// The scores of the empty cells of the position with Black's stones `black` and White's
/// `white`.
pub(crate) fn scores(g: &Geometry, black: Bitboard, white: Bitboard) -> Scores {
    let empty = g.board.minus(black | white);
    let mut out = [0f32; 128];
    WORK.with_borrow_mut(|work| {
        circuit(g, black, empty, (g.north, g.south), work, &mut out);
        circuit(g, white, empty, (g.west, g.east), work, &mut out);
    });
    out
}

/// The share of an adjacent link's conductance that joins two points whose common empty
/// neighbours are `common`: a bridge's (two of them), the whole (three or more, as if
/// adjacent), or none.
fn bridge_share(common: Bitboard) -> Option<f64> {
    match common.count() {
        0 | 1 => None,
        2 => Some(1.0 / BRIDGE),
        _ => Some(1.0),
    }
}

/// The conductance of the link that the edge templates of the player with `stones` give
/// between the cells `from` (an empty cell, or a group of the player's) and `edge`, if any
/// template applies: one from a cell of `from` whose carrier holds only the player's stones
/// and empty cells and whose other stones the player holds. It is the stone-to-cell
/// conductance divided by one more than the number of empty cells that every such carrier
/// holds: the cells the opponent may take to leave `from` with no template to the edge.
fn template_link(
    g: &Geometry,
    placed: &BoardTemplates,
    (stones, empty): (Bitboard, Bitboard),
    from: Bitboard,
    edge: Bitboard,
) -> Option<f64> {
    let mut common: Option<Bitboard> = None;
    for s in from.cells() {
        for t in placed.at(g, edge, s) {
            if t.stands(stones, stones | empty) {
                let carrier = t.carrier & empty;
                common = Some(common.map_or(carrier, |m| m & carrier));
            }
        }
    }
    common.map(|m| STONE_TO_EMPTY / (1.0 + f64::from(m.count())))
}

/// Adds to `out` the current through each empty cell in the circuit of the player with
/// `stones` between edges `a` and `b`, and returns the current that reaches the sink (1, up to
/// rounding, when the edges are joined through empty cells; 0 when they are not, or are
/// joined by stones already).
fn circuit(
    g: &Geometry,
    stones: Bitboard,
    empty: Bitboard,
    (a, b): (Bitboard, Bitboard),
    work: &mut Work,
    out: &mut Scores,
) -> f64 {
    let open = stones | empty;
    // Only the part of the board joined to the sink takes part: a part cut off would make the
    // system singular, and carries no current.
    let region = g.flood(b, open);
    let at_a = g.flood(a, stones);
    let at_b = g.flood(b, stones);
    if (region & a).is_empty() || !(at_a & at_b).is_empty() {
        return 0.0;
    }
    // Nodes: the empty cells in cell order, then the other groups, then the source (edge a
    // and the stones joined to it); the sink (edge b and its stones) has none. With the cells
    // first, each row of the matrix starts at most two board rows before its diagonal, and the
    // Cholesky factor keeps to that envelope (see below).
    let mut node_of = [SINK; 128];
    let cells = empty & region;
    let mut count = 0;
    for c in cells.cells() {
        node_of[c] = count;
        count += 1;
    }
    // The empty cells beside each group and edge, by node, for the bridges to them.
    let around = &mut work.around;
    around.clear();
    around.push((SINK, (g.neighbours(at_b) | b) & empty & region));
    work.groups.clear();
    let mut rest = (stones & region).minus(at_a | at_b);
    while let Some(i) = rest.first() {
        let group = g.flood(Bitboard::single(i), rest);
        rest = rest.minus(group);
        around.push((count, g.neighbours(group) & empty));
        work.groups.push((count, group));
        count += 1;
    }
    let source = count;
    count += 1;
    around.push((source, (g.neighbours(at_a) | a) & empty & region));
    // From each empty cell: a link to each empty neighbour after it, one to each group or edge
    // it touches, and the bridges to the empty cells after it and to the groups and edges.
    work.links.clear();
    for c in cells.cells() {
        let i = node_of[c];
        let near = g.cell_neighbours(c) & empty;
        for d in near.cells().filter(|&d| d > c) {
            work.links.push((i, node_of[d], EMPTY_TO_EMPTY));
        }
        for &(j, beside) in &work.around {
            if beside.has(c) {
                work.links.push((i, j, STONE_TO_EMPTY));
            } else if let Some(share) = bridge_share(near & beside) {
                work.links.push((i, j, STONE_TO_EMPTY * share));
            }
        }
        let ring = (g.neighbours(near) & empty).minus(near.with(c));
        for d in ring.cells().filter(|&d| d > c) {
            if let Some(share) = bridge_share(near & g.cell_neighbours(d)) {
                work.links.push((i, node_of[d], EMPTY_TO_EMPTY * share));
            }
        }
    }
    // The edge templates: from each empty cell, and from each group, to each edge. Every such
    // link joins a cell's or a group's node to a later one (the source, or the sink).
    let placed = templates::for_board(g.n);
    let froms = cells.cells().map(|c| (node_of[c], Bitboard::single(c)));
    for (i, from) in froms.chain(work.groups.iter().copied()) {
        for (edge, to) in [(a, source), (b, SINK)] {
            if let Some(s) = template_link(g, placed, (stones, empty), from, edge) {
                work.links.push((i, to, s));
            }
        }
    }
    let n = count;
    let m = &mut work.matrix;
    m.clear();
    m.resize(n * n, 0.0);
    // The first column of each row's envelope: every link joins an empty cell's node to a
    // later node (a later cell, a group, the source or the sink).
    let first = &mut work.first;
    first.clear();
    first.extend(0..n);
    for &(i, j, s) in &work.links {
        m[i * n + i] += s;
        if j != SINK {
            m[j * n + j] += s;
            m[j * n + i] -= s;
            first[j] = first[j].min(i);
        }
    }
    // Cholesky factor L (lower triangle of m), row by row: the matrix is symmetric and, every
    // node being joined to the sink, positive definite. A row of L has no entry left of the
    // first of its row in the matrix, so each sum runs over the two rows' envelopes only.
    for j in 0..n {
        let fj = first[j];
        for k in fj..j {
            let mut s = m[j * n + k];
            for t in fj.max(first[k])..k {
                s -= m[j * n + t] * m[k * n + t];
            }
            m[j * n + k] = s / m[k * n + k];
        }
        let mut d = m[j * n + j];
        for t in fj..j {
            d -= m[j * n + t] * m[j * n + t];
        }
        m[j * n + j] = d.max(1e-12).sqrt();
    }
    // Solve L y = e(source), then Lᵀ v = y: the voltages when a unit current enters at the
    // source. The source being the last node, y is 0 but for its last entry.
    let v = &mut work.volts;
    v.clear();
    v.resize(n, 0.0);
    // Lᵀ v = y by the rows of L from the last: each voltage found is taken out of the earlier
    // ones its row's envelope reaches.
    v[source] = 1.0 / m[source * n + source];
    for i in (0..n).rev() {
        v[i] /= m[i * n + i];
        for t in first[i]..i {
            v[t] -= m[i * n + t] * v[i];
        }
    }
    // The current of each link counts for the empty cells at its ends.
    let volt = |j: usize| if j == SINK { 0.0 } else { v[j] };
    let mut current = [0f64; 128];
    let mut to_sink = 0.0;
    for &(i, j, s) in &work.links {
        let flow = s * (volt(i) - volt(j));
        current[i] += flow.abs();
        if j == SINK {
            to_sink += flow;
        } else {
            current[j] += flow.abs();
        }
    }
    for c in cells.cells() {
        out[c] += current[node_of[c]] as f32;
    }
    to_sink
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, Position};

    fn stones(n: usize, moves: &str) -> (&'static Geometry, Bitboard, Bitboard) {
        let p = Position::from_moves(n, moves).expect("valid moves");
        (Geometry::of(n), p.black(), p.white())
    }

    /// The whole unit current reaches the sink (Kirchhoff, so the system is solved right):
    /// on boards with and without stones, for both players.
    #[test]
    fn the_unit_current_reaches_the_sink() {
        for (n, moves) in [
            (3, ""),
            (5, "c3 b4"),
            (6, "a1 f6 c4 d3 b5"),
            (7, "d4 c5 e3"),
        ] {
            let (g, black, white) = stones(n, moves);
            let empty = g.board.minus(black | white);
            WORK.with_borrow_mut(|work| {
                for (mine, ends) in [(black, (g.north, g.south)), (white, (g.west, g.east))] {
                    let mut out = [0f32; 128];
                    let sink = circuit(g, mine, empty, ends, work, &mut out);
                    assert!((sink - 1.0).abs() < 1e-9, "{n}x{n} {moves}: {sink}");
                }
            });
        }
    }

    /// The scores are the same on the position turned by 180° (which swaps each player's two
    /// edges, and so the current's direction only), stones score nothing, and a cell cut off
    /// from both players' paths scores nothing.
    #[test]
    fn scores_respect_the_board() {
        let (g, black, white) = stones(6, "b2 c3 e2 d4 b5");
        let s = scores(g, black, white);
        let turned = scores(g, g.rotate(black), g.rotate(white));
        for (c, &score) in s.iter().enumerate().take(36) {
            let r = g.rotate(Bitboard::single(c)).first().expect("a cell");
            assert!(
                (score - turned[r]).abs() < 1e-4,
                "cell {c}: {score} {}",
                turned[r]
            );
        }
        for c in (black | white).cells() {
            assert_eq!(s[c], 0.0);
        }
        // Black's b1 and White's a2 leave a1 joined to one edge only in each circuit (its
        // other neighbour being the opponent's), so no current flows through it.
        let (g, black, white) = stones(3, "b1 a2");
        let s = scores(g, black, white);
        assert!(s[0].abs() < 1e-6, "a1 scores {}", s[0]);
        assert!(s[4] > 0.1, "b2 scores {}", s[4]);
    }

    /// An edge template's link counts, beside the cell's own stone, the cells whose loss
    /// breaks every template of the cell's to the edge: each of them, given to the opponent,
    /// leaves no link. Cells of the first two rows have none (their adjacencies and bridges
    /// are links already), a row-3 cell of the empty board has one weaker than a bridge's, and
    /// a group has the links of its stones.
    #[test]
    fn an_edge_template_link_counts_the_cells_every_template_needs() {
        let g = Geometry::of(8);
        let placed = templates::for_board(8);
        let none = Bitboard::EMPTY;
        // The first two rows of the north edge, and transposed, the first two columns.
        let near_north = Bitboard((1u128 << 16) - 1);
        for (near, edge) in [(near_north, g.north), (g.transpose(near_north), g.west)] {
            for c in near.cells() {
                let link = template_link(g, placed, (none, g.board), Bitboard::single(c), edge);
                assert!(link.is_none(), "cell {c} is in the edge's first two rows");
            }
        }
        for (name, edge) in [("d3", g.north), ("e6", g.south), ("c4", g.west)] {
            let cell = Cell::parse(name, 8).expect("a cell of 8x8").index(8);
            let from = Bitboard::single(cell);
            let link = template_link(g, placed, (none, g.board), from, edge);
            let link = link.expect("a row-3 template");
            let needed = g
                .board
                .minus(from)
                .cells()
                .filter(|&x| {
                    let empty = g.board.minus(Bitboard::single(x));
                    template_link(g, placed, (none, empty), from, edge).is_none()
                })
                .count();
            assert!(needed >= 2, "{name}: {needed}");
            assert_eq!(link, STONE_TO_EMPTY / (1.0 + needed as f64), "{name}");
            let group = template_link(g, placed, (from, g.board.minus(from)), from, edge);
            assert_eq!(group, Some(link), "{name} as a stone");
        }
    }

    /// On the empty board the centre carries more current than a corner.
    #[test]
    fn the_centre_scores_above_the_corners() {
        let (g, black, white) = stones(7, "");
        let s = scores(g, black, white);
        assert!(
            s[24] > s[0] && s[24] > s[48],
            "{} {} {}",
            s[24],
            s[0],
            s[48]
        );
    }
}
