#!/usr/bin/env bash
# Reproduces results/hex/: the opening tables of normal Hex 1x1 to 6x6 and of misère Hex 1x1 to
# 5x5 (NxN-openings.* and NxN-misere-openings.*: JSON, Markdown and the SVG board), and misère
# Hex against the parity theorem (misere-parity.*): 1x1 to 6x6 where scripts/misere-6x6.sh has
# left its proofs of the 6x6 openings in runs/misere-6x6, 1x1 to 5x5 otherwise. The winners,
# winning openings and lengths come out the same on every run; node counts, timings and
# checksums differ (the search is parallel), so a rerun changes those lines of the committed
# files and nothing else.
# 6x6-misere-openings.* (or, until every opening is proven, 6x6-misere-report.md) come from
# scripts/misere-6x6.sh.
#
# About 10 seconds on 2 cores (8.2 s measured, the 6x6 openings most of it), or half a minute
# with the 6x6 parity check from the proofs (30.7 s measured, most of it reading them).
# With SEVEN=1 the 7x7 opening table too (7x7-openings.*): about 2 minutes in all on 2 cores
# (1 min 52 s measured with the 6x6 parity check, the 7x7 table 80 s of it).
#
# Usage: scripts/hex-results.sh [THREADS]   (default: one per core)
#        SEVEN=1 scripts/hex-results.sh
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-0}
cargo build --release -q -p zermelo
Z=target/release/zermelo
OUT=results/hex
"$Z" hex openings --size 1-5 --out "$OUT" --threads "$threads"
"$Z" hex openings --size 6 --out "$OUT" --threads "$threads"
if [ "${SEVEN:-0}" = 1 ]; then
  "$Z" hex openings --size 7 --no-plies --out "$OUT" --threads "$threads"
fi
"$Z" hex openings --size 1-5 --misere --out "$OUT" --threads "$threads"
proofs=runs/misere-6x6/misere-6x6.proofs
if [ -e "$OUT/6x6-misere-openings.json" ] && [ -e "$proofs" ]; then
  "$Z" hex parity --max-size 6 --proofs "$proofs" --out "$OUT" --threads "$threads"
else
  "$Z" hex parity --max-size 5 --out "$OUT" --threads "$threads"
fi
