"""The look shared by every figure, and save(), which writes docs/images/<name>.png and .svg.

Colours: each step keeps one colour in every figure (step 05 is the same blue in the bar
chart, the size sweep and the profile); cudaMemcpy is black, library references are grey
and dashed. Saving is deterministic: the same CSVs give byte-identical SVGs.
"""
import pathlib

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402  (after use())

from results import IMAGES, MEMCPY, REF  # noqa: E402

matplotlib.rcParams.update({
    "font.size": 10,             # every text at least 9 pt, readable in print
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "figure.titlesize": 12,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
    "svg.hashsalt": "transpose-tutorial",  # fixed ids inside the SVG: reproducible files
    "svg.fonttype": "path",                # glyphs as paths: same look without the fonts
})

# One colour per step number (00..08), colour-blind-friendly (Okabe-Ito plus a few), no grey.
STEP_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
                "#D55E00", "#882255", "#117733", "#AA4499"]
MEMCPY_COLOUR = "black"
REF_COLOUR = "#777777"
DTYPE_COLOURS = {"float": "#0072B2", "half": "#E69F00", "double": "#009E73", "bf16": "#CC79A7"}
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">"]
FAILED_MARK = dict(marker="X", markersize=11, markeredgecolor="#C00000", markeredgewidth=1.5,
                   linestyle="none")
LABEL_BOX = dict(facecolor="white", edgecolor="none", alpha=0.8, pad=0.6)  # values over lines stay legible
CAPTION_SIZE = 9
DPI = 150


def step_label(step):
    """'01_naive_row' -> '01 naive row' (as the README's chapter index says it)."""
    return step.replace("_", " ")


def step_number(step):
    return int(step[:2]) if step[:2].isdigit() else None


def step_colour(step):
    n = step_number(step)
    return STEP_COLOURS[n % len(STEP_COLOURS)] if n is not None else REF_COLOUR


def kernel_order(rows):
    """(step, kernel) pairs: cudaMemcpy first, then the steps in order, then the references."""
    pairs = list(dict.fromkeys((r["step"], r["kernel"]) for r in rows))
    def key(pair):
        step, kernel = pair
        return (0 if kernel == MEMCPY else 2 if step == REF else 1, step)
    return sorted(pairs, key=key)  # sorted() is stable: kernels of one step keep their order


def line_style(step, kernel, index=0):
    """Colour, marker and dash for one kernel's line in a sweep plot."""
    if kernel == MEMCPY:
        return dict(color=MEMCPY_COLOUR, marker="o", linestyle="-", linewidth=2.2)
    if step == REF:
        return dict(color=REF_COLOUR, marker=MARKERS[(index + 3) % len(MARKERS)], linestyle="--")
    return dict(color=step_colour(step), marker=MARKERS[(step_number(step) or 0) % len(MARKERS)],
                linestyle="-")


def kernel_label(step, kernel):
    """How a kernel is named in legends: '05 shared: transpose_tiled', 'cublas_geam'."""
    return kernel if step == REF else f"{step_label(step)}: {kernel}"


def wrap(name, width=12):
    """A long identifier over several lines, broken after underscores:
    'transpose_naive_row' -> 'transpose_\nnaive_row'."""
    lines = [""]
    for part in name.replace("_", "_\0").split("\0"):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


def caption(fig, text, y=0.0):
    """The source line under a figure (GPU, CUDA, commit, date, CSV file)."""
    fig.text(0.01, y, text, fontsize=CAPTION_SIZE, color="#444444", ha="left", va="top")


def size_formatter(value, _pos=None):
    """Tick label for a byte count on a log axis: decimal units (1 MB = 10^6 B), as GB/s uses."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if value >= scale:
            number = value / scale
            return f"{number:.0f} {unit}" if number >= 1 and abs(number - round(number)) < 1e-9 \
                else f"{number:.3g} {unit}"
    return f"{value:.0f} B"


def bytes_text(n):
    """'52.4 MB (50 MiB)': decimal, and binary too when that is a whole number."""
    text = size_formatter(n)
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale and n % scale == 0:
            return f"{text} ({n // scale} {unit})"
    return text


def save(fig, name, out_dir=IMAGES):
    """Writes <out_dir>/<name>.png (150 dpi) and .svg, without dates or version stamps, so that
    the same inputs give the same files. Returns the two paths."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    png, svg = out_dir / f"{name}.png", out_dir / f"{name}.svg"
    common = dict(bbox_inches="tight", pad_inches=0.15, facecolor="white")
    fig.savefig(png, dpi=DPI, metadata={"Software": None}, **common)
    fig.savefig(svg, metadata={"Date": None, "Creator": None}, **common)
    plt.close(fig)
    return png, svg


def bare(ax):
    """Axes for a drawn grid of cells: equal aspect, no ticks, no grid lines, no frame."""
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.grid(False)
    for side in ax.spines.values():
        side.set_visible(False)
