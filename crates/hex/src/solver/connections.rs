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
//! *Pairings* (misère play) are the connections whose carrier is made of disjoint pairs of
//! cells such that the player, holding any one cell of each pair, joins x and y; a semi pairing
//! is a key and such pairs. The rules above keep this form when the OR rule joins two semis
//! only, with disjoint carriers: their pairs and the pair of the two keys (the player holds one
//! key, whose semi then joins them). Base connections have no pairs, and the AND rule unites
//! disjoint pairings (through an empty midpoint, which becomes the key). Built with
//! [`Proves::Pairings`], the engine applies the OR rule in that form only, and every connection
//! it keeps is a pairing.
//!
//! Lists are capped (the [`MAX_FULLS`] smallest fulls and [`MAX_SEMIS`] smallest semis a pair),
//! which loses connections but never claims a false one. What the search takes from the engine
//! (see [`EdgeConnection`]): a full or semi connection between the player's two edges, and the
//! intersection of the carriers of the semis between them.

use std::cell::RefCell;
use std::ops::{BitAnd, BitOr};

use super::sealed::{sealed, End};
use crate::{templates, Bitboard, Geometry};

/// The most full connections kept for one pair of points.
const MAX_FULLS: usize = 6;
/// The most semi connections kept for one pair of points. More semis make more fulls by the
/// OR rule and narrower must-play regions between the edges: measured on one thread against 12,
/// the 49 7x7 openings took 461,538 nodes instead of 531,998 (64.3 against 72.0 s of CPU) and
/// the empty 8x8 board 246,699 instead of 257,996, where 8x8 after d5 took the same. Since the
/// progressive widening, 32 against 24 (`farm-bench`, one sitting): 8x8 after d5, one thread,
/// 36,925 nodes instead of 40,026 and 0.936 of the time (3 pairs); the empty 8x8 board 0.98
/// (3 pairs); the 49 7x7 openings on 2 threads 0.930 (2 pairs); 8x8 after b1, one thread,
/// 223,865 nodes and 46.8 s instead of 315,918 and 64.4 s (one run each). 12 fulls with 24
/// semis took 37,206 nodes and the same time on d5 (before the widening, 16 fulls with 32
/// semis had taken more nodes and time than 24 semis). 32 is the most that fits
/// [`remove_marked`]'s mask; 48 and 64, with the masks made u64, did no better (one thread,
/// against 32: 7x7 after a3, a4, b2, 8x8 after d5 and the empty 8x8 board 56,162 and 59,813
/// nodes against 57,645 in about the same time; with 48, 8x8 after c2 e4 198,485 nodes against
/// 179,798, after c2 e6 382,890 against 296,572, after b1 147,487 against 144,220). Four
/// fulls instead of six took 66,064 nodes on the first five.
const MAX_SEMIS: usize = 32;
// The OR rule and `remove_marked` mark a pair's kept connections one bit each in a u32: a
// larger cap would shift past it and mark the wrong semis, and could join two that meet.
const _: () = assert!(MAX_SEMIS <= u32::BITS as usize);
const _: () = assert!(MAX_FULLS <= u32::BITS as usize);
/// The most points (two edges, stone groups, empty cells) a board can have: one per bit.
const POINTS: usize = 128;

/// For each point p, the number of pairs of points below p, p(p − 1)/2: where p's pairs with
/// the points below it begin among [`Lists::pair`]'s indices. A table read in place of the
/// product on the AND rule's path, and the pair it reads read in place (not copied): 8x8
/// after d5, one thread, 0.967 of the time with the same nodes (`farm-bench`, 3 pairs).
const PAIRS_BELOW: [u16; POINTS] = {
    let mut below = [0u16; POINTS];
    let mut p = 1;
    while p < POINTS {
        below[p] = below[p - 1] + (p - 1) as u16;
        p += 1;
    }
    below
};

/// [`Proves::Connections`] with every committed template.
pub(crate) const ALL_TEMPLATES: Proves = Proves::Connections {
    below: i8::MAX,
    stones: true,
};

/// Which connections the engine builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Proves {
    /// Every connection the rules find, the committed edge templates of the rows below
    /// `below` among the base connections (those with other stones of the player's only if
    /// `stones`): the player joins the points playing second. The template finder, which
    /// proves the templates of a row, relies on the lower rows only, and on the single-stone
    /// templates only while it looks for those with a second stone; everything else takes
    /// them all ([`ALL_TEMPLATES`]).
    Connections { below: i8, stones: bool },
    /// Pairings only (see the module's documentation): the player's opponent, answering every
    /// move in a pair with the other cell of the pair, leaves the player joined.
    Pairings,
}

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
    /// The keys of the semi connections kept between the edges: the player who plays one is
    /// fully connected.
    pub keys: Bitboard,
    /// The carriers (keys included) of the semi connections kept between the edges, the first
    /// `semi_count` of them: the proof that the opponent must play in `must_play`.
    pub semi_carriers: [Bitboard; MAX_SEMIS],
    /// How many of `semi_carriers` are kept.
    pub semi_count: usize,
    /// A sealed set of empty cells (see [`sealed`](super::sealed)), when the edges are not
    /// fully connected and one of the player's full connections between two of their groups,
    /// or a group and an edge, has a carrier the opponent's stones wall in: giving it to the
    /// player leaves the value unchanged. Built for [`Proves::Connections`] only.
    pub sealed: Option<Bitboard>,
}

/// A set of cells as a plain integer, one bit per cell, the form the engine keeps carriers in:
/// `u64` on boards up to 8x8, which halves the memory of the lists and the work of every set
/// operation (the engine's time goes to both), `u128` on larger ones.
trait Cells: Copy + Eq + BitAnd<Output = Self> + BitOr<Output = Self> + 'static {
    const EMPTY: Self;
    /// The set of `board`'s cells (all below the type's width).
    fn of(board: Bitboard) -> Self;
    fn board(self) -> Bitboard;
    fn count(self) -> u32;
    /// The lowest cell of a set that is not empty.
    fn first(self) -> usize;
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }
    /// Runs `f` on this thread's lists for this width.
    fn with_lists<R>(f: impl FnOnce(&mut Lists<Self>) -> R) -> R;
}

macro_rules! cells {
    ($t:ty, $lists:ident) => {
        thread_local! {
            static $lists: RefCell<Lists<$t>> = const { RefCell::new(Lists::new()) };
        }

        impl Cells for $t {
            const EMPTY: $t = 0;
            #[inline(always)]
            fn of(board: Bitboard) -> $t {
                debug_assert!(board.0 >> (<$t>::BITS - 1) >> 1 == 0);
                board.0 as $t
            }
            #[inline(always)]
            fn board(self) -> Bitboard {
                Bitboard(u128::from(self))
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn first(self) -> usize {
                self.trailing_zeros() as usize
            }
            fn with_lists<R>(f: impl FnOnce(&mut Lists<$t>) -> R) -> R {
                $lists.with_borrow_mut(f)
            }
        }
    };
}

cells!(u64, LISTS_64);
cells!(u128, LISTS_128);

/// The full connections kept between one pair of points (its semis are a [`SemiPair`]).
/// Aligned to a cache line: a pair's fulls, count and turns fill one line on boards up to
/// 8x8, so the AND rule, which reads the fulls of many pairs, touches one line a pair.
/// (Keeping the fulls twice, in one row per point, so that the AND rule reads along a row,
/// and clearing nothing between builds, was slower: 8x8 after d5, one thread, 10.27 against
/// 9.61 s of CPU, 3 pairs.)
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Pair<C> {
    fulls: [C; MAX_FULLS],
    full_len: u8,
    /// The place of each full connection's entry in [`Lists::queue`], its turn at the AND
    /// rule, or [`UNKNOWN_TURN`] if the place does not fit. (Two bytes keep the turns in the
    /// fulls' cache line on boards up to 8x8.)
    turns: [u16; MAX_FULLS],
}

/// The semi connections kept between one pair of points, apart from its fulls: the AND rule
/// reads the fulls of many pairs, and with the semis beside them each pair took six cache
/// lines, so the fulls it reads were spread over six times the memory (8x8 after d5, one
/// thread: 0.942 of the time apart, the empty 8x8 board 0.958; 5 and 3 pairs).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct SemiPair<C> {
    semi_len: u8,
    /// The key of each semi connection.
    keys: [u8; MAX_SEMIS],
    /// The carrier of each semi connection, its key included.
    semis: [C; MAX_SEMIS],
}

/// Where a point's connections are kept, reused from one build to the next on a thread.
struct Lists<C> {
    /// The fulls of each pair of points, indexed by [`Lists::pair`].
    pairs: Vec<Pair<C>>,
    /// The semis of each pair, indexed the same way.
    semi_pairs: Vec<SemiPair<C>>,
    /// For each point, the points it has a full connection with (bit per point).
    linked: Vec<u128>,
    /// For each point, the points it has a full connection with an empty carrier: no other
    /// connection between them is ever kept.
    touching: Vec<u128>,
    /// For each pair of [`Lists::touching`] points, the turn of its one full connection (as in
    /// [`Pair::turns`]), indexed by [`Lists::pair`]: the AND rule reads it here, not from the
    /// pair's line. Nearly half the pairs it joins through are touching (8x8 after c2 e4), and
    /// their line held nothing else it needs.
    touching_turns: Vec<u16>,
    /// Full connections waiting for the AND rule, in the order found.
    /// (Taking the smallest carriers first was measured: more nodes on most 7x7 openings.)
    queue: Vec<Queued<C>>,
    /// How many turns of the AND rule have begun (the place in `queue` of the one under way,
    /// plus one; zero while the base connections are added).
    turn: u32,
    /// Set once the two edges are fully connected: nothing more is needed.
    done: bool,
    /// Whether the OR rule keeps to pairings (see [`Proves::Pairings`]).
    pairings: bool,
}

/// A turn too late for [`Pair::turns`]: a full connection with this turn is joined with every
/// other at its ends, as if none had had its turn yet.
const UNKNOWN_TURN: u16 = u16::MAX;

/// A full connection x–y waiting for its turn at the AND rule.
#[derive(Clone, Copy)]
struct Queued<C> {
    x: u8,
    y: u8,
    carrier: C,
    /// The first turn at which it was in its pair's list ([`Lists::turn`] when it was put
    /// there), or `u32::MAX` if it was never put there (its list was full of smaller ones).
    /// Every full whose turn came from then on, and is still kept, was joined with it then:
    /// the AND rule at a turn reads every list at the turn's two ends.
    since: u32,
}

impl<C> Queued<C> {
    /// Whether this full, at turn `turn`, was joined already with a full of its lists whose
    /// turn is `at` ([`Pair::turns`]): that turn came while this one was kept, and before now.
    #[inline(always)]
    fn joined_at(&self, at: u16, turn: u32) -> bool {
        at != UNKNOWN_TURN && self.since <= u32::from(at) && u32::from(at) < turn
    }
}

/// The board seen as points: which cells each stands for.
struct Points<C> {
    /// Number of points: 0 and 1 the edges, then stone groups, then empty cells.
    count: usize,
    /// The cells a point stands for: a group's stones, an empty cell itself, nothing for an
    /// edge. A carrier never meets them.
    cells: [C; POINTS],
    /// Whether the point is an empty cell (the only points that can be an AND rule's key).
    is_empty: u128,
    /// The point of each empty cell (carriers hold only empty cells).
    point_of: [u8; POINTS],
}

/// Removes from the first `len` carriers of `list` (and the same places of `keys`)
/// those whose bit is set in `drop`, each replaced by the last one kept, as a scan from the
/// front would. Returns the new length.
#[inline(always)]
fn remove_marked<C: Copy, K: Copy>(list: &mut [C], keys: &mut [K], len: usize, drop: u32) -> usize {
    let (mut n, mut drop, mut i) = (len, drop, 0);
    while drop >> i != 0 {
        if drop >> i & 1 == 1 {
            n -= 1;
            list[i] = list[n];
            keys[i] = keys[n];
            // The last carrier moves to i, its mark with it (i may be n itself).
            let last = drop >> n & 1;
            drop = (drop & !(1 << i)) | last << i;
            drop &= !(1 << n);
        } else {
            i += 1;
        }
    }
    n
}

/// Puts `carrier` into a list holding `len` carriers: at the end when there is room, else in
/// place of the largest (the last of equals) if it is smaller, since smaller carriers combine
/// more often. Returns where it went, if anywhere, and the new length.
#[inline(always)]
fn place<C: Cells>(list: &mut [C], len: usize, carrier: C) -> (Option<usize>, usize) {
    if len < list.len() {
        list[len] = carrier;
        return (Some(len), len + 1);
    }
    let (worst, size) = list
        .iter()
        .enumerate()
        .map(|(i, &c)| (i, c.count()))
        .max_by_key(|&(_, s)| s)
        .expect("a full list is not empty");
    if carrier.count() < size {
        list[worst] = carrier;
        return (Some(worst), len);
    }
    (None, len)
}

impl<C: Cells> Lists<C> {
    const fn new() -> Lists<C> {
        Lists {
            pairs: Vec::new(),
            semi_pairs: Vec::new(),
            linked: Vec::new(),
            touching: Vec::new(),
            touching_turns: Vec::new(),
            queue: Vec::new(),
            turn: 0,
            done: false,
            pairings: false,
        }
    }

    fn reset(&mut self, points: usize, proves: Proves) {
        let pairs = points * (points - 1) / 2;
        if self.pairs.len() < pairs {
            let none = Pair {
                fulls: [C::EMPTY; MAX_FULLS],
                full_len: 0,
                turns: [0; MAX_FULLS],
            };
            self.pairs.resize(pairs, none);
            let none = SemiPair {
                semi_len: 0,
                keys: [0; MAX_SEMIS],
                semis: [C::EMPTY; MAX_SEMIS],
            };
            self.semi_pairs.resize(pairs, none);
            self.touching_turns.resize(pairs, 0);
        }
        for pair in &mut self.pairs[..pairs] {
            pair.full_len = 0;
        }
        for pair in &mut self.semi_pairs[..pairs] {
            pair.semi_len = 0;
        }
        self.linked.clear();
        self.linked.resize(points, 0);
        self.touching.clear();
        self.touching.resize(points, 0);
        self.queue.clear();
        self.turn = 0;
        self.done = false;
        self.pairings = proves == Proves::Pairings;
    }

    /// The index of the unordered pair {x, y} (x ≠ y): the pairs of the larger point with
    /// each smaller one follow those of the points before it, so the lists of a build are
    /// packed together (half the memory of a square array, and fewer cache misses).
    #[inline(always)]
    fn pair(&self, x: usize, y: usize) -> usize {
        let (lo, hi) = (x.min(y), x.max(y));
        usize::from(PAIRS_BELOW[hi]) + lo
    }

    #[inline(always)]
    fn fulls(&self, x: usize, y: usize) -> &[C] {
        let pair = &self.pairs[self.pair(x, y)];
        &pair.fulls[..pair.full_len as usize]
    }

    /// The semi connections between x and y: (carrier, key).
    #[inline(always)]
    fn semis(&self, x: usize, y: usize) -> impl Iterator<Item = (C, u8)> + '_ {
        let pair = &self.semi_pairs[self.pair(x, y)];
        let n = pair.semi_len as usize;
        pair.semis[..n]
            .iter()
            .copied()
            .zip(pair.keys[..n].iter().copied())
    }

    /// The connections kept between x and y, as boards.
    fn between(&self, x: usize, y: usize) -> Between {
        Between {
            fulls: self.fulls(x, y).iter().map(|c| c.board()).collect(),
            semis: self
                .semis(x, y)
                .map(|(c, k)| (usize::from(k), c.board()))
                .collect(),
        }
    }

    /// Adds a full connection x–y unless a kept one's carrier is a subset of its carrier,
    /// dropping kept supersets (see [`place`] for a full list); queues it for the AND rule
    /// unless a kept one was a subset.
    fn add_full(&mut self, x: usize, y: usize, carrier: C) {
        let p = self.pair(x, y);
        let pair = &mut self.pairs[p];
        let n = pair.full_len as usize;
        let mut supersets = 0u32;
        for (i, &c) in pair.fulls[..n].iter().enumerate() {
            if c & carrier == c {
                return;
            }
            supersets |= u32::from(c & carrier == carrier) << i;
        }
        let n = remove_marked(&mut pair.fulls, &mut pair.turns, n, supersets);
        let (at, n) = place(&mut pair.fulls, n, carrier);
        pair.full_len = n as u8;
        let turn = u16::try_from(self.queue.len()).unwrap_or(UNKNOWN_TURN);
        if let Some(i) = at {
            pair.turns[i] = turn;
        }
        self.linked[x] |= 1 << y;
        self.linked[y] |= 1 << x;
        if carrier.is_empty() {
            // The empty carrier is a subset of every other, so it is placed, alone.
            self.touching[x] |= 1 << y;
            self.touching[y] |= 1 << x;
            self.touching_turns[p] = turn;
        }
        self.queue.push(Queued {
            x: x as u8,
            y: y as u8,
            carrier,
            since: at.map_or(u32::MAX, |_| self.turn),
        });
        self.done |= x + y == 1;
    }

    /// Adds a semi connection x–y with key `key` (its carrier holds the key), kept as fulls
    /// are (see [`Lists::add_full`]) unless a full connection's carrier is a subset of its
    /// carrier, and applies the OR rule with the semis already kept for the pair.
    fn add_semi(&mut self, x: usize, y: usize, key: usize, carrier: C) {
        let p = self.pair(x, y);
        let pair = &self.pairs[p];
        if pair.fulls[..pair.full_len as usize]
            .iter()
            .any(|&c| c & carrier == c)
        {
            return;
        }
        let pair = &self.semi_pairs[p];
        // OR rule: with every kept semi disjoint from the new one, and (not for pairings) a
        // greedy run of the other kept semis, each shrinking the intersection, until it is
        // empty. Measured against exhaustive runs of two to four semis, the long greedy runs
        // find the connections that matter more often. Every disjoint semi counts: a second-row
        // stone next to a cell joined to its edge has three semis to it (that cell and the two
        // edge cells), and joined with the first disjoint one only, the new semi missed the
        // full connection of the other two, the bridge to the edge; with all of them, 7x7
        // after a3 on one thread took 26,097 nodes instead of 61,246, and 8x8 after d5 23,368
        // instead of 140,177.
        let mut found = None;
        // The kept semis disjoint from the new one, a bit each.
        let mut disjoint = 0u32;
        let mut inter = carrier;
        let mut union = carrier;
        let n = pair.semi_len as usize;
        let mut supersets = 0u32;
        for (i, &s) in pair.semis[..n].iter().enumerate() {
            if s & carrier == s {
                return;
            }
            supersets |= u32::from(s & carrier == carrier) << i;
            if (s & carrier).is_empty() {
                disjoint |= 1 << i;
                continue;
            }
            if found.is_some() {
                continue;
            }
            if !self.pairings && inter & s != inter {
                inter = inter & s;
                union = union | s;
                if inter.is_empty() {
                    found = Some(union);
                }
            }
        }
        // The unions are made before the semi list changes, which they read; adding a full
        // connection leaves the semis as they are.
        while disjoint != 0 {
            let i = disjoint.trailing_zeros() as usize;
            disjoint &= disjoint - 1;
            let full = self.semi_pairs[p].semis[i] | carrier;
            self.add_full(x, y, full);
        }
        if let Some(full) = found {
            self.add_full(x, y, full);
        }
        let pair = &mut self.semi_pairs[p];
        let n = remove_marked(&mut pair.semis, &mut pair.keys, n, supersets);
        let (at, n) = place(&mut pair.semis, n, carrier);
        if let Some(i) = at {
            pair.keys[i] = key as u8;
        }
        pair.semi_len = n as u8;
    }
}

impl<C: Cells> Points<C> {
    /// The points of `stones` between edges `a` and `b` with the given empty cells, and the
    /// base connections between adjacent points.
    fn build(
        g: &Geometry,
        stones: Bitboard,
        empty: Bitboard,
        a: Bitboard,
        b: Bitboard,
        proves: Proves,
        lists: &mut Lists<C>,
    ) -> Points<C> {
        let mut points = Points {
            count: 2,
            cells: [C::EMPTY; POINTS],
            is_empty: 0,
            point_of: [0; POINTS],
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
            points.cells[points.count] = C::of(group);
            points.count += 1;
        }
        let first_cell = points.count;
        let index = &mut points.point_of;
        for c in empty.cells() {
            index[c] = points.count as u8;
            points.cells[points.count] = C::of(Bitboard::single(c));
            points.is_empty |= 1 << points.count;
            points.count += 1;
        }
        lists.reset(points.count, proves);
        let index = &points.point_of;
        for (p, around) in touch[..first_cell].iter().enumerate() {
            for c in around.cells() {
                lists.add_full(p, index[c] as usize, C::EMPTY);
            }
        }
        for c in empty.cells() {
            let later = g.cell_neighbours(c) & empty;
            for d in later.cells().filter(|&d| d > c) {
                lists.add_full(index[c] as usize, index[d] as usize, C::EMPTY);
            }
        }
        if let Proves::Connections {
            below,
            stones: with,
        } = proves
        {
            let which = (below, with);
            points.add_templates(g, (stones, empty), (a, at_a), (b, at_b), which, lists);
        }
        points
    }

    /// The template rule: a point holding the stone of an edge template (of a row below
    /// `below`, and with other stones only if `with`) whose other stones the player holds and
    /// whose carrier has no opponent's stone is fully connected to that edge, with the
    /// carrier's empty cells as carrier (cells of the carrier the player holds already only
    /// help).
    ///
    /// Pairings take no templates: a template's strategy need not answer in pairs.
    fn add_templates(
        &self,
        g: &Geometry,
        (stones, empty): (Bitboard, Bitboard),
        (a, at_a): (Bitboard, Bitboard),
        (b, at_b): (Bitboard, Bitboard),
        (below, with): (i8, bool),
        lists: &mut Lists<C>,
    ) {
        let placed = templates::for_board(g.n);
        let open = stones | empty;
        for (edge_point, edge) in [(0, a), (1, b)] {
            // The stones of the other edge's point reach this edge through a template too.
            let other = if edge_point == 0 { at_b } else { at_a };
            let sources = (0..self.count)
                .filter(|&p| p >= 2)
                .map(|p| (p, self.cells[p].board()))
                .chain([(1 - edge_point, other)]);
            for (p, cells) in sources {
                for s in cells.cells() {
                    for t in placed.at(g, edge, s) {
                        let taken = t.stones.is_empty() || with;
                        if t.row < below && taken && t.stands(stones, open) {
                            lists.add_full(p, edge_point, C::of(t.carrier & empty));
                        }
                    }
                }
            }
        }
    }
}

/// H-search for `stones` between edges `a` and `b`, given the empty cells (the opponent holds
/// the rest): what it proves between the two edges, connections of the kind `proves`.
pub(crate) fn edge_connection(
    g: &Geometry,
    stones: Bitboard,
    empty: Bitboard,
    a: Bitboard,
    b: Bitboard,
    proves: Proves,
) -> EdgeConnection {
    if g.n * g.n <= 64 {
        connect::<u64>(g, stones, empty, a, b, proves)
    } else {
        connect::<u128>(g, stones, empty, a, b, proves)
    }
}

/// [`edge_connection`] with carriers kept as `C`.
fn connect<C: Cells>(
    g: &Geometry,
    stones: Bitboard,
    empty: Bitboard,
    a: Bitboard,
    b: Bitboard,
    proves: Proves,
) -> EdgeConnection {
    C::with_lists(|lists| {
        let points = Points::build(g, stones, empty, a, b, proves, lists);
        saturate(&points, lists);
        let full = lists.fulls(0, 1).iter().copied().min_by_key(|c| c.count());
        let semi = lists
            .semis(0, 1)
            .min_by_key(|(c, _)| c.count())
            .map(|(c, k)| (k as usize, c.board()));
        let must_play = lists.semis(0, 1).fold(g.board, |m, (c, _)| m & c.board());
        let keys = lists
            .semis(0, 1)
            .fold(Bitboard::EMPTY, |m, (_, k)| m.with(k as usize));
        let mut semi_carriers = [Bitboard::EMPTY; MAX_SEMIS];
        let mut semi_count = 0;
        for (c, _) in lists.semis(0, 1) {
            semi_carriers[semi_count] = c.board();
            semi_count += 1;
        }
        let sealed = match (full, proves) {
            (None, Proves::Connections { .. }) => {
                sealed_carrier(g, &points, lists, (stones, empty), (a, b))
            }
            _ => None,
        };
        EdgeConnection {
            full: full.map(C::board),
            semi,
            must_play,
            keys,
            semi_carriers,
            semi_count,
            sealed,
        }
    })
}

/// The first sealed set (see [`sealed`]) that a full connection of the player's gives, taking
/// the pairs of points (an edge and a group, or two groups) in the order of their points and the
/// fulls of a pair in the order kept.
fn sealed_carrier<C: Cells>(
    g: &Geometry,
    points: &Points<C>,
    lists: &Lists<C>,
    (stones, empty): (Bitboard, Bitboard),
    (a, b): (Bitboard, Bitboard),
) -> Option<Bitboard> {
    // The edges and the stone groups come before the empty cells among the points.
    let groups = (points.is_empty.trailing_zeros() as usize).min(points.count);
    if groups == 2 {
        return None;
    }
    let (at_a, at_b) = (g.flood(a, stones), g.flood(b, stones));
    let end = |p: usize| match p {
        0 => End {
            stones: at_a,
            touch: a | g.neighbours(at_a),
        },
        1 => End {
            stones: at_b,
            touch: b | g.neighbours(at_b),
        },
        _ => End {
            stones: points.cells[p].board(),
            touch: g.neighbours(points.cells[p].board()),
        },
    };
    for q in 2..groups {
        for p in 0..q {
            let fulls = lists.fulls(p, q);
            if fulls.iter().all(|c| c.is_empty()) {
                continue;
            }
            let free_rows = match p {
                0 => b,
                1 => a,
                _ => a | b,
            };
            let ends = [end(p), end(q)];
            for carrier in fulls.iter().filter(|c| !c.is_empty()) {
                let fill = sealed(g, (stones, empty), ends, free_rows, carrier.board());
                if fill.is_some() {
                    return fill;
                }
            }
        }
    }
    None
}

/// The connections the engine keeps between two of the player's points, for display.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Between {
    /// The carriers of the full connections.
    pub fulls: Vec<Bitboard>,
    /// The semi connections: key and carrier (the key included).
    pub semis: Vec<(usize, Bitboard)>,
}

/// What the engine keeps between the points `x` and `y` once its rules are done, as
/// [`edge_connection`] builds them (it stops once the two edges are fully connected). Each of
/// `x` and `y` is one of the edges `a` and `b`, or a single cell, empty or one of `stones`
/// (a stone stands for its group, and a stone of a group touching an edge for that edge).
/// `None` when one of them is neither, or both stand for the same point (the two edges are one
/// when the stones join them).
pub(crate) fn between(
    g: &Geometry,
    (stones, empty): (Bitboard, Bitboard),
    (a, b): (Bitboard, Bitboard),
    (x, y): (Bitboard, Bitboard),
) -> Option<Between> {
    if g.n * g.n <= 64 {
        between_as::<u64>(g, (stones, empty), (a, b), (x, y))
    } else {
        between_as::<u128>(g, (stones, empty), (a, b), (x, y))
    }
}

/// [`between`] with carriers kept as `C`.
fn between_as<C: Cells>(
    g: &Geometry,
    (stones, empty): (Bitboard, Bitboard),
    (a, b): (Bitboard, Bitboard),
    (x, y): (Bitboard, Bitboard),
) -> Option<Between> {
    C::with_lists(|lists| {
        let points = Points::build(g, stones, empty, a, b, ALL_TEMPLATES, lists);
        saturate(&points, lists);
        let (at_a, at_b) = (g.flood(a, stones), g.flood(b, stones));
        // Stones joining the two edges make them one point, whatever the lists hold.
        let b_point = usize::from((at_a & at_b).is_empty());
        let point = |set: Bitboard| -> Option<usize> {
            if set == a {
                return Some(0);
            }
            if set == b {
                return Some(b_point);
            }
            let c = set.first().filter(|_| set.count() == 1)?;
            if at_a.has(c) {
                Some(0)
            } else if at_b.has(c) {
                Some(b_point)
            } else if empty.has(c) {
                Some(usize::from(points.point_of[c]))
            } else {
                (2..points.count).find(|&p| points.cells[p].board().has(c))
            }
        };
        let (px, py) = (point(x)?, point(y)?);
        (px != py).then(|| lists.between(px, py))
    })
}

/// Applies the AND rule to every queued full connection until nothing new appears or the
/// edges are fully connected.
fn saturate<C: Cells>(points: &Points<C>, lists: &mut Lists<C>) {
    while (lists.turn as usize) < lists.queue.len() && !lists.done {
        let full = lists.queue[lists.turn as usize];
        lists.turn += 1;
        and_rule(points, lists, full);
    }
}

/// The AND rule for a full connection x–y at its turn: joined with every full connection from
/// x or y whose carrier it does not meet, unless that one's turn came while this one was in its
/// list: that turn joined the two already.
fn and_rule<C: Cells>(points: &Points<C>, lists: &mut Lists<C>, full: Queued<C>) {
    let (x, y, carrier) = (usize::from(full.x), usize::from(full.y), full.carrier);
    // This turn's place in the queue.
    let turn = lists.turn - 1;
    // The points inside the carrier (empty cells) cannot be the far end.
    let inside = carrier
        .board()
        .cells()
        .fold(0u128, |m, c| m | 1 << points.point_of[c]);
    for (mid, end) in [(x, y), (y, x)] {
        // The edges are never a midpoint. Through an edge (sound: the edge is the player's,
        // like a stone group) the engine would prove much more, but every pair of points near
        // the edge gets joined and each build took dozens of times longer: 8x8 after d5, one
        // thread, 19,076 nodes instead of 40,026 and 573 s of CPU instead of 8.3 (see the
        // book's chapter on the engine for the narrower forms tried).
        if mid < 2 {
            continue;
        }
        // An empty midpoint is the key of the semis it makes.
        let key = (points.is_empty >> mid & 1 == 1).then(|| points.cells[mid]);
        let end_cell = points.cells[end];
        let mut others = lists.linked[mid] & !(1 << end) & !inside & !lists.touching[end];
        while others != 0 {
            let z = others.trailing_zeros() as usize;
            others &= others - 1;
            // The list of mid–z is read in place, not copied: what is added below joins end
            // and z, and end is neither mid nor z, so that list stays as it is.
            let p = lists.pair(mid, z);
            if lists.touching[mid] >> z & 1 == 1 {
                // Its one full has the empty carrier, which meets nothing.
                if !full.joined_at(lists.touching_turns[p], turn) {
                    join(lists, (end, z), key, carrier);
                }
                continue;
            }
            for i in 0..usize::from(lists.pairs[p].full_len) {
                let (other, at) = (lists.pairs[p].fulls[i], lists.pairs[p].turns[i]);
                if !(other & carrier).is_empty() || !(other & end_cell).is_empty() {
                    continue;
                }
                // The other's turn, if it came while this full was kept, joined the two
                // already: the tests above read the same from either end. Only a full pushed
                // out of its list before that turn (by a smaller one, past the cap, or by a
                // subset, which is joined in its place) misses the join: a lost join loses
                // connections, never claims one. Against joining twice, the same connections
                // in the same order, bar those, in less time.
                if full.joined_at(at, turn) {
                    continue;
                }
                join(lists, (end, z), key, carrier | other);
            }
        }
    }
}

/// The AND rule's result for `end`–`z` through a midpoint whose two full connections have the
/// carriers `union` together: a full connection through a stone group, a semi keyed at the
/// midpoint's cell `key` through an empty cell.
#[inline(always)]
fn join<C: Cells>(lists: &mut Lists<C>, (end, z): (usize, usize), key: Option<C>, union: C) {
    match key {
        Some(key) => lists.add_semi(end, z, key.first(), union | key),
        None => lists.add_full(end, z, union),
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

    /// The positions the tests check, for Black (north–south) and White in turn, where the
    /// player is not connected yet: (stones, empty, edges), every 3x3 position and 4x4 ones
    /// sampled.
    fn cases() -> impl Iterator<Item = (&'static Geometry, Bitboard, Bitboard, (Bitboard, Bitboard))>
    {
        [(3, 1), (4, 97)].into_iter().flat_map(|(n, step)| {
            let g = Geometry::of(n);
            crate::solver::colourings(n, step).flat_map(move |(black, white)| {
                let empty = g.board.minus(black | white);
                [(black, (g.north, g.south)), (white, (g.west, g.east))]
                    .into_iter()
                    .filter(move |&(stones, (a, b))| !g.connects(stones, a, b))
                    .map(move |(stones, edges)| (g, stones, empty, edges))
            })
        })
    }

    /// Whether `carrier` splits into pairs such that `mine`, with any one cell of each pair,
    /// joins the ends: every way of pairing its lowest cell is tried, and for a full pairing
    /// every choice of one cell a pair.
    fn is_pairing(
        g: &Geometry,
        mine: Bitboard,
        carrier: Bitboard,
        ends: (Bitboard, Bitboard),
        pairs: &mut Vec<(usize, usize)>,
    ) -> bool {
        let Some(c) = carrier.first() else {
            return (0..1u32 << pairs.len()).all(|choice| {
                let held = pairs.iter().enumerate().fold(mine, |m, (i, &(x, y))| {
                    m.with(if choice >> i & 1 == 1 { x } else { y })
                });
                joined(g, held, ends.0, ends.1)
            });
        };
        let rest = carrier.minus(Bitboard::single(c));
        rest.cells().any(|d| {
            pairs.push((c, d));
            let found = is_pairing(g, mine, rest.minus(Bitboard::single(d)), ends, pairs);
            pairs.pop();
            found
        })
    }

    /// Every connection the engine keeps with carriers of type `C` holds: a full one with the
    /// opponent moving first inside its carrier, a semi one with the player moving first, the
    /// key being in the carrier; carriers of up to 11 cells. With [`Proves::Pairings`], each is
    /// a pairing as well (carriers of up to 10 cells). Returns how many were checked.
    fn every_connection_holds_with<C: Cells>(proves: Proves) -> u64 {
        let mut checked = 0u64;
        for (g, stones, empty, (a, b)) in cases() {
            C::with_lists(|lists| {
                let points = Points::build(g, stones, empty, a, b, proves, lists);
                saturate(&points, lists);
                // An endpoint as the cells that reach it: an edge's row, a group's stones, an
                // empty cell (the player's for the test).
                let end = |p: usize| match p {
                    0 => a,
                    1 => b,
                    _ => points.cells[p].board(),
                };
                for x in 0..points.count {
                    for y in x + 1..points.count {
                        let mine = stones | points.cells[x].board() | points.cells[y].board();
                        let claims = lists.fulls(x, y).iter().map(|&c| (c.board(), None)).chain(
                            lists.semis(x, y).map(|(c, k)| {
                                assert!(c.board().has(k as usize), "the key is in the carrier");
                                (c.board(), Some(k as usize))
                            }),
                        );
                        for (carrier, key) in claims {
                            let semi = key.is_some();
                            assert!((carrier & mine).is_empty() && empty & carrier == carrier);
                            if carrier.count() > 11 {
                                continue;
                            }
                            let mut memo = HashMap::new();
                            assert!(
                                holds(g, mine, carrier, (end(x), end(y)), semi, &mut memo),
                                "{0}x{0} stones {stones:?} empty {empty:?}: points {x} {y}, \
                                 carrier {carrier:?}, semi {semi}",
                                g.n
                            );
                            if proves == Proves::Pairings && carrier.count() <= 10 {
                                let (held, pairs) = match key {
                                    Some(k) => (mine.with(k), carrier.minus(Bitboard::single(k))),
                                    None => (mine, carrier),
                                };
                                assert!(
                                    is_pairing(g, held, pairs, (end(x), end(y)), &mut Vec::new()),
                                    "{0}x{0} stones {stones:?} empty {empty:?}: points {x} {y}, \
                                     carrier {carrier:?}, key {key:?} is no pairing",
                                    g.n
                                );
                            }
                            checked += 1;
                        }
                    }
                }
            });
        }
        checked
    }

    /// Every pair of disjoint semis makes its full connection: on 5x5, Black's c4 (second row)
    /// beside d4, which touches Black's d5 and so the south edge, has three semis to that edge,
    /// keyed d4, b5 and c5, and all three pairs of them are kept as fulls, whatever order the
    /// semis come in (joined with the first disjoint semi only, one pair was missing).
    /// A full skips, as joined already, exactly the fulls whose turn came while it was kept
    /// and before its own: not those whose turn came before it was kept or comes after its
    /// own, nor any when it was never kept, nor one whose turn did not fit.
    #[test]
    fn a_full_skips_the_joins_made_at_earlier_turns() {
        let kept_from = |since| Queued {
            x: 2,
            y: 3,
            carrier: 0u64,
            since,
        };
        let full = kept_from(3);
        let skipped: Vec<u16> = (0..10).filter(|&at| full.joined_at(at, 7)).collect();
        assert_eq!(skipped, [3, 4, 5, 6]);
        assert!((0..10).all(|at| !kept_from(u32::MAX).joined_at(at, 7)));
        assert!(!kept_from(0).joined_at(UNKNOWN_TURN, u32::MAX));
        assert!(kept_from(0).joined_at(UNKNOWN_TURN - 1, u32::MAX));
    }

    #[test]
    fn every_disjoint_pair_of_semis_is_joined() {
        let g = Geometry::of(5);
        let cell = |name: &str| Bitboard::single(crate::Cell::parse(name, 5).unwrap().index(5));
        let stones = cell("c4") | cell("d5");
        for proves in [ALL_TEMPLATES, Proves::Pairings] {
            u64::with_lists(|lists| {
                let points = Points::build(
                    g,
                    stones,
                    g.board.minus(stones),
                    g.north,
                    g.south,
                    proves,
                    lists,
                );
                saturate(&points, lists);
                let c4 = (2..points.count)
                    .find(|&p| points.cells[p].board() == cell("c4"))
                    .expect("c4 is a point of its own");
                for pair in [["d4", "b5"], ["d4", "c5"], ["b5", "c5"]] {
                    let carrier = cell(pair[0]) | cell(pair[1]);
                    assert!(
                        lists.fulls(c4, 1).iter().any(|c| c.board() == carrier),
                        "{proves:?}: no full connection c4-south with carrier {pair:?}"
                    );
                }
            });
        }
    }

    #[test]
    fn every_connection_holds() {
        let checked = every_connection_holds_with::<u64>(ALL_TEMPLATES);
        assert!(checked > 10_000, "{checked} connections checked");
    }

    /// [`between`] answers with the lists of the points the ends stand for: an edge, the
    /// group of a stone (the edge's, if the group touches it), an empty cell; and with
    /// nothing when both ends stand for one point or one is the opponent's stone.
    #[test]
    fn between_reads_the_lists_of_the_ends_points() {
        let mut answered = 0;
        // One case in ten: each asks about every pair of ends, a build each.
        for (g, stones, empty, (a, b)) in cases().step_by(10) {
            let ends: Vec<Bitboard> = [a, b]
                .into_iter()
                .chain(g.board.cells().map(Bitboard::single))
                .collect();
            // The expected answers first: `between` takes the thread's lists itself.
            let expected: Vec<Option<Between>> = u64::with_lists(|lists| {
                let points = Points::build(g, stones, empty, a, b, ALL_TEMPLATES, lists);
                saturate(&points, lists);
                let point = |end: Bitboard| -> Option<usize> {
                    if end == a || end == b {
                        return Some(usize::from(end == b));
                    }
                    let cells = if stones & end == end {
                        let group = g.flood(end, stones);
                        if !(group & a).is_empty() {
                            return Some(0);
                        }
                        if !(group & b).is_empty() {
                            return Some(1);
                        }
                        group
                    } else if empty & end == end {
                        end
                    } else {
                        return None;
                    };
                    (2..points.count).find(|&p| points.cells[p].board() == cells)
                };
                ends.iter()
                    .enumerate()
                    .flat_map(|(i, &x)| ends[i + 1..].iter().map(move |&y| (x, y)))
                    .map(|(x, y)| match (point(x), point(y)) {
                        (Some(px), Some(py)) if px != py => Some(lists.between(px, py)),
                        _ => None,
                    })
                    .collect()
            });
            let pairs = ends
                .iter()
                .enumerate()
                .flat_map(|(i, &x)| ends[i + 1..].iter().map(move |&y| (x, y)));
            for ((x, y), want) in pairs.zip(expected) {
                let got = between(g, (stones, empty), (a, b), (x, y));
                answered += usize::from(got.as_ref().is_some_and(|b| !b.fulls.is_empty()));
                assert_eq!(got, want, "{0}x{0} stones {stones:?}: {x:?} {y:?}", g.n);
            }
        }
        assert!(answered > 100, "{answered} answers with a full connection");
    }

    /// Every committed template with other stones, placed on Black's north edge of an 11x11
    /// board with its carrier empty and every other cell White's, joins the stone to the edge
    /// when Black holds the other stones, and nothing joins them when White holds those: the
    /// engine takes such a template only where its stones are the player's.
    #[test]
    fn a_template_with_other_stones_needs_them() {
        let n = 11;
        let g = Geometry::of(n);
        let at = |(x, h): (i8, i8)| (h as usize - 1) * n + (x + 3) as usize;
        let set = |cells: &[(i8, i8)]| cells.iter().fold(Bitboard::EMPTY, |b, &c| b.with(at(c)));
        let mut checked = 0;
        for t in templates::committed()
            .iter()
            .filter(|t| !t.stones.is_empty())
        {
            let stone = Bitboard::single(at((0, t.row)));
            let empty = set(&t.cells);
            for held in [true, false] {
                let black = if held { stone | set(&t.stones) } else { stone };
                let found = between(g, (black, empty), (g.north, g.south), (g.north, stone))
                    .is_some_and(|b| !b.fulls.is_empty());
                assert_eq!(found, held, "{}", t.diagram());
            }
            checked += 1;
        }
        assert!(checked > 50, "{checked} templates with other stones");
    }

    /// The same with the wide carriers of boards over 8x8, which the search meets on those
    /// boards only.
    #[test]
    fn every_connection_holds_with_wide_carriers() {
        let checked = every_connection_holds_with::<u128>(ALL_TEMPLATES);
        assert!(checked > 10_000, "{checked} connections checked");
    }

    /// Every pairing the engine keeps holds and is a pairing.
    #[test]
    fn every_pairing_is_one() {
        let checked = every_connection_holds_with::<u64>(Proves::Pairings);
        assert!(checked > 10_000, "{checked} pairings checked");
    }

    /// Both carrier widths find exactly the same connections between the edges (the narrow
    /// one is a change of representation only).
    #[test]
    fn both_widths_agree() {
        let mut compared = 0;
        for (g, stones, empty, edges) in cases() {
            for proves in [ALL_TEMPLATES, Proves::Pairings] {
                let narrow = connect::<u64>(g, stones, empty, edges.0, edges.1, proves);
                let wide = connect::<u128>(g, stones, empty, edges.0, edges.1, proves);
                assert_eq!(
                    narrow, wide,
                    "{0}x{0} stones {stones:?} empty {empty:?} {proves:?}",
                    g.n
                );
                compared += 1;
            }
        }
        assert!(compared > 1_000, "{compared} positions compared");
    }
}
