#!/usr/bin/env python3
"""Checks that see an exercise's idea in its compiled code, without a GPU.

A kernel can be correct and still miss the step's idea: loads and stores interleaved instead
of all loads first (03), four 4-byte stores instead of one 16-byte store (04), no barrier
(05: the test may still pass by luck). The GPU's machine code (SASS), read from the object
file with `cuobjdump -sass`, shows what the compiler made of the source:

    LDG.E / STG.E            a global load / store (of 4 bytes; .64 and .128: 8 and 16 bytes)
    LDGSTS                   cp.async: a global-to-shared copy that skips the registers
    BAR.SYNC                 __syncthreads()
    STG.E.EF                 a store with the evict-first cache hint (STG.E.EF.128: 16 bytes)
    CALL                     a subroutine call (64-bit integer division compiles to one)

Each step's rules are in CHECKS. They apply to every instantiation (element type) of the
step's kernel in the given namespace.

    check_sass.py STEP NAMESPACE OBJECT...
        Checks the kernels of NAMESPACE (tp::step04, or tp::step04::exercise for the learner's)
        in the object files. Exit 0 if every rule holds, 1 if one does not.
    check_sass.py --self-test OBJECT...
        For every step in CHECKS: the step's own kernels (tp::stepNN) must pass and the shipped
        exercise skeleton (tp::stepNN::exercise) must fail, so that a check that cannot fail
        is caught. And CONTRASTS: step 07's kernels store 16 bytes at a time (step 06's do not),
        and step 00's copy_naive keeps no division (step 07's coarsen_kernel does). Exit 1 otherwise.

Exit 77 (a skipped test for ctest) when cuobjdump is not found (1 instead when the environment
sets TP_REQUIRE_CUOBJDUMP=1, as CI does) or the objects hold no SASS for compute capability 8.0
or newer. cuobjdump comes with the CUDA toolkit, or from PyPI:
`pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm`; set CUOBJDUMP to point at one.
"""
import dataclasses
import glob
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys

SKIP = 77
MIN_ARCH = 80  # cp.async (LDGSTS) exists from sm_80 on


@dataclasses.dataclass
class Rule:
    """One thing the compiled kernel must show; `holds(sass)` is True or a reason it is not."""
    says: str
    holds: callable


def has(opcode, count=1):
    """At least `count` instructions whose name starts with `opcode` (e.g. "STG.E.128")."""
    def holds(sass):
        n = len(instructions(sass, opcode))
        return n >= count or f"found {n} {opcode}, expected at least {count}"
    return holds


def has_16_byte(opcode, count=1):
    """At least `count` global loads or stores (`opcode` "LDG" or "STG") of 16 bytes, with any
    cache hint: STG.E.128, STG.E.EF.128, LDG.E.128.CONSTANT, ..."""
    def holds(sass):
        ops = instructions(sass, opcode)
        n = sum("128" in op.split(".") for op in ops)
        widths = ", ".join(sorted(set(ops))) or "none"
        return n >= count or f"found {n} 16-byte {opcode}, expected at least {count} (the {opcode}s found: {widths})"
    return holds


def loads_before_stores(count):
    """At least `count` global loads, and every one of them before the first global store."""
    def holds(sass):
        ops = instructions(sass, "LDG", "STG")
        loads = [i for i, op in enumerate(ops) if op.startswith("LDG")]
        stores = [i for i, op in enumerate(ops) if op.startswith("STG")]
        if len(loads) < count or not stores:
            return f"found {len(loads)} loads and {len(stores)} stores, expected at least {count} loads and a store"
        late = [i for i in loads if i > stores[0]]
        return not late or (f"{len(late)} of {len(loads)} loads come after the first store, which waits for its "
                            "load: they start a round trip later. (The compiler moves a load whose value is "
                            "only stored under a condition into that branch: load under the store's condition.)")
    return holds


def barrier_between(write, read):
    """A barrier (BAR.SYNC) after the first `write` and before the first `read` that follows it."""
    def holds(sass):
        ops = instructions(sass, write, read, "BAR.SYNC")
        first_write = next((i for i, op in enumerate(ops) if op.startswith(write)), None)
        if first_write is None:
            return f"no {write}"
        first_read = next((i for i in range(first_write, len(ops)) if ops[i].startswith(read)), None)
        if first_read is None:
            return f"no {read} after the first {write}"
        between = [op for op in ops[first_write:first_read] if op.startswith("BAR.SYNC")]
        return bool(between) or f"no BAR.SYNC between the first {write} and the {read} after it"
    return holds


# step -> (the kernel, as a regular expression on the demangled name without the namespace,
#          the rules its SASS must follow)
CHECKS = {
    "00_copy": (r"copy_vec16_kernel<|copy_vec_kernel<[^<>]*, uint4>", [
        Rule("each vector is copied with one 16-byte load (LDG.E.128)", has_16_byte("LDG")),
        Rule("... and one 16-byte store (STG.E.128)", has_16_byte("STG")),
    ]),
    "03_unroll": (r"transpose_unroll_kernel<(4, )?[A-Za-z_]", [
        Rule("all 4 loads of a thread are issued before its first store", loads_before_stores(4)),
    ]),
    "04_vectorize": (r"vec16_store_kernel<[^<>]*, true>", [
        Rule("the output chunk is written with one 16-byte store (STG.E.128, with or without a "
             "cache hint)", has_16_byte("STG")),
    ]),
    "05_shared": (r"shared_kernel<", [
        Rule("a barrier (__syncthreads, BAR.SYNC) separates the writes of the tile (STS) from "
             "the reads (LDS)", barrier_between("STS", "LDS")),
    ]),
    "07_coarsen": (r"coarsen_kernel<", [
        Rule("the tile is loaded with cp.async (LDGSTS)", has("LDGSTS")),
        Rule("each output chunk is written with one 16-byte store (STG.E.128: two in the store "
             "loop, unrolled by 2)", has_16_byte("STG", 2)),
    ]),
}


def only_16_byte_stores(sass):
    """Every global store is 16 bytes wide (STG.E.128, STG.E.EF.128, STG.E.128.STRONG.SM, ...):
    none was split."""
    stores = instructions(sass, "STG")
    narrow = sorted({op for op in stores if "128" not in op.split(".")})
    if not stores:
        return "no global store"
    return not narrow or f"stores narrower than 16 bytes: {', '.join(narrow)}"


def no_call(sass):
    """No subroutine call (CALL): 64-bit integer division and remainder compile to one."""
    calls = instructions(sass, "CALL")
    return not calls or f"{len(calls)} CALL ({', '.join(sorted(set(calls)))})"


@dataclasses.dataclass
class Contrast:
    """A rule that must hold on some of the steps' kernels and fail on others (so it can fail)."""
    step: str
    rule: Rule
    holds_on: str   # regular expression on the demangled kernel name
    fails_on: str


CONTRASTS = [
    # Step 07's kernels (parts a to c) must store 16 bytes at a time (a plain `*p = packed` once
    # compiled to 4-byte stores, and made an evict-first row look like a large gain); step 06's
    # kernels, one element per store, must not.
    Contrast("07_coarsen", Rule("step 07's kernels store 16 bytes at a time", only_16_byte_stores),
             r"^void tp::step07::(wide_kernel|coarsen_kernel)<", r"^void tp::step06::"),
    # Step 00's chapter says the compiler removes copy_naive's 64-bit `/` and `%` (r * cols + c
    # is idx again); step 07's coarsen_kernel divides 64-bit numbers and calls the subroutine.
    Contrast("00_copy", Rule("step 00's copy_naive has no division left (no CALL)", no_call),
             r"^void tp::step00::copy_naive_kernel<", r"^void tp::step07::coarsen_kernel<"),
]


def check_contrast(c, sass_by_kernel, out=print):
    """c.rule on the kernels matching c.holds_on (must hold) and c.fails_on (must not); True if both."""
    holding = {n: s for n, s in sass_by_kernel.items() if re.match(c.holds_on, n)}
    failing = {n: s for n, s in sass_by_kernel.items() if re.match(c.fails_on, n)}
    if not holding or not failing:
        out(f"FAIL  {c.step}: no kernel matching '{c.holds_on}' or '{c.fails_on}' in the object files")
        return False
    ok = True
    for name, sass in sorted(holding.items()):
        if (held := c.rule.holds(sass)) is not True:
            ok = False
            out(f"FAIL  {name.split('(')[0]}: {held}")
    for name, sass in sorted(failing.items()):
        if c.rule.holds(sass) is True:
            ok = False
            out(f"FAIL  {name.split('(')[0]}: passes the rule, which it must fail")
    out(f"{'ok  ' if ok else 'FAIL'}  {c.step}: {c.rule.says} (and the kernels that must fail it do)")
    return ok


def instructions(sass, *prefixes):
    """The opcodes (with modifiers, e.g. "STG.E.128") of the SASS lines, in program order,
    that start with one of `prefixes`; a predicate (@P0) is skipped."""
    ops = re.findall(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", sass)
    return [op for op in ops if op.startswith(prefixes)]


def find_cuobjdump():
    """cuobjdump from $CUOBJDUMP, the PATH, the CUDA toolkit beside nvcc, or a pip wheel."""
    candidates = [os.environ.get("CUOBJDUMP"), shutil.which("cuobjdump")]
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    candidates.append(str(pathlib.Path(nvcc).parent / "cuobjdump"))
    spec = importlib.util.find_spec("nvidia")  # pip install nvidia-cuda-cuobjdump
    for root in (spec.submodule_search_locations if spec else []):
        candidates += sorted(glob.glob(os.path.join(root, "*", "bin", "cuobjdump")))
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def kernels(cuobjdump, objects):
    """{demangled kernel name: SASS text} of the highest architecture (>= MIN_ARCH) present."""
    by_arch = {}
    for obj in objects:
        run = subprocess.run([cuobjdump, "-sass", obj], capture_output=True, text=True)
        if run.returncode != 0:
            if "does not contain device code" in run.stdout + run.stderr:
                continue  # a host-only object (a .cpp file)
            raise SystemExit(f"{cuobjdump} -sass {obj} failed: {run.stderr.strip()}")
        text = run.stdout
        arch = 0
        for chunk in re.split(r"(?m)^(?=\s*arch = sm_\d+|\s*Function : )", text):
            if m := re.match(r"\s*arch = sm_(\d+)", chunk):
                arch = int(m.group(1))
            elif m := re.match(r"\s*Function : (\S+)", chunk):
                by_arch.setdefault(arch, {})[m.group(1)] = chunk
    arch = max((a for a in by_arch if a >= MIN_ARCH), default=None)
    if arch is None:
        return None
    mangled = list(by_arch[arch])
    names = subprocess.run(["c++filt"], input="\n".join(mangled), check=True, capture_output=True,
                           text=True).stdout.split("\n")
    return {name: by_arch[arch][m] for m, name in zip(mangled, names)}


def check(step, namespace, sass_by_kernel, out=print):
    """Applies the step's rules to the kernels of `namespace`; True if every rule holds."""
    pattern, rules = CHECKS[step]
    kernel = re.compile(r"^void " + re.escape(namespace) + r"::(" + pattern + ")")
    found = {name: sass for name, sass in sass_by_kernel.items() if kernel.match(name)}
    if not found:
        out(f"FAIL  {step} {namespace}: no kernel matching '{pattern}' in the object files")
        return False
    ok = True
    for rule in rules:
        reasons = {name: rule.holds(sass) for name, sass in found.items()}
        failed = {name: r for name, r in reasons.items() if r is not True}
        ok = ok and not failed
        out(f"{'FAIL' if failed else 'ok  '}  {step}: {rule.says}")
        for name, reason in failed.items():
            out(f"        {name.split('(')[0]}: {reason}")
    return ok


def main(argv):
    cuobjdump = find_cuobjdump()
    if not cuobjdump:
        required = os.environ.get("TP_REQUIRE_CUOBJDUMP") == "1"
        print("cuobjdump not found (CUDA toolkit, or pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm): "
              + ("failed (TP_REQUIRE_CUOBJDUMP=1)" if required else "skipped"))
        return 1 if required else SKIP
    self_test = argv[:1] == ["--self-test"]
    objects = argv[1:] if self_test else argv[2:]
    if not objects:
        print(__doc__)
        return 2
    sass = kernels(cuobjdump, objects)
    if sass is None:
        print(f"no SASS for sm_{MIN_ARCH} or newer in the object files (build for such a GPU): skipped")
        return SKIP
    if not self_test:
        step, namespace = argv[0], argv[1]
        if step not in CHECKS:
            print(f"step {step} has no SASS checks (steps with checks: {', '.join(CHECKS)})")
            return 2
        return 0 if check(step, namespace, sass) else 1
    wrong = []
    for step in CHECKS:
        number = step[:2]
        if not check(step, f"tp::step{number}", sass):
            wrong.append(f"{step}: the step's own kernel fails its checks")
        print(f"      ({step} skeleton as shipped: its checks must fail)")
        if check(step, f"tp::step{number}::exercise", sass, out=lambda line: print("      " + line)):
            wrong.append(f"{step}: the checks pass on the shipped skeleton, so they cannot fail")
    for c in CONTRASTS:
        if not check_contrast(c, sass):
            wrong.append(f"{c.step}: {c.rule.says}: it does not hold, or it cannot fail")
    print("\n".join(wrong) if wrong else "every check passes on the steps' kernels and fails on the skeletons")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
