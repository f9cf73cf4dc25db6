//! [`Engine`]: the commands of the protocol, answered from a [`Game`] and a [`Solver`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use super::game::Game;
use super::protocol::{format_reply, parse_line, CommandLine, Line};
use crate::{
    Bitboard, Cell, HexError, Inspection, MoveList, Player, Position, Rules, Solution, Solver,
    SolverConfig, MAX_SIZE, MAX_TT_MB,
};

/// Every command the engine knows, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "play",
    "undo",
    "showboard",
    "loadsgf",
    "all_legal_moves",
    "final_score",
    "genmove",
    "reg_genmove",
    "hexgui-analyze_commands",
    "param_game",
    "param_dfpn",
    "dfpn-clear-tt",
    "dfpn-solve-state",
    "dfpn-solver-find-winning",
    "vc-get-mustplay",
    "compute-fillin",
    "compute-inferior",
    "zermelo-edge-connections",
    "vc-between-cells-full",
    "vc-between-cells-semi",
    "gogui-interrupt",
];

/// The analyze commands HexGui shows in its menu: type, label and command, `%m` standing for
/// the colour to move.
const ANALYZE_COMMANDS: &str = "\
param/Dfpn Param/param_dfpn
param/Game Param/param_game
string/Dfpn Solve State/dfpn-solve-state %m
plist/Dfpn Find Winning/dfpn-solver-find-winning %m
none/Dfpn Clear TT/dfpn-clear-tt
inferior/Must-play Region/vc-get-mustplay %m
inferior/Fill-in/compute-fillin %m
inferior/Inferior Cells/compute-inferior %m
vc/Edge Connections/zermelo-edge-connections %m
vc/VC Between Cells Full/vc-between-cells-full %c %P
vc/VC Between Cells Semi/vc-between-cells-semi %c %P
plist/All Legal Moves/all_legal_moves %m
string/ShowBoard/showboard
string/Final Score/final_score";

/// The most solver threads `param_dfpn threads` takes: far beyond any core count (each
/// thread has its own stack), as on the command line.
const MAX_THREADS: usize = 1024;

/// The largest SGF file `loadsgf` reads: far more than any Hex game record.
const MAX_SGF_BYTES: u64 = 1 << 20;

/// How an [`Engine`] starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Normal or misère Hex (`param_game misere` switches).
    pub rules: Rules,
    /// Solver threads, 0 for one per core (`param_dfpn threads`).
    pub threads: usize,
    /// The most the transposition table grows to, in MiB (`param_dfpn tt_size`).
    pub tt_mb: usize,
    /// What `name` answers.
    pub name: String,
    /// What `version` answers.
    pub version: String,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            rules: Rules::Normal,
            threads: 0,
            tt_mb: 1024,
            name: "zermelo".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }
}

/// The answer to one line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The reply as written to the controller, blank line included.
    pub text: String,
    /// Whether the controller asked the engine to quit.
    pub quit: bool,
    /// A line for the log (standard error): what a solve found and what it took.
    pub log: Option<String>,
}

/// A Hex engine: the game, the solver, and the settings the controller changes.
///
/// Solving commands may be stopped from another thread through [`Engine::stop_flag`] (the
/// controller's interrupt) or by the time limit (`param_dfpn timelimit`); a stopped
/// `dfpn-solve-state` answers `empty` (the winner is not known), a stopped
/// `dfpn-solver-find-winning` answers an error, and a stopped `genmove` plays the move the
/// search rates best.
pub struct Engine {
    config: EngineConfig,
    /// Seconds a solving command may take; 0 for no limit.
    time_limit: f64,
    game: Game,
    /// Made when first needed, and again after `dfpn-clear-tt` or a change of settings.
    solver: Option<Solver>,
    stop: Arc<AtomicBool>,
}

/// What a command handler returns: the reply text, or an error message.
type Handled = Result<String, String>;

impl Engine {
    /// An engine on the empty 11x11 board (controllers send `boardsize` first).
    #[must_use]
    pub fn new(config: EngineConfig) -> Engine {
        Engine {
            config,
            time_limit: 0.0,
            game: Game::new(MAX_SIZE).expect("the largest board size is valid"),
            solver: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The flag that stops the solving command under way, when set from another thread (the
    /// controller's interrupt); the engine clears it when the command ends.
    #[must_use]
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Answers one line of input; `None` for a blank line or a comment.
    pub fn execute(&mut self, line: &str) -> Option<Reply> {
        let command = match parse_line(line) {
            Line::Empty => return None,
            Line::Malformed(id, why) => {
                return Some(Reply {
                    text: format_reply(id, Err(&why)),
                    quit: false,
                    log: None,
                })
            }
            Line::Command(c) => c,
        };
        let mut log = None;
        let result = self.run(&command, &mut log);
        self.stop.store(false, Ordering::Relaxed);
        let text = match &result {
            Ok(text) => format_reply(command.id, Ok(text)),
            Err(why) => format_reply(command.id, Err(why)),
        };
        Some(Reply {
            text,
            quit: result.is_ok() && command.name == "quit",
            log,
        })
    }

    /// Runs one command.
    fn run(&mut self, c: &CommandLine, log: &mut Option<String>) -> Handled {
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let args = args.as_slice();
        match c.name.as_str() {
            "protocol_version" => none(args).map(|()| "2".into()),
            "name" => none(args).map(|()| self.config.name.clone()),
            "version" => none(args).map(|()| self.config.version.clone()),
            "known_command" => match args {
                [name] => Ok(COMMANDS.contains(name).to_string()),
                _ => Err("known_command takes one command name".into()),
            },
            "list_commands" => none(args).map(|()| COMMANDS.join("\n")),
            "quit" => none(args).map(|()| String::new()),
            "boardsize" => self.boardsize(args),
            "clear_board" => none(args)
                .map(|()| self.game.clear())
                .map(|()| String::new()),
            "play" => match args {
                [colour, cell] => {
                    let player = colour_arg(colour)?;
                    self.game.play(player, cell).map_err(message)?;
                    Ok(String::new())
                }
                _ => Err("play takes a colour and a cell, like: play b c3".into()),
            },
            "undo" => none(args)
                .and_then(|()| self.game.undo().map_err(message))
                .map(|()| String::new()),
            "showboard" => none(args).map(|()| format!("\n{}", self.game.diagram())),
            "loadsgf" => self.loadsgf(args),
            "all_legal_moves" => {
                let p = self.position(one_colour(args)?)?;
                match p.connected() {
                    Some(_) => Ok(String::new()),
                    None => Ok(cells(p.empty(), p.size())),
                }
            }
            "final_score" => {
                none(args)?;
                let p = self.position(Player::Black)?;
                Ok(match p.connected().map(|c| self.winner_of_finished(c)) {
                    Some(Player::Black) => "B+".into(),
                    Some(Player::White) => "W+".into(),
                    None => "cannot score".into(),
                })
            }
            "genmove" => self.genmove(one_colour(args)?, true, log),
            "reg_genmove" => self.genmove(one_colour(args)?, false, log),
            "hexgui-analyze_commands" => none(args).map(|()| ANALYZE_COMMANDS.into()),
            "param_game" => self.param_game(args),
            "param_dfpn" => self.param_dfpn(args),
            "dfpn-clear-tt" => none(args)
                .map(|()| self.solver = None)
                .map(|()| String::new()),
            "dfpn-solve-state" => self.solve_state(args, log),
            "dfpn-solver-find-winning" => self.find_winning(one_colour(args)?, log),
            "vc-get-mustplay" if self.config.rules == Rules::Misere => {
                Err("the must-play region is a notion of normal play".into())
            }
            "vc-get-mustplay" => self.inspect(args, |seen, n| {
                let outside = seen.must_play_outside();
                fill_in_marks(seen, n) + &marks(outside, n, "x")
            }),
            "compute-fillin" => self.inspect(args, fill_in_marks),
            "compute-inferior" => self.inspect(args, |seen, n| {
                let mut text = fill_in_marks(seen, n);
                text += &marks(seen.dead, n, "fd");
                if let Some(considered) = seen.considered {
                    text += &marks(seen.open().minus(considered | seen.dead), n, "x");
                }
                text
            }),
            "zermelo-edge-connections" => self.inspect(args, edge_connections),
            "vc-between-cells-full" => self.between(args, true),
            "vc-between-cells-semi" => self.between(args, false),
            "gogui-interrupt" => none(args).map(|()| String::new()),
            name => Err(format!("unknown command: {name}")),
        }
    }

    /// `boardsize N [N]`: a new game on the empty n x n board.
    fn boardsize(&mut self, args: &[&str]) -> Handled {
        let size = |s: &str| {
            s.parse::<usize>()
                .map_err(|_| format!("'{s}' is not a board size"))
        };
        let n = match args {
            [n] => size(n)?,
            [w, h] => {
                let (w, h) = (size(w)?, size(h)?);
                if w != h {
                    return Err(format!("only square boards are supported, not {w}x{h}"));
                }
                w
            }
            _ => return Err("boardsize takes the board size, like: boardsize 7 7".into()),
        };
        self.game = Game::new(n).map_err(message)?;
        Ok(String::new())
    }

    /// `loadsgf FILE [MOVES]`: the position of an SGF file, after its first MOVES moves.
    fn loadsgf(&mut self, args: &[&str]) -> Handled {
        let (path, moves) = match args {
            [path] => (*path, None),
            [path, m] => (
                *path,
                Some(
                    m.parse::<usize>()
                        .map_err(|_| format!("'{m}' is not a move number"))?,
                ),
            ),
            _ => return Err("loadsgf takes a file and an optional move number".into()),
        };
        let text = read_small_file(path)?;
        self.game = Game::from_sgf(&text, moves).map_err(|e| format!("{path}: {e}"))?;
        Ok(String::new())
    }

    /// `param_game [NAME VALUE]`: the rules (`misere` 0 or 1).
    fn param_game(&mut self, args: &[&str]) -> Handled {
        match args {
            [] => Ok(format!(
                "\n[bool] misere {}",
                u8::from(self.config.rules == Rules::Misere)
            )),
            ["misere", v] => {
                self.config.rules = match *v {
                    "0" | "false" => Rules::Normal,
                    "1" | "true" => Rules::Misere,
                    _ => return Err(format!("misere is 0 or 1, not '{v}'")),
                };
                self.solver = None;
                Ok(String::new())
            }
            [name, _] => Err(format!("unknown parameter: {name}")),
            _ => Err("param_game takes no argument or a name and a value".into()),
        }
    }

    /// `param_dfpn [NAME VALUE]`: the solver's settings (`threads`, `timelimit`, `tt_size`).
    fn param_dfpn(&mut self, args: &[&str]) -> Handled {
        let number = |v: &str| {
            v.parse::<usize>()
                .map_err(|_| format!("'{v}' is not a whole number"))
        };
        match args {
            [] => Ok(format!(
                "\n[string] threads {}\n[string] timelimit {}\n[string] tt_size {}",
                self.config.threads, self.time_limit, self.config.tt_mb
            )),
            ["threads", v] => {
                let t = number(v)?;
                if t > MAX_THREADS {
                    return Err(format!(
                        "threads is 0 (one per core) to {}, not {t}",
                        MAX_THREADS
                    ));
                }
                self.config.threads = t;
                self.solver = None;
                Ok(String::new())
            }
            ["timelimit", v] => {
                let t = v
                    .parse::<f64>()
                    .ok()
                    .filter(|t| t.is_finite() && *t >= 0.0 && *t < 1e9)
                    .ok_or_else(|| format!("timelimit is a number of seconds, not '{v}'"))?;
                self.time_limit = t;
                Ok(String::new())
            }
            ["tt_size", v] => {
                let mb = number(v)?;
                if !(1..=MAX_TT_MB).contains(&mb) {
                    return Err(format!("tt_size is 1 to {MAX_TT_MB} MiB, not {mb}"));
                }
                self.config.tt_mb = mb;
                self.solver = None;
                Ok(String::new())
            }
            [name, _] => Err(format!("unknown parameter: {name}")),
            _ => Err("param_dfpn takes no argument or a name and a value".into()),
        }
    }

    /// The position with `to_move` to move.
    fn position(&self, to_move: Player) -> Result<Position, String> {
        self.game.position(to_move).map_err(message)
    }

    /// The winner of a finished game in which `connected` has connected.
    fn winner_of_finished(&self, connected: Player) -> Player {
        match self.config.rules {
            Rules::Normal => connected,
            Rules::Misere => connected.opponent(),
        }
    }

    /// The solver, made with the current settings if there is none.
    fn solver(&mut self) -> Result<&Solver, String> {
        if self.solver.is_none() {
            let solver = Solver::new(SolverConfig {
                rules: self.config.rules,
                threads: self.config.threads,
                tt_mb: self.config.tt_mb,
            })
            .map_err(message)?;
            self.solver = Some(solver);
        }
        Ok(self.solver.as_ref().expect("made above"))
    }

    /// Solves `position`, listing `list`, within the time limit.
    fn solve(&mut self, position: &Position, list: MoveList) -> Result<Solution, HexError> {
        let limit = self.time_limit;
        let stop = Arc::clone(&self.stop);
        let solver = self.solver().map_err(HexError::BadTable)?;
        within(limit, &stop, || {
            solver.solve_until(position, list, Some(&stop))
        })
    }

    /// `dfpn-solve-state [COLOUR]`: the winner with COLOUR to move (by default the player
    /// after the last stone), `empty` if the solve was stopped.
    fn solve_state(&mut self, args: &[&str], log: &mut Option<String>) -> Handled {
        let to_move = match args {
            [] => self.game.next_player(),
            [colour] => colour_arg(colour)?,
            _ => return Err("dfpn-solve-state takes at most a colour".into()),
        };
        let p = self.position(to_move)?;
        if let Some(c) = p.connected() {
            return Ok(self.winner_of_finished(c).name().into());
        }
        match self.solve(&p, MoveList::One) {
            Ok(s) => {
                *log = Some(solve_log("dfpn-solve-state", &s, s.winner.name()));
                Ok(s.winner.name().into())
            }
            Err(HexError::Stopped) => {
                *log = Some("dfpn-solve-state: stopped".into());
                Ok("empty".into())
            }
            Err(e) => Err(message(e)),
        }
    }

    /// `dfpn-solver-find-winning COLOUR`: COLOUR's winning moves, among the moves the
    /// analysis keeps (every empty cell when it decides the position).
    fn find_winning(&mut self, to_move: Player, log: &mut Option<String>) -> Handled {
        let p = self.position(to_move)?;
        if let Some(c) = p.connected() {
            // The game is over: every move keeps the winner's win.
            let winner = self.winner_of_finished(c);
            let all = if winner == to_move {
                p.empty()
            } else {
                Bitboard::EMPTY
            };
            return Ok(cells(all, p.size()));
        }
        match self.solve(&p, MoveList::Considered) {
            Ok(s) => {
                let list = s.winning_moves.clone().unwrap_or_default();
                let text = cell_list(&list);
                *log = Some(solve_log("dfpn-solver-find-winning", &s, &text));
                Ok(text)
            }
            Err(HexError::Stopped) => Err("stopped before every move was solved".into()),
            Err(e) => Err(message(e)),
        }
    }

    /// `genmove COLOUR` (and `reg_genmove`, which does not play the move): a winning move if
    /// the solver proves one within the time limit, else the move its search rates best;
    /// `resign` when the game is over.
    fn genmove(&mut self, to_move: Player, play: bool, log: &mut Option<String>) -> Handled {
        let p = self.position(to_move)?;
        if p.connected().is_some() {
            return Ok("resign".into());
        }
        let proven = match self.solve(&p, MoveList::One) {
            Ok(s) => {
                let what = match s.winning_move {
                    Some(m) => format!("{} wins by {m}", s.winner.name()),
                    None => format!("{} wins", s.winner.name()),
                };
                *log = Some(solve_log("genmove", &s, &what));
                s.winning_move
            }
            Err(HexError::Stopped) => {
                *log = Some("genmove: stopped, playing the move rated best".into());
                None
            }
            Err(e) => return Err(message(e)),
        };
        let cell = match proven {
            Some(m) => m,
            None => self.solver()?.best_move(&p).map_err(message)?,
        };
        if play {
            self.game
                .play(to_move, &cell.to_string())
                .map_err(message)?;
        }
        Ok(cell.to_string())
    }

    /// An analysis command: its reply, drawn from the inspection of the position with the
    /// colour argument to move.
    fn inspect(&mut self, args: &[&str], draw: impl Fn(&Seen, usize) -> String) -> Handled {
        let p = self.position(one_colour(args)?)?;
        if let Some(c) = p.connected() {
            return Err(format!("the game is over: {} has connected", c.name()));
        }
        let inspection = self.solver()?.inspect(&p).map_err(message)?;
        let seen = Seen {
            inspection,
            empty: p.empty(),
            to_move: p.to_move(),
        };
        Ok(draw(&seen, p.size()))
    }

    /// `vc-between-cells-full COLOUR X Y` (`fulls` true) or `vc-between-cells-semi COLOUR X Y`:
    /// the full or semi connections the connection engine keeps for COLOUR between X and Y
    /// after fill-in, one a line. X and Y are cells (empty or COLOUR's) or COLOUR's edges
    /// (`north`, `south`, `west`, `east`).
    fn between(&mut self, args: &[&str], fulls: bool) -> Handled {
        let [colour, x, y] = args else {
            return Err(
                "this command takes a colour and two cells or edges, like: w d5 east".into(),
            );
        };
        let player = colour_arg(colour)?;
        let p = self.position(self.game.next_player())?;
        if let Some(c) = p.connected() {
            return Err(format!("the game is over: {} has connected", c.name()));
        }
        let (x, x_set) = end_arg(&p, player, x)?;
        let (y, y_set) = end_arg(&p, player, y)?;
        let found = self
            .solver()?
            .connections_between(&p, player, (x_set, y_set))
            .map_err(message)?
            .ok_or_else(|| {
                format!(
                    "{x} and {y} are one group of {}'s, or fill-in gives one of them to {}",
                    player.name(),
                    player.opponent().name()
                )
            })?;
        let n = p.size();
        let colour = player.name();
        let mut text = String::new();
        if fulls {
            for carrier in found.fulls {
                text += &vc_line(colour, (&x, &y), carrier, None, n);
            }
        } else {
            for (key, carrier) in found.semis {
                text += &vc_line(colour, (&x, &y), carrier, Some(key), n);
            }
        }
        Ok(text)
    }
}

/// One end of a connection in a command: `north`, `south`, `west` or `east` for one of
/// `player`'s edges, or a cell that is empty or `player`'s. Its name as the reply writes it,
/// and its cells (the edge's row of cells for an edge).
fn end_arg(p: &Position, player: Player, text: &str) -> Result<(String, Bitboard), String> {
    let g = p.geometry();
    let name = text.to_ascii_lowercase();
    let edge = match name.as_str() {
        "north" => Some((g.north, Player::Black)),
        "south" => Some((g.south, Player::Black)),
        "west" => Some((g.west, Player::White)),
        "east" => Some((g.east, Player::White)),
        _ => None,
    };
    if let Some((cells, owner)) = edge {
        if owner != player {
            return Err(format!(
                "{name} is {}'s edge, not {}'s",
                owner.name(),
                player.name()
            ));
        }
        return Ok((name, cells));
    }
    let cell = Cell::parse(text, p.size()).map_err(message)?;
    let i = cell.index(p.size());
    let theirs = match player {
        Player::Black => p.white(),
        Player::White => p.black(),
    };
    if theirs.has(i) {
        return Err(format!("{cell} is a {} stone", player.opponent().name()));
    }
    Ok((cell.to_string(), Bitboard::single(i)))
}

/// An inspection with the position's empty cells and side to move, for the analysis replies.
struct Seen {
    inspection: Inspection,
    empty: Bitboard,
    to_move: Player,
}

impl std::ops::Deref for Seen {
    type Target = Inspection;
    fn deref(&self) -> &Inspection {
        &self.inspection
    }
}

impl Seen {
    /// The empty cells that fill-in leaves empty.
    fn open(&self) -> Bitboard {
        let filled = self.captured[0] | self.captured[1] | self.permanent[0] | self.permanent[1];
        self.empty.minus(filled)
    }

    /// The open cells outside the must-play region.
    fn must_play_outside(&self) -> Bitboard {
        self.open().minus(self.must_play)
    }
}

/// The fill-in of an inspection as HexGui's `inferior` marks: `fcb` a cell captured by Black,
/// `fpw` one permanently inferior for White, and so on.
fn fill_in_marks(seen: &Seen, n: usize) -> String {
    marks(seen.captured[0], n, "fcb")
        + &marks(seen.captured[1], n, "fcw")
        + &marks(seen.permanent[0], n, "fpb")
        + &marks(seen.permanent[1], n, "fpw")
}

/// The connections between the edges of the side to move, then of the opponent, as HexGui's
/// `vc` lines: colour, the two edges, `full` or `semi`, the rule, the carrier, the stones
/// (left empty), and for a semi connection its key.
fn edge_connections(seen: &Seen, n: usize) -> String {
    let mut text = String::new();
    for player in [seen.to_move, seen.to_move.opponent()] {
        let (link, from, to) = match player {
            Player::Black => (seen.links[0], "north", "south"),
            Player::White => (seen.links[1], "west", "east"),
        };
        let colour = player.name();
        if let Some(carrier) = link.full {
            text += &vc_line(colour, (from, to), carrier, None, n);
        }
        if let Some((key, carrier)) = link.semi {
            text += &vc_line(colour, (from, to), carrier, Some(key), n);
        }
    }
    text
}

/// One connection as a line of a `vc` reply, a newline before it: a full connection when
/// `key` is `None`, a semi one with that key otherwise.
fn vc_line(
    colour: &str,
    (from, to): (&str, &str),
    carrier: Bitboard,
    key: Option<usize>,
    n: usize,
) -> String {
    let cells = spaced(carrier, n);
    match key {
        None => format!("\n{colour} {from} {to} full or [{cells} ] [ ]"),
        Some(k) => {
            let key = Cell::from_index(k, n);
            format!("\n{colour} {from} {to} semi and [{cells} ] [ ] {key}")
        }
    }
}

/// The cells of a set, each with a space before it.
fn spaced(set: Bitboard, n: usize) -> String {
    set.cells()
        .map(|c| format!(" {}", Cell::from_index(c, n)))
        .collect()
}

/// Each cell of `set` followed by `mark`, as HexGui's `inferior` replies pair them.
fn marks(set: Bitboard, n: usize, mark: &str) -> String {
    set.cells()
        .map(|c| format!(" {} {mark}", Cell::from_index(c, n)))
        .collect()
}

/// The cells of a set, separated by spaces, in cell order (a1, b1, …, a2, …).
fn cells(set: Bitboard, n: usize) -> String {
    spaced(set, n).trim_start().to_string()
}

/// Cells separated by spaces.
fn cell_list(list: &[Cell]) -> String {
    list.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The log line of a solve.
fn solve_log(command: &str, s: &Solution, answer: &str) -> String {
    format!(
        "{command} {}: {answer} ({} nodes, {:.3} s)",
        s.to_move.name(),
        s.nodes,
        s.seconds
    )
}

/// Checks that a command has no arguments.
fn none(args: &[&str]) -> Result<(), String> {
    match args {
        [] => Ok(()),
        _ => Err("this command takes no arguments".into()),
    }
}

/// The one colour argument of a command.
fn one_colour(args: &[&str]) -> Result<Player, String> {
    match args {
        [colour] => colour_arg(colour),
        _ => Err("this command takes a colour: b or w".into()),
    }
}

/// A colour: `b`, `black`, `w` or `white`, in any case.
fn colour_arg(text: &str) -> Result<Player, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Player::Black),
        "w" | "white" => Ok(Player::White),
        _ => Err(format!("'{text}' is not a colour (b, w, black or white)")),
    }
}

/// An error's message, for a reply.
fn message(e: HexError) -> String {
    e.to_string()
}

/// Reads a small regular file: a device, a pipe or a file over [`MAX_SGF_BYTES`] is refused,
/// so that no path given can make the engine wait or fill its memory.
fn read_small_file(path: &str) -> Result<String, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("cannot read {path}: not a regular file"));
    }
    if meta.len() > MAX_SGF_BYTES {
        return Err(format!(
            "{path} is too large for an SGF file ({} bytes)",
            meta.len()
        ));
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SGF_BYTES).read_to_string(&mut text))
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    Ok(text)
}

/// Runs `work`, setting `stop` once `limit` seconds have passed (no limit for 0).
fn within<T>(limit: f64, stop: &AtomicBool, work: impl FnOnce() -> T) -> T {
    if limit <= 0.0 {
        return work();
    }
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            if wait.recv_timeout(Duration::from_secs_f64(limit))
                == Err(mpsc::RecvTimeoutError::Timeout)
            {
                stop.store(true, Ordering::Relaxed);
            }
        });
        let result = work();
        drop(done);
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        Engine::new(EngineConfig {
            tt_mb: 4,
            threads: 1,
            ..EngineConfig::default()
        })
    }

    /// Every listed command is answered by its handler, not as an unknown command, and a
    /// name not listed is unknown.
    #[test]
    fn every_listed_command_is_handled() {
        let mut e = engine();
        e.execute("boardsize 3");
        for name in COMMANDS.iter().filter(|&&n| n != "quit") {
            let reply = e.execute(name).unwrap().text;
            assert!(!reply.contains("unknown command"), "{name}: {reply}");
        }
        assert!(e.execute("list").unwrap().text.contains("unknown command"));
    }

    /// The time limit stops a solve that cannot end within it, and leaves the engine ready.
    #[test]
    fn the_time_limit_stops_a_solve() {
        let mut e = engine();
        for line in ["boardsize 11", "param_dfpn timelimit 0.2"] {
            assert_eq!(e.execute(line).unwrap().text, "= \n\n");
        }
        assert_eq!(e.execute("dfpn-solve-state b").unwrap().text, "= empty\n\n");
        assert!(e
            .execute("dfpn-solver-find-winning b")
            .unwrap()
            .text
            .starts_with('?'));
        let reply = e.execute("genmove b").unwrap().text;
        assert!(reply.starts_with("= ") && reply.len() > 4, "{reply}");
        assert_eq!(e.execute("boardsize 2").unwrap().text, "= \n\n");
        assert_eq!(e.execute("dfpn-solve-state b").unwrap().text, "= black\n\n");
    }
}
