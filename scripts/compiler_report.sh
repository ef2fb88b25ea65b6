#!/usr/bin/env bash
# What the compiler made of step 04's kernel, for the chapter: compiles
# steps/04_vectorize/kernel.cuh for sm_90 (float and __half), and writes
# docs/results/04_vectorize_compiler.txt with
#   // [ptxas]        ptxas' resource report of each kernel (registers, stack, spills)
#   // [sass_stores]  the global loads and stores of the 16-byte path in SASS (STG.E.128)
#   // [sass_scalar]  the same for the scalar fallback, for comparison
# Chapters quote a region with <!-- snippet docs/results/04_vectorize_compiler.txt ptxas -->.
# Needs no GPU: nvcc and cuobjdump (with nvdisasm beside it) from the CUDA toolkit, on PATH,
# in $CUDA_HOME/bin or /usr/local/cuda/bin; where the toolkit lacks them,
# `pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm` provides both. c++filt (binutils)
# demangles the kernel names when it is there.
#
#   scripts/compiler_report.sh [OUTPUT]      default: docs/results/04_vectorize_compiler.txt
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/results/04_vectorize_compiler.txt}
arch=sm_90

# The first of: PATH, $CUDA_HOME/bin, /usr/local/cuda/bin, the pip packages' nvidia/cu*/bin.
find_tool() {
  local dir
  command -v "$1" 2>/dev/null && return
  for dir in "${CUDA_HOME:-/nonexistent}/bin" /usr/local/cuda/bin; do
    [ -x "$dir/$1" ] && { echo "$dir/$1"; return; }
  done
  python3 - "$1" 2>/dev/null <<'EOF'
import glob, os, sys
try:
    import nvidia
except ImportError:
    sys.exit(1)
for root in nvidia.__path__:
    for path in sorted(glob.glob(os.path.join(root, "cu*", "bin", sys.argv[1]))):
        print(path)
        sys.exit(0)
sys.exit(1)
EOF
}
nvcc=$(find_tool nvcc) || { echo "compiler_report.sh: nvcc not found" >&2; exit 1; }
cuobjdump=$(find_tool cuobjdump) || {
  echo "compiler_report.sh: cuobjdump not found (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)" >&2; exit 1; }
nvdisasm=$(find_tool nvdisasm) || { echo "compiler_report.sh: nvdisasm not found (pip install nvidia-cuda-nvdisasm)" >&2; exit 1; }
export PATH="$(dirname "$nvdisasm"):$PATH"  # cuobjdump -sass runs nvdisasm
demangle() { if command -v c++filt >/dev/null; then c++filt; else cat; fi; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A translation unit that instantiates the launcher, and with it both kernels, for two types.
cat > "$tmp/report.cu" <<'EOF'
#include <cuda_fp16.h>

#include "04_vectorize/kernel.cuh"

template void tp::step04::transpose<float>(float*, const float*, int, int, cudaStream_t);
template void tp::step04::transpose<__half>(__half*, const __half*, int, int, cudaStream_t);
EOF
if ! "$nvcc" -std=c++17 -arch="$arch" -cubin -Xptxas -v -I steps -I common/include \
     -o "$tmp/report.cubin" "$tmp/report.cu" > "$tmp/ptxas.txt" 2>&1; then
  cat "$tmp/ptxas.txt" >&2; exit 1
fi
"$cuobjdump" -sass "$tmp/report.cubin" > "$tmp/sass.txt"

kernels=("float, true" "__half, true" "float, false" "__half, false")
name() { echo "tp::step04::vec16_store_kernel<$1>"; }

# ptxas: per kernel, its "Compiling entry function", stack frame and "Used N registers" lines,
# with the name demangled and its parameter list dropped (compile times left out: they vary).
ptxas_lines() {
  demangle < "$tmp/ptxas.txt" | awk -v want="'$(name "$1")'" '
    /Compiling entry function/ { line = $0; sub(/void /, "", line); sub(/\([^)]*\)/, "", line)
                                 keep = index(line, want) > 0; if (keep) print line; next }
    keep && /bytes stack frame/ { sub(/^ +/, "    "); print }
    keep && /Used [0-9]+ registers/ { print; keep = 0 }'
}

# SASS: the global loads (LDG), stores (STG) and byte permutes (PRMT, the packing of 2-byte
# elements) of one kernel, without addresses and encodings.
sass_lines() {
  demangle < "$tmp/sass.txt" | awk -v want="$(name "$1")" -v pattern="$2" '
    /Function : / { line = $0; sub(/.*Function : (void )?/, "", line); sub(/\(.*/, "", line)
                    keep = (line == want); next }
    keep && $0 ~ pattern { line = $0; sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line)
                           sub(/[ \t]*;.*$/, "", line); gsub(/[ \t]+/, " ", line); print line }'
}

{
  echo "// Written by scripts/compiler_report.sh: do not edit by hand; run the script again."
  echo "// steps/04_vectorize/kernel.cuh for $arch, float and __half;"
  echo "// nvcc: $("$nvcc" --version | tail -n 1); cuobjdump: $("$cuobjdump" --version | tail -n 1)."
  echo "// vec16_store_kernel<T, true>: 16-byte stores; <T, false>: the scalar fallback."
  echo
  echo "// [ptxas]"
  for k in "${kernels[@]}"; do ptxas_lines "$k"; done
  echo "// [ptxas]"
  echo
  echo "// [sass_stores]"
  for k in "${kernels[@]:0:2}"; do
    echo "// $(name "$k")"
    sass_lines "$k" 'LDG|STG|PRMT'
  done
  echo "// [sass_stores]"
  echo
  echo "// [sass_scalar]"
  for k in "${kernels[@]:2:2}"; do
    echo "// $(name "$k")"
    sass_lines "$k" 'LDG|STG'
  done
  echo "// [sass_scalar]"
} > "$tmp/report.txt"

# Refuse to write a report that lacks what the chapter relies on.
grep -q 'Used [0-9]* registers' "$tmp/report.txt" || { echo "compiler_report.sh: no ptxas register lines" >&2; exit 1; }
[ "$(grep -c 'STG\.E\.128' "$tmp/report.txt")" -eq 2 ] || {
  echo "compiler_report.sh: expected one STG.E.128 in each 16-byte kernel:" >&2; cat "$tmp/report.txt" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
cp "$tmp/report.txt" "$out"
echo "compiler_report.sh: wrote $out" >&2
