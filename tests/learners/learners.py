#!/usr/bin/env python3
"""The learner solutions: what learners plausibly write into the exercises, right, wrong, and
right in another way than the step's, each with the verdict the exercise's checks must reach.

A solution is a unified diff against the shipped skeleton (`diff -u`), in
tests/learners/<step>/<name>.diff, whose first lines say what it is and what must happen:

    Exercise 01, wrong: the output offset in int arithmetic wraps past 2^31 elements.
    expect: caught by test

`expect: accepted` (every check passes), or `expect: caught by CHECK`, CHECK one of
    test        the exercise's GoogleTest binary fails (its GPU cases, or its CPU ones) or hangs
    sass        check_sass.py's rules for the step fail on the compiled kernel
    racecheck   compute-sanitizer's racecheck finds a hazard in shared memory
    synccheck   compute-sanitizer's synccheck finds a barrier used wrongly

    learners.py apply DIFF SKELETON OUT
        Writes the skeleton with the diff applied to OUT (the build compiles the exercise's
        test against it). A diff that no longer applies is an error: the skeleton changed.
    learners.py run MANIFEST [--gpu] [--summary CSV]
        Runs every solution of MANIFEST (one line per solution: step, name, diff, test binary,
        object files separated by ';'; written by CMake) through the checks and compares the
        verdict with its expectation. Without --gpu, only what needs no GPU: the SASS rules,
        and the test binary, whose GPU cases skip; a solution that only a GPU can judge is
        reported as such. With --gpu, also racecheck and synccheck (05 to 08), and every
        verdict counts.
        Exit 0 if every verdict that could be reached is the expected one, 1 otherwise, 77
        (skipped for ctest) when --gpu is given and no GPU ran the tests.
"""
import csv
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "exercises"))
import check_sass  # noqa: E402  (tests/exercises/)
import sanitize  # noqa: E402

SKIP = 77
TEST_TIMEOUT = 120  # seconds; the tests of a right solution take under 15 on an H100
HUNG = "hung"  # a barrier that some threads never reach can wait forever
UNDECIDED = "undecided: its tests skipped on this machine"
SANITIZED_STEPS = {"05_shared", "06_padded", "07_coarsen", "08_inplace"}  # shared-memory tiles, barriers


def header(diff_text):
    """(what the solution is, the expected verdict: "accepted" or the name of a check)."""
    lines = diff_text.split("\n")
    says = lines[0].strip()
    expect = next((ln for ln in lines if ln.startswith("expect:")), None)
    if expect is None:
        raise SystemExit(f"no 'expect:' line in {says!r}")
    m = re.fullmatch(r"expect: (accepted|caught by (test|sass|racecheck|synccheck))\s*", expect)
    if not m:
        raise SystemExit(f"bad line {expect!r}: 'expect: accepted' or 'expect: caught by test|sass|racecheck|synccheck'")
    return says, m.group(2) or "accepted"


def hunks(diff_text):
    """[(old lines, new lines)] of a unified diff (line numbers are ignored: the old lines are
    found by their text)."""
    result, old, new, inside = [], None, None, False
    for line in diff_text.split("\n"):
        if line.startswith("@@"):
            if old is not None:
                result.append((old, new))
            old, new, inside = [], [], True
        elif inside and line[:1] in (" ", "-", "+"):
            if line[0] in " -":
                old.append(line[1:])
            if line[0] in " +":
                new.append(line[1:])
        elif inside and line == "":
            continue
        elif inside and line.startswith("\\"):
            continue  # "\ No newline at end of file"
    if old is not None:
        result.append((old, new))
    return result


def apply(diff_path, skeleton_path, out_path):
    text = pathlib.Path(skeleton_path).read_text()
    lines = text.split("\n")
    for old, new in hunks(pathlib.Path(diff_path).read_text()):
        at = [i for i in range(len(lines) - len(old) + 1) if lines[i:i + len(old)] == old]
        if len(at) != 1:
            raise SystemExit(f"{diff_path}: a hunk {'matches ' + str(len(at)) + ' places' if at else 'no longer matches'} "
                             f"in {skeleton_path}; redo the diff against the skeleton (diff -u)")
        lines[at[0]:at[0] + len(old)] = new
    out = pathlib.Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines))
    return 0


def run_test(binary, number, gpu):
    """'pass' or 'fail' of the exercise's tests; 'skipped' when its GPU cases did not run."""
    env = dict(os.environ)
    if not gpu:
        env["CUDA_VISIBLE_DEVICES"] = ""  # the GPU cases skip, even on a machine with a GPU
    try:
        run = subprocess.run([binary, f"--gtest_filter=*Exercise{number}*"], capture_output=True, text=True, env=env,
                             timeout=TEST_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "fail", f"{HUNG}: no result after {TEST_TIMEOUT} s"
    if gpu and "no CUDA GPU" in run.stdout:  # the skip message of tests/gpu_guard.hpp
        return "skipped", "no GPU"
    if run.returncode not in (0, SKIP):  # 77: some cases skipped, none failed (tests/gtest_main.cpp)
        failed = sorted(set(re.findall(r"\[  FAILED  \] (\S+\.\S+?),? ", run.stdout)))
        return "fail", "; ".join(failed[:3]) or run.stdout[-300:]
    if gpu and run.returncode == SKIP:
        return "skipped", "its tests skipped (too few GPUs, or too little memory)"
    return "pass", ""


def run_sass(step, objects, cuobjdump):
    if step not in check_sass.CHECKS:
        return "n/a", ""
    sass = check_sass.kernels(cuobjdump, objects)
    if sass is None:
        return "skipped", "no SASS for sm_80 or newer"
    said = []
    ok = check_sass.check(step, f"tp::step{step[:2]}::exercise", sass, out=said.append)
    return ("pass" if ok else "fail"), " ".join(ln.strip() for ln in said if ln.startswith(("FAIL", " ")))


def run_sanitizer(tool, step, binary, gpu):
    if step not in SANITIZED_STEPS or not gpu:
        return "n/a", ""
    found = sanitize.reports(tool, binary, f"*Exercise{step[:2]}*")
    return {True: "fail", False: "pass", None: "skipped"}[found], f"{tool} reports a hazard" if found else ""


def verdict(expect, results, gpu):
    """'as expected', 'WRONG: ...', 'needs a GPU', or 'undecided' (its tests skipped)."""
    failed = [check for check, (state, _) in results.items() if state == "fail"]
    if gpu and results["test"][0] == "skipped" and expect in ("test", "accepted") and not failed:
        return UNDECIDED
    if expect == "accepted":
        return "as expected" if not failed else f"WRONG: rejected by {', '.join(failed)}"
    if expect in failed:
        return "as expected"
    if results.get(expect, ("n/a",))[0] == "n/a" and expect not in sanitize.TOOLS:
        return f"WRONG: the step has no {expect} check"
    if not gpu:
        return "needs a GPU"
    return f"WRONG: not caught by {expect}" + (f" (caught by {', '.join(failed)})" if failed else "")


def run(manifest, gpu, summary):
    cuobjdump = check_sass.find_cuobjdump()
    if not cuobjdump and os.environ.get("TP_REQUIRE_CUOBJDUMP") == "1":
        print("cuobjdump not found (TP_REQUIRE_CUOBJDUMP=1)")
        return 1
    rows, wrong = [], 0
    for line in pathlib.Path(manifest).read_text().splitlines():
        step, name, diff, binary, objects = line.split("\t")
        says, expect = header(pathlib.Path(diff).read_text())
        results = {"test": run_test(binary, step[:2], gpu)}
        if results["test"] == ("skipped", "no GPU"):
            print("--gpu, but no GPU ran the tests: skipped")
            return SKIP
        results["sass"] = run_sass(step, objects.split(";"), cuobjdump) if cuobjdump else ("skipped", "no cuobjdump")
        hung = results["test"][1].startswith(HUNG)  # then the sanitizers would hang too
        for tool in sanitize.TOOLS:
            results[tool] = ("n/a", "") if hung else run_sanitizer(tool, step, binary, gpu)
        got = verdict(expect, results, gpu)
        wrong += got.startswith("WRONG")
        rows.append({"step": step, "solution": name, "expect": expect,
                     **{check: state for check, (state, _) in results.items()}, "verdict": got, "says": says})
        why = "; ".join(f"{c}: {d}" for c, (s, d) in results.items() if s == "fail" and d)
        print(f"{'FAIL' if got.startswith('WRONG') else 'ok  '}  {step}/{name}: expect {expect}; "
              + ", ".join(f"{c} {s}" for c, (s, _) in results.items()) + f" -> {got}" + (f"\n        {why}" if why else ""))
    if summary:
        with open(summary, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    undecided = sum(r["verdict"] in ("needs a GPU", UNDECIDED) for r in rows)
    print(f"{len(rows)} solutions: {len(rows) - wrong - undecided} as expected, {wrong} wrong"
          + (f", {undecided} undecided here (a GPU, more GPUs or more memory needed)" if undecided else ""))
    return 1 if wrong else 0


def main(argv):
    if len(argv) == 4 and argv[0] == "apply":
        return apply(*argv[1:])
    if argv[:1] == ["run"] and len(argv) >= 2:
        summary = argv[argv.index("--summary") + 1] if "--summary" in argv else None
        return run(argv[1], "--gpu" in argv, summary)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
