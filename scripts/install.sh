#!/bin/sh
# Installs zermelo for the current user: the binary (cargo install, release build), the shell
# completions for bash, zsh and fish, and the manual pages, all under PREFIX (default ~/.local).
#
#   scripts/install.sh                 # then: man zermelo, zermelo <TAB>
#   PREFIX=/opt/zermelo scripts/install.sh
#
# bash finds PREFIX/share/bash-completion/completions by itself when PREFIX is ~/.local; zsh
# needs PREFIX/share/zsh/site-functions on $fpath, and man PREFIX/share/man on its path (both are
# there by default for /usr/local).
set -eu
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-$HOME/.local}
cargo install --locked --path crates/cli --root "$PREFIX"
Z="$PREFIX/bin/zermelo"
mkdir -p "$PREFIX/share/bash-completion/completions" "$PREFIX/share/zsh/site-functions" \
    "$PREFIX/share/fish/vendor_completions.d"
"$Z" completions bash > "$PREFIX/share/bash-completion/completions/zermelo"
"$Z" completions zsh > "$PREFIX/share/zsh/site-functions/_zermelo"
"$Z" completions fish > "$PREFIX/share/fish/vendor_completions.d/zermelo.fish"
"$Z" man --out "$PREFIX/share/man/man1"
"$Z" --version
