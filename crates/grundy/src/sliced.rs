//! Bit-sliced copies of an octal table, for testing 64 splits at once against a few values.
//!
//! Plane b holds bit b of every value. The *forward* planes hold the small heaps a in increasing
//! order; the *ring* holds the last `window` heaps in decreasing order (heap h at bit
//! `-h mod window`), so that the large heaps m - a of the splits (a, m - a), a = a0..a0 + 63, lie
//! side by side too. XORing the two gives, plane by plane, the values of 64 splits; a value t is
//! among them when some bit position agrees with t on every plane.

/// Heaps held by the ring, and small heaps held by the forward planes: splits whose small heap
/// is beyond it are rare enough to be left to marking.
pub(crate) const WINDOW: usize = 1 << 18;

/// The most planes: values are u16.
pub(crate) const MAX_PLANES: usize = 16;

#[derive(Debug, Clone)]
pub(crate) struct Sliced {
    /// Planes in use: every value so far is below 2^planes.
    planes: usize,
    /// Heaps held by each side, a power of two, at least 128.
    window: usize,
    /// Word w of plane b at `w * MAX_PLANES + b`, heaps 0..window.
    forward: Vec<u64>,
    /// Likewise, heap h at bit `-h mod window`.
    ring: Vec<u64>,
    /// Heaps pushed so far.
    len: usize,
}

impl Sliced {
    /// Empty copies that hold `window` heaps on each side.
    pub(crate) fn new(window: usize) -> Self {
        assert!(window.is_power_of_two() && window >= 128);
        Sliced {
            planes: 1,
            window,
            forward: vec![0; window / 64 * MAX_PLANES],
            ring: vec![0; window / 64 * MAX_PLANES],
            len: 0,
        }
    }

    /// The planes in use.
    pub(crate) fn planes(&self) -> usize {
        self.planes
    }

    /// Appends the value of the next heap.
    pub(crate) fn push(&mut self, v: u16) {
        let h = self.len;
        self.len += 1;
        let used = (16 - v.leading_zeros()) as usize;
        // Planes added now are zero for every earlier heap, whose values are below 2^planes.
        self.planes = self.planes.max(used);
        if h < self.window {
            let word = &mut self.forward[(h >> 6) * MAX_PLANES..][..MAX_PLANES];
            for (b, w) in word.iter_mut().enumerate() {
                *w |= u64::from(v >> b & 1) << (h & 63);
            }
        }
        let pos = h.wrapping_neg() & (self.window - 1);
        let word = &mut self.ring[(pos >> 6) * MAX_PLANES..][..MAX_PLANES];
        let bit = 1u64 << (pos & 63);
        for (b, w) in word.iter_mut().enumerate() {
            *w = (*w & !bit) | (u64::from(v >> b & 1) << (pos & 63));
        }
    }

    /// The largest a for which the splits (a, m - a) of a heap of `n` removing `n - m` are held
    /// (the small heap by the forward planes, the large one by the ring), given that heap `n`
    /// is the next to be pushed.
    pub(crate) fn last_held(&self, n: usize, m: usize) -> usize {
        debug_assert_eq!(n, self.len);
        // The ring holds heaps n - window..n: m - a >= n - window.
        (self.window - 1).min((m + self.window).saturating_sub(n))
    }

    /// Removes from `targets` every value made by a split (a, m - a) with `first <= a <= last`
    /// and `a < first + 64` (`first` a multiple of 64, `last <= last_held(n, m)`).
    pub(crate) fn confirm_block(
        &self,
        m: usize,
        first: usize,
        last: usize,
        targets: &mut Vec<u16>,
        scratch: &mut Scratch,
    ) {
        debug_assert_eq!(first % 64, 0);
        debug_assert!(first <= last);
        // Planes in groups of four; x stays zero above `planes`.
        let planes = self.planes;
        let groups = planes.div_ceil(4);
        let mut x = [0u64; MAX_PLANES];
        let f = &self.forward[(first >> 6) * MAX_PLANES..][..MAX_PLANES];
        let pos = first.wrapping_sub(m) & (self.window - 1);
        let (i, s) = (pos >> 6, (pos & 63) as u32);
        let q0 = &self.ring[i * MAX_PLANES..][..MAX_PLANES];
        let next = (i + 1) & (self.window / 64 - 1);
        let q1 = &self.ring[next * MAX_PLANES..][..MAX_PLANES];
        for (((xb, &fb), &lo), &hi) in x.iter_mut().zip(f).zip(q0).zip(q1).take(planes) {
            // The two-step left shift is zero, not undefined, when s = 0.
            *xb = fb ^ (lo >> s) ^ ((hi << 1) << (63 - s));
        }
        let count = last - first + 1;
        let valid = if count >= 64 {
            u64::MAX
        } else {
            (1u64 << count) - 1
        };
        if targets.len() <= 2 {
            // Too few values to pay for the tables below.
            targets.retain(|&t| {
                x.iter()
                    .take(planes)
                    .enumerate()
                    .fold(valid, |hit, (b, &xb)| {
                        hit & (xb ^ u64::from(t >> b & 1).wrapping_sub(1))
                    })
                    == 0
            });
            return;
        }
        // tables[g][u]: the splits whose value has the nibble u in bits 4g..4g + 4 (only the
        // nibbles below 2^planes in the last group: no target has others).
        let tables = &mut scratch.tables;
        for (g, (table, x)) in tables
            .iter_mut()
            .zip(x.chunks_exact(4))
            .take(groups)
            .enumerate()
        {
            let pair = |b0: u64, b1: u64| [!b0 & !b1, b0 & !b1, !b0 & b1, b0 & b1];
            let low = pair(x[0], x[1]);
            let high = pair(x[2], x[3]);
            let entries = 1 << (planes - 4 * g).min(4);
            for (u, t) in table.iter_mut().enumerate().take(entries) {
                *t = low[u & 3] & high[u >> 2];
            }
        }
        match groups {
            1 => remove_found::<1>(tables, valid, targets),
            2 => remove_found::<2>(tables, valid, targets),
            3 => remove_found::<3>(tables, valid, targets),
            _ => remove_found::<4>(tables, valid, targets),
        }
    }
}

/// Working space of [`Sliced::confirm_block`], kept between calls.
#[derive(Debug, Clone)]
pub(crate) struct Scratch {
    tables: [[u64; 16]; MAX_PLANES / 4],
}

impl Scratch {
    pub(crate) fn new() -> Self {
        Scratch {
            tables: [[0; 16]; MAX_PLANES / 4],
        }
    }
}

/// Removes the targets found in the 64 splits that `tables` describe (`G` groups of planes).
#[inline(always)]
fn remove_found<const G: usize>(
    tables: &[[u64; 16]; MAX_PLANES / 4],
    valid: u64,
    targets: &mut Vec<u16>,
) {
    let mut j = 0;
    while j < targets.len() {
        let t = usize::from(targets[j]);
        let mut hit = valid;
        for (g, table) in tables.iter().enumerate().take(G) {
            hit &= table[(t >> (4 * g)) & 15];
        }
        if hit != 0 {
            targets.swap_remove(j);
        } else {
            j += 1;
        }
    }
}
