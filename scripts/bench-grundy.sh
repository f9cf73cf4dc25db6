#!/usr/bin/env bash
# Whole runs of zermelo's Sprague–Grundy engine, timed end to end (release build), for the speed
# bars in the book (docs/src/benchmarks.md, Octal games). The machine may be shared, so a baseline (the naive reference engine
# on a smaller table) is timed in the same run: compare the bars against it, not against figures
# taken at another time.
#
# Usage: scripts/bench-grundy.sh             (every run on 1 thread, then on 2)
#        THREADS=2 scripts/bench-grundy.sh   (on 2 threads only; THREADS is a list)
#        Z=/tmp/zermelo-old scripts/bench-grundy.sh   (another binary, not built: to time an
#                                                      old and a new build one after the other)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${Z:-}" ]; then
    cargo build --release -p zermelo >&2
    Z=target/release/zermelo
fi
THREADS=${THREADS:-1 2}

# run LABEL THREADS ARGS...
run() {
    local label="$1 ($2)" threads=$2
    shift 2
    local start end
    start=$(date +%s.%N)
    local json
    json=$("$Z" "$@" --threads "$threads" --json)
    end=$(date +%s.%N)
    printf '%-38s %7.2f s wall   %s\n' "$label" "$(echo "$end - $start" | bc)" "$json"
}

for threads in $THREADS; do
    echo "# the baseline (always one thread), then the bars on $threads thread(s)"
    run "naive 0.6 to 2^15" 1 grundy octal 0.6 --max 2^15 --engine naive
    run "Grundy's game 4!.0 to 2^22" "$threads" grundy octal '4!.0' --max 2^22
    run "Officers 0.6 to 2^22" "$threads" grundy octal 0.6 --max 2^22
    run "Treblecross 0.007 to 2^18" "$threads" grundy octal 0.007 --max 2^18
    run "0.16 period found and proven" "$threads" grundy octal 0.16 --max 2^22 --stop-when-proven
done
