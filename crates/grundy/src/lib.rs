//! zermelo-grundy: Sprague–Grundy tables of impartial games.
//!
//! ```
//! use zermelo_grundy::{naive, OctalGame};
//! let kayles: OctalGame = "0.77".parse().unwrap();
//! let g = naive::values(&kayles, 5).unwrap();
//! assert_eq!(g, vec![0, 1, 2, 3, 1, 4]);
//! ```
//!
//! The pieces:
//!
//! - [`OctalGame`]: octal and hexadecimal take-and-break games given by code (Kayles `0.77`,
//!   Dawson's Kayles `0.07`, Grundy's game `4!.0`, …), computed by the [`naive`] reference engine
//!   or the [`SparseEngine`] for record sizes, with [`period`] detection and Guy–Smith proofs.
//! - [`census`]: every octal code of a few digits, classified as periodic (proven), equivalent
//!   to another or unsolved, with rare-value statistics.
//! - [`subtraction`]: subtraction and all-but subtraction games, normal and misère.
//! - [`multiheap`]: retrograde tables over several heaps (Nim, Moore's Nim_k, misère forms).
//! - [`piece`]: one piece moving towards a corner (Wythoff's queen, the knight of "All the King's
//!   Horses", a rook).
//! - [`sum`]: sums of games: values, P or N, and every winning move.
//! - [`misere`]: misère play of positions of octal heaps, by search.
//! - [`hackenbush`]: Green Hackenbush drawings, by the fusion and colon principles.
//! - [`disguise`]: Nim in disguise: Staircase Nim, Nimble, the coin strip, Turning Turtles,
//!   Northcott's game, Plainim.
//!
//! Values are `u16`; a value that would not fit is an error, never a wrap.

pub mod census;
mod count;
pub mod disguise;
mod error;
pub mod hackenbush;
mod mex;
pub mod misere;
pub mod multiheap;
pub mod naive;
mod octal;
pub mod period;
pub mod piece;
mod sliced;
mod sparse;
pub mod subtraction;
pub mod sum;

pub use count::parse_count;
pub use error::GrundyError;
pub use octal::{OctalGame, OctalMove, MAX_DIGITS};
pub use sparse::{SparseEngine, MAX_HEAP};
