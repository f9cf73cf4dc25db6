#!/usr/bin/env bash
# Checks the documentation as a reader meets it: every `zermelo` command example of README.md and
# of the book (docs/src/*.md) runs as written, and every relative link points at a file (and a
# heading) that exists. CI runs it after the release build.
#
#   scripts/check-docs.sh [FILE.md...]      # default: README.md docs/src/*.md
#
# Examples. In a fenced code block marked sh, bash, shell or console, a line is an example when
# its first word is `zermelo` or when it pipes into `| zermelo` (in a console block only the
# lines that start with `$ `, which is dropped; a line ending in `\` goes on on the next). Blocks
# marked text are synopses and are never run: put placeholders like FILE or [--all] there.
#
# Each page's examples run in document order in a fresh temporary folder of their own, holding a
# copy of jobs/ and results/, with the release binary first on PATH and standard input empty.
# So an example reads the repository's job files and results by their usual relative paths, and
# writes (relative paths) into that folder, which is removed afterwards; a later example of the
# same page may read what an earlier one wrote.
#
# Each example has TIMEOUT seconds (default 5). It passes when it exits 0 within them, or is
# still running at the end (it started fine; it is then stopped with SIGTERM). An example
# expected to fail says so with a comment on its line: `# exits N` (for example
# `zermelo hex solve --size 12   # exits 1`); it passes when it exits with status N within the
# timeout. Any other status fails the check, which prints the example's last lines of output.
#
# Environment: ZERMELO (the binary; default target/release/zermelo, which must exist), TIMEOUT.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

zermelo=${ZERMELO:-target/release/zermelo}
[[ -x $zermelo ]] || {
    echo "check-docs: $zermelo not found: cargo build --release -p zermelo first" >&2
    exit 1
}
zermelo=$(realpath "$zermelo")
timeout_secs=${TIMEOUT:-5}
if (($# > 0)); then files=("$@"); else files=(README.md docs/src/*.md); fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$zermelo" "$work/bin/zermelo"

# extract FILE: one example a record, "LINE<TAB>COMMAND", in document order.
extract() {
    awk '
        function flush() { if (cmd != "") print start "\t" cmd; cmd = "" }
        /^[ \t]*```/ {
            if (!inside) {
                lang = $0; sub(/^[ \t]*```/, "", lang); sub(/[ ,].*/, "", lang)
                inside = 1
                run = (lang == "sh" || lang == "bash" || lang == "shell" || lang == "console")
                console = (lang == "console")
            } else { inside = 0; flush() }
            next
        }
        !inside || !run { next }
        {
            line = $0; sub(/^[ \t]+/, "", line)
            if (cmd != "") {                     # a continued line
                cont = sub(/\\$/, "", line); cmd = cmd " " line
                if (!cont) flush()
                next
            }
            if (console) { if (line !~ /^\$ /) next; sub(/^\$ /, "", line) }
            if (line !~ /^zermelo([ \t]|$)/ && line !~ /\| *zermelo[ \t]/) next
            start = NR
            cont = sub(/\\$/, "", line); cmd = line
            if (!cont) flush()
        }
    ' "$1"
}

# anchor TEXT: the id mdBook gives a heading: lower case, letters, digits, - and _ kept, every
# space a hyphen, the rest dropped.
anchors() {
    awk '/^```/ { inside = !inside; next }
         !inside && /^#+ / {
             h = $0; sub(/^#+ +/, "", h); h = tolower(h)
             gsub(/[^a-z0-9 _\200-\377-]/, "", h); gsub(/ /, "-", h); print h
         }' "$1"
}

failures=0
examples=0

check_links() {
    local file=$1 dir target path anchor
    dir=$(dirname "$file")
    # Links [text](target) that are neither web addresses nor anchors of the page itself.
    while IFS= read -r target; do
        path=${target%%#*}
        anchor=
        [[ $target == *#* ]] && anchor=${target#*#}
        if [[ ! -e $dir/$path ]]; then
            echo "FAIL $file: link to $target: no such file"
            failures=$((failures + 1))
        elif [[ -n $anchor && $path == *.md ]] && ! anchors "$dir/$path" | grep -qxF "$anchor"; then
            echo "FAIL $file: link to $target: no such heading"
            failures=$((failures + 1))
        fi
    done < <(grep -o '\](\([^)#: ]\+\)\(#[^) ]*\)\?)' "$file" | sed 's/^](//; s/)$//' || true)
}

for file in "${files[@]}"; do
    check_links "$file"
    folder="$work/$(basename "$file" .md)"
    mkdir "$folder"
    cp -r jobs results "$folder/"
    while IFS=$'\t' read -r line cmd; do
        examples=$((examples + 1))
        expect=0
        if [[ $cmd =~ \#[[:space:]]*exits[[:space:]]+([0-9]+) ]]; then expect=${BASH_REMATCH[1]}; fi
        started=$(date +%s.%N)
        status=0
        (cd "$folder" && PATH="$work/bin:$PATH" timeout -k 5 "$timeout_secs" \
            bash -c "$cmd" </dev/null >"$work/out" 2>&1) || status=$?
        seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
        if [[ $status -eq 124 || $status -eq 137 ]] && [[ $expect -eq 0 ]]; then
            echo "ok   $file:$line  (still running after ${timeout_secs} s)  $cmd"
        elif [[ $status -eq $expect ]]; then
            echo "ok   $file:$line  (${seconds} s)  $cmd"
        else
            echo "FAIL $file:$line: exit status $status, expected $expect: $cmd"
            tail -n 5 "$work/out" | sed 's/^/     | /'
            failures=$((failures + 1))
        fi
    done < <(extract "$file")
done

echo "check-docs: $examples examples, $failures failures"
[[ $failures -eq 0 ]]
