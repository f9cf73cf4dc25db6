#!/usr/bin/env bash
# zermelo batch without Slurm: GNU parallel deals the shards of a job file to ssh hosts,
# brings each shard's results folder back and merges them.
#
#   scripts/parallel.sh JOBS.toml RESULTS_DIR HOSTS_FILE [SHARDS]
#
# - HOSTS_FILE: one ssh login a line, in GNU parallel's --sshloginfile format, e.g.
#   `8/alice@node1` (8 CPUs; "8/" is optional). `:` is this machine, without ssh.
# - SHARDS: how many shards (default: the number of hosts). Each host runs one shard at a
#   time, in RESULTS_DIR/shard-I on the host (relative to the remote home folder), with
#   --threads set to the host's number of CPUs; parallel copies the job file there and the
#   folder back (rsync), and cleans up the remote copy.
# - zermelo must be on the PATH of every host (or set ZERMELO to its path there).
# - Run the same command again after a failure or an interruption: shards that came back
#   complete are skipped on their host too; then `zermelo batch merge` checks every result
#   (checksums, same job file, no two shards disagreeing) and combines them in RESULTS_DIR,
#   with RESULTS_DIR/batch.json holding every result.
# - Ctrl-C: parallel passes it on to the remote runners, which checkpoint and exit.
set -euo pipefail

if [[ $# -lt 3 || $# -gt 4 ]]; then
    echo "usage: scripts/parallel.sh JOBS.toml RESULTS_DIR HOSTS_FILE [SHARDS]" >&2
    exit 2
fi
jobs=$1
out=$2
hosts=$3
shards=${4:-$(grep -cv '^\s*\(#\|$\)' "$hosts")}
zermelo=${ZERMELO:-zermelo}
local_zermelo=${LOCAL_ZERMELO:-$(command -v zermelo || echo target/release/zermelo)}
mkdir -p "$out"

# One shard per job slot of a host; {} is the shard index. The remote command runs in the
# folder where --transferfile put the job file, so paths stay relative.
seq 0 $((shards - 1)) | parallel --sshloginfile "$hosts" --jobs 1 --line-buffer \
    --transferfile "$jobs" --return "$out/shard-{}" --cleanup \
    "$zermelo" batch run "$jobs" --out "$out/shard-{}" --shard "{}/$shards" \
    --threads '$(nproc)' --log-every 60 || status=$?

shopt -s nullglob
folders=("$out"/shard-*)
if [[ ${#folders[@]} -gt 0 ]]; then
    "$local_zermelo" batch merge "${folders[@]}" --out "$out"
fi
exit "${status:-0}"
