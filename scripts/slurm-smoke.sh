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
#    less SLURM_ARRAY_TASK_MIN) over one shared results folder. When the task that runs the
#    long Grundy job has checkpointed it, `scontrol requeue` kills that task (SIGTERM: it
#    checkpoints) and puts it back in the queue; it must resume from the checkpoint. Then
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

[[ $(id -u) -eq 0 ]] || die "run as root: it installs packages and starts munged, slurmctld, slurmd"

# munged checks that every folder above its socket is searchable by all.
tmp=$(mktemp -d /tmp/zermelo-slurm.XXXXXX)
chmod 755 "$tmp"
export SLURM_CONF=$tmp/slurm.conf
# A Slurm job around this script must not decide the shards of the tasks it submits.
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_COUNT SLURM_JOB_ID

cleanup() {
    local rc=$?
    set +e
    smoke_remove_policy
    if [[ -S $tmp/munge/munge.socket ]] && [[ -e $tmp/slurmctld.pid ]]; then
        # Jobs first: slurmd leaves running jobs behind when it stops.
        scancel --quiet --full "${jobs_submitted[@]}" 2>/dev/null
        for _ in $(seq 40); do
            [[ -z $(squeue -h 2>/dev/null) ]] && break
            sleep 1
        done
        scontrol shutdown >/dev/null 2>&1
    fi
    local pidfile pid
    for pidfile in slurmd.pid slurmctld.pid munge/munged.pid; do
        pid=$(cat "$tmp/$pidfile" 2>/dev/null) || continue
        for _ in $(seq 20); do
            kill -0 "$pid" 2>/dev/null || break
            kill "$pid" 2>/dev/null
            sleep 0.5
        done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    done
    smoke_finish slurm "$rc" "$tmp"/logs/*.log "$tmp"/log/slurmctld.log "$tmp"/log/slurmd.log
    exit "$rc"
}
jobs_submitted=()
trap cleanup EXIT
trap 'exit 130' INT TERM

need_packages slurmctld slurmctld slurmd slurmd sbatch slurm-client munged munge jq jq
build_zermelo

say "starting munged, slurmctld and slurmd in $tmp"
mkdir -p "$tmp"/{munge,state,spool,log,logs}
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
    --seed-file="$tmp/munge/munged.seed" ||
    die "munged did not start: $(tail -n 1 "$tmp/munge/munged.log")"

node=$(hostname -s)
ctld_port=$(free_port)
slurmd_port=$(free_port)
[[ $slurmd_port != "$ctld_port" ]] || slurmd_port=$((ctld_port + 1))
memory=$(awk '/^MemTotal/ { print int($2 / 1024) }' /proc/meminfo)
cat >"$SLURM_CONF" <<EOF
# A one-node cluster for the zermelo smoke test (scripts/slurm-smoke.sh).
ClusterName=zermelo-smoke
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
MailProg=/bin/true
# No cgroups (containers seldom may use them): processes are tracked by parent pid.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobRequeue=1
KillWait=30
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=smoke Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld || die "slurmctld did not start"
slurmd -N "$node" || die "slurmd did not start"
for i in $(seq 60); do
    state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
    [[ $state == idle ]] && break
    ((i < 60)) || die "the node is not idle after 60 s (sinfo: ${state:-nothing})"
    sleep 1
done
say "cluster up: $(sinfo -h -o '%P %D node(s) %c CPUs %t')"

jobs_file=$PWD/jobs/smoke.toml
reference_run "$jobs_file" "$tmp/single"

results=$tmp/array
# The header's 4 CPUs, 8 GB and 12 hours do not fit this node: a CPU and a little memory a task.
submit() {
    sbatch --parsable --array=1-3 --cpus-per-task=1 --mem=200M --time=15:00 \
        --output="$tmp/logs/task-%a.log" scripts/slurm-array.sh "$jobs_file" "$results"
}
# task_state ARRAY_JOB TASK: the task's state (PENDING, RUNNING, COMPLETED, …), or nothing.
task_state() {
    scontrol -o show job "$1_$2" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2
}
# wait_until SECONDS WHAT COMMAND...: polls COMMAND every half second.
wait_until() {
    local limit=$1 what=$2 i
    shift 2
    for ((i = 0; i < limit * 2; i++)); do
        "$@" && return 0
        sleep 0.5
    done
    die "$what did not happen within $limit s"
}
array_ended() {
    [[ -z $(squeue -h -j "$1" 2>/dev/null) ]]
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
