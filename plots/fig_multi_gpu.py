"""Step 09's figures. multi_gpu_blocks: the chapter's worked example (a 7 x 8 matrix on 3 ranks,
one chunk), from the index maths of plots/multi_gpu_blocks.py; multi_gpu_chunks: the same in
2 chunks, chunk 0. multi_gpu_parts: the parts of
the pipelined transpose alone and at once, as measured (09_multi_gpu_*.csv). multi_gpu_timeline:
one pipelined call's exchanges, measured inside the pipeline and as the parts alone would place them.
multi_gpu_versions: PyTorch's way and ours in one chunk, each part timed alone beside the whole.
"""
import matplotlib.pyplot as plt
from matplotlib.patches import Patch, Rectangle

import style
from multi_gpu_blocks import Layout, alone_schedule, caller_schedule
from results import require

NAME_BLOCKS = "multi_gpu_blocks"
NAME_CHUNKS = "multi_gpu_chunks"  # the same worked example in 2 chunks: chunk 0 (page 2)
NAME_PARTS = "multi_gpu_parts"
NAME_TIMELINE = "multi_gpu_timeline"
NAME_VERSIONS = "multi_gpu_versions"
# multi_gpu_versions: each bar's segments (kernel, label), left to right; one segment is a whole version.
VERSIONS = [("PyTorch's way, each line alone",
             [("pytorch_pack", "pack"), ("pytorch_alltoall", "exchange"), ("pytorch_unpack", "unpack")]),
            ("PyTorch's way, whole", [("pytorch", "")]),
            ("one chunk, each part alone",
             [("local_work_one_chunk", "local work"), ("exchanges_one_chunk", "exchange")]),
            ("one chunk, whole", [("one_chunk", "")]),
            ("pipelined (next page), whole", [("pipelined", "")])]
RANK_COLOURS = style.STEP_COLOURS[:3]  # rank 0, 1, 2
PALE = 0.35  # the alpha of cells outside what a panel is about
SIZE_LABEL = "65536 x 65536"  # the chapter's matrix


def _cell(ax, x, y, colour, alpha, text, hatch=None):
    ax.add_patch(Rectangle((x, y), 1, 1, facecolor=colour, alpha=alpha, edgecolor="white",
                           linewidth=1.0, hatch=hatch))
    if text:
        ax.text(x + 0.5, y + 0.5, text, ha="center", va="center", fontsize=6.5,
                color="white" if alpha > 0.5 else "black")


def _frame(ax, cols, rows, title):
    ax.set_xlim(-0.2, cols + 0.2)
    ax.set_ylim(rows + 0.2, -0.2)
    style.bare(ax)
    ax.set_title(title, fontsize=8.5, loc="left")


def blocks(rows=7, cols=8, ranks=3, chunks=1, me=1):
    """Chunk 0 of the worked example: rank 0's slab (with one chunk, its rows), its send buffer,
    rank `me`'s receive buffer and out. Each cell shows the input element it holds, "row,column"."""
    of_chunk0 = ", chunk 0" if chunks > 1 else ""
    sender = Layout(rows, cols, ranks, 0, chunks)
    mine = Layout(rows, cols, ranks, me, chunks)
    owner_of_row = [next(j for j in range(ranks) if sender.rows_of().begin(j) <= r < sender.rows_of().begin(j) + sender.rows_of().size(j)) for r in range(rows)]
    slab0 = sender.slab(0, 0)
    fig, axes = plt.subplots(1, 4, figsize=(13.5, 3.6), gridspec_kw={"width_ratios": [cols, slab0 + 2.5, 7, rows], "wspace": 0.35})

    ax = axes[0]  # the input, split by rows (colour: the rank that holds a row, the sender)
    for r in range(rows):
        for c in range(cols):
            _cell(ax, c, r, RANK_COLOURS[owner_of_row[r]], 1.0, f"{r},{c}")
    for j in range(1, ranks):
        y = sender.rows_of().begin(j)
        ax.plot([0, cols], [y, y], color="black", linewidth=2)
        x = sender.cols_of().begin(j)
        ax.plot([x, x], [-0.1, rows], color="black", linewidth=1, linestyle=":")
    for j in range(ranks):  # the column blocks: which rank's rows of the transpose they are
        ax.text(sender.cols_of().begin(j) + sender.cols_of().size(j) / 2, -0.25, f"for {j}",
                ha="center", va="bottom", fontsize=7.5)
    for j in range(ranks):
        ax.text(-0.3, sender.rows_of().begin(j) + sender.rows_of().size(j) / 2, f"rank {j}",
                ha="right", va="center", fontsize=8)
    ax.add_patch(Rectangle((0, 0), cols, slab0, fill=False, edgecolor="black", linewidth=2.5, linestyle="--"))
    _frame(ax, cols, rows + 0.01, "input (7 x 8), rows by rank;\ncolumns for ranks 0, 1, 2")
    ax.set_ylim(rows + 0.2, -1.0)

    ax = axes[1]  # rank 0's send buffer: row c = column c of its slab 0
    for c in range(cols):
        for s in range(slab0):
            _cell(ax, s, c, RANK_COLOURS[0], 1.0, f"{s},{c}")
    for j in range(ranks):
        begin, size = sender.cols_of().begin(j), sender.cols_of().size(j)
        if j > 0:
            ax.plot([0, slab0], [begin, begin], color="black", linewidth=2)
        ax.text(slab0 + 0.2, begin + size / 2, "mine" if j == 0 else f"to {j}", va="center", fontsize=8)
    _frame(ax, slab0 + 2.5, cols, f"rank 0's send buffer{of_chunk0}\n({cols} x {slab0})")

    ax = axes[2]  # rank me's receive buffer for chunk 0: one slot per rank, its own unused
    x = 0
    for j in range(ranks):
        width = mine.slab(j, 0)
        for i in range(mine.out_rows()):
            for s in range(width):
                row = mine.out_column(j, 0) + s
                col = mine.cols_of().begin(me) + i
                _cell(ax, x + s, i, RANK_COLOURS[j] if j != me else "#DDDDDD", 1.0 if j != me else 0.6,
                      f"{row},{col}" if j != me else "", hatch=None if j != me else "//")
        ax.text(x + width / 2, mine.out_rows() + 0.45, f"from {j}\n@{mine.recv_offset(j, 0)}" if j != me else "unused",
                ha="center", va="top", fontsize=7.5)
        x += width + 0.3
    _frame(ax, x, mine.out_rows() + 1.4, f"rank {me}'s receive buffer{of_chunk0}:\npieces in a row (@: first element)")

    ax = axes[3]  # rank me's out: column = input row; chunk 0 solid, chunk 1 pale
    for col in range(rows):
        j = owner_of_row[col]
        k = 0 if col - mine.rows_of().begin(j) < mine.slab(j, 0) else 1
        for i in range(mine.out_rows()):
            _cell(ax, col, i, RANK_COLOURS[j], 1.0 if k == 0 else PALE, f"{col},{mine.cols_of().begin(me) + i}")
        if chunks > 1:
            ax.text(col + 0.5, mine.out_rows() + 0.45, f"k={k}", ha="center", va="top", fontsize=7.5)
    pale = ";\npale = from chunk 1" if chunks > 1 else ""
    _frame(ax, rows, mine.out_rows() + 1.4, f"rank {me}'s out ({mine.out_rows()} x {rows}): column = input row{pale}")
    fig.legend([Patch(facecolor=c) for c in RANK_COLOURS], [f"rank {j}" for j in range(ranks)],
               loc="lower center", ncol=ranks, fontsize=8, bbox_to_anchor=(0.5, -0.04))
    boxed = "slab 0" if chunks > 1 else "rows"
    fig.suptitle(f"Step 09's worked example{of_chunk0}: each cell is input element \"row,column\", "
                 f"coloured by the rank that sends it; the dashed box is rank 0's {boxed}", fontsize=10, y=1.06)
    return fig


PARTS = [("exchanges", "the 4 exchanges alone"), ("pipelined_timed_exchanges", "the 4 exchanges inside the pipeline"),
         ("nccl_alltoall", "all-to-all alone"), ("both_at_once_alltoall", "all-to-all beside the local work"),
         ("local_work", "local work alone"), ("both_at_once_local", "local work beside the all-to-all"),
         ("one_chunk", "transpose, 1 chunk"), ("pipelined", "transpose, pipelined (4 chunks)"),
         ("pipelined_timed", "the same, exchanges timed")]
BESIDE = {"pipelined_timed_exchanges", "both_at_once_alltoall", "both_at_once_local"}  # hatched


def parts(results):
    """Each part's time alone and beside the others, and the transposes, on 2 and 4 GPUs (float),
    all from the chapter's float job (09_multi_gpu_float)."""
    table = require("09_multi_gpu_float", results)
    counts = sorted({r["gpus"] for r in table.rows})
    fig, axes = plt.subplots(1, len(counts), figsize=(5.2 * len(counts), 3.6), sharey=True)
    axes = axes if len(counts) > 1 else [axes]
    colours = {"exchanges": RANK_COLOURS[2], "pipelined_timed_exchanges": RANK_COLOURS[2],
               "nccl_alltoall": RANK_COLOURS[0], "both_at_once_alltoall": RANK_COLOURS[0],
               "local_work": RANK_COLOURS[1], "both_at_once_local": RANK_COLOURS[1],
               "one_chunk": style.REF_COLOUR, "pipelined": "black", "pipelined_timed": "black"}
    for ax, g in zip(axes, counts):
        rows = [r for r in table.where(dtype="float", gpus=g) if r["rows"] == r["cols"]]
        ms = {r["kernel"]: r["ms_median"] for r in rows}
        for y, (kernel, label) in enumerate(PARTS):
            if kernel not in ms:
                continue
            beside = kernel in BESIDE
            ax.barh(y, ms[kernel], color=colours[kernel], alpha=0.55 if not beside else 1.0,
                    hatch="//" if beside else None, edgecolor="white")
            ax.text(ms[kernel] + 0.2, y, f"{ms[kernel]:.1f}", va="center", fontsize=8)
        ax.set_yticks(range(len(PARTS)), [label for _, label in PARTS])
        ax.set_xlabel("ms (median of the slowest rank)")
        ax.set_title(f"{g} GPUs, float {rows[0]['rows']} x {rows[0]['cols']}", loc="left", fontsize=9)
        ax.set_xlim(0, max(ms[k] for k, _ in PARTS if k in ms) * 1.15)
    axes[0].invert_yaxis()  # once: the axes share y
    fig.suptitle("Step 09: the parts alone and at once, one job; hatched = one part's own time while "
                 "the other ran", fontsize=10, y=1.02)
    style.caption(fig, table.caption(), y=-0.08)
    return fig, f"from {table.path.name}"


def timeline(results):
    """A typical call of `pipelined_timed` on the most GPUs of the job (each event's median, the
    slowest rank's): each exchange's start and end from the transpose's start, then the rest of
    the call (the last place), under the same schedule drawn with every part at its speed alone:
    the caller's packs and places of received pieces (multi_gpu_blocks.caller_schedule), and the
    chunks' exchanges back to back."""
    table = require("09_multi_gpu_float", results)
    counts = [max(r["gpus"] for r in table.rows)]
    fig, axes = plt.subplots(len(counts), 1, figsize=(10, 2.3 * len(counts) + 0.6), squeeze=False)
    for ax, g in zip(axes[:, 0], counts):
        ms = {r["kernel"]: r["ms_median"] for r in table.where(dtype="float", gpus=g) if r["rows"] == r["cols"]}
        chunks = sum(1 for k in ms if k.startswith("pipelined_timed_exchange") and k.endswith("_start"))
        callers = caller_schedule(ms, g, chunks)
        for label, a, b in callers:  # row 0: the caller's stream, from the parts alone
            colour = RANK_COLOURS[2] if label.startswith("pack") else style.REF_COLOUR
            ax.barh(0, b - a, left=a, height=0.5, color=colour, edgecolor="white")
            ax.text((a + b) / 2, 0, label, ha="center", va="center", fontsize=6.5, color="white")
        # Each row: its label, its exchanges, where it ends, what the end marker says, and whether
        # the call's rest (the last place, measured: end minus the last exchange) is drawn on it.
        alone_spans, alone_end = alone_schedule(ms, g, chunks)
        measured = [(ms[f"pipelined_timed_exchange{k}_start"], ms[f"pipelined_timed_exchange{k}_end"])
                    for k in range(chunks)]
        rows = [("exchanges, parts alone", alone_spans, alone_end, f"with pl{chunks - 1} (row above), ends", False),
                ("exchanges, measured", measured, ms["pipelined_timed"], "the call ends", True)]
        for y, (_, spans, end, says, rest) in enumerate(rows, start=1):
            for k, (a, b) in enumerate(spans):
                ax.barh(y, b - a, left=a, height=0.5, color=RANK_COLOURS[k % 2], edgecolor="white")
                ax.text((a + b) / 2, y, f"exchange {k}", ha="center", va="center", fontsize=7.5, color="white")
            if rest:
                last = spans[-1][1]
                ax.barh(y, end - last, left=last, height=0.5, color=style.REF_COLOUR, edgecolor="white")
                ax.text((last + end) / 2, y, f"pl{chunks - 1}", ha="center", va="center", fontsize=6.5, color="white")
            ax.plot([end, end], [y - 0.35, y + 0.35], color="black", linewidth=2)
            ax.text(end + 0.15, y, f"{says} {end:.1f} ms", va="center", fontsize=8)
        ax.set_yticks(range(3), ["caller's stream, parts alone"] + [row[0] for row in rows])
        ax.set_xlim(0, max(row[2] for row in rows) * 1.15)
        ax.set_title(f"{g} GPUs, float {SIZE_LABEL}: a call built from medians; packs and places of received pieces",
                     loc="left", fontsize=9)
        ax.invert_yaxis()
    axes[-1, 0].set_xlabel("ms from the transpose's start (the slowest rank's median)")
    fig.suptitle("Step 09: the pipelined transpose's two streams as the parts alone would run, "
                 "and its exchanges as measured", fontsize=10, y=1.02)
    style.caption(fig, table.caption(), y=-0.12)
    return fig, f"from {table.path.name}"


def versions(results):
    """Page 1's versions on 4 GPUs (float): PyTorch's three lines each timed alone, stacked,
    beside its whole time; our one-chunk version's local work and exchange each timed alone,
    stacked, beside its whole time; and the pipelined version. All from the float job."""
    table = require("09_multi_gpu_float", results)
    gpus = max(r["gpus"] for r in table.rows)
    ms = {r["kernel"]: r["ms_median"] for r in table.where(dtype="float", gpus=gpus) if r["rows"] == r["cols"]}
    colours = {"pack": RANK_COLOURS[1], "local work": RANK_COLOURS[1], "exchange": RANK_COLOURS[0],
               "unpack": RANK_COLOURS[2], "": style.REF_COLOUR}
    fig, ax = plt.subplots(figsize=(9, 2.9))
    for y, (label, segments) in enumerate(VERSIONS):
        left = 0.0
        for kernel, part in segments:
            ax.barh(y, ms[kernel], left=left, height=0.6, color=colours[part], edgecolor="white")
            if part:
                ax.text(left + ms[kernel] / 2, y, f"{part}\n{ms[kernel]:.1f}", ha="center", va="center",
                        fontsize=7, color="white")
            left += ms[kernel]
        ax.text(left + 0.2, y, f"{left:.1f} ms", va="center", fontsize=8)
    ax.set_yticks(range(len(VERSIONS)), [label for label, _ in VERSIONS])
    ax.invert_yaxis()
    ax.set_xlabel("ms (medians over the repetitions: page 1's How we time)")
    ax.set_xlim(0, max(sum(ms[k] for k, _ in segments) for _, segments in VERSIONS) * 1.12)
    ax.set_title(f"Step 09 on {gpus} GPUs, float {SIZE_LABEL}: the parts timed alone, and each version whole",
                 loc="left", fontsize=10)
    style.caption(fig, table.caption(), y=-0.12)
    return fig, f"from {table.path.name}"
