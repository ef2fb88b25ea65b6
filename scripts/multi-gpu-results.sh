#!/usr/bin/env bash
# Step 09's results, on a machine with 2 GPUs or more (4 for the chapter's tables), in one run:
#   09_multi_gpu_float_<gpu>_<day>.csv   the chapter's numbers: every version, the parts alone
#                                  and beside each other, and the peers (NCCL's all-to-all,
#                                  PyTorch's way), 65536 x 65536 float on 2 and 4 GPUs
#   09_multi_gpu_<gpu>_<day>.csv   the same bytes in the other types on 4 GPUs, with the peers
#   09_multi_gpu_float_<gpu>_<day>.versions.txt   the NCCL versions (ours, PyTorch's) and the
#                                  transport NCCL chose between the GPUs
# Usage: scripts/multi-gpu-results.sh [BUILD_DIR] [RESULTS_DIR]  (defaults: build-gpu, docs/results)
# The PyTorch rows need PyTorch with CUDA (steps/09_multi_gpu/peer_torch.py).
set -euo pipefail
build=${1:-build-gpu}
results=${2:-docs/results}
bench="$build/bin/09_multi_gpu"
count=$(nvidia-smi -L | wc -l)
if [ "$count" -lt 2 ]; then
  echo "multi-gpu-results.sh: this machine has $count GPU; step 09 needs 2 or more" >&2
  exit 77
fi
gpus=2
most=2
if [ "$count" -ge 4 ]; then gpus=2,4; most=4; fi
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 | tr 'A-Z' 'a-z' | sed 's/nvidia //; s/ /-/g')
day=$(date +%F)
csv="$results/09_multi_gpu_${gpu}_${day}.csv"
float_csv="$results/09_multi_gpu_float_${gpu}_${day}.csv"
rm -f "$csv" "$float_csv"
nvidia-smi topo -m | sed 's/\x1b\[[0-9;]*m//g' >"$results/topo_${gpu}_${day}.txt"  # the links between the GPUs
"$bench" --gpus "$gpus" --chunks 2,4,8 --reps 10 --dtype float --sizes 65536 --csv "$float_csv"
"$bench" --gpus "$most" --reps 10 --dtype double --sizes 32768x65536 --csv "$csv"
"$bench" --gpus "$most" --reps 10 --dtype half,bf16 --sizes 65536x131072 --csv "$csv"
peer=(python3 steps/09_multi_gpu/peer_torch.py --reps 10 --csv "$csv")
python3 steps/09_multi_gpu/peer_torch.py --reps 10 --csv "$float_csv" --gpus "$gpus" --sizes 65536 --dtype float
"${peer[@]}" --gpus "$most" --sizes 32768x65536 --dtype double
"${peer[@]}" --gpus "$most" --sizes 65536x131072 --dtype half,bf16
{
  echo "# NCCL versions and the transport between the GPUs, for $float_csv"
  echo "ours: NCCL $(sed -n 's/^#define NCCL_\(MAJOR\|MINOR\|PATCH\) *\([0-9]*\).*/\2/p' "$(dirname "$(command -v nvcc)")/../include/nccl.h" /usr/include/nccl.h 2>/dev/null | head -n 3 | paste -sd .)"
  echo "PyTorch's: NCCL $(python3 -c 'import torch; print(".".join(map(str, torch.cuda.nccl.version())))' 2>/dev/null || echo unknown)"
  NCCL_DEBUG=INFO "$bench" --gpus "$most" --sizes 4096 --reps 1 --dtype float 2>&1 |
    grep -E 'NCCL INFO (Channel [0-9]+/[0-9]+ : 0\[|.*via P2P|.*via SHM|NCCL version)' | sort -u | head -n 12 |
    sed -E 's/^[^ ]+ (\[[0-9]+\]) NCCL INFO /rank \1: /'  # without the host name and process ids
} >"${float_csv%.csv}.versions.txt"
echo "wrote $float_csv and $csv"
