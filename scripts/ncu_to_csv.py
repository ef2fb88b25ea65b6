#!/usr/bin/env python3
"""Turn one Nsight Compute report (exported with `ncu --import R --csv --page raw`) into
docs/results/ncu_<gpu>_<date>.csv: one row per kernel x dtype, named like the benchmarks name
them, with the metrics the chapters quote.

    python3 scripts/ncu_to_csv.py LAUNCHES RAW_CSV OUT_CSV

LAUNCHES is what build/bin/profile_once printed: a "device,..." line and one "launch,..." line
per kernel launch, in launch order. Nsight Compute lists the launches it profiled in the same
order, so the i-th profiled kernel is the i-th "launch," line; the script refuses to guess when
the counts differ.
"""
import csv
import sys

# Nsight Compute metric names (Volta and newer), by what they mean here.
METRICS = {
    "registers": "launch__registers_per_thread",
    "block_size": "launch__block_size",
    "grid_size": "launch__grid_size",
    "smem_static": "launch__shared_mem_per_block_static",
    "smem_dynamic": "launch__shared_mem_per_block_dynamic",
    "occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "ld_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "ld_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "st_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "st_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "ld_sector_use_pct": "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
    "st_sector_use_pct": "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
    "smem_ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smem_st_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smem_ld_requests": "smsp__inst_executed_op_shared_ld.sum",
    "smem_st_requests": "smsp__inst_executed_op_shared_st.sum",
    "smem_ld_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "smem_st_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "dram_read_bytes": "dram__bytes_read.sum",
    "dram_write_bytes": "dram__bytes_write.sum",
    "dram_pct_of_peak": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "l2_hit_pct": "lts__t_sector_hit_rate.pct",
    "duration_ns": "gpu__time_duration.sum",
    "l2_bytes": "device__attribute_l2_cache_size",
}

# Warp-state sampling: for each reason, the warp-cycles stalled for it divided by the cycles in
# which the scheduler issued, i.e. stall cycles per issued instruction (Nsight Compute's "Warp
# State Statistics"; it can exceed the number of warps). The reasons a transpose
# meets: waiting for global memory (long scoreboard), for shared memory (short scoreboard),
# for a full shared-memory queue (MIO throttle), for a full global-memory queue (LG throttle),
# at a barrier (__syncthreads), and after EXIT for outstanding stores (drain).
STALLS = {f"stall_{reason}": f"smsp__average_warps_issue_stalled_{reason}_per_issue_active.ratio"
          for reason in ("long_scoreboard", "short_scoreboard", "mio_throttle", "lg_throttle", "barrier", "drain")}
METRICS.update(STALLS)

COLUMNS = ["gpu", "cc", "cuda", "git_sha", "step", "kernel", "dtype", "rows", "cols", "function",
           "block_size", "grid_size", "registers", "shared_bytes", "occupancy_pct",
           "ld_sectors_per_req", "st_sectors_per_req", "ld_sector_use_pct", "st_sector_use_pct",
           "smem_ld_wavefronts_per_req", "smem_st_wavefronts_per_req", "smem_bank_conflicts",
           "dram_read_bytes", "dram_write_bytes", "ideal_bytes", "dram_read_vs_ideal",
           "dram_write_vs_ideal", "dram_pct_of_peak", "l2_hit_pct", "duration_us", "l2_bytes", *STALLS]

DTYPE_BYTES = {"float": 4, "double": 8, "half": 2, "bf16": 2}


def number(text):
    """A metric value as Nsight Compute prints it ("1,048,576", "87.5", "n/a") -> float or None."""
    text = text.replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def ratio(a, b, digits=3):
    return "" if a is None or not b else f"{a / b:.{digits}f}"


def fmt(x, digits=1):
    return "" if x is None else f"{x:.{digits}f}"


def read_launches(path):
    device, launches = None, []
    for line in open(path):
        fields = line.rstrip("\n").split(",")
        if fields[0] == "device" and len(fields) == 6:
            device = dict(zip(["gpu", "cc", "cuda", "git_sha"], fields[1:5]))
        elif fields[0] == "launch" and len(fields) == 6:
            launches.append(dict(zip(["step", "kernel", "dtype", "rows", "cols"], fields[1:])))
    if device is None or not launches:
        sys.exit(f"ncu_to_csv: {path} has no 'device,' line or no 'launch,' lines (is it profile_once's output?)")
    return device, launches


def read_profiled(path):
    """Rows of `ncu --csv --page raw`: a header, a units row, then one row per kernel."""
    with open(path, newline="") as f:
        rows = list(csv.reader(line for line in f if not line.startswith("==")))
    header, body = rows[0], rows[2:]
    missing = [m for m in METRICS.values() if m not in header]
    if missing:
        sys.exit("ncu_to_csv: the report lacks metrics " + ", ".join(missing))
    col = {name: header.index(metric) for name, metric in METRICS.items()}
    name_col = header.index("Kernel Name")
    return [({name: number(r[i]) for name, i in col.items()}, r[name_col]) for r in body if len(r) == len(header)]


def convert(device, launch, metrics, function):
    m = metrics
    ideal = int(launch["rows"]) * int(launch["cols"]) * DTYPE_BYTES[launch["dtype"]]
    shared = (m["smem_static"] or 0) + (m["smem_dynamic"] or 0)
    uses_smem = bool(m["smem_ld_requests"] or m["smem_st_requests"])
    conflicts = (m["smem_ld_conflicts"] or 0) + (m["smem_st_conflicts"] or 0)
    return {
        **device, **launch, "function": function,
        "block_size": fmt(m["block_size"], 0), "grid_size": fmt(m["grid_size"], 0),
        "registers": fmt(m["registers"], 0), "shared_bytes": fmt(shared, 0),
        "occupancy_pct": fmt(m["occupancy_pct"]),
        "ld_sectors_per_req": ratio(m["ld_sectors"], m["ld_requests"], 2),
        "st_sectors_per_req": ratio(m["st_sectors"], m["st_requests"], 2),
        "ld_sector_use_pct": fmt(m["ld_sector_use_pct"]), "st_sector_use_pct": fmt(m["st_sector_use_pct"]),
        "smem_ld_wavefronts_per_req": ratio(m["smem_ld_wavefronts"], m["smem_ld_requests"], 2) if uses_smem else "",
        "smem_st_wavefronts_per_req": ratio(m["smem_st_wavefronts"], m["smem_st_requests"], 2) if uses_smem else "",
        "smem_bank_conflicts": fmt(conflicts, 0) if uses_smem else "",
        "dram_read_bytes": fmt(m["dram_read_bytes"], 0), "dram_write_bytes": fmt(m["dram_write_bytes"], 0),
        "ideal_bytes": ideal,
        "dram_read_vs_ideal": ratio(m["dram_read_bytes"], ideal), "dram_write_vs_ideal": ratio(m["dram_write_bytes"], ideal),
        "dram_pct_of_peak": fmt(m["dram_pct_of_peak"]), "l2_hit_pct": fmt(m["l2_hit_pct"]),
        "duration_us": fmt(m["duration_ns"] / 1e3 if m["duration_ns"] is not None else None, 2),
        "l2_bytes": fmt(m["l2_bytes"], 0),
        **{name: fmt(m[name], 2) for name in STALLS},
    }


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    device, launches = read_launches(argv[1])
    profiled = read_profiled(argv[2])
    if len(profiled) != len(launches):
        sys.exit(f"ncu_to_csv: {len(launches)} launches but {len(profiled)} profiled kernels; "
                 "cannot match them one to one")
    with open(argv[3], "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for launch, (metrics, function) in zip(launches, profiled):
            writer.writerow(convert(device, launch, metrics, function))
    print(f"ncu_to_csv: wrote {len(launches)} rows to {argv[3]}")


if __name__ == "__main__":
    main(sys.argv)
