//! The connection engine: virtual connections between every pair of a player's groups, built
//! bottom-up by H-search (Anshelevich's hierarchical search, as refined in Benzene).
//!
//! The *points* of a player are their two edges, their stone groups (a group touching an edge
//! belongs to that edge) and every empty cell. A *full* connection between points x and y with
//! carrier C (a set of empty cells, never x or y themselves) means: were x and y the player's,
//! the player could join them playing second, using only cells of C. A *semi* connection with
//! key k and carrier C (k in C) means the same once the player has played k. A carrier is all the
//! opponent needs to attack: a move outside it changes nothing.
//!
//! The rules, each sound on its own:
//! - **Base.** Two adjacent points are fully connected, with the empty carrier.
//! - **AND.** Full connections x–z (carrier C1) and z–y (carrier C2) with C1, C2 disjoint and
//!   neither holding the other's far end. If z is a stone group (the player's already), x and y
//!   are fully connected with carrier C1 ∪ C2: an opponent's move touches at most one carrier and
//!   the player answers inside it. If z is an empty cell, they are semi-connected with key z and
//!   carrier C1 ∪ C2 ∪ {z}: the player takes z, and then the same argument applies.
//! - **OR.** Semi connections between x and y whose carriers have an empty intersection make a
//!   full one with their union as carrier: whatever the opponent plays misses some semi's
//!   carrier, and the player answers on that semi's key.
//!
//! Lists are capped (the [`MAX_FULLS`] smallest fulls and [`MAX_SEMIS`] smallest semis a pair),
//! which loses connections but never claims a false one. What the search takes from the engine
//! (see [`EdgeConnection`]): a full or semi connection between the player's two edges, and the
//! intersection of the carriers of the semis between them.

use std::cell::RefCell;

use crate::{Bitboard, Geometry};

/// The most full connections kept for one pair of points.
const MAX_FULLS: usize = 6;
/// The most semi connections kept for one pair of points.
const MAX_SEMIS: usize = 12;
/// The most points (two edges, stone groups, empty cells) a board can have: one per bit.
const POINTS: usize = 128;

/// What the connection engine proves between a player's two edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EdgeConnection {
    /// The carrier of a full connection between the edges: the player is connected whatever
    /// the opponent does.
    pub full: Option<Bitboard>,
    /// A semi connection between the edges: its key and its carrier (the key included). The
    /// player to move wins by playing the key.
    pub semi: Option<(usize, Bitboard)>,
    /// The intersection of the carriers (keys included) of every semi connection kept between
    /// the edges; the whole board when there is none. The opponent of the player, to move, must
    /// play there: any other move lets the player take the key of a semi it misses.
    pub must_play: Bitboard,
}

/// Where a point's connections are kept, reused from one build to the next on a thread.
struct Lists {
    fulls: Vec<Bitboard>,
    full_len: Vec<u8>,
    /// Semi connections: carrier (key included) and key.
    semis: Vec<(Bitboard, u8)>,
    semi_len: Vec<u8>,
    /// For each point, the points it has a full connection with (bit per point).
    linked: Vec<u128>,
    /// Full connections waiting for the AND rule, (x, y, carrier), in the order found.
    /// (Taking the smallest carriers first was measured: more nodes on most 7x7 openings.)
    queue: Vec<(u8, u8, Bitboard)>,
    /// Set once the two edges are fully connected: nothing more is needed.
    done: bool,
}

thread_local! {
    static LISTS: RefCell<Lists> = const {
        RefCell::new(Lists {
            fulls: Vec::new(),
            full_len: Vec::new(),
            semis: Vec::new(),
            semi_len: Vec::new(),
            linked: Vec::new(),
            queue: Vec::new(),
            done: false,
        })
    };
}

/// The board seen as points: which cells each stands for.
struct Points {
    /// Number of points: 0 and 1 the edges, then stone groups, then empty cells.
    count: usize,
    /// The cells a point stands for: a group's stones, an empty cell itself, nothing for an
    /// edge. A carrier never meets them.
    cells: [Bitboard; POINTS],
    /// Whether the point is an empty cell (the only points that can be an AND rule's key).
    is_empty: u128,
}

impl Lists {
    fn reset(&mut self, points: usize) {
        let pairs = points * (points - 1) / 2;
        if self.full_len.len() < pairs {
            self.fulls.resize(pairs * MAX_FULLS, Bitboard::EMPTY);
            self.semis.resize(pairs * MAX_SEMIS, (Bitboard::EMPTY, 0));
            self.full_len.resize(pairs, 0);
            self.semi_len.resize(pairs, 0);
        }
        self.full_len[..pairs].fill(0);
        self.semi_len[..pairs].fill(0);
        self.linked.clear();
        self.linked.resize(points, 0);
        self.queue.clear();
        self.done = false;
    }

    /// The index of the unordered pair {x, y} (x ≠ y): the pairs of the larger point with
    /// each smaller one follow those of the points before it, so the lists of a build are
    /// packed together (half the memory of a square array, and fewer cache misses).
    #[inline(always)]
    fn pair(&self, x: usize, y: usize) -> usize {
        let (lo, hi) = (x.min(y), x.max(y));
        hi * (hi - 1) / 2 + lo
    }

    #[inline(always)]
    fn fulls(&self, x: usize, y: usize) -> &[Bitboard] {
        let p = self.pair(x, y);
        &self.fulls[p * MAX_FULLS..p * MAX_FULLS + self.full_len[p] as usize]
    }

    #[inline(always)]
    fn semis(&self, x: usize, y: usize) -> &[(Bitboard, u8)] {
        let p = self.pair(x, y);
        &self.semis[p * MAX_SEMIS..p * MAX_SEMIS + self.semi_len[p] as usize]
    }

    /// Inserts `item` into a list of `list.len()` slots holding `len`, unless a kept item's
    /// carrier is a subset of its carrier; drops kept supersets; when the list is full,
    /// replaces the largest if the new one is smaller. Smaller carriers are more useful: they
    /// combine more often and narrow the must-play region more.
    fn insert<T: Copy>(list: &mut [T], len: &mut u8, item: T, carrier: impl Fn(T) -> Bitboard) {
        let new = carrier(item);
        let mut n = *len as usize;
        if list[..n].iter().any(|&c| carrier(c) & new == carrier(c)) {
            return;
        }
        let mut i = 0;
        while i < n {
            if carrier(list[i]) & new == new {
                n -= 1;
                list[i] = list[n];
            } else {
                i += 1;
            }
        }
        if n < list.len() {
            list[n] = item;
            n += 1;
        } else {
            let (worst, size) = list
                .iter()
                .enumerate()
                .map(|(i, &c)| (i, carrier(c).count()))
                .max_by_key(|&(_, s)| s)
                .expect("a full list is not empty");
            if new.count() < size {
                list[worst] = item;
            }
        }
        *len = n as u8;
    }

    /// Adds a full connection x–y; queues it for the AND rule if it is new.
    fn add_full(&mut self, x: usize, y: usize, carrier: Bitboard) {
        if self.fulls(x, y).iter().any(|&c| c & carrier == c) {
            return;
        }
        let p = self.pair(x, y);
        Lists::insert(
            &mut self.fulls[p * MAX_FULLS..(p + 1) * MAX_FULLS],
            &mut self.full_len[p],
            carrier,
            |c| c,
        );
        self.linked[x] |= 1 << y;
        self.linked[y] |= 1 << x;
        self.queue.push((x as u8, y as u8, carrier));
        self.done |= x + y == 1;
    }

    /// Adds a semi connection x–y with key `key` (its carrier holds the key) and applies the OR
    /// rule with the semis already kept for the pair.
    fn add_semi(&mut self, x: usize, y: usize, key: usize, carrier: Bitboard) {
        if self.fulls(x, y).iter().any(|&c| c & carrier == c) {
            return;
        }
        if self.semis(x, y).iter().any(|&(c, _)| c & carrier == c) {
            return;
        }
        // OR rule: a kept semi disjoint from the new one, else a greedy run of kept semis that
        // each shrink the intersection, until it is empty. Measured against exhaustive runs of
        // two to four semis, the long greedy runs find the connections that matter more often.
        let mut found = None;
        let mut inter = carrier;
        let mut union = carrier;
        for &(s, _) in self.semis(x, y) {
            if (s & carrier).is_empty() {
                found = Some(s | carrier);
                break;
            }
            if inter & s != inter {
                inter &= s;
                union |= s;
                if inter.is_empty() {
                    found = Some(union);
                    break;
                }
            }
        }
        let p = self.pair(x, y);
        Lists::insert(
            &mut self.semis[p * MAX_SEMIS..(p + 1) * MAX_SEMIS],
            &mut self.semi_len[p],
            (carrier, key as u8),
            |(c, _)| c,
        );
        if let Some(full) = found {
            self.add_full(x, y, full);
        }
    }
}

impl Points {
    /// The points of `stones` between edges `a` and `b` with the given empty cells, and the
    /// base connections between adjacent points.
    fn build(
        g: &Geometry,
        stones: Bitboard,
        empty: Bitboard,
        a: Bitboard,
        b: Bitboard,
        lists: &mut Lists,
    ) -> Points {
        let mut points = Points {
            count: 2,
            cells: [Bitboard::EMPTY; POINTS],
            is_empty: 0,
        };
        // Each point's empty neighbours.
        let mut touch = [Bitboard::EMPTY; POINTS];
        let at_a = g.flood(a, stones);
        let at_b = g.flood(b, stones);
        touch[0] = (g.neighbours(at_a) | a) & empty;
        touch[1] = (g.neighbours(at_b) | b) & empty;
        let mut rest = stones.minus(at_a | at_b);
        while let Some(i) = rest.first() {
            let group = g.flood(Bitboard::single(i), rest);
            rest = rest.minus(group);
            touch[points.count] = g.neighbours(group) & empty;
            points.cells[points.count] = group;
            points.count += 1;
        }
        let first_cell = points.count;
        let mut index = [0u8; 128];
        for c in empty.cells() {
            index[c] = points.count as u8;
            points.cells[points.count] = Bitboard::single(c);
            points.is_empty |= 1 << points.count;
            points.count += 1;
        }
        lists.reset(points.count);
        for (p, around) in touch[..first_cell].iter().enumerate() {
            for c in around.cells() {
                lists.add_full(p, index[c] as usize, Bitboard::EMPTY);
            }
        }
        for c in empty.cells() {
            let later = g.cell_neighbours(c) & empty;
            for d in later.cells().filter(|&d| d > c) {
                lists.add_full(index[c] as usize, index[d] as usize, Bitboard::EMPTY);
            }
        }
        points
    }
}

/// H-search for `stones` between edges `a` and `b`, given the empty cells (the opponent holds
/// the rest): what it proves between the two edges.
pub(crate) fn edge_connection(
    g: &Geometry,
    stones: Bitboard,
    empty: Bitboard,
    a: Bitboard,
    b: Bitboard,
) -> EdgeConnection {
    LISTS.with_borrow_mut(|lists| {
        let points = Points::build(g, stones, empty, a, b, lists);
        saturate(&points, lists);
        let full = lists.fulls(0, 1).iter().copied().min_by_key(|c| c.count());
        let semis = lists.semis(0, 1);
        let semi = semis
            .iter()
            .min_by_key(|(c, _)| c.count())
            .map(|&(c, k)| (k as usize, c));
        let must_play = semis.iter().fold(g.board, |m, &(c, _)| m & c);
        EdgeConnection {
            full,
            semi,
            must_play,
        }
    })
}

/// Applies the AND rule to every queued full connection until nothing new appears or the
/// edges are fully connected.
fn saturate(points: &Points, lists: &mut Lists) {
    let mut next = 0;
    while next < lists.queue.len() && !lists.done {
        let (x, y, carrier) = lists.queue[next];
        next += 1;
        and_rule(points, lists, x as usize, y as usize, carrier);
    }
}

/// The AND rule for a new full connection x–y: joined with every full connection from x or y
/// whose carrier it does not meet.
fn and_rule(points: &Points, lists: &mut Lists, x: usize, y: usize, carrier: Bitboard) {
    for (mid, end) in [(x, y), (y, x)] {
        // The edges are never a midpoint: a connection through an edge joins nothing the
        // search asks about.
        if mid < 2 {
            continue;
        }
        let mid_empty = points.is_empty >> mid & 1 == 1;
        let end_cell = points.cells[end];
        let mut others = lists.linked[mid] & !(1 << end);
        while others != 0 {
            let z = others.trailing_zeros() as usize;
            others &= others - 1;
            if !(carrier & points.cells[z]).is_empty() {
                continue;
            }
            let p = lists.pair(mid, z);
            let len = lists.full_len[p] as usize;
            for k in 0..len {
                let other = lists.fulls[p * MAX_FULLS + k];
                if !(other & carrier).is_empty() || !(other & end_cell).is_empty() {
                    continue;
                }
                if mid_empty {
                    let key = points.cells[mid];
                    lists.add_semi(end, z, key.first().expect("a cell"), carrier | other | key);
                } else {
                    lists.add_full(end, z, carrier | other);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Whether the player's stones `mine` join points x and y (an edge is reached through a
    /// stone on its row).
    fn joined(g: &Geometry, mine: Bitboard, x: Bitboard, y: Bitboard) -> bool {
        let reached = g.flood(x & mine, mine);
        !(reached & y).is_empty()
    }

    /// Whether the player joins x and y playing only inside `free` (the opponent moving first
    /// unless `player_first`), by exhaustive search with memory.
    fn holds(
        g: &Geometry,
        mine: Bitboard,
        free: Bitboard,
        ends: (Bitboard, Bitboard),
        player_first: bool,
        memo: &mut HashMap<(u128, u128, bool), bool>,
    ) -> bool {
        if joined(g, mine, ends.0, ends.1) {
            return true;
        }
        if free.is_empty() {
            return false;
        }
        if let Some(&v) = memo.get(&(mine.0, free.0, player_first)) {
            return v;
        }
        let v = if player_first {
            free.cells().any(|c| {
                let f = free.minus(Bitboard::single(c));
                holds(g, mine.with(c), f, ends, false, memo)
            })
        } else {
            free.cells().all(|c| {
                let f = free.minus(Bitboard::single(c));
                holds(g, mine, f, ends, true, memo)
            })
        };
        memo.insert((mine.0, free.0, player_first), v);
        v
    }

    /// Every connection the engine keeps, for Black (north–south) and White, holds: a full
    /// one with the opponent moving first inside its carrier, a semi one with the player
    /// moving first, the key being in the carrier. Every 3x3 position, and 4x4 ones sampled,
    /// carriers of up to 11 cells.
    #[test]
    fn every_connection_holds() {
        let mut checked = 0u64;
        for (n, step) in [(3, 1), (4, 97)] {
            let g = Geometry::of(n);
            for (black, white) in crate::solver::colourings(n, step) {
                for black_side in [true, false] {
                    let (stones, a, b) = if black_side {
                        (black, g.north, g.south)
                    } else {
                        (white, g.west, g.east)
                    };
                    let empty = g.board.minus(black | white);
                    if g.connects(stones, a, b) {
                        continue;
                    }
                    LISTS.with_borrow_mut(|lists| {
                        let points = Points::build(g, stones, empty, a, b, lists);
                        saturate(&points, lists);
                        // An endpoint as the cells that reach it: an edge's row, a group's
                        // stones, an empty cell (the player's for the test).
                        let end = |p: usize| match p {
                            0 => a,
                            1 => b,
                            _ => points.cells[p],
                        };
                        for x in 0..points.count {
                            for y in x + 1..points.count {
                                let mine = stones | (points.cells[x] | points.cells[y]);
                                let claims = lists
                                    .fulls(x, y)
                                    .iter()
                                    .map(|&c| (c, false))
                                    .chain(lists.semis(x, y).iter().map(|&(c, k)| {
                                        assert!(c.has(k as usize), "the key is in the carrier");
                                        (c, true)
                                    }));
                                for (carrier, semi) in claims {
                                    assert!((carrier & mine).is_empty() && empty & carrier == carrier);
                                    if carrier.count() > 11 {
                                        continue;
                                    }
                                    let mut memo = HashMap::new();
                                    assert!(
                                        holds(g, mine, carrier, (end(x), end(y)), semi, &mut memo),
                                        "{n}x{n} black {black:?} white {white:?}, player black \
                                         {black_side}: points {x} {y}, carrier {carrier:?}, semi {semi}"
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    });
                }
            }
        }
        assert!(checked > 10_000, "{checked} connections checked");
    }
}
