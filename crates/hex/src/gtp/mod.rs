//! The Hex Text Protocol (Hex's flavour of the Go Text Protocol): an [`Engine`] that HexGui
//! and the regression scripts of Hex programs drive through standard input and output.
//!
//! - [`Game`]: the board, stone by stone, with its history for `undo`.
//! - [`parse_line`], [`format_reply`]: the text of commands and replies.
//! - [`Engine`]: the commands, with the names and argument forms of Benzene's engines
//!   (`dfpn-solve-state`, `dfpn-solver-find-winning`, `param_dfpn`, …), answered by the
//!   [`crate::Solver`].
//!
//! ```
//! use zermelo_hex::gtp::{Engine, EngineConfig};
//! let mut engine = Engine::new(EngineConfig { tt_mb: 16, ..EngineConfig::default() });
//! let mut reply = |line: &str| engine.execute(line).map(|r| r.text);
//! assert_eq!(reply("1 boardsize 3 3").unwrap(), "=1 \n\n");
//! assert_eq!(reply("play b b2").unwrap(), "= \n\n");
//! assert_eq!(reply("dfpn-solve-state white").unwrap(), "= black\n\n");
//! assert_eq!(reply("frobnicate").unwrap(), "? unknown command: frobnicate\n\n");
//! assert_eq!(reply("# a comment"), None);
//! ```

mod engine;
mod game;
mod protocol;

pub use engine::{Engine, EngineConfig, Reply, COMMANDS};
pub use game::Game;
pub use protocol::{format_reply, parse_line, CommandLine, Line, MAX_ID};
