//! Periodicity: detecting the preperiod e and period p of a table, and proving that it goes on
//! forever.
//!
//! A table is periodic from e with period p when G(n + p) = G(n) for every n >= e. A finite
//! table only shows this for the n it holds; a [`ProofRule`] says how far the check must reach
//! for it to hold for all n:
//!
//! - Guy–Smith (two-heap splits, last nonzero code digit at place t): G(n + p) = G(n) for
//!   e' <= n < 2e' + p + t, with e' = max(e, 1), proves it. For n beyond, every split of n + p
//!   has a part of at least e' + p and every split of n a part of at least e', so the options
//!   of n and n + p correspond one to one with equal values (by induction).
//! - The same argument for splits into three heaps needs e' <= n < 3e' + 2p + t.
//! - Games whose value depends only on the last w values (subtraction games, octal codes with
//!   no splits) need e <= n < max(e + w, w + 1).
//!
//! `!` codes (Grundy's game) have no such argument: shifting a part by p can make unequal parts
//! equal, so their periods are reported as not proven.

/// Which argument turns a finite check into a proof of periodicity.
///
/// ```
/// use zermelo_grundy::{period::ProofRule, OctalGame};
/// let kayles: OctalGame = "0.77".parse().unwrap();
/// let rule = ProofRule::for_octal(&kayles);
/// assert_eq!(rule, ProofRule::GuySmith { heaps: 2, t: 2 });
/// // Kayles: preperiod 71, period 12: values up to 2*71 + 2*12 + 2 - 1 = 167 prove it.
/// assert_eq!(rule.last_needed(71, 12), 167);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofRule {
    /// G(n) is determined by G(n - 1), …, G(n - window) (and n itself only while n <= window).
    Window {
        /// How many earlier values a value depends on.
        window: usize,
    },
    /// The Guy–Smith theorem for splits into at most `heaps` (2 or 3) heaps.
    GuySmith {
        /// The most heaps a move leaves.
        heaps: usize,
        /// The last place with a nonzero code digit.
        t: usize,
    },
    /// No proof is known; a period is still reported, as not proven, once the table shows it
    /// as far as a Guy–Smith check with the given t would reach.
    Unproven {
        /// The t used for the evidence threshold.
        t: usize,
    },
}

impl ProofRule {
    /// The rule that applies to an octal or hexadecimal game.
    #[must_use]
    pub fn for_octal(game: &crate::OctalGame) -> Self {
        let t = game.last_place();
        if game.has_unequal() {
            ProofRule::Unproven { t }
        } else if game.has_three_heap_moves() {
            ProofRule::GuySmith { heaps: 3, t }
        } else if game.has_two_heap_moves() {
            ProofRule::GuySmith { heaps: 2, t }
        } else {
            ProofRule::Window { window: t }
        }
    }

    /// Whether a period found under this rule is proven.
    #[must_use]
    pub fn proves(&self) -> bool {
        !matches!(self, ProofRule::Unproven { .. })
    }

    /// The largest index whose value the check for preperiod `e` and period `p` needs.
    #[must_use]
    pub fn last_needed(&self, e: usize, p: usize) -> usize {
        match *self {
            ProofRule::Window { window } => (e + window).max(window + 1) + p - 1,
            ProofRule::GuySmith { heaps, t } => {
                // Check n < h·e' + (h - 1)·p + t, so values up to that plus p - 1.
                let e = e.max(1);
                heaps * e + heaps * p + t - 1
            }
            ProofRule::Unproven { t } => 2 * e.max(1) + 2 * p + t - 1,
        }
    }
}

/// A period found in a table.
///
/// ```
/// use zermelo_grundy::period::{find, Periodicity, ProofRule};
/// let g = [0u16, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1];
/// let found = find(&g, ProofRule::Window { window: 2 }).unwrap();
/// assert_eq!((found.preperiod, found.period, found.proven), (0, 3, true));
/// assert_eq!(found.value(&g, 1000), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Periodicity {
    /// The first index of the periodic part.
    pub preperiod: usize,
    /// The period.
    pub period: usize,
    /// Whether the rule proves the period holds forever.
    pub proven: bool,
    /// The largest index the proof (or, unproven, the evidence threshold) needs.
    pub last_needed: usize,
}

impl Periodicity {
    /// G(n) for any n: from the table while it reaches, from the period beyond.
    #[must_use]
    pub fn value(&self, g: &[u16], n: usize) -> u16 {
        if n < g.len() {
            g[n]
        } else {
            g[self.preperiod + (n - self.preperiod) % self.period]
        }
    }
}

/// The candidate periods of `g` (those repeating at least twice at its end), best first: by the
/// index their check needs. At most `limit` of them, distinct periods.
///
/// For each period p that is the smallest period of some suffix at least 2p long, the longest
/// such suffix gives its smallest preperiod. The smallest periods of the suffixes come from the
/// prefix function of the reversed table, but only over its first half (four bytes a heap
/// for half the heaps): a suffix longer than half the table has as its smallest period some
/// period p of the half-table suffix (p being at most half the table for it to repeat twice),
/// and the suffixes with period p are those up to the reach of p, found by comparing on from
/// the half. So p is the smallest period of exactly the suffixes longer than the reach of every
/// smaller period of the half-table suffix and at most its own reach.
fn candidates(g: &[u16], rule: ProofRule, limit: usize) -> Vec<Periodicity> {
    let len = g.len();
    let half = len.div_ceil(2);
    let at = |i: usize| g[len - 1 - i];
    // Prefix function of the reversed table over its first `half` entries.
    let mut pi = vec![0u32; half];
    for i in 1..half {
        let mut k = pi[i - 1] as usize;
        while k > 0 && at(i) != at(k) {
            k = pi[k - 1] as usize;
        }
        if at(i) == at(k) {
            k += 1;
        }
        pi[i] = k as u32;
    }
    // For each period, the longest suffix whose smallest period it is (later, longer suffixes
    // overwrite).
    let mut best: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
    for (i, &border) in pi.iter().enumerate() {
        let (l, p) = (i + 1, i + 1 - border as usize);
        if l >= 2 * p {
            best.insert(p, len - l);
        }
    }
    // The periods of the half-table suffix, increasing: `half` less each of its borders, the
    // longest border first.
    let mut border = pi.last().map_or(0, |&b| b as usize);
    // The longest suffix with a smaller period so far.
    let mut covered = half;
    loop {
        let p = half - border;
        if p == 0 || 2 * p > len || covered == len {
            break;
        }
        // The reach of p exceeds `covered` only if the suffix of length covered + 1 has period
        // p: that one value is looked at first, the rest only when it agrees.
        if at(covered) == at(covered - p) {
            let mut reach = half;
            while reach < len && at(reach) == at(reach - p) {
                reach += 1;
            }
            if reach > covered {
                covered = reach;
                if reach >= 2 * p {
                    best.insert(p, len - reach);
                }
            }
        }
        if border == 0 {
            break;
        }
        border = pi[border - 1] as usize;
    }
    let mut out: Vec<Periodicity> = best
        .into_iter()
        .map(|(p, e)| Periodicity {
            preperiod: e,
            period: p,
            proven: false,
            last_needed: rule.last_needed(e, p),
        })
        .collect();
    out.sort_by_key(|c| (c.last_needed, c.period));
    out.truncate(limit);
    out
}

/// The period of `g` if the table reaches far enough to prove it (or, for
/// [`ProofRule::Unproven`], to show it as far as a proof would need).
///
/// ```
/// use zermelo_grundy::{naive, period, OctalGame};
/// let kayles: OctalGame = "0.77".parse().unwrap();
/// let g = naive::values(&kayles, 200).unwrap();
/// let found = period::find(&g, period::ProofRule::for_octal(&kayles)).unwrap();
/// assert_eq!((found.preperiod, found.period, found.proven), (71, 12, true));
/// assert!(period::find(&g[..150], period::ProofRule::for_octal(&kayles)).is_none());
/// ```
#[must_use]
pub fn find(g: &[u16], rule: ProofRule) -> Option<Periodicity> {
    let best = *candidates(g, rule, 1).first()?;
    (best.last_needed < g.len()).then_some(Periodicity {
        proven: rule.proves(),
        ..best
    })
}

/// Watches a table as it grows and says as soon as its period is established: a full search
/// now and then (at geometrically spaced lengths, so O(1) amortised per value) and, between
/// searches, a check of the best candidates against each new value.
///
/// ```
/// use zermelo_grundy::{naive, period::{PeriodWatch, ProofRule}, OctalGame};
/// let dawson: OctalGame = "0.07".parse().unwrap();
/// let g = naive::values(&dawson, 400).unwrap();
/// let mut watch = PeriodWatch::new(ProofRule::for_octal(&dawson));
/// let first = (1..=g.len()).find_map(|len| watch.observe(&g[..len])).unwrap();
/// assert_eq!((first.preperiod, first.period), (53, 34));
/// assert_eq!(first.last_needed, 2 * 53 + 2 * 34 + 2 - 1);
/// ```
#[derive(Debug, Clone)]
pub struct PeriodWatch {
    rule: ProofRule,
    candidates: Vec<Periodicity>,
    next_search: usize,
}

/// How many candidate periods are checked value by value between searches.
const WATCHED: usize = 8;

impl PeriodWatch {
    /// A watch for tables governed by `rule`.
    #[must_use]
    pub fn new(rule: ProofRule) -> Self {
        PeriodWatch {
            rule,
            candidates: Vec::new(),
            next_search: 0,
        }
    }

    /// Looks at the table after a new value was appended (`g` must only ever grow by one value
    /// between calls, or the watch must be new). Returns the period once the table reaches
    /// `last_needed` of a candidate that held throughout.
    pub fn observe(&mut self, g: &[u16]) -> Option<Periodicity> {
        let n = g.len().checked_sub(1)?;
        if g.len() >= self.next_search {
            self.candidates = candidates(g, self.rule, WATCHED);
            self.next_search = g.len() + g.len() / 4 + 1;
        } else {
            self.candidates
                .retain(|c| n < c.preperiod + c.period || g[n] == g[n - c.period]);
        }
        let done = self
            .candidates
            .iter()
            .filter(|c| c.last_needed <= n)
            .min_by_key(|c| (c.last_needed, c.period))?;
        Some(Periodicity {
            proven: self.rule.proves(),
            ..*done
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest (e, p) with g periodic from e, found by brute force over all pairs.
    fn brute(g: &[u16], rule: ProofRule) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize, usize)> = None;
        for p in 1..g.len() {
            for e in 0..g.len() {
                if (e..g.len() - p.min(g.len())).all(|n| n + p >= g.len() || g[n] == g[n + p])
                    && g.len() >= e + 2 * p
                {
                    let need = rule.last_needed(e, p);
                    if need < g.len() && best.is_none_or(|b| (need, p) < (b.2, b.1)) {
                        best = Some((e, p, need));
                    }
                    break;
                }
            }
        }
        best.map(|(e, p, _)| (e, p))
    }

    #[test]
    fn search_matches_brute_force() {
        let mut seed = 12345u64;
        for _ in 0..300 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pre = (seed >> 33) as usize % 12;
            let per = 1 + (seed >> 40) as usize % 6;
            let len = 1 + (seed >> 20) as usize % 60;
            let mut g: Vec<u16> = (0..pre).map(|i| ((seed >> (i % 30)) & 3) as u16).collect();
            let cycle: Vec<u16> = (0..per).map(|i| ((seed >> (i + 5)) & 3) as u16).collect();
            while g.len() < len {
                g.push(cycle[(g.len() - pre.min(g.len())) % per]);
            }
            let rule = ProofRule::Window {
                window: 1 + pre % 3,
            };
            let found = find(&g, rule).map(|f| (f.preperiod, f.period));
            assert_eq!(found, brute(&g, rule), "{g:?}");
        }
    }

    /// The candidates by the prefix function of the whole reversed table (the smallest period
    /// of every suffix), as the search did before it went over half the table only.
    fn candidates_over_every_suffix(g: &[u16], rule: ProofRule) -> Vec<Periodicity> {
        let len = g.len();
        let at = |i: usize| g[len - 1 - i];
        let mut pi = vec![0usize; len];
        for i in 1..len {
            let mut k = pi[i - 1];
            while k > 0 && at(i) != at(k) {
                k = pi[k - 1];
            }
            if at(i) == at(k) {
                k += 1;
            }
            pi[i] = k;
        }
        let mut best = std::collections::BTreeMap::new();
        for (i, &border) in pi.iter().enumerate() {
            let (l, p) = (i + 1, i + 1 - border);
            if l >= 2 * p {
                best.insert(p, len - l);
            }
        }
        let mut out: Vec<Periodicity> = best
            .into_iter()
            .map(|(p, e)| Periodicity {
                preperiod: e,
                period: p,
                proven: false,
                last_needed: rule.last_needed(e, p),
            })
            .collect();
        out.sort_by_key(|c| (c.last_needed, c.period));
        out
    }

    #[test]
    fn half_table_search_finds_every_suffix_period() {
        // Tables made of a few random blocks, each repeated: periods of every length against
        // the table, most of them longer than a quarter of it, so that suffixes beyond the
        // half have their smallest period found by comparing on.
        let rule = ProofRule::GuySmith { heaps: 2, t: 3 };
        let mut seed = 987654321u64;
        let mut next = |bound: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % bound
        };
        let mut beyond_half = 0;
        for _ in 0..3000 {
            let mut g: Vec<u16> = Vec::new();
            let symbols = 2 + next(3);
            for _ in 0..1 + next(4) {
                let block: Vec<u16> = (0..1 + next(40)).map(|_| next(symbols) as u16).collect();
                for _ in 0..1 + next(3) {
                    g.extend_from_slice(&block);
                }
                g.truncate(g.len() - next(block.len() as u64) as usize);
            }
            let expected = candidates_over_every_suffix(&g, rule);
            beyond_half += expected
                .iter()
                .filter(|c| g.len() - c.preperiod > g.len().div_ceil(2))
                .count();
            assert_eq!(candidates(&g, rule, usize::MAX), expected, "{g:?}");
        }
        assert!(beyond_half > 500, "{beyond_half}");
    }

    #[test]
    fn unequal_splits_are_not_proven() {
        let game: crate::OctalGame = "4!.0".parse().unwrap();
        assert!(!ProofRule::for_octal(&game).proves());
        let three: crate::OctalGame = "0.8".parse().unwrap();
        assert_eq!(
            ProofRule::for_octal(&three),
            ProofRule::GuySmith { heaps: 3, t: 1 }
        );
    }
}
