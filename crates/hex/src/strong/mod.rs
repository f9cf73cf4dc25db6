//! The strong solution of a small Hex board: the value of every position, layer by layer.
//!
//! A *layer* holds the positions with a given number of stones, Black having as many stones as
//! White or one more (Black moves first). Every move adds a stone, so a layer's values depend
//! only on the next layer's, and a retrograde pass from the full board down to the empty board
//! needs two layers in memory at a time. Within a layer, positions are numbered densely by the
//! [`Ranking`] (combinatorial number system, black set first), so a layer is a plain bit array:
//! [`Layer`], one bit per position.
//!
//! # What a bit means
//!
//! Bit `index` of layer `stones` is 1 when the side to move (Black when `stones` is even, White
//! otherwise) wins the position with perfect play under the rules of the table, and 0 when it
//! loses, with these conventions for positions where someone has connected (*terminal*
//! positions; both players cannot have connected at once):
//!
//! ```text
//! the player who moved last has connected    the game is over: the side to move has lost in
//!                                            normal play (bit 0), won in misère play (bit 1)
//! the side to move has connected             never reached in play (the game ended a move
//!                                            earlier): bit 0
//! nobody has connected                       bit 1 iff some move leads to a position whose
//!                                            bit is 0
//! ```
//!
//! The last rule needs no case for terminal children: a move that connects gives a child whose
//! mover has lost (bit 0) in normal play and won (bit 1) in misère play, which is what the mover
//! of the parent gets from that move; and a child of a position nobody has connected is never
//! one of the unreachable kind.
//!
//! ```
//! use zermelo_hex::strong::{Engine, Ranking};
//! use zermelo_hex::Rules;
//! let engine = Engine::new(3, Rules::Normal)?;
//! let mut next = None;
//! for stones in (0..=9).rev() {
//!     let (layer, _) = engine.layer(stones, next.as_ref(), &|_| {})?;
//!     next = Some(layer);
//! }
//! // Black, to move on the empty 3x3 board, wins.
//! assert!(next.unwrap().get(0));
//! # Ok::<(), zermelo_hex::strong::StrongError>(())
//! ```

mod connect;
mod ranking;

use rayon::prelude::*;

use crate::Rules;
use connect::Edges;
use ranking::{compact, next_set, rank_set, Binomials};
pub use ranking::{Ranking, MAX_STRONG_SIZE};
use std::sync::atomic::{AtomicU64, Ordering};

/// Positions a worker takes at a time: 2¹⁸ bits, 32 KiB of a layer.
const CHUNK_WORDS: usize = 1 << 12;

/// Why the engine could not compute or answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StrongError {
    /// The board size is not one the engine numbers.
    #[error("board size {0} is out of range: the strong solution handles 1x1 to {MAX_STRONG_SIZE}x{MAX_STRONG_SIZE}")]
    SizeOutOfRange(usize),
    /// A position has stones outside the board.
    #[error("position has stones outside the {size}x{size} board")]
    OffBoard {
        /// The board size.
        size: usize,
    },
    /// A position has a black and a white stone on the same cell.
    #[error("position has a black and a white stone on the same cell")]
    Overlap,
    /// A position whose stone counts no game reaches.
    #[error(
        "{black} black and {white} white stones: Black has as many stones as White or one more"
    )]
    StoneCounts {
        /// Black stones.
        black: usize,
        /// White stones.
        white: usize,
    },
    /// A layer is asked for with no next layer, or the wrong one.
    #[error("layer {stones} is computed from layer {}, not {given}", stones + 1)]
    WrongNextLayer {
        /// The layer asked for.
        stones: usize,
        /// The layer given (`usize::MAX` for none).
        given: usize,
    },
    /// A layer beyond the full board.
    #[error("a {size}x{size} board has layers 0 to {}, not {stones}", size * size)]
    NoSuchLayer {
        /// The board size.
        size: usize,
        /// The layer asked for.
        stones: usize,
    },
    /// Stored bits do not fit the layer they claim to be.
    #[error("layer {stones} has {expected} words of bits, found {found} (or nonzero padding)")]
    LayerWords {
        /// The layer.
        stones: usize,
        /// The words a layer of that size has.
        expected: usize,
        /// The words found.
        found: usize,
    },
}

/// The values of one layer: bit `index` for position `index` of the [`Ranking`], in 64-bit
/// words, position i at bit i mod 64 of word ⌊i/64⌋; the padding bits of the last word are 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    stones: usize,
    len: u64,
    words: Vec<u64>,
}

impl Layer {
    /// Rebuilds a layer from its words (as [`Layer::words`] gives them), checking their number
    /// and the padding against the board.
    pub fn from_words(
        ranking: &Ranking,
        stones: usize,
        words: Vec<u64>,
    ) -> Result<Layer, StrongError> {
        if stones > ranking.cells() {
            return Err(StrongError::NoSuchLayer {
                size: ranking.size(),
                stones,
            });
        }
        let len = ranking.layer_len(stones);
        let expected = words_for(len);
        let used = len % 64;
        let padding_ok = used == 0 || words.last().is_some_and(|w| w >> used == 0);
        if words.len() != expected || !padding_ok {
            return Err(StrongError::LayerWords {
                stones,
                expected,
                found: words.len(),
            });
        }
        Ok(Layer { stones, len, words })
    }

    /// The value bit of position `index` (below [`Layer::len`]): see the [module docs](self).
    #[inline]
    #[must_use]
    pub fn get(&self, index: u64) -> bool {
        self.words[(index / 64) as usize] >> (index % 64) & 1 == 1
    }

    /// The number of stones of this layer's positions.
    #[must_use]
    pub fn stones(&self) -> usize {
        self.stones
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the layer has no positions (never: every layer has at least one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bits, 64 positions a word.
    #[must_use]
    pub fn words(&self) -> &[u64] {
        &self.words
    }
}

/// The 64-bit words a layer of `len` positions takes.
fn words_for(len: u64) -> usize {
    len.div_ceil(64) as usize
}

/// What a layer holds, counted as it is computed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LayerCounts {
    /// Every position of the layer.
    pub positions: u64,
    /// Positions where someone has connected.
    pub terminal: u64,
    /// Positions nobody has connected that the side to move wins.
    pub mover_wins: u64,
    /// Bits set in the layer: `mover_wins`, plus in misère play the finished games.
    pub ones: u64,
}

impl std::ops::Add for LayerCounts {
    type Output = LayerCounts;
    fn add(self, o: LayerCounts) -> LayerCounts {
        LayerCounts {
            positions: self.positions + o.positions,
            terminal: self.terminal + o.terminal,
            mover_wins: self.mover_wins + o.mover_wins,
            ones: self.ones + o.ones,
        }
    }
}

/// The layered retrograde engine for one board size and one set of rules.
#[derive(Debug, Clone)]
pub struct Engine {
    ranking: Ranking,
    rules: Rules,
    edges: Edges,
    rotation: bool,
}

impl Engine {
    /// An engine for the `size` x `size` board (1 to [`MAX_STRONG_SIZE`]) under `rules`.
    pub fn new(size: usize, rules: Rules) -> Result<Engine, StrongError> {
        let ranking = Ranking::new(size)?;
        Ok(Engine {
            ranking,
            rules,
            edges: Edges::new(size),
            rotation: true,
        })
    }

    /// The same engine searching every position, without the 180° rotation: it writes the
    /// same layers, more slowly (a check of the rotation, and its measure).
    #[must_use]
    pub fn without_rotation(self) -> Engine {
        Engine {
            rotation: false,
            ..self
        }
    }

    /// The numbering of the positions.
    #[must_use]
    pub fn ranking(&self) -> &Ranking {
        &self.ranking
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Bytes of memory the bits of layer `stones` take.
    #[must_use]
    pub fn layer_bytes(&self, stones: usize) -> u64 {
        words_for(self.ranking.layer_len(stones)) as u64 * 8
    }

    /// Computes layer `stones` from the next one (`None` only for the full board, which has no
    /// moves left), on rayon's threads; `progress` is told of every batch of positions done.
    ///
    /// With the rotation (the default), a position whose 180° rotation has a smaller index is
    /// not searched: a second, cheap pass copies its mirror's bit.
    ///
    /// Memory: the new layer's bits, [`Engine::layer_bytes`], besides the next layer's.
    pub fn layer(
        &self,
        stones: usize,
        next: Option<&Layer>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(Layer, LayerCounts), StrongError> {
        self.check_next(stones, next)?;
        let len = self.ranking.layer_len(stones);
        let words: Vec<AtomicU64> = vec![0u64; words_for(len)]
            .into_iter()
            .map(AtomicU64::new)
            .collect();
        let bounds = |chunk: usize, words: &[AtomicU64]| {
            let start = (chunk * CHUNK_WORDS * 64) as u64;
            (start, (start + words.len() as u64 * 64).min(len))
        };
        let counts = words
            .par_chunks(CHUNK_WORDS)
            .enumerate()
            .map(|(chunk, words)| {
                let (start, end) = bounds(chunk, words);
                let mut bits = vec![0u64; words.len()];
                let (counts, searched) =
                    self.fill(stones, start, end, next, self.rotation, &mut bits);
                for (word, bits) in words.iter().zip(bits) {
                    word.store(bits, Ordering::Relaxed);
                }
                progress(searched);
                counts
            })
            .reduce(LayerCounts::default, |a, b| a + b);
        if self.rotation {
            words
                .par_chunks(CHUNK_WORDS)
                .enumerate()
                .for_each(|(chunk, chunk_words)| {
                    let (start, end) = bounds(chunk, chunk_words);
                    let copied = self.fill_mirrors(stones, start, end, &words, chunk_words);
                    progress(copied);
                });
        }
        // The same allocation, taken back as plain words (same size and alignment).
        let words = words.into_iter().map(AtomicU64::into_inner).collect();
        Ok((Layer { stones, len, words }, counts))
    }

    /// The value bit of one position of layer `stones`, from the next layer, as
    /// [`Engine::layer`] would compute it.
    pub fn value(
        &self,
        stones: usize,
        index: u64,
        next: Option<&Layer>,
    ) -> Result<bool, StrongError> {
        self.check_next(stones, next)?;
        let mut word = [0u64];
        let _ = self.fill(stones, index, index + 1, next, false, &mut word);
        Ok(word[0] & 1 == 1)
    }

    fn check_next(&self, stones: usize, next: Option<&Layer>) -> Result<(), StrongError> {
        let cells = self.ranking.cells();
        if stones > cells {
            return Err(StrongError::NoSuchLayer {
                size: self.ranking.size(),
                stones,
            });
        }
        let given = next.map_or(usize::MAX, Layer::stones);
        if (stones < cells && given != stones + 1) || (stones == cells && next.is_some()) {
            return Err(StrongError::WrongNextLayer { stones, given });
        }
        Ok(())
    }

    /// Computes positions `start..end` of layer `stones` into `words` (bit i − start for
    /// position i), and counts them; gives the counts and the number of positions searched.
    /// With `rotation`, positions whose rotation has a smaller index are left at 0 for
    /// [`Engine::fill_mirrors`], and each position searched counts for its rotation too.
    fn fill(
        &self,
        stones: usize,
        start: u64,
        end: u64,
        next: Option<&Layer>,
        rotation: bool,
        words: &mut [u64],
    ) -> (LayerCounts, u64) {
        let binom = self.ranking.binom();
        let cells = self.ranking.cells();
        let black_moves = stones % 2 == 0;
        let misere = self.rules == Rules::Misere;
        let child_white_sets = if stones < cells {
            self.ranking.white_sets(stones + 1)
        } else {
            0
        };
        let mut walk = Walk::new(&self.ranking, stones, start);
        let mut mirror_rank = walk.mirror_black_rank();
        let mut black_sums = [0u64; ranking::SUMS];
        insertion_sums(binom, walk.black, &mut black_sums);
        let mut white_sums = [0u64; ranking::SUMS];
        let mut children = [0u64; ranking::SUMS];
        let mut counts = LayerCounts {
            positions: end - start,
            ..LayerCounts::default()
        };

        let mut searched = 0;
        let mut index = start;
        while index < end {
            // How many positions this one stands for: 2 with its rotation, 1 when it is its own
            // rotation, 0 when its rotation (smaller) stands for it.
            let weight = if !rotation {
                1
            } else if mirror_rank != walk.black_rank {
                if mirror_rank < walk.black_rank {
                    // The whole black set is the rotation of an earlier one: skip it.
                    index += walk.white_sets - walk.white_rank;
                    if index < end {
                        walk.next_black();
                        mirror_rank = walk.mirror_black_rank();
                        insertion_sums(binom, walk.black, &mut black_sums);
                    }
                    continue;
                }
                2
            } else {
                match walk.mirror_index().cmp(&index) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                }
            };
            if weight > 0 {
                searched += 1;
                let (black, white, free) = (walk.black, walk.white, walk.free);
                let black_joined = self.edges.black_joins(black);
                let white_joined = !black_joined && self.edges.white_joins(white);
                let bit = if black_joined || white_joined {
                    counts.terminal += weight;
                    // Joined by the player who moved last: White when Black is to move.
                    let last_mover_joined = if black_moves {
                        white_joined
                    } else {
                        black_joined
                    };
                    last_mover_joined && misere
                } else {
                    let next = next.expect("a position with moves has a next layer");
                    let compact_white = compact(white, free);
                    let mut empty = free & !white;
                    let mut n = 0;
                    if black_moves {
                        shifted_sums(binom, compact_white, &mut white_sums);
                        while empty != 0 {
                            let c = empty.trailing_zeros() as usize;
                            let below = (1u64 << c) - 1;
                            let t = (black & below).count_ones() as usize;
                            let s = (white & below).count_ones() as usize;
                            children[n] = (black_sums[t] + binom.get(c, t + 1)) * child_white_sets
                                + white_sums[s];
                            n += 1;
                            empty &= empty - 1;
                        }
                    } else {
                        insertion_sums(binom, compact_white, &mut white_sums);
                        let base = walk.black_rank * child_white_sets;
                        while empty != 0 {
                            let c = empty.trailing_zeros() as usize;
                            let below = (1u64 << c) - 1;
                            let q = c - (black & below).count_ones() as usize;
                            let s = (white & below).count_ones() as usize;
                            children[n] = base + white_sums[s] + binom.get(q, s + 1);
                            n += 1;
                            empty &= empty - 1;
                        }
                    }
                    let wins = children[..n].iter().any(|&child| !next.get(child));
                    counts.mover_wins += weight * u64::from(wins);
                    wins
                };
                let offset = index - start;
                words[(offset / 64) as usize] |= u64::from(bit) << (offset % 64);
                counts.ones += weight * u64::from(bit);
            }
            index += 1;
            if index < end && walk.step() {
                mirror_rank = walk.mirror_black_rank();
                insertion_sums(binom, walk.black, &mut black_sums);
            }
        }
        (counts, searched)
    }

    /// The second pass of the rotation: gives each position of `start..end` that
    /// [`Engine::fill`] left to its rotation the bit of its rotation, read from `layer` (whose
    /// searched bits are all final), into `words` (the words of `start..end`); gives the number
    /// of bits copied.
    fn fill_mirrors(
        &self,
        stones: usize,
        start: u64,
        end: u64,
        layer: &[AtomicU64],
        words: &[AtomicU64],
    ) -> u64 {
        let mut walk = Walk::new(&self.ranking, stones, start);
        let mut mirror_rank = walk.mirror_black_rank();
        let mut copied = 0;
        let mut bits = 0u64;
        let mut index = start;
        let get = |i: u64| layer[(i / 64) as usize].load(Ordering::Relaxed) >> (i % 64) & 1;
        while index < end {
            let offset = index - start;
            if mirror_rank > walk.black_rank {
                // Every position of this black set was searched.
                let skip = (walk.white_sets - walk.white_rank).min(end - index);
                // Flush the bits of the words passed over.
                let last = offset + skip;
                if (offset / 64) != (last / 64) || last == end - start {
                    words[(offset / 64) as usize].fetch_or(bits, Ordering::Relaxed);
                    bits = 0;
                }
                index += skip;
                if index < end {
                    walk.next_black();
                    mirror_rank = walk.mirror_black_rank();
                }
                continue;
            }
            let mirror = walk.mirror_index();
            if mirror < index {
                bits |= get(mirror) << (offset % 64);
                copied += 1;
            }
            index += 1;
            if offset % 64 == 63 || index == end {
                words[(offset / 64) as usize].fetch_or(bits, Ordering::Relaxed);
                bits = 0;
            }
            if index < end && walk.step() {
                mirror_rank = walk.mirror_black_rank();
            }
        }
        copied
    }
}

/// The positions of a layer in index order, stepped through without ranking each afresh: the
/// white set moves to the next set of the cells not black (the next in the colex order of
/// their compact numbering), and when none is left, the black set to the next.
struct Walk<'a> {
    binom: &'a Binomials,
    board: u64,
    cells: usize,
    white_count: usize,
    /// White sets for each black set.
    white_sets: u64,
    black: u64,
    white: u64,
    /// The cells not black.
    free: u64,
    /// `lowest_free[m]`: the m lowest cells of `free`.
    lowest_free: [u64; ranking::SUMS],
    black_rank: u64,
    white_rank: u64,
    /// The cells the rotated black set leaves, and its rank.
    mirror_free: u64,
    mirror_base: u64,
}

impl<'a> Walk<'a> {
    fn new(ranking: &'a Ranking, stones: usize, index: u64) -> Walk<'a> {
        let cells = ranking.cells();
        let (black, white) = ranking.position(stones, index);
        let white_sets = ranking.white_sets(stones);
        let board = (1u64 << cells) - 1;
        let mut walk = Walk {
            binom: ranking.binom(),
            board,
            cells,
            white_count: Ranking::stone_counts(stones).1,
            white_sets,
            black,
            white,
            free: board & !black,
            lowest_free: [0; ranking::SUMS],
            black_rank: index / white_sets,
            white_rank: index % white_sets,
            mirror_free: 0,
            mirror_base: 0,
        };
        walk.set_lowest_free();
        walk
    }

    fn set_lowest_free(&mut self) {
        let mut rest = self.free;
        for m in 1..=self.free.count_ones() as usize {
            self.lowest_free[m] = self.lowest_free[m - 1] | (rest & rest.wrapping_neg());
            rest &= rest - 1;
        }
    }

    /// Moves to the next position (there must be one); true when the black set changed.
    #[inline]
    fn step(&mut self) -> bool {
        if self.white_count > 0 {
            // Add one at the lowest white cell, carrying through white and black cells alike:
            // the lowest run of white cells (in the compact numbering) moves up by one, and
            // all but one of its cells go back to the lowest free cells.
            let low = self.white & self.white.wrapping_neg();
            let raised = (self.white | !self.free).wrapping_add(low) & self.free;
            if raised != 0 {
                self.white =
                    raised | self.lowest_free[self.white_count - raised.count_ones() as usize];
                self.white_rank += 1;
                return false;
            }
        }
        self.next_black();
        true
    }

    /// Moves to the first position of the next black set (there must be one).
    fn next_black(&mut self) {
        self.black = next_set(self.black);
        self.black_rank += 1;
        self.free = self.board & !self.black;
        self.set_lowest_free();
        self.white = self.lowest_free[self.white_count];
        self.white_rank = 0;
    }

    /// The 180° rotation of a set of cells: cell i goes to n² − 1 − i.
    #[inline]
    fn rotate(&self, set: u64) -> u64 {
        set.reverse_bits() >> (64 - self.cells)
    }

    /// The rank of the rotated black set; keeps the rotated set for [`Walk::mirror_index`].
    fn mirror_black_rank(&mut self) -> u64 {
        let black = self.rotate(self.black);
        self.mirror_free = self.board & !black;
        self.mirror_base = rank_set(self.binom, black);
        self.mirror_base
    }

    /// The index of the rotated position ([`Walk::mirror_black_rank`] having been called for
    /// this black set): the rotated white set ranked among the cells the rotated black set
    /// leaves.
    #[inline]
    fn mirror_index(&self) -> u64 {
        let mut rest = self.rotate(self.white);
        let mut rank = self.mirror_base * self.white_sets;
        let mut j = 1;
        while rest != 0 {
            let cell = rest & rest.wrapping_neg();
            rank += self
                .binom
                .get((self.mirror_free & (cell - 1)).count_ones() as usize, j);
            j += 1;
            rest ^= cell;
        }
        rank
    }
}

/// For a set s₀ < s₁ < … of k cells, `sums[t]` = Σ_{i<t} C(sᵢ, i+1) + Σ_{i≥t} C(sᵢ, i+2) for t
/// in 0..=k: the rank of the set with a cell c inserted, t of its cells being below c, is
/// `sums[t] + C(c, t + 1)`.
#[inline]
fn insertion_sums(binom: &Binomials, set: u64, sums: &mut [u64; ranking::SUMS]) {
    let mut upper = 0;
    let mut rest = set;
    let mut i = 0;
    while rest != 0 {
        upper += binom.get(rest.trailing_zeros() as usize, i + 2);
        i += 1;
        rest &= rest - 1;
    }
    sums[0] = upper;
    let mut rest = set;
    let mut t = 1;
    while rest != 0 {
        let s = rest.trailing_zeros() as usize;
        sums[t] = sums[t - 1] - binom.get(s, t + 1) + binom.get(s, t);
        t += 1;
        rest &= rest - 1;
    }
}

/// For a set p₀ < p₁ < … of k places, `sums[s]` = Σ_{i<s} C(pᵢ, i+1) + Σ_{i≥s} C(pᵢ − 1, i+1):
/// the rank of the set once every place above a removed place (with s of the set's places
/// below it) moves down by one. A place 0 is never above a removed place; its term counts 0.
#[inline]
fn shifted_sums(binom: &Binomials, set: u64, sums: &mut [u64; ranking::SUMS]) {
    let below = |p: usize, k: usize| if p == 0 { 0 } else { binom.get(p - 1, k) };
    let mut lower = 0;
    let mut rest = set;
    let mut i = 0;
    while rest != 0 {
        lower += below(rest.trailing_zeros() as usize, i + 1);
        i += 1;
        rest &= rest - 1;
    }
    sums[0] = lower;
    let mut rest = set;
    let mut s = 1;
    while rest != 0 {
        let p = rest.trailing_zeros() as usize;
        sums[s] = sums[s - 1] - below(p, s) + binom.get(p, s);
        s += 1;
        rest &= rest - 1;
    }
}
