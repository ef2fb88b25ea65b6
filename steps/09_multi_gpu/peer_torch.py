#!/usr/bin/env python3
"""Step 09's peer: the transpose a PyTorch user writes for a matrix split by rows over GPUs,
and PyTorch's all-to-all of the same bytes alone, timed much as 09_multi_gpu times its own.

The PyTorch way, per rank (x: my h x C rows; G ranks; w = C / G columns per rank):
    send = x.view(h, G, w).permute(1, 0, 2).contiguous()    # block j = my rows, rank j's columns
    dist.all_to_all_single(recv, send)                       # recv[i] = rank i's block for me
    out.view(w, G, h).copy_(recv.permute(2, 0, 1))           # each block transposed into place

One process per GPU (torch.multiprocessing), NCCL backend. Before every timed repetition
each GPU flushes its L2 (a read of twice its size) and the ranks meet at a barrier; CUDA events
time each rank; a repetition's time is the slowest rank's; the median of --reps after warm-up.
(09_multi_gpu differs in two ways: no barrier before a repetition, so its times include the
ranks' skew, and the slowest rank's median rather than the median of the slowest ranks.)
Verified once per case against the input read through a transposed view. Appends rows to
--csv in 09_multi_gpu's columns (step "peer"; kernels pytorch_alltoall, pytorch, and its
two copies alone, pytorch_pack and pytorch_unpack; % of all-to-all = pytorch_alltoall's time
/ this time). Needs rows and cols divisible by the GPU count (all_to_all_single with equal
blocks, as such code is usually written).

    python3 steps/09_multi_gpu/peer_torch.py --gpus 2,4 --sizes 65536 --dtype all --csv FILE
"""
import argparse
import os
import socket
import statistics
import sys

COLUMNS = ["gpu", "cc", "cuda", "git_sha", "step", "kernel", "dtype", "rows", "cols", "bytes", "reps",
           "ms_median", "ms_min", "ms_max", "gbps", "pct_of_memcpy", "verified", "gpus"]
DTYPES = ["float", "double", "half", "bf16"]


def parse_shapes(text):
    shapes = []
    for item in text.split(","):
        rows, _, cols = item.partition("x")
        shapes.append((int(rows), int(cols or rows)))
    return shapes


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker(rank, args, port):
    import torch
    import torch.distributed as dist
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=args.g,
                            device_id=torch.device("cuda", rank))
    props = torch.cuda.get_device_properties(rank)
    flush = torch.ones(2 * props.L2_cache_size // 4 + 1, dtype=torch.int32, device="cuda")
    dtypes = {"float": torch.float32, "double": torch.float64, "half": torch.float16, "bf16": torch.bfloat16}
    out_csv = open(args.csv, "a") if (rank == 0 and args.csv) else None
    if out_csv is not None and out_csv.tell() == 0:
        out_csv.write(",".join(COLUMNS) + "\n")
    for dtype_name in args.dtype:
        for rows, cols in args.sizes:
            g = args.g
            if rows % g or cols % g:
                sys.exit(f"peer_torch.py: {rows} x {cols} does not split evenly over {g} GPUs")
            h, w = rows // g, cols // g
            # x = my rows of the matrix whose element (r, c) is (r cols + c) mod 65521 (exact in every dtype
            # up to rounding, the same on both sides of the check), built in int32 pieces
            def pattern(r0, nr, c0, nc):
                r = (torch.arange(r0, r0 + nr, device="cuda", dtype=torch.int64) * cols % 65521).to(torch.int32)
                c = torch.arange(c0, c0 + nc, device="cuda", dtype=torch.int32)
                return (r[:, None] + c[None, :]) % 65521

            x = pattern(rank * h, h, 0, cols).to(dtypes[dtype_name])
            recv = torch.empty(g, h, w, dtype=x.dtype, device="cuda")
            out = torch.empty(w, g * h, dtype=x.dtype, device="cuda")

            def pytorch():
                send = x.view(h, g, w).permute(1, 0, 2).contiguous()
                dist.all_to_all_single(recv, send)
                out.view(w, g, h).copy_(recv.permute(2, 0, 1))  # block i, transposed, into columns i h ..
                return out

            send_once = x.view(h, g, w).permute(1, 0, 2).contiguous()

            def alltoall():
                dist.all_to_all_single(recv, send_once)

            def pack():  # pytorch()'s first line alone
                return x.view(h, g, w).permute(1, 0, 2).contiguous()

            def unpack():  # pytorch()'s last line alone (recv as the exchange left it)
                out.view(w, g, h).copy_(recv.permute(2, 0, 1))

            # Verify: my rows of the transpose are column block `rank` of the whole matrix.
            got = pytorch()
            want = pattern(0, rows, rank * w, w).to(x.dtype).t()  # my columns of the matrix, transposed
            ok = torch.tensor([1.0 if torch.equal(got, want) else 0.0], device="cuda")
            dist.all_reduce(ok, op=dist.ReduceOp.MIN)
            del got, want
            nbytes = 2 * rows * cols * x.element_size()
            results = {}
            for name, call in (("pytorch_alltoall", alltoall), ("pytorch_pack", pack), ("pytorch_unpack", unpack),
                               ("pytorch", pytorch)):
                times = []
                for rep in range(args.warmup + args.reps):
                    flush.sum()
                    dist.barrier()
                    torch.cuda.synchronize()
                    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    start.record()
                    call()
                    stop.record()
                    stop.synchronize()
                    t = torch.tensor([start.elapsed_time(stop)], device="cuda")
                    dist.all_reduce(t, op=dist.ReduceOp.MAX)
                    if rep >= args.warmup:
                        times.append(float(t.item()))
                results[name] = times
            if rank == 0:
                base_ms = statistics.median(results["pytorch_alltoall"])
                for name, times in results.items():
                    med = statistics.median(times)
                    verified = name == "pytorch" and ok.item() == 1.0
                    row = [props.name, f"{props.major}.{props.minor}", torch.version.cuda,
                           os.environ.get("TP_GIT_SHA", "unknown"), "peer", name, dtype_name, rows, cols, nbytes,
                           len(times), f"{med:.4f}", f"{min(times):.4f}", f"{max(times):.4f}",
                           f"{nbytes / med / 1e6:.1f}", f"{100 * base_ms / med:.2f}", str(verified).lower(), g]
                    print(f"{dtype_name} {rows} x {cols} on {g} GPUs: {name:17s} {med:9.3f} ms"
                          f"{'' if name != 'pytorch' or verified else '  FAILED'}", flush=True)
                    if out_csv is not None:
                        out_csv.write(",".join(str(v) for v in row) + "\n")
                        out_csv.flush()
            if name == "pytorch" and ok.item() != 1.0:
                dist.destroy_process_group()
                sys.exit(2)
            del x, recv, out, send_once
            torch.cuda.empty_cache()
    dist.destroy_process_group()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpus", default="2", help="GPU counts, comma separated (default 2)")
    parser.add_argument("--sizes", default="16384", help="N or RxC, comma separated (default 16384)")
    parser.add_argument("--dtype", default="float", help="float,double,half,bf16 or all (default float)")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--csv", default="", help="append rows to this file")
    args = parser.parse_args(argv)
    args.sizes = parse_shapes(args.sizes)
    args.dtype = DTYPES if args.dtype == "all" else args.dtype.split(",")
    import torch.multiprocessing as mp
    for g in (int(n) for n in args.gpus.split(",")):
        args.g = g
        mp.spawn(worker, args=(args, free_port()), nprocs=g, join=True)


if __name__ == "__main__":
    main()
