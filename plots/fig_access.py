"""Access-pattern diagrams, computed from the index maths in access.py (no CSV needed).

access_*: a small float matrix drawn cell by cell; the elements one warp loads (left, from
`in`) and stores (right, to `out`) are coloured by lane, the rest of the block is grey, and
every 32-byte sector the warp's instruction touches has a red box around it.

banks_*: the same 32 x 32 tile as the code indexes it and as it lies in the 32 shared-memory
banks, for a warp that reads one column of it, with how many words each bank must deliver.
"""
import matplotlib
import matplotlib.pyplot as plt
from matplotlib.cm import ScalarMappable
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.colors import Normalize
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MaxNLocator

import access
import style

LANES = matplotlib.colormaps["viridis"]
LANE_NORM = Normalize(0, access.WARP - 1)
BLOCK_GREY = "#d4d4d4"
SECTOR_RED = "#d62728"
PER_SECTOR = access.SECTOR_BYTES // access.ELEM_BYTES  # 8 floats in a 32-byte sector


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
        load="in[(by*32 + ty + j)*cols + bx*32 + tx]", store="out[(bx*32 + ty + j)*rows + by*32 + tx]",
        where="tile[ty + j][tx] = in[...];  __syncthreads();  out[...] = tile[tx][ty + j]"),
}


def _block_offsets(p):
    """Every (load, store) offset of the example warp's whole block (all its warps, all j)."""
    loads, stores = set(), set()
    fixed = {k: v for k, v in p["warp"].items() if k not in p["block"]}
    keys = list(p["block"])
    def walk(i, args):
        if i == len(keys):
            a = p["fn"](**fixed, **args)
            loads.update(a.load)
            stores.update(a.store)
            return
        for v in p["block"][keys[i]]:
            walk(i + 1, {**args, keys[i]: v})
    walk(0, {})
    return loads, stores


def _matrix_panel(ax, rows, cols, warp, block, name, code):
    """One matrix: the block in grey, the warp's elements by lane, its sectors boxed."""
    lane_of = {off: lane for lane, off in enumerate(warp)}
    _cells(ax, [(o % cols, o // cols) for o in sorted(block - set(warp))], BLOCK_GREY, zorder=0)
    _cells(ax, [(o % cols, o // cols) for o in warp], [lane_colour(lane_of[o]) for o in warp], zorder=2)
    _grid(ax, rows, cols, major_x=PER_SECTOR)
    touched = access.sectors(warp)
    for s in touched:
        first = s * PER_SECTOR  # a sector never spans two rows here: cols is a multiple of 8
        ax.add_patch(Rectangle((first % cols, first // cols), PER_SECTOR, 1, fill=False,
                               edgecolor=SECTOR_RED, linewidth=1.6, zorder=3))
    ax.set_xticks(range(0, cols + 1, 16))
    ax.set_yticks(range(0, rows + 1, 16))
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    used = access.WARP * access.ELEM_BYTES
    fetched = len(touched) * access.SECTOR_BYTES
    ax.set_title(f"{name}  {code}\n{len(touched)} sectors: {fetched} B moved for {used} B used "
                 f"({100 * used / fetched:g}% useful)", fontsize=10)
    return len(touched)


def access_figure(name):
    p = PATTERNS[name]
    rows, cols = access.EXAMPLE_ROWS, access.EXAMPLE_COLS
    assert cols % PER_SECTOR == 0 and rows % PER_SECTOR == 0
    a = p["fn"](**p["warp"])
    block_load, block_store = _block_offsets(p)
    out_rows, out_cols = (rows, cols) if name == "access_copy" else (cols, rows)

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 6.8), layout="constrained")
    n_load = _matrix_panel(left, rows, cols, a.load, block_load,
                           f"load from in ({rows} x {cols}):", p["load"])
    n_store = _matrix_panel(right, out_rows, out_cols, a.store, block_store,
                            f"store to out ({out_rows} x {out_cols}):", p["store"])
    fig.colorbar(ScalarMappable(LANE_NORM, LANES), ax=[left, right], shrink=0.55, pad=0.02,
                 label="lane = threadIdx.x of the warp (0-31)")
    w = p["warp"]
    block = f"block ({w['bx']}, {w['by']}), threadIdx.y = {w['ty']}" + (f", j = {w['j']}" if "j" in w else "")
    fig.suptitle(f"{p['title']}\nload: {n_load} sectors, store: {n_store} sectors "
                 f"(one warp: {block}; float, {access.SECTOR_BYTES}-byte sectors)")
    fig.legend(handles=[Patch(color=BLOCK_GREY, label="the rest of the same thread block"),
                        Patch(fill=False, edgecolor=SECTOR_RED, linewidth=1.6,
                              label=f"a {access.SECTOR_BYTES}-byte sector the warp touches "
                                    f"({PER_SECTOR} floats)"),
                        Line2D([], [], color="#888888", linewidth=0.7, label="sector boundaries")],
               loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, frameon=False)
    style.caption(fig, "index maths: " + p["where"], y=-0.05)
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


BANK_LAYOUTS = {f"banks_{layout}": layout for layout in access.LAYOUTS}


def diagram(name):
    """The figure called `name` (a key of PATTERNS or BANK_LAYOUTS)."""
    return access_figure(name) if name in PATTERNS else banks_figure(BANK_LAYOUTS[name])


NAMES = [*PATTERNS, *BANK_LAYOUTS]
