#!/usr/bin/env bash
# Whole-run timings of the Hex solver: `zermelo hex openings` for 5x5 and 6x6 on 1 and 2 threads,
# wall seconds of the whole process. The 4x4 run is the simple baseline of the same run, since
# shared machines are noisy: compare ratios, not absolute times, across machines.
#
# Usage: scripts/bench-hex.sh [SIZES...]    (default: 4 5 6)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p zermelo
bin=target/release/zermelo
sizes=("${@:-4 5 6}")
[ $# -gt 0 ] || sizes=(4 5 6)
printf '%-6s %-8s %-10s %s\n' size threads wall_s winning_openings
for n in "${sizes[@]}"; do
  for t in 1 2; do
    start=$(date +%s.%N)
    wins=$("$bin" hex openings --size "$n" --threads "$t" --no-plies --json |
      python3 -c 'import json,sys; print(len(json.load(sys.stdin)["winning_openings"]))')
    end=$(date +%s.%N)
    printf '%-6s %-8s %-10.2f %s\n' "${n}x$n" "$t" "$(echo "$end - $start" | bc)" "$wins"
  done
done
