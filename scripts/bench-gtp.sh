#!/usr/bin/env bash
# Benzene's regression suites, run unchanged by GoGui's regress tool (BENZENE_DIR/regression/
# gtpregress.jar, Java) against `zermelo gtp`, and against Benzene's own mohex when it is built
# in BENZENE_DIR/build.
#
# Suites: dfpn-solve-6x6.tst and dfpn-solve-7x7.tst (every opening and its winner), the
# positions of dfpn-puzzle.tst on boards up to MAX_SIZE (default 7; the regress tool takes one
# file, so their blocks are copied into a temporary file, with the SGF paths made absolute), and
# with EIGHT=1 dfpn-solve-8x8.tst.
#
# Usage: scripts/bench-gtp.sh BENZENE_DIR
#   THREADS=N   zermelo's solver threads (default 2); Benzene keeps its own settings
#   TT_MB=N     zermelo's transposition table in MiB (default 2048)
#   MAX_SIZE=N  the largest puzzle board (default 7)
#   EIGHT=1     also dfpn-solve-8x8.tst
#   PEER=0      zermelo only
#
# Columns: program, suite, tests, passed, failed, wrong, errors, wall seconds. A test fails
# when the reply is not the expected text; it is wrong when it names another winner (a
# solve-state colour, or an empty list of winning moves where one was expected or the other
# way round). A find-winning reply that names the same winner with another list is a failure
# but not wrong: each engine lists the winning moves among those its own inferior-cell
# analysis keeps, and those analyses differ. Each failure is printed below the table.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 BENZENE_DIR" >&2
  exit 2
fi
benzene=$(cd "$1" && pwd)
regression="$benzene/regression"
jar="$regression/gtpregress.jar"
[ -f "$jar" ] || { echo "error: $jar not found (give the Benzene source directory)" >&2; exit 1; }
command -v java >/dev/null || { echo "error: java is needed for gtpregress.jar" >&2; exit 1; }
max_size="${MAX_SIZE:-7}"
[[ "$max_size" =~ ^[0-9]+$ ]] || { echo "error: MAX_SIZE must be a number" >&2; exit 1; }

cd "$(dirname "$0")/.."
cargo build --release -q -p zermelo
zermelo="$PWD/target/release/zermelo gtp --threads ${THREADS:-2} --tt-mb ${TT_MB:-2048}"
mohex="$benzene/build/src/mohex/mohex"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The puzzle blocks on small boards: each `loadsgf` whose board fits, the command after it and
# its expected reply, each puzzle from a clear table as in the suite.
puzzles="$work/dfpn-puzzle-upto-${max_size}x${max_size}.tst"
awk -v max="$max_size" -v dir="$regression" '
  /^loadsgf / {
    size = $2
    sub(/^.*\//, "", size)
    sub(/x.*$/, "", size)
    keep = (size + 0 <= max + 0)
    if (keep) { print "dfpn-clear-tt"; print "loadsgf " dir "/" $2 }
    next
  }
  keep && /^[0-9]+ dfpn-/ { print; next }
  keep && /^#\? / { print; print ""; next }
' "$regression/dfpn-puzzle.tst" >"$puzzles"

suites=("$regression/dfpn-solve-6x6.tst" "$regression/dfpn-solve-7x7.tst" "$puzzles")
[ "${EIGHT:-0}" = 1 ] && suites+=("$regression/dfpn-solve-8x8.tst")
programs=(zermelo)
if [ "${PEER:-1}" = 1 ] && [ -x "$mohex" ]; then
  programs+=(benzene)
fi

failures="$work/failures.txt"
: >"$failures"
printf '%-8s %-28s %5s %6s %6s %5s %6s %8s\n' program suite tests passed failed wrong errors wall_s
for program in "${programs[@]}"; do
  case "$program" in
    zermelo) cmd="$zermelo" ;;
    benzene) cmd="$mohex" ;;
  esac
  for suite in "${suites[@]}"; do
    name=$(basename "$suite" .tst)
    out="$work/$program-$name"
    start=$(date +%s.%N)
    # The regress tool runs the suite from its own folder (the SGF paths are relative to it).
    (cd "$regression" && java -jar "$jar" -long -output "$out" "$cmd" "$suite") \
      >"$out.long" 2>"$out.err" || true
    end=$(date +%s.%N)
    read -r tests fail_new fail_old pass_new pass_old errors _ < <(sed -n 2p "$out/summary.dat")
    # "N FAILED: Correct 'EXPECTED', got 'REPLY'": wrong when the two name different winners.
    wrong=$({ grep -E "^[0-9]+ FAILED" "$out.long" || true; } | python3 -c '
import re, sys
wrong = 0
for line in sys.stdin:
    m = re.match(r"(\d+) FAILED: Correct \x27(.*)\x27, got \x27(.*)\x27", line.strip())
    if not m:
        continue
    want, got = m.group(2).split(), m.group(3).split()
    colours = {"black", "white", "empty"}
    if set(want) & colours or set(got) & colours:
        wrong += want != got and got != ["empty"]
    else:
        wrong += bool(want) != bool(got)
print(wrong)')
    grep -E "^[0-9]+ FAILED" "$out.long" | sed "s|^|$program $name: |" >>"$failures" || true
    printf '%-8s %-28s %5s %6s %6s %5s %6s %8.1f\n' "$program" "$name" "$tests" \
      "$((pass_new + pass_old))" "$((fail_new + fail_old))" "$wrong" "$errors" \
      "$(echo "$end - $start" | bc)"
  done
done
if [ -s "$failures" ]; then
  echo
  echo "failures:"
  cat "$failures"
fi
