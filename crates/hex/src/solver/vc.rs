//! Virtual connections: a cheap, sound way to see that a player connects whatever the opponent
//! does.
//!
//! A player's stones form groups; each edge counts as a group that also holds the stones touching
//! it. Links between groups hold whatever the opponent does:
//!
//! - two groups whose empty neighbours share two cells (the bridge; with an edge, the second-row
//!   template): if the opponent takes one shared cell, the player takes the other;
//! - a group and an edge joined by two *semi* links with disjoint cells (the OR rule), where a
//!   semi link goes through one empty key cell: the group touches or bridges to the key, and the
//!   key touches or bridges to the edge. Playing the key makes the link full, so the opponent,
//!   who can spoil only one of the two, leaves the other for the player. This finds the ziggurat
//!   (edge template IIIa) and its relatives wherever they stand.
//!
//! A chain of full links from one edge to the other whose cells are disjoint is a *full*
//! connection: the opponent can break at most one link per move and the player repairs it at
//! once. With one semi link (a single shared cell, or a semi link to an edge) instead, the chain
//! is a *semi* connection: playing its key makes it full.
//!
//! Misère play uses these chains as pairing strategies (see `Search::analyse`): each is made of
//! disjoint pairs of cells. Normal play uses the H-search of the connection engine
//! (`connections`), which finds far more connections, but not in the form of pairings.

use std::cell::{Cell, RefCell};

use crate::{Bitboard, Geometry};

/// A connection found between a player's two edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chain {
    /// No chain was found (there may still be a connection that this analysis cannot see).
    None,
    /// Connected whatever the opponent does; the carrier holds the cells the opponent may
    /// attack.
    Full(Bitboard),
    /// Connected once the key cell is played; the carrier holds the other cells involved.
    Semi(usize, Bitboard),
}

/// The most groups considered; stones beyond are ignored (a sound omission: fewer chains found).
const MAX_GROUPS: usize = 32;
/// A bound on the depth-first search for a chain, to keep each node cheap.
const BUDGET: u32 = 96;
/// The most semi links kept between a group and an edge.
const MAX_SEMIS: usize = 8;
/// The most full links kept between a group and an edge.
const MAX_FULLS: usize = 4;

struct Groups<'g> {
    g: &'g Geometry,
    empty: Bitboard,
    libs: [Bitboard; MAX_GROUPS],
    count: usize,
    /// Links of group i to edge e (0 or 1) by the OR rule: `edge[2 * i + e]`, computed when
    /// the chain search first asks for them (most are never asked for).
    edge: RefCell<Vec<EdgeLinks>>,
    /// Which entries of `edge` hold this call's links: bit 2 * i + e.
    computed: Cell<u64>,
}

thread_local! {
    /// The links' storage, reused from one call to the next to avoid an allocation per node.
    static SCRATCH: Cell<Vec<EdgeLinks>> = const { Cell::new(Vec::new()) };
}

const NO_LINKS: EdgeLinks = EdgeLinks {
    full: [Bitboard::EMPTY; MAX_FULLS],
    fulls: 0,
    semi_cells: [Bitboard::EMPTY; MAX_SEMIS],
    semi_key: [0; MAX_SEMIS],
    semis: 0,
};

/// The links between one group and one edge found by the OR rule.
#[derive(Clone, Copy)]
struct EdgeLinks {
    full: [Bitboard; MAX_FULLS],
    fulls: usize,
    /// The other cells of each semi link, and its key.
    semi_cells: [Bitboard; MAX_SEMIS],
    semi_key: [u8; MAX_SEMIS],
    semis: usize,
}

/// Two cells of `set` (the lowest), if it has two.
#[inline(always)]
fn two_of(set: Bitboard) -> Option<Bitboard> {
    let low = set.first()?;
    let second = set.minus(Bitboard::single(low)).first()?;
    Some(Bitboard::single(low).with(second))
}

impl Groups<'_> {
    /// The links of group `from` to edge `e`, computed on first use in this call.
    fn edge_links(&self, from: usize, e: usize) -> EdgeLinks {
        let k = 2 * from + e;
        if self.computed.get() >> k & 1 == 1 {
            return self.edge.borrow()[k];
        }
        let links = self.compute_edge_links(from, e);
        self.edge.borrow_mut()[k] = links;
        self.computed.set(self.computed.get() | 1 << k);
        links
    }

    /// The semi links from group `from` to the edge group `edge` through one empty key cell,
    /// and the full links made of two of them with disjoint cells.
    fn compute_edge_links(&self, from: usize, edge: usize) -> EdgeLinks {
        if from == edge {
            return NO_LINKS;
        }
        let g = self.g;
        let (libs, edge_libs) = (self.libs[from], self.libs[edge]);
        let mut out = NO_LINKS;
        // A key touches or bridges to both sides, so it lies within two steps of each.
        let candidates =
            (libs | g.neighbours(libs)) & (edge_libs | g.neighbours(edge_libs)) & self.empty;
        for x in candidates.cells() {
            if out.semis == MAX_SEMIS {
                break;
            }
            let around = g.cell_neighbours(x) & self.empty;
            // The group to the key: touching it, or a bridge through two shared cells.
            let to_key = if libs.has(x) {
                Bitboard::EMPTY
            } else {
                match two_of(around & libs) {
                    Some(c) => c,
                    None => continue,
                }
            };
            // The key to the edge: touching it, or a bridge avoiding the first part's cells.
            let to_edge = if edge_libs.has(x) {
                Bitboard::EMPTY
            } else {
                match two_of((around & edge_libs).minus(to_key)) {
                    Some(c) => c,
                    None => continue,
                }
            };
            out.semi_cells[out.semis] = to_key | to_edge;
            out.semi_key[out.semis] = x as u8;
            out.semis += 1;
        }
        for i in 0..out.semis {
            let (xi, ci) = (out.semi_key[i], out.semi_cells[i]);
            let cells_i = ci.with(xi as usize);
            for j in i + 1..out.semis {
                let (xj, cj) = (out.semi_key[j], out.semi_cells[j]);
                let cells_j = cj.with(xj as usize);
                if (cells_i & cells_j).is_empty() && out.fulls < MAX_FULLS {
                    out.full[out.fulls] = cells_i | cells_j;
                    out.fulls += 1;
                }
            }
        }
        out
    }
}

/// Finds a chain for `stones` between edges `a` and `b`, given the empty cells. With `semi`
/// false only full chains are sought.
pub(crate) fn chain(
    g: &Geometry,
    stones: Bitboard,
    empty: Bitboard,
    a: Bitboard,
    b: Bitboard,
    semi: bool,
) -> Chain {
    let mut groups = Groups {
        g,
        empty,
        libs: [Bitboard::EMPTY; MAX_GROUPS],
        count: 2,
        edge: RefCell::new(SCRATCH.take()),
        computed: Cell::new(0),
    };
    let at_a = g.flood(a, stones);
    let at_b = g.flood(b, stones);
    groups.libs[0] = (g.neighbours(at_a) | a) & empty;
    groups.libs[1] = (g.neighbours(at_b) | b) & empty;
    let mut rest = stones.minus(at_a | at_b);
    while let Some(i) = rest.first() {
        let group = g.flood(Bitboard::single(i), rest);
        rest = rest.minus(group);
        let libs = g.neighbours(group) & empty;
        // A group with fewer than two liberties can carry a chain only through a single cell,
        // which two links would then share; skip it.
        if libs.count() >= 2 && groups.count < MAX_GROUPS {
            groups.libs[groups.count] = libs;
            groups.count += 1;
        }
    }
    groups.edge.get_mut().resize(2 * MAX_GROUPS, NO_LINKS);
    let found = find(&groups, semi);
    SCRATCH.set(groups.edge.into_inner());
    found
}

/// The full chain, or failing that (with `semi`) a semi chain, between groups 0 and 1.
fn find(groups: &Groups, semi: bool) -> Chain {
    let mut budget = BUDGET;
    let mut search =
        |allow_semi: bool| dfs(groups, 0, 1, Bitboard::EMPTY, None, allow_semi, &mut budget);
    if let Some((carrier, _)) = search(false) {
        return Chain::Full(carrier);
    }
    if semi {
        if let Some((carrier, Some(key))) = search(true) {
            return Chain::Semi(key, carrier.minus(Bitboard::single(key)));
        }
    }
    Chain::None
}

/// Depth-first search from group `at` to group 1 through links whose cells avoid `used`.
/// Returns the union of the links' cells and the key of the semi link, if one was used.
fn dfs(
    groups: &Groups,
    at: usize,
    visited: u32,
    used: Bitboard,
    key: Option<usize>,
    allow_semi: bool,
    budget: &mut u32,
) -> Option<(Bitboard, Option<usize>)> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let here = groups.libs[at].minus(used);
    let semi_ok = allow_semi && key.is_none();
    let mut follow = |j: usize, link: Bitboard, next_key: Option<usize>| {
        if !(link & used).is_empty() || next_key.is_some_and(|k| used.has(k)) {
            return None;
        }
        if j == 1 {
            return Some((used | link, next_key));
        }
        dfs(
            groups,
            j,
            visited | 1 << j,
            used | link,
            next_key,
            allow_semi,
            budget,
        )
    };
    for j in 1..groups.count {
        if visited >> j & 1 == 1 {
            continue;
        }
        let shared = here & groups.libs[j];
        let found = match shared.count() {
            0 => None,
            1 if semi_ok => follow(j, shared, shared.first()),
            1 => None,
            // Two cells suffice; keeping the others free leaves room for later links.
            _ => follow(j, two_of(shared).expect("two or more cells"), key),
        };
        if found.is_some() {
            return found;
        }
        // Links to an edge by the OR rule: from the start edge (group 0) to j, or from `at`
        // to the target edge (group 1).
        let (group, e) = match (at, j) {
            (0, _) => (j, 0),
            (_, 1) => (at, 1),
            _ => continue,
        };
        let edge = groups.edge_links(group, e);
        for &c in &edge.full[..edge.fulls] {
            if let Some(found) = follow(j, c, key) {
                return Some(found);
            }
        }
        if semi_ok {
            for (&x, &c) in edge.semi_key[..edge.semis].iter().zip(&edge.semi_cells) {
                if let Some(found) = follow(j, c.with(x as usize), Some(x as usize)) {
                    return Some(found);
                }
            }
        }
    }
    None
}
