#!/usr/bin/env bash
# Profile every registered kernel (and cuBLAS) with Nsight Compute and write
# docs/results/ncu_<gpu>_<date>.csv: memory sectors per request, shared-memory wavefronts and
# bank conflicts, DRAM bytes against the ideal, DRAM throughput, L2 hit rate, occupancy,
# registers. Needs a GPU and `ncu` on PATH.
#
#   scripts/profile.sh [BUILD_DIR] [RESULTS_DIR] [LOG_DIR] [-- profile_once options]
#   scripts/profile.sh build docs/results /tmp -- --sizes 4096 --dtype float
#   scripts/profile.sh build /tmp/ncu /tmp/logs -- --sizes 11584 --dtype half --kernels copy_vec16,coarsen
#   PROFILE_ONCE=lab_profile_once scripts/profile.sh ...   the lab's kernels too (-DTP_LAB=ON)
#
# Defaults: build, docs/results, a temporary folder; one large shape (8192 x 8192), float and
# half. The GPU's clocks are left alone (--clock-control none), so the profiler sees the clocks
# the benchmarks see; ncu flushes the caches before each kernel (its default), as our timing does.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}; results=${2:-docs/results}; logs=${3:-$(mktemp -d)}
shift $(( $# < 3 ? $# : 3 ))
[ "${1:-}" = "--" ] && shift
args=("$@"); [ ${#args[@]} -gt 0 ] || args=(--sizes 8192 --dtype float,half)
command -v ncu >/dev/null || { echo "profile.sh: ncu (Nsight Compute) is not on PATH" >&2; exit 1; }
mkdir -p "$results" "$logs"

metrics=$(python3 -c 'import sys; sys.path.insert(0, "scripts"); import ncu_to_csv; print(",".join(ncu_to_csv.METRICS.values()))')
program=${PROFILE_ONCE:-profile_once}
cmake --build "$build" --target "$program" >/dev/null

echo "profile.sh: profiling ${args[*]} (report: $logs/profile.ncu-rep)" >&2
ncu --clock-control none --metrics "$metrics" -f -o "$logs/profile" \
    "$build/bin/$program" "${args[@]}" > "$logs/launches.txt"
ncu --import "$logs/profile.ncu-rep" --csv --page raw --print-units base \
    --print-kernel-base function > "$logs/ncu_raw.csv"

slug=$(grep '^device,' "$logs/launches.txt" | cut -d, -f6)
out="$results/ncu_${slug}_$(date +%F).csv"
python3 scripts/ncu_to_csv.py "$logs/launches.txt" "$logs/ncu_raw.csv" "$out"
