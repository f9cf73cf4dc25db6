//! Set-up positions (any number of stones of each colour, either side to move) solved by the
//! search and by a brute-force minimax written here, which shares no code with the solver (its
//! own neighbours and flood fill): the winner, every winning move, and on 3x3 the perfect-play
//! length, in normal and misère play. Every 3x3 stone set and a sample of 4x4 ones, each solved
//! with Black to move and then with White to move on the same solver, so that one table holds
//! both.

use std::collections::HashMap;

use zermelo_hex::{Bitboard, Cell, Player, Position, Rules, Solver, SolverConfig};

/// The brute-force oracle for one board size and rule set.
struct Minimax {
    n: usize,
    misere: bool,
    /// (black, white, Black to move) → (the side to move wins, perfect-play length).
    memo: HashMap<(u128, u128, bool), (bool, u32)>,
}

impl Minimax {
    fn new(n: usize, rules: Rules) -> Minimax {
        Minimax {
            n,
            misere: rules == Rules::Misere,
            memo: HashMap::new(),
        }
    }

    /// Whether `stones` join the player's two edges: a flood fill from the first edge.
    fn connects(&self, stones: u128, black: bool) -> bool {
        let n = self.n as i64;
        let at = |x: i64, y: i64| (0..n).contains(&x) && (0..n).contains(&y);
        let bit = |x: i64, y: i64| stones >> (y * n + x) & 1 == 1;
        let mut seen = vec![false; (n * n) as usize];
        let mut stack: Vec<(i64, i64)> = (0..n)
            .map(|k| if black { (k, 0) } else { (0, k) })
            .filter(|&(x, y)| bit(x, y))
            .collect();
        while let Some((x, y)) = stack.pop() {
            if std::mem::replace(&mut seen[(y * n + x) as usize], true) {
                continue;
            }
            if (black && y == n - 1) || (!black && x == n - 1) {
                return true;
            }
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
                let (u, v) = (x + dx, y + dy);
                if at(u, v) && bit(u, v) && !seen[(v * n + u) as usize] {
                    stack.push((u, v));
                }
            }
        }
        false
    }

    /// The outcome for the side to move of playing bit `i`: (wins, plies to the end).
    fn move_value(&mut self, black: u128, white: u128, btm: bool, i: usize) -> (bool, u32) {
        let (b, w) = if btm {
            (black | 1 << i, white)
        } else {
            (black, white | 1 << i)
        };
        if self.connects(if btm { b } else { w }, btm) {
            return (!self.misere, 1);
        }
        let (child_wins, plies) = self.value(b, w, !btm);
        (!child_wins, plies + 1)
    }

    /// (the side to move wins, perfect-play length) of a position in play: the winner takes the
    /// shortest win, the loser the longest loss.
    fn value(&mut self, black: u128, white: u128, btm: bool) -> (bool, u32) {
        if let Some(&v) = self.memo.get(&(black, white, btm)) {
            return v;
        }
        let mut best: Option<(bool, u32)> = None;
        for i in self.empty(black, white) {
            let v = self.move_value(black, white, btm, i);
            best = Some(match best {
                None => v,
                Some(b) if v.0 != b.0 => {
                    if v.0 {
                        v
                    } else {
                        b
                    }
                }
                Some(b) if v.0 => (true, b.1.min(v.1)),
                Some(b) => (false, b.1.max(v.1)),
            });
        }
        let v = best.expect("a full board always has a connection");
        self.memo.insert((black, white, btm), v);
        v
    }

    fn empty(&self, black: u128, white: u128) -> Vec<usize> {
        (0..self.n * self.n)
            .filter(|&i| (black | white) >> i & 1 == 0)
            .collect()
    }

    /// The cells where the side to move wins, in cell order.
    fn winning_moves(&mut self, black: u128, white: u128, btm: bool) -> Vec<Cell> {
        let n = self.n;
        self.empty(black, white)
            .into_iter()
            .filter(|&i| self.move_value(black, white, btm, i).0)
            .map(|i| Cell::from_index(i, n))
            .collect()
    }
}

fn solver(rules: Rules) -> Solver {
    Solver::new(SolverConfig {
        rules,
        threads: 1,
        tt_mb: 16,
    })
    .unwrap()
}

/// Solves the stone set with each side to move on `solver` and checks the winner and every
/// winning move (and, with `lengths`, the perfect-play length) against the oracle. Returns
/// whether the stone set is in play (nobody connected).
fn check(solver: &Solver, oracle: &mut Minimax, black: u128, white: u128, lengths: bool) -> bool {
    let n = oracle.n;
    if oracle.connects(black, true) || oracle.connects(white, false) {
        return false;
    }
    for to_move in [Player::Black, Player::White] {
        let p = Position::from_setup(n, Bitboard(black), Bitboard(white), to_move).unwrap();
        let btm = to_move == Player::Black;
        let (wins, plies) = oracle.value(black, white, btm);
        let context = format!("{:?}, {to_move} to move:\n{p}", solver.rules());
        let s = solver.solve(&p, true).unwrap();
        assert_eq!(s.to_move, to_move, "{context}");
        assert_eq!(s.winner == to_move, wins, "winner, {context}");
        let expected = oracle.winning_moves(black, white, btm);
        assert_eq!(s.winning_moves.as_deref(), Some(&expected[..]), "{context}");
        let one = solver.solve(&p, false).unwrap();
        assert_eq!(one.winner, s.winner, "winner without all, {context}");
        if let Some(m) = one.winning_move {
            assert!(expected.contains(&m), "move {m}, {context}");
        }
        if lengths {
            let length = solver.perfect_play_length(&p).unwrap();
            assert_eq!(length, plies, "perfect-play length, {context}");
        }
    }
    true
}

#[test]
fn every_3x3_stone_set_with_either_side_to_move() {
    for rules in [Rules::Normal, Rules::Misere] {
        let solver = solver(rules);
        let mut oracle = Minimax::new(3, rules);
        let mut checked = 0;
        for code in 0..3u32.pow(9) {
            let (mut black, mut white, mut c) = (0u128, 0u128, code);
            for i in 0..9 {
                match c % 3 {
                    1 => black |= 1 << i,
                    2 => white |= 1 << i,
                    _ => {}
                }
                c /= 3;
            }
            // Lengths for one stone set in seven: the length search is the slow part.
            checked += u32::from(check(&solver, &mut oracle, black, white, code % 7 == 0));
        }
        assert!(
            checked > 5000,
            "{rules:?}: only {checked} stone sets in play"
        );
    }
}

#[test]
fn sampled_4x4_stone_sets_with_either_side_to_move() {
    let mut state = 0x853c_49e6_748f_ea9bu64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for rules in [Rules::Normal, Rules::Misere] {
        let solver = solver(rules);
        let mut oracle = Minimax::new(4, rules);
        let (mut checked, mut unusual) = (0, 0);
        while checked < 150 {
            // 6 to 11 stones, each of either colour: counts of every kind.
            let stones = 6 + next() % 6;
            let (mut black, mut white) = (0u128, 0u128);
            while (black | white).count_ones() < stones as u32 {
                let i = next() % 16;
                if (black | white) >> i & 1 == 0 {
                    if next() % 2 == 0 {
                        black |= 1 << i;
                    } else {
                        white |= 1 << i;
                    }
                }
            }
            if check(&solver, &mut oracle, black, white, false) {
                checked += 1;
                let (b, w) = (black.count_ones(), white.count_ones());
                unusual += u32::from(b != w && b != w + 1);
            }
        }
        assert!(
            unusual > 50,
            "{rules:?}: only {unusual} unusual stone counts"
        );
    }
}
