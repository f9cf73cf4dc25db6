//! `zermelo nim`: analyse a position given as a list of components (Nim heaps, octal heaps,
//! subtraction heaps, pieces): P or N, its value and every winning move.

use crate::output::outln;
use clap::Args as ClapArgs;
use serde_json::json;
use zermelo_grundy::sum::{self, Component};
use zermelo_grundy::GrundyError;

/// Analyse a position: P or N, its value (the nim-sum of its components) and every winning
/// move.
///
/// Components: `7` (a Nim heap), `0.77:10` (a heap of 10 in the octal game 0.77),
/// `S(1,3,4):12` and `allbut(2):9` (subtraction games), `wythoff(3,5)`, `knight(2,5,8)`,
/// `rook(3,4)` (a piece on a cell; the third number, the side of the board, matters for the
/// knight, which may move away from the corner: without it the board is the smallest that
/// holds the cell, and the output names it).
///
/// Nim in disguise, each in its own notation, its winning moves said in its own terms:
/// `hackenbush:0-1,1-2,2-0` (a Green Hackenbush drawing, vertex 0 the ground),
/// `staircase:3,0,2` (coins on steps 1, 2, …; step 0 is the floor), `nimble:1,4,7` (the
/// squares of the coins, 0 the leftmost), `coins:.o..oo.o` (a strip, `o` a coin, no jumping),
/// `turtles:THHTHT` (heads and tails at places 1, 2, …), `northcott:8:1-6,3-4` (rows, then the
/// white and black rows of each column), `plainim:.o.o,oo..` (the rows of a board, `o` a
/// piece), `queen:3,5` (a queen moving towards the corner 0,0).
#[derive(ClapArgs)]
pub struct Args {
    /// The components of the position.
    #[arg(required = true, allow_negative_numbers = true)]
    components: Vec<String>,
    /// Misère play: whoever makes the last move loses (Nim heaps, one subtraction heap, or
    /// small heaps of one octal game).
    #[arg(long)]
    misere: bool,
    /// The most positions the misère search of octal heaps may remember (about 96 bytes
    /// each); refused beyond the memory available.
    #[arg(long, value_name = "N", default_value_t = zermelo_grundy::misere::DEFAULT_LIMIT)]
    positions: usize,
    /// Moore's Nim_k: a move may take from up to K heaps (Nim heaps only).
    #[arg(long, value_name = "K", default_value_t = 1)]
    k: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `zermelo nim`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let components: Vec<Component> = args
        .components
        .iter()
        .map(|c| c.parse())
        .collect::<Result<_, _>>()?;
    if args.k == 0 {
        anyhow::bail!("--k must be at least 1");
    }
    let analysis = if args.k > 1 {
        let heaps = sum::nim_heaps(&components, &format!("Moore's Nim_{}", args.k))?;
        sum::moore(&heaps, args.k, args.misere)?
    } else if args.misere {
        let per = zermelo_grundy::misere::BYTES_PER_POSITION as u128;
        crate::memory::ensure_fits(
            &format!("a misère search of {} positions", args.positions),
            args.positions as u128 * per,
            |available| format!("--positions {} fits", u128::from(available) / per),
        )?;
        sum::analyse_misere(&components, args.positions).map_err(|e| match e {
            GrundyError::PositionLimit { .. } => {
                anyhow::anyhow!("{e}; raise the bound with --positions N")
            }
            e => e.into(),
        })?
    } else {
        sum::analyse(&components)?
    };
    let outcome = if analysis.p_position { "P" } else { "N" };
    if args.json {
        let moves: Vec<_> = analysis
            .winning_moves
            .iter()
            // Numbered from 1, as in the text output and the order the components were given.
            .map(|m| json!({"component": m.component + 1, "to": m.to}))
            .collect();
        let out = json!({
            "position": args.components,
            "misere": args.misere,
            "k": args.k,
            "component_values": analysis.component_values,
            "value": analysis.value,
            "outcome": outcome,
            "winning_moves": moves,
        });
        outln!("{out}")?;
        return Ok(());
    }
    let names: Vec<String> = components.iter().map(|c| c.to_string()).collect();
    let play = match (args.misere, args.k) {
        (false, 1) => "normal play".to_string(),
        (true, 1) => "misère play".to_string(),
        (false, k) => format!("Moore's Nim_{k}"),
        (true, k) => format!("misère Moore's Nim_{k}"),
    };
    outln!("position: {} ({play})", names.join(" + "))?;
    if let Some(v) = analysis.value {
        outln!("value: {v}")?;
    }
    if analysis.p_position {
        outln!("P-position: the player to move loses")?;
    } else {
        outln!("N-position: the player to move wins")?;
        if analysis.winning_moves.is_empty() {
            outln!("(no move is needed: in misère play, having no move wins)")?;
        }
        for m in &analysis.winning_moves {
            outln!(
                "  winning move in component {} ({}): -> {}",
                m.component + 1,
                names[m.component],
                m.to
            )?;
        }
    }
    Ok(())
}
