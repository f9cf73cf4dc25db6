//! Every entry of the three-digit census, recomputed by the naive engine: the values, the
//! periods (checked again by `census::check_proof`, which is written apart from `period.rs`),
//! the equivalences and the unsolved verdicts.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use zermelo_grundy::census::{self, Entry};
use zermelo_grundy::period::{self, ProofRule};
use zermelo_grundy::{naive, OctalGame};

/// Classifies every game to `max` heaps and checks each entry against naive tables to `max`.
fn census_agrees_with_naive(digits: usize, max: usize) {
    let games = census::games(digits).unwrap();
    let stop = AtomicBool::new(false);
    let (mut entries, naive): (Vec<Entry>, Vec<Vec<u16>>) = games
        .par_iter()
        .map(|game| {
            let entry = census::classify(game, max, &stop).unwrap().unwrap();
            (entry, naive::values(game, max + census::MAX_SHIFT).unwrap())
        })
        .unzip();
    census::find_equivalences(&mut entries).unwrap();
    for (e, g) in entries.iter().zip(&naive) {
        check_entry(e, g, max);
        // The twin theorem, on every code whether solved or not.
        let twin = census::same_table_as(&e.game).unwrap();
        let t = games.iter().position(|x| *x == twin).unwrap();
        assert_eq!(g, &naive[t], "{}: not the table of {twin}", e.game);
        if let Some(same) = e.same_as {
            let other = &naive[same.index];
            let low = (-same.shift).max(0) as usize;
            let at = |n: usize| g[n] == other[(n as isize + same.shift) as usize];
            assert!(
                (same.from..=max).all(at),
                "{}: not {} shifted by {} from {}",
                e.game,
                games[same.index],
                same.shift,
                same.from
            );
            assert!(same.from == low || !at(same.from - 1), "{}", e.game);
            assert!(same.index < games.iter().position(|x| *x == e.game).unwrap());
            if e.period.is_none() {
                // What the census writes for it without computing it: its twin's values.
                let mut derived = Entry::twin(&e.game, &entries[same.index]).unwrap();
                derived.same_as = e.same_as;
                assert_eq!(&derived, e);
            }
        }
    }
}

/// One entry against the naive table `g` = G(0..=max + MAX_SHIFT).
fn check_entry(e: &Entry, g: &[u16], max: usize) {
    let game: &OctalGame = &e.game;
    assert_eq!(e.values[..], g[..e.values.len()], "{game}: values");
    assert_eq!(e.computed + 1, e.values.len(), "{game}");
    assert_eq!(
        e.max_value,
        *g[..=e.computed].iter().max().unwrap(),
        "{game}"
    );
    check_rare(e, &g[..=e.computed]);
    match e.period {
        Some(p) => {
            assert!(p.proven, "{game}");
            assert!(
                census::check_proof(game, &e.values, p.preperiod, p.period),
                "{game}: the proof does not check"
            );
            // The period predicts every naive value, also beyond the heaps computed.
            assert!(
                (0..g.len()).all(|n| e.value(n) == Some(g[n])),
                "{game}: period {} from {} mispredicts",
                p.period,
                p.preperiod
            );
        }
        None => {
            assert_eq!(e.computed, max, "{game}: stopped early without a proof");
            assert!(
                period::find(&g[..=max], ProofRule::for_octal(game)).is_none(),
                "{game}: the naive table proves a period the census missed"
            );
        }
    }
}

#[test]
fn three_digit_census_to_2000_heaps_agrees_with_the_naive_engine() {
    census_agrees_with_naive(3, 2000);
}

/// Further than the suite goes (about a minute on two cores).
#[test]
#[ignore = "slow: run with --ignored"]
fn three_digit_census_to_6000_heaps_agrees_with_the_naive_engine() {
    census_agrees_with_naive(3, 6000);
}

/// The rare statistics by brute force: the mask's rare heaps counted one by one, and no mask
/// below the next power of two above the largest value (nor 0) with fewer.
fn check_rare(e: &Entry, g: &[u16]) {
    let rare_under = |m: u16| {
        (1..g.len())
            .filter(|&n| (g[n] & m).count_ones() % 2 == 0)
            .collect::<Vec<usize>>()
    };
    let rare = rare_under(e.rare.mask);
    assert_eq!(rare.len(), e.rare.count, "{}: rare count", e.game);
    assert_eq!(rare.last().copied(), e.rare.last, "{}: last rare", e.game);
    let top = e.max_value.max(1).next_power_of_two() * 2;
    for m in 0..top.min(1 << 12) {
        let count = rare_under(m).len();
        assert!(
            count > e.rare.count || (count == e.rare.count && m >= e.rare.mask),
            "{}: mask {m:#x} has {count} rare heaps, fewer than {:#x}",
            e.game,
            e.rare.mask
        );
    }
}

#[test]
fn proof_check_rejects_a_wrong_period_or_a_short_table() {
    for code in ["0.07", "0.77", "4.07", "0.333", "0.0", "0.B", "4.8", "0.A"] {
        let game: OctalGame = code.parse().unwrap();
        let g = naive::values(&game, 2000).unwrap();
        let p = period::find(&g, ProofRule::for_octal(&game)).unwrap();
        let need = p.last_needed + 1;
        assert!(census::check_proof(
            &game,
            &g[..need],
            p.preperiod,
            p.period
        ));
        assert!(!census::check_proof(
            &game,
            &g[..need - 1],
            p.preperiod,
            p.period
        ));
        if p.preperiod > 0 {
            assert!(
                !census::check_proof(&game, &g, p.preperiod - 1, p.period),
                "{code}"
            );
        }
        if p.period > 1 {
            assert!(
                !census::check_proof(&game, &g, p.preperiod, p.period - 1),
                "{code}"
            );
        }
    }
}
