//! The committed templates re-proven by a solver of the tests' own (minimax on coordinates,
//! sharing no code with the finder), checked minimal, and checked against the templates the
//! literature names.

use std::collections::HashMap;

use super::*;

/// The carrier game by minimax: the player holds the stone (0, row) and the cells of `mine`
/// (bits over `cells`), the opponent those of `theirs`, the opponent moving first when
/// `opponent_to_move`; whether the player joins the stone to the edge.
///
/// Shortcuts, each argued where it is applied: moves outside the stone's reach are not
/// played; by induction on the row, a lower template proven already ends the game; and each
/// side answers the other's one-move threats.
struct Minimax {
    /// The neighbours of each cell, and the cells next to the stone (bits over `cells`).
    around: Vec<u64>,
    at_stone: u64,
    /// The cells of row 1.
    row_1: u64,
    /// For each cell, the carriers of the lower templates with their stone there (bits over
    /// `cells`; those that leave the cells are left out).
    lower: Vec<Vec<u64>>,
    memo: HashMap<(u64, u64, bool), bool>,
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
                    .filter(|t| t.row == h && h < row)
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

    /// The cells reached from the stone through `through`.
    fn reached(&self, through: u64) -> u64 {
        let mut reached = self.at_stone & through;
        loop {
            let grown = (0..self.around.len())
                .filter(|&i| reached >> i & 1 == 1)
                .fold(reached, |m, i| m | self.around[i] & through);
            if grown == reached {
                return reached;
            }
            reached = grown;
        }
    }

    fn player_wins(&mut self, mine: u64, theirs: u64, opponent_to_move: bool) -> bool {
        let group = self.reached(mine);
        if group & self.row_1 != 0 {
            return true;
        }
        let all = (1u64 << self.around.len()) - 1;
        let free = all & !mine & !theirs;
        let reach = self.reached(mine | free);
        if reach & self.row_1 == 0 {
            return false;
        }
        // A cell of the group holding the stone of a proven lower template whose carrier has
        // no opponent's cell: the template's strategy joins the group to the edge.
        let open = mine | free;
        let by_lower = (0..self.around.len())
            .filter(|&i| group >> i & 1 == 1)
            .any(|i| self.lower[i].iter().any(|&c| c & !open == 0));
        if by_lower {
            return true;
        }
        if let Some(&v) = self.memo.get(&(mine, theirs, opponent_to_move)) {
            return v;
        }
        // Only cells in the stone's reach are played. A cell outside it joins nothing, so
        // playing it is a pass: for the player a pass never beats a move in reach (one more
        // stone never hurts), and a pass of the opponent's loses whenever a move in reach
        // loses (one stone fewer never helps); some cell is in reach, as row 1 is reached.
        // Cells next to the stone's group first: the likeliest to decide.
        let near = (0..self.around.len())
            .filter(|&i| group >> i & 1 == 1)
            .fold(self.at_stone, |m, i| m | self.around[i]);
        let moves: Vec<usize> = [free & reach & near, free & reach & !near]
            .into_iter()
            .flat_map(|set| (0..self.around.len()).filter(move |&i| set >> i & 1 == 1))
            .collect();
        let v = if opponent_to_move {
            // The player's threats: a free cell p next to the group that reaches row 1, or
            // holds a lower template's stone with the carrier open. Unless the opponent plays
            // on p or in that carrier, the player plays p and is joined; so the opponent's
            // moves are those in every threat's cells, and none left means the player wins.
            let mut must = all;
            for p in (0..self.around.len()).filter(|&p| (free & near) >> p & 1 == 1) {
                let bit = 1u64 << p;
                if bit & self.row_1 != 0 {
                    must &= bit;
                } else if let Some(c) = self.lower[p].iter().find(|&&c| c & !(open & !bit) == 0) {
                    must &= bit | (c & free);
                }
            }
            moves
                .into_iter()
                .filter(|&i| must >> i & 1 == 1)
                .all(|i| self.player_wins(mine, theirs | 1 << i, false))
        } else {
            // The opponent's one-move threats: a free cell whose loss leaves row 1 out of the
            // stone's reach. Any move of the player's elsewhere leaves that cell to the
            // opponent's answer (the player's stone was in reach already, so it changes no
            // reach), so the player must play there, and loses facing two.
            let cuts: Vec<usize> = moves
                .iter()
                .copied()
                .filter(|&q| self.reached(mine | free & !(1 << q)) & self.row_1 == 0)
                .collect();
            match cuts.len() {
                0 => moves
                    .into_iter()
                    .any(|i| self.player_wins(mine | 1 << i, theirs, true)),
                1 => self.player_wins(mine | 1 << cuts[0], theirs, true),
                _ => false,
            }
        };
        self.memo.insert((mine, theirs, opponent_to_move), v);
        v
    }
}

/// Whether the player, second to move, joins the stone of row `row` to the edge inside
/// `cells`, given `lower`, templates of lower rows proven already (each with its mirror).
fn holds(row: i8, cells: &[(i8, i8)], lower: &[Template]) -> bool {
    Minimax::new(row, cells, lower).player_wins(0, 0, true)
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
    // Lowest rows first: each row's proofs may use the rows proven before it.
    let mut list = committed().to_vec();
    list.sort_by_key(|t| t.row);
    for (k, t) in list.iter().enumerate() {
        let proven = &list[..k];
        assert!(holds(t.row, &t.cells, proven), "{}", t.diagram());
        assert!(
            holds(t.row, &t.mirror().cells, proven),
            "mirror of\n{}",
            t.diagram()
        );
        for i in 0..t.cells.len() {
            let mut less = t.cells.clone();
            less.remove(i);
            assert!(
                !holds(t.row, &less, proven),
                "still holds without {:?}:\n{}",
                t.cells[i],
                t.diagram()
            );
        }
    }
}

/// The finder reproduces the committed list byte for byte.
#[test]
fn finder_reproduces_the_committed_list() {
    let rows = committed().iter().map(|t| t.row).max().unwrap_or(2);
    let found = find(rows, |_, _| {}).unwrap();
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
