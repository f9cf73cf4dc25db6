//! zermelo-hex: Hex on boards from 1x1 to 11x11, solved exactly.
//!
//! ```
//! use zermelo_hex::{Player, Position, Solver, SolverConfig};
//!
//! // 4x4, Black opened on c2 and White answered on b3; Black to move.
//! let solver = Solver::new(SolverConfig { threads: 1, tt_mb: 16, ..SolverConfig::default() })?;
//! let position = Position::from_moves(4, "c2 b3")?;
//! let solution = solver.solve(&position, true)?;
//! assert_eq!(solution.winner, Player::Black);
//! let moves: Vec<String> = solution.winning_moves.unwrap().iter().map(|c| c.to_string()).collect();
//! println!("Black wins with any of {moves:?}");
//! # Ok::<(), zermelo_hex::HexError>(())
//! ```
//!
//! The pieces:
//!
//! - [`Bitboard`], [`Geometry`]: cells as bits of a `u128`, neighbourhoods and connection tests
//!   by shifts.
//! - [`Cell`], [`Position`], [`Player`]: names, moves and diagrams, following HexWiki: Black moves
//!   first and connects row 1 to row n; White connects column a to the last column. A position
//!   may also be set up with any stones and either side to move, or read from HexGui's SGF
//!   ([`Sgf`]).
//! - [`Solver`]: the exact solver (normal or misère play), parallel with rayon, sharing one
//!   lock-free [`TranspositionTable`].
//! - [`ProofSet`]: proven positions kept from one run to the next ([`Solver::with_proofs`]).
//! - [`Solver::perfect_play_length`]: how long the game lasts when the winner hurries and the loser
//!   delays.
//! - [`templates`]: edge templates, found and proven by exhaustive play, and the committed list
//!   the connection engine starts from.
//! - [`retro`]: the independent retrograde oracle, every position of a board up to 4x4 solved
//!   bottom-up, used by the tests as ground truth for the search.
//! - [`strong`]: the layered retrograde engine, every position of a board up to 5x5 solved one
//!   layer of stones at a time (the strong solution), with its dense ranking of positions.

mod bitboard;
mod cell;
mod error;
mod geometry;
pub mod gtp;
mod length;
mod position;
pub mod retro;
mod seqlock;
mod sgf;
mod solver;
pub mod strong;
pub mod templates;
mod tt;

pub use bitboard::{Bitboard, Cells};
pub use cell::Cell;
pub use error::HexError;
pub use geometry::{Geometry, MAX_SIZE};
pub use length::{DEFAULT_LENGTH_SIZE, MAX_LENGTH_SIZE};
pub use position::{Player, Position};
pub use sgf::Sgf;
pub use solver::{
    Between, EdgeLink, Inspection, MoveList, Opening, Proof, ProofSet, Rules, SnapshotCounts,
    Solution, Solver, SolverConfig, PROOF_RECORD_BYTES, SNAPSHOT_ENTRY_BYTES,
};
pub use tt::{TranspositionTable, TtData, MAX_PN, MAX_TT_MB};
