#!/usr/bin/env bash
# Every 8x8 opening (jobs/hex-8x8.toml) as a run that goes on from machine to machine through
# the repository. A job's proof file holds millions of positions, too many to commit, and is
# lost with the machine; what a finished opening needs is its record and one proof. So the
# finished openings are kept in results/hex/8x8-run (committed): each done job's record, the job
# file, and their openings' proofs alone (`hex proofs merge --max-stones 1`) in
# 8x8-openings.proofs. A job stopped before its end keeps, in results/hex/8x8-run/open, the
# proofs of its positions with at most OPEN_STONES stones (default 8: the subtrees proven near
# its root, about a tenth of its proofs) and its parts' times, and goes on from them.
#
# Usage: scripts/hex-8x8.sh [HOURS] [THREADS] [PARALLEL]
#                                   restore, run for HOURS (default 10) PARALLEL jobs at a time
#                                   (default 1) with THREADS each (default: the cores shared
#                                   among them), keep, report
#        scripts/hex-8x8.sh keep    keep what runs/hex-8x8 has finished, report
#
# 1. Restore: the kept records are copied into runs/hex-8x8, where the batch skips their jobs.
# 2. Run: `zermelo batch run jobs/hex-8x8.toml --out runs/hex-8x8`, stopped by SIGTERM after
#    HOURS (it saves its proofs: a rerun on the same machine goes on from them). On 2 cores,
#    two single-thread jobs at once (`scripts/hex-8x8.sh HOURS 1 2`) get more done than one
#    job on both.
# 3. Keep: the done jobs' records and their openings' proofs into results/hex/8x8-run, the
#    stopped jobs' shallow proofs and parts into results/hex/8x8-run/open.
# 4. Report: `hex openings --proven-only` from the kept proofs and records writes
#    results/hex/8x8-openings.{json,md,svg} once every opening is proven, and
#    results/hex/8x8-report.md (the openings proven so far, their time, and those open) until
#    then.
# Needs jq (to read `batch status --json`).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v jq > /dev/null || { echo "hex 8x8: needs jq" >&2; exit 1; }
cargo build --release -q -p zermelo
bin=${ZERMELO:-target/release/zermelo}
run=runs/hex-8x8
kept=results/hex/8x8-run
roots=$kept/8x8-openings.proofs
open_stones=${OPEN_STONES:-8}

restore() {
  mkdir -p "$run"
  local file
  # The done jobs' records, and a stopped job's shallow proofs and parts unless this machine
  # has its own.
  for file in "$kept"/8x8-*.json "$kept"/open/8x8-*; do
    [[ -e $file ]] || continue
    [[ -e $run/$(basename "$file") ]] || cp "$file" "$run/"
  done
}

# jobs STATE: the names of the jobs of the run in that state.
jobs() {
  "$bin" batch status "$run" --json | jq -r --arg s "$1" '.jobs[] | select(.state == $s) | .name'
}

keep() {
  mkdir -p "$kept"
  local name proofs=()
  for name in $(jobs done); do
    cp "$run/$name.json" "$kept/"
    rm -f "$kept/open/$name".*
  done
  for name in $(jobs checkpointed); do
    mkdir -p "$kept/open"
    "$bin" hex proofs merge "$kept/open/$name.proofs" "$run/$name.proofs" \
      --max-stones "$open_stones"
    [[ ! -e $run/$name.parts.json ]] || cp "$run/$name.parts.json" "$kept/open/"
  done
  cp "$run/jobs.toml" "$kept/"
  if [[ -e $roots ]]; then proofs+=("$roots"); fi
  for name in "$run"/8x8-*.proofs; do
    if [[ -e $name ]]; then proofs+=("$name"); fi
  done
  if ((${#proofs[@]} > 0)); then
    "$bin" hex proofs merge "$roots" "${proofs[@]}" --max-stones 1
  fi
}

report() {
  local status=0
  [[ -e $roots ]] || { echo "hex 8x8: no opening proven yet"; return; }
  "$bin" hex openings --size 8 --proofs "$roots" --proven-only --batch "$kept" \
    --out results/hex > /dev/null || status=$?
  case $status in
    0) echo "hex 8x8: every opening is proven: results/hex/8x8-openings.{json,md,svg}" ;;
    3) echo "hex 8x8: openings still open: results/hex/8x8-report.md" ;;
    *) return "$status" ;;
  esac
}

if [[ ${1:-} == keep ]]; then
  keep
  report
  exit
fi
hours=${1:-10}
threads=(${2:+--threads "$2"} --parallel "${3:-1}")
restore
status=0
timeout --signal=TERM --kill-after=300 "${hours}h" \
  "$bin" batch run jobs/hex-8x8.toml --out "$run" "${threads[@]}" || status=$?
case $status in
  0) echo "hex 8x8: every job is done" ;;
  124) echo "hex 8x8: stopped after $hours h; run the script again to go on" ;;
  # 1: stopped by a signal (it says so above, with the job it checkpointed) or a job failed.
  *) echo "hex 8x8: the batch run ended with exit status $status (see its last lines); what is done is kept" >&2 ;;
esac
keep
report
