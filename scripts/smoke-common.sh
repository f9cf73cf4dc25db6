# shellcheck shell=bash disable=SC2154  # tmp: set by the sourcing script
# Helpers of scripts/slurm-smoke.sh and scripts/parallel-smoke.sh (sourced, not run): packages,
# the zermelo build, the single-machine reference run and the comparison with it.
# scripts/threads-hex.sh and scripts/bench-parallel.sh take its build, messages and median
# (build_zermelo, say, die, median).
# The sourcing script sets `tmp` (its temporary folder) before calling them.

smoke_start=$SECONDS
# Set while this script's own policy-rc.d is in place, so that the EXIT trap removes it.
smoke_policy=

say() {
    printf '[%4d s] %s\n' $((SECONDS - smoke_start)) "$*"
}

die() {
    say "FAIL: $*" >&2
    exit 1
}

# A free TCP port on this machine (nothing answers on it).
free_port() {
    local port
    for port in $(shuf -i 20000-60000 -n 100); do
        if ! (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    die "no free port found"
}

# smoke_finish NAME RC LOG...: the end of a smoke test's EXIT trap, once its daemons are
# stopped: on failure, the last lines of each log that exists; the temporary folder removed
# (kept with KEEP=1); PASS or FAIL.
smoke_finish() {
    local name=$1 rc=$2 f
    shift 2
    if ((rc != 0)); then
        for f in "$@"; do
            [[ -e $f ]] || continue
            echo "--- ${f#"$tmp"/}" >&2
            tail -n 15 "$f" >&2
        done
    fi
    if [[ -n ${KEEP:-} ]]; then
        echo "kept $tmp"
    else
        rm -rf "$tmp"
    fi
    if ((rc == 0)); then
        say "PASS: $name smoke test"
    else
        say "FAIL: $name smoke test (exit status $rc)"
    fi
}

# need_packages COMMAND PACKAGE ...: installs with apt-get the packages whose command is
# missing. The packages' init scripts are kept from starting system-wide daemons (munge,
# slurmctld, ssh): the smoke tests start their own, in their temporary folder, and stop them.
need_packages() {
    local missing=()
    while (($# >= 2)); do
        command -v "$1" >/dev/null 2>&1 || missing+=("$2")
        shift 2
    done
    ((${#missing[@]})) || return 0
    [[ $(id -u) -eq 0 ]] || die "root is needed to apt-get install ${missing[*]}"
    say "installing ${missing[*]}"
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        smoke_policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\n# zermelo smoke test: no service starts while it installs packages\nexit 101\n' \
            >"$smoke_policy"
        chmod 755 "$smoke_policy"
    fi
    local rc=0
    {
        apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                "${missing[@]}"
    } >"$tmp/apt.log" 2>&1 || rc=$?
    smoke_remove_policy
    if ((rc != 0)); then
        tail -n 20 "$tmp/apt.log" >&2
        die "apt-get install ${missing[*]} failed"
    fi
}

smoke_remove_policy() {
    if [[ -n $smoke_policy ]]; then
        rm -f "$smoke_policy"
        smoke_policy=
    fi
}

# build_zermelo: sets and exports ZERMELO, the absolute path of the executable: $ZERMELO when
# set, else a release build of this checkout.
build_zermelo() {
    if [[ -z ${ZERMELO:-} ]]; then
        say "building zermelo (cargo build --release -p zermelo)"
        cargo build --release -p zermelo --quiet
        ZERMELO=target/release/zermelo
    fi
    ZERMELO=$(realpath "$ZERMELO")
    [[ -x $ZERMELO ]] || die "$ZERMELO is not an executable"
    export ZERMELO
}

# reference_run JOBS DIR: the whole job file in one process, merged into DIR/batch.json.
reference_run() {
    say "single-machine run of $1"
    local rc=0
    "$ZERMELO" batch run "$1" --out "$2" >"$2.log" 2>&1 || rc=$?
    if ((rc != 0)); then
        cat "$2.log" >&2
        die "the single-machine run failed"
    fi
    "$ZERMELO" batch merge "$2" --out "$2" >/dev/null
}

# compare_results MERGED SINGLE: the merged results must equal the single run's. Equal: the job
# list and every result in batch.json (the part of a record that does not depend on the run:
# no timings, hosts, shards), and every Grundy table byte for byte.
compare_results() {
    local merged=$1 single=$2 table n=0
    if ! diff <(jq -S '{jobs, results}' "$merged/batch.json") \
        <(jq -S '{jobs, results}' "$single/batch.json") >"$tmp/results.diff"; then
        head -n 40 "$tmp/results.diff" >&2
        die "the merged results differ from the single-machine run's"
    fi
    for table in "$single"/*.zgt; do
        [[ -e $table ]] || continue
        cmp -s "$table" "$merged/${table##*/}" || die "${table##*/} differs from the single run's"
        n=$((n + 1))
    done
    say "merged results equal the single-machine run: $(jq '.results | length' "$merged/batch.json") results in batch.json, $n Grundy tables byte for byte"
}

# median: the median of the numbers on standard input, one a line.
median() {
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
