//! The games of Nim in disguise against brute forces that play each game as its rule says
//! (positions and moves of the game itself, memoised mex), sharing no code with the library's
//! reductions to Nim: every position up to a small size, its value and, for every value, the
//! moves that reach it.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use zermelo_grundy::disguise::{Coins, Move, Nimble, Northcott, Plainim, Staircase, Turtles};
use zermelo_grundy::sum::{analyse, Component};

/// Memoised Sprague–Grundy values of a game given by its options.
struct Brute<P> {
    options: fn(&P) -> Vec<P>,
    memo: HashMap<P, u64>,
}

impl<P: Clone + Eq + Hash> Brute<P> {
    fn new(options: fn(&P) -> Vec<P>) -> Self {
        Brute {
            options,
            memo: HashMap::new(),
        }
    }

    fn value(&mut self, p: &P) -> u64 {
        if let Some(&v) = self.memo.get(p) {
            return v;
        }
        let seen: HashSet<u64> = (self.options)(p).iter().map(|q| self.value(q)).collect();
        let mex = (0..)
            .find(|x| !seen.contains(x))
            .expect("a value is missing");
        self.memo.insert(p.clone(), mex);
        mex
    }

    /// Checks the library's value of `p` and its moves to every value up to one past the
    /// largest option's.
    fn check(&mut self, p: &P, value: u64, moves_to: &dyn Fn(u64) -> Vec<Move<P>>)
    where
        P: std::fmt::Debug,
    {
        assert_eq!(value, self.value(p), "value of {p:?}");
        let options = (self.options)(p);
        let values: Vec<u64> = options.iter().map(|q| self.value(q)).collect();
        let top = values.iter().max().copied().unwrap_or(0);
        for t in 0..=top + 1 {
            let expected: HashSet<&P> = options
                .iter()
                .zip(&values)
                .filter(|(_, &v)| v == t)
                .map(|(q, _)| q)
                .collect();
            let moves = moves_to(t);
            let got: HashSet<&P> = moves.iter().map(|m| &m.after).collect();
            assert_eq!(got.len(), moves.len(), "a move listed twice from {p:?}");
            assert_eq!(got, expected, "moves from {p:?} to value {t}");
        }
    }
}

/// Every list of `len` numbers from 0 to `max`.
fn lists(len: usize, max: u64) -> Vec<Vec<u64>> {
    (0..len).fold(vec![vec![]], |acc, _| {
        acc.into_iter()
            .flat_map(|l| {
                (0..=max).map(move |x| {
                    let mut l = l.clone();
                    l.push(x);
                    l
                })
            })
            .collect()
    })
}

fn staircase_options(s: &Staircase) -> Vec<Staircase> {
    let mut out = Vec::new();
    for i in 0..s.coins.len() {
        for k in 1..=s.coins[i] {
            let mut t = s.clone();
            t.coins[i] -= k;
            if i > 0 {
                t.coins[i - 1] += k;
            }
            out.push(t);
        }
    }
    out
}

#[test]
fn staircase_every_position_up_to_four_steps_of_four_coins() {
    let mut brute = Brute::new(staircase_options);
    for len in 0..=4 {
        for coins in lists(len, 4) {
            let s = Staircase { coins };
            brute.check(&s, s.value(), &|t| s.moves_to(t));
        }
    }
}

#[test]
fn staircase_the_notes_move() {
    // "a jogada (7,2,1,4,5,1) -> (7,2,3,2,5,1)": the notes number the floor as step 1 and
    // count the even steps; here the floor is step 0 and is not written.
    let before: Staircase = "2,1,4,5,1".parse().unwrap();
    let after: Staircase = "2,3,2,5,1".parse().unwrap();
    assert!(staircase_options(&before).contains(&after));
    let mut brute = Brute::new(staircase_options);
    assert_eq!(before.value(), brute.value(&before));
    assert_eq!(after.value(), brute.value(&after));
}

fn nimble_options(n: &Nimble) -> Vec<Nimble> {
    let mut out = Vec::new();
    for i in 0..n.squares.len() {
        if i > 0 && n.squares[i] == n.squares[i - 1] {
            continue;
        }
        for q in 0..n.squares[i] {
            let mut m = n.clone();
            m.squares[i] = q;
            m.squares.sort_unstable();
            out.push(m);
        }
    }
    out
}

#[test]
fn nimble_every_position_up_to_four_coins_on_seven_squares() {
    let mut brute = Brute::new(nimble_options);
    for len in 0..=4 {
        for mut squares in lists(len, 6) {
            squares.sort_unstable();
            let n = Nimble { squares };
            brute.check(&n, n.value(), &|t| n.moves_to(t));
        }
    }
}

fn coins_options(c: &Coins) -> Vec<Coins> {
    let mut out = Vec::new();
    for p in 0..c.strip.len() {
        if !c.strip[p] {
            continue;
        }
        // Slide left over empty squares only.
        let mut q = p;
        while q > 0 && !c.strip[q - 1] {
            q -= 1;
            let mut d = c.clone();
            d.strip[p] = false;
            d.strip[q] = true;
            out.push(d);
        }
    }
    out
}

#[test]
fn coins_every_strip_up_to_ten_squares() {
    let mut brute = Brute::new(coins_options);
    for len in 0..=10 {
        for bits in 0u32..1 << len {
            let c = Coins {
                strip: (0..len).map(|i| bits >> i & 1 == 1).collect(),
            };
            brute.check(&c, c.value(), &|t| c.moves_to(t));
        }
    }
}

#[test]
fn coins_heaps_1_0_0_1_of_the_notes_make_a_p_position() {
    // The notes' strip (its figure did not survive in the text) gives heaps of 1, 0, 0, 1:
    // eight coins, the gaps counted from the right being 1, 0, 0, 1, the others 1 here.
    let c: Coins = ".o.o.oo.oo.o.o".parse().unwrap();
    let mut brute = Brute::new(coins_options);
    assert_eq!(c.value(), 0);
    assert_eq!(brute.value(&c), 0);
}

fn turtles_options(t: &Turtles) -> Vec<Turtles> {
    let mut out = Vec::new();
    for n in 0..t.heads.len() {
        if !t.heads[n] {
            continue;
        }
        let mut u = t.clone();
        u.heads[n] = false;
        out.push(u.clone());
        for m in 0..n {
            let mut w = u.clone();
            w.heads[m] = !w.heads[m];
            out.push(w);
        }
    }
    out
}

#[test]
fn turtles_every_row_up_to_ten_coins() {
    let mut brute = Brute::new(turtles_options);
    for len in 0..=10 {
        for bits in 0u32..1 << len {
            let t = Turtles {
                heads: (0..len).map(|i| bits >> i & 1 == 1).collect(),
            };
            brute.check(&t, t.value(), &|v| t.moves_to(v));
        }
    }
}

#[test]
fn turtles_the_notes_row_of_thirteen() {
    // "V F V V F V V V F F V F V" (F face, V verso).
    let t: Turtles = "VFVVFVVVFFVFV".parse().unwrap();
    let mut brute = Brute::new(turtles_options);
    assert_eq!(t.value(), brute.value(&t));
    assert_ne!(t.value(), 0);
}

fn plainim_options(p: &Plainim) -> Vec<Plainim> {
    let mut out = Vec::new();
    for (i, row) in p.rows.iter().enumerate() {
        for c in 0..row.len() {
            if !row[c] {
                continue;
            }
            // Take the piece at c; the squares to its right become any pattern.
            let right = row.len() - c - 1;
            for pattern in 0u32..1 << right {
                let mut q = p.clone();
                q.rows[i][c] = false;
                for k in 0..right {
                    q.rows[i][c + 1 + k] = pattern >> k & 1 == 1;
                }
                out.push(q);
            }
        }
    }
    out.sort_by_key(|q| format!("{q}"));
    out.dedup();
    out
}

#[test]
fn plainim_every_board_up_to_three_rows_of_three() {
    let mut brute = Brute::new(plainim_options);
    for rows in 1..=3 {
        for width in 0..=3 {
            for bits in 0u32..1 << (rows * width) {
                let p = Plainim {
                    rows: (0..rows)
                        .map(|r| {
                            (0..width)
                                .map(|c| bits >> (r * width + c) & 1 == 1)
                                .collect()
                        })
                        .collect(),
                };
                brute.check(&p, p.value(), &|t| p.moves_to(t));
            }
        }
    }
}

/// Northcott's game plus a Nim heap, solved by retrograde analysis of the game as played:
/// White and Black each move their own pieces, either may take from the heap, a player who
/// cannot move loses, and play that never ends is a draw.
struct NorthcottOracle {
    /// Outcome for the player to move: Some(true) a win, Some(false) a loss, None a draw.
    outcome: HashMap<NorthcottState, Option<bool>>,
}

/// The columns (white and black rows), the heap, and whether White is to move.
type NorthcottState = (Vec<(u64, u64)>, u64, bool);

fn northcott_moves(
    rows: u64,
    cols: &[(u64, u64)],
    heap: u64,
    white: bool,
) -> Vec<(Vec<(u64, u64)>, u64)> {
    let mut out = Vec::new();
    for (i, &(w, b)) in cols.iter().enumerate() {
        let targets: Vec<u64> = if white {
            (1..b).filter(|&r| r != w).collect()
        } else {
            (w + 1..=rows).filter(|&r| r != b).collect()
        };
        for r in targets {
            let mut c = cols.to_vec();
            if white {
                c[i].0 = r;
            } else {
                c[i].1 = r;
            }
            out.push((c, heap));
        }
    }
    for h in 0..heap {
        out.push((cols.to_vec(), h));
    }
    out
}

impl NorthcottOracle {
    fn solve(rows: u64, columns: usize, max_heap: u64) -> Self {
        let pairs: Vec<(u64, u64)> = (1..=rows)
            .flat_map(|w| (w + 1..=rows).map(move |b| (w, b)))
            .collect();
        let mut boards: Vec<Vec<(u64, u64)>> = vec![vec![]];
        for _ in 0..columns {
            boards = boards
                .into_iter()
                .flat_map(|b| {
                    pairs.iter().map(move |&p| {
                        let mut b = b.clone();
                        b.push(p);
                        b
                    })
                })
                .collect();
        }
        let mut outcome = HashMap::new();
        for b in &boards {
            for h in 0..=max_heap {
                for white in [true, false] {
                    outcome.insert((b.clone(), h, white), None);
                }
            }
        }
        loop {
            let mut changed = false;
            let keys: Vec<_> = outcome.keys().cloned().collect();
            for key in keys {
                if outcome[&key].is_some() {
                    continue;
                }
                let (cols, heap, white) = &key;
                let next: Vec<Option<bool>> = northcott_moves(rows, cols, *heap, *white)
                    .into_iter()
                    .map(|(c, h)| outcome[&(c, h, !white)])
                    .collect();
                let result = if next.contains(&Some(false)) {
                    Some(true)
                } else if next.iter().all(|o| *o == Some(true)) {
                    Some(false)
                } else {
                    None
                };
                if result.is_some() {
                    outcome.insert(key, result);
                    changed = true;
                }
            }
            if !changed {
                return NorthcottOracle { outcome };
            }
        }
    }
}

#[test]
fn northcott_acts_as_nim_against_every_heap() {
    for (rows, columns, max_heap) in [(6, 1, 5), (5, 2, 4), (4, 3, 3)] {
        let oracle = NorthcottOracle::solve(rows, columns, max_heap);
        for ((cols, heap, white), outcome) in &oracle.outcome {
            let g = Northcott {
                rows,
                columns: cols.clone(),
            };
            // No draw: whoever wins by Nim forces the end.
            let wins = outcome.expect("no position is a draw");
            assert_eq!(wins, g.value() != *heap, "{g} + *{heap}");
            // The winning moves on the board for the player to move: those that leave a loss.
            let colour = if *white { "white" } else { "black" };
            let expected: HashSet<Vec<(u64, u64)>> = northcott_moves(rows, cols, *heap, *white)
                .into_iter()
                .filter(|(c, h)| {
                    *h == *heap && oracle.outcome[&(c.clone(), *h, !white)] == Some(false)
                })
                .map(|(c, _)| c)
                .collect();
            let got: HashSet<Vec<(u64, u64)>> = g
                .moves_to(*heap)
                .into_iter()
                .filter(|m| m.action.starts_with(colour))
                .map(|m| m.after.columns)
                .collect();
            assert_eq!(got, expected, "{colour} to move in {g} + *{heap}");
        }
    }
}

/// Wythoff's queen, moving north, west or north-west towards the corner (0, 0).
fn queen_options(&(x, y): &(u64, u64)) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for k in 1..=x {
        out.push((x - k, y));
    }
    for k in 1..=y {
        out.push((x, y - k));
    }
    for k in 1..=x.min(y) {
        out.push((x - k, y - k));
    }
    out
}

#[test]
fn queens_every_square_up_to_ten_against_every_heap() {
    let mut brute = Brute::new(queen_options);
    for x in 0..=10u64 {
        for y in 0..=10u64 {
            let v = brute.value(&(x, y));
            // The queen plus a heap h: the winning moves on the board are those to value h.
            for h in 0..=v + 1 {
                let parts: Vec<Component> = [format!("queen:{x},{y}"), h.to_string()]
                    .iter()
                    .map(|s| s.parse().unwrap())
                    .collect();
                let a = analyse(&parts).unwrap();
                assert_eq!(a.component_values[0], Some(v as u16));
                let got: HashSet<String> = a
                    .winning_moves
                    .iter()
                    .filter(|m| m.component == 0)
                    .map(|m| m.to.clone())
                    .collect();
                let expected: HashSet<String> = queen_options(&(x, y))
                    .into_iter()
                    .filter(|q| brute.value(q) == h)
                    .map(|(a, b)| format!("queen:{a},{b} (the queen from ({x},{y}) to ({a},{b}))"))
                    .collect();
                assert_eq!(got, expected, "queen at ({x},{y}) beside a heap of {h}");
            }
        }
    }
}
