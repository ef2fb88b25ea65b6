#!/usr/bin/env bash
# Times the README's commands on this machine, each from a fresh clone of HEAD:
#   build   the README's build (cmake -S . -B build && cmake --build build -j 4)
#   tests   the README's test command after that build (ctest --test-dir build -j 8 --output-on-failure)
#   ci      bash .ci/run in a second fresh clone (with --ci; slow: it builds everything again)
#
#   scripts/time-commands.sh [--ci] [REPORT]     REPORT: where the summary is also written
#   scripts/time-commands.sh --in-place [REPORT] build and test in this tree (build/), no clone
#   TIMES_LOGS=DIR scripts/time-commands.sh ...  also keep each command's full log in DIR
# Prints one line per command (seconds, exit status, ctest's counts) and the machine last.
set -uo pipefail
cd "$(dirname "$0")/.."
ci=0 in_place=0
[ "${1:-}" = --ci ] && { ci=1; shift; }
[ "${1:-}" = --in-place ] && { in_place=1; shift; }
report=${1:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lines=()
timed() {  # timed NAME DIR COMMAND...: runs COMMAND in DIR, logs to $work/NAME.log, records the seconds
  local name=$1 dir=$2; shift 2
  local t0=$SECONDS
  (cd "$dir" && "$@") >"$work/$name.log" 2>&1
  local rc=$?
  lines+=("$name: $((SECONDS - t0)) s, exit $rc")
  echo "${lines[-1]}"
  return $rc
}
repo=$PWD
if [ $in_place = 0 ]; then
  git clone -q . "$work/repo"
  repo=$work/repo
  [ -d ../shared ] && ln -s "$(cd ../shared && pwd)" "$work/shared"
fi
timed build "$repo" bash -c 'cmake -S . -B build && cmake --build build -j 4'
timed tests "$repo" ctest --test-dir build -j 8 --output-on-failure
lines[-1]+=" ($(grep -E 'tests passed|tests failed' "$work/tests.log" | tail -n 1);"
lines[-1]+=" $(grep -cE '^[[:space:]]*[0-9]+ - .*\(Skipped\)' "$work/tests.log") skipped)"
if [ $ci = 1 ]; then
  git clone -q . "$work/ci"
  [ -d ../shared ] && [ ! -e "$work/shared" ] && ln -s "$(cd ../shared && pwd)" "$work/shared"
  timed ci "$work/ci" bash .ci/run
  tail -n 5 "$work/ci.log"
fi
[ -n "${TIMES_LOGS:-}" ] && mkdir -p "$TIMES_LOGS" && cp "$work"/*.log "$TIMES_LOGS"/
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
lines+=("machine: $(nproc) cores, ${gpu:-no GPU}, commit ${TP_GIT_SHA:-$(git rev-parse --short=12 HEAD)}, $(date +%F)")
printf '%s\n' "${lines[@]}" | tee ${report:+"$report"}
