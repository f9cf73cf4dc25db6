//! Proofs kept from one run to the next: every proof the solver records is checked against the
//! retrograde oracle, a solver started from kept proofs gives the answers of a fresh one, and a
//! proof is only ever used for its own position.

use zermelo_hex::retro::{RetroTable, RetroValue};
use zermelo_hex::{
    Bitboard, Geometry, Player, Position, Proof, ProofSet, Rules, Solver, SolverConfig,
};

fn solver(rules: Rules) -> Solver {
    Solver::new(SolverConfig {
        rules,
        threads: 2,
        tt_mb: 64,
    })
    .unwrap()
}

/// A solver keeping the proofs of n x n positions, starting from `known`.
fn keeping(rules: Rules, known: ProofSet) -> Solver {
    solver(rules).with_proofs(known).unwrap()
}

fn collect(solver: &Solver, n: usize, rules: Rules) -> ProofSet {
    let mut set = ProofSet::new(n, rules).unwrap();
    for p in solver.take_new_proofs() {
        set.insert(p).unwrap();
    }
    set
}

/// The oracle's value of a position for its side to move (whose stone counts are those of a
/// game from the empty board, as the oracle requires).
fn oracle_wins(table: &RetroTable, black: Bitboard, white: Bitboard) -> bool {
    match table.value(black.0, white.0).unwrap() {
        RetroValue::Win => true,
        RetroValue::Loss => false,
        other => panic!("a recorded proof of a position not in play: {other:?}"),
    }
}

#[test]
fn every_recorded_proof_agrees_with_the_oracle() {
    for rules in [Rules::Normal, Rules::Misere] {
        let n = 4;
        let table = RetroTable::compute(n, rules == Rules::Misere).unwrap();
        let s = keeping(rules, ProofSet::new(n, rules).unwrap());
        s.openings(n, |_| {}).unwrap();
        // Every winning move of every position of two stones: most are decided by the
        // analysis alone, the others leave proofs.
        let empty = Position::new(n).unwrap();
        for a in empty.empty().cells() {
            let one = empty.play(zermelo_hex::Cell::from_index(a, n)).unwrap();
            for b in one.empty().cells() {
                let two = one.play(zermelo_hex::Cell::from_index(b, n)).unwrap();
                if two.connected().is_none() {
                    s.solve(&two, true).unwrap();
                }
            }
        }
        let set = collect(&s, n, rules);
        assert!(set.len() > 20, "{rules:?}: only {} proofs", set.len());
        // Through the file format, as a later run reads them.
        let set = ProofSet::from_bytes(n, rules, &set.to_bytes()).unwrap();
        let g = Geometry::of(n);
        for p in set.iter() {
            let black_to_move = p.black.count() == p.white.count();
            assert_eq!(p.black_to_move, black_to_move, "{p:?}");
            let wins = oracle_wins(&table, p.black, p.white);
            assert_eq!(p.winning_move.is_some(), wins, "{rules:?} {p:?}");
            if let Some(m) = p.winning_move {
                let (b, w) = match black_to_move {
                    true => (p.black.with(m as usize), p.white),
                    false => (p.black, p.white.with(m as usize)),
                };
                let connected = g.connects(b, g.north, g.south) || g.connects(w, g.west, g.east);
                let move_wins = match connected {
                    true => rules == Rules::Normal,
                    false => !oracle_wins(&table, b, w),
                };
                assert!(move_wins, "{rules:?} {p:?}: the move does not win");
            }
        }
    }
}

#[test]
fn a_run_from_kept_proofs_gives_the_answers_of_a_fresh_run() {
    // 6x6: a fresh run of the 5x5 openings takes about 60 nodes, too few to tell from the
    // handful a resumed run may still spend (15 once, on two threads).
    let (n, rules) = (6, Rules::Normal);
    let first = keeping(rules, ProofSet::new(n, rules).unwrap());
    let fresh = first.openings(n, |_| {}).unwrap();
    let kept = collect(&first, n, rules);
    let again = keeping(rules, kept);
    let resumed = again.openings(n, |_| {}).unwrap();
    let values = |list: &[zermelo_hex::Opening]| -> Vec<(String, bool)> {
        list.iter()
            .map(|o| (o.cell.to_string(), o.first_player_wins))
            .collect()
    };
    assert_eq!(values(&resumed), values(&fresh));
    let nodes = |list: &[zermelo_hex::Opening]| list.iter().map(|o| o.nodes).sum::<u64>();
    assert!(
        nodes(&resumed) * 10 < nodes(&fresh),
        "{} nodes resumed, {} fresh",
        nodes(&resumed),
        nodes(&fresh)
    );
    // Positions further down, every winning move: the same as a solver without proofs.
    let plain = solver(rules);
    for moves in ["c3", "a1", "b2 d4", "e1 c3", "a5 b4 c2"] {
        let p = Position::from_moves(n, moves).unwrap();
        let a = again.solve(&p, true).unwrap();
        let b = plain.solve(&p, true).unwrap();
        assert_eq!(
            (a.winner, a.winning_moves),
            (b.winner, b.winning_moves),
            "{moves}"
        );
        let a = again.solve(&p, false).unwrap();
        assert_eq!(a.winner, b.winner, "{moves}");
        let m = a.winning_move.map(|c| p.play(c).unwrap());
        if let Some(after) = m {
            assert_eq!(plain.solve(&after, false).unwrap().winner, a.winner);
        }
    }
}

#[test]
fn a_proof_is_used_for_its_own_position_only() {
    let (n, rules) = (5, Rules::Normal);
    let truth = |q: &Position| solver(rules).solve(q, false).unwrap();
    // A position that its side to move wins, which the analysis alone does not decide, so
    // the solver must look for a proof.
    let p = ["a1", "b1", "a2", "e1", "c3 a1", "c3 b2", "b2 c3"]
        .into_iter()
        .map(|m| Position::from_moves(n, m).unwrap())
        .find(|p| {
            let t = truth(p);
            t.nodes > 0 && t.winner == p.to_move()
        })
        .expect("one of these needs a search");
    // Forge a loss, in the canonical orientation.
    let r = p.rotated();
    let (black, white) = std::cmp::min((p.black(), p.white()), (r.black(), r.white()));
    let forged = Proof {
        black,
        white,
        black_to_move: p.to_move() == Player::Black,
        winning_move: None,
    };
    let mut set = ProofSet::new(n, rules).unwrap();
    set.insert(forged).unwrap();
    // The forged proof is taken for its position (which shows that proofs are consulted) and
    // for its rotation, the same position for the solver...
    for q in [&p, &r] {
        let s = keeping(rules, set.clone());
        assert_eq!(
            s.solve(q, false).unwrap().winner,
            q.to_move().opponent(),
            "{q:?}"
        );
    }
    // ...but never for another one: the same stones with the other side to move, one stone
    // more or elsewhere, or the same bits on another board size.
    let elsewhere = Position::from_moves(n, "c3").unwrap();
    let others = [
        p.with_to_move(p.to_move().opponent()),
        elsewhere,
        p.play(zermelo_hex::Cell::from_index(24, n)).unwrap(),
        Position::from_stones(6, p.black(), p.white()).unwrap(),
        Position::from_stones(4, p.black(), p.white()).unwrap(),
    ];
    for q in others {
        let s = keeping(rules, set.clone());
        assert_eq!(
            s.solve(&q, false).unwrap().winner,
            truth(&q).winner,
            "{q:?}"
        );
    }
}

/// A run stopped by a signal seals its proofs: every proof found before is given to it, and
/// the searches stop at the next position they prove, so none is found that is not saved.
#[test]
fn sealed_proofs_stop_the_searches_at_their_next_proof() {
    let solver = std::sync::Arc::new(keeping(
        Rules::Normal,
        ProofSet::new(6, Rules::Normal).unwrap(),
    ));
    let searching = std::sync::Arc::clone(&solver);
    // Detached: a sealed search waits for the process to end.
    let search =
        std::thread::spawn(move || searching.solve(&Position::from_moves(6, "a1").unwrap(), true));
    // Until some proofs are recorded (or the solve ends first, on a very fast machine).
    let mut before = Vec::new();
    while before.len() < 20 && !search.is_finished() {
        before.extend(solver.take_new_proofs());
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    if search.is_finished() {
        eprintln!("the solve ended before the seal: nothing to check");
        return;
    }
    let sealed = solver.seal_proofs();
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(
        solver.take_new_proofs().is_empty(),
        "a proof found after the seal"
    );
    assert!(
        !search.is_finished(),
        "the sealed search went on to the end"
    );
    // Those taken before and those the seal gave are proofs of 6x6 positions that the file
    // takes (a proof of another board, or a contradiction, would be refused here).
    let mut set = ProofSet::new(6, Rules::Normal).unwrap();
    for p in before.into_iter().chain(sealed) {
        set.insert(p).unwrap();
    }
}
