//! zermelo-hex: Hex on small boards.
//!
//! - [`retro`]: the independent retrograde oracle, every position of a board up to 4x4 solved
//!   bottom-up, used by the tests as ground truth for the search.

pub mod retro;
