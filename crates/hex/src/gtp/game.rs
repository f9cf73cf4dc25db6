//! [`Game`]: the board an engine is given, stone by stone, with its history for `undo`.

use crate::{Bitboard, Cell, HexError, Player, Position, Sgf};

/// One step of a game's history: a stone placed, or the swap of the first stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// A stone of `player` on bit `cell`.
    Stone { player: Player, cell: usize },
    /// The second player took the first stone, Black's on bit `from`, as a White stone on its
    /// reflection `to` in the long diagonal (the swap rule's move, as HexGui sends it).
    Swap { from: usize, to: usize },
}

/// The board of an engine: its size, the stones and the steps that placed them since the last
/// new game, so that `undo` takes the last one back.
///
/// Stones of either colour may be placed in any order (test suites set positions up that
/// way); the side to move is the one the caller names when it asks about the position, or by
/// default the opponent of the last stone's player.
///
/// ```
/// use zermelo_hex::gtp::Game;
/// use zermelo_hex::Player;
/// let mut game = Game::new(3).unwrap();
/// game.play(Player::White, "b2").unwrap();
/// game.play(Player::White, "a1").unwrap();
/// assert_eq!(game.position(Player::Black).unwrap().white().count(), 2);
/// assert!(game.play(Player::Black, "b2").is_err());
/// game.undo().unwrap();
/// game.undo().unwrap();
/// assert!(game.undo().is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    size: usize,
    black: Bitboard,
    white: Bitboard,
    history: Vec<Step>,
}

impl Game {
    /// The empty n x n board.
    pub fn new(size: usize) -> Result<Game, HexError> {
        Position::new(size)?;
        Ok(Game {
            size,
            black: Bitboard::EMPTY,
            white: Bitboard::EMPTY,
            history: Vec::new(),
        })
    }

    /// The position of an SGF file, as a new game that starts from it (`undo` does not go back
    /// past it), with at most `moves` of its moves played when given.
    pub fn from_sgf(text: &str, moves: Option<usize>) -> Result<Game, HexError> {
        let sgf = Sgf::parse_until(text, moves)?;
        let mut game = Game::new(sgf.size)?;
        game.black = sgf.black;
        game.white = sgf.white;
        Ok(game)
    }

    /// The board size n.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The player to move when none is named: White after a Black stone or a swap, Black
    /// after a White stone and on a new game.
    #[must_use]
    pub fn next_player(&self) -> Player {
        match self.history.last() {
            Some(Step::Stone { player, .. }) => player.opponent(),
            Some(Step::Swap { .. }) => Player::Black,
            None => Player::Black,
        }
    }

    /// The stones with `to_move` to move.
    pub fn position(&self, to_move: Player) -> Result<Position, HexError> {
        Position::from_setup(self.size, self.black, self.white, to_move)
    }

    /// Places a stone of `player` on the cell named `cell`, or for `swap-pieces` (`swap`)
    /// takes Black's only stone as White's, reflected in the long diagonal.
    pub fn play(&mut self, player: Player, cell: &str) -> Result<(), HexError> {
        let name = cell.to_ascii_lowercase();
        if name == "swap-pieces" || name == "swap" {
            return self.swap(player);
        }
        let n = self.size;
        let i = Cell::parse(cell, n)?.index(n);
        if (self.black | self.white).has(i) {
            return Err(HexError::Occupied(cell.to_string()));
        }
        match player {
            Player::Black => self.black = self.black.with(i),
            Player::White => self.white = self.white.with(i),
        }
        self.history.push(Step::Stone { player, cell: i });
        Ok(())
    }

    /// The swap move: White takes Black's first and only stone.
    fn swap(&mut self, player: Player) -> Result<(), HexError> {
        let first = self.black.first();
        let only_black_stone = self.black.count() == 1 && self.white.is_empty();
        let (Player::White, Some(from), true) = (player, first, only_black_stone) else {
            return Err(HexError::BadPosition(
                "the swap is White's reply to Black's first stone, on an otherwise empty board"
                    .into(),
            ));
        };
        let n = self.size;
        let to = Cell::from_index(from, n);
        let to = Cell { x: to.y, y: to.x }.index(n);
        self.black = Bitboard::EMPTY;
        self.white = Bitboard::single(to);
        self.history.push(Step::Swap { from, to });
        Ok(())
    }

    /// Takes the last step back.
    pub fn undo(&mut self) -> Result<(), HexError> {
        let step = self.history.pop().ok_or(HexError::NothingToUndo)?;
        match step {
            Step::Stone { player, cell } => match player {
                Player::Black => self.black = self.black.minus(Bitboard::single(cell)),
                Player::White => self.white = self.white.minus(Bitboard::single(cell)),
            },
            Step::Swap { from, to } => {
                self.white = self.white.minus(Bitboard::single(to));
                self.black = self.black.with(from);
            }
        }
        Ok(())
    }

    /// Empties the board, for a new game of the same size.
    pub fn clear(&mut self) {
        (self.black, self.white) = (Bitboard::EMPTY, Bitboard::EMPTY);
        self.history.clear();
    }

    /// The board as a diagram (`.`, `B`, `W`), the side to move left out.
    #[must_use]
    pub fn diagram(&self) -> String {
        // The diagram does not show the side to move; any side will do.
        Position::from_setup(self.size, self.black, self.white, Player::Black)
            .map(|p| p.to_string())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_reflects_the_first_stone_and_undo_restores_it() {
        let mut game = Game::new(5).unwrap();
        assert!(game.play(Player::White, "swap-pieces").is_err());
        game.play(Player::Black, "b4").unwrap();
        assert!(game.play(Player::Black, "swap-pieces").is_err());
        game.play(Player::White, "swap-pieces").unwrap();
        let p = game.position(Player::Black).unwrap();
        let d2 = Cell::parse("d2", 5).unwrap().index(5);
        assert_eq!(
            (p.black(), p.white()),
            (Bitboard::EMPTY, Bitboard::single(d2))
        );
        assert_eq!(game.next_player(), Player::Black);
        game.undo().unwrap();
        let p = game.position(Player::White).unwrap();
        assert_eq!(
            p.black(),
            Bitboard::single(Cell::parse("b4", 5).unwrap().index(5))
        );
        assert!(p.white().is_empty());
    }

    #[test]
    fn a_loaded_position_is_where_undo_stops() {
        let mut game = Game::from_sgf("(;GM[11]SZ[3];AB[a1];W[b2];B[c3])", Some(1)).unwrap();
        assert_eq!(game.position(Player::Black).unwrap().stones(), 2);
        game.play(Player::Black, "c1").unwrap();
        game.undo().unwrap();
        assert!(game.undo().is_err());
        assert_eq!(game.position(Player::Black).unwrap().stones(), 2);
        game.clear();
        assert_eq!(game.position(Player::Black).unwrap().stones(), 0);
    }
}
