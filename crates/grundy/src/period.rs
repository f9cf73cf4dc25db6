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

/// For each length L of a suffix of `g`, its smallest period, by the prefix function of the
/// reversed table (`periods[L - 1]`).
fn suffix_periods(g: &[u16]) -> Vec<u32> {
    let len = g.len();
    let at = |i: usize| g[len - 1 - i];
    let mut pi = vec![0u32; len];
    for i in 1..len {
        let mut k = pi[i - 1] as usize;
        while k > 0 && at(i) != at(k) {
            k = pi[k - 1] as usize;
        }
        if at(i) == at(k) {
            k += 1;
        }
        pi[i] = k as u32;
    }
    (0..len).map(|i| (i + 1) as u32 - pi[i]).collect()
}

/// The candidate periods of `g` (those repeating at least twice at its end), best first: by the
/// index their check needs. At most `limit` of them, distinct periods.
fn candidates(g: &[u16], rule: ProofRule, limit: usize) -> Vec<Periodicity> {
    let periods = suffix_periods(g);
    let len = g.len();
    // For each period, the longest suffix it covers gives its smallest preperiod.
    let mut best: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
    for (i, &p) in periods.iter().enumerate() {
        let (l, p) = (i + 1, p as usize);
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
