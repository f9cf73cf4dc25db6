#!/usr/bin/env bash
# Smoke test of scripts/slurm-array.sh under a real Slurm: a one-node cluster on this machine.
#
#   sudo scripts/slurm-smoke.sh         # about 3 minutes here, 5 with the install and the build
#
# 1. Installs what is missing (Debian: slurmctld, slurmd, slurm-client, munge, jq) and builds
#    zermelo (release; set ZERMELO to use another executable).
# 2. In a temporary folder: a munge key and munged on its own socket, a slurm.conf for this host
#    (its CPUs, no cgroups: proctrack/linuxproc, task/none, no accounting; free ports), and
#    slurmctld and slurmd, as root. Nothing under /etc is touched.
# 3. Runs jobs/smoke.toml on one machine, for reference.
# 4. Submits slurm-array.sh as an array of 3 tasks numbered 1-3 (so the shard is the task id
#    less SLURM_ARRAY_TASK_MIN) over one shared results folder, each task running two jobs at
#    a time (PARALLEL=2). When the task that runs the long Grundy job has checkpointed it,
#    `scontrol requeue` kills that task (SIGTERM: it checkpoints) and puts it back in the
#    queue; it must resume from the checkpoint. Then
#    `scancel` kills it again, and the whole array is submitted again, as after a time limit:
#    the other tasks find their jobs done and the cancelled one resumes.
# 5. Merges the shards' folder with `zermelo batch merge` and compares it with the single run:
#    the same results, the same tables byte for byte.
# Daemons are stopped and the folder removed on exit, pass or fail (KEEP=1 keeps the folder).
# Prints PASS or FAIL last; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/smoke-common.sh
source scripts/smoke-common.sh
# shellcheck source=scripts/slurm-cluster.sh
source scripts/slurm-cluster.sh

[[ $(id -u) -eq 0 ]] || die "run as root: it installs packages and starts munged, slurmctld, slurmd"

slurm_folder

jobs_submitted=()
trap 'slurm_cleanup slurm' EXIT
trap 'exit 130' INT TERM

need_packages slurmctld slurmctld slurmd slurmd sbatch slurm-client munged munge jq jq
build_zermelo

slurm_start

jobs_file=$PWD/jobs/smoke.toml
reference_run "$jobs_file" "$tmp/single"

results=$tmp/array
# The header's 4 CPUs, 8 GB and 12 hours do not fit this node: a CPU and a little memory a task.
# Each task runs two jobs of its shard at once (PARALLEL), so the requeue stops both.
submit() {
    PARALLEL=2 sbatch --parsable --array=1-3 --cpus-per-task=1 --mem=200M --time=15:00 \
        --output="$tmp/logs/task-%a.log" scripts/slurm-array.sh "$jobs_file" "$results"
}
# The long job's table holds more values than N.
checkpoint_beyond() {
    local n
    n=$("$ZERMELO" grundy show "$results/officers.zgt" --json 2>/dev/null | jq .computed) || return 1
    ((n > $1))
}
values_in_checkpoint() {
    "$ZERMELO" grundy show "$results/officers.zgt" --json | jq .computed
}

array=$(submit)
jobs_submitted+=("$array")
say "submitted array job $array (tasks 1-3) over jobs/smoke.toml"

# Which task runs the long job: the one whose log says it started it.
wait_until 120 "a checkpoint of the long job" checkpoint_beyond 0
task=$(grep -l 'officers started' "$tmp"/logs/task-*.log | head -n 1 | sed 's/.*task-\([0-9]*\)\.log/\1/')
[[ -n $task ]] || die "no task log says the long job started"
wait_until 60 "a second checkpoint" checkpoint_beyond "$(values_in_checkpoint)"

say "requeueing task $task (running the long job; $(values_in_checkpoint) values checkpointed)"
scontrol requeue "${array}_$task"
wait_until 60 "the requeued task's return to the queue" \
    bash -c "[[ \$(scontrol -o show job ${array}_$task | grep -o 'JobState=[A-Z]*') == JobState=PENDING ]]"
# Read while the task is pending, before anything can write the table again.
checkpointed=$(values_in_checkpoint)
# Slurm holds a requeued job back for two minutes (its begin time); a smoke test need not wait
# that long, but must not start it in the same second as the requeue: slurmd revokes the old
# run's credential with a one-second timestamp and refuses any credential issued up to that
# second ("Job credential revoked"), which ends the task instead of restarting it.
sleep 2
scontrol update JobId="${array}_$task" StartTime=now
say "task $task is pending again with $checkpointed values checkpointed"
wait_until 60 "the requeued task's start" bash -c "grep -q 'officers: resuming' '$tmp/logs/task-$task.log'"
line=$(grep 'officers: resuming' "$tmp/logs/task-$task.log" | tail -n 1)
echo "    task $task log: $line"
[[ $line == *"resuming from its checkpoint ($((checkpointed + 1)) of"* ]] ||
    die "the requeued task did not resume from its checkpoint of $((checkpointed + 1)) values"

wait_until 60 "a checkpoint after the requeue" checkpoint_beyond "$checkpointed"
say "cancelling task $task (scancel) with $(values_in_checkpoint) values checkpointed"
scancel "${array}_$task"
wait_until 300 "the end of array job $array" array_ended "$array"
for t in 1 2 3; do
    st=$(task_state "$array" "$t")
    want=COMPLETED
    [[ $t == "$task" ]] && want=CANCELLED
    [[ $st == "$want" ]] || die "task $t ended $st, not $want"
done
[[ $("$ZERMELO" batch status "$results" --json | jq -r '.jobs[] | select(.name == "officers") | .state') == checkpointed ]] ||
    die "the cancelled long job is not checkpointed: $("$ZERMELO" batch status "$results")"
checkpointed=$(values_in_checkpoint)
say "array $array ended; task $task cancelled with $checkpointed values checkpointed"

array2=$(submit)
jobs_submitted+=("$array2")
say "submitted the same array again: job $array2"
wait_until 300 "the end of array job $array2" array_ended "$array2"
for t in 1 2 3; do
    st=$(task_state "$array2" "$t")
    [[ $st == COMPLETED ]] || die "task $t of the second array ended $st"
done
echo "    task logs: $(cat "$tmp"/logs/task-*.log | grep -c 'already done') jobs found already done by the second array"
grep -h 'resuming\|interrupted' "$tmp/logs/task-$task.log" | sed "s/^/    task $task log: /"

"$ZERMELO" batch status "$results"
resumed=$(jq .provenance.resumed_from "$results/officers.json")
[[ $resumed == $((checkpointed + 1)) ]] ||
    die "the long job resumed from $resumed values, not from its checkpoint of $((checkpointed + 1))"
say "the long job finished from its checkpoint (resumed_from $resumed, shard $(jq -r .provenance.shard "$results/officers.json"))"
"$ZERMELO" batch merge "$results" --out "$tmp/merged"
compare_results "$tmp/merged" "$tmp/single"
