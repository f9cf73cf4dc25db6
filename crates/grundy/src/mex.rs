//! A bitset over Grundy values, sized to the values seen so far, for taking a mex.

/// A set of 16-bit values as a bitset whose width is a power of two covering every value (and
/// every XOR of values) that can occur, so clearing it costs only the words in use.
#[derive(Debug, Clone)]
pub(crate) struct ValueSet {
    words: Vec<u64>,
    used: usize,
}

impl ValueSet {
    pub(crate) fn new() -> Self {
        ValueSet {
            words: vec![0; 1 << 10],
            used: 1,
        }
    }

    /// Empties the set and sizes it for values below `bound` (a power of two, at most 2^16).
    pub(crate) fn reset(&mut self, bound: usize) {
        let used = bound.div_ceil(64).max(1);
        self.words[..used.max(self.used)].fill(0);
        self.used = used;
    }

    #[inline]
    pub(crate) fn insert(&mut self, v: u16) {
        self.words[usize::from(v) >> 6] |= 1u64 << (v & 63);
    }

    pub(crate) fn union_with(&mut self, other: &ValueSet) {
        for (a, b) in self.words[..self.used].iter_mut().zip(&other.words) {
            *a |= *b;
        }
    }

    /// The smallest value not in the set (the set's width if it is full).
    pub(crate) fn mex(&self) -> usize {
        for (i, &w) in self.words[..self.used].iter().enumerate() {
            if w != u64::MAX {
                return i * 64 + (!w).trailing_zeros() as usize;
            }
        }
        self.used * 64
    }
}

/// The power of two above every value up to `max` (so XORs of such values stay below it).
pub(crate) fn value_bound(max: u16) -> usize {
    (usize::from(max) + 1).next_power_of_two().max(64)
}
