#!/usr/bin/env bash
# Whole-run timings of the Hex solver.
#
# 1. `zermelo hex openings` for each size on 1 and 2 threads: wall seconds of the whole process,
#    total nodes and the number of winning openings. The 4x4 run is the simple baseline of the
#    same run, since shared machines are noisy: compare ratios, not absolute times, across
#    machines.
# 2. For sizes 6 and up, every opening on its own (`hex solve --moves CELL`, one thread, a fresh
#    process and table each): nodes and seconds, with a time limit per opening (LIMIT seconds,
#    default 600); an opening over the limit prints "timeout". Openings whose 180° rotation was
#    already listed are skipped (same value, same work).
#
# Usage: scripts/bench-hex.sh [SIZES...]    (default: 4 5 6; 7 takes long)
#        LIMIT=60 scripts/bench-hex.sh 7    (per-opening limit)
#        OPENINGS=0 scripts/bench-hex.sh 7  (whole runs only)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p zermelo
bin=target/release/zermelo
sizes=("$@")
[ $# -gt 0 ] || sizes=(4 5 6)
limit=${LIMIT:-600}

printf '%-6s %-8s %-10s %-10s %s\n' size threads wall_s nodes winning_openings
for n in "${sizes[@]}"; do
  for t in 1 2; do
    start=$(date +%s.%N)
    read -r nodes wins < <("$bin" hex openings --size "$n" --threads "$t" --no-plies --json |
      python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["nodes"], len(d["winning_openings"]))')
    end=$(date +%s.%N)
    printf '%-6s %-8s %-10.2f %-10s %s\n' "${n}x$n" "$t" "$(echo "$end - $start" | bc)" "$nodes" "$wins"
  done
done

[ "${OPENINGS:-1}" = 1 ] || exit 0
letters=(a b c d e f g h i j k)
for n in "${sizes[@]}"; do
  [ "$n" -ge 6 ] || continue
  echo
  printf '%-8s %-8s %-10s %s\n' opening winner nodes seconds
  for ((i = 0; i <= (n * n - 1) / 2; i++)); do
    cell="${letters[i % n]}$((i / n + 1))"
    if out=$(timeout "$limit" "$bin" hex solve --size "$n" --moves "$cell" --threads 1 --json); then
      python3 -c 'import json,sys; d=json.loads(sys.argv[2]); print("%-8s %-8s %-10s %.2f" % (sys.argv[1], d["winner"], d["nodes"], d["seconds"]))' "$cell" "$out"
    else
      printf '%-8s %-8s %-10s >%s\n' "$cell" timeout - "$limit"
    fi
  done
done
