"""Which addresses one warp touches: the kernels' index maths, rewritten in Python.

The access-pattern diagrams (fig_access.py) and their tests (test_access.py) are computed
from these functions, not drawn by hand. Each function quotes the CUDA lines it mirrors, so
you can check one against the other. The setting is the one the chapters use:

- `float` elements (4 bytes), row-major matrices, base address 0;
- a 32 x 8 thread block; a warp is the 32 threads with consecutive threadIdx.x (the lane)
  and the same threadIdx.y;
- global memory is fetched in 32-byte sectors;
- shared memory has 32 banks, 4 bytes wide: word w lives in bank w % 32.

Every global-access function returns an `Access`: for lane 0..31 of one warp, the element
offset it loads from `in` and the element offset it stores to `out`. Only pure Python here
(no matplotlib), so the tests run anywhere.
"""
from dataclasses import dataclass

ELEM_BYTES = 4            # sizeof(float)
SECTOR_BYTES = 32         # one global-memory sector
WARP = 32                 # threads per warp = lanes
BLOCK_X, BLOCK_Y = 32, 8  # blockDim: kTileCols x kTileRows in steps/00_copy/kernel.cuh
TILE = 32                 # the shared-memory tile of steps 05 and 06: TILE x TILE elements
BANKS = 32                # shared-memory banks
BANK_BYTES = 4            # one bank is 4 bytes wide: one float per bank per row
EXAMPLE_ROWS = EXAMPLE_COLS = 64  # the small matrix the diagrams draw


@dataclass(frozen=True)
class Access:
    """One warp's load and store: element offsets, indexed by lane (threadIdx.x)."""
    load: tuple   # offsets into `in`  (rows x cols, row-major)
    store: tuple  # offsets into `out` (cols x rows for a transpose, rows x cols for the copy)


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


def sectors(offsets, elem_bytes=ELEM_BYTES):
    """The 32-byte sectors that element offsets fall in (sorted, each once). A warp's access
    costs one sector transfer per distinct sector, however many lanes share it."""
    return sorted({off * elem_bytes // SECTOR_BYTES for off in offsets})


def sector_elements(sector, elem_bytes=ELEM_BYTES):
    """The element offsets one sector holds (8 floats)."""
    per = SECTOR_BYTES // elem_bytes
    return range(sector * per, (sector + 1) * per)


# ---- shared memory: banks ---------------------------------------------------------------

LAYOUTS = {
    "unpadded": "float tile[32][32];  element (r, c) at word r * 32 + c",
    "padded":   "float tile[32][33];  element (r, c) at word r * 33 + c",
    "swizzled": "float tile[32][32];  element (r, c) at word r * 32 + (c ^ r)",
}


def smem_word(r, c, layout):
    """The 4-byte word of the tile where element (r, c) is stored (one float per word)."""
    if layout == "unpadded":
        return r * TILE + c            # tile[32][32]: rows 32 words apart
    if layout == "padded":
        return r * (TILE + 1) + c      # tile[32][33]: one unused word at the end of each row
    if layout == "swizzled":
        return r * TILE + (c ^ r)      # XOR swizzle: column c of row r is moved to c ^ r
    raise ValueError(f"unknown layout {layout!r}")


def bank(word):
    """The bank a 4-byte word sits in."""
    return word % BANKS


def column_read(layout, col=0):
    """The words a warp reads for `out[...] = tile[tx][ty + j]` with ty + j = col:
    lane tx reads element (tx, col), a column of the tile."""
    return [smem_word(tx, col, layout) for tx in range(WARP)]


def row_write(layout, row=0):
    """The words a warp writes for `tile[ty + j][tx] = in[...]` with ty + j = row:
    lane tx writes element (row, tx), a row of the tile."""
    return [smem_word(row, tx, layout) for tx in range(WARP)]


def lanes_per_bank(words):
    """For each bank 0..31, how many DISTINCT words the warp asks of it (lanes reading the
    same word share one read: a broadcast)."""
    counts = [0] * BANKS
    for w in set(words):
        counts[bank(w)] += 1
    return counts


def wavefronts(words):
    """Shared-memory wavefronts (passes) one warp access needs: a bank serves one word per
    pass, so the busiest bank decides. 1 = conflict-free; n = an n-way bank conflict."""
    return max(lanes_per_bank(words))
