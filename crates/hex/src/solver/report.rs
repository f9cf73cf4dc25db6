//! [`Solver::inspect`]: what the engines beneath the search know of a position before any
//! search, for display (HexGui draws it over the board).

use super::connections::{self, Between};
use super::search::{Analysis, Node, Search};
use super::Solver;
use crate::{Bitboard, Player, Position};

/// The connection the connection engine proves between one player's edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EdgeLink {
    /// The carrier of a full connection: the player is connected whatever the opponent does
    /// (an empty carrier when the player's stones already connect).
    pub full: Option<Bitboard>,
    /// A semi connection: its key (a cell index) and its carrier, key included. The player
    /// who plays the key is fully connected.
    pub semi: Option<(usize, Bitboard)>,
}

/// The analysis of a position for its side to move, as [`Solver::inspect`] gives it. Cells
/// are bit indices of the board (see [`crate::Cell::from_index`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inspection {
    /// The cells that fill-in gives each player, Black's then White's: captured pairs (a
    /// stone of the opponent's on either cell is dead once the player answers on the other),
    /// which change no value in either game.
    pub captured: [Bitboard; 2],
    /// The permanently inferior cells that fill-in gives each player, Black's then White's
    /// (normal play only).
    pub permanent: [Bitboard; 2],
    /// The empty cells left dead after fill-in: a stone there, of either colour, changes no
    /// player's connection.
    pub dead: Bitboard,
    /// The must-play region of the side to move after fill-in: the cells common to every semi
    /// connection the opponent has between their edges (a move elsewhere lets the opponent
    /// connect); every empty cell when the opponent has none, none when the opponent is
    /// already connected.
    pub must_play: Bitboard,
    /// The moves the search would try: the must-play region less the dead, dominated and
    /// reversible cells (and other moves proven no better). `None` when the analysis decides
    /// the position by itself: then `decided` says who wins.
    pub considered: Option<Bitboard>,
    /// Whether the side to move wins, when the analysis alone decides it.
    pub decided: Option<bool>,
    /// The connections between each player's edges after fill-in, Black's then White's.
    pub links: [EdgeLink; 2],
}

impl Solver {
    /// The analysis of `position` for its side to move, without a search (module
    /// documentation). Fill-in, dead cells and connections are those of the rules of this
    /// solver.
    ///
    /// ```
    /// use zermelo_hex::{Position, Solver, SolverConfig};
    /// let solver = Solver::new(SolverConfig { tt_mb: 1, ..SolverConfig::default() }).unwrap();
    /// // White to move after c2 on 4x4: Black's stone is connected to both edges.
    /// let p = Position::from_moves(4, "c2").unwrap();
    /// let seen = solver.inspect(&p).unwrap();
    /// assert!(seen.links[0].full.is_some());
    /// assert_eq!(seen.decided, Some(false));
    /// ```
    pub fn inspect(&self, position: &Position) -> Result<Inspection, crate::HexError> {
        if let Some(p) = position.connected() {
            return Err(crate::HexError::GameOver(p.name()));
        }
        let g = position.geometry();
        let search = self.search(position.size());
        let black_moves = position.to_move() == Player::Black;
        let FillIn {
            black,
            white,
            empty,
            captured,
            permanent,
        } = fill_in(&search, position);
        let link = |stones: Bitboard, a: Bitboard, b: Bitboard| {
            if g.connects(stones, a, b) {
                // Connected by stones alone (fill-in's included): a full connection that
                // needs no empty cell.
                let link = EdgeLink {
                    full: Some(Bitboard::EMPTY),
                    semi: None,
                };
                return (link, Bitboard::EMPTY);
            }
            let c =
                connections::edge_connection(g, stones, empty, a, b, connections::ALL_TEMPLATES);
            (
                EdgeLink {
                    full: c.full,
                    semi: c.semi,
                },
                c.must_play,
            )
        };
        let (black_link, black_must) = link(black, g.north, g.south);
        let (white_link, white_must) = link(white, g.west, g.east);
        let (their_link, their_must) = match black_moves {
            true => (white_link, white_must),
            false => (black_link, black_must),
        };
        let must_play = match their_link.full {
            Some(_) => Bitboard::EMPTY,
            None => their_must & empty,
        };
        let node = Node {
            black: position.black(),
            white: position.white(),
            black_to_move: black_moves,
        };
        let (considered, decided) = match search.analyse(node) {
            Analysis::Decided(win, _, _) => (None, Some(win)),
            Analysis::Moves(_) => (search.kept_moves(node), None),
        };
        Ok(Inspection {
            captured,
            permanent,
            dead: search.dead_cells().find(black, white),
            must_play,
            considered,
            decided,
            links: [black_link, white_link],
        })
    }

    /// The connections the connection engine keeps for `player` between `x` and `y` after
    /// fill-in (as [`Solver::inspect`] does it), for display: each of `x` and `y` is one of
    /// the player's edges (the geometry's mask of it) or a single cell, empty or the player's
    /// (a stone stands for its group, joined to an edge if its group touches it). `None` when
    /// one of them is not the player's after fill-in, or both stand for one group.
    ///
    /// ```
    /// use zermelo_hex::{Bitboard, Cell, Player, Position, Solver, SolverConfig};
    /// let solver = Solver::new(SolverConfig { tt_mb: 1, ..SolverConfig::default() }).unwrap();
    /// let p = Position::from_moves(4, "b2").unwrap();
    /// let b2 = Bitboard::single(Cell::parse("b2", 4).unwrap().index(4));
    /// let ends = (b2, p.geometry().south);
    /// let found = solver.connections_between(&p, Player::Black, ends).unwrap().unwrap();
    /// // Three semi connections to the south edge, keyed a4, c3 and b3; no full one.
    /// let keys: Vec<usize> = found.semis.iter().map(|&(key, _)| key).collect();
    /// let at = |name: &str| Cell::parse(name, 4).unwrap().index(4);
    /// assert_eq!(keys, [at("a4"), at("c3"), at("b3")]);
    /// assert!(found.fulls.is_empty());
    /// ```
    ///
    /// # Errors
    /// [`crate::HexError::GameOver`] when a player has connected.
    pub fn connections_between(
        &self,
        position: &Position,
        player: Player,
        (x, y): (Bitboard, Bitboard),
    ) -> Result<Option<Between>, crate::HexError> {
        if let Some(p) = position.connected() {
            return Err(crate::HexError::GameOver(p.name()));
        }
        let g = position.geometry();
        let f = fill_in(&self.search(position.size()), position);
        let (stones, edges) = match player {
            Player::Black => (f.black, (g.north, g.south)),
            Player::White => (f.white, (g.west, g.east)),
        };
        Ok(connections::between(g, (stones, f.empty), edges, (x, y)))
    }
}

/// The search's fill-in of `position` (the side to move's cells filled first, as the search
/// fills them), keeping what each rule gave to whom, told by colour.
fn fill_in(search: &Search<'_>, position: &Position) -> FillIn {
    let black_moves = position.to_move() == Player::Black;
    // A pair of the mover's and the opponent's, as Black's and White's. The swap is its own
    // inverse, so it also turns Black's and White's into the mover's and the opponent's.
    let by_colour = |[mover, opponent]: [Bitboard; 2]| match black_moves {
        true => [mover, opponent],
        false => [opponent, mover],
    };
    let [mine, theirs] = by_colour([position.black(), position.white()]);
    let f = search.fill_in(mine, theirs, position.empty(), black_moves);
    let [black, white] = by_colour([f.mine, f.theirs]);
    let captured = [
        f.fill_mine.minus(f.permanent[0]),
        f.fill_theirs.minus(f.permanent[1]),
    ];
    FillIn {
        black,
        white,
        empty: f.empty,
        captured: by_colour(captured),
        permanent: by_colour(f.permanent),
    }
}

/// The stones and empty cells after fill-in, and what it gave each player.
struct FillIn {
    black: Bitboard,
    white: Bitboard,
    empty: Bitboard,
    captured: [Bitboard; 2],
    permanent: [Bitboard; 2],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retro::{RetroTable, RetroValue};
    use crate::SolverConfig;

    /// The inspection shows the fill-in the search analyses with, whoever is to move: the
    /// mover's cells are filled first, so with White to move the two can differ from a fill-in
    /// that takes Black's first (it did in 1,175 of the 3x3 positions, all with White to move).
    #[test]
    fn the_fill_in_shown_is_the_searchs() {
        let solver = Solver::new(SolverConfig {
            tt_mb: 1,
            ..SolverConfig::default()
        })
        .unwrap();
        let search = solver.search(3);
        for (black, white) in super::super::colourings(3, 1) {
            for to_move in [Player::Black, Player::White] {
                let p = match Position::from_setup(3, black, white, to_move) {
                    Ok(p) if p.connected().is_none() => p,
                    _ => continue,
                };
                let seen = solver.inspect(&p).unwrap();
                let black_moves = to_move == Player::Black;
                let (mine, theirs) = if black_moves {
                    (black, white)
                } else {
                    (white, black)
                };
                let f = search.fill_in(mine, theirs, p.empty(), black_moves);
                let (to_black, to_white) = if black_moves {
                    (f.fill_mine, f.fill_theirs)
                } else {
                    (f.fill_theirs, f.fill_mine)
                };
                let shown = |i: usize| seen.captured[i] | seen.permanent[i];
                assert_eq!((shown(0), shown(1)), (to_black, to_white), "{p:?}");
            }
        }
    }

    /// Every position in play of 3x3 and of 4x4 one in 7 (the side to move given by the stone
    /// counts), checked against the retrograde oracle: a decided value is the true one; when
    /// the side to move wins, one of the considered moves wins, and it lies in the must-play
    /// region; a player with a full connection does not lose, nor does a player to move with
    /// a semi one.
    #[test]
    fn inspections_agree_with_the_oracle() {
        for (n, step) in [(3, 1), (4, 7)] {
            let table = RetroTable::compute(n, false).unwrap();
            let solver = Solver::new(SolverConfig {
                tt_mb: 1,
                ..SolverConfig::default()
            })
            .unwrap();
            for (black, white) in super::super::colourings(n, step) {
                for to_move in [Player::Black, Player::White] {
                    let Ok(p) = Position::from_setup(n, black, white, to_move) else {
                        continue;
                    };
                    if p.connected().is_some() {
                        continue;
                    }
                    let value = |b: Bitboard, w: Bitboard, mover: Player| {
                        // The oracle knows positions of games from the empty board only.
                        let counts_fit = match mover {
                            Player::Black => b.count() == w.count(),
                            Player::White => b.count() == w.count() + 1,
                        };
                        counts_fit.then(|| table.value(b.0, w.0).unwrap())
                    };
                    let Some(v) = value(black, white, to_move) else {
                        continue;
                    };
                    let wins = v == RetroValue::Win;
                    let seen = solver.inspect(&p).unwrap();
                    if let Some(d) = seen.decided {
                        assert_eq!(d, wins, "{p}");
                    }
                    if let Some(m) = seen.considered {
                        if wins {
                            let child_loses = |c: usize| {
                                let q = p.play(crate::Cell::from_index(c, n)).unwrap();
                                q.connected().is_some()
                                    || value(q.black(), q.white(), q.to_move())
                                        == Some(RetroValue::Loss)
                            };
                            let winning = (m & seen.must_play).cells().any(child_loses);
                            assert!(winning, "{p}");
                        }
                    }
                    let mine = usize::from(to_move == Player::White);
                    if seen.links[1 - mine].full.is_some() {
                        assert!(!wins, "{p}");
                    }
                    if seen.links[mine].full.is_some() || seen.links[mine].semi.is_some() {
                        assert!(wins, "{p}");
                    }
                }
            }
        }
    }
}
