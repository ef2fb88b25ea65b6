"""Numbers quoted in lab/README.md's sentences and hand-laid tables (see plots/prose/__init__.py).

Differences of two CSV values are taken exactly and rounded half up (a reader subtracting 96.54
from 97.69 writes 1.2, where formatting the float 1.15 would give 1.1). A function whose
sentence states a comparison ("gains", "loses", "within the noise") checks it, and stops the
run with a message when the measurements no longer support the words.

Rows of kernels that are no longer built (their code: `git show 351e545:lab/coarsen_lab.cuh`)
are read from the day's files that hold them (PINNED), as the page's tables with `date=` are: a
later run of the source does not write those rows.
"""
from decimal import Decimal
import functools
import math
import re

import queueing
import results
from prose import DTYPES, file, median, num, pct, report, row, runs, span, table
from prose import steps
from results import DTYPE_BYTES

HEADLINE = "headline_tile256"        # the lab's re-implementation of step 07's kernel (lab_coarsen)
ONE_REGION = "regions_never"          # the headline in one region at every pitch
TUNED = "tile256x256B_t256_cs_async"  # the same tile and block in lab_tune
LARGEST = (16384, 16384)              # the largest size measured
TWO_BYTE = ("half", "bf16")

# The out-of-place programs that ran three times (scripts/gpu-check.sh): their spread from run
# to run is the noise that the page states once and that the checks below allow.
NOISE_SOURCES = ("lab_stores", "lab_small", "lab_unaligned", "lab_moved", "lab_double_odd", "lab_double_pairs",
                 "lab_small_orders", "lab_shifted_blocks", "lab_odd_sizes")

# The day whose files hold the rows of kernels that are no longer built, per source.
PINNED = {"lab_coarsen": "2026-11-25", "lab_unaligned": "2026-11-25", "lab_tune": "2026-11-23",
          "lab_moved": "2026-11-27"}


def _exact(x):
    """A CSV number as the digits the CSV wrote: 96.54, not the float nearest to it."""
    return Decimal(repr(x))


def _diff(a, b):
    return float(_exact(a) - _exact(b))


def _fail(what, values):
    raise SystemExit(f"prose/lab.py: the data no longer support the words: {what} "
                     f"(measured: {', '.join(num(v) for v in values)})")


def _pinned(source):
    """The Table of `source` from its PINNED day (the one that holds the removed rows)."""
    found = [p for p in results.files(source, results.RESULTS) if p.name.endswith(f"_{PINNED[source]}.csv")]
    if not found:
        raise SystemExit(f"prose/lab.py: no docs/results/{source}_*_{PINNED[source]}.csv")
    return results.read(found[-1])


def _pinned_runs(source):
    """The Tables of `source` and of its repeat runs (`<source>_runN`) of its PINNED day."""
    day = PINNED[source]
    names = sorted(p.name for p in results.RESULTS.glob(f"{source}_run*_{day}.csv"))
    return [_pinned(source)] + [file(n) for n in names if re.match(re.escape(source) + r"_run\d+_[^_]+_", n)]


# --- Run-to-run noise ---
# Three runs of one program move a cell (kernel, type, shape) less at large sizes than at
# small ones, so the noise is stated, and the checks allow it, per band of sizes: by the
# shorter side of the matrix, below 3000, 3000 to 7999, 8000 and up.

BANDS = {"small": (0, 3000), "middle": (3000, 8000), "large": (8000, 1 << 31)}


def _band(side):
    return next(name for name, (lo, hi) in BANDS.items() if lo <= side < hi)


@functools.lru_cache(maxsize=None)
def _spreads(band="large"):
    """(shorter side, highest minus lowest % of cudaMemcpy over the runs) of each cell of
    NOISE_SOURCES whose shorter side lies in `band`, sorted by spread."""
    lo, hi = BANDS[band]
    found = []
    for source in NOISE_SOURCES:
        tables = runs(source)
        for r in tables[0].rows:
            side = min(r["rows"], r["cols"])
            if r["kernel"] == "cudaMemcpy" or not lo <= side < hi:
                continue
            key = dict(kernel=r["kernel"], dtype=r["dtype"], rows=r["rows"], cols=r["cols"])
            values = [_exact(pct(t, **key)) for t in tables]
            found.append((side, max(values) - min(values)))
    return sorted(found, key=lambda f: f[1])


def _percentile(p, band="large"):
    """The spread that p% of the cells of `band` stay within (nearest rank)."""
    spreads = [s for _, s in _spreads(band)]
    return spreads[max(0, math.ceil(p / 100 * len(spreads)) - 1)]


def noise_row(band):
    """One row of the page's noise table: the band's sizes (shorter sides), its cells, and the
    spread that half and nine in ten of them stay within."""
    sides = [side for side, _ in _spreads(band)]
    return (f"{min(sides)} to {max(sides)} | {len(sides)} | {num(float(_percentile(50, band)))} | "
            f"{num(float(_percentile(90, band)))}")


def noise_caption():
    """Where the noise table's cells come from."""
    counts = [len(runs(s)) for s in NOISE_SOURCES]
    if set(counts) != {3}:
        _fail("each noise source ran three times", counts)
    first = runs(NOISE_SOURCES[0])[0].rows[0]
    names = ", ".join(f"`{s}`" for s in NOISE_SOURCES)
    return (f"Spread of a cell: its highest minus its lowest % of cudaMemcpy over three runs, each the median of "
            f"{first['reps']} cold-L2 timings; from {names} (three runs each); {first['gpu']}")


def _noise(band="large"):
    """The threshold of the checks: what nine cells in ten of `band` moved by."""
    return float(_percentile(90, band))


# --- Formatting and checks ---

def _signed(x):
    text = num(x)
    if float(text) == 0:
        return "0.0"
    return text if text.startswith("-") else "+" + text


def _signed_span(values):
    lo, hi = _signed(min(values)), _signed(max(values))
    return lo if lo == hi else f"{lo} to {hi}"


def _check(values, expect, what, band="large"):
    """expect: gain (every value > 0), loss (every value < 0), noise (every value within the
    noise of `band`), best (every value < 0 and within the noise: the kernel compared against is
    the best, by less than the noise), none (no check here)."""
    n = _noise(band)
    ok = {"gain": lambda: min(values) > 0, "loss": lambda: max(values) < 0,
          "noise": lambda: max(abs(v) for v in values) <= n,
          "best": lambda: max(values) < 0 and min(values) >= -n, "none": lambda: True}[expect]()
    if not ok:
        _fail(f"{what}: expected '{expect}' (noise: {num(n, 2)} points)", values)
    return values


# --- Reading the CSVs ---

def _pct(tbl, kernel, dtype, rows, cols):
    return pct(tbl, kernel=kernel, dtype=dtype, rows=rows, cols=cols)


def _gap(tbl, kernel, other, dtype, rows, cols):
    """Points of % of cudaMemcpy by which `kernel` leads `other` in one cell of one table."""
    return _diff(_pct(tbl, kernel, dtype, rows, cols), _pct(tbl, other, dtype, rows, cols))


def _median(source, kernel, dtype, rows, cols, tables=None):
    """% of cudaMemcpy of one cell, the median over the runs of `source` (or over `tables`)."""
    return median([_pct(t, kernel, dtype, rows, cols) for t in (tables or runs(source))])


def _median_gap(source, kernel, other, dtype, rows, cols, tables=None):
    return float(Decimal(str(_median(source, kernel, dtype, rows, cols, tables)))
                 - Decimal(str(_median(source, other, dtype, rows, cols, tables))))


def _map(kernel, other, dtypes=DTYPES, shape=LARGEST, source="lab_coarsen", tbl=None):
    """`kernel` minus `other`, one run of `source` (lab_coarsen: the map), for each type."""
    tbl = tbl or table(source)
    return [_gap(tbl, kernel, other, d, *shape) for d in dtypes]


def _removed(kernel, other, dtypes=DTYPES, shape=LARGEST, source="lab_coarsen"):
    """As _map, from the PINNED day's file of `source` (rows of kernels no longer built)."""
    return _map(kernel, other, dtypes, shape, tbl=_pinned(source))


def _medians(source, kernel, other, dtypes, shapes, tables=None):
    """`kernel` minus `other`, medians over the runs of `source`, each type at each shape."""
    return [_median_gap(source, kernel, other, d, *s, tables=tables) for d in dtypes for s in shapes]


# --- The table of ideas: each idea against the same kernel without it ---

def _best_other_tile():
    """lab_tune at 16384: the best configuration other than the headline's tile (no double
    buffering, no row-major order, no hints) minus the headline's tile, per type."""
    tbl = _pinned("lab_tune")
    others = [k for k in tbl.values("kernel") if k.startswith("tile") and k != TUNED
              and not re.search(r"_(double|rows|l2prefetch|evictloads)$", k)]
    return [max(_gap(tbl, k, TUNED, d, *LARGEST) for k in others) for d in DTYPES]


ROWS_BELOW = ("shifted_strip2", "shifted_strip4", "shifted_strip_resident", "shifted_pair", "shifted_split_flat")
MORE_BLOCKS = (("shifted_flat_5blocks", "shifted_flat"), ("shifted_flat_6blocks", "shifted_flat"),
               ("shifted_tile256_6blocks", "shifted_tile256"))
ODD_LARGEST = (11585, 11585)  # the largest odd size measured


def _ninth_block_gaps(n):
    """lab_moved, medians, 2-byte types at n x n: 9 blocks per SM on the moved grid minus the
    compiler's registers."""
    return _medians("lab_moved", "moved128_9blocks_offset1", "moved128_offset1", TWO_BYTE, [(n, n)],
                    _pinned_runs("lab_moved"))


def _ninth_block():
    """lab_moved, medians, 2-byte types, every size measured (2048 to 11584): 9 blocks per SM on
    the moved grid minus the compiler's registers; the words: it loses at every size measured."""
    sizes = sorted({r["rows"] for r in _pinned_runs("lab_moved")[0].rows})
    if sizes[0] != 2048 or sizes[-1] != 11584:
        _fail("lab_moved measures 2048 to 11584", sizes)
    return _check([g for n in sizes for g in _ninth_block_gaps(n)], "loss", "a ninth block loses at every size")


def ninth_block_2048():
    """lab_moved, medians, 2-byte types at 2048 (the size that motivates the ninth block): what
    it loses, as a span. The words: about the spread at that size (within half a point of it)."""
    values = [-g for g in _check(_ninth_block_gaps(2048), "loss", "a ninth block loses at 2048")]
    if max(abs(v - _noise("small")) for v in values) > 0.5:
        _fail("the ninth block's loss at 2048 is about the spread there", values)
    return span(values)


INPLACE = "inplace_two_regions"  # the lab's build of step 08's kernel: column order, two regions


def _store_hint():
    """lab_stores, medians at 8192 and 16384: the evict-first hint (headline_*) minus plain
    stores (*_no_cs), both tiles, every type."""
    return [g for hinted, plain in ((HEADLINE, "tile256_no_cs"), ("headline_tile128", "tile128_no_cs"))
            for g in _medians("lab_stores", hinted, plain, DTYPES, [(8192, 8192), LARGEST])]


FEW_WAVES = ((2048, 2048), (3072, 3072), (4096, 4096))


def _inplace(kernel, other):
    return _map(kernel, other, source="lab_inplace")


EFFECTS = {
    # idea: (its points over the kernel without it, what the verdict needs). Rows launched in one
    # region (the orders but the column bands, runs128_pairs, the persistent grid, bulk stores)
    # are compared with ONE_REGION, so that double at 16384 does not also lose the regions.
    "occupancy": (lambda: _map("tile256_8blocks", HEADLINE), "none"),
    "column_order": (lambda: _removed(ONE_REGION, "order_rows"), "gain"),
    "rotated": (lambda: _removed("order_diagonal", "order_rows"), "noise"),
    "grouped": (lambda: _removed("order_grouped", ONE_REGION), "loss"),
    "column_bands": (lambda: _removed("order_column_bands", HEADLINE), "loss"),
    "store_hint": (lambda: _store_hint(), "loss"),
    "tile": (lambda: _best_other_tile(), "best"),
    "runs128": (lambda: _map("runs128_pairs", ONE_REGION), "loss"),
    "l2_prefetch": (lambda: _removed(TUNED + "_l2prefetch", TUNED, source="lab_tune"), "loss"),
    "evict_loads": (lambda: _removed(TUNED + "_evictloads", TUNED, source="lab_tune"), "loss"),
    "persistent": (lambda: _removed("persistent", ONE_REGION), "loss"),
    "double_buffer": (lambda: _removed("double_buffer", "persistent"), "none"),
    "bulk_store": (lambda: _removed("bulk_store", ONE_REGION), "noise"),
    "small_tiles": (lambda: _medians("lab_small", "tile128_no_cs", "tile256_no_cs", ("float",) + TWO_BYTE,
                                     [(2048, 2048)]), "gain"),
    "lean_tile": (lambda: _medians("lab_small", "lean_tile128", "record_general", ["float"], FEW_WAVES), "gain"),
    "shifted": (lambda: _map("record", "coarsen", shape=(4899, 4899)), "gain"),
    "moved_grid": (lambda: _map("record_offset1", "record"), "loss"),
    "rows_below": (lambda: [g for k in ROWS_BELOW for g in _medians("lab_unaligned", k, "shifted_flat", TWO_BYTE,
                                                                      [ODD_LARGEST], _pinned_runs("lab_unaligned"))],
                   "loss"),
    "more_blocks": (lambda: [g for k, o in MORE_BLOCKS for g in _medians("lab_shifted_blocks", k, o, TWO_BYTE,
                                                                           [ODD_LARGEST])], "loss"),
    "parity": (lambda: _medians("lab_double_pairs", "parity64", "elements64", ["double"], [ODD_LARGEST]), "loss"),
    "ninth_block": (lambda: _ninth_block(), "loss"),
    # In place: against the lab's step 08 (inplace_two_regions); the square grid and the diagonal
    # numbering run in one region, so against inplace_one_region.
    "one_region": (lambda: _inplace("inplace_one_region", INPLACE), "none"),
    "square_grid": (lambda: _inplace("inplace_square_grid", "inplace_one_region"), "loss"),
    "pair_diagonals": (lambda: _inplace("inplace_diagonals", "inplace_one_region"), "none"),
}


def effect(idea, style="signed"):
    """The points that `idea` (a key of EFFECTS) gains over the kernel without it, lowest to
    highest, checked against the verdict. style=plain: the same as unsigned sizes (a gain or
    a loss, as the sentence says)."""
    compute, expect = EFFECTS[idea]
    values = _check(compute(), expect, f"effect of '{idea}'")
    if style == "plain":
        return span([abs(v) for v in values])
    return _signed_span(values)


def column_order_loss_128k():
    """lab_coarsen (2026-11-25), double 8192 x 16384 (`in`'s rows 128 KB apart): the points by which
    the column order in one region (regions_never) trails row-major (order_rows). The words: it
    trails there (checked)."""
    tbl = _pinned("lab_coarsen")
    gap = _gap(tbl, "order_rows", "regions_never", "double", 8192, 16384)
    if gap <= 0:
        _fail("row-major leads the column order in one region at double 8192 x 16384", [gap])
    return num(gap)


def step07_h100(idea):
    """lab_step07 (an H100, three runs): the points an idea that left step 07 moves the 256-byte
    headline at 8192² and 16384², every type, median of three: "store_hint" (headline_tile256
    against tile256_no_cs), "pairs" (tile256_no_cs against tile256_no_cs_no_pairs). The words:
    within the noise (checked: under one point either way)."""
    with_it, without = {"store_hint": ("headline_tile256", "tile256_no_cs"),
                        "pairs": ("tile256_no_cs", "tile256_no_cs_no_pairs")}[idea]
    tables = runs("lab_step07")
    def at(kernel, dtype, size):
        return median([pct(t, kernel=kernel, dtype=dtype, rows=size, cols=size) for t in tables])
    values = [at(with_it, d, s) - at(without, d, s) for d in DTYPES for s in (8192, 16384)]
    if max(abs(v) for v in values) >= 1:
        _fail(f"{idea} on the H100 is within a point either way", values)
    return _signed_span(values)


def step07_both_h100():
    """07_coarsen (an H100, three runs): step 07's headline with evict-first stores and column
    pairs (coarsen_previous) against it without them (coarsen), 8192² and 16384², every type,
    median of three. The words: within the noise (checked: under one point either way)."""
    at = steps._h100_median  # the H100's three runs of 07_coarsen
    values = [at("coarsen_previous", d, s) - at("coarsen", d, s) for d in DTYPES for s in (8192, 16384)]
    if max(abs(v) for v in values) >= 1:
        _fail("step 07's headline with both is within a point of it without", values)
    return _signed_span(values)


def regions_effect():
    """lab_coarsen, double, rows of `in` 128 KB apart: two regions against one (headline_tile256
    against regions_never) at 16384 x 16384 and at 8192 x 16384. The words: a gain at
    8192 x 16384, within the noise at 16384 x 16384."""
    big, wide = (_removed(HEADLINE, ONE_REGION, ["double"], shape)[0] for shape in (LARGEST, (8192, 16384)))
    if wide <= _noise() or abs(big) > _noise():
        _fail("two regions gain at 8192 x 16384, and at 16384 x 16384 within the noise", [big, wide])
    return f"{_signed(big)} and {_signed(wide)}"


def one_region_effect():
    """lab_inplace at 16384: the lab's step 08 in one region against two (inplace_two_regions).
    The words: it loses where the rows are 128 KB apart (double) and is level (within the
    noise) elsewhere."""
    tbl = table("lab_inplace")
    gaps = {d: _gap(tbl, "inplace_one_region", INPLACE, d, *LARGEST) for d in DTYPES}
    pitch = [g for d, g in gaps.items() if _at_pitch(d, LARGEST[1])]
    rest = [g for d, g in gaps.items() if not _at_pitch(d, LARGEST[1])]
    if max(pitch) >= -_noise() or max(abs(g) for g in rest) > _noise():
        _fail("one region loses at the 128 KB pitch and is level elsewhere", list(gaps.values()))
    return _signed_span(list(gaps.values()))


def one_region_double():
    """lab_inplace at 16384, double: what the lab's step 08 loses in one region against two; a
    loss beyond the noise (one_region_effect checks the other types)."""
    gap = _gap(table("lab_inplace"), "inplace_one_region", INPLACE, "double", *LARGEST)
    if gap >= -_noise():
        _fail("one region loses beyond the noise for double in place", [gap])
    return num(-gap)


def _at_pitch(dtype, cols):
    """Rows a multiple of 128 KB long (step 07's pitch_is_128k_multiple)."""
    return cols * DTYPE_BYTES[dtype] % (128 * 1024) == 0


# --- Occupancy and bytes in flight ---

def occupancy(kernel, dtype):
    """ncu_occupancy (8192): achieved occupancy of `kernel`, % of the SM's warps."""
    return num(row(table("ncu_occupancy"), kernel=kernel, dtype=dtype)["occupancy_pct"], 0) + "%"


def _tile_bytes(dtype):
    """Bytes of a 256 x 256-byte tile: 256 bytes of each of 256 / sizeof(T) input rows."""
    return 256 * 256 // DTYPE_BYTES[dtype]


def capped_blocks(dtype):
    """Blocks of 256 threads that the SM's shared memory holds with one tile each (and the
    runtime's reserved KB per block), as 'N blocks (P%)': what the 8-block cap can reach."""
    blocks = min(8, steps.SHARED_PER_SM // (_tile_bytes(dtype) + steps.SHARED_PER_BLOCK_RESERVED))
    return f"{blocks} blocks ({num(100 * blocks * 256 / steps.THREADS_PER_SM, 0)}%)"


def cap_cost():
    """lab_coarsen at 16384: what capping the registers for 8 blocks per SM (tile256_8blocks)
    costs float and the 2-byte types; the words: double is left where it was (within the noise)."""
    values = _map("tile256_8blocks", HEADLINE)
    if abs(values[DTYPES.index("double")]) > _noise():
        _fail("the cap leaves double where it was", values)
    others = [v for d, v in zip(DTYPES, values) if d != "double"]
    return span([-v for v in _check(others, "loss", "the cap costs float and the 2-byte types")])


REGISTERS_PER_SM = 65536  # 32-bit registers per SM (compute capability 9.0)


def _blocks_by_registers(registers, threads):
    """Blocks of `threads` threads that an SM's registers hold, at `registers` per thread
    (allocated in steps of 8 per thread, 256 per warp)."""
    return REGISTERS_PER_SM // (math.ceil(registers / 8) * 8 * threads)


def resident_wave():
    """ncu_occupancy (8192), headline_tile256, float: the blocks an SM holds by its registers
    and the blocks the GPU then holds at once, as 'N blocks per SM, M'. Checked against the
    achieved occupancy (at most the N blocks' share of warp slots, more than N - 1 blocks')."""
    prof = row(table("ncu_occupancy"), kernel=HEADLINE, dtype="float")
    blocks = min(_blocks_by_registers(prof["registers"], prof["block_size"]), steps.THREADS_PER_SM // prof["block_size"])
    share = 100 * blocks * prof["block_size"] / steps.THREADS_PER_SM
    step = 100 * prof["block_size"] / steps.THREADS_PER_SM
    if not share - step < prof["occupancy_pct"] <= share:
        _fail("the achieved occupancy matches the blocks that the registers allow", [prof["occupancy_pct"], share])
    return f"{blocks} blocks per SM, {blocks * steps.SMS}"


def headline_registers():
    """ncu_occupancy (8192): registers per thread of headline_tile256, float and half, as 'A and B'."""
    regs = [row(table("ncu_occupancy"), kernel=HEADLINE, dtype=d)["registers"] for d in ("float", "half")]
    if min(regs) <= 32:
        _fail("the headline takes more than the cap's 32 registers", regs)
    return " and ".join(num(r, 0) for r in regs)


def _profile(source, kernel, dtype, metric):
    return row(table(source), kernel=kernel, dtype=dtype)[metric]


# --- Bytes in flight as a queue (plots/queueing.py) ---
# The model, fitted on the one-block point, against the blocks_per_sm_k rows at 16384 x 16384
# (lab_occupancy; the H100's three runs, the H200's one) and 00_latency's pointer chase.

QUEUE_GPUS = {"h100": steps.H100, "h200": results.PAGES_GPU}
QUEUE_SIDE = 16384
QUEUE_TYPES = ("float", "double", "half", "bf16")


@functools.lru_cache(maxsize=None)
def _curve(gpu, dtype):
    return queueing.curve(QUEUE_GPUS[gpu], dtype, QUEUE_SIDE)


def queue_row(gpu, dtype):
    """One row of the model's table: w fitted, the one-block share it was fitted on, model /
    measured at 2 and 3 blocks, the headline as measured."""
    c = _curve(gpu, dtype)
    cells = [num(c.work_ns, 0), f"{num(c.measured[1])}%"]
    cells += [f"{num(c.predicted(k))} / {num(c.measured[k])}%" for k in (2, 3)]
    return " | ".join(cells + [f"{num(c.measured['headline'])}%"])


def queue_caption():
    """Where the model's table comes from: the runs of each GPU, the latency files."""
    parts = []
    for gpu, slug in QUEUE_GPUS.items():
        tables = queueing._tables(queueing.SOURCE, slug)
        latency = queueing._tables(queueing.LATENCY, slug)[0]
        first = tables[0].rows[0]
        runs_text = f"median of {len(tables)} runs" if len(tables) > 1 else "one run"
        parts.append(f"{first['gpu']}: {runs_text} "
                     f"(`docs/results/{tables[0].path.name}`{' and its repeats' if len(tables) > 1 else ''}, "
                     f"commit {first['git_sha']}), Z from `docs/results/{latency.path.name}`")
    return f"% of cudaMemcpy at {QUEUE_SIDE}², CUDA {first['cuda']}, {first['reps']} cold-L2 runs each; " + "; ".join(parts)


def _queue_errors(k):
    return [_curve(g, d).error(int(k)) for g in QUEUE_GPUS for d in QUEUE_TYPES]


def queue_bound(k):
    """Whole points within which the model predicts k blocks in every row of the table."""
    return num(math.ceil(max(abs(e) for e in _queue_errors(k))), 0)


def queue_miss(gpu, dtype, k):
    """Model minus measurement at k blocks, points, signed."""
    return _signed(_curve(gpu, dtype).error(int(k)))


def queue_dram_us(gpu, dtype):
    """D: a tile's bytes, read and written, at the SM's share of the copy's rate, µs."""
    return num(_curve(gpu, dtype).dram_ns / 1000)


def queue_latency(gpu):
    """Z: 00_latency's pointer chase on that GPU, ns to 5."""
    return steps._round_to(queueing.latency_ns(QUEUE_GPUS[gpu]), 5)


def queue_work(gpu, dtype):
    """w fitted, ns."""
    return num(_curve(gpu, dtype).work_ns, 0)


def queue_one_block(gpu, dtype):
    """The measured one-block share, %."""
    return num(_curve(gpu, dtype).measured[1])


# --- Tile orders and regions ---

def regions_cost():
    """lab_coarsen at 16384, the types whose rows are not 128 KB apart: what two regions cost
    (regions_never minus regions_always). The words: a cost, about the noise."""
    gaps = [_gap(_pinned("lab_coarsen"), ONE_REGION, "regions_always", d, *LARGEST)
            for d in DTYPES if not _at_pitch(d, LARGEST[1])]
    if min(gaps) <= 0 or max(gaps) > _noise():
        _fail("two regions cost something within the noise off the pitch", gaps)
    return span(gaps)


# --- Evict-first hints ---

def ablation_hint():
    """07_coarsen (step 07's ablation) at 16384: evict_first_stores minus tile256B_vec16: within the noise."""
    values = _map("evict_first_stores", "tile256B_vec16", source="07_coarsen")
    return _signed_span(_check(values, "noise", "the store hint in step 07's ablation"))


def plain_stores():
    """lab_stores, medians: plain stores over the hint (*_no_cs minus headline_*), both tiles,
    every type, at 8192 and 16384 (the cells: 16). The words: plain stores are ahead in every
    cell; at 2048 and 4096 the sign changes from cell to cell."""
    values = _check([-g for g in _store_hint()], "gain", "plain stores ahead of the hint from 8192 up")
    small = [g for hinted, plain in ((HEADLINE, "tile256_no_cs"), ("headline_tile128", "tile128_no_cs"))
             for g in _medians("lab_stores", plain, hinted, DTYPES, [(2048, 2048), (4096, 4096)])]
    if min(small) >= 0 or max(small) <= 0:
        _fail("at 2048 and 4096 the sign changes", small)
    return span(values)


def store_hint_cells():
    """How many cells plain_stores compares (both tiles x types x 8192 and 16384)."""
    return str(len(_store_hint()))


def register_loads_cost():
    """lab_stores, medians at 8192 and 16384: what loading through registers instead of by
    cp.async costs the plain-store tile (tile256_no_cs minus tile256_no_cs_async), at most."""
    values = _medians("lab_stores", "tile256_no_cs", "tile256_no_cs_async", DTYPES, [(8192, 8192), LARGEST])
    if max(values) <= _noise():
        _fail("loads through registers cost something", values)
    return num(max(values))


# --- Tables of medians over three runs (hand-laid tables, one value per row) ---

MEDIAN_TABLES = {
    # name: (source, type, shapes in column order); the rows are the kernels the page names
    "stores": ("lab_stores", "float", [(2048, 2048), (4096, 4096), (8192, 8192), (16384, 16384)]),
    "small": ("lab_small", "float", [(2048, 2048), (3072, 3072), (4096, 4096), (6144, 6144), (8192, 8192)]),
    "odd": ("lab_unaligned", "half", [(4096, 4096), (4896, 4896), (4899, 4899), (11584, 11584), (11585, 11585),
                                      (4097, 4099)]),
}


def _median_tables(name):
    source = MEDIAN_TABLES[name][0]
    return _pinned_runs(source) if source in PINNED else runs(source)


def median_header(name):
    """The header cells of MEDIAN_TABLES[name]: its shapes."""
    return " | ".join(f"{r}x{c}" for r, c in MEDIAN_TABLES[name][2])


def median_row(name, kernel):
    """One row of MEDIAN_TABLES[name]: `kernel`'s % of cudaMemcpy at each shape, the median
    over the three runs."""
    source, dtype, shapes = MEDIAN_TABLES[name]
    tables = _median_tables(name)
    if len(tables) != 3:
        _fail(f"{source} has three runs", [len(tables)])
    return " | ".join(f"{num(_median(source, kernel, dtype, *s, tables=tables))}%" for s in shapes)


def median_caption(name):
    """Where a median table's numbers come from."""
    tables = _median_tables(name)
    first = tables[0].rows[0]
    reruns = " and ".join(f"`{t.path.name}`" for t in tables[1:])
    return (f"`{MEDIAN_TABLES[name][1]}`, % of cudaMemcpy, each run the median of {first['reps']} cold-L2 "
            f"timings; {first['gpu']}, CUDA {first['cuda']}, commit {first['git_sha']}; from "
            f"`docs/results/{tables[0].path.name}`, {reruns}")


# --- Tuning ---

def small_tile_loss():
    """lab_tune at 16384: what the 128 x 128-byte tile with 128 threads loses to the headline's tile."""
    values = _removed(TUNED, "tile128x128B_t128_cs_async", source="lab_tune")
    return span(_check(values, "gain", "the 256-byte tile leads the 128-byte one"))


# --- Double buffering, a persistent grid, bulk stores ---

def double_buffer_vs_persistent(types):
    """lab_coarsen at 16384: double_buffer minus persistent (the grid it runs on), for the 2-byte
    types (types=two_byte: a gain) or float and double (wide: a loss, shown as its size). The
    words also say it stays below the headline in one region everywhere, and (the next
    paragraph) that most of that gap is the persistent grid's, in every type."""
    if max(_removed("double_buffer", ONE_REGION)) >= 0:
        _fail("double buffering stays below the headline", _removed("double_buffer", ONE_REGION))
    grid, buffer = _removed("persistent", ONE_REGION), _removed("double_buffer", "persistent")
    if any(abs(b) >= abs(g) for g, b in zip(grid, buffer)):
        _fail("most of double buffering's gap to the headline is the persistent grid's", grid + buffer)
    dtypes, expect = {"two_byte": (TWO_BYTE, "gain"), "wide": (("float", "double"), "loss")}[types]
    return span([abs(v) for v in _check(_removed("double_buffer", "persistent", dtypes), expect, "double buffering")])


def double_buffer_blocks():
    """ncu_double16384, double at 16384: registers per thread of double_buffer and of
    persistent, and the blocks per SM of their grids (each launches as many blocks as fit), as
    'A against B registers per thread: N blocks per SM instead of M'. The words: the registers
    decide (the register count gives the grid's blocks per SM), not the second tile's shared
    memory (which would allow more)."""
    tbl = table("ncu_double16384")
    found = []
    for k in ("double_buffer", "persistent"):
        prof = row(tbl, kernel=k, dtype="double")
        per_sm = prof["grid_size"] / steps.SMS
        by_regs = _blocks_by_registers(prof["registers"], prof["block_size"])
        by_shared = steps.SHARED_PER_SM // (prof["shared_bytes"] + steps.SHARED_PER_BLOCK_RESERVED)
        by_threads = steps.THREADS_PER_SM // prof["block_size"]
        if per_sm != by_regs or not by_regs < min(by_shared, by_threads):
            _fail(f"{k}: registers set the blocks per SM", [per_sm, by_regs, by_shared])
        found.append((prof["registers"], int(per_sm)))
    (r1, b1), (r2, b2) = found
    return f"{num(r1, 0)} against {num(r2, 0)} registers per thread: {b1} blocks per SM instead of {b2}"


def double_buffer_occupancy():
    """ncu_double16384: achieved occupancy of double_buffer and of persistent, double at 16384."""
    occ = [_profile("ncu_double16384", k, "double", "occupancy_pct") for k in ("double_buffer", "persistent")]
    if not occ[0] < occ[1]:
        _fail("double buffering lowers the occupancy", occ)
    return f"{num(occ[0], 0)}% against {num(occ[1], 0)}%"


def bulk_store_2048():
    """lab_coarsen at 2048: what bulk_store loses to the headline in one region, every type."""
    values = _removed(ONE_REGION, "bulk_store", shape=(2048, 2048))
    if min(values) <= _noise("small"):
        _fail("bulk stores lose at 2048 beyond the noise there", values)
    return span(values, 0)


# --- A lean tile for a few waves ---


def small_tiles_lose():
    """lab_small, medians, float at 6144 and 8192: what the 128-byte tile loses to the 256-byte one."""
    values = _medians("lab_small", "tile256_no_cs", "tile128_no_cs", ["float"], [(6144, 6144), (8192, 8192)])
    return span(_check(values, "gain", "the small tile loses from 6144 on"))


def lean_gain():
    """lab_small, medians, float at 2048 to 4096: lean_tile128 over the general record. The
    words: ahead at every size, beyond the noise of its band only at 3072."""
    values = _check(_medians("lab_small", "lean_tile128", "record_general", ["float"], FEW_WAVES), "gain",
                    "the lean tile gains for float")
    beyond = [n for (n, _), v in zip(FEW_WAVES, values) if abs(v) > _noise(_band(n))]
    if beyond != [3072]:
        _fail("the lean tile's lead is beyond the noise only at 3072", values)
    return span(values)


def lean_pairs(n):
    """lab_small, medians, half and bf16 at n x n: lean_pairs128 over the general record
    (2048 and 4096: a gain; 3072: a loss, shown as its size). The words at 3072 and 4096:
    within the noise of those sizes."""
    expect = {2048: "gain", 3072: "loss", 4096: "gain"}[int(n)]
    values = _check(_medians("lab_small", "lean_pairs128", "record_general", TWO_BYTE, [(int(n), int(n))]), expect,
                    f"the lean tile with pairs at {n}")
    if int(n) != 2048 and max(abs(v) for v in values) > _noise(_band(int(n))):
        _fail(f"the lean tile with pairs at {n} is within the noise", values)
    return span([abs(v) for v in values])


def lean_pairs_beyond():
    """lab_small, medians at 2048: the 2-byte types whose lean_pairs128 gain is beyond the
    noise of that size (the words: only half)."""
    values = _medians("lab_small", "lean_pairs128", "record_general", TWO_BYTE, [(2048, 2048)])
    beyond = [d for d, v in zip(TWO_BYTE, values) if v > _noise("small")]
    if beyond != ["half"]:
        _fail("only half's lean gain at 2048 is beyond the noise", values)
    return "`half`"


def lean_last_wave(n):
    """How full the last nominal wave of the lean tile's blocks is at n x n, 2-byte types (128
    x 128-byte tiles, 128 threads: 16 blocks per SM by threads), as a %."""
    side = 128 // 2
    tiles = math.ceil(int(n) / side) ** 2
    wave = steps.SMS * (steps.THREADS_PER_SM // 128)
    last = tiles % wave or wave
    return num(100 * last / wave, 0) + "%"


def small_tiles_within():
    """lab_small, medians at 2048: the types (float, half, bf16) whose small-tile gain is within
    the noise at 2048 (the words: only bf16; the others beyond it)."""
    dtypes = ("float",) + TWO_BYTE
    values = _medians("lab_small", "tile128_no_cs", "tile256_no_cs", dtypes, [(2048, 2048)])
    within = [d for d, v in zip(dtypes, values) if v <= _noise("small")]
    if within != ["bf16"]:
        _fail("the small tile's gain at 2048 is beyond the noise but for bf16", values)
    return "`bf16`"


def lean_double():
    """lab_small, medians, double at 2048 to 4096: lean_tile128 minus the general record. The
    words: within the noise of each size."""
    values = _medians("lab_small", "lean_tile128", "record_general", ["double"], FEW_WAVES)
    if any(abs(v) > _noise(_band(n)) for v, (n, _) in zip(values, FEW_WAVES)):
        _fail("the lean tile moves double within the noise", values)
    return _signed_span(values)


# --- Odd shapes ---

ODD_NEIGHBOURS = (((4899, 4899), (4896, 4896)), ((11585, 11585), (11584, 11584)), ((4097, 4099), (4096, 4096)))


def fallback_4899():
    """lab_coarsen at 4899: step 07's kernel (coarsen: step 06's padded kernel there), float and half."""
    tbl = table("lab_coarsen")
    return " and ".join(f"{num(_pct(tbl, 'coarsen', d, 4899, 4899))}% (`{d}`)" for d in ("float", "half"))


def odd_gap(dtype):
    """lab_unaligned, medians: how far the record at 4899, 11585 and 4097 x 4099 is below
    itself at the aligned neighbour (4896, 11584, 4096): 'x to y points below', or 'x points
    above to y below' where an odd size runs ahead."""
    tables = _pinned_runs("lab_unaligned")
    below = [_diff(_median("lab_unaligned", "record", dtype, *a, tables=tables),
                   _median("lab_unaligned", "record", dtype, *o, tables=tables)) for o, a in ODD_NEIGHBOURS]
    if dtype == "half":  # the words: the most at 4899, whose neighbour reads above 100%
        if below.index(max(below)) != 0 or _median("lab_unaligned", "record", dtype, 4896, 4896, tables) <= 100:
            _fail("half's record loses most at 4899, whose neighbour 4896 reads above 100%", below)
    if min(below) < 0:
        return f"{num(-min(below))} points above to {num(max(below))} below"
    return f"{span(below)} points below"


def _strip(dtype, kernel, side):
    return _report_profile("ncu_strip")[(dtype, kernel, side)]


def l2_writeback():
    """ncu_strip, half, the record at 4896: DRAM bytes written against the bytes of `out`, as
    'A MB of B MB'. The words: about half of `out` reaches DRAM in the kernel's time."""
    written = _strip("half", "record", 4896)["dram__bytes_write.sum"]
    out_bytes = 4896 * 4896 * DTYPE_BYTES["half"]
    if not 0.4 < written / out_bytes < 0.6:
        _fail("about half of out is written to DRAM", [written, out_bytes])
    return f"{num(written / 1e6)} MB of {num(out_bytes / 1e6)} MB"


def dram_rate_4899():
    """ncu_strip, half: DRAM bytes (read and written) per second of the flat tiles at 4899 as a
    share of the record's at 4896. The words: lower."""
    def rate(kernel, side):
        m = _strip("half", kernel, side)
        return (m["dram__bytes_read.sum"] + m["dram__bytes_write.sum"]) / m["gpu__time_duration.sum"]
    share = 100 * rate("shifted_flat", 4899) / rate("record", 4896)
    if not share < 100:
        _fail("DRAM moves the flat tiles' bytes at a lower rate", [share])
    return num(share, 0) + "%"


def _report_profile(source):
    """{(dtype, kernel, side): {metric: value}} of a report in the form of ncu_shifted and ncu_strip."""
    found, key = {}, None
    for line in report(source).read_text().splitlines():
        if line.startswith("== "):
            dtype, kernel, side = line[3:].split()
            key = (dtype, kernel, int(side))
        elif key and line.strip() and not line.startswith("kernel:"):
            metric, value = line.split(" ", 1)
            found.setdefault(key, {})[metric] = float(value.replace(",", ""))
    return found


def line_tile_requests():
    """ncu_shifted, float: L2 read requests of the packed and of the line tile at 4899 over the
    record's at 4896, as 'packed and line' (the packed tile asks for more)."""
    p, m = _report_profile("ncu_shifted"), "lts__t_requests_srcunit_tex_op_read.sum"
    base = p[("float", "record", 4896)][m]
    packed, line = (p[("float", k, 4899)][m] / base for k in ("shifted_packed256", "shifted_tile256"))
    if not packed > line:
        _fail("the packed tile asks for more requests than the line tile", [packed, line])
    return f"{num(packed)} and {num(line)}"


def l2_bound():
    """ncu_strip, half: the flat tiles at 4899 over the record at 4896: L2 read sectors and DRAM
    bytes read, as 'x times the L2 read sectors but y times the DRAM bytes'."""
    p = _report_profile("ncu_strip")
    flat, rec = p[("half", "shifted_flat", 4899)], p[("half", "record", 4896)]
    sectors = flat["lts__t_sectors_srcunit_tex_op_read.sum"] / rec["lts__t_sectors_srcunit_tex_op_read.sum"]
    dram = flat["dram__bytes_read.sum"] / rec["dram__bytes_read.sum"]
    if not sectors > dram:
        _fail("more L2 sectors than DRAM bytes", [sectors, dram])
    return f"{num(sectors, 2)} times the L2 read sectors but {num(dram, 2)} times the DRAM bytes"


def l2_busy():
    """ncu_strip, half: L2 throughput (% of its peak) of the flat tiles at 4899 and of the record
    at 4896. The words: the flat tiles keep L2 no busier than the aligned kernel does."""
    p, m = _report_profile("ncu_strip"), "lts__throughput.avg.pct_of_peak_sustained_elapsed"
    flat, rec = p[("half", "shifted_flat", 4899)][m], p[("half", "record", 4896)][m]
    if flat > rec:
        _fail("the flat tiles keep L2 no busier than the aligned kernel", [flat, rec])
    return f"{num(flat, 0)}% against {num(rec, 0)}%"


def float_blocks():
    """lab_shifted_blocks, medians, float at 11585: the flat tiles with 6 blocks per SM over the
    flat tiles; the words: the record is ahead of every capped row there."""
    src = "lab_shifted_blocks"
    capped = [_median(src, k, "float", *ODD_LARGEST) for k, _ in MORE_BLOCKS]
    if max(capped) >= _median(src, "record", "float", *ODD_LARGEST):
        _fail("the record leads every capped row for float at 11585", capped)
    return num(_median_gap(src, "shifted_flat_6blocks", "shifted_flat", "float", *ODD_LARGEST))


# --- Step 08's variants ---

def inplace_diagonals_loss():
    """lab_inplace at 16384: what the diagonal numbering loses to one region in column order,
    float and the 2-byte types (a loss beyond the noise in each)."""
    values = _inplace("inplace_diagonals", "inplace_one_region")
    others = [v for d, v in zip(DTYPES, values) if d != "double"]
    if max(others) >= -_noise():
        _fail("the diagonal numbering loses beyond the noise for float and the 2-byte types", others)
    return span([-v for v in others])


def inplace_diagonals_gain():
    """lab_inplace at 16384, double: the diagonal numbering against one region in column order.
    The words: a gain beyond the noise, which leaves it level (within the noise) with two
    regions in column order (inplace_two_regions)."""
    tbl = table("lab_inplace")
    one = _gap(tbl, "inplace_diagonals", "inplace_one_region", "double", *LARGEST)
    two = _gap(tbl, "inplace_diagonals", INPLACE, "double", *LARGEST)
    if one <= _noise() or abs(two) > _noise():
        _fail("for double the diagonals gain over one region and are level with two", [one, two])
    return num(one)


def regions_x4():
    """lab_inplace_tune at 16384: four regions minus two for double (a gain, beyond the noise)
    and the others (a loss), as 'gain for double, loss elsewhere'."""
    tbl = table("lab_inplace_tune")
    four, two = "tile256B_t256_s256_columns_x4", "tile256B_t256_s256_columns_x2"
    gaps = {d: _gap(tbl, four, two, d, *LARGEST) for d in DTYPES}
    others = [g for d, g in gaps.items() if d != "double"]
    if gaps["double"] <= _noise() or max(others) >= 0:
        _fail("four regions gain for double only", list(gaps.values()))
    return f"{num(gaps['double'])} for `double` and lose {span([-g for g in others])} for the others"


def inplace_config_margin():
    """lab_inplace_tune at 16384: how far step 08's configuration (256-byte tiles, 256 threads,
    256-byte store runs, two regions) is from the best two-region configuration, at most;
    within the noise."""
    tbl = table("lab_inplace_tune")
    ours = "tile256B_t256_s256_columns_x2"
    two = [k for k in tbl.values("kernel") if k.endswith("_columns_x2")]
    gaps = []
    for d in DTYPES:
        best = max(_pct(tbl, k, d, *LARGEST) for k in two if tbl.where(kernel=k, dtype=d, rows=LARGEST[0]))
        gaps.append(_diff(best, _pct(tbl, ours, d, *LARGEST)))
    if max(gaps) > _noise():
        _fail("step 08's configuration is within the noise of the best", gaps)
    return num(max(gaps))


# --- docs/beyond.md quotes this one ---

def record_vs_compile_small(dtype):
    """lab_small and peers_small, medians: the record's points over torch.compile's at `dtype`,
    2048 to 4096, as a span."""
    return span([_median("lab_small", "record", dtype, n, n) - _median("peers_small", "torch_compile", dtype, n, n)
                 for n, _ in FEW_WAVES])
