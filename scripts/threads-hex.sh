#!/usr/bin/env bash
# One Hex position on several thread counts: how much the shared proof of `hex solve` gains from
# each added thread. The thread counts take turns within each round, so that all see the same
# load on a shared machine. Prints every run (wall seconds of the whole process, nodes), then per
# position and thread count the median wall time, its speedup over the median of the first
# count, and the efficiency (speedup divided by the ratio of thread counts).
#
# Usage: scripts/threads-hex.sh                       (7x7 after a3, a4 and b2; 1 and 2 threads; 5 rounds)
#        THREADS="1 2 8 16" POSITIONS="8:d5 8:b1" ROUNDS=3 scripts/threads-hex.sh
#        ZERMELO=/tmp/zermelo-old scripts/threads-hex.sh   (another binary, not built)
#
# A position is SIZE:MOVES, the moves comma-separated (8:d5,e4). The aims of the project: two
# threads at least 1.6 times one on this 2-core machine, 16 at least 8 times one on a 16-core one.
set -euo pipefail
# A solve that fails inside `$(run …)` stops the script, as it would outside.
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
# shellcheck source=scripts/smoke-common.sh
source scripts/smoke-common.sh
build_zermelo
THREADS=${THREADS:-1 2}
POSITIONS=${POSITIONS:-7:a3 7:a4 7:b2}
ROUNDS=${ROUNDS:-5}
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT

# run SIZE MOVES THREADS: one solve; prints "wall nodes winner"
run() {
    local start end out
    start=$(date +%s.%N)
    out=$("$ZERMELO" hex solve --size "$1" --moves "$2" --threads "$3" --json)
    end=$(date +%s.%N)
    printf '%s %s %s\n' "$(echo "$end - $start" | bc)" \
        "$(grep -o '"nodes":[0-9]*' <<< "$out" | cut -d: -f2)" \
        "$(grep -o '"winner":"[a-z]*"' <<< "$out" | cut -d'"' -f4)"
}

for position in $POSITIONS; do
    size=${position%%:*}
    moves=${position#*:}
    for round in $(seq "$ROUNDS"); do
        for t in $THREADS; do
            line=$(run "$size" "${moves//,/ }" "$t")
            read -r wall nodes winner <<< "$line"
            [ -n "$winner" ] || die "no winner in the output for $position on $t threads"
            printf '%sx%s after %s, round %s, %2s threads: %8.2f s %10s nodes, %s wins\n' \
                "$size" "$size" "$moves" "$round" "$t" "$wall" "$nodes" "$winner"
            echo "$position $t $wall $winner" >> "$runs"
        done
    done
done

echo
echo "position     threads  median_s  speedup  efficiency"
for position in $POSITIONS; do
    # Every run of a position must name the same winner, whatever its thread count.
    if [ "$(awk -v p="$position" '$1 == p { print $4 }' "$runs" | sort -u | wc -l)" != 1 ]; then
        die "the runs of $position disagree on the winner"
    fi
    base=
    first=
    for t in $THREADS; do
        median=$(awk -v p="$position" -v t="$t" '$1 == p && $2 == t { print $3 }' "$runs" | median)
        if [ -z "$base" ]; then
            base=$median
            first=$t
        fi
        speedup=$(echo "$base / $median" | bc -l)
        printf '%-12s %7s  %8.2f  %7.2f  %10.2f\n' "$position" "$t" "$median" "$speedup" \
            "$(echo "$speedup * $first / $t" | bc -l)"
    done
done
