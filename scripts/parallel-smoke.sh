#!/usr/bin/env bash
# Smoke test of scripts/parallel.sh with GNU parallel over two hosts: an ssh login to this
# machine (through an sshd of the test's own) and `:` (this machine without ssh).
#
#   sudo scripts/parallel-smoke.sh      # about 2 minutes here, 4 with the install and the build
#
# 1. Installs what is missing (Debian: parallel, rsync, openssh-server, openssh-client, jq) and
#    builds zermelo (release; set ZERMELO to use another executable).
# 2. In a temporary folder: host and user keys, an sshd on a free port of 127.0.0.1 that
#    accepts only that key, and an ssh config naming it `zermelo-smoke-host` (given to
#    parallel through PARALLEL_SSH). Nothing under /etc or ~/.ssh is touched.
# 3. Runs jobs/smoke.toml on one machine, for reference.
# 4. Runs parallel.sh with 3 shards over the two hosts. When the runner of the long Grundy job
#    has checkpointed it, it is sent SIGTERM (as a time limit or a Ctrl-C would): it
#    checkpoints, its folder comes back, and parallel.sh must exit non-zero without merging.
#    The same command again must skip the finished jobs, resume the long one from its
#    checkpoint, and merge.
# 5. Compares the merged results with the single run: the same results, the same tables byte
#    for byte.
# sshd is stopped and the folder removed on exit, pass or fail (KEEP=1 keeps the folder).
# Prints PASS or FAIL last; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/smoke-common.sh
source scripts/smoke-common.sh

[[ $(id -u) -eq 0 ]] || die "run as root: it installs packages and starts an sshd"

tmp=$(mktemp -d /tmp/zermelo-parallel.XXXXXX)
made_run_sshd=
runner=
# GNU parallel keeps a folder of its own in the home folder; removed at the end if it is new.
[[ -e $HOME/.parallel ]] && made_dot_parallel= || made_dot_parallel=1

cleanup() {
    local rc=$?
    set +e
    smoke_remove_policy
    if [[ -n $runner ]] && kill -0 "$runner" 2>/dev/null; then
        kill "$runner"
        wait "$runner"
    fi
    local pid
    if pid=$(cat "$tmp/ssh/sshd.pid" 2>/dev/null); then
        kill "$pid"
    fi
    [[ -n $made_run_sshd ]] && rmdir /run/sshd 2>/dev/null
    [[ -n $made_dot_parallel ]] && rm -rf "$HOME/.parallel"
    smoke_finish parallel "$rc" "$tmp"/run-*.log "$tmp/ssh/sshd.log"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

need_packages parallel parallel rsync rsync /usr/sbin/sshd openssh-server ssh openssh-client jq jq
build_zermelo

say "starting sshd for the ssh host"
mkdir -m 700 "$tmp/ssh"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/ssh/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/ssh/id"
cp "$tmp/ssh/id.pub" "$tmp/ssh/authorized_keys"
port=$(free_port)
cat >"$tmp/ssh/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $tmp/ssh/host_key
PidFile $tmp/ssh/sshd.pid
AuthorizedKeysFile $tmp/ssh/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
EOF
cat >"$tmp/ssh/config" <<EOF
Host zermelo-smoke-host
    HostName 127.0.0.1
    Port $port
    User $(id -un)
    IdentityFile $tmp/ssh/id
    IdentitiesOnly yes
    UserKnownHostsFile $tmp/ssh/known_hosts
    StrictHostKeyChecking no
    BatchMode yes
    LogLevel ERROR
EOF
# sshd's privilege separation folder.
if [[ ! -d /run/sshd ]]; then
    mkdir -m 755 /run/sshd
    made_run_sshd=1
fi
/usr/sbin/sshd -f "$tmp/ssh/sshd_config" -E "$tmp/ssh/sshd.log" || die "sshd did not start"
export PARALLEL_SSH="ssh -F $tmp/ssh/config"
# sshd may return before it listens.
for ((i = 0; ; i++)); do
    $PARALLEL_SSH zermelo-smoke-host true 2>"$tmp/ssh/first.log" && break
    ((i < 20)) || die "ssh to zermelo-smoke-host failed: $(cat "$tmp/ssh/first.log")"
    sleep 0.5
done
printf '1/zermelo-smoke-host\n1/:\n' >"$tmp/hosts"

jobs_file=$PWD/jobs/smoke.toml
reference_run "$jobs_file" "$tmp/single"

results=$tmp/results
run_parallel() { # LOG: parallel.sh over the two hosts, 3 shards
    scripts/parallel.sh "$jobs_file" "$results" "$tmp/hosts" 3 >"$tmp/$1" 2>&1
}

say "run 1: scripts/parallel.sh over zermelo-smoke-host and : (3 shards)"
run_parallel run-1.log &
runner=$!
# The long job's folder: under ~/.parallel/tmp on the ssh host, or here on `:`.
table=
for ((i = 0; i < 240; i++)); do
    table=$(compgen -G "$HOME/.parallel/tmp/*/shard-*/officers.zgt" ||
        compgen -G "$results/shard-*/officers.zgt" || true)
    [[ -n $table ]] && break
    kill -0 "$runner" 2>/dev/null || die "parallel.sh ended before the long job checkpointed"
    sleep 0.5
done
[[ -n $table ]] || die "no checkpoint of the long job within 120 s"
table=${table%%$'\n'*}
folder=${table%/*}
lock=$(compgen -G "$folder/.lock.*-of-3")
pid=$(cat "$lock")
sleep 3
say "stopping the runner of ${folder##*/} (pid $pid) in ${folder%/*}"
kill -TERM "$pid"
rc=0
wait "$runner" || rc=$?
runner=
((rc != 0)) || die "parallel.sh succeeded although a runner was stopped"
grep -q 'run the same command again' "$tmp/run-1.log" || die "parallel.sh did not say to run again"
[[ ! -e $results/batch.json ]] || die "parallel.sh merged unfinished shards"
shard=${folder##*/}
checkpointed=$("$ZERMELO" grundy show "$results/$shard/officers.zgt" --json | jq .computed)
say "parallel.sh exited $rc; $shard came back with $checkpointed values checkpointed"
grep -h 'interrupted\|did not finish' "$tmp/run-1.log" | sed 's/^/    run 1: /'
[[ -z $(compgen -G "$HOME/.parallel/tmp/*/shard-*") ]] || die "parallel left folders in ~/.parallel/tmp"

say "run 2: the same command"
run_parallel run-2.log || die "the second run failed: $(tail -n 3 "$tmp/run-2.log")"
echo "    run 2: $(grep -c 'already done' "$tmp/run-2.log") jobs already done"
grep -h 'resuming\|merged' "$tmp/run-2.log" | sed 's/^/    run 2: /'
grep -q "officers: resuming from its checkpoint ($((checkpointed + 1)) of" "$tmp/run-2.log" ||
    die "the long job did not resume from its checkpoint of $((checkpointed + 1)) values"
say "sshd accepted $(grep -c 'Accepted publickey' "$tmp/ssh/sshd.log") ssh sessions (commands, transfers, returns, cleanups)"
[[ -z $(compgen -G "$HOME/.parallel/tmp/*/shard-*") ]] || die "parallel left folders in ~/.parallel/tmp"
compare_results "$results" "$tmp/single"
