#!/bin/sh
# Single-node Slurm cluster (munged + slurmctld + slurmd) for tests, with all
# state in one directory.
#
#   fixture.sh start DIR   exit 0: up, prints "export SLURM_CONF=DIR/slurm.conf"
#                          exit 77: cannot run here (not root, no slurm): skip
#                          exit 1: failed (log tails on stderr, all stopped)
#   fixture.sh stop DIR    stops everything start launched; idempotent
#   fixture.sh status DIR  exit 0 if the daemons run, else 77; CTest still
#                          runs FIXTURES_REQUIRED tests after a skipped
#                          setup, so they call this to skip too
#
# Env: FLIPCHECK_SLURMCTLD_PORT (16817), FLIPCHECK_SLURMD_PORT (16818); give
# each concurrent fixture its own pair.
set -u
# munged/slurmctld/slurmd live in sbin, often missing from a test's PATH.
PATH=$PATH:/usr/sbin:/sbin
export PATH

usage() { echo "usage: $0 start|stop|status DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
cmd=$1
# Absolute: the daemons chdir, and the path is also our process marker.
case $2 in /*) dir=$2 ;; *) dir=$(pwd)/$2 ;; esac
dir=${dir%/}
conf=$dir/slurm.conf
# Every daemon gets this in its environment, so stop finds exactly our
# processes, and PID reuse cannot make us kill a stranger.
marker="FLIPCHECK_SLURM_FIXTURE=$dir"

is_ours() {
    grep -qzxF "$marker" "/proc/$1/environ" 2>/dev/null
}

# Everything start launched: the recorded daemons (if still ours), any other
# marked process, slurmstepds (they clear their environment, but keep
# DIR/log/slurmd.log open), and all descendants of those (job tasks).
# Zombies are skipped: they cannot be killed, only reaped by their parent.
our_pids() {
    roots=$(
        for f in "$dir"/munged.pid "$dir"/slurmctld.pid "$dir"/slurmd.pid; do
            [ -r "$f" ] && p=$(cat "$f") && is_ours "$p" && echo "$p"
        done
        grep -lzxF "$marker" /proc/[0-9]*/environ 2>/dev/null
        find /proc/[0-9]*/fd -lname "$dir/log/slurmd.log" 2>/dev/null
    )
    roots=$(echo "$roots" | sed -n 's|^/proc/\([0-9]*\)/.*|\1|p; /^[0-9][0-9]*$/p' | tr '\n' ' ')
    ps -A -o pid= -o ppid= -o stat= | awk -v roots="$roots" -v self=$$ '
        $3 !~ /^Z/ { parent[$1] = $2 }
        END {
            n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1
            do { grew = 0
                 for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grew = 1 }
            } while (grew)
            for (p in keep) if ((p in parent) && p != self) print p
        }'
}

stop() {
    # Cancel jobs first while the daemons still run, so slurmstepd ends its
    # tasks cleanly (it outlives slurmd on purpose and ignores SIGTERM).
    if [ -r "$dir/slurmctld.pid" ] && is_ours "$(cat "$dir/slurmctld.pid")"; then
        jobs=$(SLURM_CONF=$conf squeue -h -o %F 2>/dev/null | sort -u)
        if [ -n "$jobs" ]; then
            SLURM_CONF=$conf scancel $jobs 2>/dev/null
            end=$(($(date +%s) + 5))
            while [ "$(date +%s)" -lt $end ] &&
                [ -n "$(SLURM_CONF=$conf squeue -h 2>/dev/null)" ]; do sleep 0.2; done
        fi
    fi
    pids=$(our_pids)
    [ -n "$pids" ] && kill -TERM $pids 2>/dev/null
    end=$(($(date +%s) + 5))
    while [ "$(date +%s)" -lt $end ] && [ -n "$(our_pids)" ]; do sleep 0.2; done
    pids=$(our_pids)
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null && sleep 0.2
    rm -f "$dir"/munged.pid "$dir"/slurmctld.pid "$dir"/slurmd.pid
    [ -z "$(our_pids)" ]
}

skip() { echo "slurm fixture: SKIP: $*" >&2; exit 77; }

fail() {
    echo "slurm fixture: FAILED: $*" >&2
    # *.out is each daemon's stderr: it has the log, plus errors from before
    # the log file was opened (bad slurm.conf, port in use).
    for l in "$dir"/log/*.out; do
        [ -f "$l" ] && { echo "--- $l" >&2; tail -n 20 "$l" >&2; }
    done
    stop
    exit 1
}

# Start DAEMON ARGS... in the foreground of a background job, so $! is its
# PID from the first instant (daemon pid files appear late or never on
# failure).  stdio goes to files: a CTest test would otherwise wait for the
# daemons to close its output pipe.
launch() {
    name=$1; shift
    # cd: keep no hold on the caller's cwd; core files land in DIR.
    (cd "$dir" && exec env "$marker" "$@") </dev/null >>"$dir/log/$name.out" 2>&1 &
    echo $! >"$dir/$name.pid"
}

# Fail unless the named daemons still run: each is our child and not a
# zombie.  Not kill -0: a dead daemon stays a zombie child of this script
# until it exits.  Not is_ours: the marker is in the environment only once
# env has exec'd the daemon, and a busy machine (CI starts this beside other
# tests) can ask before that.  A child's PID cannot be reused while unreaped.
alive() {
    for d; do
        ps -o ppid= -o stat= -p "$(cat "$dir/$d.pid")" 2>/dev/null | {
            read -r ppid stat && [ "$ppid" = $$ ] && [ "${stat#Z}" = "$stat" ]
        } || fail "$d died"
    done
}

start() {
    for p in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
        command -v $p >/dev/null 2>&1 || skip "$p not installed"
    done
    [ "$(id -u)" -eq 0 ] || skip "must run as root (slurmd/slurmstepd need it)"
    # sun_path is 108 bytes; slurmd puts "<node>_<job>.<step>" sockets in
    # the spool dir, so leave room.
    [ ${#dir} -le 70 ] || { echo "slurm fixture: DIR too long for unix sockets (${#dir} > 70): $dir" >&2; exit 1; }
    trap 'fail "interrupted"' INT TERM

    # A previous run in DIR may still be alive or may have left state behind.
    stop || { echo "slurm fixture: could not stop old processes in $dir" >&2; exit 1; }
    rm -rf "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" "$dir/jobcomp.txt"
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" || exit 1
    # munged rejects keys/sockets in group- or world-writable directories
    # (umask 002); 0755 also lets job output of non-root users in.
    chmod 0755 "$dir" "$dir/munge"

    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null &&
        chmod 0400 "$dir/munge/munge.key" || fail "cannot create munge key"
    # --force: munged otherwise refuses e.g. a parent like /tmp/x with odd
    # permissions; it is our private instance anyway.
    launch munged munged --foreground --force \
        --socket="$dir/munge/munge.socket" --pid-file="$dir/munge/munged.pid" \
        --log-file="$dir/log/munged.log" --key-file="$dir/munge/munge.key" \
        --seed-file="$dir/munge/munged.seed"
    end=$(($(date +%s) + 10))
    until [ -S "$dir/munge/munge.socket" ]; do
        alive munged; [ "$(date +%s)" -lt $end ] || fail "no munged socket after 10 s"
        sleep 0.1
    done

    # slurmctld/slurmd compare this with their own short hostname.
    host=$(uname -n); host=${host%%.*}
    sed -e "s|@DIR@|$dir|g" -e "s|@HOST@|$host|g" -e "s|@CPUS@|$(nproc)|g" \
        -e "s|@USER@|$(id -un)|g" \
        -e "s|@CTLD_PORT@|${FLIPCHECK_SLURMCTLD_PORT:-16817}|g" \
        -e "s|@SLURMD_PORT@|${FLIPCHECK_SLURMD_PORT:-16818}|g" \
        "$(dirname "$0")/slurm.conf.in" >"$conf" || fail "cannot write $conf"

    launch slurmctld slurmctld -D -f "$conf"
    launch slurmd slurmd -D -f "$conf"

    # Up means: node registered and idle (not just daemons alive).
    end=$(($(date +%s) + 30))
    until [ "$(SLURM_CONF=$conf sinfo -h -n "$host" -o %T 2>/dev/null)" = idle ]; do
        alive munged slurmctld slurmd
        [ "$(date +%s)" -lt $end ] || fail "node $host not idle after 30 s"
        sleep 0.2
    done
    trap - INT TERM
    echo "export SLURM_CONF=$conf"
}

case $cmd in
    start) start ;;
    status)
        for d in munged slurmctld slurmd; do
            [ -r "$dir/$d.pid" ] && is_ours "$(cat "$dir/$d.pid")" || exit 77
        done ;;
    stop) stop || { echo "slurm fixture: processes survived SIGKILL" >&2; exit 1; } ;;
    *) usage ;;
esac
