//! The reference engine: for each heap size, every option is listed and its value put in a
//! bitset, and the value is the mex. Quadratic (cubic with three-heap splits), so it is the
//! yardstick the fast engine is tested against rather than the engine for record runs.

use rayon::prelude::*;

use crate::mex::{value_bound, ValueSet};
use crate::{GrundyError, OctalGame};

/// Below this many two-heap splits per option scan, splitting the scan between threads costs
/// more than it saves.
const PARALLEL_MIN_SPLITS: usize = 1 << 14;

/// The Grundy values G(0..=max) of an octal game by the naive mex, on one thread.
///
/// ```
/// use zermelo_grundy::{naive, OctalGame};
/// let kayles: OctalGame = "0.77".parse().unwrap();
/// assert_eq!(naive::values(&kayles, 8).unwrap(), vec![0, 1, 2, 3, 1, 4, 3, 2, 1]);
/// ```
pub fn values(game: &OctalGame, max: usize) -> Result<Vec<u16>, GrundyError> {
    extend(game, Vec::new(), max, false)
}

/// Like [`values`], splitting each large option scan between rayon's threads. The values are
/// the same for any number of threads.
///
/// ```
/// use zermelo_grundy::{naive, OctalGame};
/// let game: OctalGame = "0.6".parse().unwrap();
/// assert_eq!(naive::values_parallel(&game, 300).unwrap(), naive::values(&game, 300).unwrap());
/// ```
pub fn values_parallel(game: &OctalGame, max: usize) -> Result<Vec<u16>, GrundyError> {
    extend(game, Vec::new(), max, true)
}

/// Extends the table `g` (values G(0..g.len())) up to G(max) by the naive mex.
///
/// ```
/// use zermelo_grundy::{naive, OctalGame};
/// let game: OctalGame = "0.07".parse().unwrap();
/// let first = naive::values(&game, 10).unwrap();
/// assert_eq!(naive::extend(&game, first, 40, false).unwrap(), naive::values(&game, 40).unwrap());
/// ```
pub fn extend(
    game: &OctalGame,
    mut g: Vec<u16>,
    max: usize,
    parallel: bool,
) -> Result<Vec<u16>, GrundyError> {
    let mut max_value = g.iter().copied().max().unwrap_or(0);
    let mut set = ValueSet::new();
    while g.len() <= max {
        let n = g.len();
        let bound = value_bound(max_value);
        set.reset(bound);
        options_into(game, &g, n, &mut set, parallel, bound);
        let v = set.mex();
        let v = u16::try_from(v).map_err(|_| GrundyError::ValueOverflow {
            at: format!("heap {n}"),
        })?;
        max_value = max_value.max(v);
        g.push(v);
    }
    Ok(g)
}

/// Puts the value of every option of a heap of `n` into `set`.
fn options_into(
    game: &OctalGame,
    g: &[u16],
    n: usize,
    set: &mut ValueSet,
    parallel: bool,
    bound: usize,
) {
    for k in 0..=game.last_place().min(n) {
        let d = game.digit(k);
        let m = n - k;
        if d & 1 != 0 && m == 0 {
            set.insert(0);
        }
        if d & 2 != 0 && m >= 1 {
            set.insert(g[m]);
        }
        if d & 4 != 0 && m >= 2 {
            let skip_equal = game.is_unequal(k);
            let pairs = |range: std::ops::RangeInclusive<usize>, set: &mut ValueSet| {
                for a in range {
                    if !(skip_equal && 2 * a == m) {
                        set.insert(g[a] ^ g[m - a]);
                    }
                }
            };
            if parallel && m / 2 >= PARALLEL_MIN_SPLITS {
                let chunk = PARALLEL_MIN_SPLITS / 4;
                let chunks = (m / 2).div_ceil(chunk);
                let partial = (0..chunks)
                    .into_par_iter()
                    .fold(
                        || {
                            let mut s = ValueSet::new();
                            s.reset(bound);
                            s
                        },
                        |mut s, c| {
                            let lo = 1 + c * chunk;
                            let hi = ((c + 1) * chunk).min(m / 2);
                            pairs(lo..=hi, &mut s);
                            s
                        },
                    )
                    .reduce(
                        || {
                            let mut s = ValueSet::new();
                            s.reset(bound);
                            s
                        },
                        |mut a, b| {
                            a.union_with(&b);
                            a
                        },
                    );
                set.union_with(&partial);
            } else {
                pairs(1..=m / 2, set);
            }
        }
        if d & 8 != 0 && m >= 3 {
            for a in 1..=m / 3 {
                for b in a..=(m - a) / 2 {
                    set.insert(g[a] ^ g[b] ^ g[m - a - b]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values straight from the moves list: an independent restatement of the rules.
    fn by_moves(game: &OctalGame, max: usize) -> Vec<u16> {
        let mut g: Vec<u16> = Vec::new();
        for n in 0..=max {
            let opts: std::collections::HashSet<u16> = game
                .moves(n)
                .iter()
                .map(|mv| mv.heaps.iter().fold(0, |x, &h| x ^ g[h]))
                .collect();
            g.push((0..).find(|v| !opts.contains(v)).unwrap());
        }
        g
    }

    #[test]
    fn agrees_with_the_moves_list() {
        for code in [
            "0.77", "0.07", "0.137", "0.6", "4!.0", "4.07", "0.F", "0.8", "0.4!4", "8.0", "0.0",
        ] {
            let game: OctalGame = code.parse().unwrap();
            assert_eq!(values(&game, 120).unwrap(), by_moves(&game, 120), "{code}");
        }
    }

    #[test]
    fn nim_is_0_333_and_has_value_n() {
        let nim: OctalGame = "0.333333333333".parse().unwrap();
        let g = values(&nim, 12).unwrap();
        assert_eq!(g, (0..=12).collect::<Vec<u16>>());
    }

    #[test]
    fn parallel_scan_matches_sequential() {
        let game: OctalGame = "0.6".parse().unwrap();
        let n = 2 * PARALLEL_MIN_SPLITS + 500;
        let seq = values(&game, n).unwrap();
        let par = values_parallel(&game, n).unwrap();
        assert_eq!(seq, par);
    }
}
