"""Access-pattern diagrams, computed from the index maths in access.py (no CSV needed).

access_*: a small float matrix drawn cell by cell; the elements one warp loads (left, from
`in`) and stores (right, to `out`) are coloured by lane, the rest of the block is grey, and
every 32-byte sector the warp's instruction touches has a red box around it. access_unroll
(step 03) and access_vec16_store (step 04) draw all of the warp's loads and stores, k = 0, 1,
...: labelled with k in access_unroll, numbered with k in access_vec16_store's close-ups.

banks_*: the same 32 x 32 tile as the code indexes it and as it lies in the 32 shared-memory
banks, for a warp that reads one column of it, with how many words each bank must deliver.
"""
import matplotlib
import matplotlib.pyplot as plt
from matplotlib.cm import ScalarMappable
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.colors import Normalize
from matplotlib.lines import Line2D
from matplotlib.patches import ConnectionPatch, Patch, Rectangle
from matplotlib.ticker import MaxNLocator

import access
import style

LANES = matplotlib.colormaps["viridis"]
LANE_NORM = Normalize(0, access.WARP - 1)
BLOCK_GREY = "#d4d4d4"
SECTOR_RED = "#d62728"
PER_SECTOR = access.SECTOR_BYTES // access.ELEM_BYTES  # 8 floats in a 32-byte sector
ACCESS_FIGSIZE = (12, 6.8)  # every access_* figure


def lane_colour(lane):
    return LANES(LANE_NORM(lane))


def _text_colour(rgba):
    """Black or white, whichever reads better on a cell of colour rgba."""
    r, g, b = rgba[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


def _cells(ax, cells, colours, **kw):
    """Unit squares at (column, row) positions, one colour each."""
    if cells:
        ax.add_collection(PatchCollection([Rectangle(c, 1, 1) for c in cells], facecolor=colours,
                                          edgecolor="none", **kw))


def _grid(ax, rows, cols, major_x=None, square=True):
    """Thin lines around every cell; a darker line every `major_x` columns."""
    light = [[(x, 0), (x, rows)] for x in range(cols + 1) if not (major_x and x % major_x == 0)]
    light += [[(0, y), (cols, y)] for y in range(rows + 1)]
    ax.add_collection(LineCollection(light, colors="#e2e2e2", linewidths=0.4, zorder=1))
    if major_x:
        strong = [[(x, 0), (x, rows)] for x in range(0, cols + 1, major_x)]
        ax.add_collection(LineCollection(strong, colors="#888888", linewidths=0.7, zorder=1))
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)  # row 0 at the top, as a matrix is written
    if square:
        ax.set_aspect("equal")
    ax.grid(False)
    for side in ("top", "right"):
        ax.spines[side].set_visible(True)


# ---- global memory: one warp's load and store -------------------------------------------------

# The example warp of each diagram: a block away from the corner, so the index maths shows.
PATTERNS = {
    "access_copy": dict(
        fn=access.copy_2d, warp=dict(bx=1, by=1, ty=2), block=dict(ty=range(access.BLOCK_Y)),
        title="Step 00, copy_2d: one warp copies 32 consecutive floats of a row",
        load="in[r*cols + c]", store="out[r*cols + c]",
        where="r = blockIdx.y*8 + threadIdx.y,  c = blockIdx.x*32 + threadIdx.x"),
    "access_naive_row": dict(
        fn=access.naive_row, warp=dict(bx=1, by=1, ty=2), block=dict(ty=range(access.BLOCK_Y)),
        title="Step 01, naive transpose along input rows: the load is coalesced, the store is not",
        load="in[r*cols + c]", store="out[c*rows + r]",
        where="r = blockIdx.y*8 + threadIdx.y,  c = blockIdx.x*32 + threadIdx.x"),
    "access_naive_col": dict(
        fn=access.naive_col, warp=dict(bx=1, by=1, ty=2), block=dict(ty=range(access.BLOCK_Y)),
        title="Step 02, naive transpose along output rows: the store is coalesced, the load is not",
        load="in[oc*cols + orow]", store="out[orow*rows + oc]",
        where="oc = blockIdx.x*32 + threadIdx.x,  orow = blockIdx.y*8 + threadIdx.y"),
    "access_tiled": dict(
        fn=access.tiled, warp=dict(bx=1, by=0, ty=2, j=0),
        block=dict(ty=range(access.BLOCK_Y), j=range(0, access.TILE, access.BLOCK_Y)),
        title="Step 05, tiled transpose: both global accesses are rows (the column walk is in shared memory)",
        load="in[(r0 + k)*cols + c0 + x]", store="out[(c0 + k)*rows + r0 + x]",
        where="r0, c0 = the tile's corner,  x = threadIdx.x,  k = threadIdx.y + 8j:  "
              "tile[k][x] = in[...];  __syncthreads();  out[...] = tile[x][k]"),
}


def _block_offsets(p):
    """Every (load, store) element of the example warp's whole block (all its warps, all j
    or k; every element of a 16-byte vector)."""
    loads, stores = set(), set()
    fixed = {k: v for k, v in p["warp"].items() if k not in p["block"]}
    keys = list(p["block"])
    def walk(i, args):
        if i == len(keys):
            a = p["fn"](**fixed, **args)
            loads.update(off for off, _ in access.lane_elements(a.load, a.load_width))
            stores.update(off for off, _ in access.lane_elements(a.store, a.store_width))
            return
        for v in p["block"][keys[i]]:
            walk(i + 1, {**args, keys[i]: v})
    walk(0, {})
    return loads, stores


def _warp_cells(ax, cols, offsets, width=1):
    """One warp instruction's elements on a matrix `cols` wide, coloured by lane (a lane that
    moves a `width`-element vector colours all of them)."""
    pairs = access.lane_elements(offsets, width)
    _cells(ax, [(o % cols, o // cols) for o, _ in pairs], [lane_colour(lane) for _, lane in pairs],
           zorder=2)


def _sector_boxes(ax, cols, touched):
    """A red box around each sector in `touched` (a sector never spans two rows here: cols is
    a multiple of 8)."""
    for s in touched:
        first = s * PER_SECTOR
        ax.add_patch(Rectangle((first % cols, first // cols), PER_SECTOR, 1, fill=False,
                               edgecolor=SECTOR_RED, linewidth=1.6, zorder=3))


def _matrix(ax, rows, cols, block, instructions, width=1):
    """One matrix: the block in grey, the elements of each of the warp's instructions (a tuple
    of lane offsets each) by lane, and the sectors each touches boxed. Returns each
    instruction's sectors."""
    warp = {o for offsets in instructions for o, _ in access.lane_elements(offsets, width)}
    _cells(ax, [(o % cols, o // cols) for o in sorted(block - warp)], BLOCK_GREY, zorder=0)
    for offsets in instructions:
        _warp_cells(ax, cols, offsets, width)
    _grid(ax, rows, cols, major_x=PER_SECTOR)
    touched = [access.sectors(offsets, width=width) for offsets in instructions]
    for sectors in touched:
        _sector_boxes(ax, cols, sectors)
    ax.set_xticks(range(0, cols + 1, 16))
    ax.set_yticks(range(0, rows + 1, 16))
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    return touched


def _bytes(n_sectors, n_elements):
    """(bytes moved, bytes used): one warp instruction that touches n_sectors sectors to move
    n_elements floats."""
    return n_sectors * access.SECTOR_BYTES, n_elements * access.ELEM_BYTES


def _usefulness(n_sectors, n_elements):
    """'1024 B of sectors touched for 128 B used (12.5% useful)': one warp instruction (a load
    moves the sectors' bytes; a store sends only the bytes written, into as many sectors)."""
    fetched, used = _bytes(n_sectors, n_elements)
    return f"{fetched} B of sectors touched for {used} B used ({100 * used / fetched:g}% useful)"


def _matrix_panel(ax, rows, cols, warp, block, name, code):
    """One matrix: the block in grey, the warp's elements by lane, its sectors boxed."""
    touched, = _matrix(ax, rows, cols, block, [warp])
    ax.set_title(f"{name}  {code}\n{len(touched)} sectors: {_usefulness(len(touched), access.WARP)}",
                 fontsize=10)
    return len(touched)


def _lane_colourbar(fig, axes):
    fig.colorbar(ScalarMappable(LANE_NORM, LANES), ax=axes, shrink=0.55, pad=0.02,
                 label="lane = threadIdx.x of the warp (0-31)")


def _legend(fig, *extra):
    """What grey, the red boxes and the dark lines mean (and `extra` handles), under the figure."""
    handles = [Patch(color=BLOCK_GREY, label="the rest of the same thread block"),
               Patch(fill=False, edgecolor=SECTOR_RED, linewidth=1.6,
                     label=f"a {access.SECTOR_BYTES}-byte sector the warp touches "
                           f"({PER_SECTOR} floats)"),
               Line2D([], [], color="#888888", linewidth=0.7, label="sector boundaries"), *extra]
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=len(handles),
               frameon=False)


def access_figure(name):
    p = PATTERNS[name]
    rows, cols = access.EXAMPLE_ROWS, access.EXAMPLE_COLS
    assert cols % PER_SECTOR == 0 and rows % PER_SECTOR == 0
    a = p["fn"](**p["warp"])
    block_load, block_store = _block_offsets(p)
    out_rows, out_cols = (rows, cols) if name == "access_copy" else (cols, rows)

    fig, (left, right) = plt.subplots(1, 2, figsize=ACCESS_FIGSIZE, layout="constrained")
    n_load = _matrix_panel(left, rows, cols, a.load, block_load,
                           f"load from in ({rows} x {cols}):", p["load"])
    n_store = _matrix_panel(right, out_rows, out_cols, a.store, block_store,
                            f"store to out ({out_rows} x {out_cols}):", p["store"])
    _lane_colourbar(fig, [left, right])
    w = p["warp"]
    block = f"block ({w['bx']}, {w['by']}), threadIdx.y = {w['ty']}" + (f", j = {w['j']}" if "j" in w else "")
    fig.suptitle(f"{p['title']}\nload: {n_load} sectors, store: {n_store} sectors "
                 f"(one warp: {block}; float, {access.SECTOR_BYTES}-byte sectors)")
    _legend(fig)
    style.caption(fig, "index maths: " + p["where"], y=-0.05)
    return fig


# ---- global memory: all of one warp's instructions (steps 03 and 04) ------------------------

UNROLL_KERNEL = "unroll4"  # step 03's headline kernel: transpose = transpose_unroll<4>
UNROLL_K = access.UNROLL_K[UNROLL_KERNEL]
UNROLL = dict(fn=access.unroll, warp=dict(bx=1, by=1, ty=2, K=UNROLL_K),
              block=dict(ty=range(access.BLOCK_Y), k=range(UNROLL_K)))

V = access.vec_elements()  # 4 floats in a 16-byte chunk
VEC16_ROWS, VEC16_COLS = access.WARP * V, 32  # in: 128 x 32, as one warp's 32 chunks span 128 rows
VEC16 = dict(fn=access.vec16_store, warp=dict(bx=0, by=1, ty=2, rows=VEC16_ROWS, cols=VEC16_COLS),
             block=dict(ty=range(access.BLOCK_Y), k=range(V)))
CLOSE_UP_LANES = 2  # the close-ups show lanes 0 and 1: 2 x 4 floats = one sector of out
VEC16_OROW = VEC16["warp"]["by"] * access.BLOCK_Y + VEC16["warp"]["ty"]  # the warp's output row: 10
# The close-ups' windows, (first row, first column, rows, columns): input rows 0-7 (lanes 0
# and 1) of the sector holding column orow; and the block's output rows 8-15, columns 0-7.
IN_WINDOW = (0, VEC16_OROW - VEC16_OROW % PER_SECTOR, CLOSE_UP_LANES * V, PER_SECTOR)
OUT_WINDOW = (VEC16_OROW - VEC16_OROW % access.BLOCK_Y, 0, access.BLOCK_Y, CLOSE_UP_LANES * V)


def _sectors_each(touched):
    """How many sectors each instruction touches (the same for all of a warp's instructions)."""
    counts = {len(sectors) for sectors in touched}
    assert len(counts) == 1, f"instructions differ: {counts}"
    return counts.pop()


def _label_above(ax, cols, offsets, text):
    """`text` just above the topmost of `offsets` (a strided access: a column of elements)."""
    top = min(offsets)
    ax.text(top % cols + 0.5, top // cols - 0.4, text, ha="center", va="bottom", fontsize=9)


def _label_left(ax, cols, offsets, text):
    """`text` just left of the first of `offsets` (a coalesced access: a run along a row)."""
    first = min(offsets)
    ax.text(first % cols - 0.6, first // cols + 0.5, text, ha="right", va="center", fontsize=9)


def unroll_figure():
    """Step 03, unroll4: one warp's K loads (columns of `in`, 8 apart) and K stores (rows of
    `out`, 8 apart), each labelled with its k. Every one of them has step 02's pattern."""
    rows, cols = access.EXAMPLE_ROWS, access.EXAMPLE_COLS
    steps = [access.unroll(**UNROLL["warp"], k=k) for k in range(UNROLL_K)]
    block_load, block_store = _block_offsets(UNROLL)

    fig, (left, right) = plt.subplots(1, 2, figsize=ACCESS_FIGSIZE, layout="constrained")
    n_load = _sectors_each(_matrix(left, rows, cols, block_load, [a.load for a in steps]))
    n_store = _sectors_each(_matrix(right, cols, rows, block_store, [a.store for a in steps]))
    for k, a in enumerate(steps):
        _label_above(left, cols, a.load, f"k={k}")
        _label_left(right, rows, a.store, f"k={k}")
    ks = f"k = 0..{UNROLL_K - 1}"
    left.set_title(f"load {ks} from in ({rows} x {cols}):  in[oc*cols + orow]\n"
                   f"each {n_load} sectors: {_usefulness(n_load, access.WARP)}", fontsize=10)
    right.set_title(f"store {ks} to out ({cols} x {rows}):  out[orow*rows + oc]\n"
                    f"each {n_store} sectors: {_usefulness(n_store, access.WARP)}", fontsize=10)
    _lane_colourbar(fig, [left, right])
    w = UNROLL["warp"]
    fig.suptitle(f"Step 03, {UNROLL_KERNEL}: each thread moves K = {UNROLL_K} elements, 8 output rows "
                 f"apart; each instruction keeps step 02's pattern\n"
                 f"loads: {UNROLL_K} x {n_load} sectors, stores: {UNROLL_K} x {n_store} sectors "
                 f"(one warp: block ({w['bx']}, {w['by']}), threadIdx.y = {w['ty']}, "
                 f"k = 0..{UNROLL_K - 1}; float, {access.SECTOR_BYTES}-byte sectors)")
    _legend(fig)
    style.caption(fig, "index maths: oc = blockIdx.x*32 + threadIdx.x,  orow = r0 + 8k,  "
                       "r0 = blockIdx.y*8K + threadIdx.y;  all K loads are issued before the first "
                       "store", y=-0.05)
    return fig


def _loaded_by(steps):
    """(element, lane, k) for every element the warp's loads read: load k reads it."""
    return [(off, lane, k) for k, a in enumerate(steps) for lane, off in enumerate(a.load)]


def _stored_by(store):
    """(element, lane, k) for every element of the warp's one 16-byte store: lane l writes its
    v[k] to out[dst + k], dst = store.store[l]."""
    return [(off, lane, off - store.store[lane])
            for off, lane in access.lane_elements(store.store, store.store_width)]


def _close_up_box(ax, window):
    """A dashed frame around the cells (first row, first column, rows, columns) a close-up shows."""
    r0, c0, n_rows, n_cols = window
    ax.add_patch(Rectangle((c0, r0), n_cols, n_rows, fill=False, edgecolor="black",
                           linestyle="--", linewidth=1.2, zorder=4))


def _zoom(ax, cols, window, numbered):
    """Narrows a drawn matrix to `window` (first row, first column, rows, columns), with a tick
    per cell and k written in each numbered (element, lane, k) cell inside it."""
    r0, c0, n_rows, n_cols = window
    ax.set_xlim(c0, c0 + n_cols)
    ax.set_ylim(r0 + n_rows, r0)
    ax.set_xticks([c + 0.5 for c in range(c0, c0 + n_cols)], labels=range(c0, c0 + n_cols))
    ax.set_yticks([r + 0.5 for r in range(r0, r0 + n_rows)], labels=range(r0, r0 + n_rows))
    for off, lane, k in numbered:
        r, c = divmod(off, cols)
        if r0 <= r < r0 + n_rows and c0 <= c < c0 + n_cols:
            ax.text(c + 0.5, r + 0.5, str(k), ha="center", va="center", fontsize=9,
                    color=_text_colour(lane_colour(lane)), zorder=5)


def _centre(cols, offsets):
    """The middle (x, y) of some cells of a matrix `cols` wide, in data coordinates."""
    xs, ys = [o % cols + 0.5 for o in offsets], [o // cols + 0.5 for o in offsets]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def _note(ax, xy, text):
    """A short label at data point xy, on a white patch so it reads over the cells."""
    ax.text(*xy, text, ha="center", va="center", fontsize=9, zorder=5, bbox=style.LABEL_BOX)


def _chunk_frame(ax, cols, chunk):
    """A black frame just inside one lane's 16-byte chunk (V adjacent cells of a row)."""
    r, c = divmod(min(chunk), cols)
    ax.add_patch(Rectangle((c + 0.12, r + 0.12), len(chunk) - 0.24, 0.76, fill=False,
                           edgecolor="black", linewidth=1.4, zorder=4))


def _gather_arrow(fig, zoom_in, load_xy, zoom_out, store_xy):
    """An arrow from a lane's loaded elements (close-up of in) to its chunk (close-up of out)."""
    fig.add_artist(ConnectionPatch(load_xy, store_xy, "data", "data", axesA=zoom_in, axesB=zoom_out,
                                   arrowstyle="-|>", mutation_scale=14, linewidth=1.2,
                                   color="black", connectionstyle="arc3,rad=-0.15", zorder=6))


def _vec16_close_ups(fig, zoom_in, zoom_out, steps):
    """Narrows the two close-ups to lanes 0 and 1 and says, cell by cell, which load k read an
    element and where its v[k] is stored; an arrow follows lane 0's four floats."""
    rows, cols = VEC16_ROWS, VEC16_COLS
    store = steps[0]  # the same store for every k: the kernel issues it once, after the V loads
    _zoom(zoom_in, cols, IN_WINDOW, _loaded_by(steps))
    _zoom(zoom_out, rows, OUT_WINDOW, _stored_by(store))
    for lane in range(CLOSE_UP_LANES):
        loaded = [a.load[lane] for a in steps]             # input rows 4 lane .. 4 lane + 3
        chunk = [store.store[lane] + k for k in range(V)]  # its 16 bytes of the output row
        (x_in, y_in), (x_out, y_out) = _centre(cols, loaded), _centre(rows, chunk)
        _note(zoom_in, (x_in + 3, y_in + 0.5), f"lane {lane}")
        _note(zoom_out, (x_out, y_out + 1.6), f"lane {lane}")
        _chunk_frame(zoom_out, rows, chunk)
        if lane == 0:  # one arrow is enough to show the gather
            _gather_arrow(fig, zoom_in, (x_in + 0.6, y_in), zoom_out, (OUT_WINDOW[1], y_out))
    lanes = f"lanes 0-{CLOSE_UP_LANES - 1}"
    zoom_in.set_title(f"close-up of in, {lanes}:\nnumber = k, the load that reads it,\n"
                      "red box = its own sector", fontsize=10)
    zoom_out.set_title(f"close-up of out, {lanes}:\nnumber = k (the lane's v[k]),\n"
                       "black frame = one 16-byte store", fontsize=10)


def vec16_store_figure():
    """Step 04, vec16_store, float: one warp's V = 4 strided loads (lane l reads input rows
    4l .. 4l + 3 of one column, one sector per element) and its one store (lane l writes those
    4 floats, 16 bytes, to columns 4l .. 4l + 3 of one output row), with close-ups of lanes 0
    and 1 where each element is numbered with its k."""
    rows, cols = VEC16_ROWS, VEC16_COLS
    steps = [access.vec16_store(**VEC16["warp"], k=k) for k in range(V)]
    block_load, block_store = _block_offsets(VEC16)

    fig = plt.figure(figsize=ACCESS_FIGSIZE, layout="constrained")
    grid = fig.add_gridspec(2, 3, width_ratios=[1.1, 1, 1], height_ratios=[1, 1.25])
    left, right = fig.add_subplot(grid[:, 0]), fig.add_subplot(grid[0, 1:])
    zoom_in, zoom_out = fig.add_subplot(grid[1, 1]), fig.add_subplot(grid[1, 2])
    for ax in (left, zoom_in):  # a close-up draws the whole matrix, then narrows to its window
        n_load = _sectors_each(_matrix(ax, rows, cols, block_load, [a.load for a in steps]))
    for ax in (right, zoom_out):
        store_sectors, = _matrix(ax, cols, rows, block_store, [steps[0].store], width=V)
    n_store = len(store_sectors)
    _vec16_close_ups(fig, zoom_in, zoom_out, steps)
    _close_up_box(left, IN_WINDOW)
    _close_up_box(right, OUT_WINDOW)

    fetched, used = _bytes(n_load, access.WARP)
    left.set_title(f"{V} loads from in ({rows} x {cols}):\nin[(oc + k)*cols + orow]\n"
                   f"each {n_load} sectors:\n{fetched} B of sectors for {used} B", fontsize=10)
    right.set_title(f"one store to out ({cols} x {rows}):  out[orow*rows + oc + k], k = 0..{V - 1}, "
                    f"16 B per lane\n{n_store} sectors: {_usefulness(n_store, access.WARP * V)}",
                    fontsize=10)
    _lane_colourbar(fig, [left, right, zoom_in, zoom_out])
    w = VEC16["warp"]
    fig.suptitle(f"Step 04, vec16_store: each lane gathers {V} floats with {V} strided loads, then "
                 f"writes them with one 16-byte store\n"
                 f"loads: {V} x {n_load} sectors, store: 1 x {n_store} sectors "
                 f"(one warp: block ({w['bx']}, {w['by']}), threadIdx.y = {w['ty']}; "
                 f"float, {access.SECTOR_BYTES}-byte sectors)")
    _legend(fig, Patch(fill=False, edgecolor="black", linestyle="--", linewidth=1.2,
                       label="shown in the close-ups"))
    style.caption(fig, f"index maths: oc = {V}*(blockIdx.x*32 + threadIdx.x),  "
                       f"orow = blockIdx.y*8 + threadIdx.y\nloads k = 0..{V - 1}: v[k] = "
                       f"in[(oc + k)*cols + orow];  then one 16-byte store of v[0..{V - 1}] to "
                       "out[orow*rows + oc]", y=-0.05)
    return fig


# ---- shared memory: banks ---------------------------------------------------------------------

def _tile_panel(ax, words):
    """The tile as the code indexes it: tile[r][c], the warp's column coloured by lane."""
    n = access.TILE
    _cells(ax, [(c, r) for r in range(n) for c in range(n)], "#f2f2f2", zorder=0)
    for lane in range(access.WARP):  # lane tx reads tile[tx][0]: row tx, column 0
        colour = lane_colour(lane)
        _cells(ax, [(0, lane)], [colour], zorder=2)
        ax.text(0.5, lane + 0.5, str(lane), ha="center", va="center", fontsize=9,
                color=_text_colour(colour), zorder=3)
    _grid(ax, n, n)
    ax.set_xticks(range(0, n + 1, 8))
    ax.set_yticks(range(0, n + 1, 8))
    ax.set_xlabel("c (second index)")
    ax.set_ylabel("r (first index)")
    ax.set_title("the tile as the code sees it, tile[r][c]:\nlane tx reads tile[tx][0], a column",
                 fontsize=10)


def _bank_panel(ax, layout, words):
    """The tile in shared memory: x = bank, y = 128-byte row of shared memory."""
    used = {access.smem_word(r, c, layout) for r in range(access.TILE) for c in range(access.TILE)}
    height = max(used) // access.BANKS + 1
    pad = [w for w in range(height * access.BANKS) if w not in used]  # words the layout skips
    _cells(ax, [(access.bank(w), w // access.BANKS) for w in sorted(used)], "#f2f2f2", zorder=0)
    if pad:
        ax.add_collection(PatchCollection(
            [Rectangle((access.bank(w), w // access.BANKS), 1, 1) for w in pad],
            facecolor="white", edgecolor="#999999", hatch="////", linewidth=0, zorder=0))
    for lane, w in enumerate(words):
        colour = lane_colour(lane)
        _cells(ax, [(access.bank(w), w // access.BANKS)], [colour], zorder=2)
        ax.text(access.bank(w) + 0.5, w // access.BANKS + 0.5, str(lane), ha="center",
                va="center", fontsize=9, color=_text_colour(colour), zorder=3)
    _grid(ax, height, access.BANKS, square=False)  # not square: aligned with the bar chart below
    ax.set_xticks(range(0, access.BANKS + 1, 4))
    ax.set_yticks(range(0, height + 1, 8))
    ax.tick_params(labelbottom=False)
    ax.set_ylabel(f"shared-memory row ({access.BANKS * access.BANK_BYTES} bytes)")
    ax.set_title(f"the same tile in the {access.BANKS} banks ({access.BANK_BYTES} bytes each): "
                 "where the warp's 32 words are", fontsize=10)
    return bool(pad)


def banks_figure(layout):
    read = access.column_read(layout, col=0)
    write = access.row_write(layout, row=0)
    per_bank = access.lanes_per_bank(read)
    n_read, n_write = access.wavefronts(read), access.wavefronts(write)

    fig = plt.figure(figsize=(13, 8.2), layout="constrained")
    grid = fig.add_gridspec(2, 2, height_ratios=[4, 1.2], width_ratios=[0.85, 1.15])
    _tile_panel(fig.add_subplot(grid[:, 0]), read)
    banks = fig.add_subplot(grid[0, 1])
    has_pad = _bank_panel(banks, layout, read)
    hist = fig.add_subplot(grid[1, 1], sharex=banks)
    hist.bar([b + 0.5 for b in range(access.BANKS)], per_bank, width=0.85,
             color=[SECTOR_RED if n > 1 else "#4d4d4d" for n in per_bank])
    hist.set_xlim(0, access.BANKS)
    hist.set_ylim(0, max(per_bank) * 1.15)
    hist.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=4))
    hist.tick_params(labelbottom=True)
    hist.set_xlabel("bank")
    hist.set_ylabel("words asked")
    hist.set_title(f"words each bank must deliver: the busiest bank decides → {n_read} "
                   f"wavefront{'s' if n_read > 1 else ''}", fontsize=10)

    busiest = per_bank.index(max(per_bank))
    verdict = (f"all 32 lanes in {sum(n > 0 for n in per_bank)} distinct banks: conflict-free, "
               f"1 wavefront" if n_read == 1 else
               f"{per_bank[busiest]} lanes in bank {busiest}: a {n_read}-way bank conflict, "
               f"{n_read} wavefronts")
    fig.suptitle(f"{layout.capitalize()} tile:  {access.LAYOUTS[layout]}\n"
                 f"reading a column, tile[tx][0]: {verdict}.  "
                 f"Writing a row, tile[0][tx]: {n_write} wavefront{'s' if n_write > 1 else ''}.")
    handles = [Patch(facecolor="#f2f2f2", edgecolor="#cccccc", label="other tile elements")]
    if has_pad:
        handles.append(Patch(facecolor="white", edgecolor="#999999", hatch="////",
                             label="padding (never used)"))
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2,
               frameon=False, title="numbers in cells: the lane that reads that word")
    return fig


def chunk_banks_figure():
    """Step 07's store-phase read (float, read 0 of tile columns 0 and 1) in the 32 banks, without
    and with the chunk swizzle: each column is a bank, each cell a word a lane asks of it."""
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2), layout="constrained")
    height = max(access.lanes_per_bank(access.store_phase_read(False)))  # one scale for both panels
    for ax, swizzle in zip(axes, (False, True)):
        words = access.store_phase_read(swizzle)
        stacks = {}
        for lane, w in enumerate(words):
            stacks.setdefault(access.bank(w), []).append(lane)
        for b, lanes in stacks.items():
            for y, lane in enumerate(lanes):
                colour = lane_colour(lane)
                _cells(ax, [(b, y)], [colour], zorder=2)
                ax.text(b + 0.5, y + 0.5, str(lane), ha="center", va="center", fontsize=8,
                        color=_text_colour(colour), zorder=3)
        _grid(ax, height, access.BANKS, square=False)
        ax.set_xticks(range(0, access.BANKS + 1, 4))
        ax.set_yticks(range(0, height + 1, 2 if height > 4 else 1))
        ax.set_xlabel("bank")
        ax.set_ylabel("words asked of the bank")
        n = access.wavefronts(words, request_bytes=access.WARP * access.ELEM_BYTES)
        ax.set_title(("chunk swizzle, slot() of wide.cuh" if swizzle else "no swizzle (slot(r, c) = c)")
                     + f": {n} wavefronts", fontsize=10)
    fig.suptitle("Step 07's store phase, one read (float): lane q reads tile row 4q of tile column 0, "
                 "lane 16 + q the same row of column 1; numbers: the lane", fontsize=10)
    return fig


BANK_LAYOUTS = {f"banks_{layout}": layout for layout in access.LAYOUTS}


# Figures of all of one warp's instructions (and step 07's banks), each drawn by its own function.
SERIES = {"access_unroll": unroll_figure, "access_vec16_store": vec16_store_figure,
          "banks_chunks": chunk_banks_figure}


def diagram(name):
    """The figure called `name` (a key of PATTERNS, SERIES or BANK_LAYOUTS)."""
    if name in PATTERNS:
        return access_figure(name)
    if name in SERIES:
        return SERIES[name]()
    return banks_figure(BANK_LAYOUTS[name])


NAMES = [*PATTERNS, *SERIES, *BANK_LAYOUTS]
