#!/usr/bin/env bash
# The misère 6x6 benchmark: each opening, then the empty board, searched on its own by
# `zermelo hex solve --misere` with a time limit, one after the other. An opening and its 180°
# rotation have the same value, so only the first of each pair is searched. Prints a Markdown
# table (how many openings a limit settles; the overnight run is scripts/misere-6x6.sh).
#
# Usage: scripts/bench-misere-6x6.sh [SECONDS_PER_POSITION] [THREADS] [TT_MB]   (default: 120 1 2048)
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-120}
threads=${2:-1}
tt=${3:-2048}
cargo build --release -q -p zermelo
bin=target/release/zermelo
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# Prints "value nodes seconds" for one position (value: "win"/"loss" for Black, the first
# player, whoever is to move, or "open" when the limit ran out).
solve() {
  local json
  if json=$(timeout "$limit" "$bin" hex solve --size 6 --misere --threads "$threads" \
    --tt-mb "$tt" --json "$@" 2>/dev/null); then
    python3 -c 'import json,sys; d=json.loads(sys.argv[1])
print("win" if d["winner"] == "black" else "loss", d["nodes"], "%.1f" % d["seconds"])' "$json"
  else
    echo "open - $limit"
  fi
}

cells=()
for y in 1 2 3 4 5 6; do
  for x in a b c d e f; do cells+=("$x$y"); done
done
{
  echo "# Misère 6x6: what a time limit per position settles"
  echo
  echo "Each position searched by \`zermelo hex solve --size 6 --misere --threads $threads"
  echo "--tt-mb $tt\` with a limit of $limit s (\`scripts/bench-misere-6x6.sh $limit $threads $tt\`)."
  echo "\"open\" means the limit ran out. An opening and its 180° rotation have the same value;"
  echo "the second of each pair is not searched again."
  echo
  echo "| opening | first player | nodes | seconds |"
  echo "|---------|--------------|-------|---------|"
} >"$tmp"
declare -A value
for i in "${!cells[@]}"; do
  cell=${cells[$i]}
  twin=${cells[$((35 - i))]}
  if [ -n "${value[$twin]:-}" ]; then
    value[$cell]=${value[$twin]}
    echo "| $cell | ${value[$cell]} (as $twin) | | |" >>"$tmp"
    continue
  fi
  read -r v nodes secs < <(solve --moves "$cell")
  # solve() names the winner as Black or not, and Black made the opening.
  case $v in
    win) v=wins ;;
    loss) v=loses ;;
  esac
  value[$cell]=$v
  echo "| $cell | $v | $nodes | $secs |" | tee -a "$tmp" >&2
done
read -r v nodes secs < <(solve)
case $v in
  win) line="the first player wins ($nodes nodes, $secs s)" ;;
  loss) line="the first player loses ($nodes nodes, $secs s)" ;;
  *) line="open after $secs s" ;;
esac
{
  echo
  echo "Empty board: $line."
} >>"$tmp"
cat "$tmp"
