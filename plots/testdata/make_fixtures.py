#!/usr/bin/env python3
"""Writes the SYNTHETIC test fixtures in this directory (see README.md). Not GPU results.

The numbers follow simple made-up formulas, chosen only to exercise the plot code: several
steps, a failed verification, a reference kernel per dtype, shared-memory metrics for some
kernels and not others, an older file whose name sorts after the newer one. Rerun after
changing it:  python3 plots/testdata/make_fixtures.py
"""
import csv
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
GPU = "Synthetic Fixture GPU"
HEAD = dict(gpu=GPU, cc="0.0", cuda="0.0", git_sha="fixture")
COLUMNS = ("gpu,cc,cuda,git_sha,step,kernel,dtype,rows,cols,bytes,reps,ms_median,ms_min,ms_max,"
           "gbps,pct_of_memcpy,verified").split(",")
NCU_COLUMNS = ("gpu,cc,cuda,git_sha,step,kernel,dtype,rows,cols,function,block_size,grid_size,"
               "registers,shared_bytes,occupancy_pct,ld_sectors_per_req,st_sectors_per_req,"
               "ld_sector_use_pct,st_sector_use_pct,smem_ld_wavefronts_per_req,"
               "smem_st_wavefronts_per_req,smem_bank_conflicts,dram_read_bytes,dram_write_bytes,"
               "ideal_bytes,dram_read_vs_ideal,dram_write_vs_ideal,dram_pct_of_peak,l2_hit_pct,"
               "duration_us,l2_bytes").split(",")
SIZE = {"float": 4, "double": 8, "half": 2, "bf16": 2}
L2_BYTES = 50 * 2**20
PEAK = 1000.0  # made-up GB/s of the fixture "memcpy" at large sizes


def bench_row(step, kernel, dtype, rows, cols, fraction, verified=True, warm=False):
    """One benchmark row; `fraction` of the fixture memcpy, which itself ramps up with size."""
    moved = 2 * rows * cols * SIZE[dtype]
    memcpy = PEAK * moved / (moved + 8e6)  # small sizes: launch latency dominates
    if warm and moved < 2 * L2_BYTES:       # fits in the made-up L2: a warm run looks faster
        memcpy *= 1.8
    gbps = memcpy * fraction
    ms = moved / gbps / 1e6
    return dict(HEAD, step=step, kernel=kernel, dtype=dtype, rows=rows, cols=cols, bytes=moved,
                reps=5, ms_median=f"{ms:.6f}", ms_min=f"{ms * 0.98:.6f}", ms_max=f"{ms * 1.05:.6f}",
                gbps=f"{gbps:.2f}", pct_of_memcpy=f"{100 * fraction:.2f}",
                verified="true" if verified else "false")


# (step, kernel, fraction of memcpy for float, for half)
TOUR = [("00_copy", "copy_vec16", 1.00, 0.99),
        ("01_naive_row", "transpose_naive_row", 0.35, 0.20),
        ("02_naive_col", "transpose_naive_col", 0.55, 0.30),
        ("05_shared", "transpose_tiled", 0.80, 0.70)]
REFS = {"float": [("cublas_geam", 0.93)], "half": [("cublasLtMatrixTransform", 0.88)],
        "double": [("cublas_geam", 0.95)]}


def tour_rows(dtypes, sides, warm=False, fail=()):
    out = []
    for dtype in dtypes:
        for n in sides:
            out.append(bench_row("ref", "cudaMemcpy", dtype, n, n, 1.0, warm=warm))
            for step, kernel, f_float, f_half in TOUR:
                f = f_half if SIZE[dtype] == 2 else f_float
                out.append(bench_row(step, kernel, dtype, n, n, f, (step, dtype, n) not in fail, warm))
            for kernel, f in REFS.get(dtype, []):
                out.append(bench_row("ref", kernel, dtype, n, n, f, warm=warm))
    return out


def ncu_rows():
    out = []
    kernels = [  # step, kernel, load sectors/req, store sectors/req, smem ld/st wavefronts
        ("00_copy", "copy_naive", 4, 4, None, None),
        ("00_copy", "copy_vec16", 16, 16, None, None),
        ("01_naive_row", "transpose_naive_row", 4, 32, None, None),
        ("05_shared", "transpose_tiled", 4, 4, 32, 1),
        ("05_shared", "transpose_tiled_swizzled", 4, 4, 1, 1),
        ("ref", "cublas_geam", 4, 4, 1, 1)]
    for dtype in ("float", "half"):
        n = 4096
        ideal = n * n * SIZE[dtype]
        for i, (step, kernel, ld, st, sld, sst) in enumerate(kernels):
            scale = SIZE[dtype] / 4  # half: a warp's 64 bytes are 2 sectors, not 4
            excess = 1.0 + 0.05 * i
            out.append(dict(
                HEAD, step=step, kernel=kernel, dtype=dtype, rows=n, cols=n,
                function=f"{kernel}_kernel<{dtype}>", block_size=256, grid_size=n * n // 256,
                registers=16 + 2 * i, shared_bytes=0 if sld is None else 32 * 33 * SIZE[dtype],
                occupancy_pct=f"{90 - 5 * i:.1f}", ld_sectors_per_req=f"{ld * scale:.2f}",
                st_sectors_per_req=f"{st * scale:.2f}", ld_sector_use_pct="100.0",
                st_sector_use_pct=f"{100 * 4 / st:.1f}",
                smem_ld_wavefronts_per_req="" if sld is None else f"{sld:.2f}",
                smem_st_wavefronts_per_req="" if sst is None else f"{sst:.2f}",
                smem_bank_conflicts="" if sld is None else (sld - 1) * 1000,
                dram_read_bytes=ideal, dram_write_bytes=int(ideal * excess), ideal_bytes=ideal,
                dram_read_vs_ideal="1.000", dram_write_vs_ideal=f"{excess:.3f}",
                dram_pct_of_peak=f"{92 - 10 * i:.1f}", l2_hit_pct=f"{20 + 8 * i:.1f}",
                duration_us=f"{50 + 10 * i:.1f}", l2_bytes=L2_BYTES))
    return out


def write(name, rows, columns=COLUMNS):
    with (HERE / name).open("w", newline="") as f:
        writer = csv.DictWriter(f, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def main():
    sides = [1024, 2048, 4096]
    sweep = [256, 512, 1024, 1448, 2048, 2896, 4096, 8192]
    write("tour_fixture_2026-01-10.csv",
          tour_rows(["float", "double", "half"], sides, fail={("05_shared", "half", 4096)}))
    # Older than the file above, but its name sorts after it: the loader must go by the date.
    write("tour_zz_2025-12-01.csv",
          [dict(r, gpu="Old Fixture GPU") for r in tour_rows(["float"], [1024])])
    write("sweep_cold_fixture_2026-01-10.csv", tour_rows(["float", "half"], sweep))
    write("sweep_warm_fixture_2026-01-10.csv", tour_rows(["float", "half"], sweep, warm=True))
    write("ncu_fixture_2026-01-10.csv", ncu_rows(), NCU_COLUMNS)

    copy = []
    for dtype in SIZE:
        for rows, cols in [(1024, 1024), (2048, 2048), (3, 70000)]:
            copy.append(bench_row("ref", "cudaMemcpy", dtype, rows, cols, 1.0))
            copy.append(bench_row("00_copy", "copy_naive", dtype, rows, cols, 0.3 * SIZE[dtype] ** 0.5))
            copy.append(bench_row("00_copy", "copy_vec16", dtype, rows, cols, 1.0))
    write("00_copy_fixture_2026-01-10.csv", copy)

    naive = []
    for dtype in ("float", "half"):
        for n in sides:
            naive.append(bench_row("ref", "cudaMemcpy", dtype, n, n, 1.0))
            naive.append(bench_row("00_copy", "copy_vec16", dtype, n, n, 1.0))
            naive.append(bench_row("01_naive_row", "transpose_naive_row", dtype, n, n, 0.3))
            naive.append(bench_row("01_naive_row", "transpose_naive_row_broken", dtype, n, n, 0.4,
                                   verified=not (dtype == "half" and n >= 2048)))
    write("01_naive_row_fixture_2026-01-10.csv", naive)

    # Step 09's float job: times across GPUs (a `gpus` column), the parts alone and at once, on 2
    # and 4 GPUs.
    parts = {"exchanges": 9.5, "pipelined_timed_exchanges": 12.5, "nccl_alltoall": 10.0,
             "local_work": 6.0, "packs": 3.0, "places": 3.0, "both_at_once_alltoall": 15.0,
             "both_at_once_local": 8.0, "one_chunk": 16.0, "pipelined": 14.0, "pipelined_timed": 13.5,
             "local_work_one_chunk": 6.0, "exchanges_one_chunk": 9.2, "pytorch_pack": 3.5,
             "pytorch_alltoall": 9.4, "pytorch_unpack": 9.0, "pytorch": 21.5}
    for k in range(4):  # pipelined_timed's timeline: each exchange's start and end
        parts[f"pipelined_timed_exchange{k}_start"] = 0.75 + 3.1 * k
        parts[f"pipelined_timed_exchange{k}_end"] = 0.75 + 3.1 * (k + 1)
    multi = []
    for gpus in (2, 4):
        for kernel, ms in parts.items():
            row = bench_row("09_multi_gpu", kernel, "float", 4096, 4096, 0.5,
                            verified=kernel in ("one_chunk", "pipelined", "pipelined_timed"))
            multi.append(dict(row, ms_median=f"{ms * 4 / gpus:.6f}", gpus=gpus))
    write("09_multi_gpu_float_fixture_2026-01-10.csv", multi, COLUMNS + ["gpus"])


if __name__ == "__main__":
    main()
