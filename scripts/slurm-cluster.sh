# shellcheck shell=bash disable=SC2154  # tmp, jobs_submitted: set by the sourcing script
# A one-node Slurm cluster on this machine, for scripts/slurm-smoke.sh and
# scripts/slurm-hex-8x8.sh (sourced after smoke-common.sh, not run). Everything lives in the
# sourcing script's temporary folder `tmp`, which slurm_folder makes: a munge key and munged
# on its own socket, a slurm.conf for this host (its CPUs, no cgroups: proctrack/linuxproc,
# task/none, no accounting; free ports), and slurmctld and slurmd, as root. Nothing under /etc
# is touched. The sourcing script lists the jobs it submits in `jobs_submitted`, and sets
# `trap 'slurm_cleanup NAME' EXIT`.

# slurm_folder: sets and exports `tmp` (a new temporary folder) and SLURM_CONF in it.
slurm_folder() {
    # munged checks that every folder above its socket is searchable by all.
    tmp=$(mktemp -d /tmp/zermelo-slurm.XXXXXX)
    chmod 755 "$tmp"
    export SLURM_CONF=$tmp/slurm.conf
    # A Slurm job around this script must not decide the shards of the tasks it submits.
    unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_COUNT SLURM_JOB_ID
}

# slurm_start: starts munged, slurmctld and slurmd in `tmp`, and waits for the node.
slurm_start() {
    local node ctld_port slurmd_port memory state i
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
# A one-node cluster for zermelo's Slurm checks (scripts/slurm-cluster.sh).
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
}

# slurm_stop: cancels the submitted jobs and stops the daemons (for an EXIT trap: never fails).
slurm_stop() {
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
}

# slurm_cleanup NAME: the EXIT trap of a Slurm check called NAME: the cluster stopped, then
# smoke_finish with the logs, and the exit status kept.
slurm_cleanup() {
    local rc=$?
    set +e
    smoke_remove_policy
    slurm_stop
    smoke_finish "$1" "$rc" "$tmp"/logs/*.log "$tmp"/log/slurmctld.log "$tmp"/log/slurmd.log
    exit "$rc"
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
