#!/usr/bin/env bash
# One thread against two on the same games, alternating runs so that both see the same load on a
# shared machine: prints each run's wall time and, per game, the best one-thread time divided by
# the best two-thread time (the speedup of the second thread; the aim is 1.7 or more).
#
# Usage: scripts/threads-grundy.sh              (0.6 and 4!.0 to 2^22, 3 rounds)
#        ROUNDS=5 MAX=2^21 scripts/threads-grundy.sh
#        Z=/tmp/zermelo-old scripts/threads-grundy.sh   (another binary, not built)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${Z:-}" ]; then
    cargo build --release -p zermelo >&2
    Z=target/release/zermelo
fi
ROUNDS=${ROUNDS:-3}
MAX=${MAX:-2^22}

# wall GAME THREADS: the seconds of one run
wall() {
    local start end
    start=$(date +%s.%N)
    "$Z" grundy octal "$1" --max "$MAX" --threads "$2" --json > /dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

for game in 0.6 '4!.0'; do
    best1=
    best2=
    for round in $(seq "$ROUNDS"); do
        t1=$(wall "$game" 1)
        t2=$(wall "$game" 2)
        printf '%-5s to %s, round %s: 1 thread %7.2f s, 2 threads %7.2f s\n' "$game" "$MAX" "$round" "$t1" "$t2"
        if [ -z "$best1" ] || [ "$(echo "$t1 < $best1" | bc)" = 1 ]; then best1=$t1; fi
        if [ -z "$best2" ] || [ "$(echo "$t2 < $best2" | bc)" = 1 ]; then best2=$t2; fi
    done
    printf '%-5s to %s: best 1 thread %.2f s, best 2 threads %.2f s, speedup %.2f\n' \
        "$game" "$MAX" "$best1" "$best2" "$(echo "$best1 / $best2" | bc -l)"
done
