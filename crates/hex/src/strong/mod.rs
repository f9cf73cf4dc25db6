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
use ranking::{compact, deposit, next_set, Binomials};
pub use ranking::{Ranking, MAX_STRONG_SIZE};

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
}

impl Engine {
    /// An engine for the `size` x `size` board (1 to [`MAX_STRONG_SIZE`]) under `rules`.
    pub fn new(size: usize, rules: Rules) -> Result<Engine, StrongError> {
        let ranking = Ranking::new(size)?;
        Ok(Engine {
            ranking,
            rules,
            edges: Edges::new(size),
        })
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
    /// Memory: the new layer's bits, [`Engine::layer_bytes`], besides the next layer's.
    pub fn layer(
        &self,
        stones: usize,
        next: Option<&Layer>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(Layer, LayerCounts), StrongError> {
        self.check_next(stones, next)?;
        let len = self.ranking.layer_len(stones);
        let mut words = vec![0u64; words_for(len)];
        let counts = words
            .par_chunks_mut(CHUNK_WORDS)
            .enumerate()
            .map(|(chunk, words)| {
                let start = (chunk * CHUNK_WORDS * 64) as u64;
                let end = (start + words.len() as u64 * 64).min(len);
                let counts = self.fill(stones, start, end, next, words);
                progress(end - start);
                counts
            })
            .reduce(LayerCounts::default, |a, b| a + b);
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
        self.fill(stones, index, index + 1, next, &mut word);
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
    /// position i), and counts them.
    fn fill(
        &self,
        stones: usize,
        start: u64,
        end: u64,
        next: Option<&Layer>,
        words: &mut [u64],
    ) -> LayerCounts {
        let binom = self.ranking.binom();
        let cells = self.ranking.cells();
        let board = self.edges.board();
        let black_moves = stones % 2 == 0;
        let misere = self.rules == Rules::Misere;
        let white_sets = self.ranking.white_sets(stones);
        let child_white_sets = if stones < cells {
            self.ranking.white_sets(stones + 1)
        } else {
            0
        };
        let (black_count, white_count) = Ranking::stone_counts(stones);

        let mut black_rank = start / white_sets;
        let (mut black, white) = self.ranking.position(stones, start);
        let mut free = board & !black;
        let mut compact_white = compact(white, free);
        let compact_limit = 1u64 << (cells - black_count);
        let mut black_sums = [0u64; ranking::SUMS];
        insertion_sums(binom, black, &mut black_sums);
        let mut white_sums = [0u64; ranking::SUMS];
        let mut children = [0u64; ranking::SUMS * 2];
        let mut counts = LayerCounts::default();

        for index in start..end {
            let white = deposit(compact_white, free);
            let black_joined = self.edges.black_joins(black);
            let white_joined = !black_joined && self.edges.white_joins(white);
            let bit = if black_joined || white_joined {
                counts.terminal += 1;
                // Joined by the player who moved last: White moved last when Black is to move.
                let last_mover_joined = if black_moves {
                    white_joined
                } else {
                    black_joined
                };
                last_mover_joined && misere
            } else {
                let next = next.expect("a position with moves has a next layer");
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
                    let base = black_rank * child_white_sets;
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
                counts.mover_wins += u64::from(wins);
                wins
            };
            let offset = index - start;
            words[(offset / 64) as usize] |= u64::from(bit) << (offset % 64);
            counts.ones += u64::from(bit);

            // On to the next position: the next white set, or the next black set and the first
            // white set.
            if index + 1 < end {
                let next_white = if white_count > 0 {
                    next_set(compact_white)
                } else {
                    compact_limit
                };
                if next_white < compact_limit {
                    compact_white = next_white;
                } else {
                    black = next_set(black);
                    black_rank += 1;
                    free = board & !black;
                    compact_white = (1 << white_count) - 1;
                    insertion_sums(binom, black, &mut black_sums);
                }
            }
        }
        counts.positions = end - start;
        counts
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
