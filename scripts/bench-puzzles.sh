#!/usr/bin/env bash
# Benzene's df-pn puzzle suite as an outside benchmark: every puzzle of
# BENZENE_DIR/regression/dfpn-puzzle.tst on boards up to MAX_SIZE, solved by
# `zermelo hex solve --sgf FILE --to-move COLOUR --json` with a time limit of SECONDS each, with
# `--considered` where the puzzle asks for the winning moves: the suite's own question, the
# winning moves among those the solver keeps (not every winning move, which `--all` asks).
#
# Usage: scripts/bench-puzzles.sh BENZENE_DIR [MAX_SIZE] [SECONDS]   (defaults: 7 and 60)
#
# The suite file pairs each position (`loadsgf sgf/puzzles/NAME.sgf`) with one command and its
# expected answer on the next line (`#? [...]`); lines starting with `#` are comments, so puzzles
# commented out there are not run. Two commands occur:
#   ID dfpn-solve-state COLOUR          expected: the winner with COLOUR to move, e.g. [white]
#   ID dfpn-solver-find-winning COLOUR  expected: COLOUR's winning moves among those the other
#                                       solver considers, e.g. [c4 e4]; [] when COLOUR loses
# So the expected winner is COLOUR when the list is not empty, and its opponent when it is; and
# zermelo agrees when its winner is the expected one and every listed move is among the winning
# moves it lists. The two solvers prune differently: a listed move that zermelo does not
# consider (it proves it no better than one it keeps) is checked against every winning move
# (`--all`, in a run of its own, not counted, within the same limit), and named on standard
# error.
# A dfpn-solve-state puzzle asks for the winner alone, and zermelo is asked for that alone: with
# every winning move asked as well, 9x9-boll-02, whose winner zermelo finds in 20 nodes, was not
# done in 60 s.
#
# Columns: puzzle, size, expected winner, zermelo's winner, solved (within the limit), agreed,
# wall seconds of the whole process. TT_MB=N passes --tt-mb N (default: zermelo's, by size).
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 3 ]; then
  echo "usage: $0 BENZENE_DIR [MAX_SIZE] [SECONDS]" >&2
  exit 2
fi
suite_dir="$1/regression"
max_size="${2:-7}"
limit="${3:-60}"
suite="$suite_dir/dfpn-puzzle.tst"
[ -f "$suite" ] || { echo "error: $suite not found (give the Benzene source directory)" >&2; exit 1; }
[[ "$max_size" =~ ^[0-9]+$ ]] || { echo "error: MAX_SIZE must be a number, not '$max_size'" >&2; exit 1; }
[[ "$limit" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "error: SECONDS must be a number, not '$limit'" >&2; exit 1; }

cd "$(dirname "$0")/.."
cargo build --release -q -p zermelo
bin="$PWD/target/release/zermelo"
tt=()
[ -z "${TT_MB:-}" ] || tt=(--tt-mb "$TT_MB")

# One line per puzzle: sgf path, command, colour, expected list (brackets removed).
puzzles=$(awk '
  /^loadsgf / { sgf = $2 }
  /^[0-9]+ dfpn-(solve-state|solver-find-winning) / { cmd = $2; colour = $3; pending = 1; next }
  pending && /^#\? *\[/ {
    expected = $0
    sub(/^#\? *\[/, "", expected)
    sub(/\]\*?[ \t]*$/, "", expected)
    print sgf "|" cmd "|" colour "|" expected
    pending = 0
  }
' "$suite")

opponent() { if [ "$1" = black ]; then echo white; else echo black; fi; }

printf '%-26s %-5s %-9s %-9s %-7s %-7s %s\n' puzzle size expected zermelo solved agreed seconds
total=0 solved=0 agreed=0 skipped=0
total_s=0
while IFS='|' read -r sgf cmd colour expected; do
  file="$suite_dir/$sgf"
  name=$(basename "$sgf" .sgf)
  size=$(grep -o 'SZ\[[0-9]*\]' "$file" | head -1 | tr -dc '0-9')
  if [ -z "$size" ] || [ "$size" -gt "$max_size" ]; then
    skipped=$((skipped + 1))
    continue
  fi
  read -r -a listed <<<"$expected"
  if [ "$cmd" = dfpn-solve-state ]; then
    want="${listed[0]:-?}"
    listed=()
  elif [ ${#listed[@]} -gt 0 ]; then
    want="$colour"
  else
    want=$(opponent "$colour")
  fi
  start=$(date +%s.%N)
  status=0
  list=(--considered)
  [ "$cmd" = dfpn-solver-find-winning ] || list=()
  out=$(timeout "$limit" "$bin" hex solve --sgf "$file" --to-move "$colour" "${list[@]}" --json \
    "${tt[@]}" 2>&1) || status=$?
  end=$(date +%s.%N)
  secs=$(echo "$end - $start" | bc)
  total=$((total + 1))
  total_s=$(echo "$total_s + $secs" | bc)
  got=- ok=no agree=no
  if [ "$status" -eq 0 ]; then
    ok=yes
    solved=$((solved + 1))
    # The winner, and whether every listed move is among zermelo's winning moves.
    check='
import json, sys
v = json.load(sys.stdin)
listed = sys.argv[1:]
missing = [m for m in listed if m not in v["winning_moves"]]
print(v["winner"], "yes" if not missing else "missing:" + ",".join(missing))
'
    verdict=$(printf '%s' "$out" | python3 -c "$check" "${listed[@]}")
    got=${verdict%% *}
    moves=${verdict#* }
    if [ "$moves" != yes ]; then
      # A listed move zermelo does not consider (it proves it no better than one it keeps) is
      # checked against every winning move, in a run of its own that is not counted (within the
      # same limit, so that a batch cannot hang on it; past it the move stays unconfirmed).
      every=$(timeout "$limit" "$bin" hex solve --sgf "$file" --to-move "$colour" --all --json \
        "${tt[@]}" 2>&1) || true
      if [ "$(printf '%s' "$every" | python3 -c "$check" "${listed[@]}")" = "$got yes" ]; then
        echo "  $name: ${moves#missing:} not among the moves zermelo considers, and winning" >&2
        moves=yes
      fi
    fi
    if [ "$got" = "$want" ] && [ "$moves" = yes ]; then
      agree=yes
      agreed=$((agreed + 1))
    elif [ "$moves" != yes ]; then
      agree="no($moves)"
    fi
  elif [ "$status" -ne 124 ]; then
    got="error"
    echo "  $name: $out" >&2
  fi
  printf '%-26s %-5s %-9s %-9s %-7s %-7s %.2f\n' "$name" "${size}x$size" "$want" "$got" "$ok" \
    "$agree" "$secs"
done <<<"$puzzles"
printf 'total: %d puzzles up to %dx%d, %d solved within %s s each, %d agreed, %.1f s in all' \
  "$total" "$max_size" "$max_size" "$solved" "$limit" "$agreed" "$total_s"
printf ' (%d larger puzzles skipped)\n' "$skipped"
