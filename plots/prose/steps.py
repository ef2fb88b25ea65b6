"""Numbers quoted in the steps' chapters, steps/NN_*/README.md (see plots/prose/__init__.py).

Functions are grouped by chapter. Some numbers are Little's-law arithmetic on measured ones
(step 00's latency and copies); they are computed here the way the sentences around them
compute them, so that they follow the CSVs.
"""
import math
import re
import statistics

import queueing
import results
from prose import file, gbps, num, one, pct, span, table

SMS = 132               # SMs of an H200 (its specification, as the chapters state it)
THREADS_PER_SM = 2048   # resident threads per SM (compute capability 9.0)
REGISTERS_PER_SM = 65536
SHARED_PER_SM = 228 * 1024  # bytes of shared memory per SM
SHARED_PER_BLOCK_RESERVED = 1024  # the runtime keeps 1 KB per block
BOOST_GHZ = 1.98        # H200 boost clock (its specification; step 05)
SIZES = {"float": 4, "double": 8, "half": 2, "bf16": 2}
LARGE = dict(rows=16384, cols=16384)  # the chapters' headline size


# ---- shared helpers -----------------------------------------------------------------------

def _whole(x):
    """A count as the prose shows it: 32.0 -> '32'."""
    return num(x, 0)


def _round_to(x, step):
    """x to the nearest multiple of `step`, as the prose shows it: 556.3, 10 -> '560'."""
    return str(int(round(x / step) * step))


def _metric(kernel, dtype, metric, source="ncu"):
    """One Nsight Compute metric of `kernel` x `dtype` in the newest CSV of `source` (a row
    profiled twice with the same readings counts once)."""
    tbl = table(source)
    rows = [dict(t) for t in {tuple(sorted(r.items())) for r in tbl.where(kernel=kernel, dtype=dtype)}]
    return one(rows, f"{kernel} {dtype} in {tbl.path.name}")[metric]


def _same(values, what):
    """The one value that every entry of `values` has; stops with a message otherwise."""
    if len(set(values)) != 1:
        raise SystemExit(f"prose: {what} differ ({values}); the sentence says they are the same")
    return values[0]


def _pct_large(source, kernel, dtype):
    """% of cudaMemcpy of `kernel` x `dtype` at 16384 x 16384 in the newest CSV of `source`."""
    return pct(table(source), kernel=kernel, dtype=dtype, **LARGE)


def _memcpy_gbps(source):
    """cudaMemcpy's GB/s, `float` at 16384 x 16384, in the newest CSV of `source`."""
    return gbps(table(source), kernel="cudaMemcpy", dtype="float", **LARGE)


def _sm_read_gbps(source):
    """GB/s each SM reads at cudaMemcpy's speed: a copy reads half the bytes it moves."""
    return _memcpy_gbps(source) / 2 / SMS


def _chase():
    """00_latency's row: one thread's chain of dependent loads (`rows` of them), idle GPU."""
    return one(table("latency").where(kernel="pointer_chase"), "pointer_chase in the latency CSV")


def _idle_latency_ns():
    """ns per load of 00_latency's pointer chase."""
    return _chase()["ms_median"] * 1e6 / _chase()["rows"]


def _naive_in_flight_bytes(dtype):
    """Bytes in flight per SM for 00_copy's copy_naive: one element per resident thread, at the
    occupancy Nsight Compute measured at 8192 x 8192."""
    return _metric("copy_naive", dtype, "occupancy_pct") / 100 * THREADS_PER_SM * SIZES[dtype]


def _loaded_latency_ns(dtype):
    """Little's law solved for the latency of copy_naive under load, as step 00 writes it:
    bytes in flight / (share of cudaMemcpy x GB/s per SM at cudaMemcpy's speed)."""
    share = _pct_large("00_copy", "copy_naive", dtype) / 100
    return _naive_in_flight_bytes(dtype) / (share * _sm_read_gbps("00_copy"))


def _loaded_latency_bounds():
    """The loaded latencies of step 00 (float, half), rounded outward to 100 ns."""
    ns = [_loaded_latency_ns(d) for d in ("float", "half")]
    return math.floor(min(ns) / 100) * 100, math.ceil(max(ns) / 100) * 100


def _loaded_in_flight_bytes():
    """Bytes of loads an SM needs in flight at cudaMemcpy's speed with step 00's loaded
    latency (float's: the one the later chapters count with)."""
    return _sm_read_gbps("00_copy") * _loaded_latency_ns("float")


def _share_pct(dtype, needed_bytes):
    """% of cudaMemcpy that one element in flight per resident thread allows, when an SM needs
    `needed_bytes` in flight: KB as the chapters divide them (2048 x 4 B = 8 KB over 9 KB)."""
    return THREADS_PER_SM * SIZES[dtype] / 1024 / (needed_bytes / 1000) * 100


def _cap_pct(dtype):
    """% of cudaMemcpy that one element in flight per thread allows at step 00's loaded latency."""
    return _share_pct(dtype, _loaded_in_flight_bytes())


# ---- step 00 ------------------------------------------------------------------------------

def latency_ms():
    """00_latency: the median time of all the pointer chase's loads, ms (latency CSV)."""
    return _whole(_chase()["ms_median"])


def latency_ns():
    """00_latency: ns per dependent load, to 10 ns, from the latency CSV."""
    return _round_to(_idle_latency_ns(), 10)


def copy_memcpy_tbps():
    """cudaMemcpy's TB/s, float 16384², from 00_copy."""
    return num(_memcpy_gbps("00_copy") / 1000)


def copy_sm_read_gbps():
    """GB/s each SM reads at cudaMemcpy's speed (00_copy's float 16384²)."""
    return _whole(_sm_read_gbps("00_copy"))


def copy_idle_in_flight_kb():
    """KB of loads in flight per SM at cudaMemcpy's speed and the idle latency (00_copy, latency)."""
    return num(_sm_read_gbps("00_copy") * _idle_latency_ns() / 1000)


def copy_idle_half_cap():
    """% of cudaMemcpy that 2-byte elements, one per thread, allow at the idle latency (latency, 00_copy)."""
    return _whole(_share_pct("half", _sm_read_gbps("00_copy") * _idle_latency_ns()))


def copy_naive(dtype):
    """% of cudaMemcpy of copy_naive, `dtype` 16384², from 00_copy."""
    return _whole(_pct_large("00_copy", "copy_naive", dtype))


def copy_naive_share(dtype):
    """copy_naive's share of cudaMemcpy as a fraction, `dtype` 16384², from 00_copy."""
    return num(_pct_large("00_copy", "copy_naive", dtype) / 100, 2)


def copy_naive_occupancy():
    """copy_naive's achieved occupancy, float and half, from the ncu CSV."""
    return span([_metric("copy_naive", d, "occupancy_pct") for d in ("float", "half")], digits=0)


def copy_naive_in_flight(dtype):
    """KB in flight per SM for copy_naive, `dtype`: ncu occupancy x 2048 threads x sizeof(T)."""
    return num(_naive_in_flight_bytes(dtype) / 1000)


def loaded_latency(dtype):
    """copy_naive's latency under load, `dtype`, ns (ncu occupancy, 00_copy): to 10 ns."""
    return _round_to(_loaded_latency_ns(dtype), 10)


def loaded_latency_range():
    """Step 00's loaded latencies, rounded outward to 100 ns: 'A to B'."""
    lo, hi = _loaded_latency_bounds()
    return f"{lo} to {hi}"


def _sectors_per_request(kernels, dtype):
    return _same([_metric(k, dtype, "ld_sectors_per_req") for k in kernels] +
                 [_metric(k, dtype, "st_sectors_per_req") for k in kernels], f"sectors per request of {kernels}")


def copy_scalar_sectors():
    """Sectors per request of the scalar copies (copy_naive, copy_2d), half then float, from ncu."""
    return " or ".join(_whole(_sectors_per_request(["copy_naive", "copy_2d"], d)) for d in ("half", "float"))


def copy_vec16_sectors():
    """Sectors per request of copy_vec16 and its grid-stride form, every profiled type, from ncu."""
    return _whole(_same([_sectors_per_request(["copy_vec16", "copy_vec16_gridstride"], d) for d in ("float", "half")],
                        "copy_vec16's sectors per request"))


# ---- steps 03 and 06 quote step 00's loaded latency ---------------------------------------

def loaded_in_flight_kb():
    """KB of loads an SM needs in flight at cudaMemcpy's speed and step 00's loaded latency."""
    return _whole(_loaded_in_flight_bytes() / 1000)


def cap(dtype):
    """% of cudaMemcpy that elements of `dtype`, one per thread, allow (step 00's loaded latency)."""
    return _whole(_cap_pct(dtype))


# ---- step 01 ------------------------------------------------------------------------------

def copy_2d(dtype):
    """copy_2d (step 00's one-element-per-thread copy on a 2-D grid), % of cudaMemcpy, `dtype`
    16384², from 00_copy: the loads and threads that steps 01 and 02 share."""
    return _whole(_pct_large("00_copy", "copy_2d", dtype))


def _store_ratio(dtype):
    """naive_row's store sectors per request over copy_2d's (ncu): how many times the copy's
    store transactions step 01 sends to L2."""
    return _metric("naive_row", dtype, "st_sectors_per_req") / _metric("copy_2d", dtype, "st_sectors_per_req")


def row_bounds(dtype):
    """Step 01's predicted range, `dtype`: copy_2d's % over the store ratio (if store transactions
    bound both kernels) to copy_2d's % (if they cost nothing): 'L to H%'. The chapter says the
    measurement falls in the low end of that range (checked: its lowest quarter)."""
    high = _pct_large("00_copy", "copy_2d", dtype)
    low = high / _store_ratio(dtype)
    measured = _pct_large("01_naive_row", "naive_row", dtype)
    if not low < measured < low + (high - low) / 4:
        raise SystemExit(f"prose.steps: naive_row {dtype} {measured} is not in the low quarter of {low}..{high}")
    return f"{num(low)} to {_whole(high)}%"


def store_ratio(dtype):
    """The store ratio of row_bounds, a whole number."""
    return _whole(_store_ratio(dtype))


def naive_row_pct(dtype):
    """naive_row, % of cudaMemcpy, `dtype` 16384², from 01_naive_row."""
    return num(_pct_large("01_naive_row", "naive_row", dtype))


def _naive_row_gbps(dtype):
    return gbps(table("01_naive_row"), kernel="naive_row", dtype=dtype, **LARGE)


def naive_row_float_gbps():
    """naive_row's GB/s, float 16384², from 01_naive_row."""
    return _whole(_naive_row_gbps("float"))


def naive_row_half_gbps():
    """naive_row's GB/s, half 16384², from 01_naive_row."""
    return _whole(_naive_row_gbps("half"))


def naive_row_ratio():
    """naive_row's GB/s, float over half at 16384², from 01_naive_row."""
    return num(_naive_row_gbps("float") / _naive_row_gbps("half"))


def naive_row_elements(dtype):
    """Billions of elements naive_row transposes a second, `dtype` 16384² (2 x sizeof(T) bytes each)."""
    return _whole(_naive_row_gbps(dtype) / (2 * SIZES[dtype]))


def naive_row_st_sectors():
    """naive_row's sectors per store request, float, from ncu."""
    return _whole(_metric("naive_row", "float", "st_sectors_per_req"))


def naive_row_st_use(dtype):
    """naive_row's store sector use, %, `dtype`, from ncu."""
    return num(_metric("naive_row", dtype, "st_sector_use_pct"))


def naive_row_ld_sectors(dtype):
    """naive_row's sectors per load request, `dtype`, from ncu."""
    return _whole(_metric("naive_row", dtype, "ld_sectors_per_req"))


def naive_row_ld_use():
    """naive_row's load sector use, %, float and half alike, from ncu."""
    return _whole(_same([_metric("naive_row", d, "ld_sector_use_pct") for d in ("float", "half")],
                        "naive_row's load sector use"))


# ---- step 02 ------------------------------------------------------------------------------

def naive_col_ld_sectors():
    """naive_col's sectors per load request, float, from ncu."""
    return _whole(_metric("naive_col", "float", "ld_sectors_per_req"))


def naive_col_st_sectors(dtype):
    """naive_col's sectors per store request, `dtype`, from ncu."""
    return _whole(_metric("naive_col", dtype, "st_sectors_per_req"))


def col_bounds(dtype):
    """Step 02's predicted range, `dtype`: step 01's measured % to copy_2d's %. The chapter says the
    measurement falls between them (checked)."""
    low = _pct_large("02_naive_col", "naive_row", dtype)  # step 01's kernel, in step 02's run
    high = _pct_large("00_copy", "copy_2d", dtype)
    measured = _pct_large("02_naive_col", "naive_col", dtype)
    if not low < measured < high:
        raise SystemExit(f"prose.steps: naive_col {dtype} {measured} is outside {low}..{high}")
    return f"{num(low)} to {_whole(high)}%"


def col_share(dtype):
    """naive_col's speed as a share of copy_2d's, `dtype` 16384², '0.69'."""
    return num(_pct_large("02_naive_col", "naive_col", dtype) / _pct_large("00_copy", "copy_2d", dtype), 2)


def vec16_prediction(dtype):
    """Step 04's prediction from step 03's unroll4 (16384², 03_unroll): the same strided loads and
    enough bytes in flight already, so 'about X%', unroll4's."""
    base = _pct_large("03_unroll", "unroll4", dtype)
    return f"about {_whole(base)}%"


def vec16_pct(dtype):
    """vec16_store, % of cudaMemcpy, `dtype` 16384², from 04_vectorize; the chapter says it is level
    with unroll4 (checked: within a point)."""
    v, base = _pct_large("04_vectorize", "vec16_store", dtype), _pct_large("03_unroll", "unroll4", dtype)
    if abs(v - base) > 1:
        raise SystemExit(f"prose.steps: vec16_store {dtype} {v} is not level with unroll4 {base}")
    return num(v)


# ---- step 03 ------------------------------------------------------------------------------

def unroll_naive_col(dtype):
    """naive_col's % of cudaMemcpy, `dtype` 16384², from 03_unroll."""
    return _whole(_pct_large("03_unroll", "naive_col", dtype))


def _unroll_sectors(metric):
    return _same([_metric(f"unroll{k}", "float", metric) for k in (2, 4, 8)], f"{metric} of the unrolled kernels")


def unroll_ld_sectors():
    """Sectors per load request of unroll2, unroll4 and unroll8 (the same), float, from ncu."""
    return _whole(_unroll_sectors("ld_sectors_per_req"))


def unroll_st_sectors():
    """Sectors per store request of unroll2, unroll4 and unroll8 (the same), float, from ncu."""
    return _whole(_unroll_sectors("st_sectors_per_req"))


# ---- step 04 ------------------------------------------------------------------------------

def _stack_frame():
    """The stack frame of every kernel in 04_vectorize_compiler.txt, bytes (all the same, no spills)."""
    text = (results.RESULTS / "04_vectorize_compiler.txt").read_text()
    frames = re.findall(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", text)
    if not frames:
        raise SystemExit("prose: no ptxas report in docs/results/04_vectorize_compiler.txt")
    if any(int(s) or int(l) for _, s, l in frames):
        raise SystemExit("prose: 04_vectorize_compiler.txt shows spills; the chapter says there are none")
    return _same([int(f) for f, _, _ in frames], "stack frames in 04_vectorize_compiler.txt")


def vectorize_stack_frame():
    """ptxas's stack-frame line for every kernel of 04_vectorize_compiler.txt, as it prints it."""
    return f"`{_stack_frame()} bytes stack frame`"


def vectorize_st_sectors():
    """vec16_store's sectors per store request, float, from ncu."""
    return _whole(_metric("vec16_store", "float", "st_sectors_per_req"))


def vectorize_ld_sectors():
    """vec16_store's sectors per load request, float, from ncu."""
    return _whole(_metric("vec16_store", "float", "ld_sectors_per_req"))


# ---- step 05 ------------------------------------------------------------------------------

def shared_ceiling():
    """% of cudaMemcpy (float 16384², 05_shared) that 33 wavefronts per 128 bytes allow at the
    boost clock: 2 x SMs x 128 B x clock / 33."""
    ceiling_gbps = 2 * SMS * 128 * BOOST_GHZ / 33
    return _whole(ceiling_gbps / _memcpy_gbps("05_shared") * 100)


def _control(dtype):
    """(shared_copy_32x8's, shared_32x8's) % of cudaMemcpy, `dtype` 16384², from the newest H100
    run of 05_shared: the control was measured there, beside the step's kernel."""
    (path,) = results.files("05_shared", results.RESULTS, "h100-80gb-hbm3")[-1:]
    run = results.read(path)
    return (pct(run, kernel="shared_copy_32x8", dtype=dtype, **LARGE),
            pct(run, kernel="shared_32x8", dtype=dtype, **LARGE))


def shared_control(dtype):
    """The control (a copy through the same tile) and the transpose, `dtype`, H100: 'c% ... t%'.
    The chapter says the copy loses less than the transpose in every type (checked)."""
    copy, transpose = _control(dtype)
    if not copy > transpose + 1:
        raise SystemExit(f"prose.steps: the control ({copy:.1f}%) is not faster than shared_32x8 ({transpose:.1f}%)")
    return f"{num(copy)}% of cudaMemcpy against the transpose's {num(transpose)}%"


def shared_vec16(dtype):
    """Step 04's vec16_store, % of cudaMemcpy, `dtype` 16384², from 05_shared."""
    return _whole(_pct_large("05_shared", "vec16_store", dtype))


def shared(dtype):
    """shared_32x8, % of cudaMemcpy, `dtype` 16384², from 05_shared."""
    return _whole(_pct_large("05_shared", "shared_32x8", dtype))


def padded_float():
    """padded_32x8 (step 06), % of cudaMemcpy, float 16384², from 06_padded."""
    return _whole(_pct_large("06_padded", "padded_32x8", "float"))


def conflicts_cost():
    """Points between step 06 (padded_32x8, 06_padded) and step 05 (shared_32x8, 05_shared), float
    16384²: what the bank conflicts cost."""
    return _whole(_pct_large("06_padded", "padded_32x8", "float") - _pct_large("05_shared", "shared_32x8", "float"))


def shared_gbps_two_gpus():
    """shared_32x8's GB/s, float 16384², on the H200 (05_shared) and on the H100 (its run of
    05_shared): 'A GB/s on the H200 and B on the H100'. The chapter says they are nearly the same
    while the copies differ (checked: within 10%, copies 30% apart or more)."""
    (path,) = results.files("05_shared", results.RESULTS, "h100-80gb-hbm3")[-1:]
    h100 = results.read(path)
    at = dict(kernel="shared_32x8", dtype="float", **LARGE)
    a, b = gbps(table("05_shared"), **at), gbps(h100, **at)
    copy_a, copy_b = _memcpy_gbps("05_shared"), gbps(h100, kernel="cudaMemcpy", dtype="float", **LARGE)
    if abs(a / b - 1) > 0.1 or copy_a / copy_b < 1.3:
        raise SystemExit(f"prose.steps: shared_32x8 {a} and {b} GB/s, copies {copy_a} and {copy_b}")
    return f"{_whole(a)} GB/s on the H200 and {_whole(b)} on the H100"


def shared_of_ceiling():
    """shared_32x8's GB/s on the H200 as a % of the wavefront ceiling (shared_ceiling_gbps)."""
    return _whole(_pct_large("05_shared", "shared_32x8", "float") / 100 * _memcpy_gbps("05_shared")
                  / (2 * SMS * 128 * BOOST_GHZ / 33) * 100)


def shared_ceiling_l1():
    """The ceiling of shared_ceiling() with one more wavefront per 128 bytes for each global
    access (a load and a store: 35 clocks instead of 33), % of cudaMemcpy."""
    return _whole(2 * SMS * 128 * BOOST_GHZ / 35 / _memcpy_gbps("05_shared") * 100)


def shared_ceiling_gbps():
    """The shared-memory ceiling in GB/s (read plus written): 2 x SMs x 128 B x clock / 33."""
    return _whole(2 * SMS * 128 * BOOST_GHZ / 33)


def shared_ceiling_h100():
    """The same ceiling (the H100 has the same 132 SMs and boost clock) as % of the H100's
    cudaMemcpy, float 16384², from the H100 run of 05_shared."""
    (path,) = results.files("05_shared", results.RESULTS, "h100-80gb-hbm3")[-1:]
    copy = gbps(results.read(path), kernel="cudaMemcpy", dtype="float", **LARGE)
    return _whole(2 * SMS * 128 * BOOST_GHZ / 33 / copy * 100)


def shared_ld_wavefronts(dtype):
    """shared_32x8's shared-memory load wavefronts per request, `dtype`, from ncu."""
    return _whole(_metric("shared_32x8", dtype, "smem_ld_wavefronts_per_req"))


def shared_st_wavefronts():
    """shared_32x8's shared-memory store wavefronts per request, float and half alike, from ncu."""
    return _whole(_same([round(_metric("shared_32x8", d, "smem_st_wavefronts_per_req")) for d in ("float", "half")],
                        "shared_32x8's store wavefronts"))


def shared_short_scoreboard():
    """Stall cycles per issued instruction on shared-memory results, shared_32x8 float, from ncu_stalls."""
    return _whole(_metric("shared_32x8", "float", "stall_short_scoreboard", "ncu_stalls"))


def padded_short_scoreboard():
    """Stall cycles per issued instruction on shared-memory results, padded_32x8 float, from ncu_stalls."""
    return _whole(_metric("padded_32x8", "float", "stall_short_scoreboard", "ncu_stalls"))


# ---- step 06 ------------------------------------------------------------------------------

def padded_prediction(dtype):
    """Step 06's bytes-in-flight prediction, `dtype`: 4 elements in flight per thread, four times
    what one element per thread allows (step 03's cap for step 02), at most 100% (whole %)."""
    return _whole(min(100.0, 4 * _cap_pct(dtype)))


def padded_ranking():
    """padded_32x8 at 16384 in the tour (every type): 'double A%, float B%, half C%'. The chapter
    says the predicted ranking double, float, half holds (checked)."""
    tour = table("tour")
    v = [pct(tour, kernel="padded_32x8", dtype=d, **LARGE) for d in ("double", "float", "half")]
    if not v[0] > v[1] > v[2]:
        raise SystemExit(f"prose.steps: padded_32x8 in the tour does not rank double, float, half: {v}")
    return f"`double` {_whole(v[0])}%, `float` {_whole(v[1])}%, `half` {_whole(v[2])}%"


def padded_pct(dtype):
    """padded_32x8, % of cudaMemcpy, `dtype` 16384², from 06_padded; the chapter says it falls far
    below padded_prediction (checked: by more than 20 points)."""
    measured = _pct_large("06_padded", "padded_32x8", dtype)
    if min(100.0, 4 * _cap_pct(dtype)) - measured <= 20:
        raise SystemExit(f"prose.steps: padded_32x8 {dtype} {measured} is not far below its prediction")
    return _whole(measured)


def padded_half_wavefronts():
    """padded_32x8's shared-memory load wavefronts per request, half, from ncu."""
    return num(_metric("padded_32x8", "half", "smem_ld_wavefronts_per_req"), 2)


def _padded_registers():
    return _metric("padded_32x8", "float", "registers")


def padded_registers():
    """padded_32x8's registers per thread, float, from ncu."""
    return _whole(_padded_registers())


def _padded_limits():
    """Blocks of padded_32x8 (float, 256 threads) per SM by threads, registers, shared memory."""
    by_threads = THREADS_PER_SM // 256
    by_registers = REGISTERS_PER_SM // (256 * _padded_registers())
    by_shared = SHARED_PER_SM // (33 * 32 * 4 + SHARED_PER_BLOCK_RESERVED)
    return by_threads, by_registers, by_shared


def padded_blocks_by_registers():
    """Blocks of padded_32x8 (float) that an SM's 64 K registers hold, with ncu's register count."""
    return str(_padded_limits()[1])


def padded_blocks_fit():
    """Blocks of padded_32x8 (float) per SM: the least of the three limits (ncu's registers)."""
    return str(min(_padded_limits()))


def padded_occupancy_bound():
    """The occupancy that those blocks allow, % of 2048 threads."""
    return _whole(min(_padded_limits()) * 256 / THREADS_PER_SM * 100)


# ---- step 07 ------------------------------------------------------------------------------
# Measured on an H100 (three runs of 07_coarsen; ncu_0708), beside the older H200 ablation.

H100 = "h100-80gb-hbm3"
TYPES = ("float", "double", "half", "bf16")
H200_ABLATION = "07_coarsen_h200_2026-11-25.csv"  # the ablation with evict-first and column pairs


def _coarsen_in_flight_kb():
    return [_sm_read_gbps("07_coarsen") * ns / 1000 for ns in _loaded_latency_bounds()]


def coarsen_in_flight_kb():
    """KB of loads in flight per SM at the H200's cudaMemcpy speed (07_coarsen, float 16384²) and
    step 00's effective times per load (the lab's count of a whole tile in flight)."""
    return span(_coarsen_in_flight_kb(), digits=0)


def _h100(source):
    """The newest CSV of `source` measured on the H100."""
    paths = results.files(source, slug=H100)
    if not paths:
        raise SystemExit(f"prose.steps: no docs/results/{source}_{H100}_*.csv")
    return results.read(paths[-1])


def _h100_median(kernel, dtype, size):
    """% of cudaMemcpy of `kernel` at size x size, the median of the H100's three runs."""
    tables = [_h100(s) for s in ("07_coarsen", "07_coarsen_run2", "07_coarsen_run3")]
    return statistics.median(pct(t, kernel=kernel, dtype=dtype, rows=size, cols=size) for t in tables)


def _signed(x):
    text = num(x)
    return "0.0" if float(text) == 0 else text if text.startswith("-") else "+" + text


def part_gain(kernel, before, size, expect):
    """Points that `kernel` gains over `before` at size x size, every type (median of three H100
    runs). expect "gain": every type gains more than a point; "level": every type within 1.5
    points either way (the chapter says so; checked)."""
    gains = [_h100_median(kernel, d, int(size)) - _h100_median(before, d, int(size)) for d in TYPES]
    if expect == "gain" and not all(g > 1 for g in gains):
        raise SystemExit(f"prose.steps: {kernel} over {before} at {size}: {gains}, not a gain in every type")
    if expect == "level" and not all(abs(g) <= 1.5 for g in gains):
        raise SystemExit(f"prose.steps: {kernel} over {before} at {size}: {gains}, not within 1.5 points")
    lo, hi = _signed(min(gains)), _signed(max(gains))
    return lo if lo == hi else f"{lo} to {hi}"


def left_to_copy(kernel, size):
    """The points between `kernel` and cudaMemcpy at size x size over the four types (medians of
    three H100 runs)."""
    return span([100 - _h100_median(kernel, d, int(size)) for d in TYPES])


def spread_07():
    """The spread of a step 07 cell (kernel x type at 8192² or 16384²): highest minus lowest of
    the H100's three runs, 'median M, at most X' points."""
    tables = [_h100(s) for s in ("07_coarsen", "07_coarsen_run2", "07_coarsen_run3")]
    spreads = []
    for r in tables[0].rows:
        if r["rows"] == r["cols"] and r["rows"] in (8192, 16384):
            key = dict(kernel=r["kernel"], dtype=r["dtype"], rows=r["rows"], cols=r["cols"])
            values = [pct(t, **key) for t in tables]
            spreads.append(max(values) - min(values))
    return f"median {num(statistics.median(spreads))}, at most {num(max(spreads))}"


def smem_reads(kernel, dtype):
    """Shared-memory wavefronts per load request of `kernel`, `dtype` (the H100's ncu_0708)."""
    return num(_ncu_h100(kernel, dtype, "smem_ld_wavefronts_per_req"), 2)


def odd_shape(dtype):
    """step 07 (`coarsen`) at 4899² and 4896², `dtype`, % of cudaMemcpy (the H100's first run):
    'a% at 4899 against b% at 4896'. The chapter says 4899 runs far slower (checked: by more
    than 20 points)."""
    tbl = _h100("07_coarsen")
    odd, even = (pct(tbl, kernel="coarsen", dtype=dtype, rows=n, cols=n) for n in (4899, 4896))
    if even - odd <= 20:
        raise SystemExit(f"prose.steps: coarsen {dtype} at 4899 is not far slower than at 4896")
    return f"{num(odd)}% at 4899 against {num(even)}% at 4896"


def median_row(kernel, size):
    """One row of a step 07 table: `kernel`'s % of cudaMemcpy at size x size for float, double,
    half and bf16, each the median of the H100's three runs."""
    return " | ".join(f"{num(_h100_median(kernel, d, int(size)))}%" for d in TYPES)


def median_caption():
    """Where step 07's median tables come from."""
    tables = [_h100(s) for s in ("07_coarsen", "07_coarsen_run2", "07_coarsen_run3")]
    first = tables[0].rows[0]
    files = ", ".join(f"`{t.path.name}`" for t in tables)
    return (f"% of cudaMemcpy, the median of three processes, each the median of {first['reps']} "
            f"cold-L2 timings; {first['gpu']}, CUDA {first['cuda']}, commit {first['git_sha']}; from {files}")


def faster_than_headline(size):
    """The types in which part (a) (wide_tiles) beats the headline at size x size (medians of three).
    The chapter says three of the four at 16384 (checked: the count it prints)."""
    won = [d for d in TYPES if _h100_median("wide_tiles", d, int(size)) > _h100_median("coarsen", d, int(size))]
    return f"{len(won)} of the 4 types ({', '.join(f'`{d}`' for d in won)})"


def part_span(kernel, size):
    """`kernel`'s % of cudaMemcpy at size x size over the four types (median of three H100 runs)."""
    return span([_h100_median(kernel, d, int(size)) for d in TYPES])


def h200_gain(kernel, before, dtypes):
    """Points that `kernel` gained over `before` at 16384 in the H200 ablation of 2026-11-25, for
    `dtypes` ("all" or one type). The chapter says they gained more than a point (checked)."""
    tbl = file(H200_ABLATION)
    chosen = TYPES if dtypes == "all" else (dtypes,)
    gains = [pct(tbl, kernel=kernel, dtype=d, **LARGE) - pct(tbl, kernel=before, dtype=d, **LARGE) for d in chosen]
    if not all(g > 1 for g in gains):
        raise SystemExit(f"prose.steps: on the H200 {kernel} over {before}: {gains}, not a gain")
    lo, hi = _signed(min(gains)), _signed(max(gains))
    return lo if lo == hi else f"{lo} to {hi}"


def h200_pct(kernel, dtype):
    """`kernel`'s % of cudaMemcpy at 16384 in the H200 ablation of 2026-11-25."""
    return num(pct(file(H200_ABLATION), kernel=kernel, dtype=dtype, **LARGE))


def _ncu_h100(kernel, dtype, metric):
    tbl = _h100("ncu_0708")
    rows = [dict(t) for t in {tuple(sorted(r.items())) for r in tbl.where(kernel=kernel, dtype=dtype)}]
    return one(rows, f"{kernel} {dtype} in {tbl.path.name}")[metric]


def blocks_per_sm(kernel, dtype):
    """'R registers a thread: B blocks per SM', with B the least of the limits by threads (256 a
    block), registers and shared memory, from the H100's ncu_0708."""
    registers = int(_ncu_h100(kernel, dtype, "registers"))
    shared = int(_ncu_h100(kernel, dtype, "shared_bytes"))
    blocks = min(THREADS_PER_SM // 256, REGISTERS_PER_SM // (256 * registers),
                 SHARED_PER_SM // (shared + SHARED_PER_BLOCK_RESERVED))
    return f"{registers} registers a thread, {blocks} blocks per SM"


def dram_below_copy():
    """Points of DRAM throughput (% of peak) by which parts (a), (b) and (c) trail copy_vec16 in
    the H100's ncu_0708, float and half: 'lo to hi'."""
    gaps = [_ncu_h100("copy_vec16", d, "dram_pct_of_peak") - _ncu_h100(k, d, "dram_pct_of_peak")
            for k in ("wide_tiles", "cp_async", "coarsen") for d in ("float", "half")]
    if min(gaps) <= 0:
        raise SystemExit(f"prose.steps: a part of step 07 kept DRAM as busy as the copy: {gaps}")
    return span(gaps)


def dram_a_within_b():
    """The largest difference in DRAM throughput (points of peak) between part (a) and part (b),
    float and half, H100 ncu_0708."""
    return num(max(abs(_ncu_h100("wide_tiles", d, "dram_pct_of_peak") - _ncu_h100("cp_async", d, "dram_pct_of_peak"))
                   for d in ("float", "half")))


def h100_lab_pct(kernel, dtype):
    """% of cudaMemcpy of a lab_step07 kernel at 16384 x 16384, median of the H100's three runs."""
    tables = [_h100(s) for s in ("lab_step07", "lab_step07_run2", "lab_step07_run3")]
    return num(statistics.median(pct(t, kernel=kernel, dtype=dtype, **LARGE) for t in tables))


def h200_registers(kernel, dtype):
    """Registers a thread of `kernel` in the H200's ncu_0708 profile (one launch at 8192²)."""
    return _whole(_metric(kernel, dtype, "registers", "ncu_0708"))


def h100_one_block(dtype):
    """The lab's blocks_per_sm_1 row on the H100 at 16384 x 16384 (median of three runs), %."""
    return num(queueing.curve(H100, dtype, LARGE["rows"]).measured[1])


def h100_blocks(dtype):
    """The lab's blocks_per_sm_1..3 rows on the H100 at 16384 x 16384 (median of three runs), %:
    'a, b and c'. The chapter says they level off from 3 (float) and 2 (half) blocks on (checked:
    the last step under a point either way)."""
    c = queueing.curve(H100, dtype, LARGE["rows"])
    first_level = {"float": 3, "half": 2}[dtype]
    if any(abs(c.measured[k + 1] - c.measured[k]) >= 1 for k in range(first_level, 3)):
        raise SystemExit(f"prose.steps: {dtype} does not level off from {first_level} blocks on")
    return f"{num(c.measured[1])}, {num(c.measured[2])} and {num(c.measured[3])}"


# ---- step 02: L2 visits per sector, time per load, rectangle -------------------------------

_COL_SOURCE = {"copy_2d": "00_copy", "naive_col": "02_naive_col"}  # the run that timed each kernel


def copy_2d_l2_hit():
    """copy_2d's L2 hit rate, float and half, 'A to B', from ncu. The chapter says it is about half
    (loads miss, stores hit; checked: 45 to 55%)."""
    v = [_metric("copy_2d", d, "l2_hit_pct") for d in ("float", "half")]
    if not all(45 <= x <= 55 for x in v):
        raise SystemExit(f"prose.steps: copy_2d's L2 hit rate {v} is not about half")
    return span(v)


def row_l2_hit(dtype):
    """naive_row's L2 hit rate, %, `dtype` (ncu). The chapter sets it beside the model's n / (n + 1),
    n = 32 / sizeof(T) partial writes (hits) per sector loaded once (a miss) (checked: within a point)."""
    h = _metric("naive_row", dtype, "l2_hit_pct")
    n = 32 // SIZES[dtype]
    if abs(h - 100 * n / (n + 1)) > 1:
        raise SystemExit(f"prose.steps: naive_row {dtype} L2 hit {h} is not within a point of {n}/{n + 1}")
    return num(h)


def col_dram_pct(kernel):
    """`kernel`'s DRAM throughput, % of peak, float, from ncu."""
    return num(_metric(kernel, "float", "dram_pct_of_peak"))


def col_dram_ratio():
    """naive_col's DRAM throughput over naive_row's, float, from ncu: 'about N times' (checked > 1)."""
    ratio = _metric("naive_col", "float", "dram_pct_of_peak") / _metric("naive_row", "float", "dram_pct_of_peak")
    if ratio <= 1:
        raise SystemExit(f"prose.steps: naive_col's DRAM throughput is not above naive_row's ({ratio})")
    return num(ratio)


def _col_little(kernel, dtype):
    """Step 00's Little's law for `kernel` (copy_2d or naive_col), `dtype`, as the chapter's table
    writes it: (ncu occupancy at 8192² in %, bytes in flight per SM = occupancy x 2048 threads x
    sizeof(T), GB/s at 16384² in the run that timed it, bytes an SM reads per ns = GB/s / 2 / 132,
    ns per load = bytes in flight / bytes per ns)."""
    occupancy = _metric(kernel, dtype, "occupancy_pct")
    in_flight = occupancy / 100 * THREADS_PER_SM * SIZES[dtype]
    speed = gbps(table(_COL_SOURCE[kernel]), kernel=kernel, dtype=dtype, **LARGE)
    rate = speed / 2 / SMS
    return occupancy, in_flight, speed, rate, in_flight / rate


def col_little_row(kernel, dtype):
    """One row of step 02's Little's-law table, `kernel` x `dtype`: 'occupancy | bytes in flight
    | GB/s (% of cudaMemcpy) | GB/s per SM | ns per load'. The chapter says naive_col's loads take
    longer than copy_2d's (checked)."""
    if _col_little("naive_col", dtype)[4] <= _col_little("copy_2d", dtype)[4]:
        raise SystemExit(f"prose.steps: naive_col {dtype}'s loads do not take longer than copy_2d's")
    occupancy, in_flight, speed, rate, ns = _col_little(kernel, dtype)
    share = _pct_large(_COL_SOURCE[kernel], kernel, dtype)
    return (f"{num(occupancy)}% | {num(occupancy / 100, 3)} x 2048 x {SIZES[dtype]} B = {in_flight:,.0f} B | "
            f"{_whole(speed)} ({num(share)}%) | {num(rate, 2)} GB/s | {_round_to(ns, 10)} ns")


def col_load_slowdown(dtype):
    """How much longer naive_col's effective time per load is than copy_2d's, `dtype`
    (_col_little): 'about D ns more' (checked: longer)."""
    slow, fast = _col_little("naive_col", dtype)[4], _col_little("copy_2d", dtype)[4]
    if slow <= fast:
        raise SystemExit(f"prose.steps: naive_col {dtype}'s loads do not take longer than copy_2d's")
    return f"about {_round_to(slow - fast, 10)} ns more"


def col_load_extra():
    """naive_col's effective time per load minus copy_2d's, float and half (_col_little), to 10 ns:
    'A to B' (or one number)."""
    extra = [_round_to(_col_little("naive_col", d)[4] - _col_little("copy_2d", d)[4], 10) for d in ("float", "half")]
    return extra[0] if extra[0] == extra[1] else f"{min(extra, key=int)} to {max(extra, key=int)}"


def col_little_caption():
    """Where step 02's Little's-law table comes from: the ncu CSV and the two timed runs."""
    names = [table(s).path.name for s in ("ncu", "00_copy", "02_naive_col")]
    return f"Occupancy from `{names[0]}`; GB/s from `{names[1]}` (`copy_2d`) and `{names[2]}` (`naive_col`)"


def col_registers():
    """Registers per thread of copy_2d and naive_col (ncu, float and half: the same), and the
    theoretical occupancy they allow with 256-thread blocks: 'R registers a thread would let N
    blocks of 256 threads share an SM's registers; the 2048-thread limit allows B: P%'. The
    chapter says the thread limit, not the registers, sets it (checked: N > B)."""
    registers = int(_same([_metric(k, d, "registers") for k in ("copy_2d", "naive_col") for d in ("float", "half")],
                          "registers of copy_2d and naive_col"))
    by_registers, by_threads = REGISTERS_PER_SM // (256 * registers), THREADS_PER_SM // 256
    if by_registers <= by_threads:
        raise SystemExit(f"prose.steps: registers ({registers} a thread) limit copy_2d and naive_col, not threads")
    return (f"{registers} registers a thread would let {by_registers} blocks of 256 threads share an SM's registers; "
            f"the 2048-thread limit allows {by_threads}: {_whole(by_threads * 256 / THREADS_PER_SM * 100)}%")


def _hit(a):
    """The L2 hit rate, %, of the model: a lookups per input sector (one miss, a - 1 hits) and
    one store hit per output sector."""
    return 100 * a / (a + 1)


def col_l2_model_row(dtype):
    """One row of step 02's L2 table, `dtype`: the lowest a (1: L1 answers every other lookup;
    for half, 2 if the two blocks that read a sector run on two SMs), the highest (L1 answers
    none: 32 / sizeof(T) warps look the sector up), the model's hit rates, the measured one (ncu,
    8192²) and the a it gives, h / (100 - h). The chapter says a lies near the low end (checked:
    in the lowest quarter from 1 to the highest)."""
    high = 32 // SIZES[dtype]
    h = _metric("naive_col", dtype, "l2_hit_pct")
    a = h / (100 - h)
    if not 1 <= a <= 1 + (high - 1) / 4:
        raise SystemExit(f"prose.steps: naive_col {dtype}: {a} L2 lookups per sector are not near the low bound")
    pair = 32 // (SIZES[dtype] * 8)  # blocks that read one sector
    low, low_hit = ("1", num(_hit(1))) if pair == 1 else (f"1 ({pair} if the pair runs on two SMs)", f"{num(_hit(1))} ({num(_hit(pair))})")
    return f"{low} | {high} | {low_hit} to {num(_hit(high))}% | {num(h)}% | {num(a)}"


def row_drain(dtype):
    """stall_drain (cycles per issued instruction that warps spend after EXIT waiting for their
    stores to complete), naive_row against naive_col, `dtype`, 8192², from ncu_stalls: 'A
    against B'. The chapter says step 01's warps wait far longer (checked: 10 times or more)."""
    row, col = (_metric(k, dtype, "stall_drain", "ncu_stalls") for k in ("naive_row", "naive_col"))
    if row < 10 * col:
        raise SystemExit(f"prose.steps: naive_row's drain stall ({row}) is not far above naive_col's ({col}), {dtype}")
    return f"{num(row)} against {num(col, 2)}"


def row_load_wait():
    """naive_row's stall_long_scoreboard (waiting for a global load), float, from ncu_stalls. The
    chapter says it is below its drain stall (checked)."""
    wait = _metric("naive_row", "float", "stall_long_scoreboard", "ncu_stalls")
    if not wait < _metric("naive_row", "float", "stall_drain", "ncu_stalls"):
        raise SystemExit("prose.steps: naive_row waits longer for its loads than for its stores to drain")
    return num(wait)


def row_dram_extra():
    """How many % more DRAM bytes (read and written) naive_row moves than naive_col, float, ncu at
    8192². The chapter calls them nearly the same bytes (checked: under 10%)."""
    moved = {k: _metric(k, "float", "dram_read_bytes") + _metric(k, "float", "dram_write_bytes") for k in ("naive_row", "naive_col")}
    extra = 100 * (moved["naive_row"] / moved["naive_col"] - 1)
    if not 0 <= extra < 10:
        raise SystemExit(f"prose.steps: naive_row moves {extra}% more DRAM bytes than naive_col, not nearly the same")
    return _whole(extra)


# ---- step 04: the squares, the rectangle, loads in flight ---------------------------------

_SQUARES = (1024, 2048, 4096, 8192, 16384)


def vec16_square_gaps(dtype):
    """vec16_store minus unroll4, points of cudaMemcpy, over the square sizes of 04_vectorize,
    `dtype`: 'lowest to highest', signed. The chapter calls them level (checked: within 2 points)."""
    tbl = table("04_vectorize")
    gaps = [pct(tbl, kernel="vec16_store", dtype=dtype, rows=n, cols=n) - pct(tbl, kernel="unroll4", dtype=dtype, rows=n, cols=n)
            for n in _SQUARES]
    if max(abs(g) for g in gaps) > 2:
        raise SystemExit(f"prose.steps: vec16_store and unroll4 ({dtype}) differ by more than 2 points: {gaps}")
    return f"{_signed(min(gaps))} to {_signed(max(gaps))}"


def vec16_worst_square(dtype):
    """The square size of 04_vectorize where vec16_store and unroll4 differ most, `dtype`: 'N²'."""
    tbl = table("04_vectorize")
    gap = {n: abs(pct(tbl, kernel="vec16_store", dtype=dtype, rows=n, cols=n) - pct(tbl, kernel="unroll4", dtype=dtype, rows=n, cols=n))
           for n in _SQUARES}
    return f"{max(gap, key=gap.get)}²"


def vec16_rect(dtype):
    """vec16_store against unroll4 on 4000 x 6000, `dtype`, 04_vectorize: 'a against b%'. The chapter
    says clearly slower (checked: by more than 10 points)."""
    tbl = table("04_vectorize")
    v, u = (pct(tbl, kernel=k, dtype=dtype, rows=4000, cols=6000) for k in ("vec16_store", "unroll4"))
    if u - v <= 10:
        raise SystemExit(f"prose.steps: vec16_store {dtype} on 4000 x 6000 ({v}) is not clearly below unroll4 ({u})")
    return f"{num(v)} against {num(u)}%"


def unroll4_st_use():
    """unroll4's store sector use, %, float and half alike, from ncu."""
    return _whole(_same([_metric("unroll4", d, "st_sector_use_pct") for d in ("float", "half")],
                        "unroll4's store sector use"))


def _elements_per_clock(speed, dtype):
    """Elements an SM transposes per clock at `speed` GB/s (2 x sizeof(T) bytes moved per element,
    132 SMs at the 1.98 GHz boost clock)."""
    return speed / (2 * SIZES[dtype]) / SMS / BOOST_GHZ


def vec16_elements(dtype):
    """Billions of elements vec16_store transposes a second, `dtype` 16384², from 04_vectorize."""
    return _whole(gbps(table("04_vectorize"), kernel="vec16_store", dtype=dtype, **LARGE) / (2 * SIZES[dtype]))


def vec16_per_clock():
    """vec16_store's elements per SM per clock, float and half at 16384² (04_vectorize). The chapter
    says the two types move the same number of elements a second (checked: within 3%)."""
    rates = [_elements_per_clock(gbps(table("04_vectorize"), kernel="vec16_store", dtype=d, **LARGE), d)
             for d in ("float", "half")]
    if abs(rates[0] / rates[1] - 1) > 0.03:
        raise SystemExit(f"prose.steps: vec16_store float and half move different elements a second: {rates}")
    return num(statistics.mean(rates), 2)


def vec16_double_per_clock():
    """vec16_store's elements per SM per clock, double at 16384² in the tour. The chapter says it is
    below float's (checked)."""
    tour = table("tour")
    double = _elements_per_clock(gbps(tour, kernel="vec16_store", dtype="double", **LARGE), "double")
    single = _elements_per_clock(gbps(tour, kernel="vec16_store", dtype="float", **LARGE), "float")
    if not double < single:
        raise SystemExit(f"prose.steps: vec16_store double ({double}) is not below float ({single}) per clock")
    return num(double, 2)


def tour_double(kernel):
    """`kernel`'s % of cudaMemcpy, double at 16384² in the tour, whole."""
    return _whole(pct(table("tour"), kernel=kernel, dtype="double", **LARGE))


def _double_interpolated():
    """The tour's double with 2 loads per thread, halfway between 1 (naive_col) and 4 (unroll4) on a
    doubling scale: the mean of the two."""
    tour = table("tour")
    return statistics.mean(pct(tour, kernel=k, dtype="double", **LARGE) for k in ("naive_col", "unroll4"))


def double_prediction():
    """Step 04's prediction for double (_double_interpolated), whole %."""
    return _whole(_double_interpolated())


def vec16_double():
    """vec16_store's % of cudaMemcpy, double at 16384² in the tour. The chapter says it lands near
    the prediction (checked: within 5 points)."""
    measured = pct(table("tour"), kernel="vec16_store", dtype="double", **LARGE)
    if abs(measured - _double_interpolated()) > 5:
        raise SystemExit(f"prose.steps: vec16_store double {measured} is not near {_double_interpolated()}")
    return num(measured)


def rect_unroll4(dtype):
    """unroll4's % of cudaMemcpy on 4000 x 6000, `dtype`, from 04_vectorize, whole."""
    return _whole(pct(table("04_vectorize"), kernel="unroll4", dtype=dtype, rows=4000, cols=6000))


# Step 04's count of loads in flight: step 00's Little's law with step 02's effective time per
# strided load (float's for double, which step 02 did not time) and the measured occupancies.
_IN_FLIGHT_TYPES = ("float", "half", "double")


def strided_time_ns(dtype):
    """Step 02's effective time per strided load (naive_col, _col_little), `dtype`, to 10 ns."""
    return _round_to(_col_little("naive_col", dtype)[4], 10)


def _strided_need_bytes(dtype):
    """Bytes of loads an SM needs in flight to read at cudaMemcpy's speed (step 00's run) if each
    load takes step 02's effective time per strided load; double takes float's."""
    return _sm_read_gbps("00_copy") * _col_little("naive_col", "half" if dtype == "half" else "float")[4]


def _in_flight_source(dtype):
    """The ncu CSV whose occupancy the count uses: 8192² for float and half, 16384² for double."""
    return "ncu_double16384" if dtype == "double" else "ncu"


def _in_flight_bytes(kernel, dtype):
    """Bytes of loads an SM keeps in flight: achieved occupancy x 2048 threads x the bytes a thread
    loads before it stores (one element in naive_col, four in unroll4, 16 bytes in vec16_store)."""
    per_thread = 16 if kernel == "vec16_store" else {"naive_col": 1, "unroll4": 4}[kernel] * SIZES[dtype]
    return _metric(kernel, dtype, "occupancy_pct", _in_flight_source(dtype)) / 100 * THREADS_PER_SM * per_thread


def strided_need_kb(dtype):
    """KB (1000 bytes, as step 04's table) of loads in flight an SM needs at cudaMemcpy's speed
    with step 02's effective time per strided load."""
    return num(_strided_need_bytes(dtype) / 1000, 0)


def in_flight_need_row():
    """The first row of step 04's table of loads in flight: KB needed, float, half, double."""
    return " | ".join(f"{num(_strided_need_bytes(d) / 1000)} KB" for d in _IN_FLIGHT_TYPES)


def in_flight_row(kernel):
    """One row of step 04's table of loads in flight, `kernel`: 'KB (occupancy%)' per type."""
    return " | ".join(f"{num(_in_flight_bytes(kernel, d) / 1000)} KB "
                      f"({num(_metric(kernel, d, 'occupancy_pct', _in_flight_source(d)))}%)" for d in _IN_FLIGHT_TYPES)


def in_flight_caption():
    """Where step 04's table of loads in flight comes from."""
    names = [table(s).path.name for s in ("ncu", "ncu_double16384", "00_copy")]
    return (f"Occupancy from `{names[0]}` (8192², `float` and `half`) and `{names[1]}` (16384², `double`); "
            f"cudaMemcpy's speed from `{names[2]}`; step 02's table for the effective time per load")


def in_flight_clears():
    """Who keeps more loads in flight than the count needs. The chapter says vec16_store does in
    every type, unroll4 in float and double; unroll4's half and naive_col's double do not
    (checked)."""
    above = {(k, d) for k in ("naive_col", "unroll4", "vec16_store") for d in _IN_FLIGHT_TYPES
             if _in_flight_bytes(k, d) > _strided_need_bytes(d)}
    said = {("vec16_store", d) for d in _IN_FLIGHT_TYPES} | {("unroll4", "float"), ("unroll4", "double")}
    if above != said:
        raise SystemExit(f"prose.steps: the kernels above step 04's need are {sorted(above)}, not {sorted(said)}")
    return "`vec16_store` in every type, `unroll4` for `float` and `double`"


def in_flight_ceiling(kernel, dtype):
    """'C% ... M%': the share of cudaMemcpy that `kernel`'s loads in flight allow by the count
    (its bytes over the need), and its measured % at 16384² in the tour. The chapter says it runs
    far below that ceiling (checked: by more than 20 points)."""
    ceiling = 100 * _in_flight_bytes(kernel, dtype) / _strided_need_bytes(dtype)
    measured = pct(table("tour"), kernel=kernel, dtype=dtype, **LARGE)
    if not measured + 20 < ceiling < 100:
        raise SystemExit(f"prose.steps: {kernel} {dtype} at {measured}% is not far below a ceiling of {ceiling}%")
    return f"a ceiling of {_whole(ceiling)}%; it runs at {_whole(measured)}%"


def vec16_double_occupancy():
    """Achieved occupancy of vec16_store and unroll4, double at 16384² (ncu_double16384): 'A and
    B%'. The chapter calls them the same (checked: within 2 points)."""
    v, u = (_metric(k, "double", "occupancy_pct", "ncu_double16384") for k in ("vec16_store", "unroll4"))
    if abs(v - u) > 2:
        raise SystemExit(f"prose.steps: vec16_store and unroll4 double differ in occupancy ({v}, {u})")
    return f"{num(v)} and {num(u)}%"


_LANE_TEST = "04_vectorize_rect"  # the H100 runs that change the distance between lanes


def _lane_runs():
    """The lane-distance test's tables: its newest CSV and each repeat (prose.runs)."""
    from prose import runs
    return runs(_LANE_TEST)


def _lane_median(kernel, dtype, rows, cols):
    """% of cudaMemcpy of `kernel` at rows x cols, the median of the lane-distance test's runs."""
    return statistics.median(pct(t, kernel=kernel, dtype=dtype, rows=rows, cols=cols) for t in _lane_runs())


def _lane_bytes(kernel, dtype, cols):
    """Bytes between the loads of neighbouring lanes: V input rows for vec16_store, one for unroll4."""
    rows_apart = 16 // SIZES[dtype] if kernel == "vec16_store" else 1
    return rows_apart * cols * SIZES[dtype]


def _positions(distance):
    """How many of the four 32-byte positions in a 128-byte line (address bits 5 and 6) the 32
    lanes of a warp hit when neighbouring lanes load `distance` bytes apart (lane 0 at a line's
    start; the count is the same from any start when the distance is a multiple of 16)."""
    return len({lane * distance % 128 // 32 for lane in range(32)})


def _lane_text(n):
    """A lane distance and its positions: '96,000 B = 750 x 128 (1)'."""
    return (f"{n:,} B = {n // 128} x 128" if n % 128 == 0 else f"{n:,} B") + f" ({_positions(n)})"


def lane_test_row(rows, cols):
    """One row of step 04's lane-distance table: vec16_store's lane distance (positions), its float
    and half medians, unroll4's lane distances (float, half), its float and half medians."""
    rows, cols = int(rows), int(cols)
    cells = [_lane_text(_lane_bytes("vec16_store", "float", cols))]
    cells += [f"{num(_lane_median('vec16_store', d, rows, cols))}%" for d in ("float", "half")]
    cells.append(f"{_lane_text(_lane_bytes('unroll4', 'float', cols))}; {_lane_text(_lane_bytes('unroll4', 'half', cols))}")
    cells += [f"{num(_lane_median('unroll4', d, rows, cols))}%" for d in ("float", "half")]
    return " | ".join(cells)


def lane_test_caption():
    """Where step 04's lane-distance table comes from."""
    tables = _lane_runs()
    first = tables[0].rows[0]
    files = ", ".join(f"`{t.path.name}`" for t in tables)
    return (f"% of cudaMemcpy, the median of {len(tables)} processes, each the median of {first['reps']} "
            f"cold-L2 timings; {first['gpu']}, CUDA {first['cuda']}, commit {first['git_sha']}; from {files}")


def _lane_by_positions(dtype):
    """The lane-distance test's medians, `dtype`, grouped by the positions the lanes hit:
    {positions: [medians]}."""
    groups = {}
    for r in _lane_runs()[0].rows:
        if r["dtype"] == dtype and r["kernel"] in ("vec16_store", "unroll4"):
            value = _lane_median(r["kernel"], dtype, r["rows"], r["cols"])
            groups.setdefault(_positions(_lane_bytes(r["kernel"], dtype, r["cols"])), []).append(value)
    return groups


def lane_test_positions(dtype):
    """'A to B% at one position, C% at two, D to E% at four': the lane-distance test's medians,
    `dtype`, by positions. The chapter says fewer positions are slower (checked: every case with
    fewer positions below every case with more)."""
    groups = _lane_by_positions(dtype)
    counts = sorted(groups)
    if counts != [1, 2, 4] or any(max(groups[a]) >= min(groups[b]) for a, b in zip(counts, counts[1:])):
        raise SystemExit(f"prose.steps: {dtype}'s lane-distance cases are not ordered by positions: {groups}")
    words = {1: "one position", 2: "two", 4: "four"}
    return ", ".join(f"{span(groups[c])}% at {words[c]}" for c in counts)


def _h100_per_clock(dtype, rows, cols):
    """vec16_store's elements per SM per clock in the lane-distance test (median GB/s of its runs),
    assuming the H100's 132 SMs at a 1.98 GHz boost clock, as the H200's."""
    speed = statistics.median(gbps(t, kernel="vec16_store", dtype=dtype, rows=rows, cols=cols) for t in _lane_runs())
    return _elements_per_clock(speed, dtype)


def lane_test_per_clock(rows, cols):
    """vec16_store's elements per SM per clock on the H100, float and half, at rows x cols: 'A
    (`float`) and B (`half`)'. The chapter says they are level (within 3%) where the lanes hit one
    position, and that half moves far more elsewhere (checked: 30% more)."""
    rows, cols = int(rows), int(cols)
    single, half = (_h100_per_clock(d, rows, cols) for d in ("float", "half"))
    one_position = _positions(_lane_bytes("vec16_store", "float", cols)) == 1
    if (abs(half / single - 1) > 0.03) if one_position else (half < 1.3 * single):
        raise SystemExit(f"prose.steps: vec16_store on {rows} x {cols}: float {single}, half {half} per clock")
    return f"{num(single, 2)} (`float`) and {num(half, 2)} (`half`)"


def vec16_half_grid():
    """Blocks launched by vec16_store and unroll4, half at 8192² (ncu): 'A against B'. The chapter
    says vec16_store launches half as many (checked)."""
    v, u = (int(_metric(k, "half", "grid_size")) for k in ("vec16_store", "unroll4"))
    if 2 * v != u:
        raise SystemExit(f"prose.steps: vec16_store half launches {v} blocks, not half of unroll4's {u}")
    return f"{v:,} against {u:,}"


def vec16_half_l2():
    """L2 hit rate of unroll4 and vec16_store, half at 8192² (ncu): 'A% to B%'. The chapter says it
    rises (checked: by 5 points or more)."""
    before, after = (_metric(k, "half", "l2_hit_pct") for k in ("unroll4", "vec16_store"))
    if after < before + 5:
        raise SystemExit(f"prose.steps: vec16_store's half L2 hit rate ({after}) does not rise from unroll4's ({before})")
    return f"{num(before)}% to {num(after)}%"


def vec16_half_occupancy():
    """Achieved occupancy of unroll4 and vec16_store, half (ncu): 'A% (`unroll4`) to B%
    (`vec16_store`)'. The chapter says it falls although both use the same registers (checked)."""
    _same([_metric(k, "half", "registers") for k in ("unroll4", "vec16_store")], "registers of unroll4 and vec16_store")
    before, after = (_metric(k, "half", "occupancy_pct") for k in ("unroll4", "vec16_store"))
    if not after < before - 5:
        raise SystemExit(f"prose.steps: vec16_store's half occupancy ({after}) does not fall from unroll4's ({before})")
    return f"{num(before)}% (`unroll4`) to {num(after)}% (`vec16_store`)"
