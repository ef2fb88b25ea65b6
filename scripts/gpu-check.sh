#!/usr/bin/env bash
# The whole GPU check, on a machine with a CUDA GPU. This is how docs/results/ is produced.
#
#   scripts/gpu-check.sh [RESULTS_DIR] [LOG_DIR]
#   SWEEPS=0 scripts/gpu-check.sh ...     the same without the cold and warm L2 sweeps
#
# A GPU session with a time limit can split the check (all optional):
#   PARTS="tests results"   which parts run after the build (default: all of
#                           tests compute75 exercises results lab profile sanitize)
#   STEPS="05_shared 07_coarsen"   which step binaries write results (default: all)
#   LARGE_REGEX=07_         which large tests run (a ctest -R regex; default: all)
#   SANITIZE_FILTER='*07_*' which gpu tests the sanitizers run (a gtest filter; default: all)
#   SANITIZERS="racecheck"  which compute-sanitizer tools run (default: memcheck racecheck synccheck)
#   TUNE=1                  also build the lab's tuning programs (-DTP_LAB_TUNE=ON; minutes more to
#                           compile) and run them in the lab part (lab_tune, lab_inplace_tune)
#   TP_GIT_SHA=abc123       the commit to record in CSVs and summaries, for a copy of the tree
#                           whose .git is missing or not the tree's (default: git rev-parse HEAD)
#
# 1. Release build for this machine's GPU, exercises and the lab included.
# 2. All cpu, gpu, large and lab tests with TP_REQUIRE_GPU=1: none may fail or be skipped.
# 2b. The older GPUs' paths (compute75): a second build with PTX for compute capability 7.5 only,
#    compiled for this GPU when loaded, so that __CUDA_ARCH__ is 750 inside the kernels (no
#    cp.async, no TMA); the gpu and lab suites from it, with TP_EXPECT_CUDA_ARCH=750. Its
#    summary goes to RESULTS_DIR/compute75_<gpu>_<date>.txt.
# 3. The exercise tests as shipped (they are expected to fail until the TODOs are done).
# 4. Results, as CSV in RESULTS_DIR named <source>_<gpu>_<date>.csv: the tour and every step
#    binary (all dtypes); the lab's programs (lab part); the tour over sizes that cross the L2 size, with cold L2
#    (sweep_cold) and warm L2 (sweep_warm); Nsight Compute metrics of every kernel (ncu, and
#    ncu_double16384), of steps 06 to 08 (ncu_0708), and of a few at the 11584 square and its
#    neighbours (ncu_11584).
# 5. compute-sanitizer memcheck, racecheck and synccheck over the gpu test suite: 0 errors.
# Prints a summary last (with each part's seconds); exits non-zero if any check failed.
set -uo pipefail
cd "$(dirname "$0")/.."

results=${1:-docs/results}
logs=${2:-build-gpu/logs}
build=build-gpu
mkdir -p "$results" "$logs"
jobs=$(nproc)
summary=()
failed=0
started=$SECONDS
parts=${PARTS:-tests compute75 exercises results lab profile sanitize}
want() { [[ " $parts " == *" $1 "* ]]; }
note() { summary+=("$1 [$((SECONDS - started)) s]"); echo "== $1"; started=$SECONDS; }
fail() { note "FAIL: $1"; failed=1; }

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if ! { cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DTP_EXERCISES=ON -DTP_LAB=ON \
         -DTP_LAB_TUNE="$([ "${TUNE:-0}" = 1 ] && echo ON || echo OFF)" &&
       cmake --build "$build" -j "$jobs"; } >"$logs/build.log" 2>&1; then
  tail -n 40 "$logs/build.log"
  fail "build (see build.log)"
  printf '%s\n' "${summary[@]}"
  exit 1
fi
note "build: ok ($(grep -m1 'CMAKE_CUDA_ARCHITECTURES' "$build/CMakeCache.txt"))"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 |
      tr 'A-Z' 'a-z' | sed -e 's/[^a-z0-9]\{1,\}/-/g' -e 's/^nvidia-//' -e 's/-$//')
day=$(date +%F)

# 2. Tests. The cpu and large ones through ctest (the large ones alone on the GPU); the gpu
# suite as ONE process, because ctest starts a process (and a CUDA context) per test.
export TP_REQUIRE_GPU=1
if want tests; then
  ctest --test-dir "$build" -L cpu -j "$jobs" --output-on-failure >"$logs/ctest.log" 2>&1
  ctest --test-dir "$build" -L large -R "${LARGE_REGEX:-.}" --output-on-failure >>"$logs/ctest.log" 2>&1
  "$build/bin/tp_gpu_tests" --gtest_brief=1 >"$logs/gpu_tests.log" 2>&1
  gpu_rc=$?
  "$build/bin/tp_lab_tests" --gtest_brief=1 >>"$logs/gpu_tests.log" 2>&1
  gpu_rc=$((gpu_rc + $?))
  # Step 09 where there are 2 GPUs or more (its 4-GPU test where there are 4), threads and processes.
  gpus_here=$(nvidia-smi -L | wc -l)
  if [ -x "$build/bin/tp_multi_gpu_tests" ] && [ "$gpus_here" -ge 2 ]; then
    four="*"
    [ "$gpus_here" -lt 4 ] && four="-*FourGpus*"
    "$build/bin/tp_multi_gpu_tests" --gtest_brief=1 --gtest_filter="$four" >>"$logs/gpu_tests.log" 2>&1
    gpu_rc=$((gpu_rc + $?))
    "$build/bin/09_multi_gpu" --processes 2 --sizes 1000x1001,96x4096 --dtype all --reps 2 >"$logs/processes.log" 2>&1
    gpu_rc=$((gpu_rc + $?))
  fi
  passed=$(( $(grep -c ' Passed ' "$logs/ctest.log") +
             $(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$logs/gpu_tests.log" | awk '{ n += $1 } END { print n + 0 }') ))
  not_passed=$(( $(grep -cE '\*\*\*(Failed|Skipped)|\*\*\*Exception|\*\*\*Timeout|Not Run' "$logs/ctest.log") +
                 $(sed -nE 's/^\[  (FAILED|SKIPPED) +\] ([0-9]+) tests?, listed below.*/\2/p' "$logs/gpu_tests.log" |
                   awk '{ n += $1 } END { print n + 0 }') ))
  if [ "$not_passed" -eq 0 ] && [ "$passed" -gt 0 ] && [ "$gpu_rc" -eq 0 ]; then
    note "tests: $passed passed, 0 failed, 0 skipped"
  else
    grep -E '\*\*\*|Not Run' "$logs/ctest.log" | head -n 20
    grep -E '^\[  (FAILED|SKIPPED) +\]' "$logs/gpu_tests.log" | head -n 20
    fail "tests: $passed passed, $not_passed failed or skipped, gpu suite exit $gpu_rc (see ctest.log, gpu_tests.log)"
  fi
fi

# 2b. The gpu and lab suites from PTX for compute capability 7.5 only (JIT-compiled at load).
if want compute75; then
  build75=$build-compute75
  out75="$results/compute75_${gpu}_${day}.txt"
  if { cmake -S . -B "$build75" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DTP_LAB=ON \
         -DCMAKE_CUDA_ARCHITECTURES=75-virtual && cmake --build "$build75" -j "$jobs"; } >"$logs/build75.log" 2>&1; then
    TP_EXPECT_CUDA_ARCH=750 "$build75/bin/tp_gpu_tests" --gtest_brief=1 >"$logs/gpu_tests75.log" 2>&1
    rc75=$?
    TP_EXPECT_CUDA_ARCH=750 "$build75/bin/tp_lab_tests" --gtest_brief=1 >"$logs/lab_tests75.log" 2>&1
    rc75=$((rc75 + $?))
    {
      echo "# The gpu and lab test suites from a build with PTX for compute capability 7.5 only"
      echo "# (-DCMAKE_CUDA_ARCHITECTURES=75-virtual, JIT-compiled when loaded), TP_EXPECT_CUDA_ARCH=750;"
      echo "# commit ${TP_GIT_SHA:-$(git rev-parse --short=12 HEAD)}, $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1), $(nvcc --version | tail -n 1)"
      grep -h '^kernels see' "$logs/gpu_tests75.log"
      for log in gpu_tests75 lab_tests75; do
        echo "${log%75}: $(grep -hE '^\[(==========|  PASSED  |  FAILED  |  SKIPPED ) *\]' "$logs/$log.log" | tr -s ' ' | paste -sd ';' -)"
      done
    } >"$out75"
    if [ "$rc75" -eq 0 ] && ! grep -q 'FAILED\|SKIPPED' "$out75"; then
      note "compute75: gpu and lab suites passed ($out75)"
    else
      cat "$out75"
      fail "compute75: exit $rc75 (see gpu_tests75.log, lab_tests75.log)"
    fi
  else
    tail -n 40 "$logs/build75.log"
    fail "compute75 build (see build75.log)"
  fi
fi

# 3. Exercises as shipped: they must compile (they did) and fail; the learner solutions.
if want exercises; then
  ctest --test-dir "$build" -L exercise -j 8 >"$logs/exercise.log" 2>&1
  note "exercises as shipped: $(grep -E 'tests passed|tests failed' "$logs/exercise.log" | tail -n 1)"
  # The learner solutions (tests/learners/): every verdict as expected, racecheck and synccheck included.
  if cmake -S . -B "$build" -DTP_LEARNERS=ON >"$logs/learners.log" 2>&1 &&
     cmake --build "$build" --target tp_learners -j >>"$logs/learners.log" 2>&1 &&
     python3 tests/learners/learners.py run "$build/tests/learners/manifest.tsv" --gpu \
       --summary "$results/learners_${gpu}_${day}.csv" >>"$logs/learners.log" 2>&1; then
    note "learner solutions: $(tail -n 1 "$logs/learners.log")"
  else
    fail "learner solutions (see learners.log)"
  fi
fi

# 4. Results.
run() {  # run SOURCE PROGRAM ARGS...: a benchmark binary writing results/SOURCE_gpu_day.csv
  local source=$1 program=$2; shift 2
  local csv="$results/${source}_${gpu}_${day}.csv"
  rm -f "$csv"
  if "$build/bin/$program" "$@" --csv "$csv" >"$logs/$source.log" 2>&1; then
    note "$source: ok, $(($(wc -l <"$csv") - 1)) rows in $csv"
  else
    tail -n 20 "$logs/$source.log"
    fail "$source (see $source.log)"
  fi
}
step_wanted() { [ -z "${STEPS:-}" ] || [[ " $STEPS " == *" $1 "* ]]; }
if want results; then
  run tour tour --dtype all
  # Step 00 for every type; the transposes for float and half (the chapters' tables), with one
  # rectangle. Step 07, the fastest, for every type, with two rectangles and the squares of
  # (nearly) the same bytes: 4896^2 and 4899^2 ~ 4000 x 6000, 11584^2 and 11585^2 ~ 8192 x
  # 16384 (the odd ones take the element path). Step 08 (in place,
  # beside 07) for every type.
  step_wanted 00_copy && run 00_copy 00_copy --dtype all
  step_wanted 00_copy && run latency 00_latency  # the DRAM latency of chapter 00's prediction
  for step in steps/[0-9][0-9]_*/; do
    name=$(basename "$step")
    [ "$name" = 00_copy ] && continue
    step_wanted "$name" || continue
    if [ "$name" = 09_multi_gpu ]; then  # across GPUs: its own job, where there are 2 or more
      if [ "$(nvidia-smi -L | wc -l)" -lt 2 ]; then
        note "09_multi_gpu: skipped (one GPU)"
      elif scripts/multi-gpu-results.sh "$build" "$results" >"$logs/09_multi_gpu.log" 2>&1; then
        note "09_multi_gpu: $(tail -n 1 "$logs/09_multi_gpu.log")"
      else
        tail -n 20 "$logs/09_multi_gpu.log"
        fail "09_multi_gpu (see 09_multi_gpu.log)"
      fi
      continue
    fi
    if [ "$name" = 07_coarsen ]; then
      run "$name" "$name" --dtype all --sizes 1024,2048,4096,8192,16384,16416,4000x6000,4896,4899,8192x16384,11584,11585
      for again in run2 run3; do  # the chapter quotes medians of three runs at these sizes
        run "${name}_$again" "$name" --dtype all --sizes 8192,16384,8192x16384
      done
    elif [ "$name" = 08_inplace ]; then  # squares (4097: the element path), then two rectangles
      run "$name" "$name" --dtype all --sizes 1024,2048,4096,8192,16384,16416,4097
      run 08_inplace_rect "$name" --dtype all --sizes 8192x16384,10000x7000
    else
      run "$name" "$name" --dtype float,half --sizes 1024,2048,4096,8192,16384,4000x6000
    fi
  done
  # Square sizes from far below the L2 size to far above it, in steps of x1.5 and x1.33.
  sweep=256,384,512,768,1024,1536,2048,3072,4096,6144,8192,12288,16384
  if [ "${SWEEPS:-1}" != 0 ]; then
    run sweep_cold tour --sizes "$sweep" --dtype float,half
    run sweep_warm tour --sizes "$sweep" --dtype float,half --warm-l2
  fi
fi
if want lab; then
  run lab_coarsen lab_coarsen --dtype all --sizes 2048,8192,16384,11584,8192x16384,4896,4899
  run lab_occupancy lab_coarsen --dtype all --sizes 8192,16384  # the occupancy section's table
  for again in run2 run3; do  # its queueing model (plots/queueing.py) takes the median of three runs
    run "lab_occupancy_$again" lab_coarsen --dtype all --sizes 8192,16384 \
      --kernels headline_tile256,blocks_per_sm_1,blocks_per_sm_2,blocks_per_sm_3
  done
  run lab_unaligned lab_coarsen --dtype all --sizes 2048,2051,4096,4896,4899,11584,11585,4097x4099 \
    --kernels record,record_general,record_offset1,record_offset8,record_cs,shifted_tile128,shifted_tile256,shifted_flat,shifted_large,shifted16_tile128,shifted16_tile256,shifted16_large,shifted_packed128,shifted_packed256,elements64
  # double at odd sizes: the element path against the shifted path's packed and line tiles (the record's switch).
  run lab_double_odd lab_coarsen --dtype double --sizes 2051,3071,4097x4099,4899,6143,8191,9999,11585,4096,8192 \
    --kernels record,elements64,shifted_packed256,shifted_tile256,shifted_packed128
  # double: the parity tile (16-byte pairs) and two more element-path tiles beside the record's paths.
  run lab_double_pairs lab_coarsen --dtype double --sizes 2051,3071,4097x4099,4899,6143,8191,9999,11585,4096,4896,11584 \
    --kernels record,elements64,elements_tile256,elements_tile512x256,parity64,parity32,shifted_packed256
  # The shifted path at odd half sizes whose last wave of flat tiles is 6 to 69% full, beside their aligned neighbours.
  run lab_odd_sizes lab_coarsen --dtype half --sizes 4704,4705,4896,4899,5056,5059,5312,5311,5568,5565 \
    --kernels record,shifted_flat
  # The record's two tiles with plain 16-byte stores (no evict-first hint), and without cp.async too.
  run lab_stores lab_coarsen --dtype all --sizes 2048,4096,8192,16384 \
    --kernels record,headline_tile128,tile128_no_cs,tile128_no_async,tile128_no_cs_async,headline_tile256,tile256_no_cs,tile256_no_cs_async,evict_first_loads
  # The lean small tile beside the record's two tiles at a few waves (scripts/peers.py at the same
  # sizes times torch.compile for the lab's comparison: peers_small), and two changes to the small tile.
  run lab_small lab_coarsen --dtype all --sizes 2048,3072,4096,6144,8192 \
    --kernels record,record_general,lean_tile128,lean_pairs128,tile128_no_cs,tile256_no_cs
  # The record on offset pointers (its moved grid), and its small tiles on a moved grid at every size.
  run lab_moved lab_coarsen --dtype all --sizes 2048,3072,4096,4896,11584 \
    --kernels record,record_general,record_offset1,record_offset8,moved128_offset1
  run lab_small_orders lab_coarsen --dtype float,bf16,double --sizes 2048,3072,4096 \
    --kernels record,tile128_no_cs,tile128_no_cs_rows,tile128_no_cs_no_pairs,tile256_no_cs,headline_tile128
  # What left step 07's headline (the evict-first hint, column pairs): three runs (the lab's table).
  for source in lab_step07 lab_step07_run2 lab_step07_run3; do
    run "$source" lab_coarsen --dtype all --sizes 8192,16384 \
      --kernels headline_tile256,tile256_no_cs,tile256_no_cs_no_pairs,tile256B_elem,tile256B_vec16,evict_first_stores,ablation_cp_async,column_pairs
  done
  run lab_inplace lab_inplace --dtype all --sizes 8192,16384
  if [ "${TUNE:-0}" = 1 ]; then
    run lab_tune lab_tune --dtype all --sizes 2048,4096,8192,11520,11584,16384
    run lab_inplace_tune lab_inplace_tune --dtype all --sizes 8192,16384
  fi
  run lab_inplace_rect lab_inplace_rect --dtype all --sizes 8192x16384,10000x7000
fi
profile_as() {  # profile_as SOURCE ARGS...: scripts/profile.sh with profile_once ARGS -> results/SOURCE_gpu_day.csv
  local source=$1; shift
  local tmp
  tmp=$(mktemp -d)
  if scripts/profile.sh "$build" "$tmp" "$logs/$source" -- "$@" >"$logs/$source.log" 2>&1 &&
     mv "$tmp"/ncu_*.csv "$results/${source}_${gpu}_${day}.csv"; then
    note "$source: $(tail -n 1 "$logs/$source.log")"
  else
    tail -n 20 "$logs/$source.log"
    fail "$source (see $source.log)"
  fi
  rm -rf "$tmp"
}
if want profile; then
  # Every kernel at 8192 (the chapters' profiler tables); every kernel for double at 16384
  # (the 128 KB pitch); the 11584 square and its neighbours (chapter 07).
  profile_as ncu --sizes 8192 --dtype float,half
  PROFILE_ONCE=lab_profile_once profile_as ncu_double16384 --sizes 16384 --dtype double
  # Steps 06 to 08 at the current commit: step 07's three parts and step 08 (chapters 07, 08).
  profile_as ncu_0708 --sizes 8192 --dtype float,half \
    --kernels copy_vec16,padded_32x8,wide_tiles,cp_async,coarsen,inplace
  PROFILE_ONCE=lab_profile_once profile_as ncu_occupancy --sizes 8192 --dtype float,half \
    --kernels coarsen,headline_tile256,blocks_per_sm_1,blocks_per_sm_2,blocks_per_sm_3
  profile_as ncu_11584 --sizes 11520,11584,11520x11584,11584x11520,8192x16384 --dtype half,float \
    --kernels copy_vec16,cp_async,coarsen
  # The flat tiles at 4899 against the record at 4896: L2 and DRAM traffic (the lab's odd-shapes
  # section; the source keeps its name, ncu_strip, which plots/prose/lab.py reads).
  scripts/ncu-memory.sh "$build" "$results/ncu_strip_${gpu}_${day}.txt" half "4896 4899" \
    record,shifted_flat >"$logs/ncu_strip.log" 2>&1 &&
    note "ncu_strip: $(tail -n 1 "$logs/ncu_strip.log")" || fail "ncu_strip (see ncu_strip.log)"
  # Step 08 on a rectangle (the lab's chapter): Nsight Compute's throughput sections for the
  # three passes of one transpose, as text (the launch lines and process paths left out).
  out="$results/ncu_inplace_rect_${gpu}_${day}.txt"
  {
    echo "# Nsight Compute on the three passes of one step 08 transpose of a 8192 x 16384 matrix (pass 1: permute_columns,"
    echo "# pass 2: shuffle_rows, pass 3: permute_columns), commit ${TP_GIT_SHA:-$(git rev-parse --short=12 HEAD)}, $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1), for half and double:"
    echo "#   ncu --clock-control none -k regex:'shuffle_rows|permute_columns' -c 3 --section SpeedOfLight \\"
    echo "#       --section MemoryWorkloadAnalysis build/bin/lab_inplace_rect --dtype DTYPE --sizes 8192x16384 --reps 1"
    for dtype in half double; do
      echo; echo "## $dtype"
      ncu --clock-control none -k regex:'shuffle_rows|permute_columns' -c 3 --section SpeedOfLight \
        --section MemoryWorkloadAnalysis "$build/bin/lab_inplace_rect" --dtype "$dtype" --sizes 8192x16384 --reps 1 |
        awk '/^  void /{p=1} /^==PROF==|^\[[0-9]+\] /{p=0} p' | grep -v '^\[\|^rect_\|^inplace\|^cudaMemcpy\|^kernel \|^---'
    done
  } >"$out" 2>"$logs/ncu_inplace_rect.log" && note "ncu_inplace_rect: $out" || fail "ncu_inplace_rect (see ncu_inplace_rect.log)"
fi

# 5. Sanitizers over the gpu test suite (or SANITIZE_FILTER's part of it), one process each.
if ! want sanitize; then
  :
elif command -v compute-sanitizer >/dev/null; then
  for tool in ${SANITIZERS:-memcheck racecheck synccheck}; do
    extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$build/bin/tp_gpu_tests" --gtest_brief=1 --gtest_filter="${SANITIZE_FILTER:-*}" >"$logs/$tool.log" 2>&1
    rc=$?
    line=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/$tool.log" | tail -n 1)
    tests=$(grep -E '^\[  PASSED|^\[  FAILED' "$logs/$tool.log" | head -n 1)
    if [ $rc -eq 0 ]; then note "$tool: ${line:-no summary line}; $tests"; else fail "$tool: exit $rc, ${line:-see $tool.log}"; fi
  done
else
  fail "compute-sanitizer not found"
fi

echo
echo "GPU check summary ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)):"
printf '  %s\n' "${summary[@]}"
exit $failed
