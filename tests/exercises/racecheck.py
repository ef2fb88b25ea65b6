#!/usr/bin/env python3
"""Runs an exercise's tests under compute-sanitizer's racecheck: a missing __syncthreads()
between writing a shared-memory tile and reading it is a race, even when the output happens
to come out right.

    racecheck.py TEST_BINARY GTEST_FILTER

Exit 0 when the tests pass and racecheck reports no hazard, 1 otherwise, 77 (skipped for
ctest) when compute-sanitizer is not found or no GPU ran the tests.
"""
import os
import pathlib
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


def main(binary, gtest_filter):
    sanitizer = find_sanitizer()
    if not sanitizer:
        print("compute-sanitizer not found (it comes with the CUDA toolkit): skipped")
        return SKIP
    run = subprocess.run([sanitizer, "--tool", "racecheck", "--error-exitcode", "1", binary,
                          f"--gtest_filter={gtest_filter}"], capture_output=True, text=True)
    print(run.stdout[-20000:], run.stderr[-5000:], sep="\n")
    if "[  SKIPPED ]" in run.stdout and "[  PASSED  ]" not in run.stdout:
        return SKIP  # no GPU: the tests skipped themselves
    return 0 if run.returncode == 0 else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
