//! [`Sgf`]: Hex positions from SGF files as HexGui writes them (`FF[4]`, `GM[11]`).
//!
//! A file holds a tree of nodes; the position is the one at the end of its main line (the first
//! variation at every branch). The properties read are:
//!
//! - `GM` the game, which must be 11 (Hex) when present; `SZ` the board size, `n` or `n:n`;
//! - setup stones `AB`, `AW` (and `AE` to empty cells), each with one or more cell values:
//!   `AB[a1][b2]`;
//! - moves `B[c3]`, `W[d2]`, which place a stone and give the turn to the other player, and
//!   `resign`, which places none and leaves the resigning player to move;
//! - `PL[B]` or `PL[W]`, the player to move.
//!
//! Cells are written as in the rest of zermelo (`c3`: column letter, row number). Every other
//! property (`AP`, `C`, player names, times, ...) is read past and ignored. HexGui's
//! `swap-pieces` move is refused with an error: give the position after the swap as setup
//! stones.

use crate::{Bitboard, Cell, HexError, Player, Position, MAX_SIZE};

/// The position at the end of an SGF file's main line: its size, stones and, when the file says
/// it (by `PL` or by its last move), the side to move.
///
/// ```
/// use zermelo_hex::{Player, Sgf};
/// let sgf = Sgf::parse("(;FF[4]GM[11]SZ[3];AB[a2][b3]AW[a1]PL[W])").unwrap();
/// assert_eq!((sgf.size, sgf.to_move), (3, Some(Player::White)));
/// let p = sgf.position(None).unwrap();
/// assert_eq!((p.black().count(), p.white().count(), p.to_move()), (2, 1, Player::White));
/// assert!(Sgf::parse("(;GM[11]SZ[3];B[d4])").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sgf {
    /// The board size n (an n x n board).
    pub size: usize,
    /// Black's stones.
    pub black: Bitboard,
    /// White's stones.
    pub white: Bitboard,
    /// The player to move, from the last `PL` or move of the main line (whichever comes later);
    /// `None` when the file has neither.
    pub to_move: Option<Player>,
}

impl Sgf {
    /// Reads the position at the end of the main line of an SGF file's first game tree.
    pub fn parse(text: &str) -> Result<Sgf, HexError> {
        Sgf::parse_until(text, None)
    }

    /// Reads the position of the main line after its first `moves` moves (`B`, `W`), or at its
    /// end if it has no more or `moves` is `None`: the setup stones and `PL` met before the
    /// next move count, the rest of the file is only checked for syntax.
    ///
    /// ```
    /// use zermelo_hex::{Player, Sgf};
    /// let text = "(;GM[11]SZ[3];B[b2];W[a1];B[c1])";
    /// let sgf = Sgf::parse_until(text, Some(1)).unwrap();
    /// assert_eq!((sgf.black.count(), sgf.white.count()), (1, 0));
    /// assert_eq!(sgf.to_move, Some(Player::White));
    /// ```
    pub fn parse_until(text: &str, moves: Option<usize>) -> Result<Sgf, HexError> {
        let nodes = main_line(text)?;
        let mut played = 0;
        let mut size = None;
        let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
        let mut to_move = None;
        let mut resigned = false;
        'nodes: for node in &nodes {
            for prop in &node.props {
                let line = prop.line;
                let bad = |msg: String| HexError::BadSgf(format!("line {line}: {msg}"));
                let single = || match prop.values.as_slice() {
                    [v] => Ok(v.trim()),
                    _ => Err(bad(format!("{} takes one value", prop.ident))),
                };
                match prop.ident.as_str() {
                    "GM" => {
                        let game = single()?;
                        if game != "11" {
                            return Err(bad(format!("GM[{game}] is not Hex (GM[11])")));
                        }
                    }
                    "SZ" => {
                        if size.is_some() || !black.is_empty() || !white.is_empty() {
                            return Err(bad("SZ must come once, before any stone".into()));
                        }
                        size = Some(parse_size(single()?).map_err(bad)?);
                    }
                    "AB" | "AW" | "AE" | "B" | "W" => {
                        if resigned {
                            return Err(bad(format!("{} after a resignation", prop.ident)));
                        }
                        let n =
                            size.ok_or_else(|| bad("a stone before the board size SZ".into()))?;
                        let cell = |v: &str| {
                            Cell::parse(v.trim(), n)
                                .map(|c| c.index(n))
                                .map_err(|e| bad(format!("{}[{v}]: {e}", prop.ident)))
                        };
                        match prop.ident.as_str() {
                            "AB" | "AW" | "AE" => {
                                // Setup stones replace whatever stood on their cells, as SGF
                                // setup properties do.
                                for v in &prop.values {
                                    let i = cell(v)?;
                                    black = black.minus(Bitboard::single(i));
                                    white = white.minus(Bitboard::single(i));
                                    match prop.ident.as_str() {
                                        "AB" => black = black.with(i),
                                        "AW" => white = white.with(i),
                                        _ => {}
                                    }
                                }
                            }
                            _ => {
                                if moves.is_some_and(|m| played >= m) {
                                    break 'nodes;
                                }
                                played += 1;
                                let mover = if prop.ident == "B" {
                                    Player::Black
                                } else {
                                    Player::White
                                };
                                let v = single()?;
                                match v.to_ascii_lowercase().as_str() {
                                    "swap-pieces" | "swap" => {
                                        return Err(bad(format!(
                                            "{}[{v}]: the swap move is not supported; give the \
                                             position after the swap as setup stones (AB/AW)",
                                            prop.ident
                                        )))
                                    }
                                    "resign" => {
                                        resigned = true;
                                        to_move = Some(mover);
                                        continue;
                                    }
                                    _ => {}
                                }
                                let i = cell(v)?;
                                if (black | white).has(i) {
                                    return Err(bad(format!(
                                        "{}[{v}]: the cell is already occupied",
                                        prop.ident
                                    )));
                                }
                                match mover {
                                    Player::Black => black = black.with(i),
                                    Player::White => white = white.with(i),
                                }
                                to_move = Some(mover.opponent());
                            }
                        }
                    }
                    "PL" => {
                        let v = single()?;
                        to_move = Some(match v.to_ascii_uppercase().as_str() {
                            "B" | "BLACK" => Player::Black,
                            "W" | "WHITE" => Player::White,
                            _ => return Err(bad(format!("PL[{v}]: the player is B or W"))),
                        });
                    }
                    _ => {}
                }
            }
        }
        let size = size.ok_or_else(|| HexError::BadSgf("no board size (SZ)".into()))?;
        Ok(Sgf {
            size,
            black,
            white,
            to_move,
        })
    }

    /// The position, with `to_move` to move if given, else the file's side to move, else the
    /// side that the stone counts give in a game from the empty board (an error if the counts
    /// are not those of such a game).
    ///
    /// ```
    /// use zermelo_hex::{Player, Sgf};
    /// let sgf = Sgf::parse("(;GM[11]SZ[4];AB[b2][c3])").unwrap();
    /// assert!(sgf.position(None).is_err());
    /// assert_eq!(sgf.position(Some(Player::White)).unwrap().to_move(), Player::White);
    /// ```
    pub fn position(&self, to_move: Option<Player>) -> Result<Position, HexError> {
        match to_move.or(self.to_move) {
            Some(p) => Position::from_setup(self.size, self.black, self.white, p),
            None => Position::from_stones(self.size, self.black, self.white),
        }
    }
}

/// A board size value: `n` or `n:n`.
fn parse_size(v: &str) -> Result<usize, String> {
    let (cols, rows) = v.split_once(':').unwrap_or((v, v));
    let parse = |t: &str| t.trim().parse::<usize>().ok();
    match (parse(cols), parse(rows)) {
        (Some(c), Some(r)) if c != r => Err(format!("SZ[{v}]: only square boards are supported")),
        (Some(n), Some(_)) if (1..=MAX_SIZE).contains(&n) => Ok(n),
        (Some(n), Some(_)) => Err(format!(
            "SZ[{v}]: board size {n} is out of range (zermelo handles 1 to {MAX_SIZE})"
        )),
        _ => Err(format!("SZ[{v}] is not a board size")),
    }
}

/// One property: its identifier, its values (escapes removed) and the line it starts on.
struct Prop {
    ident: String,
    values: Vec<String>,
    line: usize,
}

struct Node {
    props: Vec<Prop>,
}

/// The nodes of the main line of the first game tree, after checking the whole tree's syntax.
///
/// The main line takes the first variation at every branch, so it is exactly the nodes read
/// before the first `)`: every `(` before it opens a first variation. The scan is iterative, so
/// deeply nested variations cannot exhaust the stack.
fn main_line(text: &str) -> Result<Vec<Node>, HexError> {
    let mut chars = text.char_indices().peekable();
    let mut line = 1;
    let err = |line: usize, msg: &str| Err(HexError::BadSgf(format!("line {line}: {msg}")));
    let (mut depth, mut on_main) = (0usize, true);
    let mut nodes: Vec<Node> = Vec::new();
    // Whether the current game tree has had a node yet (a sequence needs one).
    let mut tree_has_node = false;
    loop {
        let Some((_, c)) = chars.next() else {
            return if depth == 0 {
                err(line, "no game tree: an SGF file starts with '(;'")
            } else {
                err(line, "the file ends inside a game tree (a ')' is missing)")
            };
        };
        match c {
            '\n' => line += 1,
            c if c.is_whitespace() => {}
            '(' => {
                if depth > 0 && !tree_has_node {
                    return err(
                        line,
                        "a variation before any node ('(' must be followed by ';')",
                    );
                }
                depth += 1;
                tree_has_node = false;
            }
            _ if depth == 0 => return err(line, &format!("expected '(' but found '{c}'")),
            ')' => {
                if !tree_has_node {
                    return err(line, "an empty game tree: '(' must be followed by ';'");
                }
                on_main = false;
                depth -= 1;
                if depth == 0 {
                    // Anything after the first game tree (more games) is not read.
                    return Ok(nodes);
                }
            }
            ';' => {
                tree_has_node = true;
                if on_main {
                    nodes.push(Node { props: Vec::new() });
                }
            }
            c if c.is_ascii_uppercase() => {
                if !tree_has_node {
                    return err(line, "a property before the first ';'");
                }
                let start_line = line;
                let mut ident = String::from(c);
                while let Some(&(_, c)) = chars.peek() {
                    if !c.is_ascii_uppercase() {
                        break;
                    }
                    ident.push(c);
                    chars.next();
                }
                let mut values = Vec::new();
                loop {
                    while let Some(&(_, c)) = chars.peek() {
                        if !c.is_whitespace() {
                            break;
                        }
                        line += usize::from(c == '\n');
                        chars.next();
                    }
                    if chars.peek().map(|&(_, c)| c) != Some('[') {
                        break;
                    }
                    chars.next();
                    let mut value = String::new();
                    loop {
                        match chars.next() {
                            None => {
                                return err(
                                    start_line,
                                    &format!("the value of {ident} is not closed by ']'"),
                                )
                            }
                            Some((_, ']')) => break,
                            Some((_, '\\')) => match chars.next() {
                                Some((_, c)) => {
                                    line += usize::from(c == '\n');
                                    value.push(c);
                                }
                                None => {
                                    return err(
                                        start_line,
                                        &format!("the value of {ident} is not closed by ']'"),
                                    )
                                }
                            },
                            Some((_, c)) => {
                                line += usize::from(c == '\n');
                                value.push(c);
                            }
                        }
                    }
                    values.push(value);
                }
                if values.is_empty() {
                    return err(
                        start_line,
                        &format!("property {ident} has no value ([...])"),
                    );
                }
                if on_main {
                    let node = nodes.last_mut().expect("a node was opened above");
                    node.props.push(Prop {
                        ident,
                        values,
                        line: start_line,
                    });
                }
            }
            c => return err(line, &format!("unexpected character '{c}'")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        match Sgf::parse(text).and_then(|s| s.position(None)) {
            Err(e) => e.to_string(),
            Ok(p) => panic!("accepted {text:?} as\n{p}"),
        }
    }

    #[test]
    fn hexgui_files_are_read() {
        // Setup stones with several values, and the player to move.
        let s =
            Sgf::parse("(;AP[HexGui:1.0.]FF[4]GM[11]SZ[7];AB[d2][d3][d4]AW[c2][f2]PL[W])").unwrap();
        assert_eq!((s.size, s.to_move), (7, Some(Player::White)));
        let p = s.position(None).unwrap();
        assert_eq!((p.black().count(), p.white().count()), (3, 2));
        assert!(p.black().has(Cell::parse("d4", 7).unwrap().index(7)));
        // A game starting with White, across lines: the turn follows the last move.
        let s = Sgf::parse("(;FF[4]GM[11]SZ[5];W[a1];B[b2];W[d2]\n;B[e2];W[d3])").unwrap();
        assert_eq!(s.to_move, Some(Player::Black));
        let p = s.position(None).unwrap();
        assert_eq!((p.black().count(), p.white().count()), (2, 3));
        // An override of the side to move.
        assert_eq!(
            s.position(Some(Player::White)).unwrap().to_move(),
            Player::White
        );
        // No side given: the counts decide.
        let s = Sgf::parse("(;GM[11]SZ[3]AB[b2])").unwrap();
        assert_eq!(s.position(None).unwrap().to_move(), Player::White);
    }

    #[test]
    fn the_main_line_is_followed_and_other_properties_ignored() {
        let text = "(;FF[4]GM[11]SZ[4]C[a comment with \\] and [brackets\\]]\n\
                    ;B[b2](;W[c3];B[a1])(;W[a4]C[second variation]))(;GM[11]SZ[3])";
        let s = Sgf::parse(text).unwrap();
        assert_eq!(s.size, 4);
        assert_eq!((s.black.count(), s.white.count()), (2, 1));
        assert!(s.white.has(Cell::parse("c3", 4).unwrap().index(4)));
        assert_eq!(s.to_move, Some(Player::White));
        // A resignation leaves the resigning player to move.
        let s = Sgf::parse("(;GM[11]SZ[3];B[b2];W[resign])").unwrap();
        assert_eq!((s.to_move, s.black.count()), (Some(Player::White), 1));
    }

    #[test]
    fn malformed_files_get_one_clear_error() {
        let cases: &[(&str, &str)] = &[
            ("", "no game tree"),
            ("   \n ", "no game tree"),
            ("hello", "expected '('"),
            ("(;GM[11]SZ[3]", "')' is missing"),
            ("(;GM[11]SZ[3];B[a1]", "')' is missing"),
            ("(;GM[11]SZ[3]AB[a1)", "not closed"),
            ("(;GM[11]SZ[3]AB[a1\\", "not closed"),
            ("(;GM[11]SZ[3]AB)", "has no value"),
            ("()", "empty game tree"),
            ("(GM[11])", "before the first ';'"),
            ("((;GM[11]))", "variation before any node"),
            ("(;GM[11]SZ[3]ab[a1])", "unexpected character 'a'"),
            ("(;GM[11]SZ[3]{)", "unexpected character '{'"),
            ("(;GM[1]SZ[3])", "GM[1] is not Hex"),
            ("(;GM[11])", "no board size"),
            ("(;GM[11]SZ[x])", "not a board size"),
            ("(;GM[11]SZ[12])", "out of range"),
            ("(;GM[11]SZ[0])", "out of range"),
            ("(;GM[11]SZ[4:5])", "only square boards"),
            ("(;GM[11]SZ[3]SZ[3])", "SZ must come once"),
            ("(;GM[11]AB[a1]SZ[3])", "before the board size"),
            ("(;GM[11]SZ[3];B[d1])", "'d1' is not a cell"),
            ("(;GM[11]SZ[3];B[a1][b1])", "B takes one value"),
            ("(;GM[11]SZ[3];B[])", "'' is not a cell"),
            ("(;GM[11]SZ[3];B[b2];W[b2])", "already occupied"),
            (
                "(;GM[11]SZ[11];B[f2];W[swap-pieces];W[e7])",
                "swap move is not supported",
            ),
            ("(;GM[11]SZ[3];B[resign];W[a1])", "after a resignation"),
            ("(;GM[11]SZ[3]PL[X])", "PL[X]"),
            ("(;GM[11]SZ[3]AB[a1][b1])", "Black has 2 stones and White 0"),
        ];
        for (text, expected) in cases {
            let e = error(text);
            assert!(e.contains(expected), "{text:?}: '{e}' lacks '{expected}'");
            assert!(!e.contains('\n'), "{text:?}: '{e}' is not one line");
        }
        // The line of the fault is named.
        assert!(error("(;GM[11]SZ[3]\n;B[a1]\n;W[a1])").contains("line 3"));
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        // Fragments of valid files shuffled by a fixed generator: every outcome is a value or
        // an error.
        let pieces = [
            "(",
            ")",
            ";",
            "GM[11]",
            "SZ[3]",
            "SZ[",
            "AB[a1]",
            "[b2]",
            "W[c3]",
            "B[",
            "]",
            "\\",
            "PL[W]",
            "B[resign]",
            "\n",
            "x",
            "AE[a1]",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..(state % 12) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push_str(pieces[(state % pieces.len() as u64) as usize]);
            }
            state = state.wrapping_add(1);
            let _ = Sgf::parse(&text).and_then(|s| s.position(None));
        }
        // Deep nesting is scanned without recursion.
        let deep = format!("{}{}", "(;".repeat(100_000), ")".repeat(100_000));
        assert!(Sgf::parse(&deep).is_err());
    }
}
