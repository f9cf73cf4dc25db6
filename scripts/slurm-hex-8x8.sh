#!/usr/bin/env bash
# jobs/hex-8x8.toml as a Slurm array: some of its openings solved again on a one-node Slurm
# cluster started on this machine, and each value compared with the one found on one machine.
#
#   sudo scripts/slurm-hex-8x8.sh REFERENCE_DIR [JOB...]
#
# - REFERENCE_DIR: the results folder of `zermelo batch run jobs/hex-8x8.toml --out DIR` on one
#   machine, with the records of the chosen jobs.
# - JOB...: the jobs to run (default: the first three of the file, 8x8-a1 8x8-b1 8x8-c1).
# 1. Installs what is missing (as scripts/slurm-smoke.sh does) and builds zermelo (release; set
#    ZERMELO to use another executable).
# 2. Starts the cluster of scripts/slurm-cluster.sh in a temporary folder.
# 3. Submits scripts/slurm-array.sh over jobs/hex-8x8.toml with `--only JOB,...`: one task per
#    job, one CPU and one thread each, into a fresh results folder (no proofs to start from).
# 4. Compares each job's winner with the reference record's, and prints both winning moves
#    (either is a winning move; two searches may find different ones) and both times.
# Takes as long as the jobs take on one thread, two at a time on two cores: about 10 minutes
# for the first three on the 2-core machine the project measures on. Daemons are stopped and
# the folder removed on exit (KEEP=1 keeps it). Prints PASS or FAIL last.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/smoke-common.sh
source scripts/smoke-common.sh
# shellcheck source=scripts/slurm-cluster.sh
source scripts/slurm-cluster.sh

[[ $# -ge 1 ]] || die "usage: sudo scripts/slurm-hex-8x8.sh REFERENCE_DIR [JOB...]"
[[ $(id -u) -eq 0 ]] || die "run as root: it installs packages and starts munged, slurmctld, slurmd"
reference=$(realpath "$1")
shift
jobs_file=$PWD/jobs/hex-8x8.toml
if (($# == 0)); then
    set -- 8x8-a1 8x8-b1 8x8-c1
fi
names=("$@")
for name in "${names[@]}"; do
    [[ -e $reference/$name.json ]] || die "$reference has no record of $name"
done

slurm_folder
jobs_submitted=()
trap 'slurm_cleanup "hex 8x8 Slurm"' EXIT
trap 'exit 130' INT TERM

need_packages slurmctld slurmctld slurmd slurmd sbatch slurm-client munged munge jq jq
build_zermelo
slurm_start

results=$tmp/array
count=${#names[@]}
only=$(IFS=,; echo "${names[*]}")
# The default 8x8 table is 2048 MiB: each task gets 3 GB.
array=$(sbatch --parsable --array=1-"$count" --cpus-per-task=1 --mem=3G --time=120:00 \
    --output="$tmp/logs/task-%a.log" scripts/slurm-array.sh "$jobs_file" "$results" --only "$only")
jobs_submitted+=("$array")
say "submitted array job $array (tasks 1-$count) over jobs/hex-8x8.toml --only $only"
wait_until 7200 "the end of array job $array" array_ended "$array"
# Slurm forgets a finished task after MinJobAge (5 minutes), so the records say how each ended.
status=$("$ZERMELO" batch status "$results" --json)
for name in "${names[@]}"; do
    st=$(jq -r --arg n "$name" '.jobs[] | select(.name == $n) | .state' <<<"$status")
    [[ $st == done ]] || die "$name is ${st:-missing} after the array"
done

printf '    %-8s %-8s %-8s %-14s %s\n' job winner single "moves" "seconds (array, single)"
for name in "${names[@]}"; do
    [[ -e $results/$name.json ]] || die "the array wrote no record of $name"
    got=$(jq -r .result.winner "$results/$name.json")
    want=$(jq -r .result.winner "$reference/$name.json")
    moves="$(jq -r .result.winning_move "$results/$name.json") $(jq -r .result.winning_move "$reference/$name.json")"
    seconds="$(jq -r .provenance.wall_seconds "$results/$name.json") $(jq -r '.provenance.total_wall_seconds // .provenance.wall_seconds' "$reference/$name.json")"
    printf '    %-8s %-8s %-8s %-14s %s\n' "$name" "$got" "$want" "$moves" "$seconds"
    [[ $got == "$want" ]] || die "$name: the array found $got the winner, the single machine $want"
done
say "the array's $count values equal the single machine's"
