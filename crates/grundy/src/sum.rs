//! Sums of games: the Grundy value of a sum is the XOR (nim-sum) of its parts' values, and a
//! winning move changes one part to the value that makes the nim-sum 0.
//!
//! Components are written as text: `7` (a Nim heap), `0.77:10` (an octal game's heap),
//! `S(1,3,4):12` or `allbut(2):9` (subtraction games), `wythoff(3,5)`, `knight(2,5,8)`,
//! `rook(3,4)` (a piece at a cell; a third number gives the side of the board, which matters
//! for the knight, whose moves may raise a coordinate: without it the board is the smallest
//! that holds the cell, and the component is printed with it), and the games of Nim in
//! disguise in their own notation:
//! `hackenbush:0-1,1-2,2-0` (a Green Hackenbush drawing), `staircase:3,0,2`, `nimble:1,4,7`,
//! `coins:.o..oo.o`, `turtles:THHTHT`, `northcott:8:1-6,3-4`, `plainim:.o.o,oo..` (see
//! [`crate::disguise`]) and
//! `queen:3,5` (Wythoff's queen). Their winning moves are said in the game's own terms.

use std::fmt;
use std::str::FromStr;

use crate::disguise::{Coins, Nimble, Northcott, Plainim, Staircase, Turtles};
use crate::hackenbush::Drawing;
use crate::misere::MisereSearch;
use crate::multiheap::{moore_misere_p, moore_p};
use crate::piece::PieceGame;
use crate::subtraction::SubtractionGame;
use crate::{naive, GrundyError, OctalGame, SparseEngine};

/// The largest heap or board coordinate a component may have in an analysis.
pub const MAX_COMPONENT: usize = 1 << 24;

/// How many options a Moore's Nim_k analysis may enumerate.
pub const MAX_OPTIONS: u128 = 10_000_000;

/// One part of a sum.
///
/// ```
/// use zermelo_grundy::sum::Component;
/// let c: Component = "0.77:10".parse().unwrap();
/// assert_eq!(c.to_string(), "0.77:10");
/// assert!("S(1,0):3".parse::<Component>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Component {
    /// A Nim heap.
    Nim(usize),
    /// A heap of an octal game.
    Octal {
        /// The game.
        game: OctalGame,
        /// The heap size.
        heap: usize,
    },
    /// A heap of a subtraction game.
    Subtraction {
        /// The game.
        game: SubtractionGame,
        /// The heap size.
        heap: usize,
    },
    /// A piece on a board.
    Piece {
        /// The game.
        game: PieceGame,
        /// Column.
        x: usize,
        /// Row.
        y: usize,
        /// The side of the board (the piece moves towards its corner (0, 0)).
        board: usize,
    },
    /// A Green Hackenbush drawing: `hackenbush:0-1,1-2,2-0`.
    Hackenbush(Drawing),
    /// Staircase Nim: `staircase:3,0,2`, the coins on steps 1, 2, …
    Staircase(Staircase),
    /// Nimble: `nimble:1,4,7`, the squares of the coins.
    Nimble(Nimble),
    /// The coin strip where coins may not jump: `coins:.o..oo.o`.
    Coins(Coins),
    /// Turning Turtles: `turtles:THHTHT`.
    Turtles(Turtles),
    /// Northcott's game: `northcott:8:1-6,3-4`.
    Northcott(Northcott),
    /// Plainim: `plainim:.o.o,oo..`, the rows of the board.
    Plainim(Plainim),
    /// Wythoff's queen moving north, west or north-west towards (0, 0): `queen:3,5`.
    Queen {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
}

/// The names of the games written `name:position`.
const DISGUISES: [&str; 8] = [
    "hackenbush",
    "staircase",
    "nimble",
    "coins",
    "turtles",
    "northcott",
    "plainim",
    "queen",
];

/// A move that wins: it leaves a position whose value is 0 (or, in misère play, a misère
/// P-position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WinningMove {
    /// Which component (0-based) the move is made in.
    pub component: usize,
    /// The component after the move, as text (`3+6` when a heap is split); for Moore's Nim_k
    /// and misère Nim, the heaps of the whole position after the move (`3 5 6`).
    pub to: String,
}

/// What the analysis of a position found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The value of each component (None where play is not by Grundy values, e.g. Moore's Nim
    /// with k > 1).
    pub component_values: Vec<Option<u16>>,
    /// The value of the whole position: the nim-sum in normal play, the misère value of a
    /// single game; None where there is no such value (misère sums, Moore's Nim_k).
    pub value: Option<u16>,
    /// Whether the player to move loses.
    pub p_position: bool,
    /// Every winning move (empty for a P-position).
    pub winning_moves: Vec<WinningMove>,
}

fn parse_size(text: &str, what: &str) -> Result<usize, GrundyError> {
    let bad = || {
        GrundyError::Unsupported(format!(
            "{text:?} is not a valid {what} (a whole number up to {MAX_COMPONENT})"
        ))
    };
    let n: usize = text.trim().parse().map_err(|_| bad())?;
    if n > MAX_COMPONENT {
        return Err(bad());
    }
    Ok(n)
}

impl FromStr for Component {
    type Err = GrundyError;

    fn from_str(text: &str) -> Result<Self, GrundyError> {
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        if let Some((name, position)) = text.split_once(':') {
            let name = name.to_ascii_lowercase();
            if DISGUISES.contains(&name.as_str()) {
                return parse_disguise(&name, position);
            }
        }
        if let Some((name, rest)) = lower.split_once('(') {
            let (inner, tail) = rest
                .split_once(')')
                .ok_or_else(|| GrundyError::Unsupported(format!("{text:?}: missing ')'")))?;
            match name {
                "s" | "sub" | "allbut" | "all-but" => {
                    let heap = tail.strip_prefix(':').ok_or_else(|| {
                        GrundyError::Unsupported(format!(
                            "{text:?}: give the heap after a colon, as in S(1,3,4):12"
                        ))
                    })?;
                    let all_but = name.starts_with("all");
                    Ok(Component::Subtraction {
                        game: SubtractionGame::parse(inner, all_but)?,
                        heap: parse_size(heap, "heap size")?,
                    })
                }
                "wythoff" | "knight" | "rook" => {
                    if !tail.is_empty() {
                        return Err(GrundyError::Unsupported(format!(
                            "{text:?}: nothing may follow the cell"
                        )));
                    }
                    let numbers: Vec<&str> = inner.split(',').collect();
                    let (x, y, board) = match numbers[..] {
                        [x, y] => (x, y, None),
                        [x, y, board] => (x, y, Some(board)),
                        _ => {
                            return Err(GrundyError::Unsupported(format!(
                                "{text:?}: expected a cell x,y or a cell and a board side x,y,N"
                            )))
                        }
                    };
                    let game = match name {
                        "wythoff" => PieceGame::wythoff(),
                        "knight" => PieceGame::knight(),
                        _ => PieceGame::rook(),
                    };
                    let (x, y) = (parse_size(x, "column")?, parse_size(y, "row")?);
                    let smallest = x.max(y) + 1;
                    let board = match board {
                        Some(side) => parse_size(side, "board side")?,
                        None => smallest,
                    };
                    if board < smallest {
                        return Err(GrundyError::Unsupported(format!(
                            "{text:?}: cell ({x},{y}) is off a {board}x{board} board"
                        )));
                    }
                    Ok(Component::Piece { game, x, y, board })
                }
                _ => Err(GrundyError::Unsupported(format!(
                    "{text:?}: unknown game {name:?} (known: S, allbut, wythoff, knight, rook)"
                ))),
            }
        } else if let Some((code, heap)) = text.split_once(':') {
            Ok(Component::Octal {
                game: code.parse()?,
                heap: parse_size(heap, "heap size")?,
            })
        } else {
            Ok(Component::Nim(parse_size(text, "Nim heap")?))
        }
    }
}

/// A game of Nim in disguise in its notation (`position` is what follows `name:`).
fn parse_disguise(name: &str, position: &str) -> Result<Component, GrundyError> {
    Ok(match name {
        "hackenbush" => Component::Hackenbush(Drawing::parse(
            position.split(',').filter(|t| !t.trim().is_empty()),
        )?),
        "staircase" => Component::Staircase(position.parse()?),
        "nimble" => Component::Nimble(position.parse()?),
        "coins" => Component::Coins(position.parse()?),
        "turtles" => Component::Turtles(position.parse()?),
        "northcott" => Component::Northcott(position.parse()?),
        "plainim" => Component::Plainim(position.parse()?),
        _ => {
            let (x, y) = position.split_once(',').ok_or_else(|| {
                GrundyError::BadPosition(format!("queen:{position}: expected a cell x,y"))
            })?;
            Component::Queen {
                x: parse_size(x, "column")?,
                y: parse_size(y, "row")?,
            }
        }
    })
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Component::Nim(n) => write!(f, "{n}"),
            Component::Octal { game, heap } => write!(f, "{game}:{heap}"),
            Component::Subtraction { game, heap } => write!(f, "{game}:{heap}"),
            Component::Piece { game, x, y, board } => f.write_str(&piece_at(game, *x, *y, *board)),
            Component::Hackenbush(d) => {
                let edges: Vec<String> = (0..d.edge_count()).map(|i| d.edge_name(i)).collect();
                write!(f, "hackenbush:{}", edges.join(","))
            }
            Component::Staircase(g) => write!(f, "{g}"),
            Component::Nimble(g) => write!(f, "{g}"),
            Component::Coins(g) => write!(f, "{g}"),
            Component::Turtles(g) => write!(f, "{g}"),
            Component::Northcott(g) => write!(f, "{g}"),
            Component::Plainim(g) => write!(f, "{g}"),
            Component::Queen { x, y } => write!(f, "queen:{x},{y}"),
        }
    }
}

/// A piece at a cell as components are written, with its board where the value depends on it.
fn piece_at(game: &PieceGame, x: usize, y: usize, board: usize) -> String {
    if game.board_matters() {
        format!("{game}({x},{y},{board})")
    } else {
        format!("{game}({x},{y})")
    }
}

/// The values of an octal game up to `max`, by the fastest engine that applies.
fn octal_values(game: &OctalGame, max: usize) -> Result<Vec<u16>, GrundyError> {
    match SparseEngine::new(game) {
        Ok(mut engine) => {
            engine.extend_to(max)?;
            Ok(engine.into_values())
        }
        Err(_) => naive::values(game, max),
    }
}

/// How a component's winning moves are found once the value they must reach is known.
enum Options {
    /// Every option as (text, value), to be filtered.
    Listed(Vec<(String, u16)>),
    /// Asked of the game for the value wanted ([`Component::moves_to`]).
    ByValue,
}

/// A value of a game in disguise as a table value, or the error that it does not fit.
fn small(value: u64, at: &Component) -> Result<u16, GrundyError> {
    u16::try_from(value).map_err(|_| GrundyError::ValueOverflow { at: at.to_string() })
}

impl Component {
    /// The component's Grundy value, and how to find its moves.
    fn solve(&self) -> Result<(u16, Options), GrundyError> {
        let value = match self {
            Component::Hackenbush(d) => d.value(),
            Component::Staircase(g) => g.value(),
            Component::Nimble(g) => g.value(),
            Component::Coins(g) => g.value(),
            Component::Turtles(g) => g.value(),
            Component::Northcott(g) => g.value(),
            Component::Plainim(g) => g.value(),
            _ => {
                let (value, options) = self.options()?;
                return Ok((value, Options::Listed(options)));
            }
        };
        Ok((small(value, self)?, Options::ByValue))
    }

    /// The moves of a game in disguise that leave it worth `target`, in the game's terms.
    fn moves_to(&self, target: u16) -> Result<Vec<String>, GrundyError> {
        let t = u64::from(target);
        fn said<G: fmt::Display>(moves: Vec<crate::disguise::Move<G>>) -> Vec<String> {
            moves
                .into_iter()
                .map(|m| format!("{} ({})", m.after, m.action))
                .collect()
        }
        Ok(match self {
            Component::Hackenbush(d) => {
                let analysis = d.analyse();
                let edges = analysis.erasing_to(t).ok_or_else(|| {
                    GrundyError::Unsupported(format!(
                        "the moves of this {}-edge drawing need {} steps of work, more than \
                         the {} allowed",
                        d.edge_count(),
                        analysis.erasure_work(),
                        crate::hackenbush::DEFAULT_MOVE_BUDGET
                    ))
                })?;
                edges
                    .into_iter()
                    .map(|e| format!("erase {}", d.edge_name(e)))
                    .collect()
            }
            Component::Staircase(g) => said(g.moves_to(t)),
            Component::Nimble(g) => said(g.moves_to(t)),
            Component::Coins(g) => said(g.moves_to(t)),
            Component::Turtles(g) => said(g.moves_to(t)),
            Component::Northcott(g) => said(g.moves_to(t)),
            Component::Plainim(g) => said(g.moves_to(t)),
            // The other components list their options ([`Options::Listed`]).
            _ => Vec::new(),
        })
    }

    /// The component's Grundy value, and each option as (text, value).
    fn options(&self) -> Result<(u16, Vec<(String, u16)>), GrundyError> {
        Ok(match self {
            Component::Nim(n) => {
                let value = u16::try_from(*n).map_err(|_| GrundyError::ValueOverflow {
                    at: format!("Nim heap {n}"),
                })?;
                (value, (0..value).map(|m| (m.to_string(), m)).collect())
            }
            Component::Octal { game, heap } => {
                let g = octal_values(game, *heap)?;
                let options = game
                    .moves(*heap)
                    .into_iter()
                    .map(|mv| {
                        let value = mv.heaps.iter().fold(0, |x, &h| x ^ g[h]);
                        let parts: Vec<String> = mv.heaps.iter().map(|h| h.to_string()).collect();
                        let left = if parts.is_empty() {
                            "0".to_string()
                        } else {
                            parts.join("+")
                        };
                        (format!("{game}:{left} (take {})", mv.removed), value)
                    })
                    .collect();
                (g[*heap], options)
            }
            Component::Subtraction { game, heap } => {
                let g = game.values(*heap)?;
                let options = game
                    .moves(*heap)
                    .into_iter()
                    .map(|m| (format!("{game}:{m} (take {})", heap - m), g[m]))
                    .collect();
                (g[*heap], options)
            }
            Component::Piece { game, x, y, board } => {
                let table = game.solve(*board)?;
                let options = game
                    .targets(*x, *y, *board)
                    .into_iter()
                    .map(|(tx, ty)| (piece_at(game, tx, ty, *board), table.value(tx, ty)))
                    .collect();
                (table.value(*x, *y), options)
            }
            Component::Queen { x, y } => {
                let game = PieceGame::wythoff();
                let size = x.max(y) + 1;
                let table = game.solve(size)?;
                let options = game
                    .targets(*x, *y, size)
                    .into_iter()
                    .map(|(tx, ty)| {
                        (
                            format!("queen:{tx},{ty} (the queen from ({x},{y}) to ({tx},{ty}))"),
                            table.value(tx, ty),
                        )
                    })
                    .collect();
                (table.value(*x, *y), options)
            }
            // The games in disguise are asked for their moves by value instead
            // ([`Options::ByValue`]); listing every option of a staircase could take millions.
            other => {
                let (value, _) = other.solve()?;
                (value, Vec::new())
            }
        })
    }
}

/// Analyses a sum in normal play: nim-sum, P or N, and every winning move.
///
/// ```
/// use zermelo_grundy::sum::{analyse, Component};
/// let parts: Vec<Component> = ["3", "6", "8"].iter().map(|s| s.parse().unwrap()).collect();
/// let a = analyse(&parts).unwrap();
/// assert_eq!(a.value, Some(3 ^ 6 ^ 8));
/// assert!(!a.p_position);
/// assert_eq!(a.winning_moves.len(), 1);
/// assert_eq!(a.winning_moves[0].to, "5");
/// ```
pub fn analyse(components: &[Component]) -> Result<Analysis, GrundyError> {
    let mut values = Vec::new();
    let mut options = Vec::new();
    for c in components {
        let (v, o) = c.solve()?;
        values.push(v);
        options.push(o);
    }
    let total = values.iter().fold(0, |x, &v| x ^ v);
    let mut winning_moves = Vec::new();
    if total != 0 {
        for (i, opts) in options.iter().enumerate() {
            let target = values[i] ^ total;
            let moves = match opts {
                Options::Listed(list) => list
                    .iter()
                    .filter(|(_, v)| *v == target)
                    .map(|(to, _)| to.clone())
                    .collect(),
                Options::ByValue => components[i].moves_to(target)?,
            };
            winning_moves.extend(moves.into_iter().map(|to| WinningMove { component: i, to }));
        }
    }
    Ok(Analysis {
        component_values: values.into_iter().map(Some).collect(),
        value: Some(total),
        p_position: total == 0,
        winning_moves,
    })
}

/// Analyses a position in misère play (whoever makes the last move loses). Supported: Nim
/// heaps only (by the misère Nim rule), a single subtraction-game heap (by its misère table), or
/// heaps of one octal game (by a search over whole positions, for small heaps, remembering at
/// most `positions` of them: [`GrundyError::PositionLimit`] beyond).
///
/// ```
/// use zermelo_grundy::misere::DEFAULT_LIMIT;
/// use zermelo_grundy::sum::{analyse_misere, Component};
/// let sticks: Component = "S(1,2,3,4):29".parse().unwrap();
/// let a = analyse_misere(&[sticks], DEFAULT_LIMIT).unwrap();
/// assert!(!a.p_position);
/// assert_eq!(a.winning_moves[0].to, "S(1,2,3,4):26 (take 3)");
/// ```
pub fn analyse_misere(components: &[Component], positions: usize) -> Result<Analysis, GrundyError> {
    if let [Component::Subtraction { game, heap }] = components {
        let g = game.misere_values(*heap)?;
        let p = g[*heap] == 0;
        let winning_moves = if p {
            Vec::new()
        } else {
            game.moves(*heap)
                .into_iter()
                .filter(|&m| g[m] == 0)
                .map(|m| WinningMove {
                    component: 0,
                    to: format!("{game}:{m} (take {})", heap - m),
                })
                .collect()
        };
        return Ok(Analysis {
            component_values: vec![Some(g[*heap])],
            value: Some(g[*heap]),
            p_position: p,
            winning_moves,
        });
    }
    if let Some(Component::Octal { game, .. }) = components.first() {
        let heaps: Option<Vec<usize>> = components
            .iter()
            .map(|c| match c {
                Component::Octal { game: g, heap } if g == game => Some(*heap),
                _ => None,
            })
            .collect();
        if let Some(heaps) = heaps {
            return misere_octal(game, &heaps, positions);
        }
    }
    if components.iter().all(|c| matches!(c, Component::Nim(_))) {
        let heaps = nim_heaps(components, "misère play")?;
        return moore(&heaps, 1, true);
    }
    let names: Vec<String> = components.iter().map(ToString::to_string).collect();
    if components
        .iter()
        .all(|c| matches!(c, Component::Octal { .. }))
    {
        return Err(GrundyError::Unsupported(format!(
            "misère play of octal heaps is computed for heaps of one game only, and {} mixes \
             games",
            names.join(" + ")
        )));
    }
    Err(GrundyError::Unsupported(format!(
        "misère play is computed for Nim heaps, for one subtraction heap, or for heaps of one \
         octal game, and {} is none of these",
        names.join(" + ")
    )))
}

/// Misère analysis of heaps of one octal game, by a search over whole positions.
fn misere_octal(
    game: &OctalGame,
    heaps: &[usize],
    positions: usize,
) -> Result<Analysis, GrundyError> {
    let mut search = MisereSearch::new(game, positions);
    let p_position = search.is_p(heaps)?;
    let winning_moves = search
        .winning_moves(heaps)?
        .into_iter()
        .map(|(i, mv)| {
            let parts: Vec<String> = mv.heaps.iter().map(|h| h.to_string()).collect();
            let left = if parts.is_empty() {
                "0".to_string()
            } else {
                parts.join("+")
            };
            WinningMove {
                component: i,
                to: format!("{game}:{left} (take {})", mv.removed),
            }
        })
        .collect();
    Ok(Analysis {
        component_values: vec![None; heaps.len()],
        value: None,
        p_position,
        winning_moves,
    })
}

/// Analyses a position of Moore's Nim_k (a move takes from 1 to k heaps) in normal or misère
/// play by Moore's rule; k = 1 is Nim. The winning moves are found by trying every move.
///
/// ```
/// use zermelo_grundy::sum::moore;
/// let a = moore(&[3, 5, 8], 1, true).unwrap();
/// assert!(!a.p_position);
/// let b = moore(&[1, 1, 1], 2, false).unwrap();
/// assert!(b.p_position);
/// ```
pub fn moore(heaps: &[usize], k: usize, misere: bool) -> Result<Analysis, GrundyError> {
    if k == 0 {
        return Err(GrundyError::BadMultiHeap("k must be at least 1".into()));
    }
    let is_p = |h: &[usize]| {
        if misere {
            moore_misere_p(h, k)
        } else {
            moore_p(h, k)
        }
    };
    // Bound the number of moves before trying them all: the heap sizes summed for Nim, the
    // product of (size + 1) over the heaps for k > 1.
    let bound = if k == 1 {
        heaps.iter().map(|&h| h as u128).sum::<u128>()
    } else {
        heaps
            .iter()
            .fold(1u128, |acc, &h| acc.saturating_mul(h as u128 + 1))
    };
    if bound > MAX_OPTIONS {
        return Err(GrundyError::TooLarge {
            what: "the list of moves of this position".into(),
            needed: bound,
            limit: MAX_OPTIONS,
        });
    }
    let p_position = is_p(heaps);
    let mut winning_moves = Vec::new();
    if !p_position {
        let mut current = heaps.to_vec();
        let mut visit = |after: &[usize]| {
            if is_p(after) {
                let (component, _) = heaps
                    .iter()
                    .zip(after)
                    .enumerate()
                    .find(|(_, (a, b))| a != b)
                    .expect("a move changes a heap");
                let changed: Vec<String> = after.iter().map(|h| h.to_string()).collect();
                winning_moves.push(WinningMove {
                    component,
                    to: changed.join(" "),
                });
            }
        };
        reductions(&mut current, 0, 0, k, &mut visit);
    }
    // Only normal-play Nim has a Grundy value (the nim-sum); misère sums and Nim_k do not.
    let value = (k == 1 && !misere).then(|| {
        heaps
            .iter()
            .fold(0, |x, &h| x ^ h)
            .min(usize::from(u16::MAX)) as u16
    });
    Ok(Analysis {
        component_values: heaps
            .iter()
            .map(|&h| (k == 1).then(|| h.min(usize::from(u16::MAX)) as u16))
            .collect(),
        value,
        p_position,
        winning_moves,
    })
}

/// Every position reached by lowering between 1 and k heaps from index `i` on.
fn reductions(
    heaps: &mut Vec<usize>,
    i: usize,
    changed: usize,
    k: usize,
    visit: &mut dyn FnMut(&[usize]),
) {
    if i == heaps.len() {
        if changed > 0 {
            visit(heaps);
        }
        return;
    }
    reductions(heaps, i + 1, changed, k, visit);
    if changed < k {
        let original = heaps[i];
        for h in 0..original {
            heaps[i] = h;
            reductions(heaps, i + 1, changed + 1, k, visit);
        }
        heaps[i] = original;
    }
}

/// The heap sizes of a list of Nim components, or an error naming what needs them.
///
/// ```
/// use zermelo_grundy::sum::{nim_heaps, Component};
/// let parts: Vec<Component> = ["3", "0.77:4"].iter().map(|s| s.parse().unwrap()).collect();
/// assert!(nim_heaps(&parts, "Moore's Nim").is_err());
/// ```
pub fn nim_heaps(components: &[Component], what: &str) -> Result<Vec<usize>, GrundyError> {
    components
        .iter()
        .map(|c| match c {
            Component::Nim(n) => Ok(*n),
            other => Err(GrundyError::Unsupported(format!(
                "{what} is computed for Nim heaps only, and {other} is not a Nim heap"
            ))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::DEFAULT_LIMIT;

    fn parts(list: &[&str]) -> Vec<Component> {
        list.iter().map(|s| s.parse().unwrap()).collect()
    }

    #[test]
    fn fifteen_tokens_take_one_to_three() {
        let a = analyse(&parts(&["S(1,2,3):15"])).unwrap();
        assert_eq!(a.value, Some(3));
        assert_eq!(a.winning_moves.len(), 1);
        assert_eq!(a.winning_moves[0].to, "S(1,2,3):12 (take 3)");
        // Misère: P exactly when n = 1 (mod 4); from 15 take 2 to leave 13.
        let m = analyse_misere(&parts(&["S(1,2,3):15"]), DEFAULT_LIMIT).unwrap();
        assert!(!m.p_position);
        assert_eq!(m.winning_moves[0].to, "S(1,2,3):13 (take 2)");
    }

    #[test]
    fn piles_3_6_8_and_misere_3_5_8() {
        let a = analyse(&parts(&["3", "6", "8"])).unwrap();
        assert_eq!(a.value, Some(13));
        assert_eq!(
            a.winning_moves,
            vec![WinningMove {
                component: 2,
                to: "5".into()
            }]
        );
        let m = analyse_misere(&parts(&["3", "5", "8"]), DEFAULT_LIMIT).unwrap();
        assert!(!m.p_position);
        // With a heap of two or more, misère play follows normal play: 8 -> 6.
        assert_eq!(m.winning_moves.len(), 1);
        assert_eq!(m.winning_moves[0].to, "3 5 6");
    }

    #[test]
    fn moore_agrees_with_the_retrograde_table() {
        use crate::multiheap::MultiHeapGame;
        for misere in [false, true] {
            let table = MultiHeapGame::new(3, 5, 2, misere)
                .unwrap()
                .solve()
                .unwrap();
            for a in 0..=5 {
                for b in 0..=5 {
                    for c in 0..=5 {
                        let r = moore(&[a, b, c], 2, misere).unwrap();
                        assert_eq!(r.p_position, table.is_p(&[a, b, c]));
                        // Every winning move leads to a P-position of the table.
                        for mv in &r.winning_moves {
                            let h: Vec<usize> =
                                mv.to.split(' ').map(|x| x.parse().unwrap()).collect();
                            assert!(table.is_p(&h));
                        }
                        // The empty misère position is won by having no move at all.
                        let terminal = a + b + c == 0;
                        assert_eq!(r.winning_moves.is_empty(), r.p_position || terminal);
                    }
                }
            }
        }
    }

    #[test]
    fn mixed_sums_xor_their_parts() {
        let a = analyse(&parts(&[
            "0.77:10",
            "S(1,3,4):12",
            "wythoff(3,5)",
            "knight(2,1)",
            "4",
        ]))
        .unwrap();
        let kayles10 = crate::naive::values(&"0.77".parse().unwrap(), 10).unwrap()[10];
        let s134 = SubtractionGame::parse("1,3,4", false)
            .unwrap()
            .values(12)
            .unwrap()[12];
        let wythoff = PieceGame::wythoff().solve(6).unwrap().value(3, 5);
        let knight = PieceGame::knight().solve(3).unwrap().value(2, 1);
        assert_eq!(a.value, Some(kayles10 ^ s134 ^ wythoff ^ knight ^ 4));
        for mv in &a.winning_moves {
            assert!(mv.component < 5);
        }
        assert_eq!(a.winning_moves.is_empty(), a.p_position);
    }

    #[test]
    fn a_knight_is_on_the_board_it_names() {
        // The knight's value depends on the board: (7,7) is worth 0 on 8x8 and 1 on 12x12.
        let on = |text: &str| analyse(&parts(&[text])).unwrap().value.unwrap();
        for side in [8, 9, 12, 20] {
            let table = PieceGame::knight().solve(side).unwrap();
            assert_eq!(
                on(&format!("knight(7,7,{side})")),
                table.value(7, 7),
                "{side}"
            );
        }
        assert_eq!(on("knight(7,7)"), on("knight(7,7,8)"));
        assert_ne!(on("knight(7,7,8)"), on("knight(7,7,12)"));
        let c: Component = "knight(7,7)".parse().unwrap();
        assert_eq!(c.to_string(), "knight(7,7,8)");
        let q: Component = "wythoff(3,5,40)".parse().unwrap();
        assert_eq!(q.to_string(), "wythoff(3,5)");
        for bad in ["knight(7,7,7)", "knight(1,2,3,4)", "knight(7)"] {
            assert!(bad.parse::<Component>().is_err(), "{bad}");
        }
    }

    #[test]
    fn bad_components_are_refused() {
        for text in [
            "x",
            "-3",
            "0.77",
            "0.7x:3",
            "S(1,2)",
            "S(1,2:3",
            "queen(1,2)",
            "rook(1)",
        ] {
            assert!(text.parse::<Component>().is_err(), "{text:?} accepted");
        }
        assert!(analyse_misere(&parts(&["0.77:5", "3"]), DEFAULT_LIMIT).is_err());
        assert!(analyse_misere(&parts(&["0.77:5", "0.07:3"]), DEFAULT_LIMIT).is_err());
        // The bound on remembered positions is the caller's.
        let big = parts(&["0.77:12", "0.77:13"]);
        assert!(matches!(
            analyse_misere(&big, 100),
            Err(GrundyError::PositionLimit { limit: 100, .. })
        ));
        assert!(analyse_misere(&big, DEFAULT_LIMIT).is_ok());
    }

    #[test]
    fn misere_octal_heaps_are_searched() {
        // Octal Nim (take 1 to 8) in misère play follows the misère Nim rule: 3 5 8 -> 3 5 6.
        let a = analyse_misere(
            &parts(&["0.33333333:3", "0.33333333:5", "0.33333333:8"]),
            DEFAULT_LIMIT,
        )
        .unwrap();
        assert!(!a.p_position);
        assert_eq!(a.winning_moves.len(), 1);
        assert_eq!(a.winning_moves[0].component, 2);
        assert_eq!(a.winning_moves[0].to, "0.33333333:6 (take 2)");
    }
}
