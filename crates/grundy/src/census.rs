//! The census of short octal codes: every game `0.d1…dD` and `4.d1…dD`, each computed until its
//! period is proven or a heap bound is reached, then classified.
//!
//! **Which games.** For D digits, the codes are `P.d1…dD` with P in {0, 4} and each dk an octal
//! digit 0–7, listed for P = 0 first, then P = 4, and within each by the digits d1…dD read as
//! one octal number (d1 most significant): the order of the published tables (0.007 before
//! 0.01, 0.01 before 0.011). A code whose last digits are 0 is the shorter game without them
//! (`0.010` is `0.01`), so it is listed under that shortest code; as every code of the census
//! has exactly D digits, no game appears twice. 2·8^D games in all.
//!
//! **Classes.** Each game is
//! - *periodic*: the sparse engine's values reach the last heap a proof needs, and the proof is
//!   checked again by [`check_proof`], which is written apart from [`crate::period`];
//! - *equivalent* to an earlier game of the list (see [`find_equivalences`]): periodic as well,
//!   with its own preperiod and period, and in addition the same values as that game, shifted,
//!   from some heap on;
//! - *unsolved*: no period proven up to the heap bound (or up to the last heap whose value fits
//!   in 16 bits);
//! - or *equivalent* to an earlier unsolved game whose code [`same_table_as`] proves to give the
//!   very same table; `zermelo grundy census` does not compute such a game, it gives it that
//!   game's values ([`Entry::twin`]).
//!
//! **Rare values** ([`RareStats`]): with a mask m, a heap n ≥ 1 is *rare* when
//! `popcount(G(n) & m)` is even. The census reports the mask with the fewest rare heaps among
//! the heaps computed (the smallest such mask on ties), the number of rare heaps and the last.

mod twins;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::period::{PeriodWatch, Periodicity, ProofRule};
use crate::{GrundyError, OctalGame, SparseEngine};
pub use twins::same_table_as;

/// The most digits a census takes: 2·8^4 = 8192 games.
pub const MAX_CENSUS_DIGITS: usize = 4;

/// The largest shift an equivalence may have (see [`find_equivalences`]).
pub const MAX_SHIFT: usize = 3;

/// Heaps computed between two looks at the stop flag.
const CHUNK: usize = 1 << 12;

/// Rare values are looked for with masks below this (the values' low 12 bits), which keeps the
/// search at 2^12 masks per distinct value.
const MASK_LIMIT: usize = 1 << 12;

/// Two periodic games are compared over at most this many heaps (the lcm of their periods):
/// beyond, they are not called equivalent.
const MAX_COMPARED: usize = 1 << 22;

/// The games of a census of `digits` digits after the point, in table order.
///
/// ```
/// use zermelo_grundy::census::games;
/// let list = games(2).unwrap();
/// assert_eq!(list.len(), 128);
/// let codes: Vec<String> = list.iter().take(10).map(|g| g.to_string()).collect();
/// assert_eq!(codes, ["0.0", "0.01", "0.02", "0.03", "0.04", "0.05", "0.06", "0.07", "0.1", "0.11"]);
/// assert_eq!(list[64].to_string(), "4.0");
/// ```
pub fn games(digits: usize) -> Result<Vec<OctalGame>, GrundyError> {
    if !(1..=MAX_CENSUS_DIGITS).contains(&digits) {
        return Err(GrundyError::Unsupported(format!(
            "a census takes 1 to {MAX_CENSUS_DIGITS} digits, not {digits}"
        )));
    }
    let mut out = Vec::with_capacity(2 << (3 * digits));
    for prefix in [0, 4] {
        for number in 0..1usize << (3 * digits) {
            let code: String = (0..digits)
                .rev()
                .map(|k| char::from(b'0' + ((number >> (3 * k)) & 7) as u8))
                .collect();
            out.push(format!("{prefix}.{code}").parse()?);
        }
    }
    Ok(out)
}

/// The rare-value statistics of a table (see the module notes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RareStats {
    /// The mask with the fewest rare heaps (0 when every value is 0: every heap is rare).
    pub mask: u16,
    /// How many heaps n ≥ 1 are rare.
    pub count: usize,
    /// The last rare heap, if any.
    pub last: Option<usize>,
}

impl RareStats {
    /// The statistics of the values `g` = G(0..len).
    ///
    /// ```
    /// use zermelo_grundy::census::RareStats;
    /// // Values 1 and 2 have odd parity under mask 3; 0 and 3 even (rare).
    /// let stats = RareStats::of(&[0, 1, 2, 1, 2, 3, 1]);
    /// assert_eq!((stats.mask, stats.count, stats.last), (3, 1, Some(5)));
    /// ```
    #[must_use]
    pub fn of(g: &[u16]) -> Self {
        let max = g.iter().skip(1).copied().max().unwrap_or(0);
        let mut hist = vec![0usize; usize::from(max) + 1];
        for &v in g.iter().skip(1) {
            hist[usize::from(v)] += 1;
        }
        let masks = (1usize << (16 - max.leading_zeros())).min(MASK_LIMIT);
        let rare_under = |m: usize| -> usize {
            hist.iter()
                .enumerate()
                .filter(|&(v, _)| (v & m).count_ones() % 2 == 0)
                .map(|(_, &c)| c)
                .sum()
        };
        let (mut mask, mut count) = (0, rare_under(0));
        for m in 1..masks {
            let c = rare_under(m);
            if c < count {
                (mask, count) = (m, c);
            }
        }
        let last = (1..g.len())
            .rev()
            .find(|&n| (usize::from(g[n]) & mask).count_ones() % 2 == 0);
        RareStats {
            mask: mask as u16,
            count,
            last,
        }
    }
}

/// That a game has the same values as an earlier one, shifted: G(n) = G'(n + shift) for every
/// n ≥ from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Equivalence {
    /// The index, in the census list, of the earlier game.
    pub index: usize,
    /// The shift, between −[`MAX_SHIFT`] and [`MAX_SHIFT`].
    pub shift: isize,
    /// The first heap from which the values agree.
    pub from: usize,
}

/// One game of the census, classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The game.
    pub game: OctalGame,
    /// The largest heap computed: where the proof completed, or the heap bound.
    pub computed: usize,
    /// The proven period, if any.
    pub period: Option<Periodicity>,
    /// The largest value among G(0..=computed).
    pub max_value: u16,
    /// Rare values among G(0..=computed).
    pub rare: RareStats,
    /// The values G(0..=computed): for a periodic game, those that prove its period (and
    /// define every later value).
    pub values: Vec<u16>,
    /// Set by [`find_equivalences`].
    pub same_as: Option<Equivalence>,
}

impl Entry {
    /// G(n) for every n of a periodic game (from its values and the period).
    #[must_use]
    pub fn value(&self, n: usize) -> Option<u16> {
        let p = self.period?;
        Some(p.value(&self.values, n))
    }

    /// The class, as the census files write it: "periodic", "equivalent" or "unsolved".
    #[must_use]
    pub fn status(&self) -> &'static str {
        match (self.period, self.same_as) {
            (_, Some(_)) => "equivalent",
            (Some(_), None) => "periodic",
            (None, None) => "unsolved",
        }
    }

    /// The entry of `game` from that of its twin, an unsolved game with the same table by
    /// [`same_table_as`]: the twin's values, unsolved as well (a period proven for `game` from
    /// them would be proven for the twin, whose proof needs no more heaps). An error when
    /// `twin` is not `game`'s twin or not unsolved.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use zermelo_grundy::census::{classify, Entry};
    /// let twin = classify(&"0.06".parse().unwrap(), 5000, &AtomicBool::new(false))
    ///     .unwrap()
    ///     .unwrap();
    /// let entry = Entry::twin(&"0.063".parse().unwrap(), &twin).unwrap();
    /// assert_eq!((entry.computed, entry.period), (5000, None));
    /// ```
    pub fn twin(game: &OctalGame, twin: &Entry) -> Result<Entry, GrundyError> {
        if twin.period.is_some() || same_table_as(game)? != twin.game {
            return Err(GrundyError::Unsupported(format!(
                "{game}: {} is not an unsolved game with the same table",
                twin.game
            )));
        }
        Entry::from_table(game, twin.values.clone(), None)
    }
}

/// Computes a game until its period is proven or G(max) is known, on the calling thread.
/// Returns `None` when `stop` is set before it is done (nothing is kept of it).
///
/// A value beyond 16 bits ends the game as unsolved at the heap before it. Every proof is
/// checked again by [`check_proof`] before it is returned; one that fails is an error.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use zermelo_grundy::census::classify;
/// let kayles = classify(&"0.77".parse().unwrap(), 1 << 20, &AtomicBool::new(false))
///     .unwrap()
///     .unwrap();
/// let p = kayles.period.unwrap();
/// assert_eq!((p.preperiod, p.period, kayles.computed), (71, 12, 167));
/// assert_eq!(kayles.status(), "periodic");
/// ```
pub fn classify(
    game: &OctalGame,
    max: usize,
    stop: &AtomicBool,
) -> Result<Option<Entry>, GrundyError> {
    extend(game, Vec::new(), max, stop)
}

/// [`classify`] going on from the values `known` = G(0..k) of an unsolved game (a census
/// extended to a larger heap bound), rather than from the start: the same entry as a straight
/// run to `max`.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use zermelo_grundy::census::{classify, extend};
/// let stop = AtomicBool::new(false);
/// let early = classify(&"0.77".parse().unwrap(), 100, &stop).unwrap().unwrap();
/// assert_eq!(early.status(), "unsolved");
/// let later = extend(&"0.77".parse().unwrap(), early.values, 1000, &stop).unwrap().unwrap();
/// assert_eq!(later.period.map(|p| p.period), Some(12));
/// ```
pub fn extend(
    game: &OctalGame,
    known: Vec<u16>,
    max: usize,
    stop: &AtomicBool,
) -> Result<Option<Entry>, GrundyError> {
    let rule = ProofRule::for_octal(game);
    let mut watch = PeriodWatch::new(rule);
    let mut proof = None;
    // The known values go through the watch as a straight run's would, so that the watch is
    // where a straight run's would be (they hold no proof: the game was unsolved).
    for len in 1..=known.len() {
        if let Some(found) = watch.observe(&known[..len]).filter(|f| f.proven) {
            proof = Some((found, len));
            break;
        }
    }
    let mut engine = SparseEngine::resume(game, known)?;
    'run: while engine.values().len() <= max && proof.is_none() {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let before = engine.values().len();
        match engine.extend_to((before + CHUNK - 1).min(max)) {
            Ok(()) => {}
            Err(GrundyError::ValueOverflow { .. }) => break 'run,
            Err(e) => return Err(e),
        }
        let g = engine.values();
        for len in before + 1..=g.len() {
            if let Some(found) = watch.observe(&g[..len]).filter(|f| f.proven) {
                proof = Some((found, len));
                break 'run;
            }
        }
    }
    let mut values = engine.into_values();
    if let Some((_, len)) = proof {
        values.truncate(len);
    }
    Entry::from_table(game, values, proof.map(|(found, _)| found)).map(Some)
}

impl Entry {
    /// The entry of a table G(0..len) of `game`: a periodic one when `period` is given, which
    /// must be proven and pass [`check_proof`] on the table (an error otherwise), an unsolved
    /// one up to the table's last heap when not.
    ///
    /// ```
    /// use zermelo_grundy::{census::Entry, naive, period, OctalGame};
    /// let game: OctalGame = "0.07".parse().unwrap();
    /// let g = naive::values(&game, 300).unwrap();
    /// let found = period::find(&g, period::ProofRule::for_octal(&game));
    /// let entry = Entry::from_table(&game, g, found).unwrap();
    /// assert_eq!((entry.status(), entry.computed, entry.max_value), ("periodic", 300, 9));
    /// ```
    pub fn from_table(
        game: &OctalGame,
        values: Vec<u16>,
        period: Option<Periodicity>,
    ) -> Result<Entry, GrundyError> {
        if values.is_empty() {
            return Err(GrundyError::Unsupported(format!("{game}: an empty table")));
        }
        if let Some(p) = period {
            if !p.proven || !check_proof(game, &values, p.preperiod, p.period) {
                return Err(GrundyError::Unsupported(format!(
                    "{game}: the period {} from {} failed the second check of its proof",
                    p.period, p.preperiod
                )));
            }
        }
        Ok(Entry {
            game: game.clone(),
            computed: values.len() - 1,
            period,
            max_value: values.iter().copied().max().unwrap_or(0),
            rare: RareStats::of(&values),
            values,
            same_as: None,
        })
    }
}

/// Checks that the values `g` prove that the octal or hexadecimal game `game` (no `!`) is
/// periodic with preperiod `e` and period `p`; written apart from [`crate::period`] so that each
/// proof is checked twice.
///
/// With two-heap splits (t = the last nonzero place): G(n + p) = G(n) for e ≤ n < 2e' + p + t,
/// e' = max(e, 1), proves it for every n ≥ e. Induction on n ≥ 2e' + p + t: a move from n + p
/// that removes k ≤ t tokens leaves one heap n + p − k (n − k ≥ e', so it has the value of
/// n − k, an option of n) or two heaps a ≤ b with a + b = n + p − k, so b ≥ e' + p and (a, b − p)
/// is a split of n with the same value; the other way, a split a ≤ b of n has b ≥ e' and maps
/// to (a, b + p). No move removes the whole heap: n > t. Parts stay nonempty since b − p ≥ 1.
///
/// With three-heap splits the check goes to 3e' + 2p + t: then the parts of a move from n + p
/// sum to at least 3e' + 3p, so the largest c of them is at least e' + p and lowering it by p
/// gives a move from n with the same value (two parts: the larger is at least (3e' + 3p) / 2);
/// the parts of a move from n sum to at least 3e' + 2p, so the largest is at least e' and
/// raising it by p gives a move from n + p.
///
/// Without splits, G(n) for n > t depends only on G(n − 1), …, G(n − t), so the check of
/// e ≤ n < max(e + t, t + 1) suffices.
///
/// ```
/// use zermelo_grundy::{census::check_proof, naive, OctalGame};
/// let kayles: OctalGame = "0.77".parse().unwrap();
/// let g = naive::values(&kayles, 167).unwrap();
/// assert!(check_proof(&kayles, &g, 71, 12));
/// assert!(!check_proof(&kayles, &g[..167], 71, 12));
/// assert!(!check_proof(&kayles, &g, 70, 12));
/// ```
#[must_use]
pub fn check_proof(game: &OctalGame, g: &[u16], e: usize, p: usize) -> bool {
    if p == 0 || game.has_unequal() {
        return false;
    }
    let t = game.last_place();
    let end = if game.has_three_heap_moves() {
        3 * e.max(1) + 2 * p + t
    } else if game.has_two_heap_moves() {
        2 * e.max(1) + p + t
    } else {
        (e + t).max(t + 1)
    };
    end + p <= g.len() && (e..end).all(|n| g[n + p] == g[n])
}

/// Marks the entries that are equivalent to an earlier one.
///
/// An unsolved entry is equivalent to its twin by [`same_table_as`] (shift 0, from heap 0) when
/// that is an earlier, unsolved entry of the list.
///
/// Entries are taken in list order; those not marked are *representatives*. A periodic entry A
/// is equivalent to the first representative B (periodic too) for which some shift s,
/// |s| ≤ [`MAX_SHIFT`], gives G_A(n) = G_B(n + s) for every n from some heap on; among the
/// shifts that work, the one with the smallest first heap `from`, then the smallest |s|, then
/// s > 0. Both tables being periodic forever, this is decided exactly: beyond
/// N = max(e_A, e_B − s, −s) both sides repeat with the lcm of the periods, so agreement over
/// N ≤ n < N + lcm means agreement for every n ≥ N, and `from` is found by going down from N.
/// Pairs whose lcm exceeds 2^22 heaps are not compared.
pub fn find_equivalences(entries: &mut [Entry]) -> Result<(), GrundyError> {
    let index: HashMap<OctalGame, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.game.clone(), i))
        .collect();
    let mut representatives: Vec<usize> = Vec::new();
    for a in 0..entries.len() {
        entries[a].same_as = None;
        if entries[a].period.is_none() {
            let twin = same_table_as(&entries[a].game)?;
            match index.get(&twin) {
                Some(&b) if b < a && entries[b].period.is_none() => {
                    entries[a].same_as = Some(Equivalence {
                        index: b,
                        shift: 0,
                        from: 0,
                    });
                }
                _ => representatives.push(a),
            }
            continue;
        }
        let found = representatives
            .iter()
            .filter(|&&b| entries[b].period.is_some())
            .find_map(|&b| {
                best_shift(&entries[a], &entries[b]).map(|(shift, from)| (b, shift, from))
            });
        match found {
            Some((index, shift, from)) => {
                entries[a].same_as = Some(Equivalence { index, shift, from });
            }
            None => representatives.push(a),
        }
    }
    Ok(())
}

/// The best (shift, from) with G_a(n) = G_b(n + shift) for n ≥ from, if any (both periodic).
fn best_shift(a: &Entry, b: &Entry) -> Option<(isize, usize)> {
    let (pa, pb) = (a.period?, b.period?);
    let lcm = pa.period / gcd(pa.period, pb.period) * pb.period;
    if lcm > MAX_COMPARED {
        return None;
    }
    let m = MAX_SHIFT as isize;
    let mut shifts: Vec<isize> = (-m..=m).collect();
    shifts.sort_by_key(|&s| (s.abs(), s < 0));
    let mut best: Option<(isize, usize)> = None;
    for s in shifts {
        let low = (-s).max(0) as usize;
        let at = |n: usize| a.value(n) == b.value((n as isize + s) as usize);
        let start = pa
            .preperiod
            .max((pb.preperiod as isize - s).max(0) as usize)
            .max(low);
        if !(start..start + lcm).all(at) {
            continue;
        }
        let mut from = start;
        while from > low && at(from - 1) {
            from -= 1;
        }
        if best.is_none_or(|(_, f)| from < f) {
            best = Some((s, from));
        }
    }
    best
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive;

    fn entry(code: &str) -> Entry {
        classify(&code.parse().unwrap(), 20_000, &AtomicBool::new(false))
            .unwrap()
            .unwrap()
    }

    #[test]
    fn every_code_of_the_list_is_canonical_and_distinct() {
        let list = games(3).unwrap();
        assert_eq!(list.len(), 1024);
        let set: std::collections::HashSet<String> = list.iter().map(|g| g.to_string()).collect();
        assert_eq!(set.len(), 1024);
        assert_eq!(list[1].to_string(), "0.001");
        assert_eq!(list[8].to_string(), "0.01");
        assert_eq!(list[511].to_string(), "0.777");
        assert_eq!(list[512].to_string(), "4.0");
        assert!(games(0).is_err());
        assert!(games(5).is_err());
    }

    #[test]
    fn dawsons_chess_is_dawsons_kayles_shifted_by_one() {
        let mut entries = vec![entry("0.0"), entry("0.07"), entry("0.137")];
        find_equivalences(&mut entries).unwrap();
        assert_eq!(entries[1].same_as, None);
        assert_eq!(
            entries[2].same_as,
            Some(Equivalence {
                index: 1,
                shift: 1,
                from: 0
            })
        );
        assert_eq!(entries[2].status(), "equivalent");
        // The claim, checked directly on naive tables.
        let dk = naive::values(&"0.07".parse().unwrap(), 3001).unwrap();
        let dc = naive::values(&"0.137".parse().unwrap(), 3000).unwrap();
        assert!((0..=3000).all(|n| dc[n] == dk[n + 1]));
    }

    #[test]
    fn rare_stats_pick_the_mask_with_fewest_rare_heaps() {
        assert_eq!(
            RareStats::of(&[0, 0, 0]),
            RareStats {
                mask: 0,
                count: 2,
                last: Some(2)
            }
        );
        // Values 1, 2, 3 under mask 1: 2 is rare; under 2: 1 rare; under 3: 3 rare. Ties go to
        // the smallest mask.
        assert_eq!(
            RareStats::of(&[0, 1, 2, 3]),
            RareStats {
                mask: 1,
                count: 1,
                last: Some(2)
            }
        );
        assert_eq!(RareStats::of(&[0]).count, 0);
    }

    #[test]
    fn a_stop_request_abandons_the_game() {
        let stop = AtomicBool::new(true);
        assert_eq!(
            classify(&"0.6".parse().unwrap(), 1000, &stop).unwrap(),
            None
        );
    }
}
