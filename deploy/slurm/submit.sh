#!/usr/bin/env bash
# Submit a sharded `rbcheck check` to Slurm: the plan job, then an array of N shard
# jobs once the plan succeeded, then the merge job once every shard succeeded.
# Prints the three job ids (plan_job=, shard_job=, merge_job=) on stdout.
set -euo pipefail

usage() {
  cat >&2 <<'USAGE'
usage: submit.sh N BOUND PARTS_DIR
   or: RBCHECK_SHARDS=N RBCHECK_BOUND=BOUND RBCHECK_PARTS=PARTS_DIR submit.sh

  N          number of shards (one array task each), 1 to 100000
  BOUND      bound preset (tiny, default, large, ...) or bound file
  PARTS_DIR  folder for the plan, the parts and the report, on a filesystem
             that every compute node sees (created if missing)

Environment: RBCHECK_RULES (default rup4), RBCHECK (the rbcheck binary on the
nodes; default rbcheck on PATH). sbatch's own variables apply to all three jobs,
e.g. SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT.
The report lands in PARTS_DIR/report.txt and PARTS_DIR/report.json, the job logs
in PARTS_DIR/logs/.
USAGE
  exit 2
}

case ${1:-} in -h|--help) usage ;; esac
if (( $# == 3 )); then
  RBCHECK_SHARDS=$1 RBCHECK_BOUND=$2 RBCHECK_PARTS=$3
elif (( $# != 0 )); then
  echo "submit.sh: expected 3 arguments or none, got $#" >&2
  usage
fi
if [[ -z ${RBCHECK_SHARDS:-} || -z ${RBCHECK_BOUND:-} || -z ${RBCHECK_PARTS:-} ]]; then
  echo "submit.sh: N, BOUND and PARTS_DIR are needed (as arguments or RBCHECK_SHARDS, RBCHECK_BOUND, RBCHECK_PARTS)" >&2
  usage
fi
if ! [[ $RBCHECK_SHARDS =~ ^[1-9][0-9]*$ ]] || (( RBCHECK_SHARDS > 100000 )); then
  echo "submit.sh: N must be an integer from 1 to 100000, got '$RBCHECK_SHARDS'" >&2
  usage
fi
command -v sbatch >/dev/null || { echo "submit.sh: sbatch not found on PATH" >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$RBCHECK_PARTS/logs"
RBCHECK_PARTS=$(cd "$RBCHECK_PARTS" && pwd)
RBCHECK_RULES=${RBCHECK_RULES:-rup4}
# The jobs may start in another folder: give files as absolute paths.
[[ -f $RBCHECK_BOUND ]] && RBCHECK_BOUND=$(realpath "$RBCHECK_BOUND")
[[ -f $RBCHECK_RULES ]] && RBCHECK_RULES=$(realpath "$RBCHECK_RULES")
if [[ -n ${RBCHECK:-} && $RBCHECK == */* ]]; then
  RBCHECK=$(realpath -m "$RBCHECK")
  [[ -x $RBCHECK ]] || echo "submit.sh: warning: $RBCHECK is not an executable here; the nodes must have it" >&2
  export RBCHECK
fi
export RBCHECK_SHARDS RBCHECK_BOUND RBCHECK_PARTS RBCHECK_RULES
n=$RBCHECK_SHARDS
logs=$RBCHECK_PARTS/logs

# sbatch --parsable prints "id" or "id;cluster".
submit() { local out; out=$(sbatch --parsable --export=ALL "$@"); echo "${out%%;*}"; }

plan=$(submit --output="$logs/plan-%j.out" "$here/plan.sbatch")
shards=$(submit --array="1-$n" --output="$logs/shard-%A_%a.out" \
  --dependency="afterok:$plan" --kill-on-invalid-dep=yes "$here/shard.sbatch")
merge=$(submit --output="$logs/merge-%j.out" \
  --dependency="afterok:$shards" --kill-on-invalid-dep=yes "$here/merge.sbatch")

echo "plan_job=$plan"
echo "shard_job=$shards"
echo "merge_job=$merge"
echo "submit.sh: $n shards of bound $RBCHECK_BOUND (rules $RBCHECK_RULES) into $RBCHECK_PARTS;" \
  "the report will be in report.txt and report.json there once job $merge is done" >&2
