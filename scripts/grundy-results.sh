#!/usr/bin/env bash
# Reproduces results/grundy/: the periods of well-known octal games as computed by zermelo.
# Every periodic game is run until its period is proven (--stop-when-proven); the others to the
# size given. Writes results/grundy/octal-periods.jsonl (zermelo's JSON, one game a line) and
# results/grundy/octal-periods.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p zermelo >&2
Z=target/release/zermelo
OUT=results/grundy
mkdir -p "$OUT"
# code, largest heap to try, name
GAMES=(
    "0.07 2^20 Dawson's Kayles"
    "0.137 2^20 Dawson's chess"
    "0.77 2^20 Kayles"
    "0.16 2^20 -"
    "0.51 2^20 -"
    "0.34 2^20 -"
    "0.71 2^20 -"
    "0.72 2^20 -"
    "0.4 2^20 -"
    "0.15 2^20 -"
    "0.26 2^20 -"
    "0.36 2^20 -"
    "0.56 2^20 -"
    "4.07 2^20 -"
    "0.007 2^16 Treblecross"
    "0.6 2^18 Officers"
    "4!.0 2^18 Grundy's game"
)
: > "$OUT/octal-periods.jsonl"
for entry in "${GAMES[@]}"; do
    read -r code max name <<< "$entry"
    "$Z" grundy octal "$code" --max "$max" --stop-when-proven --json |
        jq -c --arg name "$name" 'del(.seconds) + {name: $name}' >> "$OUT/octal-periods.jsonl"
done
{
    echo "# Periods of octal games computed by zermelo"
    echo
    echo "Produced by \`scripts/grundy-results.sh\` (\`zermelo grundy octal CODE --max N"
    echo "--stop-when-proven --json\`). *computed* is the largest heap computed: for a proven period"
    echo "it is where the proof (the Guy–Smith check) completed; otherwise the N asked for."
    echo
    echo "| code | name | preperiod | period | proven | computed | largest value |"
    echo "|------|------|-----------|--------|--------|----------|---------------|"
    jq -r '"| \(.game) | \(.name) | \(.preperiod // "—") | \(.period // "not periodic up to \(.computed)") | \(.proven) | \(.computed) | \(.max_value) |"' \
        "$OUT/octal-periods.jsonl"
} > "$OUT/octal-periods.md"
cat "$OUT/octal-periods.md"
