"""Numbers quoted in lab/README.md's sentences (see plots/prose/__init__.py)."""
import math
import re
from decimal import Decimal

from prose import DTYPES, gbps, median, num, pct, report, row, runs, span, table
from results import DTYPE_BYTES


def _end_to_end(rows, cols):
    """{dtype: [% of cudaMemcpy of step 08's transpose_inplace in each 08_inplace_rect run]}."""
    return {d: [pct(t, kernel="inplace", dtype=d, rows=rows, cols=cols) for t in runs("08_inplace_rect")]
            for d in DTYPES}


def two_pass_8192_medians():
    """The medians over the runs of 08_inplace at 8192 x 16384, lowest to highest type."""
    return span([median(v) for v in _end_to_end(8192, 16384).values()], unit="%")


def two_pass_8192_singles():
    """Every single run of 08_inplace at 8192 x 16384, every type: lowest to highest."""
    return span([x for v in _end_to_end(8192, 16384).values() for x in v], unit="%")


def _lab_pass(kernel, dtype, rows, cols):
    return [pct(t, kernel=kernel, dtype=dtype, rows=rows, cols=cols) for t in runs("lab_inplace_rect")]


def _aligned_wins(pass_):
    """(wins, comparisons): in how many (type, orientation, run) 10240 x 7168's pass beat 10000 x 7000's."""
    wins = total = 0
    for order, shapes in (("rxc", ((10000, 7000), (10240, 7168))), ("cxr", ((7000, 10000), (7168, 10240)))):
        kernel = f"cycles_{pass_}_{order}"
        for d in DTYPES:
            odd, aligned = (_lab_pass(kernel, d, *s) for s in shapes)
            wins += sum(a > o for a, o in zip(aligned, odd))
            total += len(odd)
    return wins, total


def aligned_squares_wins():
    wins, total = _aligned_wins("pass1_squares")
    return f"{wins} of {total}" if wins < total else f"all {total}"


def aligned_chunks_wins():
    return str(_aligned_wins("pass2_chunks")[0])


# The sections below follow lab/README.md from top to bottom. Differences of two CSV values are
# taken exactly and rounded half up (a reader subtracting 96.54 from 97.69 writes 1.2, where
# formatting the float 1.15 would give 1.1).

HEADLINE = "headline_tile256"        # what the lab's kernels are measured against (lab_coarsen)
TUNED = "tile256x256B_t256_cs_async"  # the headline's tile in lab_tune
SMALL = "tile128x128B_t128_cs_async"  # the record's tile for few waves
PITCH = 128 * 1024                    # the row pitch at which step 07 takes two regions


def _exact(x):
    """A CSV number as the digits the CSV wrote: 96.54, not the float nearest to it."""
    return Decimal(repr(x))


def _largest(values, digits=1):
    """The largest value, as the prose shows it: '0.6'."""
    return num(max(values), digits)


def _count(wins, total):
    """'23 of the 24', or 'all 24'."""
    return f"all {total}" if wins == total else f"{wins} of the {total}"


def _shapes(tbl, **equal):
    """The (rows, cols) of a Table's rows (those whose columns equal `equal`), in order of first appearance."""
    return list(dict.fromkeys((r["rows"], r["cols"]) for r in tbl.where(**equal)))


def _from_8192(dtype, rows, cols):
    return min(rows, cols) >= 8192


def _at_pitch(dtype, cols):
    """Rows a multiple of 128 KB long: step 07's pitch_is_128k_multiple, where its kernel (and
    headline_tile256) takes two regions and the one-region rows do not."""
    return cols * DTYPE_BYTES[dtype] % PITCH == 0


def _straddles(dtype, cols):
    """Rows that start off a 256-byte boundary (the 11584 square of the 2-byte types)."""
    return cols * DTYPE_BYTES[dtype] % 256 != 0


def _cells(tbl, keep, dtypes=DTYPES):
    """(dtype, rows, cols) for every shape of the Table and every type that keep() accepts."""
    return [(d, r, c) for d in dtypes for r, c in _shapes(tbl) if keep(d, r, c)]


def _off_pitch_from_8192(d, r, c):
    return _from_8192(d, r, c) and not _at_pitch(d, c)


def _pct(tbl, kernel, cell):
    d, r, c = cell
    return pct(tbl, kernel=kernel, dtype=d, rows=r, cols=c)


def _gaps(tbl, ahead, behind, cells):
    """Points of % of cudaMemcpy by which kernel `ahead` leads kernel `behind`, cell by cell."""
    return [float(_exact(_pct(tbl, ahead, x)) - _exact(_pct(tbl, behind, x))) for x in cells]


def _pct_if(tbl, kernel, cell):
    """_pct(), or None where the CSV has no such row (a variant that does not fit that shape or type)."""
    d, r, c = cell
    return _pct(tbl, kernel, cell) if tbl.where(kernel=kernel, dtype=d, rows=r, cols=c) else None


def _against(tbl, kernel, other, cell):
    """'102.1% against 96.4%': two kernels' % of cudaMemcpy in one cell, as the tables show them."""
    return f"{num(_pct(tbl, kernel, cell))}% against {num(_pct(tbl, other, cell))}%"


def _text(source):
    """The lines of the newest report docs/results/<source>_<gpu>_<date>.txt."""
    return report(source).read_text().splitlines()


def _number(text):
    """'1,653,170' -> 1653170.0 (a profiler report's number)."""
    return float(text.replace(",", ""))


# --- The map (lab_coarsen) and the record kernel ---

def _map_gaps(ahead, behind, keep, dtypes=DTYPES):
    tbl = table("lab_coarsen")
    return _gaps(tbl, ahead, behind, _cells(tbl, keep, dtypes))


def headline_vs_never_from_8192():
    """lab_coarsen: largest distance of headline_tile256 from regions_never, 8192 up, off the 128 KB pitch."""
    return _largest(map(abs, _map_gaps(HEADLINE, "regions_never", _off_pitch_from_8192)))


def headline_vs_never_2048():
    """lab_coarsen: largest distance of headline_tile256 from regions_never at 2048, any type."""
    return _largest(map(abs, _map_gaps(HEADLINE, "regions_never", lambda d, r, c: r == 2048)))


def headline_vs_never_float_4896():
    """lab_coarsen: distance of headline_tile256 from regions_never, float at 4896."""
    return _largest(map(abs, _map_gaps(HEADLINE, "regions_never", lambda d, r, c: r == 4896, ["float"])))


def record_margin_from_8192():
    """lab_coarsen: the most by which any kernel beats record from 8192 up."""
    tbl = table("lab_coarsen")
    kernels = [k for k in tbl.values("kernel") if k != "cudaMemcpy"]
    return _largest(max(_gaps(tbl, k, "record", [x])[0] for k in kernels)
                    for x in _cells(tbl, _from_8192))


def _tune(kernel, other, cell):
    return _against(table("lab_tune"), kernel, other, cell)


def small_tile_float_2048():
    """lab_tune: the 128-byte tile against the 256-byte one, float 2048."""
    return _tune(SMALL, TUNED, ("float", 2048, 2048))


def small_tile_half_4096():
    """lab_tune: the 128-byte tile against the 256-byte one, half 4096."""
    return _tune(SMALL, TUNED, ("half", 4096, 4096))


def small_tile_half_11584():
    """lab_tune: the 128-byte tile against the 256-byte one, half 11584."""
    return _tune(SMALL, TUNED, ("half", 11584, 11584))


def small_tile_loss_from_8192():
    """lab_tune: the 128-byte tile behind the 256-byte one, float and half, 8192 up, rows on 256-byte lines."""
    tbl = table("lab_tune")
    keep = lambda d, r, c: _from_8192(d, r, c) and not _straddles(d, c)
    return span(_gaps(tbl, TUNED, SMALL, _cells(tbl, keep, ["float", "half"])))


def _shifted_profile(source="ncu_shifted"):
    """{(dtype, kernel, side): {metric: value}} of an Nsight Compute report in ncu_shifted's form."""
    found, key = {}, None
    for line in _text(source):
        if line.startswith("== "):
            dtype, kernel, side = line[3:].split()
            key = (dtype, kernel, int(side))
        elif key and line.strip() and not line.startswith("kernel:"):
            metric, value = line.split(" ", 1)
            found.setdefault(key, {})[metric] = _number(value)
    return found


def _shifted(tile):
    """The lab row of the shifted path with the record's tile size (256 bytes): the line or the packed tile."""
    return f"shifted_{'tile' if tile == 'line' else 'packed'}256"


def _over_record(metric, dtype, tile, digits):
    """ncu_shifted: `metric` of the shifted path at 4899 over the record's at 4896."""
    p = _shifted_profile()
    return num(p[(dtype, _shifted(tile), 4899)][metric] / p[(dtype, "record", 4896)][metric], digits)


def shifted_sectors(dtype, tile):
    """ncu_shifted: L2 read sectors at 4899 (line or packed tile) over the record's at 4896."""
    return _over_record("lts__t_sectors_srcunit_tex_op_read.sum", dtype, tile, 2)


def shifted_requests(dtype, tile):
    """ncu_shifted: L2 read requests at 4899 (line or packed tile) over the record's at 4896."""
    return _over_record("lts__t_requests_srcunit_tex_op_read.sum", dtype, tile, 1)


def shifted_instructions(dtype):
    """ncu_shifted: instructions at 4899 (line tile) over the record's at 4896."""
    return _over_record("smsp__inst_executed.sum", dtype, "line", 1)


ODD_NEIGHBOURS = [((4899, 4899), (4896, 4896)), ((11585, 11585), (11584, 11584)), ((4097, 4099), (4096, 4096))]


def _runs_median(source, dtype, kernel, shape, field=pct):
    """`field` (pct or gbps) of `kernel` at `shape` (rows, cols), the median over `source`'s runs."""
    return median([field(t, kernel=kernel, dtype=dtype, rows=int(shape[0]), cols=int(shape[1])) for t in runs(source)])


def _unaligned_median(dtype, kernel, shape):
    return _runs_median("lab_unaligned", dtype, kernel, shape)


def _row_gap(dtype, kernel, other, rows, cols):
    """lab_unaligned, medians at one shape: `kernel`'s points over `other`'s."""
    shape = (int(rows), int(cols))
    return num(_unaligned_median(dtype, kernel, shape) - _unaligned_median(dtype, other, shape))


def unaligned_gaps(dtype):
    """lab_unaligned, medians of its runs: the record's points below the aligned neighbour, odd shapes in order."""
    gaps = [_unaligned_median(dtype, "record", n) - _unaligned_median(dtype, "record", o) for o, n in ODD_NEIGHBOURS]
    return ", ".join(num(g) for g in gaps)


def unaligned_line_gain(dtype):
    """lab_unaligned, medians: the line tile's points over the packed tile at the odd shapes (record's tile size)."""
    return span([_unaligned_median(dtype, _shifted("line"), o) - _unaligned_median(dtype, _shifted("packed"), o)
                 for o, _ in ODD_NEIGHBOURS])


def unaligned_large_gain(dtype, rows=11585, cols=11585):
    """lab_unaligned, medians: the large tiles' points over the 256-byte line tiles (shifted_large - shifted_tile256)."""
    return _row_gap(dtype, "shifted_large", _shifted("line"), rows, cols)


def unaligned_large_loss(dtype, rows, cols):
    """lab_unaligned, medians: the points the large tiles lose to the 256-byte line tiles at one shape."""
    return num(-float(unaligned_large_gain(dtype, rows, cols)))


def start_gain(dtype, tile, rows, cols):
    """lab_unaligned, medians: chunks from 32-byte sectors over 16-byte starts (shifted_TILE - shifted16_TILE)."""
    return _row_gap(dtype, f"shifted_{tile}", f"shifted16_{tile}", rows, cols)


def start_loss(dtype, tile, rows, cols):
    """lab_unaligned, medians: the points that chunks from 32-byte sectors lose to 16-byte starts."""
    return num(-float(start_gain(dtype, tile, rows, cols)))


OFFSET_SIZES = (2048, 4096, 4896, 11584)


def offset_gaps(dtype, kernel="record_offset1"):
    """lab_unaligned, medians: the record's points on aligned pointers over `kernel` (record_offset1: in + 1,
    out + 1; record_offset8: in + 8, out + 8), by size."""
    return ", ".join(num(_unaligned_median(dtype, "record", (n, n)) - _unaligned_median(dtype, kernel, (n, n)))
                     for n in OFFSET_SIZES)


def moved_nine_blocks(first, last=None):
    """lab_moved, medians of its runs: the points that the small tiles on a moved grid lose with 9
    blocks per SM (moved128_offset1 - moved128_9blocks_offset1), over the 2-byte types, at
    first x first, or at the sizes from `first` to `last`."""
    def at(dtype, kernel, n):
        return _runs_median("lab_moved", dtype, kernel, (n, n))
    sizes = sorted({r["rows"] for r in table("lab_moved").rows})
    lo, hi = int(first), int(last if last is not None else first)
    return span([at(d, "moved128_offset1", n) - at(d, "moved128_9blocks_offset1", n)
                 for d in ("half", "bf16") for n in sizes if lo <= n <= hi])


def offset_ratio(dtype, kernel, metric, base):
    """ncu_offset: `metric` of `kernel` (on offset pointers) over the aligned kernel `base`, at 4896 x 4896."""
    p = _shifted_profile("ncu_offset")
    names = {"sectors": "lts__t_sectors_srcunit_tex_op_write.sum", "requests": "lts__t_requests_srcunit_tex_op_write.sum",
             "time": "gpu__time_duration.sum"}
    return num(p[(dtype, kernel, 4896)][names[metric]] / p[(dtype, base, 4896)][names[metric]], 2)


def small_line_tile_gain(dtype, rows, cols):
    """lab_unaligned, medians: 128-byte line tiles over 256-byte ones, both with 16-byte starts."""
    return _row_gap(dtype, "shifted16_tile128", "shifted16_tile256", rows, cols)


def flat_gain(dtype, rows, cols):
    """lab_unaligned, medians: the flat tiles' points over the square 256-byte line tiles with 16-byte
    starts (shifted_flat - shifted16_tile256: what the record took for 2-byte types before them)."""
    return _row_gap(dtype, "shifted_flat", "shifted16_tile256", rows, cols)


def flat_loss(dtype, rows, cols):
    """lab_unaligned, medians: the points the flat tiles lose to the square 256-byte line tiles (shifted_tile256)."""
    return _row_gap(dtype, "shifted_tile256", "shifted_flat", rows, cols)


_STRIP_METRICS = {"sectors": "lts__t_sectors_srcunit_tex_op_read.sum", "dram": "dram__bytes_read.sum",
                  "time": "gpu__time_duration.sum", "instructions": "smsp__inst_executed.sum"}


def strip_traffic(kernel, other, other_size, metric):
    """ncu_strip, half: `metric` (sectors: L2 read sectors, dram: DRAM bytes read, time, instructions)
    of `kernel` at 4899 over `other`'s at `other_size`."""
    p, m = _shifted_profile("ncu_strip"), _STRIP_METRICS[metric]
    return num(p[("half", kernel, 4899)][m] / p[("half", other, int(other_size))][m], 2)


def l2_busy(kernel, size):
    """ncu_strip, half: L2 throughput of `kernel` at `size`, % of its peak."""
    return num(_shifted_profile("ncu_strip")[("half", kernel, int(size))]["lts__throughput.avg.pct_of_peak_sustained_elapsed"], 0)


def strip_loss(dtype, kernel):
    """lab_unaligned, medians at 4899: the points `kernel` (a strip or pair row) loses to the flat tiles one per block."""
    return _row_gap(dtype, "shifted_flat", kernel, 4899, 4899)


def packed_double_gain(side):
    """lab_double_odd, medians: the packed 256-byte tiles' points over the record's (then the
    element path) at `double`'s odd sizes below 6143 (side="below"), or the points they lose
    to it from 6143 on ("from")."""
    sizes = [(r["rows"], r["cols"]) for r in table("lab_double_odd").where(kernel="record", dtype="double")
             if r["rows"] % 2 or r["cols"] % 2]
    keep = [x for x in sizes if (x[0] < 6143) == (side == "below")]
    sign = 1 if side == "below" else -1
    return span([sign * (_runs_median("lab_double_odd", "double", "shifted_packed256", x)
                         - _runs_median("lab_double_odd", "double", "record", x)) for x in keep])


_PAIRS_ODD = ((4896, 4899), (11584, 11585))  # aligned neighbour, odd size


def _pairs_sizes():
    return [(r["rows"], r["cols"]) for r in table("lab_double_pairs").where(kernel="parity64", dtype="double")]


def _pairs_median(kernel, shape):
    return _runs_median("lab_double_pairs", "double", kernel, shape)


def parity_vs_elements(side):
    """lab_double_pairs, medians: the points the parity tile (parity64) is ahead of the element
    path (elements64) where it is ahead (side="ahead", with the sizes), or behind it elsewhere
    ("behind", a span)."""
    gaps = {x: _pairs_median("parity64", x) - _pairs_median("elements64", x) for x in _pairs_sizes()}
    if side == "ahead":
        return ", ".join(f"{num(g)} points at {x[0]}" if x[0] == x[1] else f"{num(g)} points at {x[0]} x {x[1]}"
                         for x, g in gaps.items() if g > 0)
    return span([-g for g in gaps.values() if g <= 0])


def record_over_element_tiles():
    """lab_double_pairs, medians: the record's points over the better of the two element-path
    tiles (elements_tile256, elements_tile512x256) at each size, as a span."""
    return span([_pairs_median("record", x) - max(_pairs_median(k, x) for k in ("elements_tile256", "elements_tile512x256"))
                 for x in _pairs_sizes()])


def odd_cost(kernel):
    """lab_double_pairs, medians: the points `kernel` loses from 4896 to 4899 and from 11584 to
    11585, as 'a and b'."""
    def at(n):
        return _runs_median("lab_double_pairs", "double", kernel, (n, n))
    return " and ".join(num(at(a) - at(o)) for a, o in _PAIRS_ODD)


SPLIT_OF = {"flat": ("shifted_split_flat", "shifted_flat"), "tile256": ("shifted_split_tile256", "shifted_tile256")}
_ODD_SHAPES = ((2051, 2051), (4899, 4899), (11585, 11585), (4097, 4099))


def split_loss(tile):
    """lab_unaligned, medians: the points the split tile (`tile`: flat or tile256) loses to the
    same tile that loads the rows below it, at the odd shapes, float and the 2-byte types, as a span."""
    split, loads = SPLIT_OF[tile]
    return span([_unaligned_median(d, loads, s) - _unaligned_median(d, split, s)
                 for d in ("float", "half", "bf16") for s in _ODD_SHAPES])


_SPLIT_METRICS = {"read_sectors": ["lts__t_sectors_srcunit_tex_op_read.sum"],
                  "write_sectors": ["lts__t_sectors_srcunit_tex_op_write.sum"],
                  "write_requests": ["lts__t_requests_srcunit_tex_op_write.sum"],
                  "dram": ["dram__bytes_read.sum", "dram__bytes_write.sum"],
                  "time": ["gpu__time_duration.sum"], "instructions": ["smsp__inst_executed.sum"]}


def split_traffic(dtype, tile, metric):
    """ncu_split at 4899: `metric` of the split tile over the same tile that loads the rows below it."""
    p = _shifted_profile("ncu_split")
    split, loads = SPLIT_OF[tile]
    total = lambda k: sum(p[(dtype, k, 4899)][m] for m in _SPLIT_METRICS[metric])
    return num(total(split) / total(loads), 2)


def blocks_gain(dtype, kernel, other, size=4899):
    """lab_shifted_blocks, medians at size x size: `kernel`'s points over `other`'s (a row with more
    blocks per SM against its tile with the compiler's registers, or the other way round)."""
    def at(k):
        return _runs_median("lab_shifted_blocks", dtype, k, (size, size))
    return num(at(kernel) - at(other))


# --- Odd half sizes beside their aligned neighbours (lab_odd_sizes) ---

ODD_SIZES = [(4705, 4704), (4899, 4896), (5059, 5056), (5311, 5312), (5565, 5568)]  # (odd, its aligned neighbour)


def _odd(kernel, size, field=pct):
    """lab_odd_sizes, median over its runs: `field` (pct or gbps) of `kernel` at size x size, half."""
    return _runs_median("lab_odd_sizes", "half", kernel, (size, size), field)


def odd_sizes_flat():
    """lab_odd_sizes, medians: the flat tiles' % of cudaMemcpy at the odd sizes, lowest to highest."""
    return span([_odd("shifted_flat", o) for o, _ in ODD_SIZES])


def odd_sizes_gaps():
    """lab_odd_sizes, medians: the record's points below its aligned neighbour, odd sizes in order."""
    return ", ".join(num(_odd("record", a) - _odd("record", o)) for o, a in ODD_SIZES)


def gaps_4899():
    """The record's points below 4896 at 4899 for the 2-byte types: lab_unaligned's medians (half,
    bf16) and lab_odd_sizes' (half), lowest to highest."""
    unaligned = [_unaligned_median(d, "record", (4896, 4896)) - _unaligned_median(d, "record", (4899, 4899))
                 for d in ("half", "bf16")]
    return span(unaligned + [_odd("record", 4896) - _odd("record", 4899)])


def odd_sizes_bandwidth(kernel):
    """lab_odd_sizes, medians: `kernel`'s GB/s at each odd size over its own at the aligned
    neighbour, in %, odd sizes in order."""
    return ", ".join(num(100 * _odd(kernel, o, gbps) / _odd(kernel, a, gbps), 0) for o, a in ODD_SIZES)


# --- Evict-first hints, store layouts, tile orders (lab_coarsen, lab_tune) ---

def _tune_gaps_16384(other):
    tbl = table("lab_tune")
    return _gaps(tbl, TUNED, other, _cells(tbl, lambda d, r, c: r == c == 16384))


def evict_loads_cost_16384():
    """lab_tune: what the evict-first policy on the loads costs at 16384, every type."""
    return span(_tune_gaps_16384(TUNED + "_evictloads"))


def l2_prefetch_cost_16384():
    """lab_tune: what the .L2::256B prefetch hint costs at 16384, every type."""
    return span(_tune_gaps_16384(TUNED + "_l2prefetch"))


def column_order_gain_16384():
    """lab_tune: the column order's lead over row-major (_rows) at 16384, every type."""
    return span(_tune_gaps_16384(TUNED + "_rows"))


def column_order_gain_8192():
    """lab_coarsen (the map, 8192): headline_tile256's lead over order_rows, every type."""
    return span(_map_gaps(HEADLINE, "order_rows", lambda d, r, c: r == c == 8192))


def pairs_trail_two_byte():
    """lab_coarsen: the most runs128_pairs trails headline_tile256 by, half and bf16, 8192 up, off the pitch."""
    return _largest(_map_gaps(HEADLINE, "runs128_pairs", _off_pitch_from_8192, ["half", "bf16"]))


def pairs_trail_others():
    """lab_coarsen: the most runs128_pairs trails headline_tile256 by, float and double, 8192 up, off the pitch."""
    return _largest(_map_gaps(HEADLINE, "runs128_pairs", _off_pitch_from_8192, ["float", "double"]))


def column_pairs_gain_two_byte():
    """lab_coarsen: order_rows' lead over runs256 for half and bf16 at 8192, 11584 and 8192 x 16384."""
    keep = lambda d, r, c: (r, c) in ((8192, 8192), (11584, 11584), (8192, 16384))
    return span(_map_gaps("order_rows", "runs256", keep, ["half", "bf16"]))


def column_pairs_gain_half_4896():
    """lab_coarsen: order_rows' lead over runs256, half at 4896."""
    return span(_map_gaps("order_rows", "runs256", lambda d, r, c: r == 4896, ["half"]))


def _loss_from_8192(kernel):
    """lab_coarsen: how far `kernel` trails headline_tile256, every type and shape from 8192 up."""
    return span(_map_gaps(HEADLINE, kernel, _from_8192))


def diagonal_loss_from_8192():
    """lab_coarsen: order_diagonal behind headline_tile256 from 8192 up."""
    return _loss_from_8192("order_diagonal")


def grouped_loss_from_8192():
    """lab_coarsen: order_grouped behind headline_tile256 from 8192 up."""
    return _loss_from_8192("order_grouped")


def persistent_loss_from_8192():
    """lab_coarsen: persistent behind headline_tile256 from 8192 up."""
    return _loss_from_8192("persistent")


def bands_vs_coarsen_float():
    """lab_coarsen: largest distance of order_column_bands from coarsen, float, 8192 up."""
    return _largest(map(abs, _map_gaps("order_column_bands", "coarsen", _from_8192, ["float"])))


def _bands_behind():
    return [g for g in _map_gaps(HEADLINE, "order_column_bands", _from_8192) if g > 0]


def bands_behind_count():
    """lab_coarsen: in how many type x shape cells from 8192 up order_column_bands trails headline_tile256."""
    return _count(len(_bands_behind()), len(_map_gaps(HEADLINE, "order_column_bands", _from_8192)))


def bands_behind():
    """lab_coarsen: by how much order_column_bands trails headline_tile256 where it does, 8192 up."""
    return span(_bands_behind())


# --- Regions, double buffering, persistent grid, bulk stores (lab_coarsen, ncu_double16384) ---

def never_loss_double_8192x16384():
    """lab_coarsen: what regions_never loses to coarsen, double at 8192 x 16384 (the 128 KB pitch)."""
    return span(_map_gaps("coarsen", "regions_never", lambda d, r, c: (r, c) == (8192, 16384), ["double"]))


def never_double_16384():
    """lab_coarsen: regions_never against coarsen, double at 16384 x 16384."""
    return _against(table("lab_coarsen"), "regions_never", "coarsen", ("double", 16384, 16384))


def two_regions_cost_map():
    """lab_coarsen (the map, 8192): what regions_always loses to regions_never, every type."""
    return span(_map_gaps("regions_never", "regions_always", lambda d, r, c: r == c == 8192))


def double_buffer_loss():
    """lab_coarsen: double_buffer behind headline_tile256 at 8192 and 16384, every type."""
    return span(_map_gaps(HEADLINE, "double_buffer", lambda d, r, c: r == c and r in (8192, 16384)))


def double_buffer_float_2048():
    """lab_tune: the 256-byte tile with double buffering against without, float 2048."""
    return _tune(TUNED + "_double", TUNED, ("float", 2048, 2048))


def _occupancy(source, kernel, dtype):
    """Achieved occupancy (%) of one kernel in the newest profile CSV of `source`."""
    return row(table(source), kernel=kernel, dtype=dtype)["occupancy_pct"]


def double_buffer_occupancy():
    """ncu_double16384: achieved occupancy of double_buffer, double at 16384."""
    return num(_occupancy("ncu_double16384", "double_buffer", "double"), 0) + "%"


def headline_occupancy_double():
    """ncu_double16384: achieved occupancy of headline_tile256, double at 16384."""
    return num(_occupancy("ncu_double16384", HEADLINE, "double"), 0) + "%"


def bulk_store_gap_from_8192():
    """lab_coarsen: largest distance of bulk_store from headline_tile256, 8192 up, off the 128 KB pitch."""
    return _largest(map(abs, _map_gaps(HEADLINE, "bulk_store", _off_pitch_from_8192)))


def bulk_store_loss_2048():
    """lab_coarsen: bulk_store behind headline_tile256 at 2048, every type."""
    return span(_map_gaps(HEADLINE, "bulk_store", lambda d, r, c: r == 2048), 0)


# --- Occupancy (lab_occupancy, ncu_occupancy) ---

def headline_registers_float():
    """ncu_occupancy: registers per thread of headline_tile256, float."""
    return str(row(table("ncu_occupancy"), kernel=HEADLINE, dtype="float")["registers"])


def two_blocks_occupancy():
    """ncu_occupancy: achieved occupancy at 2 blocks per SM, float and half."""
    return span([_occupancy("ncu_occupancy", "blocks_per_sm_2", d) for d in ("float", "half")], 0, "%")


def two_half_blocks_occupancy():
    """ncu_occupancy: achieved occupancy of half at 2 blocks per SM."""
    return span([_occupancy("ncu_occupancy", "blocks_per_sm_2", "half")], 0, "%")


def two_blocks_half_gap_16384():
    """lab_occupancy: headline_tile256's lead over blocks_per_sm_2, half at 16384."""
    tbl = table("lab_occupancy")
    return span(_gaps(tbl, HEADLINE, "blocks_per_sm_2", [("half", 16384, 16384)]))


def _in_flight(low_kb, high_kb):
    """lab_occupancy at 16384: % of cudaMemcpy of the blocks_per_sm_k rows whose k tiles (a
    256 x 256-byte tile holds 65536 / sizeof(T) bytes) are low_kb to high_kb KB per SM."""
    tbl = table("lab_occupancy")
    found = []
    for kernel in tbl.values("kernel"):
        if (m := re.fullmatch(r"blocks_per_sm_(\d+)", kernel)):
            for d in DTYPES:
                if low_kb <= int(m.group(1)) * 65536 // DTYPE_BYTES[d] // 1024 <= high_kb:
                    found.append(_pct(tbl, kernel, (d, 16384, 16384)))
    return span(found, 0, "%")


def in_flight_8_to_16kb():
    """lab_occupancy: the rows with 8 to 16 KB of tiles per SM, at 16384."""
    return _in_flight(8, 16)


def in_flight_24_to_32kb():
    """lab_occupancy: the rows with 24 to 32 KB of tiles per SM, at 16384."""
    return _in_flight(24, 32)


# --- Tuning and the 11584 square (lab_tune) ---

def l2_prefetch_gain_half_11584():
    """lab_tune: what the .L2::256B prefetch hint gains, half at 11584."""
    tbl = table("lab_tune")
    return span(_gaps(tbl, TUNED + "_l2prefetch", TUNED, [("half", 11584, 11584)]))


def l2_prefetch_loss_aligned():
    """lab_tune: what the prefetch hint costs at every shape from 4096 up whose rows start on 256-byte boundaries."""
    tbl = table("lab_tune")
    keep = lambda d, r, c: min(r, c) >= 4096 and not _straddles(d, c)
    return span(_gaps(tbl, TUNED, TUNED + "_l2prefetch", _cells(tbl, keep)))


# --- Step 08's variants (lab_inplace, lab_inplace_tune, 08_inplace) ---

def _inplace_gaps(ahead, behind, keep):
    tbl = table("lab_inplace")
    return _gaps(tbl, ahead, behind, _cells(tbl, keep))


def square_grid_cost():
    """lab_inplace: inplace_square_grid behind inplace_one_region at 8192 and 16384, every type."""
    return span(_inplace_gaps("inplace_one_region", "inplace_square_grid", lambda d, r, c: r == c))


def one_region_lead_8192():
    """lab_inplace: inplace_one_region ahead of inplace_two_regions at 8192, every type."""
    return span(_inplace_gaps("inplace_one_region", "inplace_two_regions", lambda d, r, c: r == c == 8192))


def one_region_lead_16384():
    """lab_inplace: the most inplace_one_region leads inplace_two_regions by at 16384, off the 128 KB pitch."""
    keep = lambda d, r, c: r == c == 16384 and not _at_pitch(d, c)
    return _largest(_inplace_gaps("inplace_one_region", "inplace_two_regions", keep))


def _regions_x4_double():
    return "tile256B_t256_s256_columns_x4", "tile256B_t256_s256_columns_x2", ("double", 16384, 16384)


def regions_x4_double():
    """lab_inplace_tune: four regions against two, double at 16384."""
    return _against(table("lab_inplace_tune"), *_regions_x4_double())


def regions_x4_gain_double():
    """lab_inplace_tune: what four regions gain over two, double at 16384."""
    four, two, cell = _regions_x4_double()
    return span(_gaps(table("lab_inplace_tune"), four, two, [cell]))


def inplace_squares():
    """08_inplace (the chapter's CSV): step 08's kernel at 8192 and 16384, every type."""
    tbl = table("08_inplace")
    return span([_pct(tbl, "inplace", x) for x in _cells(tbl, lambda d, r, c: r == c and r in (8192, 16384))], 0, "%")


# --- In place for any rectangle (lab_inplace_rect and its runs, 08_inplace_rect, ncu_inplace_rect) ---

def two_pass_8192_fraction():
    """08_inplace_rect and its runs at 8192 x 16384: twice the median end to end, as a fraction of the copy."""
    return num(2 * median([x for v in _end_to_end(8192, 16384).values() for x in v]) / 100, 2)


def _orientations(rows, cols):
    """The two timed matrices of a shape: (suffix, rows, cols)."""
    return (("rxc", rows, cols), ("cxr", cols, rows))


def _pass_runs(name):
    """{(orientation, dtype, rows, cols): [% of cudaMemcpy in each lab_inplace_rect run]} of the
    two-pass kernel `name` (cycles_pass1_squares, cycles_pass2_chunks) on every shape."""
    tables = runs("lab_inplace_rect")
    found = {}
    for r, c in _shapes(tables[0], kernel=f"{name}_rxc"):
        for o, rows, cols in _orientations(r, c):
            for d in DTYPES:
                found[(o, d, rows, cols)] = [_pct(t, f"{name}_{o}", (d, rows, cols)) for t in tables]
    return found


def _spread(values):
    """Highest minus lowest, exactly."""
    return float(_exact(max(values)) - _exact(min(values)))


def pass1_spread():
    """lab_inplace_rect runs: the most pass 1 moved between runs, any shape, orientation and type."""
    return _largest(map(_spread, _pass_runs("cycles_pass1_squares").values()))


def pass2_spread():
    """lab_inplace_rect runs: the most pass 2 moved between runs, any shape, orientation and type."""
    return _largest(map(_spread, _pass_runs("cycles_pass2_chunks").values()), 0)


def pass2_spread_where():
    """lab_inplace_rect runs: where pass 2 moved most, and its lowest to highest run."""
    found = _pass_runs("cycles_pass2_chunks")
    o, d, rows, cols = max(found, key=lambda k: _spread(found[k]))
    return f"`{d}`, {rows} x {cols}: {span(found[(o, d, rows, cols)], unit='%')}"


def cut_cycles_below_count():
    """lab_inplace_rect runs: in how many (type, orientation, run) pass 2 at 10240 x 7168 trailed 8192 x 16384."""
    p = _pass_runs("cycles_pass2_chunks")
    pairs = [(p[(o, d, *cut)], p[(o, d, *whole)]) for d in DTYPES
             for (o, *cut), (_, *whole) in zip(_orientations(10240, 7168), _orientations(8192, 16384))]
    below = sum(a < b for cut, whole in pairs for a, b in zip(cut, whole))
    return _count(below, sum(len(cut) for cut, _ in pairs))


RECT_SHAPES = ((8192, 16384), (10000, 7000))  # the three-pass sections' shapes


def _rect(kernel, dtypes=DTYPES):
    """lab_inplace_rect: % of cudaMemcpy of the three-pass kernel `kernel` (without _rxc/_cxr) on
    both shapes, both orientations, the given types."""
    tbl = table("lab_inplace_rect")
    return [_pct(tbl, f"{kernel}_{o}", (d, rows, cols)) for shape in RECT_SHAPES
            for o, rows, cols in _orientations(*shape) for d in dtypes]


def row_pass_wide():
    """lab_inplace_rect: the row pass, float and double, both shapes and orientations."""
    return span(_rect("rect_pass2_shuffle_rows", ["float", "double"]), 0, "%")


def row_pass_narrow():
    """lab_inplace_rect: the row pass, half and bf16, both shapes and orientations."""
    return span(_rect("rect_pass2_shuffle_rows", ["half", "bf16"]), 0, "%")


def column_passes():
    """lab_inplace_rect: passes 1 and 3 (16-byte panels), both shapes and orientations, every type."""
    return span(_rect("rect_pass1_rotate_columns") + _rect("rect_pass3_permute_columns"), 0, "%")


def three_passes():
    """lab_inplace_rect: the three passes end to end (times added: 1 / sum of 1 / %), both shapes."""
    passes = [_rect(k) for k in ("rect_pass1_rotate_columns", "rect_pass2_shuffle_rows", "rect_pass3_permute_columns")]
    return span([1 / sum(1 / p for p in ps) for ps in zip(*passes)], 0, "%")


def _rect_profile():
    """[(dtype, kernel function, {metric: value})] of ncu_inplace_rect's report, in launch order."""
    found, dtype = [], None
    for line in _text("ncu_inplace_rect"):
        if line.startswith("## "):
            dtype = line[3:].strip()
        elif (m := re.match(r"\s+void (\w+)<", line)):
            found.append((dtype, m.group(1), {}))
        elif found and (m := re.match(r"\s+(\S.*?)\s{2,}\S+\s+([\d,.]+)$", line)):
            found[-1][2].setdefault(m.group(1), _number(m.group(2)))
    return found


def _busy(function, metric):
    return span([m[metric] for _, f, m in _rect_profile() if f == function], 0, "%")


def column_pass_l2_busy():
    """ncu_inplace_rect: L2 throughput (% of peak) of the column passes."""
    return _busy("permute_columns", "L2 Cache Throughput")


def column_pass_dram_busy():
    """ncu_inplace_rect: DRAM throughput (% of peak) of the column passes."""
    return _busy("permute_columns", "DRAM Throughput")


def column_pass_sm_busy():
    """ncu_inplace_rect: SM throughput (% of peak) of the column passes."""
    return _busy("permute_columns", "Compute (SM) Throughput")


def row_pass_dram_busy():
    """ncu_inplace_rect: DRAM throughput (% of peak) of the row pass."""
    return _busy("shuffle_rows", "DRAM Throughput")


def halving_cost():
    """lab_inplace_rect at 8192 x 16384: the speed lost from 16- to 8- and from 8- to 4-byte column chunks."""
    tbl = table("lab_inplace_rect")
    losses = []
    for kernel in ("rect_pass1_rotate_columns", "rect_pass3_permute_columns"):
        for d in DTYPES:
            speeds = [_pct_if(tbl, f"{kernel}{w}_rxc", (d, 8192, 16384)) for w in ("", "_8B", "_4B")]
            speeds = [x for x in speeds if x is not None]
            losses += [100 * (1 - narrow / wide) for wide, narrow in zip(speeds, speeds[1:])]
    return span(losses, 0, "%")


# Where the cluster's gathers read consecutive rows: pass 1 and pass 3 at 8192 x 16384, pass 1 at
# 7000 x 10000 (the cluster tables' rows), the 4- and 8-byte types.
CONSECUTIVE = (("rect_pass1_rotate_columns", "rxc", 8192, 16384), ("rect_pass3_permute_columns", "rxc", 8192, 16384),
               ("rect_pass1_rotate_columns", "cxr", 7000, 10000))


def _cluster(best_of):
    """lab_inplace_rect: per CONSECUTIVE case and type, the best % of the given panel variants."""
    tbl = table("lab_inplace_rect")
    found = []
    for kernel, o, rows, cols in CONSECUTIVE:
        for d in ("float", "double"):
            measured = [_pct_if(tbl, f"{kernel}{v}_{o}", (d, rows, cols)) for v in best_of]
            found.append(max(x for x in measured if x is not None))
    return span(found, 0, "%")


def cluster_before():
    """lab_inplace_rect: the one-block panel where the gathers read consecutive rows, float and double."""
    return _cluster([""])


def cluster_after():
    """lab_inplace_rect: the better of the 4- and 8-block clusters there, float and double."""
    return _cluster(["_cluster4", "_cluster8"])


def _two_passes_rect(measure):
    """lab_inplace_rect: `measure` (pct or gbps) of step 08's transpose_inplace on every rectangle and type."""
    tbl = table("lab_inplace_rect")
    return [measure(tbl, kernel="inplace", dtype=r["dtype"], rows=r["rows"], cols=r["cols"])
            for r in tbl.where(kernel="inplace")]


def two_passes_rect():
    """lab_inplace_rect: step 08's transpose_inplace end to end, % of cudaMemcpy, every rectangle and type."""
    return span(_two_passes_rect(pct), 0, "%")


def two_passes_rect_gbps():
    """lab_inplace_rect: step 08's transpose_inplace end to end, GB/s, every rectangle and type."""
    return span(_two_passes_rect(gbps), 0, " GB/s")


# ---- The two passes beside alignment controls (lab_inplace_align and its repeat runs) -------

def _align_medians(pass_):
    """[(dtype, rows, cols, median over the runs)] of `pass_` ("pass1_squares", "pass2_chunks" or
    "inplace" for end to end) at every shape of lab_inplace_align, both orientations."""
    tables = runs("lab_inplace_align")
    out = []
    for kernel in ([pass_] if pass_ == "inplace" else [f"cycles_{pass_}_rxc", f"cycles_{pass_}_cxr"]):
        for d in DTYPES:
            for r, c in dict.fromkeys((x["rows"], x["cols"]) for x in tables[0].where(kernel=kernel, dtype=d)):
                out.append((d, r, c, median([pct(t, kernel=kernel, dtype=d, rows=r, cols=c) for t in tables])))
    return out


def _lines(dtype, rows, cols):
    """Whether g x sizeof(T) is a multiple of 128 bytes (g = gcd(rows, cols)): then every square
    row and every chunk starts on a 128-byte line."""
    return math.gcd(rows, cols) * DTYPE_BYTES[dtype] % 128 == 0


def _whole_tiles(dtype, rows, cols):
    """Whether a g x g square is a whole number of step 08's 256-byte tiles."""
    return math.gcd(rows, cols) % (256 // DTYPE_BYTES[dtype]) == 0


def _alignspan(pass_, lines, whole=None):
    """Range of the medians of `pass_` over the (type, shape) cells with or without aligned
    squares and chunks (and, if `whole` is given, with or without whole tiles)."""
    return span([m for d, r, c, m in _align_medians(pass_)
                   if _lines(d, r, c) == lines and (whole is None or _whole_tiles(d, r, c) == whole)], unit="%")


def align_pass1_lines_whole():
    return _alignspan("pass1_squares", True, True)


def align_pass1_lines_partial():
    return _alignspan("pass1_squares", True, False)


def align_pass1_off():
    return _alignspan("pass1_squares", False)


def align_pass2_lines():
    return _alignspan("pass2_chunks", True)


def align_pass2_off():
    return _alignspan("pass2_chunks", False)


def align_end_to_end_lines():
    """End to end where squares and chunks start on lines, 4- and 8-byte types."""
    return span([m for d, r, c, m in _align_medians("inplace") if _lines(d, r, c) and DTYPE_BYTES[d] > 2], unit="%")


def align_end_to_end_lines_2byte():
    return span([m for d, r, c, m in _align_medians("inplace") if _lines(d, r, c) and DTYPE_BYTES[d] == 2], unit="%")


def align_end_to_end_off():
    return span([m for d, r, c, m in _align_medians("inplace") if not _lines(d, r, c)], unit="%")


def _stores_gaps(kernel, other, sizes, dtypes=DTYPES):
    """lab_stores, medians of its runs: `kernel`'s points over `other`'s at the squares `sizes`."""
    return [_runs_median("lab_stores", d, kernel, (n, n)) - _runs_median("lab_stores", d, other, (n, n))
            for d in dtypes for n in sizes]


def plain_stores_float_4096(tile):
    """lab_stores, medians: `float` 4096 with plain 16-byte stores against evict-first ones, tile 128 or 256."""
    plain, hinted = (_runs_median("lab_stores", "float", k, (4096, 4096))
                     for k in (f"tile{tile}_no_cs", f"headline_tile{tile}"))
    return f"{num(plain)}% against {num(hinted)}%"


def plain_stores_gain_from_8192():
    """lab_stores, medians: the 256-byte tile's points with plain stores over evict-first ones, 8192 and 16384."""
    return span(_stores_gaps("tile256_no_cs", "headline_tile256", [8192, 16384]))


def plain_stores_gain_4096():
    """lab_stores, medians: the same at 4096, every type."""
    return span(_stores_gaps("tile256_no_cs", "headline_tile256", [4096]))


def plain_stores_no_async_cost():
    """lab_stores, medians: the most that loading through registers (no cp.async) costs the plain-store 256-byte
    tile at 8192 and 16384."""
    return _largest([-g for g in _stores_gaps("tile256_no_cs_async", "tile256_no_cs", [8192, 16384])])


def evict_loads_vs_both_8192():
    """lab_coarsen at 8192: evict_first_loads' points against evict_first_both's, every type."""
    return span(_map_gaps("evict_first_loads", "evict_first_both", lambda d, r, c: r == c == 8192))


def more_blocks_cost_from_8192(tile):
    """lab_coarsen: points that 32 registers per thread (tile128_16blocks or tile256_8blocks) cost against
    the same tile's headline at 8192 and 16384, for the 4- and 2-byte types."""
    blocks = {"128": "tile128_16blocks", "256": "tile256_8blocks"}[str(tile)]
    return span(_map_gaps(f"headline_tile{tile}", blocks, lambda d, r, c: r == c and r >= 8192,
                          ["float", "half", "bf16"]))


def start16_flat_loss_4899():
    """lab_coarsen at 4899: what 16-byte starts (shifted16_flat) lose against sector starts (shifted_flat),
    for the 2-byte types."""
    return span(_map_gaps("shifted_flat", "shifted16_flat", lambda d, r, c: r == c == 4899, ["half", "bf16"]))


# ---------------------------------------------------------------------------------------------
# "Evict-first hints, and plain 16-byte stores": the record with plain stores (lab_unaligned).

def _unaligned_shapes():
    """The shapes of lab_unaligned's newest run, as (rows, cols)."""
    return sorted({(r["rows"], r["cols"]) for r in table("lab_unaligned").where(kernel="record")})


def record_plain_gain(rows):
    """lab_unaligned, medians: the general record's points (record_general: plain stores, no lean
    tile) over record_cs's (the same with evict-first hints) on the shapes with 16-byte rows
    (rows="rows16") or without them ("odd"), every type."""
    def rows16(d, r, c):
        v = 16 // DTYPE_BYTES[d]
        return r % v == 0 and c % v == 0
    want = {"rows16": True, "odd": False}[rows]
    return span([_unaligned_median(d, "record_general", s) - _unaligned_median(d, "record_cs", s)
                 for d in DTYPES for s in _unaligned_shapes() if rows16(d, *s) == want])


# ---------------------------------------------------------------------------------------------
# "A lean tile for a few waves": lean_tile128 beside the record (lab_small) and torch.compile
# (peers_small: scripts/peers.py, run after each lab_small run, in its own process).

SMALL_SIZES = (2048, 3072, 4096)  # lab_small's few-wave squares


def _small_median(source, dtype, kernel, n):
    return _runs_median(source, dtype, kernel, (n, n))


def _lean_gaps(other, dtypes):
    """lab_small, medians: lean_tile128's points over `other`'s (a lab_small kernel, or
    torch_compile from peers_small) at SMALL_SIZES, for each of `dtypes`."""
    source = "peers_small" if other == "torch_compile" else "lab_small"
    return [_small_median("lab_small", d, "lean_tile128", n) - _small_median(source, d, other, n)
            for d in dtypes for n in SMALL_SIZES]


def lean_vs(dtype, other):
    """lean_tile128's points over `other`'s at `dtype`, 2048 to 4096, as a span."""
    return span(_lean_gaps(other, [dtype]))


def lean_behind(other, types="float"):
    """By how many points lean_tile128 is behind `other`, 2048 to 4096, for `float`
    (types="float") or the 2-byte types (types="two_byte"), as a span."""
    dtypes = {"float": ["float"], "two_byte": ["half", "bf16"]}[types]
    return span([-g for g in _lean_gaps(other, dtypes)])


def lean_pairs_vs_general(n):
    """lab_small, medians: lean_pairs128's points over the general record's at n x n, for the
    2-byte types, as a span."""
    return span([_small_median("lab_small", d, "lean_pairs128", int(n)) - _small_median("lab_small", d, "record_general", int(n))
                 for d in ("half", "bf16")])


def lean_pairs_vs_tile(dtype):
    """lab_small, medians: lean_pairs128's points over lean_tile128's at `dtype`, 2048 to 4096, as a span."""
    return span([_small_median("lab_small", dtype, "lean_pairs128", n) - _small_median("lab_small", dtype, "lean_tile128", n)
                 for n in SMALL_SIZES])


def lean_float():
    """lab_small and peers_small, medians at `float`: the record (with the lean tile), the general
    record and torch.compile per size."""
    parts = []
    for n in SMALL_SIZES:
        rec, general = (_small_median("lab_small", "float", k, n) for k in ("record", "record_general"))
        tc = _small_median("peers_small", "float", "torch_compile", n)
        parts.append(f"{num(rec)}, {num(general)} and {num(tc)}% at {n}")
    return "; ".join(parts)


def record_vs_compile_small(dtype):
    """lab_small and peers_small, medians: the record's points over torch.compile's at `dtype`,
    2048 to 4096, as a span."""
    return span([_small_median("lab_small", dtype, "record", n) - _small_median("peers_small", dtype, "torch_compile", n)
                 for n in SMALL_SIZES])


def small_variant_gaps(kernel, dtypes="float,double,bf16"):
    """lab_small_orders, medians: `kernel`'s points over tile128_no_cs's at 2048, 3072 and 4096."""
    return span([_small_median("lab_small_orders", d, kernel, n) - _small_median("lab_small_orders", d, "tile128_no_cs", n)
                 for d in dtypes.split(",") for n in SMALL_SIZES])
