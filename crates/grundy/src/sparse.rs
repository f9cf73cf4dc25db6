//! The sparse-space engine for large octal tables.
//!
//! A mask `m` splits the values in two classes by the parity of `popcount(v & m)`; XOR adds
//! parities. Each heap a gets a *key*: the parity of its value, optionally flipped on odd a (the
//! "domain" twist, which some games such as Treblecross `0.007` need). A pair (a, b) with
//! a + b = s then has value parity `key(a) ^ key(b) ^ twist·(s mod 2)`. The mask and twist are
//! chosen so that few heaps have key 0: those are *rare*, the others *common*. For a heap n:
//!
//! - the options of one parity class (the *rare-made* parity) each pair a rare heap with a common
//!   one, or two rare heaps; enumerating the pairs that contain a rare heap (O(#rare) per n)
//!   finds all of them, and with them the smallest rare-made value `c` that is not an option;
//! - G(n) is `c` unless a smaller value of the other parity is missing; those are confirmed
//!   present by scanning the splits until each has been seen, which ends early in practice
//!   because common pairs produce them over and over. The first splits are marked one by one;
//!   once the values left to confirm are few, they are looked for 64 splits at a time in a
//!   bit-sliced copy of the table (see `sliced.rs`), which pays off on the long tail of splits
//!   that the last, least frequent values take.
//!
//! With two threads, both compute each block of heaps, the first from the bottom with exact
//! values, the second from the top from every option but the few that involve the block,
//! checked once the heaps below are known (see `pair.rs`).
//!
//! The twist needs every split digit to remove a number of tokens of the same parity (so that
//! `s mod 2` is the same for all splits of n). The result never depends on the mask or the twist
//! (only the speed does), so the engine re-chooses them from the histogram of values whenever
//! the rare heaps stop being rare.

mod pair;

use crate::mex::value_bound;
use crate::sliced::{Scratch, Sliced, LANES, WINDOW};
use crate::{GrundyError, OctalGame};
use pair::Sharing;

/// The sparse engine computes heaps below this (indices and stamps are u32).
pub const MAX_HEAP: usize = u32::MAX as usize - 1;

/// One past the largest value a table holds: the sentinel that ends the value lists.
const NO_VALUE: u32 = 1 << 16;

/// Pairs scanned between two looks at the smallest unconfirmed value.
const SCAN_BLOCK: usize = 32;

/// Splits scanned before the values left to confirm are first counted; they are counted again
/// each time the count of splits scanned doubles.
const SLICED_FIRST_CHECK: usize = 64;

/// The bit-sliced search takes over when the values left to confirm times the planes are at
/// most this: each value costs about three operations per four planes per 64 splits, against
/// about eight per split for marking (measured on `4!.0`, `0.6` and `0.007`; anywhere between
/// 512 and 2048 does about as well).
const SLICED_TARGET_PLANES: usize = 1024;

/// Above this many values left to confirm, the bit-sliced search looks at several blocks of 64
/// splits per pass.
const SLICED_FEW: usize = 2;

/// The first table length at which the mask is chosen; below it every heap is rare.
const FIRST_REVIEW: usize = 64;

/// Computes G(n) of an octal game heap after heap with the sparse-space method.
///
/// ```
/// use zermelo_grundy::{naive, OctalGame, SparseEngine};
/// let kayles: OctalGame = "0.77".parse().unwrap();
/// let mut engine = SparseEngine::new(&kayles).unwrap();
/// engine.extend_to(2000).unwrap();
/// assert_eq!(engine.values(), &naive::values(&kayles, 2000).unwrap()[..]);
/// ```
#[derive(Debug, Clone)]
pub struct SparseEngine {
    tables: Tables,
    worker: Worker,
    sharing: Sharing,
}

/// What the heaps computed so far tell: the values and what is derived from them. Every thread
/// reads it while heaps are computed; it changes only between heaps.
#[derive(Debug, Clone)]
struct Tables {
    /// (k, digit) for the digits that remove k and leave 0 or 1 heap, by increasing k.
    singles: Vec<(usize, u8)>,
    /// (k, unequal) for the digits that remove k and split into two heaps, by increasing k.
    splits: Vec<(usize, bool)>,
    g: Vec<u16>,
    max_value: u16,
    /// Counts of each value among even and among odd heaps 1.. (heap 0 never takes part in a
    /// split).
    hist: [Vec<u64>; 2],
    mask: u16,
    /// Whether keys are flipped on heaps a with a + split_parity odd (the domain twist).
    twist: bool,
    /// Whether the twist may be used: every split digit removes a number of tokens of the same
    /// parity, `split_parity`.
    twist_allowed: bool,
    split_parity: usize,
    /// `by_parity[p]`: the values whose masked popcount has parity p, increasing, then
    /// [`NO_VALUE`].
    by_parity: [Vec<u32>; 2],
    /// The heaps n >= 1 whose value has even parity, increasing.
    rare: Vec<u32>,
    /// The values of the rare heaps, side by side with `rare` so the pass reads them in order.
    rare_values: Vec<u16>,
    rare_at_choice: usize,
    next_review: usize,
    /// The table bit-sliced, for the last few values the scan confirms.
    sliced: Sliced,
}

/// One thread's working space for computing a heap.
#[derive(Debug, Clone)]
struct Worker {
    /// `seen[v] == n + 1` when v is known to be an option of heap n.
    seen: Box<[u32; 1 << 16]>,
    /// The splits of the heap being computed, one range per split digit.
    ranges: Vec<Splits>,
    /// The values left to confirm in the bit-sliced table.
    targets: Vec<u16>,
    scratch: Box<Scratch>,
}

/// The splits (a, m - a), `first <= a <= last`, of one split digit.
#[derive(Debug, Clone, Copy)]
struct Splits {
    m: usize,
    first: usize,
    last: usize,
}

impl SparseEngine {
    /// An engine for `game` with an empty table.
    ///
    /// Games with three-heap splits are refused: their options are not pairs, so the rare/common
    /// argument does not apply (the naive engine computes them).
    pub fn new(game: &OctalGame) -> Result<Self, GrundyError> {
        Self::resume(game, Vec::new())
    }

    /// An engine that continues the table `values` (G(0..values.len()), trusted to be right,
    /// e.g. read back from a checksummed file).
    ///
    /// ```
    /// use zermelo_grundy::{OctalGame, SparseEngine};
    /// let game: OctalGame = "0.07".parse().unwrap();
    /// let mut a = SparseEngine::new(&game).unwrap();
    /// a.extend_to(500).unwrap();
    /// let mut b = SparseEngine::resume(&game, a.values()[..200].to_vec()).unwrap();
    /// b.extend_to(500).unwrap();
    /// assert_eq!(a.values(), b.values());
    /// ```
    pub fn resume(game: &OctalGame, values: Vec<u16>) -> Result<Self, GrundyError> {
        Self::resume_with_window(game, values, WINDOW)
    }

    /// [`SparseEngine::resume`] with the bit-sliced table holding `window` heaps (tests make it
    /// small to reach the splits beyond it).
    fn resume_with_window(
        game: &OctalGame,
        values: Vec<u16>,
        window: usize,
    ) -> Result<Self, GrundyError> {
        if game.has_three_heap_moves() {
            return Err(GrundyError::Unsupported(format!(
                "the sparse engine handles splits into two heaps only; {game} splits into three \
                 (use the naive engine)"
            )));
        }
        let mut singles = Vec::new();
        let mut splits = Vec::new();
        for k in 0..=game.last_place() {
            let d = game.digit(k);
            if d & 3 != 0 {
                singles.push((k, d));
            }
            if d & 4 != 0 {
                splits.push((k, game.is_unequal(k)));
            }
        }
        let mut hist = [vec![0u64; 1 << 16], vec![0u64; 1 << 16]];
        for (n, &v) in values.iter().enumerate().skip(1) {
            hist[n % 2][usize::from(v)] += 1;
        }
        let split_parity = splits.first().map_or(0, |&(k, _)| k % 2);
        let twist_allowed = splits.iter().all(|&(k, _)| k % 2 == split_parity);
        let mut tables = Tables {
            singles,
            splits,
            max_value: values.iter().copied().max().unwrap_or(0),
            g: values,
            hist,
            mask: 0,
            twist: false,
            twist_allowed,
            split_parity,
            by_parity: [Vec::new(), Vec::new()],
            rare: Vec::new(),
            rare_values: Vec::new(),
            rare_at_choice: 0,
            next_review: FIRST_REVIEW,
            sliced: Sliced::new(window),
        };
        for &v in &tables.g {
            tables.sliced.push(v);
        }
        tables.choose_mask();
        Ok(SparseEngine {
            tables,
            worker: Worker::new(),
            sharing: Sharing::new(),
        })
    }

    /// The values computed so far, G(0..len).
    #[must_use]
    pub fn values(&self) -> &[u16] {
        &self.tables.g
    }

    /// Gives the table back.
    #[must_use]
    pub fn into_values(self) -> Vec<u16> {
        self.tables.g
    }

    /// Whether the current keys flip with the parity of the heap (the domain twist).
    #[must_use]
    pub fn twist(&self) -> bool {
        self.tables.twist
    }

    /// The current mask.
    #[must_use]
    pub fn mask(&self) -> u16 {
        self.tables.mask
    }

    /// How many heaps are rare under the current mask.
    #[must_use]
    pub fn rare_count(&self) -> usize {
        self.tables.rare.len()
    }

    /// The largest rare heap under the current mask, if any.
    ///
    /// ```
    /// use zermelo_grundy::{OctalGame, SparseEngine};
    /// let officers: OctalGame = "0.6".parse().unwrap();
    /// let mut engine = SparseEngine::new(&officers).unwrap();
    /// engine.extend_to(20_000).unwrap();
    /// assert!(engine.last_rare().is_some_and(|r| r <= 20_000));
    /// ```
    #[must_use]
    pub fn last_rare(&self) -> Option<usize> {
        self.tables.rare.last().map(|&r| r as usize)
    }

    /// Computes values until G(max) is known.
    pub fn extend_to(&mut self, max: usize) -> Result<(), GrundyError> {
        while self.tables.g.len() <= max {
            self.step()?;
        }
        Ok(())
    }

    /// Computes the next value G(len) and returns it.
    pub fn step(&mut self) -> Result<u16, GrundyError> {
        let n = self.tables.g.len();
        check_heap(n)?;
        if self.tables.review_due() {
            self.tables.choose_mask();
        }
        let v = value(self.worker.compute(&self.tables, n, &[]), n)?;
        self.tables.push(v);
        Ok(v)
    }
}

/// Refuses heap n when it is beyond the sparse engine's reach.
fn check_heap(n: usize) -> Result<(), GrundyError> {
    if n >= MAX_HEAP {
        // Heap indices and the stamps that mark options are u32.
        return Err(GrundyError::TooLarge {
            what: format!("a sparse table beyond heap {}", MAX_HEAP - 1),
            needed: n as u128 + 1,
            limit: MAX_HEAP as u128,
        });
    }
    Ok(())
}

/// The value `v` found for heap n, as a table entry.
fn value(v: u32, n: usize) -> Result<u16, GrundyError> {
    u16::try_from(v).map_err(|_| GrundyError::ValueOverflow {
        at: format!("heap {n}"),
    })
}

/// The last value of a split digit's splits (a, m - a): m/2, less one when the heaps must be
/// unequal and m is even.
fn last_split(m: usize, unequal: bool) -> usize {
    if unequal && m % 2 == 0 {
        m / 2 - 1
    } else {
        m / 2
    }
}

impl Tables {
    /// Whether the mask is to be chosen again before the next heap.
    fn review_due(&self) -> bool {
        self.g.len() >= self.next_review || self.rare.len() > 2 * self.rare_at_choice + 1024
    }

    /// Appends the value of the next heap.
    fn push(&mut self, v: u16) {
        let n = self.g.len();
        self.g.push(v);
        self.sliced.push(v);
        if n >= 1 {
            self.hist[n % 2][usize::from(v)] += 1;
            if !self.key(n, v) {
                self.rare.push(n as u32);
                self.rare_values.push(v);
            }
        }
        if v > self.max_value {
            self.max_value = v;
            // A new bit may make another mask far better.
            self.next_review = self.next_review.min(n + 1);
        }
    }

    /// The key of heap n with value v: true for common heaps.
    #[inline]
    fn key(&self, n: usize, v: u16) -> bool {
        let parity = (v & self.mask).count_ones() & 1 == 1;
        parity ^ (self.twist && (n + self.split_parity) % 2 == 1)
    }

    /// Whether an option of heap len that involves a heap `from` or above has the value v:
    /// the options left out when heap len was computed from the heaps below `from` only
    /// (exactly those that [`Worker::compute`] leaves out).
    fn made_from(&self, from: usize, v: u32) -> bool {
        let n = self.g.len();
        let g = &self.g[..];
        let single = self.singles.iter().any(|&(k, d)| {
            d & 2 != 0 && k >= 1 && k <= n && n - k >= from.max(1) && u32::from(g[n - k]) == v
        });
        single
            || self.splits.iter().any(|&(k, unequal)| {
                if k + 2 > n {
                    return false;
                }
                let m = n - k;
                // The splits (a, m - a) with m - a >= from.
                let last = last_split(m, unequal).min(m.saturating_sub(from));
                (1..=last).any(|a| u32::from(g[a] ^ g[m - a]) == v)
            })
    }
}

impl Worker {
    fn new() -> Self {
        Worker {
            seen: vec![0u32; 1 << 16]
                .into_boxed_slice()
                .try_into()
                .expect("the length is 2^16"),
            ranges: Vec::new(),
            targets: Vec::new(),
            scratch: Box::new(Scratch::new()),
        }
    }

    /// The smallest value that no option of heap n made of the heaps below `view` has, where
    /// `view` is the table's length plus `tail.len()` and `tail` holds the values of the heaps
    /// from the table's length on: G(n) when n is `view`. When n is beyond it, the options that
    /// involve a heap `view` or above are left out (see [`Tables::made_from`]). Returns
    /// [`NO_VALUE`] when every u16 is an option.
    fn compute(&mut self, t: &Tables, n: usize, tail: &[u16]) -> u32 {
        let known = t.g.len();
        let view = known + tail.len();
        debug_assert!(n >= view);
        // A fresh stamp marks this n's options without clearing the table; stamps start at 1
        // so that the zeroed table means "seen by nobody". Marks left by an earlier, partial
        // computation of n are options of n too.
        let stamp = n as u32 + 1;
        let g = &t.g[..];
        let value = |h: usize| if h < known { g[h] } else { tail[h - known] };
        let seen = &mut *self.seen;
        for &(k, d) in &t.singles {
            if k > n {
                break;
            }
            let m = n - k;
            if d & 1 != 0 && m == 0 {
                seen[0] = stamp;
            }
            if d & 2 != 0 && m >= 1 && m < view {
                seen[usize::from(value(m))] = stamp;
            }
        }
        let ranges = &mut self.ranges;
        ranges.clear();
        for &(k, unequal) in &t.splits {
            if k + 2 > n {
                break;
            }
            let m = n - k;
            let last = last_split(m, unequal);
            // The splits (a, m - a) whose large heap is in the tail are marked here; those
            // beyond the tail are left out; the rest below.
            let first = (m + 1).saturating_sub(known).max(1);
            let outside = (m + 1).saturating_sub(view).max(1);
            for a in outside..first.min(last + 1) {
                seen[usize::from(value(a) ^ value(m - a))] = stamp;
            }
            if first > last {
                continue;
            }
            ranges.push(Splits { m, first, last });
            let rare = &t.rare[..];
            let end = if rare.last().is_some_and(|&r| (r as usize) < m) {
                rare.len()
            } else {
                rare.partition_point(|&r| (r as usize) < m)
            };
            // The rare heaps r below `first` pair with m - r beyond the table.
            let start = if first > 1 {
                rare.partition_point(|&r| (r as usize) < first)
            } else {
                0
            };
            let (rare, values) = (&rare[start..end], &t.rare_values[start..end]);
            mark_rare_pairs(seen, g, m, unequal, rare, values, stamp);
        }
        // Common pairs make values of parity twist·(s mod 2) (s = n - k, the same parity for
        // every split); the other parity is made only by pairs with a rare heap, all marked now,
        // so the smallest unmarked value of that parity is exact.
        let common_made = usize::from(t.twist && (n + t.split_parity) % 2 == 1);
        let rare_made = &t.by_parity[1 - common_made];
        let confirm = &t.by_parity[common_made];
        let mut c = 0;
        while marked(seen, rare_made[c], stamp) {
            c += 1;
        }
        let common = rare_made[c];
        let mut low = 0;
        while marked(seen, confirm[low], stamp) {
            low += 1;
        }
        if confirm[low] < common {
            self.scan(t, stamp, low, common, common_made)
        } else {
            common
        }
    }

    /// The value of the heap whose options are marked with `stamp`, once every option made with
    /// a rare heap is marked:
    /// `common` (the smallest rare-made value that is not an option) unless a smaller value of
    /// the parity `confirm_parity` is missing; `confirm[low]`, the smallest value of that parity
    /// not marked yet, is below `common`. The splits of the common heaps are scanned from the
    /// smallest, side by side for all split digits (a value that one digit makes only in its
    /// preperiod may come at once from another digit), marking their values, until the values
    /// left to confirm are few; those are then looked for 64 splits at a time in the bit-sliced
    /// table.
    fn scan(
        &mut self,
        t: &Tables,
        stamp: u32,
        mut low: usize,
        common: u32,
        confirm_parity: usize,
    ) -> u32 {
        let g = &t.g[..];
        let seen = &mut *self.seen;
        let confirm = &t.by_parity[confirm_parity];
        let ranges = &self.ranges;
        let longest = ranges.iter().map(|r| r.last).max().unwrap_or(0);
        let mut start = 1;
        let mut check_at = SLICED_FIRST_CHECK;
        while start <= longest {
            // Blocks end at multiples of SCAN_BLOCK, so that the bit-sliced pass starts on a
            // word.
            let end = (start | (SCAN_BLOCK - 1)).min(longest);
            for r in ranges {
                let first = start.max(r.first);
                let end = end.min(r.last);
                if first > end {
                    continue;
                }
                let small = &g[first..=end];
                let large = &g[r.m - end..=r.m - first];
                for (&x, &y) in small.iter().zip(large.iter().rev()) {
                    seen[usize::from(x ^ y)] = stamp;
                }
            }
            while marked(seen, confirm[low], stamp) {
                low += 1;
            }
            if confirm[low] > common {
                return common;
            }
            start = end + 1;
            if start == check_at {
                check_at *= 2;
                // The values left to confirm (all below 2^planes: a value above every split's
                // is not an option, and caps the answer).
                let planes = t.sliced.planes();
                let most = SLICED_TARGET_PLANES / planes;
                // Gathered in one pass, given up on as soon as there are too many.
                let mut cap = common;
                let targets = &mut self.targets;
                targets.clear();
                let mut few = true;
                for &v in &confirm[low..] {
                    if v >= cap {
                        break;
                    }
                    if seen[v as usize] == stamp {
                        continue;
                    }
                    if v >> planes != 0 {
                        cap = v;
                        break;
                    }
                    if targets.len() == most {
                        few = false;
                        break;
                    }
                    targets.push(v as u16);
                }
                if few {
                    return self.scan_sliced(t, stamp, start, cap);
                }
            }
        }
        // Every split has been seen: confirm[low] is not an option.
        confirm[low]
    }

    /// Goes on with `scan` from the splits (start, m - start) on, looking for the values in
    /// `self.targets` in the bit-sliced table; the value is the smallest not found, else `cap`.
    fn scan_sliced(&mut self, t: &Tables, stamp: u32, start: usize, cap: u32) -> u32 {
        let targets = &mut self.targets;
        let sliced = &t.sliced;
        let ranges = &self.ranges;
        // Only the first few splits are ever left out, below the first block of 64.
        debug_assert!(ranges.iter().all(|r| r.first <= start));
        // The splits the bit-sliced table holds, then those it does not.
        let held = |r: &Splits| r.last.min(sliced.last_held(r.m));
        let longest_held = ranges.iter().map(held).max().unwrap_or(0);
        let mut a = start;
        while a <= longest_held && !targets.is_empty() {
            // Many values: several blocks per look-up of each (a few more splits than needed
            // may be looked at).
            let lanes = if targets.len() > SLICED_FEW { LANES } else { 1 };
            for r in ranges {
                let last = held(r);
                if a <= last {
                    if lanes > 1 {
                        sliced.confirm_blocks(r.m, a, last, targets, &mut self.scratch);
                    } else {
                        sliced.confirm_block(r.m, a, last, targets, &mut self.scratch);
                    }
                }
            }
            a += 64 * lanes;
        }
        if !targets.is_empty() {
            let g = &t.g[..];
            let seen = &mut *self.seen;
            let longest = ranges.iter().map(|r| r.last).max().unwrap_or(0);
            let mut start = ranges
                .iter()
                .map(|r| held(r) + 1)
                .min()
                .unwrap_or(start)
                .max(start);
            while start <= longest && !targets.is_empty() {
                let end = (start + SCAN_BLOCK - 1).min(longest);
                for r in ranges {
                    let first = start.max(held(r) + 1);
                    let end = end.min(r.last);
                    if first > end {
                        continue;
                    }
                    let small = &g[first..=end];
                    let large = &g[r.m - end..=r.m - first];
                    for (&x, &y) in small.iter().zip(large.iter().rev()) {
                        seen[usize::from(x ^ y)] = stamp;
                    }
                }
                targets.retain(|&t| seen[usize::from(t)] != stamp);
                start = end + 1;
            }
        }
        targets.iter().map(|&t| u32::from(t)).min().unwrap_or(cap)
    }
}

/// Whether v is marked as an option of the heap whose stamp is `stamp`.
#[inline]
fn marked(seen: &[u32; 1 << 16], v: u32, stamp: u32) -> bool {
    v < NO_VALUE && seen[v as usize] == stamp
}

impl Tables {
    /// Picks the mask and twist with the fewest rare heaps for the values so far (by
    /// Walsh–Hadamard transforms of the histograms) and rebuilds the rare list.
    fn choose_mask(&mut self) {
        let size = value_bound(self.max_value).min(1 << 16);
        // w[p][m] = sum over heaps of parity p of (-1)^popcount(G & m); heaps of parity p whose
        // masked value has even popcount number (total[p] + w[p][m]) / 2.
        let transform = |hist: &[u64]| -> Vec<i64> {
            let mut w: Vec<i64> = hist[..size].iter().map(|&c| c as i64).collect();
            let mut h = 1;
            while h < size {
                for i in (0..size).step_by(2 * h) {
                    for j in i..i + h {
                        let (x, y) = (w[j], w[j + h]);
                        w[j] = x + y;
                        w[j + h] = x - y;
                    }
                }
                h *= 2;
            }
            w
        };
        let w = [transform(&self.hist[0]), transform(&self.hist[1])];
        let total = [w[0][0], w[1][0]];
        // Without the twist the rare heaps are those with an even masked popcount; with it, the
        // heaps a whose popcount parity equals (a + q) mod 2 (q: the parity of the split
        // digits). Mask 0 makes every heap rare without the twist, so it is only a candidate
        // with it.
        let plain = (1..size).map(|m| ((total[0] + w[0][m] + total[1] + w[1][m]) / 2, false, m));
        let (s0, s1) = if self.split_parity == 0 {
            (1, -1)
        } else {
            (-1, 1)
        };
        let twisted = (0..size).filter(|_| self.twist_allowed).map(|m| {
            (
                (total[0] + s0 * w[0][m] + total[1] + s1 * w[1][m]) / 2,
                true,
                m,
            )
        });
        let (_, twist, mask) = plain.chain(twisted).min().unwrap_or((0, false, 1));
        self.mask = mask as u16;
        self.twist = twist;
        let (odd, even): (Vec<u32>, Vec<u32>) =
            (0..NO_VALUE).partition(|&v| (v as u16 & self.mask).count_ones() & 1 == 1);
        self.by_parity = [even, odd];
        for list in &mut self.by_parity {
            list.push(NO_VALUE);
        }
        self.rare.clear();
        self.rare_values.clear();
        for n in 1..self.g.len() {
            if !self.key(n, self.g[n]) {
                self.rare.push(n as u32);
                self.rare_values.push(self.g[n]);
            }
        }
        self.rare_at_choice = self.rare.len();
        self.next_review = (2 * self.g.len()).max(FIRST_REVIEW);
    }
}

/// Marks the values of the splits (r, m - r) of the rare heaps r (all below m), leaving out
/// (m/2, m/2) when the split must be unequal.
fn mark_rare_pairs(
    seen: &mut [u32; 1 << 16],
    g: &[u16],
    m: usize,
    unequal: bool,
    rare: &[u32],
    values: &[u16],
    stamp: u32,
) {
    if unequal && m % 2 == 0 {
        let i = rare.partition_point(|&r| (r as usize) < m / 2);
        if rare.get(i) == Some(&(m as u32 / 2)) {
            mark_pairs(seen, g, m, &rare[..i], &values[..i], stamp);
            mark_pairs(seen, g, m, &rare[i + 1..], &values[i + 1..], stamp);
            return;
        }
    }
    mark_pairs(seen, g, m, rare, values, stamp);
}

/// Marks the values of the splits (r, m - r) (every r below m).
#[inline(never)]
fn mark_pairs(
    seen: &mut [u32; 1 << 16],
    g: &[u16],
    m: usize,
    rare: &[u32],
    values: &[u16],
    stamp: u32,
) {
    // Every pair's large heap is in the table (the table may end before m - 1 when heap m
    // is one past it).
    let g = &g[..m.min(g.len())];
    let mut rare4 = rare.chunks_exact(4);
    let mut values4 = values.chunks_exact(4);
    for (r, v) in (&mut rare4).zip(&mut values4) {
        let x = [
            v[0] ^ g[m - r[0] as usize],
            v[1] ^ g[m - r[1] as usize],
            v[2] ^ g[m - r[2] as usize],
            v[3] ^ g[m - r[3] as usize],
        ];
        for x in x {
            seen[usize::from(x)] = stamp;
        }
    }
    for (&r, &v) in rare4.remainder().iter().zip(values4.remainder()) {
        seen[usize::from(v ^ g[m - r as usize])] = stamp;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive;

    /// Compares the sparse engine with the naive one, with the full bit-sliced window and with
    /// windows small enough that most splits beyond the first few are confirmed by marking.
    fn check(code: &str, max: usize) {
        let game: OctalGame = code.parse().unwrap();
        let expected = naive::values(&game, max).unwrap();
        for window in [WINDOW, 128, 512] {
            let mut engine = SparseEngine::resume_with_window(&game, Vec::new(), window).unwrap();
            engine.extend_to(max).unwrap();
            assert_eq!(engine.values(), &expected[..], "{code}, window {window}");
        }
    }

    #[test]
    fn agrees_with_naive_on_named_games() {
        for code in [
            "0.77", "0.07", "0.137", "0.007", "0.16", "0.6", "4!.0", "4.07", "0.4!4", "0.0", "0.3",
            "0.57", "4.0", "0.04", "0.777", "0.7",
        ] {
            check(code, 3000);
        }
    }

    #[test]
    fn agrees_with_naive_on_all_three_digit_octal_codes() {
        for d1 in 0..8 {
            for d2 in 0..8 {
                for d3 in 0..8 {
                    check(&format!("0.{d1}{d2}{d3}"), 2000);
                }
            }
        }
    }

    #[test]
    fn shared_blocks_give_the_sequential_values() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for (code, max) in [
            ("4!.0", 100_000),
            ("0.6", 100_000),
            ("0.007", 72_000),
            ("0.77", 90_000),
            ("0.16", 90_000),
            ("4.07", 90_000),
            ("0.4!4", 90_000),
        ] {
            let game: OctalGame = code.parse().unwrap();
            let mut one = SparseEngine::new(&game).unwrap();
            one.extend_to(max).unwrap();
            let mut two = SparseEngine::new(&game).unwrap();
            // In pieces, as the command line does, to cross block and chunk boundaries.
            pool.install(|| {
                for target in [70_000, 70_001, 85_555, max] {
                    two.extend_to_parallel(target.min(max)).unwrap();
                }
            });
            assert_eq!(one.values(), two.values(), "{code}");
        }
    }

    #[test]
    fn shared_blocks_from_the_start_give_the_sequential_values() {
        // Every block of small tables shared, from the first heap on, while masks are
        // re-chosen: the second block's left-out options often hold its first guess, which is
        // then computed again.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let codes = [
            "0.77", "0.07", "0.137", "0.007", "0.16", "0.6", "4!.0", "4.07", "0.4!4", "0.57",
            "0.777", "0.0707", "0.4", "0.54", "0.37", "0.1777", "0.354", "0.376",
        ];
        for code in codes {
            let game: OctalGame = code.parse().unwrap();
            let mut one = SparseEngine::new(&game).unwrap();
            one.extend_to(6000).unwrap();
            let mut two = SparseEngine::new(&game).unwrap();
            pool.install(|| {
                for target in [100, 1500, 1501, 4097, 6000] {
                    two.extend_to_parallel_from(target, 0, true).unwrap();
                }
            });
            assert_eq!(one.values(), two.values(), "{code}");
        }
    }

    #[test]
    fn three_heap_games_are_left_to_the_naive_engine() {
        let game: OctalGame = "0.8".parse().unwrap();
        assert!(matches!(
            SparseEngine::new(&game),
            Err(GrundyError::Unsupported(_))
        ));
    }
}
