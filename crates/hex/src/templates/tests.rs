//! The committed templates re-proven by a solver of the tests' own (minimax on coordinates,
//! sharing no code with the finder), checked minimal, and checked against the templates the
//! literature names.

use std::collections::HashMap;

use super::*;

/// The carrier game by minimax: the player holds the stone (0, row) and the cells of `mine`
/// (bits over `cells`), the opponent those of `theirs`, the opponent moving first when
/// `opponent_to_move`; whether the player joins the stone to the edge.
///
/// Each result comes with a *proof set*: free cells such that the winner still wins when every
/// other free cell is given to the loser. Where one of the loser's moves is refuted with proof
/// set Q, every other move of theirs outside Q is refuted too: the winner's strategy never
/// touches it, and the loser holding it instead of the refuted move only lacks a stone there,
/// which never helps in Hex. So the loser's moves left to try are those in every refutation's
/// set so far, and the node's set is the union of the refutations' sets with their moves.
///
/// Shortcuts, each argued where it is applied: moves outside the stone's reach are not
/// played; by induction on the row, a lower template proven already, joined to the stone by
/// pairs of cells, ends the game; and each side answers the other's one-move threats.
struct Minimax {
    /// The neighbours of each cell, and the cells next to the stone (bits over `cells`).
    around: Vec<u64>,
    at_stone: u64,
    /// The cells of row 1.
    row_1: u64,
    /// For each cell, the carriers of the lower templates with their stone there (bits over
    /// `cells`; those that leave the cells are left out).
    lower: Vec<Vec<u64>>,
    /// What is known of each position searched.
    memo: HashMap<(u64, u64, bool), Known>,
}

impl Minimax {
    /// The game inside `cells` for the stone of row `row`, given `lower`, templates of lower
    /// rows that these tests have proven already.
    fn new(row: i8, cells: &[(i8, i8)], lower: &[Template]) -> Minimax {
        let adjacent = |a: (i8, i8), b: (i8, i8)| {
            matches!(
                (b.0 - a.0, b.1 - a.1),
                (1, 0) | (-1, 0) | (0, 1) | (0, -1) | (1, -1) | (-1, 1)
            )
        };
        let mask = |f: &dyn Fn((i8, i8)) -> bool| {
            (0..cells.len())
                .filter(|&i| f(cells[i]))
                .fold(0u64, |m, i| m | 1 << i)
        };
        let index: HashMap<(i8, i8), usize> =
            cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let lower = cells
            .iter()
            .map(|&(x, h)| {
                lower
                    .iter()
                    .filter(|t| t.row == h && h < row && t.stones.is_empty())
                    .flat_map(|t| [t.clone(), t.mirror()])
                    .filter_map(|t| {
                        t.cells.iter().try_fold(0u64, |m, &(cx, ch)| {
                            index.get(&(x + cx, ch)).map(|&j| m | 1 << j)
                        })
                    })
                    .collect()
            })
            .collect();
        Minimax {
            around: cells.iter().map(|&c| mask(&|d| adjacent(c, d))).collect(),
            at_stone: mask(&|d| adjacent((0, row), d)),
            row_1: mask(&|d| d.1 == 1),
            lower,
            memo: HashMap::new(),
        }
    }

    /// The cells of a set, in order.
    fn each(&self, set: u64) -> impl Iterator<Item = usize> + Clone {
        (0..self.around.len()).filter(move |&i| set >> i & 1 == 1)
    }

    /// The cells next to `set`, and next to the stone.
    fn next_to(&self, set: u64) -> u64 {
        self.each(set)
            .fold(self.at_stone, |m, i| m | self.around[i])
    }

    /// The cells of `through` joined to `start` through `through`.
    fn flood(&self, start: u64, through: u64) -> u64 {
        let mut reached = start;
        loop {
            let grown = self
                .each(reached)
                .fold(reached, |m, i| m | self.around[i] & through);
            if grown == reached {
                return reached;
            }
            reached = grown;
        }
    }

    /// The cells reached from the stone through `through`.
    fn reached(&self, through: u64) -> u64 {
        self.flood(self.at_stone & through, through)
    }

    /// Whether the player's stones `mine` join the stone to the edge whatever the opponent
    /// does in the `free` cells, and if so the free cells that takes. The stone's group is
    /// grown by stones of the player's that share two free cells with it (taking either
    /// joins them), each pair apart from the others, until it reaches row 1, or holds the
    /// stone of a lower template whose carrier is open and apart from every pair. The pairs
    /// and the carrier are disjoint, so each move of the opponent's meets at most one of
    /// them, which the player restores: the other cell of a pair, or the template's answer.
    fn joined(&self, mine: u64, free: u64) -> Option<u64> {
        let open = mine | free;
        let mut group = self.reached(mine);
        let mut used = 0u64;
        loop {
            if group & self.row_1 != 0 {
                return Some(used);
            }
            let by_lower = self.each(group).find_map(|i| {
                self.lower[i]
                    .iter()
                    .find(|&&c| c & !open == 0 && c & used == 0)
            });
            if let Some(&c) = by_lower {
                return Some(used | c & free);
            }
            let next_to = self.next_to(group);
            let (s, shared) = self
                .each(mine & !group)
                .map(|s| (s, self.around[s] & next_to & free & !used))
                .find(|&(_, shared)| shared.count_ones() >= 2)?;
            let first = shared & shared.wrapping_neg();
            let rest = shared & !first;
            used |= first | rest & rest.wrapping_neg();
            group |= self.flood(1 << s, mine);
        }
    }

    /// The free cells in the stone's reach.
    fn in_reach(&self, mine: u64, free: u64) -> u64 {
        self.reached(mine | free) & free
    }

    /// The player's threats, the opponent to move: a free cell p in the stone's reach that,
    /// taken, joins the stone to the edge by [`Minimax::joined`]. Unless the opponent plays on
    /// p or in the cells that takes, the player plays p and is joined; so the opponent's moves
    /// are those in every threat's cells (the first set returned), and none left means the
    /// player wins. The second set is the union of the threats' cells, which a proof set keeps
    /// so that they stay threats.
    fn threats(&self, mine: u64, free: u64) -> (u64, u64) {
        let (mut must, mut cells) = (u64::MAX, 0);
        for p in self.each(self.in_reach(mine, free)) {
            let bit = 1u64 << p;
            if let Some(set) = self.joined(mine | bit, free & !bit) {
                must &= bit | set;
                cells |= bit | set;
            }
        }
        (must, cells)
    }

    /// The value of a position, won or lost (see [`Minimax`]). Searched first with at most 1
    /// to 5 more stones of the player's: the proofs of templates are short once lower
    /// templates end the game, and what the bounded searches decide is kept for the search
    /// without a bound, which tries a move known to win first, before long lines of play.
    /// (The fifth row's template is proven within 5 stones, in 3.4 s, where the search
    /// without a bound alone takes 66 s.)
    fn value(&mut self, mine: u64, theirs: u64, opponent_to_move: bool) -> Value {
        (1..=5)
            .chain([u32::MAX])
            .map(|k| self.play(mine, theirs, opponent_to_move, k))
            .find(|&v| v != Value::Open)
            .expect("the search without a bound decides")
    }

    /// The value of a position as far as the player may play at most `k` more stones (see
    /// [`Minimax`]).
    fn play(&mut self, mine: u64, theirs: u64, opponent_to_move: bool, k: u32) -> Value {
        let free = ((1u64 << self.around.len()) - 1) & !mine & !theirs;
        if let Some(set) = self.joined(mine, free) {
            return Value::Win(set);
        }
        // Giving free cells to the player changes no chain of the player's and free cells:
        // a cut stays a cut.
        if self.reached(mine | free) & self.row_1 == 0 {
            return Value::Loss(0);
        }
        match self.memo.get(&(mine, theirs, opponent_to_move)) {
            Some(&Known::Value(v)) => return v,
            Some(&Known::OpenAt(at)) if k <= at => return Value::Open,
            _ => {}
        }
        if k == 0 && !opponent_to_move {
            return Value::Open;
        }
        // Only cells in the stone's reach are played. A cell outside it joins nothing, so
        // playing it is a pass: for the player a pass never beats a move in reach (one more
        // stone never hurts), and a pass of the opponent's loses whenever a move in reach
        // loses (one stone fewer never helps); some cell is in reach, as row 1 is reached.
        // The same holds in the position a proof set describes, whose reach is no larger, and
        // where a move in reach is always left: the loser's refuted moves are in the set.
        // Cells next to the stone's group first: the likeliest to decide.
        let reach = self.in_reach(mine, free);
        let near = self.next_to(self.reached(mine));
        let moves: Vec<usize> = self
            .each(reach & near)
            .chain(self.each(reach & !near))
            .collect();
        // A cut: a free cell whose loss leaves row 1 out of the stone's reach.
        let cut = |q: usize| self.reached(mine | free & !(1 << q)) & self.row_1 == 0;
        // At most two are needed: the first for the opponent, one or two for the player.
        let cuts: Vec<usize> = moves.iter().copied().filter(|&q| cut(q)).take(2).collect();
        let v = if opponent_to_move {
            if let Some(&q) = cuts.first() {
                // The opponent takes the cut and wins, the cut the proof set.
                Value::Loss(1 << q)
            } else {
                let (mut must, mut proof) = self.threats(mine, free);
                let mut open = false;
                let mut refuted = None;
                for i in moves {
                    if must >> i & 1 == 0 {
                        continue;
                    }
                    match self.play(mine, theirs | 1 << i, false, k) {
                        Value::Loss(set) => {
                            refuted = Some(set | 1 << i);
                            break;
                        }
                        Value::Win(set) => {
                            proof |= set | 1 << i;
                            must &= set;
                        }
                        // Not a win within the bound: the bounded searches look for wins.
                        Value::Open => {
                            open = true;
                            break;
                        }
                    }
                }
                match refuted {
                    Some(set) => Value::Loss(set),
                    None if open => Value::Open,
                    None => Value::Win(proof),
                }
            }
        } else {
            // A move of the player's that joins at once wins. Otherwise the opponent's one-move
            // threats are the cuts: any move of the player's elsewhere leaves the cut to the
            // opponent's answer (the player's stone was in reach already, so it changes no
            // reach), so the player must play there, and loses facing two.
            let at_once = moves.iter().find_map(|&p| {
                let bit = 1u64 << p;
                self.joined(mine | bit, free & !bit).map(|set| set | bit)
            });
            if let Some(set) = at_once {
                Value::Win(set)
            } else if let [q, r, ..] = cuts[..] {
                Value::Loss(1 << q | 1 << r)
            } else {
                let mut moves = if let [q] = cuts[..] { vec![q] } else { moves };
                // Moves known to win first, then those that leave the opponent the fewest
                // answers.
                // The key costs a threat search a move: made once each.
                moves.sort_by_cached_key(|&i| {
                    let bit = 1u64 << i;
                    let wins = matches!(
                        self.memo.get(&(mine | bit, theirs, true)),
                        Some(Known::Value(Value::Win(_)))
                    );
                    (
                        !wins,
                        (self.threats(mine | bit, free & !bit).0 & free).count_ones(),
                    )
                });
                // A loss's proof set holds the cut, if any, which refutes the other moves.
                let mut proof = cuts.first().map_or(0, |&q| 1u64 << q);
                let (mut left, mut open, mut won) = (u64::MAX, false, None);
                for i in moves {
                    if left >> i & 1 == 0 {
                        continue;
                    }
                    match self.play(mine | 1 << i, theirs, true, k - 1) {
                        Value::Win(set) => {
                            won = Some(set | 1 << i);
                            break;
                        }
                        Value::Loss(set) => {
                            proof |= set | 1 << i;
                            left &= set;
                        }
                        Value::Open => open = true,
                    }
                }
                match won {
                    Some(set) => Value::Win(set),
                    None if open => Value::Open,
                    None => Value::Loss(proof),
                }
            }
        };
        self.known(mine, theirs, opponent_to_move, k, v)
    }

    /// Records `v` as the value of the position, or as open within `k` more stones of the
    /// player's, and returns it.
    fn known(&mut self, mine: u64, theirs: u64, opponent_to_move: bool, k: u32, v: Value) -> Value {
        let entry = match v {
            Value::Open => Known::OpenAt(k),
            v => Known::Value(v),
        };
        self.memo.insert((mine, theirs, opponent_to_move), entry);
        v
    }
}

/// The value of a carrier game's position, as far as a search bounded in the player's moves
/// sees: won or lost for the player, each with its proof set, or open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Win(u64),
    Loss(u64),
    Open,
}

/// What the minimax keeps of a position: its value, or that it is open within that many more
/// stones of the player's.
#[derive(Clone, Copy)]
enum Known {
    Value(Value),
    OpenAt(u32),
}

/// Whether the player, second to move, joins the stone of `t` to the edge inside its carrier,
/// holding its other stones, given `lower`, single-stone templates of lower rows proven
/// already (each with its mirror).
fn holds(t: &Template, lower: &[Template]) -> bool {
    let cells: Vec<(i8, i8)> = t.cells.iter().chain(&t.stones).copied().collect();
    let mine = (t.cells.len()..cells.len()).fold(0u64, |m, i| m | 1 << i);
    matches!(
        Minimax::new(t.row, &cells, lower).value(mine, 0, true),
        Value::Win(_)
    )
}

/// Whether the player joins the stone to the edge, by plain minimax: every free cell played,
/// no template, no shortcut but the end of the game.
fn plain(m: &Minimax, mine: u64, theirs: u64, opponent_to_move: bool) -> bool {
    let free = ((1u64 << m.around.len()) - 1) & !mine & !theirs;
    if m.reached(mine) & m.row_1 != 0 {
        return true;
    }
    if m.reached(mine | free) & m.row_1 == 0 {
        return false;
    }
    let mut moves = m.each(free);
    if opponent_to_move {
        moves.all(|i| plain(m, mine, theirs | 1 << i, false))
    } else {
        moves.any(|i| plain(m, mine | 1 << i, theirs, true))
    }
}

/// The minimax with its proof sets, threats and lower templates agrees with plain minimax on
/// every carrier inside a region of 11 cells around a third-row stone, the bridge to the
/// edge its only template, the opponent or the player moving first; and each proof set holds,
/// by plain minimax, with every free cell outside it given to the loser.
#[test]
fn the_minimax_agrees_with_plain_play() {
    let cells: Vec<(i8, i8)> = (1..=3)
        .flat_map(|h| (-1..=4 - h).map(move |x| (x, h)))
        .filter(|&c| c != (0, 3))
        .collect();
    let bridge: Vec<Template> = committed().iter().filter(|t| t.row == 2).cloned().collect();
    assert_eq!(bridge.len(), 1);
    let region = Minimax::new(3, &cells, &[]);
    let (mut won, mut lost) = (0, 0);
    for carrier in 0u64..1 << cells.len() {
        let theirs = !carrier & ((1 << cells.len()) - 1);
        for opponent_to_move in [true, false] {
            let expected = plain(&region, 0, theirs, opponent_to_move);
            let mut m = Minimax::new(3, &cells, &bridge);
            let (wins, set) = match m.value(0, theirs, opponent_to_move) {
                Value::Win(set) => (true, set),
                Value::Loss(set) => (false, set),
                Value::Open => unreachable!("a value is decided"),
            };
            assert_eq!(wins, expected, "carrier {carrier:b}");
            // The proof set: the winner still wins with every other free cell the loser's.
            let rest = carrier & !set;
            let (mine, theirs) = if wins {
                (0, theirs | rest)
            } else {
                (rest, theirs)
            };
            assert_eq!(
                plain(&region, mine, theirs, opponent_to_move),
                wins,
                "carrier {carrier:b}, proof set {set:b}"
            );
            if wins {
                won += 1;
            } else {
                lost += 1;
            }
        }
    }
    assert!(won > 100 && lost > 100, "{won} won, {lost} lost");
}

#[test]
fn committed_list_reads_and_its_checksum_holds() {
    let list = parse(COMMITTED).expect("the committed list reads");
    assert!(!list.is_empty());
    let rows = list.iter().map(|t| t.row).max().unwrap_or(2);
    let command = format!("zermelo hex templates --max-row {rows} --max-cells {MAX_CELLS} --max-cells-with-stones {MAX_CELLS_WITH_STONES}");
    assert_eq!(to_text(&list, &command), COMMITTED);
    let mut broken = COMMITTED.replacen("template 3", "template 4", 1);
    assert!(
        parse(&broken).is_err(),
        "a changed line breaks the checksum"
    );
    broken = COMMITTED.replace("checksum", "sum");
    assert!(parse(&broken).is_err());
}

/// Every committed template that `which` picks holds, by the tests' own minimax, with the
/// committed single-stone templates of the rows below as lower templates (each row's proofs
/// use only the rows below it, which the tests prove too); each with one carrier cell taken by
/// the opponent fails: it is minimal; and each with one of its other stones taken by the
/// opponent fails: it needs them. Returns how many were checked.
fn check(which: impl Fn(&Template) -> bool) -> usize {
    let list = committed();
    let mut checked = 0;
    for t in list.iter().filter(|t| which(t)) {
        let proven: Vec<Template> = list
            .iter()
            .filter(|l| l.row < t.row && l.stones.is_empty())
            .cloned()
            .collect();
        assert!(holds(t, &proven), "{}", t.diagram());
        assert!(holds(&t.mirror(), &proven), "mirror of\n{}", t.diagram());
        // Each carrier cell, then each other stone, given to the opponent.
        let without_cell = (0..t.cells.len()).map(|i| {
            let mut less = t.clone();
            (less.cells.remove(i), less)
        });
        let without_stone = (0..t.stones.len()).map(|i| {
            let mut less = t.clone();
            (less.stones.remove(i), less)
        });
        for (gone, less) in without_cell.chain(without_stone) {
            assert!(
                !holds(&less, &proven),
                "still holds without {gone:?}:\n{}",
                t.diagram()
            );
        }
        checked += 1;
    }
    checked
}

/// The templates of rows 2 to 4 that keep to the stone's row and below.
#[test]
fn the_templates_of_rows_2_to_4_hold_and_are_minimal() {
    assert_eq!(
        check(|t| t.row <= 4 && t.stones.is_empty() && t.cells.iter().all(|c| c.1 <= t.row)),
        5
    );
}

/// The fourth row's template of 31 cells, which reaches the row above the stone's, in a test
/// of its own (about 45 s).
#[test]
fn the_fourth_row_template_of_31_cells_holds_and_is_minimal() {
    assert_eq!(check(|t| t.row == 4 && t.cells.len() == 31), 1);
}

/// The fifth row's template, the largest, in a test of its own (about 45 s).
#[test]
fn the_fifth_row_template_holds_and_is_minimal() {
    assert_eq!(check(|t| t.row == 5 && t.stones.is_empty()), 1);
}

/// The templates of rows 4 with a second stone hold, are minimal and need the second stone.
#[test]
fn the_fourth_row_templates_with_a_second_stone_hold_and_are_minimal() {
    assert_eq!(check(|t| t.row == 4 && !t.stones.is_empty()), 41);
}

/// The templates of row 5 with a second stone hold, are minimal and need the second stone.
#[test]
fn the_fifth_row_templates_with_a_second_stone_hold_and_are_minimal() {
    assert_eq!(check(|t| t.row == 5 && !t.stones.is_empty()), 23);
}

/// No template of rows 2 and 3 with a second stone is kept: the connection engine derives
/// each of them from the single-stone templates.
#[test]
fn the_low_rows_need_no_second_stone() {
    assert!(committed()
        .iter()
        .all(|t| t.row >= 4 || t.stones.is_empty()));
}

/// The finder reproduces the committed list byte for byte.
#[test]
fn finder_reproduces_the_committed_list() {
    let rows = committed().iter().map(|t| t.row).max().unwrap_or(2);
    let found = find(rows, [MAX_CELLS, MAX_CELLS_WITH_STONES], |_, _, _, _| {}).unwrap();
    assert_eq!(
        to_text(
            &found,
            &format!("zermelo hex templates --max-row {rows} --max-cells {MAX_CELLS} --max-cells-with-stones {MAX_CELLS_WITH_STONES}")
        ),
        COMMITTED
    );
}

/// A template drawn as the literature draws it: rows from the stone's down to row 1, each
/// shifted half a cell left of the one above, as [`Template::diagram`] draws them: `S` the
/// stone, `s` another stone of the player's, `*` the carrier, `.` a cell outside it.
fn drawn(rows: &[&str]) -> Template {
    let top = rows.len() as i8;
    let mut stone = None;
    let mut marks = Vec::new();
    for (k, line) in rows.iter().enumerate() {
        let h = top - k as i8;
        for (col, ch) in line.chars().enumerate() {
            if ch == ' ' {
                continue;
            }
            // Page column 2x + h (see Template::diagram), up to a constant.
            let x2 = col as i8 - h;
            marks.push(((x2, h), ch));
            if ch == 'S' {
                stone = Some((x2, h));
            }
        }
    }
    let (sx2, row) = stone.expect("a stone");
    let of = |mark: char| {
        marks
            .iter()
            .filter(|(_, ch)| *ch == mark)
            .map(|&((x2, h), _)| {
                let dx2 = x2 - sx2;
                assert!(dx2 % 2 == 0, "cells on the grid");
                (dx2 / 2, h)
            })
            .collect()
    };
    Template {
        row,
        stones: of('s'),
        cells: of('*'),
    }
    .canonical()
}

/// The templates HexWiki lists for rows 2 and 3 (the bridge to the edge, the ziggurat IIIa,
/// and the third-row template with a hole) are found, and no other.
#[test]
fn the_literature_templates_of_rows_2_and_3_are_found() {
    let ii = drawn(&["  S", " * *"]);
    let ziggurat = drawn(&["   * S", "  * * *", " * * * *"]);
    let holed = drawn(&["   * S *", "  * * * *", " * * . * *"]);
    let low: Vec<Template> = committed().iter().filter(|t| t.row <= 3).cloned().collect();
    assert_eq!(low, vec![ii, ziggurat, holed]);
}

/// A template drawn as Benzene's `share/vc-patterns.txt` draws its "complete" patterns: rows
/// from the farthest from the edge down to row 1, each shifted half a cell right of the one
/// above, `E` the stone, `B` another stone of the player's, `*` the carrier, `.` a cell
/// outside it. Each line padded to one width
/// and read backwards is the mirror image drawn as [`drawn`] reads it, which
/// [`Template::canonical`] makes the same entry.
fn benzene(rows: &[&str]) -> Template {
    let width = rows.iter().map(|l| l.len()).max().unwrap_or(0);
    let mirrored: Vec<String> = rows
        .iter()
        .map(|l| {
            format!("{l:<width$}")
                .chars()
                .rev()
                .collect::<String>()
                .replace('E', "S")
                .replace('B', "s")
        })
        .collect();
    drawn(&mirrored.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The single-stone templates of rows 4 and 5 in Benzene's pattern file (`dk4-14`, `dk4-16`
/// and `dk5-1` of its `share/vc-patterns.txt`, transcribed as drawn there) are found by the
/// finder, and all but `dk4-14`, larger than [`MAX_CELLS`], are in the committed list. Two of
/// them have cells on the row above the stone's, which the finder's region holds for that
/// reason.
#[test]
fn benzenes_templates_of_rows_4_and_5_are_found() {
    let dk4_14 = benzene(&[
        ". . . . . . * * * . .",
        " . . . . * E * * * * .",
        "  . . * * * * * * * * *",
        "   . * * * * * * * * * *",
        "    * * . * * * * * * * *",
    ]);
    let dk4_16 = benzene(&[
        ". . . . * * * . .",
        " . . . E * * * * .",
        "  . . * * * * * * *",
        "   . * * * * * * * *",
        "    * * * * * * * * *",
    ]);
    let dk5_1 = benzene(&[
        ". . . . . * E * . .",
        " . . . . * * * * * .",
        "  . . * * * * * * * *",
        "   . * * * * * * * * *",
        "    * * * * * * * * * *",
    ]);
    let list = committed();
    for (name, t) in [("dk4-16", &dk4_16), ("dk5-1", &dk5_1)] {
        assert!(list.contains(t), "{name} missing:\n{}", t.diagram());
    }
    assert!(dk4_14.cells.len() > MAX_CELLS && !list.contains(&dk4_14));
    let fourth = find_in(Region::for_row(4)).unwrap();
    assert!(fourth.contains(&dk4_14), "the finder misses dk4-14");
    assert!(fourth.contains(&dk4_16), "the finder misses dk4-16");
}

/// Benzene's templates of rows 4 and 5 with one stone more (from its `share/vc-patterns.txt`,
/// transcribed as drawn there) are in the committed list, but for two that reach three and four
/// cells beyond the stone's cone on one side, outside the finder's region for a second stone
/// (two cells a side).
#[test]
fn benzenes_templates_with_a_second_stone_are_found() {
    let found = [
        (
            "dk4-3",
            vec![". . E B", " . * * *", "  . * * *", "   * * * *"],
        ),
        (
            "dk4-6",
            vec![". . E * .", " . B * * *", "  . * * * *", "   * * * * *"],
        ),
        (
            "dk4-9",
            vec![
                ". . . E * B",
                " . . * * * *",
                "  . * * * * *",
                "   * * * * * *",
            ],
        ),
        (
            "dk5-6",
            vec![
                ". . . . E B .",
                " . . . * * * .",
                "  . . * * * * *",
                "   . * * * * * *",
                "    * * * * * * *",
            ],
        ),
        (
            "dk5-11",
            vec![
                ". . . . * E",
                " . . . * * B",
                "  . . * * * *",
                "   . * * * * *",
                "    * * * * * *",
            ],
        ),
        (
            "dk5-12",
            vec![
                ". . . . E * *",
                " . . . * * * B",
                "  . . * * * * *",
                "   . * * * * * *",
                "    * * * * * * *",
            ],
        ),
        (
            "dk5-19",
            vec![
                ". . . . . * E",
                " . . . * * * *",
                "  . . B * * * *",
                "   . * * * * * *",
                "    * * * * * * *",
            ],
        ),
        (
            "dk5-20",
            vec![
                ". . . . * E",
                " . . . B * *",
                "  . . * * * *",
                "   . * * * * *",
                "    * * * * * *",
            ],
        ),
        (
            "dk5-21",
            vec![
                ". . . . . . E .",
                " . . . . * * * .",
                "  . . * * * * B *",
                "   . * * * * * * *",
                "    * * . * * * * *",
            ],
        ),
    ];
    let outside = [
        vec![
            ". . . E * . .",
            " . . B * * * .",
            "  . * * * * * *",
            "   . * * * * * *",
            "    * * * * * * *",
        ],
        vec![
            ". . . E * * . .",
            " . . * * * B * *",
            "  . * * * * * * *",
            "   * * * * * * * *",
            "    * * * * * * * *",
        ],
    ];
    let list = committed();
    for (name, rows) in &found {
        let t = benzene(rows);
        assert_eq!(t.stones.len(), 1, "{name}");
        assert!(list.contains(&t), "{name} missing:\n{}", t.diagram());
    }
    for rows in &outside {
        let t = benzene(rows);
        assert!(!list.contains(&t), "{}", t.diagram());
    }
}
