#!/usr/bin/env python3
"""Runs an exercise's tests (all but the large shapes) under compute-sanitizer's racecheck: a
missing __syncthreads() between writing a shared-memory tile and reading it is a race, even
when the output happens to come out right.

    racecheck.py TEST_BINARY GTEST_FILTER

Exit 0 when the tests pass and racecheck reports no hazard, 1 otherwise, 77 (skipped for
ctest) when compute-sanitizer is not found or no GPU ran the tests.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

SKIP = 77


def find_sanitizer():
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    for candidate in (shutil.which("compute-sanitizer"), str(pathlib.Path(nvcc).parent / "compute-sanitizer")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


# Under racecheck a kernel runs about a hundred times slower: the large shapes are left out
# (a race shows on a small tile as well as on a large one).
LARGE_SHAPES = "*Large*:*4096x4096*:*4000x6000*:*1000x1000*:*4097x4097*"


def run_racecheck(binary, gtest_filter):
    """The finished run of the tests of `gtest_filter` but the LARGE_SHAPES under racecheck, or
    None without compute-sanitizer."""
    sanitizer = find_sanitizer()
    if not sanitizer:
        return None
    return subprocess.run([sanitizer, "--tool", "racecheck", "--error-exitcode", "1", binary,
                           f"--gtest_filter={gtest_filter}-{LARGE_SHAPES}"], capture_output=True, text=True)


def no_gpu(run):
    return "[  SKIPPED ]" in run.stdout and "[  PASSED  ]" not in run.stdout  # the tests skipped themselves


def hazards(binary, gtest_filter):
    """True if racecheck reports a hazard (whether or not the tests pass), False if not, None
    when it could not tell (no compute-sanitizer, no GPU)."""
    run = run_racecheck(binary, gtest_filter)
    if run is None or no_gpu(run):
        return None
    return re.search(r"RACECHECK SUMMARY: [1-9]", run.stdout + run.stderr) is not None


def main(binary, gtest_filter):
    run = run_racecheck(binary, gtest_filter)
    if run is None:
        print("compute-sanitizer not found (it comes with the CUDA toolkit): skipped")
        return SKIP
    print(run.stdout[-20000:], run.stderr[-5000:], sep="\n")
    if no_gpu(run):
        return SKIP
    return 0 if run.returncode == 0 else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
