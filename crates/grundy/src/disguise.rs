//! Nim in disguise: games with their own pieces and moves whose value is that of a Nim
//! position, each with its notation, its value and its moves to any value said in its own terms.
//!
//! | game | notation | the Nim heaps |
//! |------|----------|---------------|
//! | [`Staircase`] | `staircase:3,0,2` (coins on steps 1, 2, …) | the coins on the odd steps |
//! | [`Nimble`] | `nimble:1,4,4,7` (the squares of the coins) | the squares, the leftmost being 0 |
//! | [`Coins`] | `coins:..o.oo...o` (the strip, `o` a coin) | every other gap, from the right |
//! | [`Turtles`] | `turtles:THHTHT` (heads and tails) | the places of the heads, from 1 |
//! | [`Northcott`] | `northcott:8:1-6,3-4` (rows, then white-black per column) | the gaps |
//! | [`Plainim`] | `plainim:.o.o,oo..` (the rows, `o` a piece) | each row read in binary |
//!
//! The queen moving towards a corner is Wythoff's game (see [`crate::piece`]). Each game's value
//! here is its Sprague–Grundy value, except Northcott's, which is a game of two players (each
//! moves their own pieces) that could go on for ever: there the value is the Nim heap the
//! position acts as in any sum, since the player who wins by Nim answers each retreat by
//! advancing as far, and the retreating player runs out of room.

use std::fmt;

use crate::GrundyError;

/// The largest number (coins on a step, a square, a row) a position may use.
pub const MAX_NUMBER: u64 = 1 << 24;

/// The most steps, coins, squares or columns a position may have.
pub const MAX_PARTS: usize = 1 << 16;

/// A move of a game in disguise: what it does, in the game's terms, and the position it leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move<G> {
    /// The move in the game's own terms (`2 coins from step 3 to step 2`).
    pub action: String,
    /// The position after it.
    pub after: G,
}

fn bad(game: &str, text: &str, why: &str) -> GrundyError {
    GrundyError::BadPosition(format!("{game}:{text}: {why}"))
}

/// A list of whole numbers `a,b,c` (empty for none), each at most [`MAX_NUMBER`].
fn parse_numbers(game: &str, text: &str) -> Result<Vec<u64>, GrundyError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let list: Vec<&str> = text.split(',').collect();
    if list.len() > MAX_PARTS {
        return Err(bad(game, text, &format!("more than {MAX_PARTS} numbers")));
    }
    list.iter()
        .map(|t| {
            let t = t.trim();
            match t.parse::<u64>() {
                Ok(n) if n <= MAX_NUMBER && t.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
                _ => Err(bad(
                    game,
                    text,
                    &format!("{t:?} is not a whole number up to {MAX_NUMBER}"),
                )),
            }
        })
        .collect()
}

fn join(list: &[u64]) -> String {
    list.iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Staircase Nim ("Escadas"): coins on the steps of a staircase; a move takes one or more coins
/// from a step down to the step below (step 0 is the floor, where coins stay). The coins on the
/// odd steps are Nim heaps: a move from an odd step lowers a heap, and a move from an even step
/// that raises one can be undone at once by moving the same coins on.
///
/// ```
/// use zermelo_grundy::disguise::Staircase;
/// let s: Staircase = "2,1,4,5,1".parse().unwrap();
/// assert_eq!(s.value(), 2 ^ 4 ^ 1);
/// assert_eq!(s.moves_to(0)[0].action, "1 coin from step 3 to step 2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Staircase {
    /// The coins on steps 1, 2, …
    pub coins: Vec<u64>,
}

impl std::str::FromStr for Staircase {
    type Err = GrundyError;

    fn from_str(text: &str) -> Result<Self, GrundyError> {
        Ok(Staircase {
            coins: parse_numbers("staircase", text)?,
        })
    }
}

impl fmt::Display for Staircase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "staircase:{}", join(&self.coins))
    }
}

impl Staircase {
    /// The value: the nim-sum of the coins on the odd steps.
    #[must_use]
    pub fn value(&self) -> u64 {
        self.coins.iter().step_by(2).fold(0, |x, &c| x ^ c)
    }

    /// Every move that leaves a position of value `target`.
    #[must_use]
    pub fn moves_to(&self, target: u64) -> Vec<Move<Staircase>> {
        let v = self.value();
        let mut moves = Vec::new();
        for (i, &c) in self.coins.iter().enumerate() {
            let step = i + 1;
            let k = if step % 2 == 1 {
                // The heap on this step goes down to c ^ v ^ target.
                c.checked_sub(c ^ v ^ target).filter(|&k| k > 0)
            } else {
                // The heap on the odd step below goes up to d ^ v ^ target.
                let d = self.coins[i - 1];
                (d ^ v ^ target).checked_sub(d).filter(|&k| k > 0 && k <= c)
            };
            if let Some(k) = k {
                let mut after = self.clone();
                after.coins[i] -= k;
                let to = if step == 1 {
                    "the floor".to_string()
                } else {
                    after.coins[i - 1] += k;
                    format!("step {}", step - 1)
                };
                moves.push(Move {
                    action: format!("{} from step {step} to {to}", plural(k, "coin", "coins")),
                    after,
                });
            }
        }
        moves
    }
}

/// Nimble: coins on a strip of squares numbered from 0 at the left; a move takes one coin any
/// number of squares to the left, over other coins, onto a square that may hold others. Each
/// coin is a Nim heap of its square's number.
///
/// ```
/// use zermelo_grundy::disguise::Nimble;
/// let n: Nimble = "1,4,4,7".parse().unwrap();
/// assert_eq!(n.value(), 1 ^ 4 ^ 4 ^ 7);
/// assert_eq!(n.moves_to(0)[0].action, "the coin on square 4 to square 2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Nimble {
    /// The squares of the coins, in increasing order.
    pub squares: Vec<u64>,
}

impl std::str::FromStr for Nimble {
    type Err = GrundyError;

    fn from_str(text: &str) -> Result<Self, GrundyError> {
        let mut squares = parse_numbers("nimble", text)?;
        squares.sort_unstable();
        Ok(Nimble { squares })
    }
}

impl fmt::Display for Nimble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "nimble:{}", join(&self.squares))
    }
}

impl Nimble {
    /// The value: the nim-sum of the coins' squares.
    #[must_use]
    pub fn value(&self) -> u64 {
        self.squares.iter().fold(0, |x, &s| x ^ s)
    }

    /// Every move that leaves a position of value `target` (coins on one square move alike, so
    /// each square is named once).
    #[must_use]
    pub fn moves_to(&self, target: u64) -> Vec<Move<Nimble>> {
        let v = self.value();
        let mut moves = Vec::new();
        for (i, &p) in self.squares.iter().enumerate() {
            if i > 0 && self.squares[i - 1] == p {
                continue;
            }
            let q = p ^ v ^ target;
            if q < p {
                let mut after = self.clone();
                after.squares[i] = q;
                after.squares.sort_unstable();
                moves.push(Move {
                    action: format!("the coin on square {p} to square {q}"),
                    after,
                });
            }
        }
        moves
    }
}

/// The coin strip where coins may not jump ("Moedas"): at most one coin per square; a move
/// takes one coin to the left onto an empty square without passing another coin. Pair the
/// coins from the right; the empty squares between the two coins of each pair (between the
/// leftmost coin and the end of the strip, if it is alone) are Nim heaps.
///
/// Written as the strip from its left end: `o` a coin, `.` an empty square; squares are
/// numbered from 0 at the left.
///
/// ```
/// use zermelo_grundy::disguise::Coins;
/// let c: Coins = ".o..oo.o".parse().unwrap();
/// // Pairs from the right: (5, 7) with 1 square between, (1, 4) with 2.
/// assert_eq!(c.value(), 1 ^ 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Coins {
    /// Whether each square holds a coin.
    pub strip: Vec<bool>,
}

impl std::str::FromStr for Coins {
    type Err = GrundyError;

    fn from_str(text: &str) -> Result<Self, GrundyError> {
        if text.len() > MAX_PARTS {
            return Err(bad(
                "coins",
                text,
                &format!("more than {MAX_PARTS} squares"),
            ));
        }
        let strip = text
            .chars()
            .map(|c| match c {
                'o' | 'O' => Ok(true),
                '.' | '_' => Ok(false),
                _ => Err(bad(
                    "coins",
                    text,
                    &format!("{c:?} is neither a coin 'o' nor an empty square '.'"),
                )),
            })
            .collect::<Result<_, _>>()?;
        Ok(Coins { strip })
    }
}

impl fmt::Display for Coins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s: String = self
            .strip
            .iter()
            .map(|&c| if c { 'o' } else { '.' })
            .collect();
        write!(f, "coins:{s}")
    }
}

impl Coins {
    /// The squares of the coins, left to right.
    fn squares(&self) -> Vec<u64> {
        (0..self.strip.len() as u64)
            .filter(|&i| self.strip[i as usize])
            .collect()
    }

    /// The empty squares on the left of each coin (to the previous coin or the strip's end).
    fn gaps(squares: &[u64]) -> Vec<u64> {
        squares
            .iter()
            .enumerate()
            .map(|(i, &p)| if i == 0 { p } else { p - squares[i - 1] - 1 })
            .collect()
    }

    /// The value: the nim-sum of the gaps on the left of the last coin, the third from last,
    /// and so on.
    #[must_use]
    pub fn value(&self) -> u64 {
        let gaps = Coins::gaps(&self.squares());
        gaps.iter().rev().step_by(2).fold(0, |x, &g| x ^ g)
    }

    /// Every move that leaves a position of value `target`.
    #[must_use]
    pub fn moves_to(&self, target: u64) -> Vec<Move<Coins>> {
        let squares = self.squares();
        let gaps = Coins::gaps(&squares);
        let n = squares.len();
        let v = self.value();
        let mut moves = Vec::new();
        for i in 0..n {
            // Moving coin i left by k shrinks its own gap and widens the next coin's.
            let k = if (n - 1 - i) % 2 == 0 {
                gaps[i].checked_sub(gaps[i] ^ v ^ target).filter(|&k| k > 0)
            } else {
                let h = gaps[i + 1];
                (h ^ v ^ target)
                    .checked_sub(h)
                    .filter(|&k| k > 0 && k <= gaps[i])
            };
            if let Some(k) = k {
                let from = squares[i];
                let to = from - k;
                let mut after = self.clone();
                after.strip[from as usize] = false;
                after.strip[to as usize] = true;
                moves.push(Move {
                    action: format!("the coin on square {from} to square {to}"),
                    after,
                });
            }
        }
        moves
    }
}

/// Turning Turtles ("Tartarugas", H. Lenstra): a row of coins, heads or tails, at places 1, 2,
/// … from the left; a move turns a head to tails and may also turn over any one coin to its
/// left. Each head is a Nim heap of its place: turning a coin at place m < n either takes m away
/// or adds it, and m ⊕ n covers every smaller heap either way.
///
/// Written `H` (or `F`, face) for heads and `T` (or `V`, verso) for tails.
///
/// ```
/// use zermelo_grundy::disguise::Turtles;
/// let t: Turtles = "THHTHT".parse().unwrap();
/// assert_eq!(t.value(), 2 ^ 3 ^ 5);
/// assert_eq!(t.moves_to(0)[0].action, "turn the coins at places 5 and 1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Turtles {
    /// Whether the coin at each place (place 1 first) shows heads.
    pub heads: Vec<bool>,
}

impl std::str::FromStr for Turtles {
    type Err = GrundyError;

    fn from_str(text: &str) -> Result<Self, GrundyError> {
        if text.len() > MAX_PARTS {
            return Err(bad(
                "turtles",
                text,
                &format!("more than {MAX_PARTS} coins"),
            ));
        }
        let heads = text
            .chars()
            .map(|c| match c.to_ascii_uppercase() {
                'H' | 'F' => Ok(true),
                'T' | 'V' => Ok(false),
                _ => Err(bad(
                    "turtles",
                    text,
                    &format!("{c:?} is neither heads (H or F) nor tails (T or V)"),
                )),
            })
            .collect::<Result<_, _>>()?;
        Ok(Turtles { heads })
    }
}

impl fmt::Display for Turtles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s: String = self
            .heads
            .iter()
            .map(|&h| if h { 'H' } else { 'T' })
            .collect();
        write!(f, "turtles:{s}")
    }
}

impl Turtles {
    /// The value: the nim-sum of the places of the heads.
    #[must_use]
    pub fn value(&self) -> u64 {
        (1..=self.heads.len() as u64)
            .filter(|&p| self.heads[p as usize - 1])
            .fold(0, |x, p| x ^ p)
    }

    /// Every move that leaves a position of value `target`.
    #[must_use]
    pub fn moves_to(&self, target: u64) -> Vec<Move<Turtles>> {
        let v = self.value();
        let mut moves = Vec::new();
        for n in (1..=self.heads.len() as u64).rev() {
            if !self.heads[n as usize - 1] {
                continue;
            }
            let m = v ^ n ^ target;
            if m >= n {
                continue;
            }
            let mut after = self.clone();
            after.heads[n as usize - 1] = false;
            let action = if m == 0 {
                format!("turn the coin at place {n}")
            } else {
                after.heads[m as usize - 1] ^= true;
                format!("turn the coins at places {n} and {m}")
            };
            moves.push(Move { action, after });
        }
        moves
    }
}

/// Northcott's game: a board of rows 1 to R; in each column a white piece below a black one.
/// White moves a white piece, Black a black one, up or down its column any number of rows,
/// without jumping over or landing on the other piece; whoever cannot move loses. The empty
/// rows between the two pieces of each column are Nim heaps (see the module's note on why a
/// game of two players that may go on for ever still acts as Nim).
///
/// Written `northcott:R:w-b,w-b,…`, the rows of the white and the black piece of each column.
///
/// ```
/// use zermelo_grundy::disguise::Northcott;
/// let g: Northcott = "8:1-6,3-4".parse().unwrap();
/// assert_eq!(g.value(), 4 ^ 0);
/// let moves = g.moves_to(0);
/// assert_eq!(moves[0].action, "white in column 1 from row 1 to row 5");
/// assert_eq!(moves[1].action, "black in column 1 from row 6 to row 2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Northcott {
    /// The number of rows.
    pub rows: u64,
    /// The rows of the white and the black piece of each column (white below black).
    pub columns: Vec<(u64, u64)>,
}

impl std::str::FromStr for Northcott {
    type Err = GrundyError;

    fn from_str(text: &str) -> Result<Self, GrundyError> {
        let (rows, list) = text.split_once(':').ok_or_else(|| {
            bad(
                "northcott",
                text,
                "give the rows, then the columns, as in northcott:8:1-6,3-4",
            )
        })?;
        let rows = parse_numbers("northcott", rows)?;
        let [rows] = rows[..] else {
            return Err(bad("northcott", text, "give one number of rows"));
        };
        let mut columns = Vec::new();
        for column in list.split(',') {
            let (w, b) = column.split_once('-').ok_or_else(|| {
                bad(
                    "northcott",
                    text,
                    &format!("column {column:?} is not white-black, as in 1-6"),
                )
            })?;
            let w = parse_numbers("northcott", w)?;
            let b = parse_numbers("northcott", b)?;
            let ([w], [b]) = (&w[..], &b[..]) else {
                return Err(bad(
                    "northcott",
                    text,
                    &format!("column {column:?} is not white-black, as in 1-6"),
                ));
            };
            if !(1 <= *w && w < b && *b <= rows) {
                return Err(bad(
                    "northcott",
                    text,
                    &format!(
                        "in column {column:?} the white piece must be below the black one, \
                         both on rows 1 to {rows}"
                    ),
                ));
            }
            columns.push((*w, *b));
        }
        if columns.len() > MAX_PARTS {
            return Err(bad(
                "northcott",
                text,
                &format!("more than {MAX_PARTS} columns"),
            ));
        }
        Ok(Northcott { rows, columns })
    }
}

impl fmt::Display for Northcott {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cols: Vec<String> = self
            .columns
            .iter()
            .map(|(w, b)| format!("{w}-{b}"))
            .collect();
        write!(f, "northcott:{}:{}", self.rows, cols.join(","))
    }
}

impl Northcott {
    /// The value: the nim-sum of the empty rows between the pieces of each column.
    #[must_use]
    pub fn value(&self) -> u64 {
        self.columns.iter().fold(0, |x, &(w, b)| x ^ (b - w - 1))
    }

    /// Every move, White's then Black's in each column, that leaves a position of value
    /// `target`; the player to move takes those of their colour.
    #[must_use]
    pub fn moves_to(&self, target: u64) -> Vec<Move<Northcott>> {
        let v = self.value();
        let mut moves = Vec::new();
        for (i, &(w, b)) in self.columns.iter().enumerate() {
            let gap = (b - w - 1) ^ v ^ target;
            // White's piece goes to b - 1 - gap, Black's to w + 1 + gap, if on the board.
            if let Some(w2) = (b - 1).checked_sub(gap).filter(|&r| r >= 1 && r != w) {
                let mut after = self.clone();
                after.columns[i].0 = w2;
                moves.push(Move {
                    action: format!("white in column {} from row {w} to row {w2}", i + 1),
                    after,
                });
            }
            let b2 = w + 1 + gap;
            if b2 <= self.rows && b2 != b {
                let mut after = self.clone();
                after.columns[i].1 = b2;
                moves.push(Move {
                    action: format!("black in column {} from row {b} to row {b2}", i + 1),
                    after,
                });
            }
        }
        moves
    }
}

/// The most squares a Plainim row may have: a row is read as a binary number.
pub const MAX_ROW: usize = 63;

/// Plainim: pieces on the squares of a board, at most one a square; a move takes one piece
/// away and may put pieces on or take them off any squares to its right in the same row. Read
/// with a piece as 1 and an empty square as 0, each row is a number in binary, and a move makes
/// one row's number any smaller number: each row is a Nim heap of its number.
///
/// Written `plainim:` then the rows, separated by commas, each from its left end: `o` a piece,
/// `.` an empty square; columns are numbered from 1 at the left.
///
/// ```
/// use zermelo_grundy::disguise::Plainim;
/// let p: Plainim = "o.o.,.oo.".parse().unwrap();
/// assert_eq!(p.value(), 0b1010 ^ 0b0110);
/// assert_eq!(p.moves_to(0)[0].action, "row 1: take the piece in column 1, leaving .oo.");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Plainim {
    /// Whether each square of each row holds a piece, rows from the top, squares from the left.
    pub rows: Vec<Vec<bool>>,
}

impl std::str::FromStr for Plainim {
    type Err = GrundyError;

    fn from_str(text: &str) -> Result<Self, GrundyError> {
        let rows: Vec<Vec<bool>> = text
            .split(',')
            .map(|row| {
                if row.len() > MAX_ROW {
                    return Err(bad(
                        "plainim",
                        text,
                        &format!("a row has more than {MAX_ROW} squares"),
                    ));
                }
                row.chars()
                    .map(|c| match c {
                        'o' | 'O' => Ok(true),
                        '.' | '_' => Ok(false),
                        _ => Err(bad(
                            "plainim",
                            text,
                            &format!("{c:?} is neither a piece 'o' nor an empty square '.'"),
                        )),
                    })
                    .collect()
            })
            .collect::<Result<_, _>>()?;
        if rows.len() > MAX_PARTS {
            return Err(bad("plainim", text, &format!("more than {MAX_PARTS} rows")));
        }
        Ok(Plainim { rows })
    }
}

impl fmt::Display for Plainim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = self.rows.iter().map(|r| row_text(r)).collect();
        write!(f, "plainim:{}", rows.join(","))
    }
}

fn row_text(row: &[bool]) -> String {
    row.iter().map(|&p| if p { 'o' } else { '.' }).collect()
}

/// A row read in binary, its left end the highest digit.
fn row_number(row: &[bool]) -> u64 {
    row.iter().fold(0, |x, &p| x << 1 | u64::from(p))
}

impl Plainim {
    /// The value: the nim-sum of the rows read in binary.
    #[must_use]
    pub fn value(&self) -> u64 {
        self.rows.iter().fold(0, |x, r| x ^ row_number(r))
    }

    /// Every move that leaves a position of value `target`.
    #[must_use]
    pub fn moves_to(&self, target: u64) -> Vec<Move<Plainim>> {
        let v = self.value();
        let mut moves = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            let x = row_number(row);
            let y = x ^ v ^ target;
            if y >= x {
                continue;
            }
            let width = row.len();
            // The piece taken is on the highest digit where x has 1 and y has 0.
            let digit = 63 - (x ^ y).leading_zeros() as usize;
            let column = width - digit;
            let mut after = self.clone();
            after.rows[i] = (0..width).map(|c| y >> (width - 1 - c) & 1 == 1).collect();
            moves.push(Move {
                action: format!(
                    "row {}: take the piece in column {column}, leaving {}",
                    i + 1,
                    row_text(&after.rows[i])
                ),
                after,
            });
        }
        moves
    }
}
