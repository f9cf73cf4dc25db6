#!/usr/bin/env bash
# Misère 6x6, every opening, as an overnight batch job (jobs/misere-6x6.toml) that can be
# killed and run again without losing the openings it solved: their proofs are kept in
# runs/misere-6x6/misere-6x6.proofs and a rerun starts from them. The run stops after HOURS (it
# saves its proofs on SIGTERM); then the table is written to results/hex/6x6-misere-openings.*
# once every opening is proven, with misère 1x1 to 6x6 against the parity theorem
# (results/hex/misere-parity.*, the 6x6 openings taken from the proofs), and
# results/hex/6x6-misere-report.md (the openings proven so far and those still open) until then.
#
# Usage: scripts/misere-6x6.sh [HOURS] [THREADS]   (default: 10 and one per core)
set -euo pipefail
cd "$(dirname "$0")/.."
hours=${1:-10}
threads=(${2:+--threads "$2"})
cargo build --release -q -p zermelo
bin=target/release/zermelo
run=runs/misere-6x6
proofs=$run/misere-6x6.proofs

start=$(date +%s)
status=0
timeout --signal=TERM --kill-after=300 "${hours}h" \
  "$bin" batch run jobs/misere-6x6.toml --out "$run" "${threads[@]}" || status=$?
case $status in
  0) echo "misère 6x6: the batch job is done ($(($(date +%s) - start)) s)" ;;
  124) echo "misère 6x6: stopped after $hours h; run the script again to go on" ;;
  *) echo "misère 6x6: the batch run failed (exit $status)" >&2 ;;
esac
if [[ ! -e $proofs ]]; then
  echo "misère 6x6: no proofs saved yet in $proofs" >&2
  exit 1
fi
# Exit status 3: the report is written, with openings still open.
"$bin" hex openings --size 6 --misere --proofs "$proofs" --proven-only --out results/hex \
  || [[ $? -eq 3 ]]
# The report describes an unfinished table: it goes once the table is written.
if [[ -e results/hex/6x6-misere-openings.json ]]; then
  rm -f results/hex/6x6-misere-report.md
  "$bin" hex parity --max-size 6 --proofs "$proofs" --out results/hex "${threads[@]}"
fi
