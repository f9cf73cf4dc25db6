#!/usr/bin/env bash
# zermelo batch on a Slurm cluster: one job-array task per shard of a job file.
#
#   sbatch --array=0-7 scripts/slurm-array.sh jobs/overnight.toml results/overnight
#   # when every task has ended:
#   zermelo batch status results/overnight
#   zermelo batch merge results/overnight --out results/overnight
#   zermelo batch report results/overnight
#
# - The array size is the number of shards: `zermelo batch run` reads SLURM_ARRAY_TASK_ID,
#   SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT and runs only its shard (a deterministic,
#   cost-balanced split of the jobs, the same on every node). Use a contiguous array (0-7 or
#   1-8, not 1,3,5).
# - Every task writes into the same results folder (on a shared filesystem): each job has
#   its own files, and a lock per shard keeps a resubmitted task from racing a running one.
# - Threads: SLURM_CPUS_PER_TASK (set with --cpus-per-task) for every job whose threads
#   neither the job nor the job file's [defaults] sets.
# - PARALLEL (default 1): jobs of the shard run at once (`batch run --parallel`), the task's
#   CPUs shared among them: `PARALLEL=8 sbatch --cpus-per-task=8 --array=0-3 ...` runs eight
#   single-thread jobs at a time in each task, which gets a list of Hex openings done sooner
#   than one job on eight threads.
# - Time limit: --signal=B:TERM@120 makes Slurm send SIGTERM to this script two minutes
#   before the limit. The script `exec`s zermelo, so zermelo receives it: the running job
#   writes its checkpoint (Grundy tables) and zermelo exits with what is finished. Submit the
#   same command again and every task skips finished jobs and resumes checkpointed ones.
# - Requeue (--requeue): a task that Slurm requeues (preemption, `scontrol requeue`) gets
#   SIGTERM first and checkpoints; started again, it resumes its shard the same way (after a
#   node failure, from the last periodic checkpoint). --open-mode=append keeps the log of every
#   attempt in the task's log file.
# - Options after the results folder go to `zermelo batch run`: `--only 8x8-a1,8x8-b1` runs
#   those jobs of the file alone, and the array deals them out (scripts/slurm-hex-8x8.sh).
# - ZERMELO: the zermelo executable (default: zermelo on PATH, else target/release/zermelo).
# - scripts/slurm-smoke.sh runs this script on a one-node Slurm cluster started on this
#   machine: an array over jobs/smoke.toml, one task requeued mid-run, merged and compared with
#   a single run.
#
#SBATCH --job-name=zermelo-batch
#SBATCH --cpus-per-task=4
#SBATCH --mem=8G
#SBATCH --time=12:00:00
#SBATCH --signal=B:TERM@120
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=zermelo-batch-%A_%a.log
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: sbatch --array=0-N scripts/slurm-array.sh JOBS.toml RESULTS_DIR [OPTION...]" >&2
    exit 2
fi
jobs=$1
out=$2
shift 2
zermelo=${ZERMELO:-$(command -v zermelo || echo target/release/zermelo)}

parallel=${PARALLEL:-1}
if ! [[ $parallel =~ ^[1-9][0-9]*$ ]]; then
    echo "slurm-array.sh: PARALLEL must be a number of jobs, 1 or more, not '$parallel'" >&2
    exit 2
fi
threads=$((${SLURM_CPUS_PER_TASK:-1} / parallel))
((threads >= 1)) || threads=1

# A cluster log: a progress line every minute.
exec "$zermelo" batch run "$jobs" --out "$out" \
    --threads "$threads" --parallel "$parallel" --log-every 60 "$@"
