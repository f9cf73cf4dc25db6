//! Published periods of octal games, found by the sparse engine and proven by the Guy–Smith
//! check. The published figures are the expectations; the engine computes the values.

use zermelo_grundy::period::{self, PeriodWatch, ProofRule};
use zermelo_grundy::{naive, OctalGame, SparseEngine};

/// Runs the sparse engine until the watch proves a period (or `max` is reached).
/// (An unproven apparent period, which `!` games can show for a while, does not stop it.)
fn proven_period(code: &str, max: usize) -> Option<period::Periodicity> {
    let game: OctalGame = code.parse().unwrap();
    let mut engine = SparseEngine::new(&game).unwrap();
    let mut watch = PeriodWatch::new(ProofRule::for_octal(&game));
    while engine.values().len() <= max {
        engine.step().unwrap();
        if let Some(found) = watch.observe(engine.values()) {
            if found.proven {
                return Some(found);
            }
        }
    }
    None
}

#[test]
fn kayles_has_preperiod_71_and_period_12() {
    let found = proven_period("0.77", 10_000).unwrap();
    assert_eq!((found.preperiod, found.period), (71, 12));
    assert!(found.proven);
}

#[test]
fn dawsons_kayles_has_preperiod_53_and_period_34() {
    let found = proven_period("0.07", 10_000).unwrap();
    assert_eq!((found.preperiod, found.period), (53, 34));
    assert!(found.proven);
}

#[test]
fn octal_0_16_has_period_149459() {
    let found = proven_period("0.16", 1_000_000).unwrap();
    assert_eq!(found.period, 149_459);
    assert!(found.proven);
    // The watch stops exactly where the proof completes.
    assert_eq!(
        found.last_needed,
        2 * found.preperiod + 2 * found.period + 2 - 1
    );
}

#[test]
fn watch_and_offline_search_agree_with_the_naive_table() {
    for code in ["0.77", "0.07", "0.137", "0.51", "0.34", "0.71"] {
        let game: OctalGame = code.parse().unwrap();
        let g = naive::values(&game, 3000).unwrap();
        let offline = period::find(&g, ProofRule::for_octal(&game)).unwrap();
        let online = proven_period(code, 3000).unwrap();
        assert_eq!(offline.period, online.period, "{code}");
        assert_eq!(offline.preperiod, online.preperiod, "{code}");
        // Every value past the table agrees with the period: check against a longer naive run.
        let longer = naive::values(&game, 6000).unwrap();
        for (n, &v) in longer.iter().enumerate() {
            assert_eq!(offline.value(&g, n), v, "{code} at {n}");
        }
    }
}

#[test]
fn grundys_game_and_officers_show_no_period_early() {
    for code in ["4!.0", "0.6"] {
        assert!(proven_period(code, 20_000).is_none(), "{code}");
        let game: OctalGame = code.parse().unwrap();
        let g = naive::values(&game, 20_000).unwrap();
        assert!(
            period::find(&g, ProofRule::for_octal(&game)).is_none(),
            "{code}"
        );
    }
}

#[test]
fn three_heap_proofs_hold_beyond_the_table() {
    for code in ["0.F", "0.B", "0.D", "0.A"] {
        let game: OctalGame = code.parse().unwrap();
        let rule = ProofRule::for_octal(&game);
        assert!(matches!(rule, ProofRule::GuySmith { heaps: 3, .. }));
        let g = naive::values(&game, 300).unwrap();
        let found = period::find(&g, rule).unwrap();
        assert!(found.proven, "{code}");
        let longer = naive::values(&game, 1200).unwrap();
        for (n, &v) in longer.iter().enumerate() {
            assert_eq!(found.value(&g, n), v, "{code} at {n}");
        }
    }
}
