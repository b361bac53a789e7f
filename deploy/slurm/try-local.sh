#!/usr/bin/env bash
# Try the Slurm files on this machine: bring up a one-node Slurm from Debian's
# packages (installed if missing), submit 4 shards of bound `tiny` with submit.sh,
# wait for the merge, and compare the merged JSON with one unsharded run
# (`rbcheck check --bound tiny --json --quiet`, timing keys removed).
#
#   RBCHECK=path/to/rbcheck bash deploy/slurm/try-local.sh
#
# Runs as root (it installs packages and starts munged, slurmctld and slurmd
# directly, without systemd), everything under a fresh folder in /tmp on private
# ports, so it can be rerun; the daemons it started are stopped on exit.
# Environment: RBCHECK (default: target/release/rbcheck of this repository, else
# rbcheck on PATH), RBCHECK_SHARDS (4), RBCHECK_BOUND (tiny), KEEP=1 keeps the
# folder after a PASS.
# Exit code: 0 PASS, 1 FAIL (the difference is printed), 2 bad input (no binary),
# 4 Slurm could not be brought up here (the reason and the daemons' logs are printed).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
shards=${RBCHECK_SHARDS:-4}
bound=${RBCHECK_BOUND:-tiny}
start=$(date +%s.%N)

say() { echo "try-local: $*" >&2; }
elapsed() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }

# --- the binary -------------------------------------------------------------
if [[ -n ${RBCHECK:-} ]]; then
  bin=$RBCHECK
elif [[ -x $repo/target/release/rbcheck ]]; then
  bin=$repo/target/release/rbcheck
else
  bin=$(command -v rbcheck || true)
fi
if [[ -z $bin ]] || ! bin=$(command -v "$bin") || [[ ! -x $bin ]]; then
  say "no rbcheck binary: set RBCHECK, build target/release/rbcheck or put rbcheck on PATH"
  exit 2
fi
bin=$(realpath "$bin")
command -v python3 >/dev/null || { say "python3 is needed to compare the reports"; exit 2; }

# --- from here on, a failure to bring Slurm up exits 4 -----------------------
work=""
pids=()
names=()
jobs_submitted=()

show_logs() {
  local f
  for f in "$work"/munge/munged.log "$work"/slurmctld.log "$work"/slurmd.log "$work"/*.stderr; do
    [[ -s $f ]] || continue
    echo "----- last lines of $f" >&2
    tail -n 25 "$f" >&2
  done
}
cannot_run() { say "SLURM CANNOT RUN HERE: $*"; [[ -n $work ]] && show_logs; exit 4; }

# shellcheck disable=SC2317  # called from the EXIT trap
stop_daemons() {
  local i pid t
  if (( ${#jobs_submitted[@]} )) && [[ -n ${SLURM_CONF:-} ]]; then
    scancel "${jobs_submitted[@]}" 2>/dev/null || true
  fi
  # Stop in reverse order of start: slurmd, slurmctld, munged.
  for (( i = ${#pids[@]} - 1; i >= 0; i-- )); do
    pid=${pids[i]}
    kill -0 "$pid" 2>/dev/null || continue
    kill -TERM "$pid" 2>/dev/null || true
    for (( t = 0; t < 50; t++ )); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      say "${names[i]} ($pid) did not stop on TERM: killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
  done
  pids=()
}
# shellcheck disable=SC2317  # the EXIT trap
on_exit() {
  local code=$?
  stop_daemons
  if [[ -n $work && -d $work ]]; then
    if (( code == 0 )) && [[ ${KEEP:-0} != 1 ]]; then rm -rf "$work"
    else say "kept $work (logs, slurm.conf, parts)"; fi
  fi
  exit "$code"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

(( EUID == 0 )) || cannot_run "this needs root (to install packages and run slurmd); rerun as root"

# --- packages ---------------------------------------------------------------
need=(munged slurmctld slurmd sbatch scontrol scancel)
missing=()
for c in "${need[@]}"; do command -v "$c" >/dev/null || missing+=("$c"); done
if (( ${#missing[@]} )); then
  say "installing slurm-wlm and munge (missing: ${missing[*]})"
  command -v apt-get >/dev/null || cannot_run "no apt-get: install Slurm and MUNGE by hand"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -q && apt-get install -y -q slurm-wlm munge; } >/tmp/rbcheck-slurm-apt.log 2>&1 ||
    { tail -n 20 /tmp/rbcheck-slurm-apt.log >&2; cannot_run "apt-get install slurm-wlm munge failed (log: /tmp/rbcheck-slurm-apt.log)"; }
  for c in "${need[@]}"; do command -v "$c" >/dev/null || cannot_run "$c still missing after the install"; done
fi
say "$(slurmctld -V), munge $(munged --version 2>&1 | head -n 1)"

work=$(mktemp -d /tmp/rbcheck-slurm.XXXXXX)
chmod 700 "$work"
mkdir -m 700 "$work/munge" "$work/ctld" "$work/slurmd"
# Every step of a run must use one build (rbcheck refuses parts of another), so
# take a copy: the original may be rebuilt while the jobs run.
cp "$bin" "$work/rbcheck"
bin=$work/rbcheck
"$bin" --version >/dev/null || { say "FAIL: $bin does not run"; exit 2; }
host=$(hostname -s)

# Two free TCP ports in a row for slurmctld and slurmd (a real Slurm may own 6817/6818).
read -r cport dport < <(python3 - <<'PY'
import socket
def free(p):
    s = socket.socket()
    try:
        s.bind(("0.0.0.0", p)); return True
    except OSError:
        return False
    finally:
        s.close()
for p in range(16817, 17817, 2):
    if free(p) and free(p + 1):
        print(p, p + 1); break
PY
)
[[ -n ${cport:-} ]] || cannot_run "no two free TCP ports in 16817-17817"

start_daemon() { # name, then the command (in the foreground, so $! is the daemon)
  local name=$1; shift
  "$@" >"$work/$name.stdout" 2>"$work/$name.stderr" &
  pids+=("$!"); names+=("$name")
}
alive() { # the index in pids of a daemon that must still run
  kill -0 "${pids[$1]}" 2>/dev/null || cannot_run "${names[$1]} exited at start (see its log below)"
}

# --- munge: its own key and socket --------------------------------------------
sock=$work/munge/munge.socket
head -c 1024 /dev/urandom >"$work/munge/munge.key"
chmod 400 "$work/munge/munge.key"
start_daemon munged munged --foreground --force --key-file="$work/munge/munge.key" \
  --socket="$sock" --pid-file="$work/munge/munged.pid" \
  --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed"
for (( t = 0; t < 50; t++ )); do [[ -S $sock ]] && break; sleep 0.1; done
alive 0
munge -S "$sock" -n | unmunge -S "$sock" >/dev/null 2>&1 || cannot_run "munged does not answer on $sock"

# --- slurm.conf ----------------------------------------------------------------
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<CONF
# One-node Slurm for try-local.sh; everything lives in $work.
ClusterName=rbchecklocal
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$cport
SlurmdPort=$dport
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$work/ctld
SlurmdSpoolDir=$work/slurmd
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/builtin
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=$mem_mb State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

# --- slurmctld and slurmd ---------------------------------------------------------
start_daemon slurmctld slurmctld -D -c -f "$SLURM_CONF"
for (( t = 0; t < 100; t++ )); do scontrol ping >/dev/null 2>&1 && break; alive 1; sleep 0.2; done
scontrol ping >/dev/null 2>&1 || cannot_run "slurmctld does not answer (scontrol ping)"
start_daemon slurmd slurmd -D -N "$host" -f "$SLURM_CONF"
state=""
for (( t = 0; t < 120; t++ )); do
  alive 2
  state=$(scontrol show node "$host" 2>/dev/null | sed -n 's/.*State=\([A-Z_+]*\).*/\1/p' | head -n 1 || true)
  [[ $state == IDLE* ]] && break
  sleep 0.5
done
[[ $state == IDLE* ]] || cannot_run "node $host is '$state', not IDLE, after 60 s: $(scontrol show node "$host" | grep -o 'Reason=.*' || true)"
say "Slurm up in $(elapsed "$start") s: node $host idle (2 CPUs, ${mem_mb} MB), ports $cport/$dport, folder $work"

# --- the sharded run ----------------------------------------------------------
parts=$work/parts
submitted=$(date +%s.%N)
if ! ids=$(RBCHECK=$bin bash "$here/submit.sh" "$shards" "$bound" "$parts"); then
  say "FAIL: submit.sh failed (its message is above)"
  exit 1
fi
echo "$ids" >&2
plan_job=$(sed -n 's/^plan_job=//p' <<<"$ids")
shard_job=$(sed -n 's/^shard_job=//p' <<<"$ids")
merge_job=$(sed -n 's/^merge_job=//p' <<<"$ids")
jobs_submitted=("$plan_job" "$shard_job" "$merge_job")

job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1 || true; }
mstate=""
for (( t = 0; t < 600; t++ )); do
  mstate=$(job_state "$merge_job")
  case $mstate in
    COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|PREEMPTED|BOOT_FAIL|DEADLINE) break ;;
  esac
  sleep 0.5
done
sharded_s=$(elapsed "$submitted")
exit_code=$(scontrol show job "$merge_job" 2>/dev/null | sed -n 's/.*[^a-zA-Z]ExitCode=\([0-9]*\):.*/\1/p' | head -n 1 || true)
jobs_submitted=()
say "merge job $merge_job: ${mstate:-unknown}, exit code ${exit_code:-?}, $sharded_s s after submitting"
for log in "$parts"/logs/*.out; do
  if [[ -f $log ]]; then echo "----- $(basename "$log")"; cat "$log"; fi
done >&2

# --- compare with one unsharded run ---------------------------------------------
set +e  # the comparison's verdict is the exit code
"$bin" check --bound "$bound" --json --quiet >"$work/unsharded.json"
unsharded_code=$?
python3 - "$parts/report.json" "$work/unsharded.json" "${exit_code:-none}" "$unsharded_code" "${mstate:-unknown}" <<'PY'
import difflib, json, sys
merged_path, single_path, merge_code, single_code, state = sys.argv[1:]
timing = ("seconds", "states_per_second", "peak_memory_bytes")
def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL: {path}: {e}")
        sys.exit(1)
    for k in timing:
        doc.pop(k, None)
    return doc
merged, single = load(merged_path), load(single_path)
problems = []
if state not in ("COMPLETED", "FAILED"):
    problems.append(f"merge job {state}")
if merge_code != single_code:
    problems.append(f"merge exited {merge_code}, the unsharded run {single_code}")
if merged != single:
    a = json.dumps(single, indent=1, sort_keys=True).splitlines()
    b = json.dumps(merged, indent=1, sort_keys=True).splitlines()
    problems.append("the merged JSON differs from the unsharded one:\n" + "\n".join(
        difflib.unified_diff(a, b, "unsharded", "merged", lineterm="")))
if problems:
    print("FAIL: " + "\n".join(problems))
    sys.exit(1)
print(f"PASS: the merge of the shards equals one unsharded run "
      f"({len(merged)} keys compared, {', '.join(timing)} left out; both exit {single_code})")
PY
result=$?
set -e
say "$shards shards of $bound through Slurm: $sharded_s s from submit to merged report; $(elapsed "$start") s in all"
exit "$result"
