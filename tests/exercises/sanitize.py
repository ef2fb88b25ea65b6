#!/usr/bin/env python3
"""Runs an exercise's tests (all but the large shapes) under one of compute-sanitizer's tools:
    racecheck   a hazard in shared memory: a missing __syncthreads() between writing a tile
                and reading it, or a read of a cp.async destination before the wait, is a
                race even when the output happens to come out right;
    synccheck   a barrier used wrongly: __syncthreads() inside a branch that some threads of
                the block skip.

    sanitize.py TOOL TEST_BINARY GTEST_FILTER

Exit 0 when the tests pass and the tool reports nothing, 1 otherwise, 77 (skipped for ctest)
when compute-sanitizer is not found or no GPU ran the tests.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

SKIP = 77
TOOLS = ("racecheck", "synccheck")
# Under a sanitizer a kernel runs about a hundred times slower: the large shapes are left out
# (a race shows on a small tile as well as on a large one).
LARGE_SHAPES = "*Large*:*4096x4096*:*4000x6000*:*1000x1000*:*4097x4097*"


def find_sanitizer():
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    for candidate in (shutil.which("compute-sanitizer"), str(pathlib.Path(nvcc).parent / "compute-sanitizer")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def run_tool(tool, binary, gtest_filter):
    """The finished run of the tests of `gtest_filter` but the LARGE_SHAPES under `tool`, or
    None without compute-sanitizer."""
    sanitizer = find_sanitizer()
    if not sanitizer:
        return None
    return subprocess.run([sanitizer, "--tool", tool, "--error-exitcode", "1", binary,
                           f"--gtest_filter={gtest_filter}-{LARGE_SHAPES}"], capture_output=True, text=True)


def no_gpu(run):
    return "[  SKIPPED ]" in run.stdout and "[  PASSED  ]" not in run.stdout  # the tests skipped themselves


def reports(tool, binary, gtest_filter):
    """True if `tool` reports a hazard or an error (whether or not the tests pass), False if
    not, None when it could not tell (no compute-sanitizer, no GPU)."""
    run = run_tool(tool, binary, gtest_filter)
    if run is None or no_gpu(run):
        return None
    return re.search(r"(RACECHECK|ERROR) SUMMARY: [1-9]", run.stdout + run.stderr) is not None


def main(tool, binary, gtest_filter):
    if tool not in TOOLS:
        sys.exit(__doc__)
    run = run_tool(tool, binary, gtest_filter)
    if run is None:
        print("compute-sanitizer not found (it comes with the CUDA toolkit): skipped")
        return SKIP
    print(run.stdout[-20000:], run.stderr[-5000:], sep="\n")
    if no_gpu(run):
        return SKIP
    return 0 if run.returncode == 0 else 1


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
