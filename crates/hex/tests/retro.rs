//! The retrograde oracle against published Hex results, the board's symmetries, and a naive
//! game-tree search written here from scratch.

use std::sync::OnceLock;

use zermelo_hex::retro::{RetroError, RetroLengths, RetroTable, RetroValue};

/// The 4x4 normal-play table with lengths, computed once per test binary.
fn normal4() -> &'static RetroLengths {
    static TABLE: OnceLock<RetroLengths> = OnceLock::new();
    TABLE.get_or_init(|| RetroLengths::compute(4, false).unwrap())
}

/// The 4x4 misère table, computed once per test binary.
fn misere4() -> &'static RetroTable {
    static TABLE: OnceLock<RetroTable> = OnceLock::new();
    TABLE.get_or_init(|| RetroTable::compute(4, true).unwrap())
}

/// Bit of the cell at column `x`, row `y`.
fn bit(n: usize, x: usize, y: usize) -> u128 {
    1 << (y * n + x)
}

/// The 180° rotation (x, y) → (n−1−x, n−1−y): cell i goes to n²−1−i.
fn rotate(n: usize, stones: u128) -> u128 {
    let cells = n * n;
    (0..cells)
        .filter(|i| stones >> i & 1 == 1)
        .map(|i| 1u128 << (cells - 1 - i))
        .sum()
}

/// The transposition (x, y) → (y, x), which turns Black's edges into White's.
fn transpose(n: usize, stones: u128) -> u128 {
    (0..n * n)
        .filter(|i| stones >> i & 1 == 1)
        .map(|i| bit(n, i / n, i % n))
        .sum()
}

/// Whether `stones` join the two edges of one player: rows 1 and n for Black, columns a and
/// the last for White. A union-find with two virtual edge nodes, independent of the oracle's walk.
fn joins(n: usize, stones: u128, black: bool) -> bool {
    let cells = n * n;
    let (first, last) = (cells, cells + 1);
    let mut parent: Vec<usize> = (0..cells + 2).collect();
    fn find(parent: &mut [usize], mut a: usize) -> usize {
        while parent[a] != a {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        a
    }
    fn union(parent: &mut [usize], a: usize, b: usize) {
        let (ra, rb) = (find(parent, a), find(parent, b));
        parent[ra] = rb;
    }
    for y in 0..n {
        for x in 0..n {
            if stones & bit(n, x, y) == 0 {
                continue;
            }
            let here = y * n + x;
            let along = if black { y } else { x };
            if along == 0 {
                union(&mut parent, here, first);
            }
            if along == n - 1 {
                union(&mut parent, here, last);
            }
            // Each adjacent pair once: right, up, and up-left (x−1, y+1).
            if x + 1 < n && stones & bit(n, x + 1, y) != 0 {
                union(&mut parent, here, here + 1);
            }
            if y + 1 < n && stones & bit(n, x, y + 1) != 0 {
                union(&mut parent, here, here + n);
            }
            if x > 0 && y + 1 < n && stones & bit(n, x - 1, y + 1) != 0 {
                union(&mut parent, here, here + n - 1);
            }
        }
    }
    find(&mut parent, first) == find(&mut parent, last)
}

/// Plain game-tree search with an explicit side to move, no stone-count convention and no
/// memory: the value for the side to move, or `Illegal` if the mover has already connected.
fn naive(n: usize, black: u128, white: u128, black_to_move: bool, misere: bool) -> RetroValue {
    let (mine, theirs) = if black_to_move {
        (black, white)
    } else {
        (white, black)
    };
    if joins(n, mine, black_to_move) {
        return RetroValue::Illegal;
    }
    if joins(n, theirs, !black_to_move) {
        return RetroValue::GameOver;
    }
    for i in 0..n * n {
        let m = 1u128 << i;
        if (black | white) & m != 0 {
            continue;
        }
        let child = if black_to_move {
            naive(n, black | m, white, false, misere)
        } else {
            naive(n, black, white | m, true, misere)
        };
        let opponent_loses = match child {
            RetroValue::GameOver => !misere,
            RetroValue::Loss => true,
            RetroValue::Win | RetroValue::Illegal => false,
        };
        if opponent_loses {
            return RetroValue::Win;
        }
    }
    RetroValue::Loss
}

/// Every position of an n x n board as (black, white) bitboards.
fn all_positions(n: usize) -> Vec<(u128, u128)> {
    let mut positions = vec![(0u128, 0u128)];
    for i in 0..n * n {
        let m = 1u128 << i;
        positions = positions
            .into_iter()
            .flat_map(|(b, w)| [(b, w), (b | m, w), (b, w | m)])
            .collect();
    }
    positions
}

/// A deterministic sample of 4x4 positions with legal stone counts.
fn sample4(count: usize) -> Vec<(u128, u128)> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let (mut black, mut white) = (0u128, 0u128);
        let mut bits = state >> 16;
        for i in 0..16 {
            match bits % 3 {
                1 => black |= 1 << i,
                2 => white |= 1 << i,
                _ => {}
            }
            bits /= 3;
        }
        let (b, w) = (black.count_ones(), white.count_ones());
        if b == w || b == w + 1 {
            positions.push((black, white));
        }
    }
    positions
}

/// The cells whose opening move (a single black stone) wins for Black.
fn winning_openings(table: &RetroTable) -> Vec<usize> {
    let n = table.size();
    (0..n * n)
        .filter(|&i| table.value(1 << i, 0).unwrap() == RetroValue::Loss)
        .collect()
}

#[test]
fn sizes_outside_the_oracle_are_refused() {
    assert_eq!(
        RetroTable::compute(0, false),
        Err(RetroError::SizeOutOfRange(0))
    );
    assert_eq!(
        RetroTable::compute(12, true),
        Err(RetroError::SizeOutOfRange(12))
    );
    for size in 5..=11 {
        assert_eq!(
            RetroTable::compute(size, false),
            Err(RetroError::TooLarge { size })
        );
        assert_eq!(
            RetroLengths::compute(size, true),
            Err(RetroError::TooLarge { size })
        );
    }
    let message = RetroError::TooLarge { size: 5 }.to_string();
    assert!(message.contains("does not fit in memory"), "{message}");
}

#[test]
fn bad_positions_are_errors() {
    let table = RetroTable::compute(2, false).unwrap();
    assert_eq!(table.value(0b1, 0b1), Err(RetroError::Overlap));
    assert_eq!(
        table.value(1 << 4, 0),
        Err(RetroError::OffBoard { size: 2 })
    );
    assert_eq!(
        table.value(0, 1 << 127),
        Err(RetroError::OffBoard { size: 2 })
    );
    assert_eq!(
        normal4().plies_to_end(1 << 16, 0),
        Err(RetroError::OffBoard { size: 4 })
    );
}

#[test]
fn one_by_one() {
    let table = RetroTable::compute(1, false).unwrap();
    assert_eq!(table.value(0, 0).unwrap(), RetroValue::Win);
    assert_eq!(table.value(1, 0).unwrap(), RetroValue::GameOver);
    assert_eq!(table.value(0, 1).unwrap(), RetroValue::Illegal);
}

#[test]
fn two_by_two_openings() {
    // b1 (bit 1) and a2 (bit 2) touch each other and both cells of the other row, so Black's
    // stone on either connects through whichever of the two White leaves. a1 and b2 touch only
    // b1 and a2: after a1, White answers a2, which touches both b1 and b2 of White's last
    // column, and connects through whichever Black leaves; b2 is the same turned 180°.
    let table = RetroTable::compute(2, false).unwrap();
    assert_eq!(table.value(0, 0).unwrap(), RetroValue::Win);
    assert_eq!(winning_openings(&table), vec![1, 2]);
}

#[test]
fn three_by_three() {
    let table = RetroTable::compute(3, false).unwrap();
    assert_eq!(table.value(0, 0).unwrap(), RetroValue::Win);
    assert!(winning_openings(&table).contains(&4), "the centre b2 wins");
}

#[test]
fn four_by_four_openings_are_the_short_diagonal() {
    let table = normal4().table();
    assert_eq!(table.value(0, 0).unwrap(), RetroValue::Win);
    // d1 = (3, 0), c2 = (2, 1), b3 = (1, 2), a4 = (0, 3).
    let diagonal = [(3, 0), (2, 1), (1, 2), (0, 3)].map(|(x, y)| y * 4 + x);
    assert_eq!(winning_openings(table), diagonal.to_vec());
}

#[test]
fn four_by_four_lengths() {
    let lengths = normal4();
    let at = |x: usize, y: usize| lengths.plies_to_end(bit(4, x, y), 0).unwrap();
    // Black wins with his fifth stone after c2 or b3, his sixth after d1 or a4.
    assert_eq!(at(2, 1), Some(8));
    assert_eq!(at(1, 2), Some(8));
    assert_eq!(at(3, 0), Some(10));
    assert_eq!(at(0, 3), Some(10));
    assert_eq!(lengths.plies_to_end(0, 0).unwrap(), Some(9));
    assert_eq!(lengths.plies_to_end(0, 1).unwrap(), None);
}

#[test]
fn lengths_agree_with_values() {
    for misere in [false, true] {
        for size in 1..=3 {
            let lengths = RetroLengths::compute(size, misere).unwrap();
            let table = RetroTable::compute(size, misere).unwrap();
            assert_eq!(lengths.table(), &table);
            for (black, white) in all_positions(size) {
                let plies = lengths.plies_to_end(black, white).unwrap();
                match table.value(black, white).unwrap() {
                    RetroValue::Illegal => assert_eq!(plies, None),
                    RetroValue::GameOver => assert_eq!(plies, Some(0)),
                    // In normal play the winner makes the last move, in misère the loser.
                    RetroValue::Win => {
                        assert_eq!(plies.map(|p| p % 2), Some(u8::from(!misere)))
                    }
                    RetroValue::Loss => assert_eq!(plies.map(|p| p % 2), Some(u8::from(misere))),
                }
            }
        }
    }
}

#[test]
fn misere_parity() {
    // Lagarias and Sleator: the first player wins misère Hex on even boards, the second on odd.
    for size in 1..=3 {
        let table = RetroTable::compute(size, true).unwrap();
        let expected = if size % 2 == 0 {
            RetroValue::Win
        } else {
            RetroValue::Loss
        };
        assert_eq!(table.value(0, 0).unwrap(), expected, "misère {size}x{size}");
    }
    assert_eq!(misere4().value(0, 0).unwrap(), RetroValue::Win);
    // Evans: on misère 4x4 the acute corner a1 is a winning opening.
    assert_eq!(misere4().value(1, 0).unwrap(), RetroValue::Loss);
}

#[test]
fn rotation_preserves_every_value() {
    for misere in [false, true] {
        let table = RetroTable::compute(3, misere).unwrap();
        for (black, white) in all_positions(3) {
            assert_eq!(
                table.value(black, white).unwrap(),
                table.value(rotate(3, black), rotate(3, white)).unwrap()
            );
        }
    }
    for (black, white) in sample4(20_000) {
        let (rb, rw) = (rotate(4, black), rotate(4, white));
        assert_eq!(
            normal4().table().value(black, white).unwrap(),
            normal4().table().value(rb, rw).unwrap()
        );
        assert_eq!(
            normal4().plies_to_end(black, white).unwrap(),
            normal4().plies_to_end(rb, rw).unwrap()
        );
        assert_eq!(
            misere4().value(black, white).unwrap(),
            misere4().value(rb, rw).unwrap()
        );
    }
}

#[test]
fn naive_search_agrees_on_every_three_by_three_position() {
    for misere in [false, true] {
        let table = RetroTable::compute(3, misere).unwrap();
        for (black, white) in all_positions(3) {
            let value = table.value(black, white).unwrap();
            let (b, w) = (black.count_ones(), white.count_ones());
            if b != w && b != w + 1 {
                assert_eq!(value, RetroValue::Illegal);
                continue;
            }
            assert_eq!(value, naive(3, black, white, b == w, misere));
            // Transposing the board with the colours swapped turns Black's game into White's:
            // the same position with the other player's stones, that player to move. The counts
            // convention does not hold there, so only the naive search can be asked.
            let mirrored = naive(3, transpose(3, white), transpose(3, black), b != w, misere);
            assert_eq!(value, mirrored);
        }
    }
}

#[test]
fn payload_round_trip() {
    for size in 1..=3 {
        let table = RetroTable::compute(size, true).unwrap();
        let back = RetroTable::from_payload(size, true, table.payload().to_vec()).unwrap();
        assert_eq!(back, table);
    }
    let bytes = misere4().payload().to_vec();
    assert_eq!(bytes.len(), 3usize.pow(16).div_ceil(4));
    assert_eq!(
        &RetroTable::from_payload(4, true, bytes).unwrap(),
        misere4()
    );

    assert_eq!(
        RetroTable::from_payload(2, false, vec![0; 20]),
        Err(RetroError::PayloadLength {
            size: 2,
            expected: 21,
            found: 20
        })
    );
    // 3^4 = 81 positions: the last byte holds only position 80, in its low two bits.
    let mut padded = RetroTable::compute(2, false).unwrap().payload().to_vec();
    padded[20] |= 0b100;
    assert_eq!(
        RetroTable::from_payload(2, false, padded),
        Err(RetroError::PayloadPadding)
    );
    assert_eq!(
        RetroTable::from_payload(6, false, Vec::new()),
        Err(RetroError::TooLarge { size: 6 })
    );
}

#[test]
fn counts_cover_every_position() {
    for (table, size) in [(normal4().table(), 4), (misere4(), 4)] {
        let counts = table.counts();
        let total = counts.illegal + counts.game_over + counts.win + counts.loss;
        assert_eq!(total, 3u64.pow((size * size) as u32));
    }
    // Normal and misère play differ only in who wins: the same positions are legal and over.
    let (normal, misere) = (normal4().table().counts(), misere4().counts());
    assert_eq!(normal.illegal, misere.illegal);
    assert_eq!(normal.game_over, misere.game_over);
}
