//! The search solver against the independent retrograde oracle: every legal 3x3 position and a
//! large random sample of 4x4 positions, with either side to move, normal and misère play, one
//! thread and two; and every winning move of each sampled position. Beyond the oracle, sampled
//! 5x5 misère endgames against plain search.

use std::sync::OnceLock;

use zermelo_hex::retro::{RetroTable, RetroValue};
use zermelo_hex::{Bitboard, Player, Position, Rules, Solver, SolverConfig};

fn oracle(n: usize, rules: Rules) -> &'static RetroTable {
    static TABLES: [[OnceLock<RetroTable>; 2]; 5] = [const { [const { OnceLock::new() }; 2] }; 5];
    let misere = rules == Rules::Misere;
    TABLES[n][usize::from(misere)].get_or_init(|| RetroTable::compute(n, misere).unwrap())
}

fn solver(rules: Rules, threads: usize) -> Solver {
    Solver::new(SolverConfig {
        rules,
        threads,
        tt_mb: 64,
    })
    .unwrap()
}

/// Every position of an n x n board (3^(n²) of them), by its base-3 digits.
fn all_positions(n: usize) -> impl Iterator<Item = (u128, u128)> {
    let cells = n * n;
    (0..3u64.pow(cells as u32)).map(move |mut index| {
        let (mut black, mut white) = (0u128, 0u128);
        for i in 0..cells {
            match index % 3 {
                1 => black |= 1 << i,
                2 => white |= 1 << i,
                _ => {}
            }
            index /= 3;
        }
        (black, white)
    })
}

/// A reproducible sample of legal 4x4 positions where the game is not over, with every number
/// of stones: random move sequences from the empty board, stopped at a random length.
fn sample_positions(n: usize, count: usize) -> Vec<Position> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = Position::new(n).unwrap();
        let stop = (next() % (n * n) as u64) as u32;
        while p.stones() < stop && p.connected().is_none() {
            let empty: Vec<usize> = p.empty().cells().collect();
            let i = empty[(next() % empty.len() as u64) as usize];
            p = p.play(zermelo_hex::Cell::from_index(i, n)).unwrap();
        }
        if p.connected().is_none() {
            out.push(p);
        }
    }
    out
}

/// Checks the winner and the full list of winning moves of `p` against the oracle.
fn check(solver: &Solver, table: &RetroTable, p: &Position) {
    let expected_win = match table.value(p.black().0, p.white().0).unwrap() {
        RetroValue::Win => true,
        RetroValue::Loss => false,
        other => panic!("a position in play is {other:?} for the oracle:\n{p}"),
    };
    let s = solver.solve(p, true).unwrap();
    assert_eq!(
        s.winner == p.to_move(),
        expected_win,
        "winner of\n{p}(to move: {})",
        p.to_move()
    );
    assert_eq!(s.winning_move.is_some(), expected_win);
    let mut expected_moves = Vec::new();
    for i in p.empty().cells() {
        let cell = zermelo_hex::Cell::from_index(i, p.size());
        let child = p.play(cell).unwrap();
        let mover_wins = match table.value(child.black().0, child.white().0).unwrap() {
            RetroValue::Loss => true,
            RetroValue::Win => false,
            // The move ends the game: it wins in normal play and loses in misère.
            RetroValue::GameOver => solver.rules() == Rules::Normal,
            RetroValue::Illegal => panic!("a move led to an illegal position"),
        };
        if mover_wins {
            expected_moves.push(cell);
        }
    }
    assert_eq!(
        s.winning_moves.as_deref(),
        Some(&expected_moves[..]),
        "winning moves of\n{p}"
    );
    if let Some(m) = s.winning_move {
        assert!(
            expected_moves.contains(&m),
            "reported move {m} does not win in\n{p}"
        );
    }
}

fn every_position(n: usize, rules: Rules) {
    let table = oracle(n, rules);
    let solver = solver(rules, 1);
    let mut checked = 0;
    for (black, white) in all_positions(n) {
        let Ok(p) = Position::from_stones(n, Bitboard(black), Bitboard(white)) else {
            continue;
        };
        if p.connected().is_some() {
            assert!(
                solver.solve(&p, false).is_err(),
                "a finished game must be refused"
            );
            continue;
        }
        check(&solver, table, &p);
        checked += 1;
    }
    // 1x1 has one position in play, 2x2 a couple of dozen, 3x3 thousands.
    let expected = [0, 1, 20, 1000][n];
    assert!(checked >= expected, "only {checked} positions checked");
}

#[test]
fn every_3x3_position_normal() {
    every_position(3, Rules::Normal);
}

#[test]
fn every_3x3_position_misere() {
    every_position(3, Rules::Misere);
}

#[test]
fn every_2x2_and_1x1_position_both_rules() {
    for rules in [Rules::Normal, Rules::Misere] {
        every_position(1, rules);
        every_position(2, rules);
    }
}

fn sampled_4x4(rules: Rules, threads: usize, count: usize) {
    let table = oracle(4, rules);
    let solver = solver(rules, threads);
    for p in sample_positions(4, count) {
        check(&solver, table, &p);
    }
}

#[test]
fn sampled_4x4_positions_normal_one_thread() {
    sampled_4x4(Rules::Normal, 1, 3000);
}

#[test]
fn sampled_4x4_positions_normal_two_threads() {
    sampled_4x4(Rules::Normal, 2, 1500);
}

#[test]
fn sampled_4x4_positions_misere() {
    sampled_4x4(Rules::Misere, 2, 400);
}

#[test]
fn openings_agree_with_the_oracle_and_across_thread_counts() {
    for rules in [Rules::Normal, Rules::Misere] {
        for n in 1..=4 {
            let table = oracle(n, rules);
            let one = solver(rules, 1).openings(n, |_| {}).unwrap();
            let two = solver(rules, 2).openings(n, |_| {}).unwrap();
            for (a, b) in one.iter().zip(&two) {
                assert_eq!((a.cell, a.first_player_wins), (b.cell, b.first_player_wins));
                let child = Position::new(n).unwrap().play(a.cell).unwrap();
                let wins = match table.value(child.black().0, child.white().0).unwrap() {
                    RetroValue::Loss => true,
                    RetroValue::Win => false,
                    RetroValue::GameOver => rules == Rules::Normal,
                    RetroValue::Illegal => unreachable!("a first move is legal"),
                };
                assert_eq!(
                    a.first_player_wins, wins,
                    "{rules:?} {n}x{n} opening {}",
                    a.cell
                );
            }
        }
    }
}

/// The reported move wins, and is the same from run to run and for any thread count.
#[test]
fn the_reported_winning_move_wins_and_repeats() {
    let p = Position::from_moves(4, "a1").unwrap();
    let all = solver(Rules::Normal, 1).solve(&p, true).unwrap();
    let winning = all.winning_moves.unwrap();
    let one = solver(Rules::Normal, 1).solve(&p, false).unwrap();
    let again = solver(Rules::Normal, 1).solve(&p, false).unwrap();
    let two = solver(Rules::Normal, 2).solve(&p, false).unwrap();
    assert_eq!(one.winner, Player::White);
    assert_eq!(one.winning_move, again.winning_move);
    assert_eq!(one.winning_move, two.winning_move);
    for s in [one, two] {
        assert!(winning.contains(&s.winning_move.unwrap()), "{s:?}");
    }
}

mod lengths {
    use super::*;
    use zermelo_hex::retro::RetroLengths;

    fn compare(n: usize, rules: Rules, positions: impl Iterator<Item = Position>) {
        let table = RetroLengths::compute(n, rules == Rules::Misere).unwrap();
        let solver = solver(rules, 2);
        let mut checked = 0;
        for p in positions {
            let (b, w) = (p.black().0, p.white().0);
            if !matches!(
                table.table().value(b, w).unwrap(),
                RetroValue::Win | RetroValue::Loss
            ) {
                continue;
            }
            let expected = table.plies_to_end(b, w).unwrap().unwrap();
            let got = solver.perfect_play_length(&p).unwrap();
            assert_eq!(got, u32::from(expected), "{rules:?} length of\n{p}");
            checked += 1;
        }
        assert!(checked > 0);
    }

    fn legal(n: usize) -> impl Iterator<Item = Position> {
        all_positions(n)
            .filter_map(move |(b, w)| Position::from_stones(n, Bitboard(b), Bitboard(w)).ok())
    }

    #[test]
    fn every_3x3_length_matches_the_oracle() {
        compare(3, Rules::Normal, legal(3));
        compare(3, Rules::Misere, legal(3));
    }

    #[test]
    fn sampled_4x4_lengths_match_the_oracle() {
        compare(4, Rules::Normal, sample_positions(4, 300).into_iter());
        compare(4, Rules::Misere, sample_positions(4, 60).into_iter());
    }
}

#[test]
fn one_solver_serves_several_board_sizes() {
    // The same bit pattern is a different position on each board size: the table must keep
    // them apart.
    for threads in [1, 2] {
        let solver = solver(Rules::Normal, threads);
        for round in 0..2 {
            for n in 1..=4 {
                let table = oracle(n, Rules::Normal);
                for o in solver.openings(n, |_| {}).unwrap() {
                    let child = Position::new(n).unwrap().play(o.cell).unwrap();
                    let wins = matches!(
                        table.value(child.black().0, child.white().0).unwrap(),
                        RetroValue::Loss | RetroValue::GameOver
                    );
                    assert_eq!(
                        o.first_player_wins, wins,
                        "round {round}, {n}x{n} {}",
                        o.cell
                    );
                }
                for p in sample_positions(n.max(2), 50) {
                    if p.size() == n {
                        check(&solver, table, &p);
                    }
                }
            }
        }
    }
}

/// Whether the side to move wins misère Hex from (`black`, `white`), by plain memoised search
/// over every move, with no knowledge: the independent check beyond the oracle's 4x4.
fn plain_misere_win(
    g: &zermelo_hex::Geometry,
    black: Bitboard,
    white: Bitboard,
    black_to_move: bool,
    memo: &mut std::collections::HashMap<(u128, u128), bool>,
) -> bool {
    if let Some(&v) = memo.get(&(black.0, white.0)) {
        return v;
    }
    let empty = g.board.minus(black | white);
    let win = empty.cells().any(|m| {
        if black_to_move {
            let b = black.with(m);
            !g.connects(b, g.north, g.south) && !plain_misere_win(g, b, white, false, memo)
        } else {
            let w = white.with(m);
            !g.connects(w, g.west, g.east) && !plain_misere_win(g, black, w, true, memo)
        }
    });
    memo.insert((black.0, white.0), win);
    win
}

/// Sampled 5x5 misère endgames (10 to 14 empty cells), beyond the oracle's reach: the winner
/// and every winning move agree with plain search.
#[test]
fn sampled_5x5_misere_endgames_agree_with_plain_search() {
    let g = zermelo_hex::Geometry::of(5);
    let solver = solver(Rules::Misere, 2);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut checked = 0;
    while checked < 60 {
        let mut p = Position::new(5).unwrap();
        let stones = 11 + (next() % 5) as u32;
        while p.stones() < stones && p.connected().is_none() {
            let empty: Vec<usize> = p.empty().cells().collect();
            let i = empty[(next() % empty.len() as u64) as usize];
            p = p.play(zermelo_hex::Cell::from_index(i, 5)).unwrap();
        }
        if p.connected().is_some() {
            continue;
        }
        let mut memo = std::collections::HashMap::new();
        let black_to_move = p.to_move() == Player::Black;
        let wins = plain_misere_win(g, p.black(), p.white(), black_to_move, &mut memo);
        let s = solver.solve(&p, true).unwrap();
        assert_eq!(s.winner == p.to_move(), wins, "winner of\n{p}");
        let expected: Vec<_> = p
            .empty()
            .cells()
            .filter(|&m| {
                let (b, w) = match black_to_move {
                    true => (p.black().with(m), p.white()),
                    false => (p.black(), p.white().with(m)),
                };
                let over = match black_to_move {
                    true => g.connects(b, g.north, g.south),
                    false => g.connects(w, g.west, g.east),
                };
                !over && !plain_misere_win(g, b, w, !black_to_move, &mut memo)
            })
            .map(|m| zermelo_hex::Cell::from_index(m, 5))
            .collect();
        assert_eq!(
            s.winning_moves.as_deref(),
            Some(&expected[..]),
            "winning moves of\n{p}"
        );
        checked += 1;
    }
}
