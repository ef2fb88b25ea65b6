#!/usr/bin/env bash
# The whole GPU check, on a machine with a CUDA GPU. This is how docs/results/ is produced.
#
#   scripts/gpu-check.sh [RESULTS_DIR] [LOG_DIR]
#
# 1. Release build for this machine's GPU, exercises included.
# 2. All cpu, gpu and large tests with TP_REQUIRE_GPU=1: none may fail or be skipped.
# 3. compute-sanitizer memcheck and racecheck over the gpu test suite: 0 errors.
# 4. The exercise tests as shipped (they are expected to fail until the TODOs are done).
# 5. The tour and every step binary, all dtypes, writing CSV into RESULTS_DIR as
#    <program>_<gpu>_<date>.csv.
# Prints a summary last; exits non-zero if any check failed.
set -uo pipefail
cd "$(dirname "$0")/.."

results=${1:-docs/results}
logs=${2:-build-gpu/logs}
build=build-gpu
mkdir -p "$results" "$logs"
jobs=$(nproc)
summary=()
failed=0
note() { summary+=("$1"); echo "== $1"; }
fail() { note "FAIL: $1"; failed=1; }

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if ! { cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DTP_EXERCISES=ON &&
       cmake --build "$build" -j "$jobs"; } >"$logs/build.log" 2>&1; then
  tail -n 40 "$logs/build.log"
  fail "build (see build.log)"
  printf '%s\n' "${summary[@]}"
  exit 1
fi
note "build: ok ($(grep -m1 'CMAKE_CUDA_ARCHITECTURES' "$build/CMakeCache.txt"))"

# 2. Tests. Timing-free, so gpu tests may share the GPU; the large ones run alone.
export TP_REQUIRE_GPU=1
ctest --test-dir "$build" -L 'cpu|gpu' -j 8 --output-on-failure >"$logs/ctest.log" 2>&1
ctest --test-dir "$build" -L large --output-on-failure >>"$logs/ctest.log" 2>&1
passed=$(grep -c ' Passed ' "$logs/ctest.log")
not_passed=$(grep -cE '\*\*\*(Failed|Skipped)|\*\*\*Exception|\*\*\*Timeout|Not Run' "$logs/ctest.log")
if [ "$not_passed" -eq 0 ] && [ "$passed" -gt 0 ]; then
  note "tests: $passed passed, 0 failed, 0 skipped"
else
  grep -E '\*\*\*|Not Run' "$logs/ctest.log" | head -n 20
  fail "tests: $passed passed, $not_passed failed or skipped (see ctest.log)"
fi

# 3. Sanitizers over the whole gpu suite, one process each.
if command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck; do
    extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$build/bin/tp_gpu_tests" --gtest_brief=1 >"$logs/$tool.log" 2>&1
    rc=$?
    line=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/$tool.log" | tail -n 1)
    if [ $rc -eq 0 ]; then note "$tool: ${line:-no summary line}"; else fail "$tool: exit $rc, ${line:-see $tool.log}"; fi
  done
else
  fail "compute-sanitizer not found"
fi

# 4. Exercises as shipped: they must compile (they did) and fail.
ctest --test-dir "$build" -L exercise -j 8 >"$logs/exercise.log" 2>&1
note "exercises as shipped: $(grep -E 'tests passed|tests failed' "$logs/exercise.log" | tail -n 1)"

# 5. Results.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 |
      tr 'A-Z' 'a-z' | sed -e 's/[^a-z0-9]\{1,\}/-/g' -e 's/^nvidia-//' -e 's/-$//')
day=$(date +%F)
run() {  # run NAME ARGS...: a benchmark binary writing results/NAME_gpu_day.csv
  local name=$1; shift
  local csv="$results/${name}_${gpu}_${day}.csv"
  rm -f "$csv"
  if "$build/bin/$name" "$@" --csv "$csv" >"$logs/$name.log" 2>&1; then
    note "$name: ok, $(($(wc -l <"$csv") - 1)) rows in $csv"
  else
    tail -n 20 "$logs/$name.log"
    fail "$name (see $name.log)"
  fi
}
run tour --dtype all
for step in steps/[0-9][0-9]_*/; do
  run "$(basename "$step")" --dtype all
done

echo
echo "GPU check summary ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)):"
printf '  %s\n' "${summary[@]}"
exit $failed
