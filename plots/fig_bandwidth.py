"""Bandwidth figures from the benchmark CSVs (tour, step binaries, size sweeps).

Each function reads what it needs from a results directory and returns (figure, note), where
the note names the CSV files used for make_all's log line; it raises results.Missing when an
input is not there.
"""
import math

import matplotlib.pyplot as plt
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter, NullLocator

import style
from results import DTYPE_BYTES, DTYPES, MEMCPY, REF, RESULTS, Missing, newest, require, size_label


def _largest(rows):
    """The rows of the largest matrix (by elements) among `rows`."""
    n = max(r["rows"] * r["cols"] for r in rows)
    return [r for r in rows if r["rows"] * r["cols"] == n]


PEERS_SHOWN = ("torch_eager", "torch_compile", "cutensor")
PEER_LINES = {"torch_eager": ":", "torch_compile": "-.", "cutensor": (0, (1, 4))}  # one style per peer


def _peers(results, gpu, dtypes, sizes):
    """[(dtype, row)] of the peers (scripts/peers.py, newest peers CSV of the same GPU) at the
    size the bars show; each row's % is of the cudaMemcpy measured in its own process."""
    peers = newest("peers", results, gpu=gpu)
    if peers is None:
        return []
    return [(d, r) for d in dtypes for r in peers.where(dtype=d, step="peer")
            if r["kernel"] in PEERS_SHOWN and size_label(r["rows"], r["cols"]) == sizes[d]]


def _l2(results, gpu):
    """The GPU's L2 size in bytes from the newest ncu CSV of that GPU, and a note if absent."""
    ncu = newest("ncu", results, gpu=gpu)
    if ncu is None or not ncu.rows or not ncu.rows[0].get("l2_bytes"):
        return None, f"no ncu_*.csv for {gpu}: L2 line left out"
    return ncu.rows[0]["l2_bytes"], f"L2 size from {ncu.path.name}"


# ---- progression: the README's picture ------------------------------------------------------

PEER_RUN_REFS = {"cudaMemcpy_torch"}  # the peers' own ceiling: each peer's % is of it already


def _bars_run(results):
    """The run the bars come from: the newest tour, or the newest peers CSV of the same GPU
    where it is as new and holds the steps (the tour ran first, into the same CSV), so that
    the bars and the peers' lines come from one run."""
    tour = require("tour", results)
    peers = newest("peers", results, gpu=tour.gpu)
    if peers is not None and peers.date >= tour.date and peers.where(step="07_coarsen"):
        return peers
    return tour


def progression(results=RESULTS):
    """Each step's headline kernel (from the newest tour, or the peers CSV: _bars_run) as % of cudaMemcpy at the largest
    size, float and half side by side; cuBLAS as dashed lines; cudaMemcpy = 100%."""
    tour = _bars_run(results)
    dtypes = tour.dtypes(["float", "half"]) or tour.dtypes()
    bars, refs, sizes = {}, [], {}  # bars[dtype][step] = row; refs = [(dtype, row)]
    for d in dtypes:
        at = _largest([r for r in tour.where(dtype=d) if r["step"] != "peer"])
        sizes[d] = size_label(at[0]["rows"], at[0]["cols"])
        bars[d] = {r["step"]: r for r in at if r["step"] != REF}
        refs += [(d, r) for r in at if r["step"] == REF and r["kernel"] not in {MEMCPY} | PEER_RUN_REFS]
    steps = sorted({s for d in dtypes for s in bars[d]})
    if not steps:
        raise Missing(f"{tour.path.name} has no step rows (only references)")

    n = len(steps)
    fig, ax = plt.subplots(figsize=(max(7.5, 3.5 + 1.2 * n), 5.0), layout="constrained")
    width = 0.8 / len(dtypes)
    top = 110.0
    for i, d in enumerate(dtypes):
        shift = (i - (len(dtypes) - 1) / 2) * width
        for k, step in enumerate(steps):
            row = bars[d].get(step)
            if row is None:
                continue
            x = k + shift
            if not row["verified"]:  # a wrong result has no bandwidth: no bar, a red FAILED
                ax.text(x, 2, "FAILED", rotation=90, ha="center", va="bottom", color="#C00000",
                        fontsize=9, fontweight="bold")
                continue
            pct = row["pct_of_memcpy"]
            ax.bar(x, pct, width * 0.95, color=style.DTYPE_COLOURS[d], edgecolor="white")
            ax.text(x, pct + 1.5, f"{pct:.0f}%", ha="center", va="bottom", fontsize=9, bbox=style.LABEL_BOX)
            top = max(top, pct + 12)
    # The legend: one entry per dtype, cudaMemcpy, and each reference line.
    handles = [plt.Rectangle((0, 0), 1, 1, color=style.DTYPE_COLOURS[d]) for d in dtypes]
    labels = [f"{d}, {sizes[d]}" for d in dtypes]
    ax.axhline(100, color=style.MEMCPY_COLOUR, linewidth=1.3)
    handles.append(Line2D([], [], color=style.MEMCPY_COLOUR, linewidth=1.3))
    labels.append(f"{MEMCPY} = 100%")
    for d, r in refs:
        if not r["verified"]:
            labels.append(f"{r['kernel']} ({d}): FAILED")
            handles.append(Line2D([], [], color=style.DTYPE_COLOURS[d], linestyle="--"))
            continue
        ax.axhline(r["pct_of_memcpy"], color=style.DTYPE_COLOURS[d], linestyle="--", linewidth=1.5)
        handles.append(Line2D([], [], color=style.DTYPE_COLOURS[d], linestyle="--", linewidth=1.5))
        labels.append(f"{r['kernel']} ({d}): {r['pct_of_memcpy']:.0f}%")
        top = max(top, r["pct_of_memcpy"] + 12)
    peers = _peers(results, tour.gpu, dtypes, sizes)
    for d, r in peers:  # what users call instead, if measured
        style_kw = {"color": style.DTYPE_COLOURS[d], "linestyle": PEER_LINES[r["kernel"]], "linewidth": 1.8}
        ax.axhline(r["pct_of_memcpy"], **style_kw)
        handles.append(Line2D([], [], **style_kw))
        labels.append(f"{r['kernel']} ({d}): {r['pct_of_memcpy']:.0f}%" + ("" if r["verified"] else " FAILED"))

    kernels = {s: sorted({bars[d][s]["kernel"] for d in dtypes if s in bars[d]}) for s in steps}
    ax.set_xticks(range(n), [style.step_label(s) + "\n" + "\n".join(style.wrap(k) for k in kernels[s])
                             for s in steps])
    pad = max(0, 4 - n) / 2  # keep bars a sensible width while there are only a few steps
    ax.set_xlim(-0.6 - pad, n - 0.4 + pad)
    ax.set_ylim(0, top)
    ax.set_ylabel("bandwidth, % of cudaMemcpy (higher is better)")
    ax.set_xlabel("step (and its kernel)")
    ax.grid(axis="x", visible=False)
    ax.set_title(f"Transpose step by step: each step's kernel as a percentage of cudaMemcpy\n"
                 f"{tour.gpu}, cold L2, largest matrix of the tour")
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="bars and lines")
    caption = tour.caption()
    if peers:
        peers_file = newest("peers", results, gpu=tour.gpu).path.name
        if peers_file == tour.path.name:
            caption += "; dotted and dash-dotted: scripts/peers.py in the same run, each % of the cudaMemcpy of its own process"
        else:
            caption += f"; dotted and dash-dotted: scripts/peers.py, each % of cudaMemcpy in its own run, from docs/results/{peers_file}"
    style.caption(fig, caption, y=-0.01)
    return fig, tour.path.name


# ---- size sweeps --------------------------------------------------------------------------

def _panel_grid(n, width=6.0, height=4.3):
    """1, 2 or 2x2 panels: a figure and a flat list of n axes."""
    ncols = 1 if n == 1 else 2
    nrows = 1 if n <= 2 else 2
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                             layout="constrained", squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def _bytes_axis(ax, dtype, all_bytes, l2):
    """Log x axis of bytes moved, a top axis with the matrix side N, and the L2 line."""
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10))  # 1 MB, 10 MB, 100 MB, 1 GB
    ax.xaxis.set_major_formatter(FuncFormatter(style.size_formatter))
    ax.xaxis.set_minor_locator(LogLocator(base=10, subs=range(2, 10)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("bytes moved = read + written (log scale; 1 MB = 10⁶ B)")
    lo, hi = min(all_bytes), max(all_bytes)
    ax.set_xlim(lo / 1.4, hi * 1.4)
    # Top axis: the matrix side N of an N x N matrix of this dtype (bytes = 2 N² sizeof(T)).
    size = DTYPE_BYTES[dtype]
    top = ax.secondary_xaxis("top", functions=(lambda b: (abs(b) / (2 * size)) ** 0.5,
                                               lambda n: 2 * size * n * n))
    sides = sorted({round(math.sqrt(b / (2 * size))) for b in all_bytes})
    powers = [s for s in sides if s & (s - 1) == 0]  # powers of two only, to keep it legible
    if len(powers) > 5:
        powers = powers[::2]
    top.set_xticks(powers, [f"{s}²" for s in powers])
    top.xaxis.set_minor_locator(NullLocator())
    top.set_xlabel(f"matrix N x N of {dtype}")
    if l2:
        ax.axvline(l2, color="#C00000", linestyle=":", linewidth=1.6)
        # Label low, right of the line: at large sizes the curves are usually high up there.
        ax.text(l2 * 1.08, 0.03, f"L2 size\n{style.bytes_text(l2)}", transform=ax.get_xaxis_transform(),
                color="#C00000", fontsize=9, va="bottom", ha="left", zorder=5,
                bbox=dict(facecolor="white", edgecolor="none", alpha=0.85, pad=1.5))


def _sweep_figure(rows_by_dtype, value, ylabel, title, l2, hline=None, hline_label=None):
    """One panel per dtype, one line per kernel: value(row) against bytes moved."""
    dtypes = list(rows_by_dtype)
    fig, axes = _panel_grid(len(dtypes))
    handles = {}
    for ax, d in zip(axes, dtypes):
        rows = rows_by_dtype[d]
        for i, (step, kernel) in enumerate(style.kernel_order(rows)):
            mine = sorted((r for r in rows if (r["step"], r["kernel"]) == (step, kernel)),
                          key=lambda r: r["bytes"])
            xs = [r["bytes"] for r in mine]
            ys = [value(r) if r["verified"] else math.nan for r in mine]  # a gap where it failed
            line, = ax.plot(xs, ys, markersize=5, label=style.kernel_label(step, kernel),
                            **style.line_style(step, kernel, i))
            handles.setdefault(line.get_label(), line)
            bad = [r["bytes"] for r in mine if not r["verified"]]
            if bad:
                ax.plot(bad, [0] * len(bad), color=line.get_color(), clip_on=False, **style.FAILED_MARK)
        if hline is not None:
            ax.axhline(hline, color="black", linewidth=1.0)
        _bytes_axis(ax, d, [r["bytes"] for r in rows], l2)
        ax.set_ylim(bottom=0)
        ax.set_ylabel(ylabel)
        ax.set_title(f"{d} ({DTYPE_BYTES[d]} bytes)", loc="left")
    fig.suptitle(title)
    legend = list(handles.values())
    if hline_label:
        legend.append(Line2D([], [], color="black", linewidth=1.0, label=hline_label))
    if any(not r["verified"] for rows in rows_by_dtype.values() for r in rows):
        legend.append(Line2D([], [], color="grey", label="FAILED verification", **style.FAILED_MARK))
    fig.legend(handles=legend, loc="upper left", bbox_to_anchor=(1.0, 0.95), title="kernel")
    return fig, axes


def sizes(results=RESULTS):
    """GB/s against bytes moved, from the newest cold-L2 sweep; L2 size marked."""
    cold = require("sweep_cold", results)
    l2, l2_note = _l2(results, cold.gpu)
    dtypes = cold.dtypes(["float", "half"]) or cold.dtypes()
    fig, _ = _sweep_figure({d: cold.where(dtype=d) for d in dtypes}, lambda r: r["gbps"],
                           "GB/s (10⁹ bytes per second)",
                           f"Bandwidth against matrix size, cold L2 — {cold.gpu}", l2)
    style.caption(fig, cold.caption() + ".\nFootprint in memory = bytes moved (input + output):"
                  " matrices left of the L2 line fit in L2 entirely." + ("" if l2 else f" ({l2_note}.)"),
                  y=-0.01)
    return fig, f"{cold.path.name}; {l2_note}"


def warm_vs_cold(results=RESULTS):
    """warm-L2 GB/s / cold-L2 GB/s for the same kernel and size: how much a warm cache
    changes a measurement. 1.0 = no difference."""
    cold = require("sweep_cold", results)
    warm = require("sweep_warm", results, gpu=cold.gpu)
    l2, l2_note = _l2(results, cold.gpu)
    key = lambda r: (r["step"], r["kernel"], r["dtype"], r["rows"], r["cols"])  # noqa: E731
    warm_by_key = {key(r): r for r in warm.rows}
    pairs = []
    for r in cold.rows:
        w = warm_by_key.get(key(r))
        if w is not None:
            pairs.append(dict(r, verified=r["verified"] and w["verified"], ratio=w["gbps"] / r["gbps"]))
    if not pairs:
        raise Missing(f"{warm.path.name} and {cold.path.name} have no kernel x size in common")
    present = {p["dtype"] for p in pairs}
    dtypes = [d for d in ("float", "half") if d in present] or [d for d in DTYPES if d in present]
    fig, _ = _sweep_figure({d: [p for p in pairs if p["dtype"] == d] for d in dtypes},
                           lambda r: r["ratio"], "warm-L2 GB/s ÷ cold-L2 GB/s",
                           f"Warm L2 against cold L2: how much a warm cache changes GB/s — {cold.gpu}",
                           l2, hline=1.0, hline_label="1.0 = no difference")
    style.caption(fig, f"warm: {warm.caption(what='median of {reps} runs without L2 flush')}\n"
                  f"cold: {cold.caption()}" + ("" if l2 else f"\n({l2_note}.)"), y=-0.01)
    return fig, f"{warm.path.name} / {cold.path.name}; {l2_note}"


# ---- one step's CSV -------------------------------------------------------------------------

def _power_of_two_square(rows, cols):
    return rows == cols and rows > 0 and rows & (rows - 1) == 0


def step(step_name, results=RESULTS):
    """% of cudaMemcpy against matrix size for every kernel of one step's CSV, per dtype: lines
    through the power-of-two squares, markers alone at the other shapes."""
    table = require(step_name, results)
    dtypes = table.dtypes()
    shapes = sorted({(r["rows"], r["cols"]) for r in table.rows}, key=lambda s: (s[0] * s[1], s))
    position = {s: i for i, s in enumerate(shapes)}
    kernels = [k for k in style.kernel_order(table.rows) if k[1] != MEMCPY]
    failed = {k: [] for k in kernels}  # where each kernel failed verification
    fig, axes = _panel_grid(len(dtypes), width=5.6, height=4.0)
    handles = {}
    for ax, d in zip(axes, dtypes):
        top = 110.0
        for i, (s, kernel) in enumerate(kernels):
            mine = sorted(table.where(dtype=d, step=s, kernel=kernel),
                          key=lambda r: position[(r["rows"], r["cols"])])
            if not mine:
                continue
            xs = [position[(r["rows"], r["cols"])] for r in mine]
            ys = [r["pct_of_memcpy"] if r["verified"] else math.nan for r in mine]
            look = style.line_style(s, kernel, i) if s == REF else dict(
                color=style.STEP_COLOURS[i % len(style.STEP_COLOURS)],
                marker=style.MARKERS[i % len(style.MARKERS)], linestyle="-")
            # A line joins the power-of-two squares only, a series of sizes; the other shapes
            # (rectangles, odd sizes) sit between them on the axis as categories, as markers alone.
            series = [j for j, r in enumerate(mine) if _power_of_two_square(r["rows"], r["cols"])]
            line, = ax.plot([xs[j] for j in series], [ys[j] for j in series], markersize=6,
                            label=style.kernel_label(s, kernel), **look)
            ax.plot(xs, ys, markersize=6, **{**look, "linestyle": "none"})
            handles.setdefault((s, kernel), line)
            bad = [x for x, r in zip(xs, mine) if not r["verified"]]
            if bad:
                ax.plot(bad, [0] * len(bad), color=line.get_color(), clip_on=False, **style.FAILED_MARK)
                failed[(s, kernel)] += [size_label(*shapes[x]) + f" {d}" for x in bad]
            top = max([top] + [y + 8 for y in ys if not math.isnan(y)])
        ax.axhline(100, color=style.MEMCPY_COLOUR, linewidth=1.3)
        ax.set_xticks(range(len(shapes)), [size_label(*s) for s in shapes],
                      rotation=30 if len(shapes) > 5 else 0)
        ax.set_xlim(-0.4, len(shapes) - 0.6)
        ax.set_ylim(0, top)
        ax.set_xlabel("matrix size (rows x cols)")
        ax.set_ylabel("% of cudaMemcpy")
        ax.set_title(f"{d} ({DTYPE_BYTES[d]} bytes)", loc="left")
    legend, labels = [], []
    for k in kernels:
        if k in handles:
            legend.append(handles[k])
            label = style.kernel_label(*k)
            labels.append(label + (f"\n  FAILED: {', '.join(failed[k])}" if failed[k] else ""))
    legend.append(Line2D([], [], color=style.MEMCPY_COLOUR, linewidth=1.3))
    labels.append(f"{MEMCPY} = 100%")
    if any(failed.values()):
        legend.append(Line2D([], [], color="grey", **style.FAILED_MARK))
        labels.append("FAILED verification (no timing)")
    fig.legend(legend, labels, loc="upper left", bbox_to_anchor=(1.0, 0.95), title="kernel")
    fig.suptitle(f"Step {style.step_label(step_name)}: every kernel as a percentage of cudaMemcpy"
                 f" — {table.gpu}")
    style.caption(fig, table.caption(), y=-0.01)
    return fig, table.path.name
