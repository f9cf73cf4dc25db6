//! Splits scanned ahead by a second thread.
//!
//! While the first thread computes a block of heaps, the second takes the next block and
//! gathers, for each of its heaps, the values of the splits (a, m - a) with `from <= a < to`.
//! Those splits are far enough from the heaps being computed that both of their heaps are
//! already known; the first thread then scans only the splits below `from`, takes the values
//! found ahead, and goes on from `to` for the values still unconfirmed, which are few.
//!
//! The second thread works on copies of the values it reads, so the two threads share nothing
//! while they run. Which splits were scanned ahead never changes a value, only who found it.

/// The work of scanning ahead the splits `from..to` of heaps `first..first + count`.
pub(super) struct AheadJob {
    pub(super) first: usize,
    pub(super) count: usize,
    /// (k, unequal) per split digit, as in the engine.
    pub(super) splits: Vec<(usize, bool)>,
    pub(super) from: usize,
    pub(super) to: usize,
    /// Words per heap of the value sets: every value of the table so far is below 64·words.
    pub(super) words: usize,
    /// The values of heaps 0..to (the small heaps of the splits).
    pub(super) small: Vec<u16>,
    /// The values of heaps base..base + large.len() (the large heaps of the splits).
    pub(super) large: Vec<u16>,
    pub(super) base: usize,
}

/// The values of the splits scanned ahead, one bitset per heap.
pub(super) struct Ahead {
    first: usize,
    count: usize,
    pub(super) from: usize,
    pub(super) to: usize,
    words: usize,
    sets: Vec<u64>,
}

impl AheadJob {
    /// Scans the splits and returns their values.
    pub(super) fn run(self) -> Ahead {
        let words = self.words;
        let mut sets = vec![0u64; self.count * words];
        // Byte marks, packed into bits once per heap: stores without reading back.
        let mut marks = vec![0u8; words * 64];
        for (i, set) in sets.chunks_exact_mut(words).enumerate() {
            let n = self.first + i;
            marks.fill(0);
            for &(k, unequal) in &self.splits {
                if k + 2 > n {
                    continue;
                }
                let m = n - k;
                let last = if unequal && m % 2 == 0 {
                    m / 2 - 1
                } else {
                    m / 2
                };
                let hi = last.min(self.to - 1);
                if self.from > hi {
                    continue;
                }
                let small = &self.small[self.from..=hi];
                let large = &self.large[m - hi - self.base..=m - self.from - self.base];
                for (&x, &y) in small.iter().zip(large.iter().rev()) {
                    marks[usize::from(x ^ y)] = 1;
                }
            }
            for (word, bytes) in set.iter_mut().zip(marks.chunks_exact(64)) {
                *word = bytes
                    .iter()
                    .enumerate()
                    .fold(0, |acc, (j, &b)| acc | u64::from(b) << j);
            }
        }
        Ahead {
            first: self.first,
            count: self.count,
            from: self.from,
            to: self.to,
            words,
            sets,
        }
    }
}

impl Ahead {
    /// Whether this scan covers heap n.
    pub(super) fn covers(&self, n: usize) -> bool {
        (self.first..self.first + self.count).contains(&n)
    }

    /// Whether some split (a, m - a) of heap n with `from <= a < to` has the value v.
    pub(super) fn contains(&self, n: usize, v: u32) -> bool {
        let i = n - self.first;
        let v = v as usize;
        v < self.words * 64 && self.sets[i * self.words + v / 64] >> (v % 64) & 1 != 0
    }
}
