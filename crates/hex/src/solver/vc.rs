//! Virtual connections built from bridges: a cheap, sound way to see that a player connects
//! whatever the opponent does.
//!
//! A player's stones form groups; each edge counts as a group that also holds the stones touching
//! it. Two groups whose empty neighbours share two cells are joined whatever the opponent does:
//! if the opponent takes one shared cell, the player takes the other (the bridge, and with an
//! edge the second-row template). A chain of such links from one edge to the other whose pairs
//! of cells are disjoint is a *full* connection: the opponent can break at most one link per
//! move and the player repairs it at once. If one link of the chain shares a single cell instead,
//! the chain is a *semi* connection: playing that key cell makes it full.
//!
//! A group with a stone on the third row from an edge, and the right eight cells around it
//! empty, also reaches that edge whatever the opponent does (the ziggurat, edge template IIIa):
//! such a link carries all eight cells.
//!
//! The search uses them both ways: a player to move who has a full or semi connection wins; a
//! player to move whose opponent has a full one loses; a player to move whose opponent has a semi
//! one must play inside its cells (its carrier, plus the key), since any other move lets the
//! opponent play the key.

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

struct Groups {
    stones: [Bitboard; MAX_GROUPS],
    libs: [Bitboard; MAX_GROUPS],
    count: usize,
    /// Ziggurats: (stone, carrier) pairs of the first and the second edge, already filtered to
    /// those whose stone is the player's and whose carrier is empty.
    zig_a: Templates,
    zig_b: Templates,
}

/// A short list of ziggurats found on the board.
#[derive(Clone, Copy)]
struct Templates {
    list: [(u8, Bitboard); 8],
    len: usize,
}

impl Templates {
    fn find(all: &[(u8, Bitboard)], stones: Bitboard, empty: Bitboard) -> Templates {
        let mut t = Templates {
            list: [(0, Bitboard::EMPTY); 8],
            len: 0,
        };
        for &(stone, carrier) in all {
            if t.len < t.list.len() && stones.has(stone as usize) && carrier.minus(empty).is_empty()
            {
                t.list[t.len] = (stone, carrier);
                t.len += 1;
            }
        }
        t
    }
}

/// Finds a chain of bridge links for `stones` between edges `a` and `b`, given the empty cells.
/// With `semi` false only full chains are sought.
#[allow(clippy::too_many_arguments)]
pub(crate) fn chain(
    g: &Geometry,
    zig_a: &[(u8, Bitboard)],
    zig_b: &[(u8, Bitboard)],
    stones: Bitboard,
    empty: Bitboard,
    a: Bitboard,
    b: Bitboard,
    semi: bool,
) -> Chain {
    if !reachable(g, stones, empty, a, b) {
        return Chain::None;
    }
    let mut groups = Groups {
        stones: [Bitboard::EMPTY; MAX_GROUPS],
        libs: [Bitboard::EMPTY; MAX_GROUPS],
        count: 2,
        zig_a: Templates::find(zig_a, stones, empty),
        zig_b: Templates::find(zig_b, stones, empty),
    };
    let at_a = g.flood(a, stones);
    let at_b = g.flood(b, stones);
    groups.stones[0] = at_a;
    groups.stones[1] = at_b;
    groups.libs[0] = (g.neighbours(at_a) | a) & empty;
    groups.libs[1] = (g.neighbours(at_b) | b) & empty;
    let mut rest = stones.minus(at_a | at_b);
    while let Some(i) = rest.first() {
        let group = g.flood(Bitboard::single(i), rest);
        rest = rest.minus(group);
        let libs = g.neighbours(group) & empty;
        // A group with fewer than two liberties can carry a chain only through a single cell,
        // which two bridge links would then share; skip it.
        if libs.count() >= 2 && groups.count < MAX_GROUPS {
            groups.stones[groups.count] = group;
            groups.libs[groups.count] = libs;
            groups.count += 1;
        }
    }
    let mut budget = BUDGET;
    let mut search = |allow_semi: bool| {
        dfs(
            &groups,
            0,
            1,
            Bitboard::EMPTY,
            None,
            allow_semi,
            &mut budget,
        )
    };
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
/// Returns the union of the links' cells and the key of the single-cell link, if one was used.
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
    for j in 1..groups.count {
        if visited >> j & 1 == 1 {
            continue;
        }
        let shared = here & groups.libs[j];
        let bridge = match shared.count() {
            0 => None,
            1 if allow_semi && key.is_none() => Some((shared, shared.first())),
            1 => None,
            _ => {
                // Two cells suffice; keeping the others free leaves room for later links.
                let low = shared.first().expect("two or more cells");
                let second = shared
                    .minus(Bitboard::single(low))
                    .first()
                    .expect("two cells");
                Some((Bitboard::single(low).with(second), key))
            }
        };
        // Ziggurats join a group to an edge: the start edge (from group 0) or the target (to 1).
        let zigs = if at == 0 {
            Some((&groups.zig_a, j))
        } else if j == 1 {
            Some((&groups.zig_b, at))
        } else {
            None
        };
        let zig_links = zigs.into_iter().flat_map(|(t, member)| {
            t.list[..t.len]
                .iter()
                .filter(move |(stone, carrier)| {
                    groups.stones[member].has(*stone as usize) && (*carrier & used).is_empty()
                })
                .map(move |&(_, carrier)| (carrier, key))
        });
        for (link, next_key) in bridge.into_iter().chain(zig_links) {
            if j == 1 {
                return Some((used | link, next_key));
            }
            if let Some(found) = dfs(
                groups,
                j,
                visited | 1 << j,
                used | link,
                next_key,
                allow_semi,
                budget,
            ) {
                return Some(found);
            }
        }
    }
    None
}

/// The ziggurats of an n x n board for Black's north edge (row 1): stone (x, 2) with the cells
/// of its template, in both orientations, as (stone index, carrier) pairs.
pub(crate) fn north_ziggurats(n: usize) -> Vec<(u8, Bitboard)> {
    let mut out = Vec::new();
    if n < 3 {
        return out;
    }
    let cells = |list: &[(i64, i64)]| -> Option<Bitboard> {
        let mut b = Bitboard::EMPTY;
        for &(x, y) in list {
            if !(0..n as i64).contains(&x) || !(0..n as i64).contains(&y) {
                return None;
            }
            b = b.with(y as usize * n + x as usize);
        }
        Some(b)
    };
    for x in 0..n as i64 {
        let stone = (2 * n + x as usize) as u8;
        let right = [
            (x + 1, 2),
            (x, 1),
            (x + 1, 1),
            (x + 2, 1),
            (x, 0),
            (x + 1, 0),
            (x + 2, 0),
            (x + 3, 0),
        ];
        let left = [
            (x - 1, 2),
            (x - 1, 1),
            (x, 1),
            (x + 1, 1),
            (x - 1, 0),
            (x, 0),
            (x + 1, 0),
            (x + 2, 0),
        ];
        for shape in [right, left] {
            if let Some(carrier) = cells(&shape) {
                out.push((stone, carrier));
            }
        }
    }
    out
}

/// A quick necessary condition for a chain, computed with a few flood fills: the groups that
/// can be reached from edge `a` by links through shared empty cells (any number of them, and
/// counting the two rows next to an edge as that edge's, for ziggurats) include one that can
/// reach edge `b`. Most positions early in a game fail it, and skip the chain search.
fn reachable(g: &Geometry, stones: Bitboard, empty: Bitboard, a: Bitboard, b: Bitboard) -> bool {
    let near = |edge: Bitboard| {
        let at = g.flood(edge, stones);
        (edge | g.neighbours(edge) | g.neighbours(at)) & empty
    };
    let target = near(b) | g.flood(b, stones);
    let start = near(a);
    let mut groups = g.flood(a, stones);
    loop {
        let libs = (g.neighbours(groups) & empty) | start;
        if !(libs & target).is_empty() || !(groups & target).is_empty() {
            return true;
        }
        let grown = g.flood(groups | (g.neighbours(libs) & stones), stones);
        if grown == groups {
            return false;
        }
        groups = grown;
    }
}
