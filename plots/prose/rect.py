"""Numbers quoted in steps/08_inplace/rectangles.md, the chapter on the in-place transpose of any
rectangle (see plots/prose/__init__.py).

Sources:
- 08_inplace_shapes and its repeat runs (H100): step 08 end to end (`inplace`), the plain
  reference (`rect_reference`) and cudaMemcpy on four rectangles; the reference's budget.
- 08_inplace_rect and its repeat runs (H200): step 08 end to end on the two rectangles that
  take the two passes of squares and chunks.
- lab_inplace_rect (H200): each pass timed alone, on the rows x cols matrix (`_rxc`) and on the
  cols x rows one (`_cxr`); column passes with narrower pieces (`_16B`, `_8B`, `_4B`) and on
  thread-block clusters (`_cluster2`, 4, 8).
- lab_inplace_align and its repeats (H200): the two passes on four shapes of one 10 x 7 grid
  of squares whose side g differs.
- ncu_inplace_rect (H200): Nsight Compute's report on the three passes.
A sentence that compares values is checked here: the function stops the run if the CSVs no
longer say what the sentence says.
"""
import math
import re

from prose import DTYPES, gbps, median, num, pct, report, runs, span, table
from results import DTYPE_BYTES

# The GPUs whose budget the chapter computes: (SMs, boost clock in GHz), from their
# specifications (H100 SXM5 and H200 SXM). A run on another GPU stops the run until added.
SPECS = {"NVIDIA H100 80GB HBM3": (132, 1.98), "NVIDIA H200": (132, 1.98)}
ISSUE_PER_CYCLE = 4 * 32  # thread instructions an SM issues per cycle: 4 schedulers x 32 threads
XU_PER_CYCLE = 16         # I2F, F2I, MUFU.RCP per SM and cycle on sm_90 (CUDA C++ Programming
                          # Guide, arithmetic instructions' throughput)
# The reference's 64-bit `/` and `%` per element over its three passes: pass 1 j / b and % m,
# pass 2 j / b, % m and % n, pass 3 r / a and % m. Where both operands fit in 32 bits each
# one takes a short path with one I2F, one MUFU.RCP and one F2I (its SASS for sm_90).
DIVISIONS = 2 + 3 + 2
XU_PER_DIVISION = 3
SHAPES = ((8192, 16384), (10000, 7000))  # the lab's two rectangles, each in both orientations
THREE = ("rect_pass1_rotate_columns", "rect_pass2_shuffle_rows", "rect_pass3_permute_columns")
SHARED_BYTES = 227 * 1024  # a block's shared memory at most (H100, H200): the panel's limit


def _stop(why):
    raise SystemExit(f"prose.rect: {why}; the chapter's sentence says otherwise")


def caption(source):
    """The provenance of a hand-made table of medians over the runs of `source`: GPU, CUDA,
    commit(s), how many runs, and the files."""
    tables = runs(source)
    first = tables[0].rows[0]
    if len({t.gpu for t in tables}) > 1:
        _stop(f"the runs of {source} come from more than one GPU, and the table takes their median")
    commits = ", ".join(dict.fromkeys(t.rows[0]["git_sha"] for t in tables))
    reps = ", ".join(str(r) for r in dict.fromkeys(t.rows[0]["reps"] for t in tables))
    return (f"{first['gpu']}, CUDA {first['cuda']}, commit {commits}; median of {len(tables)} runs, each the "
            f"median of {reps} cold-L2 repetitions; from `docs/results/{source}_*.csv`")


def _median(source, **equal):
    return median([pct(t, **equal) for t in runs(source)])


# ---- The reference's budget, and what it measured (08_inplace_shapes, H100) ---------------

def _spec():
    gpu = runs("08_inplace_shapes")[0].gpu
    if gpu not in SPECS:
        _stop(f"no SM count and clock for {gpu} in prose/rect.py")
    return gpu, *SPECS[gpu]


def budget_inputs():
    """The GPU of 08_inplace_shapes and the specification the budget takes from it."""
    gpu, sms, ghz = _spec()
    return f"{gpu}: {sms} SMs at up to {ghz} GHz"


def _cycles(dtype):
    """Cycles an SM has per element while the GPU moves elements of `dtype` at cudaMemcpy's
    speed (median GB/s of the runs, 8192 x 16384): each element is read and written."""
    _, sms, ghz = _spec()
    copy = median([gbps(t, kernel="cudaMemcpy", dtype=dtype, rows=8192, cols=16384) for t in runs("08_inplace_shapes")])
    return sms * ghz * 1e9 / (copy * 1e9 / (2 * DTYPE_BYTES[dtype]))


def _predicted(dtype):
    """The ceiling: a third of the copy (three passes of all the bytes), or the XU pipe's time
    for the reference's divisions, whichever is lower, as % of cudaMemcpy."""
    return min(100 / 3, 100 * XU_PER_CYCLE * _cycles(dtype) / (DIVISIONS * XU_PER_DIVISION))


def budget(what, dtype):
    """One cell of the budget table (8192 x 16384, `dtype`): the copy's GB/s, the cycles per
    element, the issue and XU slots in them, the predicted ceiling, the measured reference.
    The chapter says the reference measured far below the ceiling."""
    measured = _median("08_inplace_shapes", kernel="rect_reference", dtype=dtype, rows=8192, cols=16384)
    if measured >= _predicted(dtype) / 2:
        _stop(f"the reference reaches half its predicted ceiling in {dtype}")
    if what == "copy":
        return num(median([gbps(t, kernel="cudaMemcpy", dtype=dtype, rows=8192, cols=16384)
                           for t in runs("08_inplace_shapes")]), 0)
    return {"cycles": lambda: num(_cycles(dtype), 2),
            "issue": lambda: num(ISSUE_PER_CYCLE * _cycles(dtype), 0),
            "xu": lambda: num(XU_PER_CYCLE * _cycles(dtype), 1),
            "predicted": lambda: num(_predicted(dtype), 0) + "%",
            "measured": lambda: num(measured, 1) + "%"}[what]()


def budget_caption():
    return caption("08_inplace_shapes")


def xu_elements():
    """Elements per second that the XU pipe alone would allow the reference (21 XU instructions
    per element, 16 per SM and cycle, every SM at its boost clock), in billions; the sentence
    says it is several times what the reference measured."""
    _, sms, ghz = _spec()
    rate = XU_PER_CYCLE * sms * ghz / (DIVISIONS * XU_PER_DIVISION)
    measured = max(median([gbps(t, kernel="rect_reference", dtype=d, rows=8192, cols=16384) for t in runs("08_inplace_shapes")])
                   / (2 * DTYPE_BYTES[d]) for d in DTYPES)
    if rate < 4 * measured:
        _stop("the XU would allow less than four times the reference's elements per second")
    return num(rate, 0) + " billion"


def reference_elements():
    """The reference's elements per second at 8192 x 16384 (median of the runs), every type;
    the sentence says they are about the same in every type (within a third)."""
    rates = [median([gbps(t, kernel="rect_reference", dtype=d, rows=8192, cols=16384) for t in runs("08_inplace_shapes")])
             / (2 * DTYPE_BYTES[d]) for d in DTYPES]
    if max(rates) > 1.33 * min(rates):
        _stop("the reference's elements per second differ by a third between types")
    return span(rates, 0) + " billion"


# ---- Step 08 end to end on the four rectangles (08_inplace_shapes, H100) ------------------

def shapes_pair(rows, cols, dtype):
    """A cell of the end-to-end table: step 08 / the reference, median % of cudaMemcpy."""
    return " / ".join(num(_median("08_inplace_shapes", kernel=k, dtype=dtype, rows=int(rows), cols=int(cols)), 1)
                      for k in ("inplace", "rect_reference"))


def shapes_caption():
    return caption("08_inplace_shapes")


def _spreads(kernel, shape_list, source="08_inplace_shapes"):
    """{(rows, cols, dtype): max - min of % of cudaMemcpy over the runs}."""
    return {(r, c, d): max(v) - min(v) for r, c in shape_list for d in DTYPES
            for v in [[pct(t, kernel=kernel, dtype=d, rows=r, cols=c) for t in runs(source)]]}


def shapes_noise():
    """The largest spread between the runs of one cell of step 08 in the table, and where; the
    sentence says the reference's cells agree within half a point."""
    four = ((8192, 16384), (10000, 7000), (4097, 4099), (8704, 9728))
    if max(_spreads("rect_reference", four).values()) >= 0.5:
        _stop("the reference's runs differ by half a point")
    spreads = _spreads("inplace", four)
    (r, c, d), worst = max(spreads.items(), key=lambda kv: kv[1])
    return f"{num(worst, 1)} points (`{d}`, {r} x {c})"


def _ratios(rows, cols):
    return [_median("08_inplace_shapes", kernel="inplace", dtype=d, rows=rows, cols=cols)
            / _median("08_inplace_shapes", kernel="rect_reference", dtype=d, rows=rows, cols=cols) for d in DTYPES]


def coprime_ratio():
    """Step 08 over the reference at 4097 x 4099 (medians), every type; the sentence says the
    fast path is no faster there (within 15% either way)."""
    ratios = _ratios(4097, 4099)
    if not all(0.85 <= x <= 1.15 for x in ratios):
        _stop("at 4097 x 4099 step 08 and the reference differ by more than 15%")
    return span(ratios, 2)


def three_pass_gain():
    """Step 08 over the reference at 8704 x 9728 (three passes), every type; the sentence says
    the fast passes win in every type."""
    ratios = _ratios(8704, 9728)
    if min(ratios) <= 1:
        _stop("at 8704 x 9728 the reference is as fast as step 08")
    three = max(_median("08_inplace_shapes", kernel="inplace", dtype=d, rows=8704, cols=9728) for d in DTYPES)
    two = min(_median("08_inplace_shapes", kernel="inplace", dtype=d, rows=r, cols=c) for r, c in SHAPES for d in DTYPES)
    if three >= two / 2:
        _stop("three passes at 8704 x 9728 are not far below the two passes of the other shapes")
    return span(ratios, 1)


# ---- The three passes, each timed alone (lab_inplace_rect, H200) ---------------------------

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


def _width(rows, cols, dtype):
    """The piece launch_columns takes (rect.cuh): the widest of 32, 16, 8, 4 bytes (and one
    element) that divides the row and whose panel of the full height fits in shared memory."""
    size = DTYPE_BYTES[dtype]
    for w in (32, 16, 8, 4):
        if w > size and cols % (w // size) == 0 and rows * w <= SHARED_BYTES:
            return w
    return size


def _widths():
    """{(pass kernel, rows, cols, orientation, dtype): {bytes: % of cudaMemcpy}} of the lab's
    column passes: the piece transpose_inplace takes (no suffix) and the narrower ones."""
    found = {}
    for row in table("lab_inplace_rect").rows:
        m = re.fullmatch(r"(rect_pass[13]_\w+?_columns)(?:_(\d+)B)?_(rxc|cxr)", row["kernel"])
        if not m or not row["verified"]:
            continue
        w = int(m.group(2)) if m.group(2) else _width(row["rows"], row["cols"], row["dtype"])
        found.setdefault((m.group(1), row["rows"], row["cols"], m.group(3), row["dtype"]), {})[w] = row["pct_of_memcpy"]
    return found


def halving_cost():
    """At 8192 rows and more (every measured shape there, both column passes, every type): the
    speed lost from 16- to 8-byte and from 8- to 4-byte pieces; the sentence says every such
    halving costs speed."""
    losses = []
    for (_, rows, _, _, _), speeds in _widths().items():
        if rows < 8192:
            continue
        losses += [100 * (1 - speeds[w // 2] / speeds[w]) for w in (16, 8) if w in speeds and w // 2 in speeds]
    if not losses or min(losses) <= 0:
        _stop("a narrower piece is as fast at 8192 rows or more")
    return span(losses, 0, "%")


def wider_than_16():
    """Where 32-byte pieces fit (7000 and 7168 rows): in how many of the measured cases they beat
    16 bytes; the sentence says most, not all."""
    found = {k: v for k, v in _widths().items() if 32 in v and 16 in v}
    cases = list(found.values())
    wins = sum(s[32] > s[16] for s in cases)
    if not 0 < wins < len(cases) or 2 * wins <= len(cases):
        _stop("32-byte pieces do not win most of the cases, or win all of them")
    if any(v[32] <= v[16] and (k[0], k[4]) != (THREE[0], "float") for k, v in found.items()):
        _stop("32-byte pieces lose somewhere else than in float's pass 1")
    return f"{wins} of the {len(cases)}"


def runs_agree():
    """lab_inplace_rect's three runs: the largest spread of one cell among the column passes
    in the width table (7000 x 10000)."""
    spreads = [max(v) - min(v) for row in table("lab_inplace_rect").where(rows=7000, cols=10000)
               if row["kernel"].startswith(("rect_pass1", "rect_pass3")) and "cluster" not in row["kernel"]
               for v in [[pct(t, kernel=row["kernel"], dtype=row["dtype"], rows=7000, cols=10000)
                          for t in runs("lab_inplace_rect")]]]
    return num(max(spreads), 1)


def _clusters():
    """{(pass kernel, rows, cols, orientation, dtype): (best cluster %, main line's %)}."""
    tbl = table("lab_inplace_rect")
    found = {}
    for row in tbl.rows:
        m = re.fullmatch(r"(rect_pass[13]_\w+?_columns)_cluster\d_(rxc|cxr)", row["kernel"])
        if m and row["verified"]:
            main = pct(tbl, kernel=f"{m.group(1)}_{m.group(2)}", dtype=row["dtype"], rows=row["rows"], cols=row["cols"])
            key = (m.group(1), row["rows"], row["cols"], m.group(2), row["dtype"])
            found[key] = (max(found.get(key, (0,))[0], row["pct_of_memcpy"]), main)
    return found


def cluster_best():
    """The best % of cudaMemcpy any cluster variant of a column pass reached, every shape and
    type; the sentence says it is above every main-line column pass."""
    best = max(b for b, _ in _clusters().values())
    if best <= max(m for _, m in _clusters().values()):
        _stop("no cluster variant beats the main line's best column pass")
    tbl = table("lab_inplace_rect")
    for size in (2, 4, 8):  # the sentence: no cluster size wins everywhere
        rows = [r for r in tbl.rows if r["kernel"].endswith(f"_cluster{size}_{r['kernel'][-3:]}") and r["verified"]]
        if all(r["pct_of_memcpy"] > pct(tbl, kernel=r["kernel"].replace(f"_cluster{size}", ""), dtype=r["dtype"],
                                        rows=r["rows"], cols=r["cols"]) for r in rows):
            _stop(f"clusters of {size} win everywhere")
    return num(best, 0) + "%"


def cluster_loses():
    """Pass 3 in the 2-byte types: the best cluster variant over the main line, every shape;
    the sentence says every cluster size loses there."""
    ratios = [b / m for (k, _, _, _, d), (b, m) in _clusters().items() if k == THREE[2] and d in ("half", "bf16")]
    if max(ratios) >= 1:
        _stop("a cluster variant wins pass 3 in a 2-byte type")
    return span(ratios, 2)


# ---- The profile of the three passes (ncu_inplace_rect, H200) ------------------------------

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
    throughput in every launch, and short of saturation (below 90%)."""
    l2, dram = _busy("permute_columns", "L2 Cache Throughput"), _busy("permute_columns", "DRAM Throughput")
    if any(a <= b for a, b in zip(l2, dram)) or max(l2) >= 90:
        _stop("a column pass keeps DRAM as busy as L2, or the L2 near its peak")
    return span(l2, 0, "%")


def column_dram_busy():
    """DRAM throughput (% of peak) of the column passes."""
    return span(_busy("permute_columns", "DRAM Throughput"), 0, "%")


def column_l2_hits():
    """L2 hit rate of the column passes; the sentence says that most of their reads hit, which
    holds above 75%: their stores, half the accesses, count as hits."""
    hits = _busy("permute_columns", "L2 Hit Rate")
    if min(hits) <= 75:  # stores, half the accesses, count as hits: above 75%, most reads hit
        _stop("the column passes' reads may miss L2 as often as they hit")
    return span(hits, 0, "%")


# ---- The two passes (08_inplace_rect and its runs, lab_inplace_rect, lab_inplace_align) ----

def two_pass(rows, cols, dtype):
    """A cell of the two-pass table: step 08 end to end at rows x cols, the median over the runs
    of 08_inplace_rect, then the lowest and highest run; the chapter says below half the copy."""
    values = [pct(t, kernel="inplace", dtype=dtype, rows=int(rows), cols=int(cols)) for t in runs("08_inplace_rect")]
    if max(values) >= 50:
        _stop("two passes reach half the copy")
    return f"{num(median(values), 1)}% ({num(min(values), 1)} to {num(max(values), 1)})"


def two_pass_caption():
    return caption("08_inplace_rect")


def two_pass_noise():
    """The widest spread of one cell over the runs of 08_inplace_rect."""
    return num(max(_spreads("inplace", SHAPES, "08_inplace_rect").values()), 1)


def chunk_pass(which):
    """lab_inplace_rect: pass `which` of the two (1: the squares, 2: the chunks) at 8192 x 16384,
    both orientations, every type."""
    kernel = {"1": "cycles_pass1_squares", "2": "cycles_pass2_chunks"}[which]
    tbl = table("lab_inplace_rect")
    return span([pct(tbl, kernel=f"{kernel}_{o}", dtype=d, rows=r, cols=c)
                 for o, r, c in _orientations(8192, 16384) for d in DTYPES], 0, "%")


def chunk_noise():
    """The chunk pass at 8192 x 16384 (rows x cols) over the runs of lab_inplace_rect, `half` and
    `bf16`: the same kernel on the same bytes; the sentence says they measured differently."""
    def over_runs(d):
        return [pct(t, kernel="cycles_pass2_chunks_rxc", dtype=d, rows=8192, cols=16384) for t in runs("lab_inplace_rect")]
    half, bf16 = over_runs("half"), over_runs("bf16")
    if abs(median(half) - median(bf16)) < 2:
        _stop("half and bf16 measure the same chunk pass alike")
    return f"{span(half, 1, '%')} for `half` and {span(bf16, 1, '%')} for `bf16`"


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


ALIGN = {"aligned": (10560, 7392), "unaligned": (10400, 7280), "whole": (10240, 7168)}
PASSES = {"squares": "cycles_pass1_squares_rxc", "chunks": "cycles_pass2_chunks_rxc"}


def align(which, rows, cols):
    """A cell of the alignment table: `float`, the squares or the chunks pass alone at rows x
    cols, median over the runs of lab_inplace_align."""
    return num(_median("lab_inplace_align", kernel=PASSES[which], dtype="float", rows=int(rows), cols=int(cols)), 1) + "%"


def align_caption():
    return caption("lab_inplace_align")


def align_gains():
    """Points that 128-byte lines add (g = 1040 -> 1056) and that whole tiles then add (1056 ->
    1024), to the squares and to the chunks pass (medians); the sentence says lines add more
    than whole tiles, in both passes."""
    gains = {}
    for which in PASSES:
        at = {k: _median("lab_inplace_align", kernel=PASSES[which], dtype="float", rows=r, cols=c) for k, (r, c) in ALIGN.items()}
        gains[which] = (at["aligned"] - at["unaligned"], at["whole"] - at["aligned"])
        if gains[which][0] <= max(0, gains[which][1]):
            _stop(f"whole tiles add as much as 128-byte lines to the {which} pass")
    (ls, ts), (lc, tc) = gains["squares"], gains["chunks"]
    return f"{num(ls, 1)} and {num(lc, 1)} points to the squares and the chunks; whole tiles then add {num(ts, 1)} and {num(tc, 1)}"


def _gcd_facts(rows, cols):
    g = math.gcd(int(rows), int(cols))
    return g, g * DTYPE_BYTES["float"]


def chunk_bytes(rows, cols):
    """g and a float chunk's bytes for the alignment table (from the shape, not measured)."""
    g, b = _gcd_facts(rows, cols)
    return f"{g} ({b} B)"
