"""Numbers quoted in steps/08_inplace/rectangles.md, the chapter on the in-place transpose of any
rectangle (see plots/prose/__init__.py).

Sources: 08_inplace_rect and its repeat runs (step 08 end to end), lab_inplace_rect (each pass
timed alone, on the rows x cols matrix, `_rxc`, and on the cols x rows one, `_cxr`) and
ncu_inplace_rect (Nsight Compute's report on the three passes). A sentence that compares two
values is checked here: the function stops the run if the CSVs no longer say what it says.
"""
import re

from prose import DTYPES, gbps, median, num, pct, report, runs, span, table
from results import DTYPE_BYTES

SHAPES = ((8192, 16384), (10000, 7000))  # the measured rectangles, each in both orientations
SMS = 132                  # SMs of an H200 (its specification)
BOOST_GHZ = 1.98           # its boost clock (its specification)
THREAD_INSTRUCTIONS = 4 * 32  # per SM and cycle: 4 warp schedulers, 32 threads per instruction
THREE = ("rect_pass1_rotate_columns", "rect_pass2_shuffle_rows", "rect_pass3_permute_columns")


def _stop(why):
    raise SystemExit(f"prose.rect: {why}; the chapter's sentence says otherwise")


# ---- The instruction budget (the reference's prediction) --------------------------------

def budget(dtype):
    """Thread instructions an SM can issue per element while the GPU moves elements of `dtype`
    at cudaMemcpy's speed (08_inplace_rect, 8192 x 16384): each element is read and written,
    2 x sizeof(T) bytes of the copy's GB/s, shared by the SMs."""
    copy = gbps(table("08_inplace_rect"), kernel="cudaMemcpy", dtype=dtype, rows=8192, cols=16384)
    elements_per_sm = copy * 1e9 / (2 * DTYPE_BYTES[dtype]) / SMS
    return num(THREAD_INSTRUCTIONS * BOOST_GHZ * 1e9 / elements_per_sm, 0)


# ---- The three passes, each timed alone (lab_inplace_rect) -------------------------------

def _orientations(rows, cols):
    return (("rxc", rows, cols), ("cxr", cols, rows))


def _pass(kernel, dtypes=DTYPES):
    """% of cudaMemcpy of one pass (`kernel` without _rxc/_cxr), both shapes and orientations."""
    tbl = table("lab_inplace_rect")
    return [pct(tbl, kernel=f"{kernel}_{o}", dtype=d, rows=r, cols=c)
            for shape in SHAPES for o, r, c in _orientations(*shape) for d in dtypes]


def row_pass(*dtypes):
    """The row pass (16-byte chunks), the given types, both shapes and orientations."""
    return span(_pass(THREE[1], dtypes or DTYPES), 0, "%")


def column_passes():
    """Passes 1 and 3, every type, both shapes and orientations; the sentence says that they are
    all slower than the row pass."""
    columns = _pass(THREE[0]) + _pass(THREE[2])
    if max(columns) >= min(_pass(THREE[1])):
        _stop("a column pass is as fast as the row pass somewhere")
    return span(columns, 0, "%")


def three_passes():
    """The three passes end to end, their times added (1 / sum of 1 / %), both shapes and
    orientations, every type; the sentence says this is below a third of the copy."""
    ends = [1 / sum(1 / p for p in ps) for ps in zip(*(_pass(k) for k in THREE))]
    if max(ends) >= 100 / 3:
        _stop("three passes reach a third of the copy")
    return span(ends, 0, "%")


def halving_cost():
    """At 8192 x 16384 (rows x cols): the speed the column passes lose from 16- to 8-byte and
    from 8- to 4-byte chunks, every type that has the narrower chunk."""
    tbl = table("lab_inplace_rect")
    losses = []
    for kernel in (THREE[0], THREE[2]):
        for d in DTYPES:
            widths = [tbl.where(kernel=f"{kernel}{w}_rxc", dtype=d, rows=8192, cols=16384) for w in ("", "_8B", "_4B")]
            speeds = [pct(tbl, kernel=f"{kernel}{w}_rxc", dtype=d, rows=8192, cols=16384)
                      for w, found in zip(("", "_8B", "_4B"), widths) if found]
            losses += [100 * (1 - narrow / wide) for wide, narrow in zip(speeds, speeds[1:])]
    if min(losses) <= 0:
        _stop("a narrower chunk is as fast somewhere")
    return span(losses, 0, "%")


# ---- The profile of the three passes (ncu_inplace_rect) ----------------------------------

def _profile():
    """[(kernel function, {metric: value})] of Nsight Compute's report, in launch order."""
    found = []
    for line in report("ncu_inplace_rect").read_text().splitlines():
        if (m := re.match(r"\s+void (\w+)<", line)):
            found.append((m.group(1), {}))
        elif found and (m := re.match(r"\s+(\S.*?)\s{2,}\S+\s+([\d,.]+)$", line)):
            found[-1][1].setdefault(m.group(1), float(m.group(2).replace(",", "")))
    if not found:
        _stop("no kernel in the profile")
    return found


def _busy(function, metric):
    return [m[metric] for f, m in _profile() if f == function]


def column_l2_busy():
    """L2 throughput (% of peak) of the column passes; the sentence says it is above their DRAM
    throughput in every launch."""
    l2, dram = _busy("permute_columns", "L2 Cache Throughput"), _busy("permute_columns", "DRAM Throughput")
    if any(a <= b for a, b in zip(l2, dram)):
        _stop("a column pass keeps DRAM as busy as L2")
    return span(l2, 0, "%")


def column_dram_busy():
    """DRAM throughput (% of peak) of the column passes."""
    return span(_busy("permute_columns", "DRAM Throughput"), 0, "%")


def row_dram_busy():
    """DRAM throughput (% of peak) of the row pass; the sentence says it is above the column passes'."""
    rows = _busy("shuffle_rows", "DRAM Throughput")
    if min(rows) <= max(_busy("permute_columns", "DRAM Throughput")):
        _stop("the row pass keeps DRAM no busier than a column pass")
    return span(rows, 0, "%")


# ---- The two passes (08_inplace_rect and its runs, lab_inplace_rect) ----------------------

def two_pass_medians(rows, cols):
    """Step 08 end to end at rows x cols: the median over the runs of 08_inplace_rect, lowest to
    highest type; the sentence says it is below half the copy."""
    medians = [median([pct(t, kernel="inplace", dtype=d, rows=int(rows), cols=int(cols)) for t in runs("08_inplace_rect")])
               for d in DTYPES]
    if max(medians) >= 50:
        _stop("two passes reach half the copy")
    return span(medians, unit="%")


def run_count():
    """How many runs of 08_inplace_rect are committed (the chapter's CSV and its repeats)."""
    return str(len(runs("08_inplace_rect")))


def chunk_pass(which):
    """lab_inplace_rect: pass `which` of the two (1: the squares, 2: the chunks) at 8192 x 16384,
    both orientations, every type."""
    kernel = {"1": "cycles_pass1_squares", "2": "cycles_pass2_chunks"}[which]
    tbl = table("lab_inplace_rect")
    return span([pct(tbl, kernel=f"{kernel}_{o}", dtype=d, rows=r, cols=c)
                 for o, r, c in _orientations(8192, 16384) for d in DTYPES], 0, "%")


def two_over_three():
    """lab_inplace_rect, one CSV: step 08 end to end (the two passes) over the three passes' times
    added, on the same matrix (each measured rectangle as rows x cols), every type; the
    sentence says the two passes are the faster everywhere."""
    tbl = table("lab_inplace_rect")
    ratios = []
    for r, c in SHAPES:
        for d in DTYPES:
            three = 1 / sum(1 / pct(tbl, kernel=f"{k}_rxc", dtype=d, rows=r, cols=c) for k in THREE)
            ratios.append(pct(tbl, kernel="inplace", dtype=d, rows=r, cols=c) / three)
    if min(ratios) <= 1:
        _stop("the three passes are as fast as the two somewhere")
    return span(ratios, 1)
