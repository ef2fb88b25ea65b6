"""Numbers quoted in steps/09_multi_gpu/README.md and pipelining.md, the transpose across GPUs
(see plots/prose/__init__.py).

Sources:
- 09_multi_gpu_float (one job on 4 H100 of one host, float 65536 x 65536 on 2 and 4 GPUs,
  column `gpus`): every float number of the chapter. Every version of the transpose
  (`one_chunk`, `pipelined`, `pipelined_2`, `pipelined_8`, `pipelined_timed` with its exchanges'
  own times), NCCL's all-to-all of the same bytes (`nccl_alltoall`), PyTorch's way and its
  all-to-all (`pytorch`, `pytorch_alltoall`, step "peer"), the parts alone (`exchanges`,
  `check`, `local_work`, `local_work_one_chunk`, `packs`, `places`), the all-to-all and the
  local work at once (`both_at_once`, each one's own time: `both_at_once_alltoall`,
  `both_at_once_local`), and the all-to-all beside two stand-ins (`beside_spin`,
  `beside_stream`). The times are the slowest rank's medians.
- 09_multi_gpu (an earlier job): the same bytes in `double`, `half` and `bf16` on 4 GPUs.
- 09_multi_gpu_neighbours (another job, the lab's page): the stand-ins again.
- 08_inplace_shapes and its repeats (H100): cudaMemcpy's speed, for the prediction.
A sentence that compares values is checked here: the function stops the run if the CSV no
longer says what the sentence says.
"""
import results
from multi_gpu_blocks import alone_schedule
from prose import gbps, median, num, one, runs, table

SIZE = 65536  # the chapter's matrix: 65536 x 65536 float


def _stop(why):
    raise SystemExit(f"prose.multi_gpu: {why}; the chapter's sentence says otherwise")


FLOAT_JOB = "09_multi_gpu_float"  # every float number of the chapter: one job
TYPES_JOB = "09_multi_gpu"        # the same bytes in the other types


def _row(kernel, gpus, dtype="float", job=None):
    """One row of the float job (float) or of the types job (other types, or job=TYPES_JOB)."""
    job = job or (FLOAT_JOB if dtype == "float" else TYPES_JOB)
    rows = table(job).where(kernel=kernel, gpus=int(gpus), dtype=dtype)
    r = one([r for r in rows if r["bytes"] == 2 * SIZE * SIZE * 4], f"{kernel} on {gpus} GPUs ({dtype})")
    if kernel in ("one_chunk", "pipelined", "pytorch") and not r["verified"]:
        _stop(f"{kernel} on {gpus} GPUs failed verification")
    return r


def _ms(kernel, gpus, dtype="float", job=None):
    return _row(kernel, gpus, dtype, job)["ms_median"]


def _shard_bytes(gpus):
    return SIZE * SIZE * 4 / int(gpus)


def _copy_gbps():
    """cudaMemcpy's GB/s on one H100 (float, 8192 x 16384; median of step 08's rectangle runs)."""
    return median([gbps(t, kernel="cudaMemcpy", dtype="float", rows=8192, cols=16384) for t in runs("08_inplace_shapes")])


def _local_model_ms(gpus):
    """Two passes over the shard (read and write each) at cudaMemcpy's speed."""
    return 2 * 2 * _shard_bytes(gpus) / (_copy_gbps() * 1e9) * 1e3


NVLINK_GBPS = 450  # H100 SXM: 18 NVLinks to the NVSwitches, 450 GB/s per direction in all


def _nvlink_model_ms(gpus):
    """The all-to-all at NVLink's speed: each GPU sends (G - 1) / G of its shard."""
    g = int(gpus)
    return (g - 1) / g * _shard_bytes(gpus) / (NVLINK_GBPS * 1e9) * 1e3


def nvlink_model_ms(gpus):
    return num(_nvlink_model_ms(gpus), 1)


def nvlink_share(gpus):
    """The all-to-all's speed as % of NVLink's. The chapter says it is below it."""
    share = 100 * _nvlink_model_ms(gpus) / _ms("nccl_alltoall", gpus)
    if share >= 100:
        _stop("the all-to-all ran at NVLink's speed or above")
    return num(share, 0) + "%"


def pytorch_ms(gpus):
    """PyTorch's way, measured. The chapter says it is slower than its model (checked: by 20% or more)."""
    measured = _ms("pytorch", gpus)
    if measured < 1.2 * (_ms("pytorch_alltoall", gpus) + _local_model_ms(gpus)):
        _stop("PyTorch's way is within 20% of the model")
    return num(measured, 1)


def _pytorch_copies_ms(gpus):
    """PyTorch's two copies, each timed alone (`pytorch_pack`, `pytorch_unpack`), added."""
    return _ms("pytorch_pack", gpus) + _ms("pytorch_unpack", gpus)


def pytorch_part_row(part, gpus):
    """One row of page 1's table of PyTorch's way: 'model | measured | % of copy speed' for
    `pack` or `unpack` (one pass over the shard at cudaMemcpy's speed), or 'as measured |
    measured' for `alltoall` (the model takes its time alone), or for `sum` the model's total and the parts added. The page says the pack
    runs near copy speed, the unpack at less than half of it and nearly as long as the exchange,
    and that the parts add up to about the whole (checked: pack above 70%, unpack below 50% and
    0.8 to 1.2 times the all-to-all, the sum within 5% of `pytorch`)."""
    one_pass = _local_model_ms(gpus) / 2
    if part == "alltoall":
        return f"as measured | {num(_ms('pytorch_alltoall', gpus), 1)}"
    if part == "sum":
        added = _ms("pytorch_alltoall", gpus) + _pytorch_copies_ms(gpus)
        if abs(added / _ms("pytorch", gpus) - 1) > 0.05:
            _stop(f"PyTorch's parts add up to {added:.1f} ms, not its {_ms('pytorch', gpus):.1f}")
        return f"{num(_ms('pytorch_alltoall', gpus) + 2 * one_pass, 1)} | {num(added, 1)}"
    ms = _ms(f"pytorch_{part}", gpus)
    pct = 100 * one_pass / ms
    if (part == "pack" and pct <= 70) or (part == "unpack" and pct >= 50):
        _stop(f"PyTorch's {part} ran at {pct:.0f}% of copy speed")
    if part == "unpack" and not 0.8 <= ms / _ms("pytorch_alltoall", gpus) <= 1.2:
        _stop("PyTorch's unpack did not take nearly as long as its all-to-all")
    return f"{num(one_pass, 1)} | {num(ms, 1)} | {num(pct, 0)}%"


def local_one_pct_of_model(gpus):
    """The one-chunk local work alone (`local_work_one_chunk`) as % of its model's speed. The
    page says it is twice as fast as PyTorch's two copies timed alone (checked: 1.8 to 2.4 times)."""
    ratio = _pytorch_copies_ms(gpus) / _ms("local_work_one_chunk", gpus)
    if not 1.8 <= ratio <= 2.4:
        _stop(f"our local work is {ratio:.2f} times as fast as PyTorch's copies, not about twice")
    return num(100 * _local_model_ms(gpus) / _ms("local_work_one_chunk", gpus), 0) + "%"


def nccl_versions():
    """'NCCL A (PyTorch's: B)' from the float job's versions file."""
    paths = sorted(results.RESULTS.glob(f"{FLOAT_JOB}_*.versions.txt"))
    if not paths:
        _stop(f"no docs/results/{FLOAT_JOB}_*.versions.txt")
    lines = paths[-1].read_text().splitlines()
    ours = next(l.split("NCCL ")[1] for l in lines if l.startswith("ours: NCCL "))
    theirs = next(l.split("NCCL ")[1] for l in lines if l.startswith("PyTorch's: NCCL "))
    return f"NCCL {ours} (PyTorch's: {theirs})"


def nccl_transport():
    """The transport NCCL's log names between the GPUs in the float job (one name, checked)."""
    paths = sorted(results.RESULTS.glob(f"{FLOAT_JOB}_*.versions.txt"))
    names = {l.split(" via ")[1].strip() for l in paths[-1].read_text().splitlines() if " via " in l}
    if len(names) != 1:
        _stop(f"NCCL's log names {sorted(names)} as transports, not one")
    return f"`{names.pop()}`"


def predict_pct(gpus):
    """The pipelined model as % of the all-to-all's speed: what --predict takes."""
    model = _ms("nccl_alltoall", gpus) + _local_model_ms(gpus) * _unhidden_share(gpus)
    return num(100 * _ms("nccl_alltoall", gpus) / model, 0)


def copy_gbps():
    return num(_copy_gbps(), 0)


def local_ms(gpus):
    """The predicted local work. The chapter says the measured local work is close to it."""
    measured = _ms("local_work", gpus)
    if abs(measured / _local_model_ms(gpus) - 1) > 0.15:
        _stop(f"the local work alone ({measured:.2f} ms) is not within 15% of the model")
    return num(_local_model_ms(gpus), 1)


def _step07_share():
    from prose import pct
    return median([pct(t, kernel="coarsen", dtype="float", rows=8192, cols=16384) for t in runs("08_inplace_shapes")]) / 100


def one_gpu_ms():
    """The whole 65536 x 65536 float matrix transposed on one H100 at cudaMemcpy's speed times
    step 07's share of it. The chapter says 4 GPUs took longer (checked)."""
    one = 2 * SIZE * SIZE * 4 / (_copy_gbps() * _step07_share() * 1e9) * 1e3
    if _ms("pipelined", 4) <= one:
        _stop("4 GPUs are faster than one GPU's model")
    return num(one, 1)


def _exchange_model(gpus):
    """One chunk: the all-to-all, then the local work, except my own piece's place (half of the
    local work is placing, 1 / G of it my own piece), which runs during the exchange."""
    g = int(gpus)
    return _ms("nccl_alltoall", gpus) + _local_model_ms(gpus) * (1 - 1 / (2 * g))


def exchange_model_ms(gpus):
    return num(_exchange_model(gpus), 1)


def exchange_excess_ms(gpus):
    """How much longer one chunk took than its model. The chapter says it took longer."""
    excess = _ms("one_chunk", gpus) - _exchange_model(gpus)
    if excess <= 0:
        _stop(f"one chunk on {gpus} GPUs is as fast as its model")
    return num(excess, 1)


def exchange_one_chunk_vs_alltoall(gpus):
    """The one-chunk exchange alone (`exchanges_one_chunk`: the grouped sends and receives)
    against `ncclAlltoAll`. The chapter says they take about as long (checked: within 3%)."""
    mine, nccl = _ms("exchanges_one_chunk", gpus), _ms("nccl_alltoall", gpus)
    if abs(mine / nccl - 1) > 0.03:
        _stop(f"the one-chunk exchange took {mine:.2f} ms, not about the all-to-all's {nccl:.2f}")
    return f"{num(mine, 2)} ms against {num(nccl, 2)}"


def _exchange_known(gpus):
    """The local work's own excess over its model, for the 1 - 1 / (2G) of it that one chunk
    does not hide (`local_work_one_chunk` measured minus the model), ms."""
    return (_ms("local_work_one_chunk", gpus) - _local_model_ms(gpus)) * (1 - 1 / (2 * int(gpus)))


def _one_chunk_stretch(gpus):
    """One chunk's exchange inside the call (`one_chunk_timed`, beside my own block's place)
    minus alone (`exchanges_one_chunk`), ms."""
    return _ms("one_chunk_timed_exchanges", gpus) - _ms("exchanges_one_chunk", gpus)


def own_place_ms(gpus):
    """My own block's place at the local work's speed alone: 1 / (2G) of `local_work_one_chunk`
    (half the local work is placing, 1 / G of it my own block), ms. The chapter says it is less
    than the one-chunk exchange's stretch (checked)."""
    own = _ms("local_work_one_chunk", gpus) / (2 * int(gpus))
    if own >= _one_chunk_stretch(gpus):
        _stop(f"on {gpus} GPUs my own block's place alone is not shorter than the exchange's stretch")
    return num(own, 2)


def _one_chunk_budget(gpus):
    """The lab's budget of one chunk's gap, ms: the model, the local work's excess, the exchange's
    stretch inside the call (one_chunk_timed), one_chunk minus one_chunk_timed (the events around
    the exchange), their sum, and one_chunk measured."""
    parts = {"model": _exchange_model(gpus), "local": _exchange_known(gpus), "stretch": _one_chunk_stretch(gpus),
             "events": _ms("one_chunk", gpus) - _ms("one_chunk_timed", gpus)}
    return dict(parts, sum=sum(parts.values()), measured=_ms("one_chunk", gpus))


def one_chunk_budget(item, gpus):
    """One cell of the lab's budget of one chunk, ms to 2 decimals. The page says the pieces add up
    to the measured time, that the two versions' ranges overlap (the events' row is within the
    noise), and that the exchange stretched (checked: the sum within 0.3 ms, the ranges overlap,
    the stretch above 0.5 ms)."""
    b = _one_chunk_budget(gpus)
    call, timed = _row("one_chunk", gpus), _row("one_chunk_timed", gpus)
    overlap = call["ms_min"] <= timed["ms_max"] and timed["ms_min"] <= call["ms_max"]
    if abs(b["sum"] - b["measured"]) > 0.3 or not overlap or b["stretch"] <= 0.5:
        _stop(f"on {gpus} GPUs one chunk's budget no longer reads as the page says: {b}")
    return num(b[item], 2)


def one_chunk_inside_min(gpus):
    """The one-chunk exchange inside the call and alone, each by the largest of the ranks' fastest
    repetitions (ms_min): 'X ms, Y ms more than the same statistic alone'. The page says that is
    well below the medians' stretch (checked: under half of it)."""
    low = _row("one_chunk_timed_exchanges", gpus)["ms_min"]
    more = low - _row("exchanges_one_chunk", gpus)["ms_min"]
    if more >= _one_chunk_stretch(gpus) / 2:
        _stop(f"on {gpus} GPUs the fastest repetitions stretched as much as the medians")
    return f"{num(low, 2)} ms, {num(more, 2)} ms more than the same statistic alone"


def chunk_lowest_median(gpus):
    """The chunk count (2, 4 or 8) of the pipelined version with the lowest median. The page says
    it is 4 and that its range overlaps the 8-chunk version's (checked)."""
    rows = {c: _row(CHUNK_VERSIONS[c][0], gpus) for c in (2, 4, 8)}
    best = min(rows, key=lambda c: rows[c]["ms_median"])
    four, eight = rows[4], rows[8]
    if best != 4 or not (four["ms_min"] <= eight["ms_max"] and eight["ms_min"] <= four["ms_max"]):
        _stop(f"on {gpus} GPUs 4 chunks were not the lowest median with a range overlapping 8 chunks'")
    return str(best)


UNHIDDEN = 4  # the chunks of `pipelined`


def _unhidden_share(gpus):
    """What nothing hides, as a share of the local work: the first pack (half the local work is
    packing, 1 / S of it chunk 0) and the last chunk's received pieces ((G - 1) / G of its place)."""
    g = int(gpus)
    return 1 / (2 * UNHIDDEN) + (g - 1) / (g * 2 * UNHIDDEN)


def unhidden_fraction(gpus):
    """The share as a fraction the reader can redo, e.g. 7/32 on 4 GPUs."""
    from fractions import Fraction
    g = int(gpus)
    f = Fraction(1, 2 * UNHIDDEN) + Fraction(g - 1, g * 2 * UNHIDDEN)
    return f"{f.numerator}/{f.denominator}"


def pipelined_model_ms(gpus):
    return num(_ms("nccl_alltoall", gpus) + _local_model_ms(gpus) * _unhidden_share(gpus), 1)


def chunk_model_ms(gpus, chunks):
    """The pipelined model with `chunks` chunks: the all-to-all plus what nothing hides, the first
    pack (1 / (2S) of the local work) and the last chunk's received pieces ((G - 1) / (2SG))."""
    g, c = int(gpus), int(chunks)
    return num(_ms("nccl_alltoall", gpus) + _local_model_ms(gpus) * (1 / (2 * c) + (g - 1) / (2 * c * g)), 1)


CHUNK_VERSIONS = {1: ("one_chunk", "exchanges_one_chunk"), 2: ("pipelined_2", "exchanges_2"),
                  4: ("pipelined", "exchanges"), 8: ("pipelined_8", "exchanges_8")}


def _chunk_exchanges_model(gpus, chunks):
    """The pipelined model with the S exchanges alone (E) in place of the all-to-all: E + f L."""
    g, c = int(gpus), int(chunks)
    return _ms(CHUNK_VERSIONS[c][1], gpus) + _local_model_ms(gpus) * (1 / (2 * c) + (g - 1) / (2 * c * g))


def chunk_row(gpus, chunks):
    """Cells of section 3's chunks table after the model: 'E | E + f L | measured (low to high)'.
    The page says E grows as the exchange is cut finer (checked over 1, 2, 4 and 8)."""
    e = [_ms(CHUNK_VERSIONS[c][1], gpus) for c in (2, 4, 8)]
    if not e[0] < e[1] < e[2] or _ms(CHUNK_VERSIONS[1][1], gpus) > e[0]:
        _stop(f"on {gpus} GPUs the exchanges alone do not grow with the chunks")
    version, exchanges = CHUNK_VERSIONS[int(chunks)]
    r = _row(version, gpus)
    return (f"{num(_ms(exchanges, gpus), 2)} | {num(_chunk_exchanges_model(gpus, chunks), 1)} | "
            f"{num(r['ms_median'], 1)} ({num(r['ms_min'], 1)} to {num(r['ms_max'], 1)})")


def exchanges_span(gpus):
    """E, the exchanges alone, at 2 and at 8 chunks: 'A to B'."""
    return f"{num(_ms('exchanges_2', gpus), 2)} to {num(_ms('exchanges_8', gpus), 2)}"


def chunk_best(gpus):
    """The chunk count (1, 2, 4 or 8) at which the model with the exchanges alone, E + f L, is lowest."""
    return str(min(CHUNK_VERSIONS, key=lambda c: _chunk_exchanges_model(gpus, c)))


def chunk_gaps(gpus):
    """Measured minus E + f L over the four chunk counts, lowest to highest: 'A to B'."""
    gaps = [_ms(CHUNK_VERSIONS[c][0], gpus) - _chunk_exchanges_model(gpus, c) for c in CHUNK_VERSIONS]
    return f"{num(min(gaps), 1)} to {num(max(gaps), 1)}"


def alltoall_slowdown(gpus):
    """The all-to-all's time beside the local work over its time alone. The chapter says each part
    slowed the other, the all-to-all ends last, and `pipelined` takes nearly as long as the
    all-to-all beside the local work (checked: within 10%)."""
    if _ms("both_at_once_alltoall", gpus) <= _ms("nccl_alltoall", gpus) or _ms("both_at_once_local", gpus) <= _ms("local_work", gpus):
        _stop(f"on {gpus} GPUs a part ran as fast beside the other as alone")
    if _ms("both_at_once_alltoall", gpus) <= _ms("both_at_once_local", gpus):
        _stop(f"on {gpus} GPUs the local work ended after the all-to-all")
    if abs(_ms("pipelined", gpus) / _ms("both_at_once_alltoall", gpus) - 1) > 0.1:
        _stop(f"on {gpus} GPUs pipelined is not within 10% of the all-to-all beside the local work")
    return num(_ms("both_at_once_alltoall", gpus) / _ms("nccl_alltoall", gpus), 2)


def _timed(kernel, gpus):
    """ms of `kernel` in the chapter's float job (09_multi_gpu_float,
    65536²): pipelined_timed, its exchanges' summed time, and the same job's exchanges alone."""
    rows = table(FLOAT_JOB).where(kernel=kernel, gpus=int(gpus), dtype="float", rows=SIZE, cols=SIZE)
    r = one(rows, f"{kernel} on {gpus} GPUs in {FLOAT_JOB}")
    if kernel == "pipelined_timed" and not r["verified"]:
        _stop(f"pipelined_timed on {gpus} GPUs failed verification")
    return r["ms_median"]


def inside_vs_alone(gpus):
    """The pipeline's exchanges, summed, inside it and alone (same job): 'A ms against B ms alone'.
    The chapter says they took longer inside (checked: by more than 10%)."""
    inside, alone = _timed("pipelined_timed_exchanges", gpus), _timed("exchanges", gpus)
    if inside <= 1.1 * alone:
        _stop(f"on {gpus} GPUs the exchanges inside the pipeline are not slower than alone")
    return f"{num(inside, 1)} ms against {num(alone, 1)} ms alone"


def inside_slowdown(gpus):
    """The exchanges' time inside the pipeline over their time alone."""
    return num(_timed("pipelined_timed_exchanges", gpus) / _timed("exchanges", gpus), 2)


def exchanges_vs_alltoall(gpus):
    """The pipeline's exchanges alone (`exchanges`) and ncclAlltoAll alone. The chapter says the
    first took less on this many GPUs (checked)."""
    ours, theirs = _ms("exchanges", gpus), _ms("nccl_alltoall", gpus)
    if ours >= theirs:
        _stop(f"on {gpus} GPUs the pipeline's exchanges are not faster than ncclAlltoAll")
    return f"{num(ours, 1)} ms against {num(theirs, 1)}"


def eight_over_four_chunks(gpus):
    """`pipelined_8` and `pipelined` (4 chunks). The lab's page says 8 chunks had the lower median
    on this many GPUs (checked)."""
    eight, four = _ms("pipelined_8", gpus), _ms("pipelined", gpus)
    if eight >= four:
        _stop(f"on {gpus} GPUs 8 chunks were not faster than 4")
    return f"{num(eight, 1)} ms against {num(four, 1)}"


def ms(kernel, gpus):
    return num(_ms(kernel, gpus), 1)


def ratio_alltoall(gpus):
    """The pipelined transpose's time over the all-to-all's. The chapter says it is slower, mostly
    because of section 4's rest (checked: more than half of the gap)."""
    ratio = _ms("pipelined", gpus) / _ms("nccl_alltoall", gpus)
    if ratio <= 1:
        _stop("the pipelined transpose is as fast as the all-to-all")
    if _rest(gpus) <= (_ms("pipelined", gpus) - _ms("nccl_alltoall", gpus)) / 2:
        _stop("the rest is not most of the gap to the all-to-all")  # "mostly because the exchange slows down"
    return num(ratio, 2)


def overlap_saved_ms(gpus):
    """What pipelining saved against one chunk. The chapter says: less than the models say
    (model_saved_ms), and less than half of the local work (checked)."""
    saved = _ms("one_chunk", gpus) - _ms("pipelined", gpus)
    if not 0 < saved < _ms("local_work", gpus) / 2:
        _stop(f"pipelining saved {saved:.2f} ms of {_ms('local_work', gpus):.2f} ms of local work")
    return num(saved, 1)


def model_saved_ms(gpus):
    """What the models say pipelining saves against one chunk: (1 - 1 / (2G)) - the unhidden share
    of the model's local work (21/32 on 4 GPUs). The pages say the measured saving is less than
    it (checked)."""
    model = ((1 - 1 / (2 * int(gpus))) - _unhidden_share(gpus)) * _local_model_ms(gpus)
    if _ms("one_chunk", gpus) - _ms("pipelined", gpus) >= model:
        _stop(f"on {gpus} GPUs pipelining saved what the models say, or more")
    return num(model, 1)


def speedup_pytorch(gpus, dtype="float"):
    """PyTorch's time over the pipelined transpose's. The chapter says ours is faster."""
    speedup = _ms("pytorch", gpus, dtype) / _ms("pipelined", gpus, dtype)
    if speedup <= 1:
        _stop(f"the PyTorch way is as fast on {gpus} GPUs ({dtype})")
    return num(speedup, 1)


def speedup_pytorch_span():
    """PyTorch's time over ours on 4 GPUs, lowest to highest over the four types (the types job)."""
    values = [_ms("pytorch", 4, d, TYPES_JOB) / _ms("pipelined", 4, d, TYPES_JOB) for d in ("float", "double", "half", "bf16")]
    if min(values) <= 1:
        _stop("the PyTorch way is as fast in some type")
    if min(values[2:]) <= max(values[:2]):
        _stop("the speedup is not largest for the 2-byte types")
    return f"{num(min(values), 1)} to {num(max(values), 1)}"


def sends_gbps(gpus):
    """What NCCL's all-to-all moved off each GPU per second: (G - 1) / G of the shard."""
    return num(_sends_gbps(gpus), 0)


IB_GBPS = 50  # 400 Gb/s InfiniBand per GPU, one direction


def _sends_gbps(gpus):
    g = int(gpus)
    return (g - 1) / g * _shard_bytes(gpus) / (_ms("nccl_alltoall", gpus) / 1e3) / 1e9


def memory_over_nvlink(gpus):
    """How many times faster the GPU's memory (cudaMemcpy) is than what each GPU sent over NVLink."""
    return num(_copy_gbps() / _sends_gbps(gpus), 1)


def memory_over_ib():
    """How many times faster the GPU's memory (cudaMemcpy) is than IB_GBPS."""
    return num(_copy_gbps() / IB_GBPS, 0)


def crossover(gpus, share=10):
    """How many times faster memory must be than the network for the local work to be `share`%
    of the exchange: local / exchange = (4 S / memory) / ((G - 1) / G S / network)."""
    g = int(gpus)
    return num(4 * g / (g - 1) * 100 / int(share), 0)


def ib_alltoall_ms(gpus):
    """The all-to-all's time if each GPU sent at IB_GBPS instead."""
    g = int(gpus)
    return num((g - 1) / g * _shard_bytes(gpus) / (IB_GBPS * 1e9) * 1e3, 0)


def ib_hidden_share(gpus):
    """The measured local work over the exchange at InfiniBand speed, in %."""
    g = int(gpus)
    ib_ms = (g - 1) / g * _shard_bytes(gpus) / (IB_GBPS * 1e9) * 1e3
    return num(100 * _ms("local_work", gpus) / ib_ms, 1)


def _unhidden(gpus):
    return _local_model_ms(gpus) * _unhidden_share(gpus)


def _parts_model(gpus):
    """The pipelined model from the parts timed alone: its exchanges and what nothing hides of
    the local work's model."""
    return _ms("exchanges", gpus) + _unhidden(gpus)


def unhidden_ms(gpus):
    return num(_unhidden(gpus), 1)


def parts_model_ms(gpus):
    return num(_parts_model(gpus), 1)


def check_ms(gpus):
    """The ranks' check alone ."""
    return num(_ms("check", gpus), 2)


def _rest(gpus):
    return _ms("pipelined", gpus) - _parts_model(gpus)


def rest_ms(gpus):
    """`pipelined` minus the model from its parts. The chapter says most of the gap (from its
    exchanges alone to `pipelined`) is in the rest (checked)."""
    if _rest(gpus) <= (_ms("pipelined", gpus) - _ms("exchanges", gpus)) / 2:
        _stop(f"on {gpus} GPUs the rest is not most of the gap")
    return num(_rest(gpus), 1)


def _both_dram_ms(gpus, staged, own=True):
    """The DRAM time at cudaMemcpy's speed of the two parts at once: the local work's 4 shards and
    ncclAlltoAll's read and write of the whole shard (with own=False, the pipeline's exchanges:
    the (G - 1) / G that travels); if NCCL stages what it receives, a write and a read more of
    the (G - 1) / G that travels."""
    g = int(gpus)
    exchange = 2 if own else 2 * (g - 1) / g
    return (4 + exchange + 2 * (g - 1) / g * staged) * _shard_bytes(gpus) / (_copy_gbps() * 1e9) * 1e3


def per_call_ms(gpus):
    """What each extra grouped call adds to the exchanges alone, from 1 chunk to 8, ms."""
    return num((_ms("exchanges_8", gpus) - _ms("exchanges_one_chunk", gpus)) / 7, 2)


def local_pct_of_model(gpus):
    """All the local work alone (`local_work`, 4 chunks) as % of its model's speed, two passes at
    copy speed. The page says a local kernel runs near copy speed (checked: 90% or more)."""
    pct = 100 * _local_model_ms(gpus) / _ms("local_work", gpus)
    if pct < 90:
        _stop(f"on {gpus} GPUs the local work ran at {pct:.0f}% of its model's speed, not near copy speed")
    return num(pct, 0) + "%"


def pipeline_bytes_ms(gpus):
    """All the DRAM bytes of one pipelined call at copy speed: the local work's 4 shards and the
    exchanges' (G - 1) / G of the shard each way (twice that if NCCL stages what it receives):
    'A to B'. The page says that is under `pipelined`'s time (checked)."""
    g = int(gpus)
    exchange = 2 * (g - 1) / g * _shard_bytes(gpus)
    low, high = ((4 * _shard_bytes(gpus) + k * exchange) / (_copy_gbps() * 1e6) for k in (1, 2))
    if high >= _ms("pipelined", gpus):
        _stop(f"on {gpus} GPUs the call's bytes at copy speed take as long as the call")
    return f"{num(low, 1)} to {num(high, 1)}"


def exchange_dram_share(gpus):
    """The four exchanges' own DRAM traffic over their time alone, as % of copy speed: they read
    what they send and write what they receive, (G - 1) / G of the shard each way (twice that if
    NCCL stages what it receives). The page says a local kernel near copy speed plus this asks
    for more than copy speed (checked, with the local work's % of its model)."""
    g = int(gpus)
    moved = 2 * (g - 1) / g * _shard_bytes(gpus)
    share = 100 * moved / (_ms("exchanges", gpus) * 1e-3) / (_copy_gbps() * 1e9)
    if share + 100 * _local_model_ms(gpus) / _ms("local_work", gpus) <= 100:
        _stop(f"on {gpus} GPUs a local kernel and the exchanges together ask for less than copy speed")
    return (f"{num(share, 0)}% of copy speed (up to {num(2 * share, 0)}% if NCCL passes what it receives through buffers "
            "of its own that reach DRAM)")


def both_dram_ms(gpus):
    return num(_both_dram_ms(gpus, False), 1)


def both_dram_staged_ms(gpus):
    """The chapter says: even staged, less than the all-to-all's time beside the local work
    (checked)."""
    if _both_dram_ms(gpus, True) >= _ms("both_at_once_alltoall", gpus):
        _stop("the staged bytes of both at copy speed take as long as the all-to-all beside the local work")
    return num(_both_dram_ms(gpus, True), 1)


def exchanges_over_alltoall_ms(gpus):
    """pipelined's exchanges alone minus ncclAlltoAll alone. The chapter says they took longer."""
    over = _ms("exchanges", gpus) - _ms("nccl_alltoall", gpus)
    if over <= 0:
        _stop(f"on {gpus} GPUs the exchanges alone were not slower than ncclAlltoAll")
    return num(over, 1)


def alltoall_pace_beside(gpus):
    """The all-to-all's speed while the local work ran beside it, as % of its speed alone, if it ran
    at full speed once the local work was done: the work done beside it over the time beside it.
    The chapter says the pipeline beat running everything at once there, and the exchanges alone
    beat ncclAlltoAll (checked)."""
    if _ms("pipelined", gpus) >= _ms("both_at_once", gpus):
        _stop(f"on {gpus} GPUs the pipeline did not beat the two at once")
    if _ms("exchanges", gpus) >= _ms("nccl_alltoall", gpus):
        _stop(f"on {gpus} GPUs the exchanges alone did not beat ncclAlltoAll")
    done_beside = _ms("nccl_alltoall", gpus) - (_ms("both_at_once_alltoall", gpus) - _ms("both_at_once_local", gpus))
    return num(100 * done_beside / _ms("both_at_once_local", gpus), 0) + "%"

def chunk_local_beside_ms(gpus):
    """A chunk's local work at the pace it had beside the all-to-all (a quarter of its time there).
    The chapter says it is shorter than a chunk's exchange alone, and that pipelined's exchanges
    alone took longer than ncclAlltoAll (checked)."""
    chunk = _ms("both_at_once_local", gpus) / UNHIDDEN
    if chunk >= _ms("exchanges", gpus) / UNHIDDEN:
        _stop("a chunk's slowed local work is not shorter than a chunk's exchange")
    if _ms("exchanges", gpus) <= _ms("nccl_alltoall", gpus):
        _stop(f"on {gpus} GPUs pipelined's exchanges alone were not slower than ncclAlltoAll")
    return num(chunk, 1)


# ---- what the all-to-all competes for (09_multi_gpu_neighbours) ----------------------------

STREAM_PASSES = 3  # the DRAM stand-in copies the shard 3 times (kStreamPasses in main.cu)


def _beside(kind, gpus):
    """The all-to-all's time beside `kind` (spin, stream, or the local work: both_at_once) over
    its time alone, in the neighbours job."""
    run = table("09_multi_gpu_neighbours")
    ms = {k: one(run.where(kernel=k, gpus=int(gpus), dtype="float"), k)["ms_median"]
          for k in ("nccl_alltoall", f"beside_{kind}_alltoall" if kind != "local" else "both_at_once_alltoall")}
    return ms[next(k for k in ms if k != "nccl_alltoall")] / ms["nccl_alltoall"]


def _check_beside(gpus):
    """The pages say holding the SMs costs the all-to-all little, the DRAM stream from few SMs
    much more, the local work most (checked: spin under 1.15, stream at least 0.1 above spin,
    local work above both)."""
    spin, stream, local = (_beside(k, gpus) for k in ("spin", "stream", "local"))
    if not (spin < 1.15 and stream > spin + 0.1 and local > stream):
        _stop(f"on {gpus} GPUs the slowdowns are spin {spin:.2f}, stream {stream:.2f}, local {local:.2f}")


def beside_slowdowns(gpus):
    """'a, b and c times': the all-to-all beside the spinning kernel, the DRAM stream and the
    local work, over alone (checked, _check_beside)."""
    _check_beside(gpus)
    return ", ".join(num(_beside(k, gpus), 2) for k in ("spin", "stream")) + f" and {num(_beside('local', gpus), 2)} times"


def _stream_gbps(gpus, ms):
    """GB/s (read plus written) of the DRAM stand-in that ran `ms`: 3 copies of the shard. The
    pages say it is less than half of a copy's speed (checked)."""
    moved = STREAM_PASSES * 2 * _shard_bytes(gpus) / ms / 1e6
    if moved >= 0.5 * _copy_gbps():
        _stop(f"the DRAM stream moved {moved:.0f} GB/s, not less than half of a copy's speed")
    return moved


def stream_gbps(gpus):
    """The DRAM stand-in's GB/s beside the all-to-all in the neighbours job (the lab's page)."""
    run = table("09_multi_gpu_neighbours")
    ms = one(run.where(kernel="beside_stream_neighbour", gpus=int(gpus), dtype="float"), "beside_stream_neighbour")["ms_median"]
    return num(_stream_gbps(gpus, ms), 0)


# --- Section 4: the time budget, from the float job ---


def _budget(gpus):
    """Section 4's time budget from the float job, ms: the chunked exchanges alone, the unhidden
    local work f L, the exchanges' stretch inside the pipeline, their sum against pipelined_timed,
    and pipelined (the same schedule without the events that time the exchanges)."""
    exchanges, stretch = _timed("exchanges", gpus), _timed("pipelined_timed_exchanges", gpus) - _timed("exchanges", gpus)
    unhidden = _unhidden(gpus)
    timed, pipelined = _timed("pipelined_timed", gpus), _timed("pipelined", gpus)
    alltoall = _timed("nccl_alltoall", gpus)
    return {"alltoall": alltoall, "chunking": exchanges - alltoall, "unhidden": unhidden, "stretch": stretch,
            "sum": exchanges + unhidden + stretch, "timed": timed, "pipelined": pipelined}


def budget(item, gpus):
    """One cell of section 4's time budget, ms to 2 decimals. The page says the sum comes within
    0.1 ms of pipelined_timed (checked)."""
    b = _budget(gpus)
    if abs(b["sum"] - b["timed"]) > 0.1:
        _stop(f"on {gpus} GPUs the budget ({b['sum']:.2f} ms) misses pipelined_timed ({b['timed']:.2f} ms)")
    return num(b[item], 2)


def _inside(gpus):
    """Each exchange's own time inside `pipelined_timed` (median end minus median start), ms."""
    return [_timed(f"pipelined_timed_exchange{k}_end", gpus) - _timed(f"pipelined_timed_exchange{k}_start", gpus)
            for k in range(UNHIDDEN)]


def inside_first(gpus):
    """Exchanges 0 to S - 2 inside the pipeline, lowest to highest, ms. The page says each took
    longer than the last one, which took longer than an exchange alone (checked)."""
    first, last = _inside(gpus)[:-1], _inside(gpus)[-1]
    if not min(first) > last > _ms("exchanges", gpus) / UNHIDDEN:
        _stop(f"on {gpus} GPUs the exchanges inside the pipeline are not ordered as the page says")
    return f"{num(min(first), 2)} to {num(max(first), 2)}"


def inside_last(gpus):
    """The last exchange inside the pipeline, ms (ordered by inside_first)."""
    return num(_inside(gpus)[-1], 2)


def exchange_alone_ms(gpus):
    """One chunk's exchange alone: `exchanges` over the chunks, ms."""
    return num(_ms("exchanges", gpus) / UNHIDDEN, 2)


def alone_end_ms(gpus):
    """Where the timeline figure's schedule of the parts alone ends (multi_gpu_blocks.alone_schedule
    over the float job's `packs`, `exchanges` and `places`, 4 chunks). The page says it ends later
    than the model A + f L (checked)."""
    ms = {k: _ms(k, gpus) for k in ("packs", "exchanges", "places")}
    end = alone_schedule(ms, int(gpus), UNHIDDEN)[1]
    if end <= _ms("nccl_alltoall", gpus) + _unhidden(gpus):
        _stop("the parts alone end before the model")
    return num(end, 1)


def budget_ranges(gpus):
    """`pipelined`'s range against `pipelined_timed`'s: 'A to B against C to D'. The page says
    they overlap (checked)."""
    p, t = _row("pipelined", gpus), _row("pipelined_timed", gpus)
    if not (p["ms_min"] <= t["ms_max"] and t["ms_min"] <= p["ms_max"]):
        _stop(f"on {gpus} GPUs pipelined's and pipelined_timed's ranges do not overlap")
    return f"{num(p['ms_min'], 2)} to {num(p['ms_max'], 2)} against {num(t['ms_min'], 2)} to {num(t['ms_max'], 2)}"


def one_call_extra_ms(gpus):
    """`one_call` (a plan made, checked and run in each call) minus `pipelined` (a kept plan's
    run). The page says the call took longer by the medians and that the ranges overlap (checked)."""
    call, kept = _row("one_call", gpus), _row("pipelined", gpus)
    extra = call["ms_median"] - kept["ms_median"]
    if extra <= 0 or not (call["ms_min"] <= kept["ms_max"] and kept["ms_min"] <= call["ms_max"]):
        _stop(f"on {gpus} GPUs one call of transpose was not slower by the medians with overlapping ranges")
    return num(extra, 1)


def events_flag_ms(gpus):
    """The events' flag job: a plan with untimed wait events minus one with timed events, ms
    (medians). The page says the untimed plan's median lies above the timed plan's slowest
    repetition (checked)."""
    rows = {k: one(table("09_multi_gpu_events").where(kernel=k, gpus=int(gpus), dtype="float"), k)
            for k in ("pipelined", "pipelined_untimed_events")}
    untimed, timed = rows["pipelined_untimed_events"], rows["pipelined"]
    if untimed["ms_median"] <= timed["ms_max"]:
        _stop(f"on {gpus} GPUs the untimed events' median is not above the timed plan's slowest repetition")
    return num(untimed["ms_median"] - timed["ms_median"], 1)


def budget_gap(gpus):
    """|sum - pipelined_timed| of section 4's budget, ms to 2 decimals."""
    b = _budget(gpus)
    return num(abs(b["sum"] - b["timed"]), 2)


def timeline_gap():
    """The largest gap between one exchange's end and the next one's start in pipelined_timed's
    timeline, 2 and 4 GPUs, ms to 3 decimals. The chapter says the exchange stream never waits
    (checked: under 0.05 ms) and every exchange is longer than the exchanges' average alone."""
    gaps = []
    for g in (2, 4):
        chunks = UNHIDDEN
        for k in range(chunks):
            took = _timed(f"pipelined_timed_exchange{k}_end", g) - _timed(f"pipelined_timed_exchange{k}_start", g)
            if took <= _timed("exchanges", g) / chunks:
                _stop(f"on {g} GPUs exchange {k} took no longer inside the pipeline than alone")
            if k > 0:
                gaps.append(_timed(f"pipelined_timed_exchange{k}_start", g) - _timed(f"pipelined_timed_exchange{k - 1}_end", g))
    if max(gaps) >= 0.05:
        _stop(f"the exchange stream waited {max(gaps):.3f} ms between exchanges")
    return num(max(gaps), 3)
