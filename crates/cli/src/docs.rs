//! `zermelo completions` and `zermelo man`: shell completions and manual pages generated from the
//! command-line definitions themselves (clap_complete, clap_mangen), so they never drift from
//! what the program accepts.

use std::path::PathBuf;

use anyhow::Context;
use clap_complete::Shell;

use crate::output::outln;

/// Print a shell completion script to stdout.
///
/// Install, for example: `zermelo completions bash >
/// ~/.local/share/bash-completion/completions/zermelo`, `zermelo completions zsh >
/// ~/.zfunc/_zermelo` (a folder on $fpath), `zermelo completions fish >
/// ~/.config/fish/completions/zermelo.fish`; or run scripts/install.sh.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

/// Write the manual pages: zermelo.1 and one page per subcommand (zermelo-hex-solve.1, ...).
///
/// Install, for example: `zermelo man --out ~/.local/share/man/man1`, then `man zermelo`.
#[derive(clap::Args)]
pub struct ManArgs {
    /// The folder to write the pages into (created if needed).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// Runs `zermelo completions`.
pub fn completions(args: CompletionsArgs, mut command: clap::Command) -> anyhow::Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "zermelo", &mut script);
    // Through outln!, so that a closed pipe ends the program quietly like every command.
    outln!("{}", String::from_utf8_lossy(&script).trim_end())?;
    Ok(())
}

/// Runs `zermelo man`.
pub fn man(args: ManArgs, command: clap::Command) -> anyhow::Result<()> {
    crate::output::prepare_out_dir(&args.out)?;
    let mut command = command.disable_help_subcommand(true);
    command.build();
    let mut written = 0;
    write_pages(&command, &args.out, &mut written)?;
    outln!("wrote {written} manual pages to {}", args.out.display())?;
    Ok(())
}

/// Writes the page of `command` and of each of its subcommands, each atomically.
fn write_pages(
    command: &clap::Command,
    dir: &std::path::Path,
    written: &mut usize,
) -> anyhow::Result<()> {
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub, dir, written)?;
    }
    let page = clap_mangen::Man::new(command.clone());
    let mut text = Vec::new();
    page.render(&mut text)
        .with_context(|| format!("cannot render the page of {}", command.get_name()))?;
    zermelo_store::atomic_write(&dir.join(page.get_filename()), &text)?;
    *written += 1;
    Ok(())
}
