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

    /// The largest a for which the splits (a, m - a) with m - a below the heaps pushed so far
    /// are held (the small heap by the forward planes, the large one by the ring).
    pub(crate) fn last_held(&self, m: usize) -> usize {
        // The ring holds heaps len - window..len: m - a >= len - window.
        (self.window - 1).min((m + self.window).saturating_sub(self.len))
    }

    /// Removes from `targets` every value made by a split (a, m - a) with `first <= a <= last`
    /// and `a < first + 64` (`first` a multiple of 64, `last <= last_held(m)`).
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
        let (x, valid) = self.splits(m, first, last);
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
        let tables = &mut scratch.tables;
        nibble_masks(&x, planes, |g, u, mask| tables[g][u] = mask);
        match groups {
            1 => remove_found::<1>(tables, valid, targets),
            2 => remove_found::<2>(tables, valid, targets),
            3 => remove_found::<3>(tables, valid, targets),
            _ => remove_found::<4>(tables, valid, targets),
        }
    }
}

impl Sliced {
    /// The values of the splits (a, m - a), a = first..first + 64, plane by plane (zero above
    /// `planes`), and the mask of those with `a <= last`.
    #[inline(always)]
    fn splits(&self, m: usize, first: usize, last: usize) -> ([u64; MAX_PLANES], u64) {
        let mut x = [0u64; MAX_PLANES];
        let f = &self.forward[(first >> 6) * MAX_PLANES..][..MAX_PLANES];
        let pos = first.wrapping_sub(m) & (self.window - 1);
        let (i, s) = (pos >> 6, (pos & 63) as u32);
        let q0 = &self.ring[i * MAX_PLANES..][..MAX_PLANES];
        let next = (i + 1) & (self.window / 64 - 1);
        let q1 = &self.ring[next * MAX_PLANES..][..MAX_PLANES];
        for (((xb, &fb), &lo), &hi) in x.iter_mut().zip(f).zip(q0).zip(q1).take(self.planes) {
            // The two-step left shift is zero, not undefined, when s = 0.
            *xb = fb ^ (lo >> s) ^ ((hi << 1) << (63 - s));
        }
        let count = last - first + 1;
        let valid = if count >= 64 {
            u64::MAX
        } else {
            (1u64 << count) - 1
        };
        (x, valid)
    }

    /// [`Sliced::confirm_block`] for the [`LANES`] blocks of 64 splits from `first` on at once
    /// (those beyond `last` are left out): each value left to confirm is looked up once for
    /// all of them.
    pub(crate) fn confirm_blocks(
        &self,
        m: usize,
        first: usize,
        last: usize,
        targets: &mut Vec<u16>,
        scratch: &mut Scratch,
    ) {
        debug_assert_eq!(first % 64, 0);
        debug_assert!(first <= last);
        let planes = self.planes;
        let groups = planes.div_ceil(4);
        let wide = &mut scratch.wide;
        for (lane, start) in (first..).step_by(64).take(LANES).enumerate() {
            let (x, valid) = if start <= last {
                self.splits(m, start, last)
            } else {
                ([0; MAX_PLANES], 0)
            };
            nibble_masks(&x, planes, |g, u, mask| {
                // The splits beyond `last` are cleared in the first group's table.
                wide[g][u][lane] = if g == 0 { mask & valid } else { mask };
            });
        }
        match groups {
            1 => remove_found_wide::<1>(wide, targets),
            2 => remove_found_wide::<2>(wide, targets),
            3 => remove_found_wide::<3>(wide, targets),
            _ => remove_found_wide::<4>(wide, targets),
        }
    }
}

/// For each group g of four planes of `x` among the first `planes`, gives `put(g, u, mask)`
/// the mask of the 64 splits whose value has the nibble u in bits 4g..4g + 4 (only the nibbles
/// below 2^planes in the last group: no value looked up has others).
#[inline(always)]
fn nibble_masks(x: &[u64; MAX_PLANES], planes: usize, mut put: impl FnMut(usize, usize, u64)) {
    for (g, x) in x.chunks_exact(4).take(planes.div_ceil(4)).enumerate() {
        let pair = |b0: u64, b1: u64| [!b0 & !b1, b0 & !b1, !b0 & b1, b0 & b1];
        let low = pair(x[0], x[1]);
        let high = pair(x[2], x[3]);
        for u in 0..1 << (planes - 4 * g).min(4) {
            put(g, u, low[u & 3] & high[u >> 2]);
        }
    }
}

/// Blocks of 64 splits that [`Sliced::confirm_blocks`] looks at together.
pub(crate) const LANES: usize = 4;

/// Working space of [`Sliced::confirm_block`] and [`Sliced::confirm_blocks`], kept between
/// calls.
#[derive(Debug, Clone)]
pub(crate) struct Scratch {
    tables: [[u64; 16]; MAX_PLANES / 4],
    /// `wide[g][u][lane]`: like `tables`, one word per block.
    wide: [[[u64; LANES]; 16]; MAX_PLANES / 4],
}

impl Scratch {
    pub(crate) fn new() -> Self {
        Scratch {
            tables: [[0; 16]; MAX_PLANES / 4],
            wide: [[[0; LANES]; 16]; MAX_PLANES / 4],
        }
    }
}

/// Removes the targets found in the blocks that `wide` describes (`G` groups of planes).
#[inline(always)]
fn remove_found_wide<const G: usize>(
    wide: &[[[u64; LANES]; 16]; MAX_PLANES / 4],
    targets: &mut Vec<u16>,
) {
    let mut j = 0;
    while j < targets.len() {
        let t = usize::from(targets[j]);
        let mut hit = [u64::MAX; LANES];
        for (g, table) in wide.iter().enumerate().take(G) {
            let row = &table[(t >> (4 * g)) & 15];
            for (h, &r) in hit.iter_mut().zip(row) {
                *h &= r;
            }
        }
        if hit.iter().fold(0, |acc, &h| acc | h) != 0 {
            targets.swap_remove(j);
        } else {
            j += 1;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `confirm_block` and `confirm_blocks` against the splits' values, on a table longer
    /// than the window (so that the ring wraps), for ranges that end inside a block, in a later
    /// block, or beyond the blocks looked at.
    #[test]
    fn confirm_finds_exactly_the_values_of_the_splits() {
        let window = 1024;
        let mut state = 7u64;
        let mut g = Vec::new();
        let mut sliced = Sliced::new(window);
        let mut scratch = Scratch::new();
        for n in 0..1600usize {
            if n >= 300 && n % 37 == 0 {
                for m in [n, n - 1, n - 5] {
                    for first in (64..=sliced.last_held(m).min(m / 2)).step_by(64) {
                        let most = sliced.last_held(m).min(m / 2);
                        for last in [first, first + 40, first + 100, first + 300, most] {
                            let last = last.min(most);
                            let all: Vec<u16> = (0..256).collect();
                            let mut one = all.clone();
                            sliced.confirm_block(m, first, last, &mut one, &mut scratch);
                            let mut wide = all.clone();
                            sliced.confirm_blocks(m, first, last, &mut wide, &mut scratch);
                            for (found, lanes) in [(one, 1), (wide, LANES)] {
                                let end = last.min(first + 64 * lanes - 1);
                                let mut made = vec![false; 1 << 16];
                                for a in first..=end {
                                    made[usize::from(g[a] ^ g[m - a])] = true;
                                }
                                let mut expected: Vec<u16> = all
                                    .iter()
                                    .copied()
                                    .filter(|&t| !made[usize::from(t)])
                                    .collect();
                                let mut found = found;
                                found.sort_unstable();
                                expected.sort_unstable();
                                assert_eq!(found, expected, "n {n} m {m} {first}..={last}");
                            }
                        }
                    }
                }
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Mostly small values, and a few large ones for more groups of planes.
            let v = if state >> 60 == 0 {
                (state >> 20) as u16 & 0x3fff
            } else {
                ((state >> 33) % 200) as u16
            };
            g.push(v);
            sliced.push(v);
        }
    }
}
