#!/usr/bin/env bash
# zermelo batch without Slurm: GNU parallel deals the shards of a job file to ssh hosts,
# brings each shard's results folder back and merges them.
#
#   scripts/parallel.sh JOBS.toml RESULTS_DIR HOSTS_FILE [SHARDS]
#
# - HOSTS_FILE: one ssh login a line, in GNU parallel's --sshloginfile format, e.g.
#   `8/alice@node1` (8 CPUs; "8/" is optional). `:` is this machine, without ssh. Set
#   PARALLEL_SSH to give ssh options (e.g. `ssh -F my_ssh_config`); rsync must be installed on
#   every host.
# - SHARDS: how many shards (default: the number of hosts). Each host runs one shard at a
#   time, with --threads set to the host's number of CPUs. Shard I is kept in
#   RESULTS_DIR/shard-I here; on a host it runs in a fresh folder under ~/.parallel/tmp,
#   which receives a copy of the job file and of RESULTS_DIR/shard-I (rsync), and whose
#   shard-I comes back here when the run ends, finished or not; the host's folder is then
#   removed.
# - zermelo must be on the PATH of every host (or set ZERMELO to its path there; LOCAL_ZERMELO
#   is the one that merges here).
# - When every shard is done, `zermelo batch merge` checks every result (checksums, same job
#   file, no two shards disagreeing) and combines them in RESULTS_DIR, with
#   RESULTS_DIR/batch.json holding every result. Otherwise (a failed job, a runner stopped by a
#   signal or Ctrl-C, a lost host) the script says so and exits non-zero: run the same command
#   again, and as every shard's folder goes out with what came back, finished jobs are skipped
#   and checkpointed ones resume, on whichever host gets the shard.
# - scripts/parallel-smoke.sh runs this script over an ssh login to this machine and `:`, with
#   a runner stopped in the middle, and compares the merged results with a single run.
set -euo pipefail

if [[ $# -lt 3 || $# -gt 4 ]]; then
    echo "usage: scripts/parallel.sh JOBS.toml RESULTS_DIR HOSTS_FILE [SHARDS]" >&2
    exit 2
fi
jobs=$(realpath "$1")
out=$2
hosts=$(realpath "$3")
shards=${4:-$(grep -cv '^\s*\(#\|$\)' "$hosts")}
zermelo=${ZERMELO:-zermelo}
local_zermelo=${LOCAL_ZERMELO:-$(command -v zermelo || echo target/release/zermelo)}
if [[ $local_zermelo == */* ]]; then
    local_zermelo=$(realpath "$local_zermelo")
fi
mkdir -p "$out"
cd "$out"

# parallel transfers and returns paths relative to this folder: the job file under a fixed
# name, and one folder per shard (created empty the first time, so that there is one to send).
cp "$jobs" .parallel-jobs.toml
for ((i = 0; i < shards; i++)); do
    mkdir -p "shard-$i"
done

# One shard per job slot of a host; {} is the shard index. `--wd ...` gives each run a fresh
# folder on its host, so that nothing there (a shared home folder, this machine through ssh)
# is overwritten by the transfers or removed by --cleanup. On `:` parallel also runs the
# command in such a folder but transfers nothing, so the command comes back here.
here=$(printf '%q' "$PWD")
run="if [ \"\$PARALLEL_SSHLOGIN\" = : ]; then cd $here || exit; fi;"
run+=" $(printf '%q' "$zermelo") batch run .parallel-jobs.toml --out shard-{}"
run+=" --shard {}/$shards --threads \$(nproc) --log-every 60"
status=0
seq 0 $((shards - 1)) | parallel --sshloginfile "$hosts" --jobs 1 --line-buffer \
    --tagstring "shard {}/$shards" \
    --wd ... --transferfile .parallel-jobs.toml --transferfile 'shard-{}' \
    --return 'shard-{}' --cleanup "$run" || status=$?

if ((status != 0)); then
    echo "parallel.sh: some shards did not finish (GNU parallel's exit status $status); their" \
        "folders in $PWD hold what is done and checkpointed: run the same command again to go on" >&2
    exit "$status"
fi
folders=()
for ((i = 0; i < shards; i++)); do
    folders+=("shard-$i")
done
"$local_zermelo" batch merge "${folders[@]}" --out .
