"""Numbers quoted in the sentences of the README and docs/ pages outside the chapters: the
README, docs/reading.md, docs/method.md, docs/beyond.md, docs/glossary.md (see
plots/prose/__init__.py).

`_ncu_details` reads the metrics of each kernel in a text report of Nsight Compute's details
page (found by prose.report).
"""
import re

import results
from prose import num, report, span, table

# ---------------------------------------------------------------------------------------------
# The README's "How long they take": scripts/time-commands.sh writes times_<machine>_<date>.txt,
# lines such as "build: 44 s, exit 0".


def _seconds(machine, command):
    """Seconds that `command` (build, tests, ci) took in the newest times_<machine>_*.txt."""
    path = report(f"times_{machine}")
    match = re.search(rf"^{command}: (\d+) s, exit 0\b", path.read_text(), re.M)
    if not match:
        raise SystemExit(f"prose: no successful '{command}' line in docs/results/{path.name}")
    return int(match.group(1))


def _duration(seconds):
    """'44 s' under two minutes, '2.9 minutes' from there on."""
    return f"{seconds} s" if seconds < 120 else f"{num(seconds / 60)} minutes"


def gpu_build_time():
    """The build's time on the machine with an H200 (times_h200_*.txt)."""
    return _duration(_seconds("h200", "build"))


def gpu_test_time():
    """The tests' time on the machine with an H200 (times_h200_*.txt)."""
    return _duration(_seconds("h200", "tests"))


def cpu_build_time():
    """The build's time on 2 cores without a GPU (times_cpu2_*.txt)."""
    return _duration(_seconds("cpu2", "build"))


def cpu_test_time():
    """The tests' time on 2 cores without a GPU, GPU tests skipped (times_cpu2_*.txt)."""
    return _duration(_seconds("cpu2", "tests"))


def cpu_ci_time():
    """The CI script's time on 2 cores without a GPU (times_cpu2_*.txt)."""
    return _duration(_seconds("cpu2", "ci"))


# ---------------------------------------------------------------------------------------------
# docs/beyond.md, "Measured beside ours": the peers CSV (the tour and scripts/peers.py in one run).

OURS_NOT = {results.REF, "peer", "00_copy"}  # steps of the peers CSV that are not our transposes


def _peers_pct(tbl, kernel, dtype, rows, cols):
    """% of cudaMemcpy of `kernel` at rows x cols in the peers Table `tbl`, verified."""
    found = tbl.where(kernel=kernel, dtype=dtype, rows=int(rows), cols=int(cols))
    if len(found) != 1 or not found[0]["verified"]:
        raise SystemExit(f"prose: no single verified {kernel} {dtype} {rows}x{cols} in {tbl.path.name}")
    return found[0]["pct_of_memcpy"]


def _record_leads():
    """The record's points over torch.compile's at every type and shape of the peers CSV."""
    tbl = table("peers")
    shapes = [(r["dtype"], r["rows"], r["cols"]) for r in tbl.where(kernel="torch_compile")]
    return {s: _peers_pct(tbl, "record", *s) - _peers_pct(tbl, "torch_compile", *s) for s in shapes}


def record_lead_from(n):
    """The record's smallest lead over torch.compile in the peers CSV on the squares from n x n
    up and on the shapes whose rows are not a multiple of 16 elements, and where; fails if
    torch.compile leads there (beyond.md says it does not)."""
    n = int(n)
    leads = {k: v for k, v in _record_leads().items() if k[1] >= n or k[1] % 16 or k[2] % 16}
    (dtype, rows, cols), lead = min(leads.items(), key=lambda kv: kv[1])
    if lead <= 0:
        raise SystemExit(f"prose: torch.compile leads the record at {dtype} {rows}x{cols}, where beyond.md says it does not")
    return f"{num(lead)} points (`{dtype}` {rows} x {cols})"


def compile_ahead_at(n):
    """The types at n x n where torch.compile is ahead of the record in the peers CSV, with its
    lead: "`float` (1.0 points) and `double` (1.3)", or "no type"."""
    ahead = [(d, -v) for (d, r, c), v in _record_leads().items() if r == c == int(n) and v < 0]
    if not ahead:
        return "no type"
    words = [f"`{d}` ({num(v)} points)" if i == 0 else f"`{d}` ({num(v)})" for i, (d, v) in enumerate(ahead)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def record_lead_at(n):
    """The record's points over torch.compile's at n x n in the peers CSV, every type, as a span."""
    return span([v for (d, r, c), v in _record_leads().items() if r == c == int(n)])


def record_lead_over(kernel, dtype, odd):
    """The record's points over `kernel`'s at `dtype` in the peers CSV, on the shapes whose rows
    are not a multiple of 16 elements (odd="odd") or on the others ("aligned"), as a span."""
    tbl = table("peers")
    shapes = {(r["rows"], r["cols"]) for r in tbl.where(kernel=kernel, dtype=dtype)}
    want = {"odd": True, "aligned": False}[odd]
    return span([_peers_pct(tbl, "record", dtype, r, c) - _peers_pct(tbl, kernel, dtype, r, c)
                 for r, c in sorted(shapes) if (r % 16 != 0 or c % 16 != 0) == want])


def _memcpy_gaps(aligned):
    """|cudaMemcpy_torch / cudaMemcpy - 1| in % for every type and shape of the peers CSV whose
    rows are (aligned=True) or are not (False) a multiple of 16 elements on both sides."""
    tbl = table("peers")
    gaps = []
    for ours in tbl.where(kernel=results.MEMCPY):
        if ((ours["rows"] % 16 == 0 and ours["cols"] % 16 == 0)) != aligned:
            continue
        theirs = tbl.where(kernel="cudaMemcpy_torch", dtype=ours["dtype"], rows=ours["rows"], cols=ours["cols"])
        if len(theirs) != 1:
            raise SystemExit(f"prose: no single cudaMemcpy_torch beside {ours['dtype']} {ours['rows']}x{ours['cols']}")
        gaps.append(abs(theirs[0]["gbps"] / ours["gbps"] - 1) * 100)
    return gaps


def memcpy_gap_squares():
    """The largest gap between the two cudaMemcpy measurements on the squares (peers CSV)."""
    return num(max(_memcpy_gaps(aligned=True))) + "%"


def memcpy_gap_odd():
    """The largest gap between the two cudaMemcpy measurements on the odd shapes (peers CSV)."""
    return num(max(_memcpy_gaps(aligned=False))) + "%"


# ---------------------------------------------------------------------------------------------
# docs/beyond.md: Nsight Compute's details of torch.compile's kernel and of the lab's record at
# float 4096, the text report that beyond.md names.

COMPILE_REPORT = "ncu_compile4096_h200_2026-11-24.txt"
KERNEL_LINE = re.compile(r"^  \S.*\(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)")
METRIC_LINE = re.compile(r"^    (?P<name>\S.*?)\s{2,}(?:\S+\s+)?(?P<value>[\d,]+(?:\.\d+)?)$")


def _ncu_details(name):
    """{(section, dtype): {metric: number}} of a text report of Nsight Compute's details page in
    docs/results/: a section starts at '## name', a kernel at its launch line; the dtype is the
    section name's last word or the kernel's first template argument."""
    path = results.RESULTS / name
    if not path.exists():
        raise SystemExit(f"prose: no docs/results/{name} for a quoted value")
    kernels, section, metrics = {}, None, None
    for line in path.read_text().split("\n"):
        if line.startswith("## "):
            section = line[3:].strip()
        elif KERNEL_LINE.match(line):
            typed = re.search(r"<(\w+)", line)
            dtype = typed.group(1) if typed else section.rsplit("_", 1)[-1]
            metrics = kernels.setdefault((section, dtype), {})
        elif metrics is not None and (m := METRIC_LINE.match(line)):
            metrics[m.group("name")] = float(m.group("value").replace(",", ""))
    return kernels


def _compile_metric(section, metric):
    """One metric of the float kernel of `section` (ncu_triton_float or ncu_record)."""
    kernel = _ncu_details(COMPILE_REPORT).get((section, "float"), {})
    if metric not in kernel:
        raise SystemExit(f"prose: no '{metric}' of {section}, float, in docs/results/{COMPILE_REPORT}")
    return kernel[metric]


def compile_registers():
    """Registers per thread of torch.compile's kernel at float 4096 (ncu_compile4096 report)."""
    return num(_compile_metric("ncu_triton_float", "Registers Per Thread"), 0)


def record_registers():
    """Registers per thread of the lab's record at float 4096 (ncu_compile4096 report)."""
    return num(_compile_metric("ncu_record", "Registers Per Thread"), 0)


def compile_occupancy():
    """Achieved occupancy of torch.compile's kernel at float 4096 (ncu_compile4096 report)."""
    return num(_compile_metric("ncu_triton_float", "Achieved Occupancy"), 0) + "%"


def record_occupancy():
    """Achieved occupancy of the lab's record at float 4096 (ncu_compile4096 report)."""
    return num(_compile_metric("ncu_record", "Achieved Occupancy"), 0) + "%"


# ---------------------------------------------------------------------------------------------
# The README's second GPU: the tour on an H100 beside the pages' H200.

H100 = "h100-80gb-hbm3"  # the slug of the second GPU's files


def _h100_tour():
    (path,) = results.files("tour", results.RESULTS, H100)[-1:]
    return results.read(path)


def h100_naive_higher():
    """The README says the naive steps (01 to 04) come closer to the copy on the H100 than on the
    H200, at 16384 in float (checked); returns step 02's % on each, 'a% on the H100 (b% on the H200)'."""
    from prose import pct
    h100, h200 = _h100_tour(), table("tour")
    at = dict(dtype="float", rows=16384, cols=16384)
    for kernel in ("naive_row", "naive_col", "unroll4", "vec16_store"):
        if pct(h100, kernel=kernel, **at) <= pct(h200, kernel=kernel, **at):
            raise SystemExit(f"prose.pages: {kernel} is not closer to the copy on the H100")
    return f"{num(pct(h100, kernel='naive_col', **at))}% on the H100 ({num(pct(h200, kernel='naive_col', **at))}% on the H200)"


def h100_coarsen_pct():
    """Step 07 on the H100 and the H200, float 16384 x 16384, % of cudaMemcpy. The README says both
    end at the same place, within 4 points of the copy (checked)."""
    from prose import pct
    at = dict(kernel="coarsen", dtype="float", rows=16384, cols=16384)
    h100, h200 = pct(_h100_tour(), **at), pct(table("tour"), **at)
    if min(h100, h200) < 96:
        raise SystemExit("prose.pages: step 07 is more than 4 points from the copy on one of the GPUs")
    return f"{num(h100)}% on the H100 and {num(h200)}% on the H200"


# ---------------------------------------------------------------------------------------------
# The README's learner solutions: tests/learners/learners.py --gpu writes learners_<gpu>_<date>.csv.


def learner_solutions():
    """How many learner solutions the GPU check ran, of which right, wrong and right another way:
    '32 (10 right, ...)'. The README says every verdict was the expected one (checked)."""
    (path,) = results.files("learners", results.RESULTS, H100)[-1:]
    rows = results.read(path).rows
    off = [f"{r['step']}/{r['solution']}" for r in rows if r["verdict"] != "as expected"]
    if off:
        raise SystemExit(f"prose.pages: learner solutions not as expected: {', '.join(off)}")
    kinds = [str(r["solution"]).split("_")[0] for r in rows]
    return (f"{len(rows)} ({kinds.count('right')} the steps' own, {kinds.count('wrong')} wrong, "
            f"{kinds.count('valid')} right another way)")
