#!/usr/bin/env bash
# A list of Hex solves run two ways on the same cores: one job at a time with every thread
# (`batch run --threads T`), or P single-thread jobs side by side (`batch run --parallel P
# --threads 1`), P = T. The two ways take turns within each round, so that both see the same
# load on a shared machine. Prints every run's wall seconds (the whole batch, fresh results
# folder), then the median of each way and their ratio, and checks that both ways give the same
# results (`batch merge`, which leaves out everything about the run).
#
# Usage: scripts/bench-parallel.sh                    (nine 7x7 openings, 2 cores, 3 rounds)
#        CORES=16 ROUNDS=5 scripts/bench-parallel.sh
#        ZERMELO=/tmp/zermelo-old scripts/bench-parallel.sh   (another binary, not built)
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
# shellcheck source=scripts/smoke-common.sh
source scripts/smoke-common.sh
build_zermelo
CORES=${CORES:-2}
ROUNDS=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The openings, the longest first: a runner takes the jobs in file order.
{
    echo '[defaults]'
    echo 'tt_mb = 256'
    for opening in a3 g1 a2 b2 d2 a1 b1 c1 c2; do
        printf '\n[[job]]\nname = "7x7-%s"\nkind = "hex-solve"\nsize = 7\nmoves = "%s"\nall = false\n' \
            "$opening" "$opening"
    done
} > "$tmp/jobs.toml"

# run NAME ARGS...: one batch into a fresh folder; prints its wall seconds.
run() {
    local name=$1 start end
    shift
    rm -rf "${tmp:?}/$name"
    start=$(date +%s.%N)
    "$ZERMELO" batch run "$tmp/jobs.toml" --out "$tmp/$name" "$@" 2> /dev/null > /dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

one=$tmp/one.txt
side=$tmp/side.txt
for round in $(seq "$ROUNDS"); do
    a=$(run one --threads "$CORES")
    b=$(run side --parallel "$CORES" --threads 1)
    printf 'round %s: one job at a time on %s threads %7.2f s, %s jobs side by side %7.2f s\n' \
        "$round" "$CORES" "$a" "$CORES" "$b"
    echo "$a" >> "$one"
    echo "$b" >> "$side"
    "$ZERMELO" batch merge "$tmp/one" --out "$tmp/one" > /dev/null
    "$ZERMELO" batch merge "$tmp/side" --out "$tmp/side" > /dev/null
    cmp -s <(jq -S .results "$tmp/one/batch.json") <(jq -S .results "$tmp/side/batch.json") ||
        die "the two ways gave different results"
done

m1=$(median < "$one")
m2=$(median < "$side")
echo
printf 'median: one at a time %.2f s, side by side %.2f s, ratio %.3f (same results)\n' \
    "$m1" "$m2" "$(echo "$m2 / $m1" | bc -l)"
