"""Bytes in flight as a queue: why one, two and three blocks per SM reach the % of cudaMemcpy
they do (the lab's "Occupancy and bytes in flight").

Little's law with a block's whole tile in flight says that one 16 KB `float` tile per SM
already covers the latency (step 00's 8 to 10 KB). The lab's `blocks_per_sm_k` kernels say
otherwise: one block reaches 55% of the copy on an H200, two 82%, three 95%. This module
models each SM as a closed queueing network, the textbook model of a fixed number of jobs
that take turns at shared servers:

- the k resident blocks are the jobs; each moves one tile after another;
- a tile first waits Z, the load latency of an idle GPU (00_latency's pointer chase): the
  time no one can shorten;
- then it takes D of the DRAM, shared by every block: the tile's bytes (read and written) at
  the SM's share of the copy's rate, D = 2 x tile bytes / (cudaMemcpy GB/s / SMs). A block
  that finds the DRAM busy with other tiles waits: latency rises as the DRAM fills;
- and w of the SM, shared by the SM's blocks: the block's own work per tile (shared-memory
  stores and reads, the barriers, issuing the stores). w is the one number fitted: the
  value at which the model gives the measured one-block share.

Mean value analysis (Lazowska, Zahorjan, Graham and Sevcik, "Quantitative System Performance",
1984, chapter 6) solves such a network job by job. With Q the jobs queued at a server,

    R_s(n) = D_s x (1 + Q_s(n - 1))     time at server s when n jobs share the network
    X(n)   = n / (Z + sum of R_s(n))     tiles per ns
    Q_s(n) = X(n) x R_s(n)               Little's law at each server

and the share of the copy is X(k) x D (1: the DRAM never idle). The model assumes service
times that vary at random (exponential), so it queues more than fixed times would.

Standard library only: python3 -m unittest test_queueing
"""
import statistics
from dataclasses import dataclass

import results

SMS = 132                    # SMs of both GPUs measured (H100 SXM and H200)
TILE_BYTES = {"float": 16384, "double": 8192, "half": 32768, "bf16": 32768}  # 256 x 256 bytes
BLOCKS = (1, 2, 3)           # the lab's blocks_per_sm_k kernels
HEADLINE = "headline_tile256"  # the same kernel with as many blocks as its registers allow
SOURCE = "lab_occupancy"     # the timings: <SOURCE>[_runN]_<gpu>_<date>.csv
LATENCY = "latency"          # 00_latency's pointer chase: <LATENCY>_<gpu>_<date>.csv


def copy_share(k, z, d, w):
    """Share of the copy's rate (0 to 1) that k blocks per SM reach: mean value analysis of
    the closed network (delay z, then DRAM d, then SM work w; ns per tile)."""
    queued_dram = queued_sm = 0.0
    for n in range(1, k + 1):
        at_dram = d * (1 + queued_dram)
        at_sm = w * (1 + queued_sm)
        tiles_per_ns = n / (z + at_dram + at_sm)
        queued_dram, queued_sm = tiles_per_ns * at_dram, tiles_per_ns * at_sm
    return tiles_per_ns * d


def fit_work(share_one_block, z, d):
    """The SM work w (ns per tile) at which one block reaches `share_one_block` of the copy.
    One job never queues: share = d / (z + d + w)."""
    w = d / share_one_block - z - d
    if w < 0:
        raise ValueError(f"one block at {share_one_block:.3f} of the copy is faster than the latency {z} ns allows")
    return w


@dataclass
class Curve:
    """One GPU x element type x size: what was measured and what the model says."""
    gpu: str
    dtype: str
    side: int
    latency_ns: float       # z
    dram_ns: float          # d
    work_ns: float          # w, fitted on one block
    measured: dict          # blocks per SM (1, 2, 3, "headline") -> % of cudaMemcpy, median of runs

    def predicted(self, k):
        """% of cudaMemcpy the model gives for k blocks per SM."""
        return 100 * copy_share(k, self.latency_ns, self.dram_ns, self.work_ns)

    def error(self, k):
        """Model minus measurement, points of cudaMemcpy."""
        return self.predicted(k) - self.measured[k]


def _tables(source, slug):
    """The newest CSV of `source` and of each `source_runN` on the GPU `slug` (the runs)."""
    found = []
    for name in [source] + [f"{source}_run{n}" for n in range(2, 10)]:
        paths = results.files(name, slug=slug)
        if paths:
            found.append(results.read(paths[-1]))
    if not found:
        raise LookupError(f"no docs/results/{source}_{slug}_*.csv")
    return found


def _median(tables, kernel, dtype, side, column):
    values = [r[column] for t in tables for r in t.where(kernel=kernel, dtype=dtype, rows=side, cols=side)]
    if len(values) != len(tables):
        raise LookupError(f"{kernel} {dtype} {side}: {len(values)} rows in {len(tables)} runs")
    return statistics.median(values)


def latency_ns(slug):
    """ns per load of 00_latency's pointer chase on the GPU `slug` (an idle GPU)."""
    chase = [r for r in _tables(LATENCY, slug)[0].rows if r["kernel"] == "pointer_chase"]
    if len(chase) != 1:
        raise LookupError(f"{len(chase)} pointer_chase rows in the latency CSV of {slug}")
    return chase[0]["ms_median"] * 1e6 / chase[0]["rows"]


def curve(slug, dtype, side):
    """The measured points and the model, fitted on one block, for one GPU, type and size."""
    tables = _tables(SOURCE, slug)
    per_sm = _median(tables, "cudaMemcpy", dtype, side, "gbps") / SMS  # bytes per ns, read and written
    d = 2 * TILE_BYTES[dtype] / per_sm
    measured = {k: _median(tables, f"blocks_per_sm_{k}", dtype, side, "pct_of_memcpy") for k in BLOCKS}
    measured["headline"] = _median(tables, HEADLINE, dtype, side, "pct_of_memcpy")
    z = latency_ns(slug)
    return Curve(tables[0].gpu, dtype, side, z, d, fit_work(measured[1] / 100, z, d), measured)
