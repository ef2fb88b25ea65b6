#!/usr/bin/env bash
# L2 and DRAM traffic of a few lab kernels, one block per (dtype, kernel, shape), as text in the
# form the lab's prose reads (plots/prose/lab.py: _shifted_profile): "== DTYPE KERNEL N", the
# kernel's name, then one "metric value" line per metric. Needs a GPU, `ncu` and a lab build.
#
#   scripts/ncu-memory.sh BUILD_DIR OUT_FILE DTYPES SIZES KERNELS
#   scripts/ncu-memory.sh build-gpu docs/results/ncu_strip_h200_$(date +%F).txt half "4896 4899" record,shifted_flat
#
# SIZES are squares, space separated; each kernel runs once per size through lab_profile_once.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 5 ] || { sed -n 2,8p "$0" >&2; exit 2; }
build=$1; out=$2; dtypes=$3; sizes=$4; kernels=$5
command -v ncu >/dev/null || { echo "ncu-memory.sh: ncu (Nsight Compute) is not on PATH" >&2; exit 1; }
metrics=gpu__time_duration.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum
metrics+=,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum
metrics+=,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
cmake --build "$build" --target lab_profile_once >/dev/null
{
  echo "# Nsight Compute (--clock-control none) on an $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)," \
       "commit ${TP_GIT_SHA:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}: L2 requests and sectors from the SMs" \
       "(srcunit_tex), L2 throughput, DRAM bytes, instructions, time (scripts/ncu-memory.sh)"
  for dtype in ${dtypes//,/ }; do
    for size in $sizes; do
      for kernel in ${kernels//,/ }; do
        echo "== $dtype $kernel $size"
        ncu --clock-control none --print-units base -k 'regex:shifted|coarsen_kernel' -c 1 --metrics "$metrics" \
            "$build/bin/lab_profile_once" --sizes "$size" --dtype "$dtype" --kernels "$kernel" |
          awk '/^  void /{sub(/^  /, ""); print "kernel: " substr($0, 1, 60)} /^    [a-z]/{print $1, $NF}'
      done
    done
  done
} >"$out"
echo "ncu-memory.sh: wrote $out"
