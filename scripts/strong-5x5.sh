#!/usr/bin/env bash
# The strong solution of 5x5 Hex, normal and misère: every position's value by layered
# retrograde analysis (zermelo hex strong), then results/hex/5x5-strong.json and .md from the
# finished databases, and the checks of the search and of the committed opening tables against
# them (the ignored tests of crates/batch/tests/strong_search.rs).
#
# Each rule takes about 1.8 hours of layer time on 2 cores and 6.1 GiB of memory (its two largest
# layers), and 19 GiB of disk. A run stopped anywhere goes on from its last finished layer when
# the script is run again; each run's peak memory is kept beside the layers (run-*.time, from
# /usr/bin/time), and the JSON gives the largest.
#
# Usage: scripts/strong-5x5.sh [DIR] [THREADS]
#   DIR: where the databases go, DIR/normal and DIR/misere (default runs/strong-5x5)
#   THREADS: default one per core
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-runs/strong-5x5}
threads=(${2:+--threads "$2"})
if [[ ! -x /usr/bin/time ]]; then
  echo "strong-5x5: /usr/bin/time is needed to measure peak memory (apt install time)" >&2
  exit 1
fi
cargo build --release -q -p zermelo
bin=target/release/zermelo

flags() { [[ $1 == misere ]] && echo --misere || true; }

for rules in normal misere; do
  out=$dir/$rules
  mkdir -p "$out"
  # shellcheck disable=SC2046
  /usr/bin/time -v -o "$out/run-$(date -u +%Y%m%dT%H%M%SZ).time" \
    "$bin" hex strong --size 5 $(flags "$rules") --out "$out" "${threads[@]}"
done

# One rule's entry of the JSON: its layers from the database (nothing is recomputed once every
# layer is there), the sum of their seconds and the largest peak memory of its runs.
solution() {
  local rules=$1 out=$dir/$1 kb
  kb=$(grep -h "Maximum resident set size" "$out"/run-*.time | awk '{print $NF}' | sort -n | tail -1)
  # shellcheck disable=SC2046
  "$bin" hex strong --size 5 $(flags "$rules") --out "$out" --json |
    jq --arg rules "$rules" --argjson kb "$kb" '{
      rules: $rules,
      layers: (.layers | sort_by(.stones)
        | map({stones, positions, terminal, mover_wins, seconds, checksum})),
      seconds: ([.layers[].seconds] | add),
      peak_memory_bytes: ($kb * 1024)
    }'
}

json=results/hex/5x5-strong.json
{ solution normal; solution misere; } |
  jq -s --arg version "$("$bin" --version | awk '{print $2}')" '{
    kind: "hex-strong-results",
    size: 5,
    zermelo_version: $version,
    solutions: .
  }' > "$json.tmp"
mv "$json.tmp" "$json"

# The Markdown page: per rule, the first player's result, the totals and every layer.
md=results/hex/5x5-strong.md
jq -r '
  def gib: . / 1073741824 * 10 | round / 10 | tostring + " GiB";
  "# The strong solution of 5x5 Hex",
  "",
  "Every position of the 5x5 board with as many black stones as white or one more, in normal and misère play, solved by layered retrograde analysis (`zermelo hex strong`), each layer from the one above it. Written by `scripts/strong-5x5.sh` from the databases; the layer files themselves (19 GiB per rule) are not committed.",
  "",
  "Positions: every placement in the layer. Terminal: those where a player has already connected. Mover wins: the other positions that the side to move wins.",
  (.solutions[] |
    "",
    "## " + (if .rules == "normal" then "Normal play" else "Misère play" end),
    "",
    "The first player " + (if .layers[0].mover_wins == 1 then "wins" else "loses" end) + " the empty board. "
      + ([.layers[].positions] | add | tostring) + " positions in "
      + (.seconds | round | tostring) + " s of computation, peak memory "
      + (.peak_memory_bytes | gib) + ".",
    "",
    "| stones | positions | terminal | mover wins | seconds | checksum |",
    "|---:|---:|---:|---:|---:|---|",
    (.layers[] | "| \(.stones) | \(.positions) | \(.terminal) | \(.mover_wins) | \(.seconds * 10 | round / 10) | \(.checksum) |")
  )' "$json" > "$md.tmp"
mv "$md.tmp" "$md"
echo "strong-5x5: $json and $md written"

ZERMELO_STRONG_DB="$dir/normal:$dir/misere" \
  cargo test --release -q -p zermelo-batch --test strong_search -- --ignored
