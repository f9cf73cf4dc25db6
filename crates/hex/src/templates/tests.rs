//! The committed templates re-proven by a solver of the tests' own (plain minimax on
//! coordinates, sharing no code with the finder), checked minimal, and checked against the
//! templates the literature names.

use std::collections::HashMap;

use super::*;

/// The carrier game by plain minimax: the player holds the stone (0, row) and the cells of
/// `mine` (bits over `cells`), the opponent those of `theirs`, the opponent moving first when
/// `opponent_to_move`; whether the player joins the stone to the edge.
struct Minimax<'a> {
    row: i8,
    cells: &'a [(i8, i8)],
    memo: HashMap<(u64, u64, bool), bool>,
}

impl Minimax<'_> {
    fn adjacent(a: (i8, i8), b: (i8, i8)) -> bool {
        let (dx, dh) = (b.0 - a.0, b.1 - a.1);
        matches!(
            (dx, dh),
            (1, 0) | (-1, 0) | (0, 1) | (0, -1) | (1, -1) | (-1, 1)
        )
    }

    /// The cells reached from the stone through `through` (bits over `cells`).
    fn reached(&self, through: u64) -> u64 {
        let stone = (0, self.row);
        let mut reached = 0u64;
        loop {
            let mut grown = reached;
            for (i, &c) in self.cells.iter().enumerate() {
                if through >> i & 1 == 1 && grown >> i & 1 == 0 {
                    let touches = Self::adjacent(c, stone)
                        || (0..self.cells.len())
                            .any(|j| grown >> j & 1 == 1 && Self::adjacent(c, self.cells[j]));
                    if touches {
                        grown |= 1 << i;
                    }
                }
            }
            if grown == reached {
                return reached;
            }
            reached = grown;
        }
    }

    fn on_row_1(&self, set: u64) -> bool {
        (0..self.cells.len()).any(|i| set >> i & 1 == 1 && self.cells[i].1 == 1)
    }

    fn player_wins(&mut self, mine: u64, theirs: u64, opponent_to_move: bool) -> bool {
        if self.on_row_1(self.reached(mine)) {
            return true;
        }
        let all = (1u64 << self.cells.len()) - 1;
        let free = all & !mine & !theirs;
        if !self.on_row_1(self.reached(mine | free)) {
            return false;
        }
        if let Some(&v) = self.memo.get(&(mine, theirs, opponent_to_move)) {
            return v;
        }
        let moves = (0..self.cells.len()).filter(|&i| free >> i & 1 == 1);
        let v = if opponent_to_move {
            moves
                .collect::<Vec<_>>()
                .into_iter()
                .all(|i| self.player_wins(mine, theirs | 1 << i, false))
        } else {
            moves
                .collect::<Vec<_>>()
                .into_iter()
                .any(|i| self.player_wins(mine | 1 << i, theirs, true))
        };
        self.memo.insert((mine, theirs, opponent_to_move), v);
        v
    }
}

/// Whether the player, second to move, joins the stone of row `row` to the edge inside
/// `cells`.
fn holds(row: i8, cells: &[(i8, i8)]) -> bool {
    let mut m = Minimax {
        row,
        cells,
        memo: HashMap::new(),
    };
    m.player_wins(0, 0, true)
}

#[test]
fn committed_list_reads_and_its_checksum_holds() {
    let list = parse(COMMITTED).expect("the committed list reads");
    assert!(!list.is_empty());
    let rows = list.iter().map(|t| t.row).max().unwrap_or(2);
    let command = format!("zermelo hex templates --max-row {rows}");
    assert_eq!(to_text(&list, &command), COMMITTED);
    let mut broken = COMMITTED.replacen("template 3", "template 4", 1);
    assert!(
        parse(&broken).is_err(),
        "a changed line breaks the checksum"
    );
    broken = COMMITTED.replace("checksum", "sum");
    assert!(parse(&broken).is_err());
}

/// Every committed template holds, by the tests' own minimax, and each with one carrier cell
/// taken by the opponent fails: it is minimal.
#[test]
fn every_committed_template_holds_and_is_minimal() {
    for t in committed() {
        assert!(holds(t.row, &t.cells), "{}", t.diagram());
        assert!(
            holds(t.row, &t.mirror().cells),
            "mirror of\n{}",
            t.diagram()
        );
        for i in 0..t.cells.len() {
            let mut less = t.cells.clone();
            less.remove(i);
            assert!(
                !holds(t.row, &less),
                "still holds without {:?}:\n{}",
                t.cells[i],
                t.diagram()
            );
        }
    }
}

/// The finder reproduces the committed list for the rows it does quickly.
#[test]
fn finder_reproduces_the_low_rows() {
    let found = find(3, |_, _| {});
    let committed: Vec<&Template> = committed().iter().filter(|t| t.row <= 3).collect();
    assert_eq!(found.iter().collect::<Vec<_>>(), committed);
}

/// The whole committed list, regenerated (minutes: run with `--ignored`).
#[test]
#[ignore]
fn finder_reproduces_the_committed_list() {
    let rows = committed().iter().map(|t| t.row).max().unwrap_or(2);
    let found = find(rows, |_, _| {});
    assert_eq!(
        to_text(&found, &format!("zermelo hex templates --max-row {rows}")),
        COMMITTED
    );
}

/// A template drawn as the literature draws it: rows from the stone's down to row 1, each
/// shifted half a cell left of the one above, as [`Template::diagram`] draws them: `S` the
/// stone, `*` the carrier, `.` a cell outside it.
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
    let cells = marks
        .iter()
        .filter(|(_, ch)| *ch == '*')
        .map(|&((x2, h), _)| {
            let dx2 = x2 - sx2;
            assert!(dx2 % 2 == 0, "cells on the grid");
            (dx2 / 2, h)
        })
        .collect();
    Template { row, cells }.canonical()
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
