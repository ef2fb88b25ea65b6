#!/usr/bin/env python3
"""Time what users pick instead of writing a transpose: PyTorch eager, torch.compile and CuPy,
measured the way the tutorial measures its own kernels, beside a cudaMemcpy device-to-device
of the same bytes in the same process (kernel cudaMemcpy_torch: torch's copy_ of a contiguous
tensor, a cudaMemcpyAsync).

    python3 scripts/peers.py --csv docs/results/peers_<gpu>_<date>.csv   (after the tour's rows:
        build/bin/tour --dtype all --sizes ... --csv the same file, so ours and theirs are one run)
    python3 scripts/peers.py --sizes 4096,4899,4097x4099 --dtype float,half --reps 20

Method (docs/method.md): bytes = 2 x rows x cols x sizeof(T); before every timed repetition
L2 is flushed by reading a buffer of twice its size; CUDA events around the one call; warm-up
runs first (they include torch.compile's compilation); the median of --reps runs. Every
result is verified bit for bit against the input read through a transposed view (an integer
view). The input is random bits without subnormals, infinities and NaNs (random_values: cuTENSOR
multiplies by alpha = 1, which may change those; the tutorial's own kernels are verified on
any bits); a peer that fails is written with verified=false and
reported. Rows follow the results CSV schema (step "peer", kernel torch_eager, torch_compile,
cupy, cutensor; step "ref", kernel cudaMemcpy_torch); the versions measured go to PATH's
`.versions.txt` beside it. Needs PyTorch with CUDA; CuPy and cuTENSOR are optional
(scripts/peers-requirements.txt). cuTENSOR 2 is called through its C API (ctypes):
cutensorPermute with alpha = 1, found as $TP_CUTENSOR_LIB, in the `cutensor` Python package
(pip's cutensor-cu13) or on the library path; without it the peer is skipped and the
versions file says so.
"""
import argparse
import ctypes
import ctypes.util
import csv
import os
import pathlib
import statistics
import struct
import sys

COLUMNS = ["gpu", "cc", "cuda", "git_sha", "step", "kernel", "dtype", "rows", "cols", "bytes", "reps",
           "ms_median", "ms_min", "ms_max", "gbps", "pct_of_memcpy", "verified"]
DTYPES = ["float", "double", "half", "bf16"]
DEFAULT_SIZES = "2048,4096,8192,16384,4899,11585,4097x4099"


def parse_shapes(text):
    """'4096,4097x4099' -> [(4096, 4096), (4097, 4099)]; a clear error for anything else."""
    shapes = []
    for item in text.split(","):
        parts = item.lower().split("x")
        if len(parts) not in (1, 2) or not all(p.isdigit() and int(p) > 0 for p in parts):
            raise argparse.ArgumentTypeError(f"'{item}' is not N or RxC with positive integers")
        rows, cols = int(parts[0]), int(parts[-1])
        shapes.append((rows, cols))
    return shapes


def parse_dtypes(text):
    names = DTYPES if text == "all" else text.split(",")
    for name in names:
        if name not in DTYPES:
            raise argparse.ArgumentTypeError(f"unknown dtype '{name}' (float, double, half, bf16 or all)")
    return names


def summarize(times_ms, nbytes):
    """(median, min, max, GB/s of the median) of a list of milliseconds."""
    median = statistics.median(times_ms)
    return median, min(times_ms), max(times_ms), nbytes / (median * 1e-3) / 1e9


def csv_row(device, name, step, dtype, shape, nbytes, reps, times_ms, memcpy_gbps, verified):
    median, lo, hi, gbps = summarize(times_ms, nbytes)
    return {**device, "step": step, "kernel": name, "dtype": dtype, "rows": shape[0], "cols": shape[1],
            "bytes": nbytes, "reps": reps, "ms_median": f"{median:.6f}", "ms_min": f"{lo:.6f}",
            "ms_max": f"{hi:.6f}", "gbps": f"{gbps:.2f}", "pct_of_memcpy": f"{100 * gbps / memcpy_gbps:.2f}",
            "verified": "true" if verified else "false"}


class Gpu:
    """The timing side, on torch's current CUDA device."""

    def __init__(self, torch):
        self.torch = torch
        props = torch.cuda.get_device_properties(0)
        # Twice L2, read before every timed call: the next call starts with a cold cache.
        self.flush = torch.empty(2 * props.L2_cache_size // 4 + 1, dtype=torch.int32, device="cuda")
        self.flush.fill_(1)
        self.device = {"gpu": props.name, "cc": f"{props.major}.{props.minor}", "cuda": torch.version.cuda,
                       "git_sha": os.environ.get("TP_GIT_SHA", "unknown")}

    def time(self, call, reps, warmup=3):
        torch = self.torch
        for _ in range(warmup):
            call()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        times = []
        for _ in range(reps):
            self.flush.sum()
            start.record()
            call()
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop))
        return times


def find_cutensor():
    """Path of libcutensor.so.2 (cuTENSOR 2), or None: $TP_CUTENSOR_LIB, pip's `cutensor`
    package, then the library path."""
    if os.environ.get("TP_CUTENSOR_LIB"):
        return os.environ["TP_CUTENSOR_LIB"]
    try:
        import cutensor  # the wheel's package: cutensor/lib/libcutensor.so.2
        for base in getattr(cutensor, "__path__", []):
            candidate = pathlib.Path(base) / "lib" / "libcutensor.so.2"
            if candidate.exists():
                return str(candidate)
    except ImportError:
        pass
    return ctypes.util.find_library("cutensor")


class CuTensor:
    """cutensorPermute through cuTENSOR 2's C API: B[c, r] = 1 * A[r, c] for a row-major
    rows x cols A, one plan per dtype and shape, made once and reused."""

    # cudaDataType_t, and the compute descriptor's name, per dtype (cuTENSOR's permutation table)
    TYPES = {"float": (0, "CUTENSOR_COMPUTE_DESC_32F"), "double": (1, "CUTENSOR_COMPUTE_DESC_64F"),
             "half": (2, "CUTENSOR_COMPUTE_DESC_16F"), "bf16": (14, "CUTENSOR_COMPUTE_DESC_16BF")}
    OP_IDENTITY, ALGO_DEFAULT, JIT_NONE, SCALAR_TYPE = 1, -1, 0, 1
    ONE = {0: struct.pack("<f", 1.0), 1: struct.pack("<d", 1.0), 2: struct.pack("<e", 1.0),
           14: struct.pack("<H", 0x3F80)}  # alpha = 1 in each scalar type (cudaDataType_t)

    def __init__(self, path, torch):
        self.torch = torch
        self.lib = ctypes.CDLL(path)
        self.lib.cutensorGetErrorString.restype = ctypes.c_char_p
        self.lib.cutensorGetVersion.restype = ctypes.c_size_t
        self.handle = ctypes.c_void_p()
        self.check(self.lib.cutensorCreate(ctypes.byref(self.handle)), "cutensorCreate")
        self.plans = {}

    def version(self):
        v = self.lib.cutensorGetVersion()  # major * 10000 + minor * 100 + patch
        return f"{v // 10000}.{v // 100 % 100}.{v % 100}"

    def check(self, status, what):
        if status != 0:
            raise RuntimeError(f"{what}: {self.lib.cutensorGetErrorString(status).decode()}")

    def plan(self, dtype, rows, cols):
        key = (dtype, rows, cols)
        if key not in self.plans:
            lib, h = self.lib, self.handle
            data_type, compute = self.TYPES[dtype]
            i64 = ctypes.c_int64 * 2
            # Modes: A is (r, c) with c contiguous; B is (c, r) with r contiguous. cuTENSOR's
            # extents and strides list the fastest mode first.
            a, b = ctypes.c_void_p(), ctypes.c_void_p()
            self.check(lib.cutensorCreateTensorDescriptor(h, ctypes.byref(a), 2, i64(cols, rows), i64(1, cols),
                                                          data_type, 16), "tensor A")
            self.check(lib.cutensorCreateTensorDescriptor(h, ctypes.byref(b), 2, i64(rows, cols), i64(1, rows),
                                                          data_type, 16), "tensor B")
            modes_a, modes_b = (ctypes.c_int32 * 2)(ord("c"), ord("r")), (ctypes.c_int32 * 2)(ord("r"), ord("c"))
            op, pref, plan = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
            descriptor = ctypes.c_void_p.in_dll(lib, compute)
            self.check(lib.cutensorCreatePermutation(h, ctypes.byref(op), a, modes_a, self.OP_IDENTITY, b, modes_b,
                                                     descriptor), "cutensorCreatePermutation")
            scalar = ctypes.c_int32()  # alpha's type follows the compute descriptor
            self.check(lib.cutensorOperationDescriptorGetAttribute(h, op, self.SCALAR_TYPE, ctypes.byref(scalar),
                                                                   ctypes.c_size_t(4)), "scalar type")
            self.check(lib.cutensorCreatePlanPreference(h, ctypes.byref(pref), self.ALGO_DEFAULT, self.JIT_NONE),
                       "cutensorCreatePlanPreference")
            self.check(lib.cutensorCreatePlan(h, ctypes.byref(plan), op, pref, ctypes.c_uint64(0)),
                       "cutensorCreatePlan")
            alpha = ctypes.create_string_buffer(self.ONE[scalar.value], len(self.ONE[scalar.value]))
            self.plans[key] = (plan, alpha)
        return self.plans[key]

    def transpose(self, x, dtype):
        """A new contiguous tensor holding x (rows x cols, contiguous) transposed."""
        rows, cols = x.shape
        y = self.torch.empty((cols, rows), dtype=x.dtype, device=x.device)
        plan, alpha = self.plan(dtype, rows, cols)
        stream = ctypes.c_void_p(self.torch.cuda.current_stream().cuda_stream)
        self.check(self.lib.cutensorPermute(self.handle, plan, alpha,
                                            ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(y.data_ptr()), stream),
                   "cutensorPermute")
        return y


def peers(torch, cupy, cutensor):
    """name -> f(x, dtype) returning x transposed into a new contiguous array, for the
    libraries present."""
    compiled = torch.compile(lambda x: x.t().contiguous(), dynamic=False)
    found = {"torch_eager": lambda x, dtype: x.t().contiguous(),
             "torch_compile": lambda x, dtype: compiled(x)}
    if cupy is not None:  # CuPy's copy, handed back to torch without a copy (DLPack)
        found["cupy"] = lambda x, dtype: torch.as_tensor(cupy.ascontiguousarray(cupy.asarray(x).T), device="cuda")
    if cutensor is not None:
        found["cutensor"] = cutensor.transpose
    return found


# (exponent bits, mantissa bits) of each type
FORMATS = {"float": (8, 23), "double": (11, 52), "half": (5, 10), "bf16": (8, 7)}


def random_values(torch, shape, dtype, gen):
    """A rows x cols tensor of `dtype` with random bits, except that every exponent field of
    all zeros or all ones (subnormals, infinities, NaNs) is set to 1: cuTENSOR computes
    alpha x A, and a multiply may quiet a NaN or flush a subnormal. Returns the tensor and the
    integer type of the same size, to compare bits."""
    types = {"float": torch.float32, "double": torch.float64, "half": torch.float16, "bf16": torch.bfloat16}
    exponent_bits, mantissa_bits = FORMATS[dtype]
    size = (1 + exponent_bits + mantissa_bits) // 8
    ints = {2: torch.int16, 4: torch.int32, 8: torch.int64}[size]
    bound = 2 ** min(8 * size - 1, 62)
    x = torch.randint(-bound, bound, shape, dtype=ints, device="cuda", generator=gen)
    return finite_normal(x, dtype, torch.where).view(types[dtype]), ints


def finite_normal(bits, dtype, where):
    """Integer bit patterns of `dtype` with every exponent field of all zeros or all ones set
    to 1 (`where`: torch.where or numpy.where, so the CPU tests run it too)."""
    exponent_bits, mantissa_bits = FORMATS[dtype]
    field = ((1 << exponent_bits) - 1) << mantissa_bits  # the exponent's bits
    if field >= 1 << 63:  # double: as a signed 64-bit integer
        field -= 1 << 64
    exponent = bits & field
    special = (exponent == 0) | (exponent == field)
    return where(special, (bits & ~field) | (1 << mantissa_bits), bits)


def describe_mismatch(torch, y, expected, x, ints):
    """Why a result failed: how many elements differ, and whether y is the input untransposed."""
    if y.shape != expected.shape:
        return f"shape {tuple(y.shape)}, expected {tuple(expected.shape)}"
    wrong = int((y.view(ints) != expected).sum())
    copy = y.numel() == x.numel() and torch.equal(y.reshape(x.shape).view(ints), x.view(ints))
    return f"{wrong} of {y.numel()} elements differ" + (" (it is the input, not transposed)" if copy else "")


def measure_case(torch, gpu, candidates, dtype, shape, reps):
    """cudaMemcpy of the bytes, then every peer, on one dtype and shape: (CSV rows, failures)."""
    x, ints = random_values(torch, shape, dtype, torch.Generator(device="cuda").manual_seed(2024))
    nbytes = 2 * x.numel() * x.element_size()
    copy = torch.empty_like(x)
    memcpy = gpu.time(lambda: copy.copy_(x), reps)  # contiguous, same type: a cudaMemcpyAsync D2D
    memcpy_gbps = summarize(memcpy, nbytes)[3]
    rows = [csv_row(gpu.device, "cudaMemcpy_torch", "ref", dtype, shape, nbytes, reps, memcpy, memcpy_gbps,
                    torch.equal(copy.view(ints), x.view(ints)))]
    expected, failures = x.view(ints).t(), []
    for name, f in candidates.items():
        if name == "cupy" and dtype == "bf16":
            continue  # CuPy has no bfloat16
        try:
            y = f(x, dtype)
            ok = y.shape == expected.shape and y.is_contiguous() and torch.equal(y.view(ints), expected)
            why = "" if ok else describe_mismatch(torch, y, expected, x, ints)
            times = gpu.time(lambda: f(x, dtype), reps)
        except Exception as e:  # a peer that cannot run this case is reported, not hidden
            failures.append(f"{name} {dtype} {shape[0]}x{shape[1]}: {type(e).__name__}: {e}")
            continue
        rows.append(csv_row(gpu.device, name, "peer", dtype, shape, nbytes, reps, times, memcpy_gbps, ok))
        if not ok:
            failures.append(f"{name} {dtype} {shape[0]}x{shape[1]}: FAILED verification: {why}")
        print(f"{name:14} {dtype:6} {shape[0]:>5}x{shape[1]:<5} {float(rows[-1]['gbps']):8.1f} GB/s "
              f"{float(rows[-1]['pct_of_memcpy']):6.1f}% of cudaMemcpy{'' if ok else '  FAILED'}", flush=True)
    return rows, failures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=parse_shapes, default=parse_shapes(DEFAULT_SIZES),
                        help=f"N for N x N or RxC, comma separated (default {DEFAULT_SIZES})")
    parser.add_argument("--dtype", type=parse_dtypes, default=DTYPES, help="float,double,half,bf16 or all")
    parser.add_argument("--reps", type=int, default=20, help="timed repetitions (median reported)")
    parser.add_argument("--csv", type=pathlib.Path, help="append one row per result to this file")
    args = parser.parse_args(argv)
    if args.reps < 1:
        parser.error("--reps must be at least 1")
    try:
        import torch
    except ImportError:
        sys.exit("peers.py needs PyTorch with CUDA: pip install -r scripts/peers-requirements.txt")
    if not torch.cuda.is_available():
        sys.exit("peers.py: no CUDA device visible to PyTorch")
    try:
        import cupy
    except ImportError:
        cupy = None
    torch._dynamo.config.cache_size_limit = 1024  # one compiled graph per dtype and shape
    if hasattr(torch._dynamo.config, "recompile_limit"):
        torch._dynamo.config.recompile_limit = 1024

    cutensor_path, cutensor = find_cutensor(), None
    if cutensor_path:
        try:
            cutensor = CuTensor(cutensor_path, torch)
        except (OSError, RuntimeError) as e:  # present but unusable: say so, measure the rest
            print(f"warning: cuTENSOR at {cutensor_path} cannot be used: {e}", file=sys.stderr)
    gpu = Gpu(torch)
    candidates = peers(torch, cupy, cutensor)
    rows_out, failures = [], []
    for dtype in args.dtype:
        for shape in args.sizes:
            rows, failed = measure_case(torch, gpu, candidates, dtype, shape, args.reps)
            rows_out += rows
            failures += failed
            torch.cuda.empty_cache()
    if args.csv:
        new = not args.csv.exists()
        with args.csv.open("a", newline="") as f:
            writer = csv.DictWriter(f, COLUMNS)
            if new:
                writer.writeheader()
            writer.writerows(rows_out)
        versions = [f"torch {torch.__version__} (CUDA {torch.version.cuda})", f"triton {triton_version()}",
                    f"cupy {cupy.__version__}" if cupy else "cupy: not installed",
                    f"cutensor {cutensor.version()}" if cutensor else "cutensor: not installed"]
        args.csv.with_suffix(".versions.txt").write_text("\n".join(versions) + "\n")
    for line in failures:
        print("error:", line, file=sys.stderr)
    return 1 if failures else 0


def triton_version():
    try:
        import triton
        return triton.__version__
    except ImportError:
        return "not installed"


if __name__ == "__main__":
    sys.exit(main())
