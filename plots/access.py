"""Which addresses one warp touches: the kernels' index maths, rewritten in Python.

The access-pattern diagrams (fig_access.py) and their tests (test_access.py) are computed
from these functions, not drawn by hand. Each function quotes the CUDA lines it mirrors, so
you can check one against the other. The setting is the one the chapters use:

- `float` elements (4 bytes) by default; every function whose result depends on the element
  size takes `elem_bytes` (DTYPE_BYTES: float 4, double 8, half 2, bf16 2);
- row-major matrices, base address 0;
- a 32 x 8 thread block; a warp is the 32 threads with consecutive threadIdx.x (the lane)
  and the same threadIdx.y;
- global memory is fetched in 32-byte sectors;
- shared memory has 32 banks, 4 bytes wide: word w lives in bank w % 32.

Every global-access function returns an `Access`: for lane 0..31 of one warp, the element
offset it loads from `in` and the element offset it stores to `out` (the first of `width`
adjacent elements where one instruction moves a 16-byte vector: lane_elements() lists them
all, lane by lane). Only pure Python here (no matplotlib), so the tests run anywhere.

At the end, one summary per kernel for the profiler's columns (test_model_vs_profile.py
compares them with docs/results/ncu_*.csv):
- sectors_per_request(kernel, elem_bytes): global-memory sectors per warp load and store
  instruction (`ld_sectors_per_req`, `st_sectors_per_req`);
- smem_wavefronts_per_request(kernel, elem_bytes): shared-memory wavefronts per warp load and
  store instruction (`smem_ld_wavefronts_per_req`, `smem_st_wavefronts_per_req`).
"""
from dataclasses import dataclass
from math import ceil

ELEM_BYTES = 4            # sizeof(float)
SECTOR_BYTES = 32         # one global-memory sector
WARP = 32                 # threads per warp = lanes
BLOCK_X, BLOCK_Y = 32, 8  # blockDim: kTileCols x kTileRows in steps/00_copy/kernel.cuh
TILE = 32                 # the shared-memory tile of steps 05 and 06: TILE x TILE elements
BANKS = 32                # shared-memory banks
BANK_BYTES = 4            # one bank is 4 bytes wide: one float per bank per row
EXAMPLE_ROWS = EXAMPLE_COLS = 64  # the small matrix the diagrams draw
DTYPE_BYTES = {"float": 4, "double": 8, "half": 2, "bf16": 2}  # sizeof(T), as in results.py
VEC_BYTES = 16            # sizeof(uint4): one 16-byte vector load or store
VEC_THREADS = 256         # kVecThreads in steps/00_copy/kernel.cuh: copy_vec16's 1-D blocks
WAVEFRONT_BYTES = BANKS * BANK_BYTES  # one shared-memory wavefront delivers at most 128 bytes


@dataclass(frozen=True)
class Access:
    """One warp's load and store: element offsets, indexed by lane (threadIdx.x)."""
    load: tuple   # offsets into `in`  (rows x cols, row-major)
    store: tuple  # offsets into `out` (cols x rows for a transpose, rows x cols for the copy)
    load_width: int = 1   # elements one lane moves with the instruction: 1, or V = 16 / sizeof(T)
    store_width: int = 1  # for a 16-byte vector (the lane's offset is the vector's first element)


def copy_2d(bx, by, ty, rows=EXAMPLE_ROWS, cols=EXAMPLE_COLS):
    """Step 00, copy_2d, one warp (blockIdx = (bx, by), threadIdx.y = ty):

        const int c = blockIdx.x * kTileCols + threadIdx.x;
        for (int r = blockIdx.y * kTileRows + threadIdx.y; r < rows; ...) {
          const std::size_t i = std::size_t(r) * cols + c;
          out[i] = in[i];
    """
    r = by * BLOCK_Y + ty
    load = tuple(r * cols + (bx * BLOCK_X + tx) for tx in range(WARP))
    return Access(load, load)


def naive_row(bx, by, ty, rows=EXAMPLE_ROWS, cols=EXAMPLE_COLS):
    """Step 01, naive transpose with threads along the INPUT rows:

        r = blockIdx.y * 8 + threadIdx.y;       // input row
        c = blockIdx.x * 32 + threadIdx.x;      // input column: consecutive lanes, consecutive c
        out[c * rows + r] = in[r * cols + c];   // load coalesced, store strided by `rows`
    """
    r = by * BLOCK_Y + ty
    cs = [bx * BLOCK_X + tx for tx in range(WARP)]
    return Access(tuple(r * cols + c for c in cs), tuple(c * rows + r for c in cs))


def naive_col(bx, by, ty, rows=EXAMPLE_ROWS, cols=EXAMPLE_COLS):
    """Step 02, naive transpose with threads along the OUTPUT rows:

        oc   = blockIdx.x * 32 + threadIdx.x;        // output column = input row
        orow = blockIdx.y * 8 + threadIdx.y;         // output row = input column
        out[orow * rows + oc] = in[oc * cols + orow];  // load strided by `cols`, store coalesced
    """
    orow = by * BLOCK_Y + ty
    ocs = [bx * BLOCK_X + tx for tx in range(WARP)]
    return Access(tuple(oc * cols + orow for oc in ocs), tuple(orow * rows + oc for oc in ocs))


def tiled(bx, by, ty, j, rows=EXAMPLE_ROWS, cols=EXAMPLE_COLS):
    """Step 05, transpose through a 32 x 32 shared-memory tile; 32 x 8 threads, so each
    thread handles 4 rows, j = 0, 8, 16, 24. The warp's global accesses for one j:

        tile[ty + j][tx] = in[(by * 32 + ty + j) * cols + bx * 32 + tx];   // a row of in
        __syncthreads();
        out[(bx * 32 + ty + j) * rows + by * 32 + tx] = tile[tx][ty + j]; // a row of out

    Both are rows of 32 consecutive elements: coalesced. The column walk happens in shared
    memory (tile[tx][ty + j]); see column_read() for what that costs there.
    """
    load = tuple((by * TILE + ty + j) * cols + bx * TILE + tx for tx in range(WARP))
    store = tuple((bx * TILE + ty + j) * rows + by * TILE + tx for tx in range(WARP))
    return Access(load, store)


def vec_elements(elem_bytes=ELEM_BYTES):
    """V: the elements of one 16-byte vector (4 float, 2 double, 8 half / bf16)."""
    if VEC_BYTES % elem_bytes:
        raise ValueError(f"an element of {elem_bytes} bytes does not divide a 16-byte vector")
    return VEC_BYTES // elem_bytes


def copy_vec16(block, warp, elem_bytes=ELEM_BYTES):
    """Step 00, copy_vec16 (copy_vec_kernel<T, uint4>, 256 threads per block), warp `warp`
    (threads 32 warp .. 32 warp + 31) of block `block`:

        constexpr std::size_t kPerVec = sizeof(Vec) / sizeof(T);  // elements per vector: 16 / sizeof(T)
        const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
        reinterpret_cast<Vec*>(out)[i] = reinterpret_cast<const Vec*>(in)[i];

    Lane tx moves vector i = element i * V, V = 16 / sizeof(T) elements with one load and one
    store: 512 contiguous bytes per warp whatever T. (The scalar tail, and the scalar
    fallback for misaligned pointers, are not modelled.)
    """
    v = vec_elements(elem_bytes)
    first = tuple((block * VEC_THREADS + warp * WARP + tx) * v for tx in range(WARP))
    return Access(first, first, load_width=v, store_width=v)


def unroll(bx, by, ty, k, K=4, rows=EXAMPLE_ROWS, cols=EXAMPLE_COLS):
    """Step 03, transpose_unroll_kernel<K> (unroll2, unroll4, unroll8), the warp's k-th load and
    k-th store (k = 0 .. K-1) of the first pass of the grid-stride loop:

        constexpr unsigned kRowsPerPass = kTileRows * K;      // output rows one block covers: 8 x K
        const int oc = blockIdx.x * kTileCols + threadIdx.x;  // output column = input row, < rows
        const std::size_t in_row = std::size_t(oc) * cols;  // input row oc starts here (64-bit)
        for (unsigned r0 = blockIdx.y * kRowsPerPass + threadIdx.y; r0 < out_rows; r0 += stride) {
          const unsigned orow = r0 + k * kTileRows;       // output row = input column: 8 apart
          v[k] = in[in_row + orow];                       // load (oc, orow): lanes `cols` apart
          out[std::size_t(orow) * rows + oc] = v[k];      // store: lanes adjacent

    Every instruction has naive_col's pattern (the loads strided, the stores a row); only how
    many are in flight changes.
    """
    orow = by * BLOCK_Y * K + ty + k * BLOCK_Y
    ocs = [bx * BLOCK_X + tx for tx in range(WARP)]
    return Access(tuple(oc * cols + orow for oc in ocs), tuple(orow * rows + oc for oc in ocs))


def vec16_store(bx, by, ty, k, rows=EXAMPLE_ROWS, cols=EXAMPLE_COLS, elem_bytes=ELEM_BYTES):
    """Step 04, vec16_store_kernel<T, true> (16-byte aligned output rows), the warp's k-th load
    (k = 0 .. V-1) and its one 16-byte store, first pass of the grid-stride loop:

        constexpr int kV = 16 / sizeof(T);  // elements per chunk: 4 float, 2 double, 8 half / bf16
        const int chunk = blockIdx.x * kBlockX + threadIdx.x;  // which kV-element chunk of an output row
        const int oc = chunk * kV;                             // first output column = first input row
        for (unsigned orow = blockIdx.y * kBlockY + threadIdx.y; orow < unsigned(cols); orow += stride) {
          const T* src = in + std::size_t(oc) * cols + orow;  // in[oc][orow]; in[oc + k][orow] is k * cols further
          T* dst = out + std::size_t(orow) * rows + oc;       // out[orow][oc .. oc + kV - 1]: kV adjacent elements
          if (k < n) v[k] = src[std::size_t(k) * cols];  // kV input rows, one column: strided loads
          *reinterpret_cast<uint4*>(dst) = packed;  // ONE 16-byte store (dst is 16-byte aligned)

    Load k: lane tx reads input row (bx * 32 + tx) * V + k, lanes V rows apart: 32 rows, 32
    sectors. The store: 32 lanes x 16 bytes of one output row, 512 contiguous bytes. The same
    store is returned for every k (the kernel issues it once, after the V loads).
    """
    v = vec_elements(elem_bytes)
    orow = by * BLOCK_Y + ty
    ocs = [(bx * BLOCK_X + tx) * v for tx in range(WARP)]
    return Access(tuple((oc + k) * cols + orow for oc in ocs), tuple(orow * rows + oc for oc in ocs),
                  load_width=1, store_width=v)


def sectors(offsets, elem_bytes=ELEM_BYTES, width=1):
    """The 32-byte sectors that element offsets fall in (sorted, each once). A warp's access
    costs one sector transfer per distinct sector, however many lanes share it. With
    width > 1, each lane touches `width` adjacent elements from its offset on (a vector)."""
    if width == 1 and SECTOR_BYTES % elem_bytes == 0:  # an aligned element lies in one sector
        return sorted({off * elem_bytes // SECTOR_BYTES for off in offsets})
    touched = set()
    for off in offsets:
        first, last = off * elem_bytes, (off + width) * elem_bytes - 1  # the lane's bytes
        touched.update(range(first // SECTOR_BYTES, last // SECTOR_BYTES + 1))
    return sorted(touched)


def sector_elements(sector, elem_bytes=ELEM_BYTES):
    """The element offsets one sector holds (8 floats)."""
    per = SECTOR_BYTES // elem_bytes
    return range(sector * per, (sector + 1) * per)


def lane_elements(offsets, width=1):
    """(element offset, lane) for every element one warp instruction moves, lane by lane:
    lane l moves `width` adjacent elements from offsets[l] on (V of them for a 16-byte
    vector, so vec16_store's store gives lane 0 elements 0..3 of its chunk for float)."""
    return [(off + e, lane) for lane, off in enumerate(offsets) for e in range(width)]


# ---- shared memory: banks ---------------------------------------------------------------

LAYOUTS = {
    "unpadded": "float tile[32][32];  element (r, c) at word r * 32 + c",
    "padded":   "float tile[32][33];  element (r, c) at word r * 33 + c",
    "swizzled": "float tile[32][32];  element (r, c) at word r * 32 + (c ^ r)",
}


def smem_word(r, c, layout):
    """The 4-byte word of the tile where element (r, c) is stored (one float per word).
    For any T this is also the element's index in the tile array, r * pitch + column."""
    if layout == "unpadded":
        return r * TILE + c            # tile[32][32]: rows 32 words apart
    if layout == "padded":
        return r * (TILE + 1) + c      # tile[32][33]: one unused word at the end of each row
    if layout == "swizzled":
        return r * TILE + (c ^ r)      # XOR swizzle: column c of row r is moved to c ^ r
    raise ValueError(f"unknown layout {layout!r}")


def smem_words(r, c, layout, elem_bytes=ELEM_BYTES):
    """The 4-byte words element (r, c) of a `T tile[32][pitch]` occupies: one for float, half
    of one for half / bf16 (two neighbours share a word), two for double."""
    first_byte = smem_word(r, c, layout) * elem_bytes  # the element index, in bytes
    return range(first_byte // BANK_BYTES, (first_byte + elem_bytes - 1) // BANK_BYTES + 1)


def bank(word):
    """The bank a 4-byte word sits in."""
    return word % BANKS


def column_read(layout, col=0, elem_bytes=ELEM_BYTES):
    """The words a warp reads for `out[...] = tile[tx][ty + j]` with ty + j = col:
    lane tx reads element (tx, col), a column of the tile. For elem_bytes > 4, each lane
    contributes all the words of its element."""
    return [w for tx in range(WARP) for w in smem_words(tx, col, layout, elem_bytes)]


def row_write(layout, row=0, elem_bytes=ELEM_BYTES):
    """The words a warp writes for `tile[ty + j][tx] = in[...]` with ty + j = row:
    lane tx writes element (row, tx), a row of the tile."""
    return [w for tx in range(WARP) for w in smem_words(row, tx, layout, elem_bytes)]


def lanes_per_bank(words):
    """For each bank 0..31, how many DISTINCT words the warp asks of it (lanes reading the
    same word share one read: a broadcast)."""
    counts = [0] * BANKS
    for w in set(words):
        counts[bank(w)] += 1
    return counts


def wavefronts(words, request_bytes=0):
    """Shared-memory wavefronts (passes) one warp access needs: a bank serves one word per
    pass, so the busiest bank decides. 1 = conflict-free; n = an n-way bank conflict.
    A wavefront also delivers at most 128 bytes (32 banks x 4 bytes), so a warp request of
    `request_bytes` needs at least ceil(request_bytes / 128): 2 for 32 doubles."""
    return max(max(lanes_per_bank(words)), ceil(request_bytes / WAVEFRONT_BYTES))


# ---- step 07: wide tiles, 16-byte chunks and the chunk swizzle -----------------------------
#
# Step 07's tile has 256-byte rows (256 / sizeof(T) elements). Its store phase's k-th read:
# lane q (0 to 15) reads tile row q V + k in tile column j, lanes 16 to 31 the same rows in
# column j + 1 (V = 16 / sizeof(T) elements per 16-byte chunk). The chunk swizzle keeps chunks
# whole: chunk c / V of tile row r is stored at chunk (c / V) XOR ((r / V) mod 8).

def chunk_slot(r, c, swizzle, elem_bytes=ELEM_BYTES):
    """The shared-memory column of step 07's tile element (r, c) (slot() in wide.cuh)."""
    v = 16 // elem_bytes
    return c ^ (((r // v) & 7) * v) if swizzle else c


def store_phase_read(swizzle, k=0, j=0, elem_bytes=ELEM_BYTES):
    """The 4-byte words one warp reads in step 07's store phase (read k of tile columns j and
    j + 1), lane by lane; a word per lane for float, part of one for 2-byte types, two for double."""
    v, side = 16 // elem_bytes, 256 // elem_bytes
    words = []
    for lane in range(WARP):
        r, c = (lane % 16) * v + k, j + lane // 16
        first = (r * side + chunk_slot(r, c, swizzle, elem_bytes)) * elem_bytes
        words += range(first // BANK_BYTES, (first + elem_bytes - 1) // BANK_BYTES + 1)
    return words


# ---- per kernel: what the profiler counts -------------------------------------------------
#
# The profiler's `*_per_req` columns are averages over every warp instruction of a launch.
# The functions below average the model over the instructions of a few interior warps
# (every lane in range; at the profiled sizes, 8192 and 16384, every warp is interior), which
# is the whole average when the pattern repeats from warp to warp, as it does in all of them.

KERNELS = {  # kernel (the `kernel` column of the CSVs) -> step
    "copy_2d": "00_copy", "copy_vec16": "00_copy",
    "naive_row": "01_naive_row", "naive_col": "02_naive_col",
    "unroll2": "03_unroll", "unroll4": "03_unroll", "unroll8": "03_unroll",
    "vec16_store": "04_vectorize",
    "shared_32x8": "05_shared", "padded_32x8": "06_padded", "swizzled_32x8": "06_padded",
}
SMEM_LAYOUT = {"shared_32x8": "unpadded", "padded_32x8": "padded", "swizzled_32x8": "swizzled"}
UNROLL_K = {"unroll2": 2, "unroll4": 4, "unroll8": 8}
SAMPLE_BLOCKS = range(3)  # blockIdx.x and blockIdx.y values sampled (then every threadIdx.y)


def warp_instructions(kernel, rows, cols, elem_bytes=ELEM_BYTES):
    """The sampled warps' global accesses of a kernel, one Access per (warp, instruction
    index): the warp's load and store of one element per lane (j or k), or of one vector."""
    bs, tys = SAMPLE_BLOCKS, range(BLOCK_Y)
    if kernel == "copy_2d":
        return [copy_2d(bx, by, ty, rows, cols) for bx in bs for by in bs for ty in tys]
    if kernel == "copy_vec16":
        return [copy_vec16(b, w, elem_bytes) for b in bs for w in range(VEC_THREADS // WARP)]
    if kernel == "naive_row":
        return [naive_row(bx, by, ty, rows, cols) for bx in bs for by in bs for ty in tys]
    if kernel == "naive_col":
        return [naive_col(bx, by, ty, rows, cols) for bx in bs for by in bs for ty in tys]
    if kernel in UNROLL_K:
        K = UNROLL_K[kernel]
        return [unroll(bx, by, ty, k, K, rows, cols) for bx in bs for by in bs for ty in tys for k in range(K)]
    if kernel == "vec16_store":
        ks = range(vec_elements(elem_bytes))
        return [vec16_store(bx, by, ty, k, rows, cols, elem_bytes) for bx in bs for by in bs for ty in tys for k in ks]
    if kernel in SMEM_LAYOUT:  # the global side of steps 05 and 06: tile rows, both ways
        js = range(0, TILE, BLOCK_Y)
        return [tiled(bx, by, ty, j, rows, cols) for bx in bs for by in bs for ty in tys for j in js]
    raise ValueError(f"no model of kernel {kernel!r}")


def _mean(values):
    values = list(values)
    return sum(values) / len(values)


def sector_counts(kernel, rows, cols, elem_bytes=ELEM_BYTES):
    """(load counts, store counts): 32-byte sectors per sampled warp load and store
    instruction. vec16_store issues V loads and one store per warp and pass: its store is
    counted once per pass, not once per load."""
    accesses = warp_instructions(kernel, rows, cols, elem_bytes)
    loads = [len(sectors(a.load, elem_bytes, a.load_width)) for a in accesses]
    if kernel == "vec16_store":
        accesses = accesses[::vec_elements(elem_bytes)]  # k = 0 of each warp: its one store
    stores = [len(sectors(a.store, elem_bytes, a.store_width)) for a in accesses]
    return loads, stores


def sectors_per_request(kernel, elem_bytes=ELEM_BYTES, rows=8192, cols=8192):
    """(load, store): global-memory sectors per warp instruction, the profiler's
    `ld_sectors_per_req` and `st_sectors_per_req`. For example copy_2d: 4 and 4 for float,
    8 and 8 for double, 2 and 2 for half; naive_row: 4 and 32 for float."""
    loads, stores = sector_counts(kernel, rows, cols, elem_bytes)
    return _mean(loads), _mean(stores)


def smem_wavefront_counts(kernel, elem_bytes=ELEM_BYTES):
    """(load counts, store counts): wavefronts of each shared-memory instruction of a block,
    k = threadIdx.y + j = 0 .. 31, each k once, as the kernels issue them:

        step 05:  tile[k][threadIdx.x] = in[...];                     // store: a tile row
                  out[...] = tile[threadIdx.x][k];                    // load: a tile column
        step 06:  tile[k][slot<kLayout>(k, threadIdx.x)] = in[...];
                  out[...] = tile[threadIdx.x][slot<kLayout>(threadIdx.x, k)];

    slot is c ^ r when swizzled, c otherwise; tile is T[32][33] when padded, T[32][32] else.
    """
    layout = SMEM_LAYOUT.get(kernel)
    if layout is None:
        raise ValueError(f"kernel {kernel!r} uses no shared memory in the model")
    request = WARP * elem_bytes  # every lane moves one element
    loads = [wavefronts(column_read(layout, k, elem_bytes), request) for k in range(TILE)]
    stores = [wavefronts(row_write(layout, k, elem_bytes), request) for k in range(TILE)]
    return loads, stores


def smem_wavefronts_per_request(kernel, elem_bytes=ELEM_BYTES):
    """(load, store): shared-memory wavefronts per warp instruction, the profiler's
    `smem_ld_wavefronts_per_req` and `smem_st_wavefronts_per_req`. For example padded_32x8:
    loads 1 for float, 2 for double (256 bytes), 1.5 for half (odd columns: 2-way)."""
    loads, stores = smem_wavefront_counts(kernel, elem_bytes)
    return _mean(loads), _mean(stores)
