"""The in-place transpose of a rectangle, drawn on a small matrix: the grid after each pass,
every element labelled with its starting position. Two figures: the three passes of step 08's
rect.cuh (diagram) and the two passes of its squares and cycles.cuh (diagram_two). The index
maths is in plots/inplace.py.
"""
import math

import matplotlib.pyplot as plt
from matplotlib.collections import PatchCollection
from matplotlib.patches import Rectangle

import fig_access
import inplace
import style

NAME = "inplace_rect"
NAME_TWO = "inplace_two"


def _panel(ax, grid, n_start, title, rows_step=None, cols_step=None):
    """One grid; each element coloured by its starting column (its row of the transpose).
    Black lines every rows_step rows and every cols_step columns, where given."""
    rows, cols = len(grid), len(grid[0])
    colours = [fig_access.LANES((grid[r][c] % n_start) / max(1, n_start - 1)) for r in range(rows) for c in range(cols)]
    ax.add_collection(PatchCollection([Rectangle((c, r), 1, 1) for r in range(rows) for c in range(cols)],
                                      facecolor=colours, edgecolor="white", linewidth=1.0))
    for r in range(rows):
        for c in range(cols):
            ax.text(c + 0.5, r + 0.5, str(grid[r][c]), ha="center", va="center", fontsize=9,
                    color=fig_access._text_colour(colours[r * cols + c]))
    for r in range(rows_step or rows, rows, rows_step or rows):
        ax.plot([0, cols], [r, r], color="black", linewidth=2)
    for c in range(cols_step or cols, cols, cols_step or cols):
        ax.plot([c, c], [0, rows], color="black", linewidth=2)
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    style.bare(ax)
    ax.set_title(title, fontsize=9)


def diagram(m=4, n=6):
    """The passes on an m x n matrix, then the last grid read as n x m: the transpose."""
    steps = inplace.passes(m, n)
    fig, axes = plt.subplots(1, len(steps) + 1, figsize=(2.6 * (len(steps) + 1), 2.6),
                             gridspec_kw={"width_ratios": [n] * len(steps) + [m]})
    for ax, (title, grid) in zip(axes, steps):
        _panel(ax, grid, n, title)
    flat = [x for row in steps[-1][1] for x in row]
    _panel(axes[-1], [flat[k * m:(k + 1) * m] for k in range(n)], n, f"read as {n} x {m}")
    c = math.gcd(m, n)
    fig.suptitle(f"In place, {m} x {n} (c = gcd = {c}, a = {m // c}, b = {n // c}): each element "
                 f"labelled with its starting position i n + j, coloured by its column j", y=1.02)
    return fig


def diagram_two(m=4, n=6):
    """The two passes on an m x n matrix: squares (lines around them), chunks (lines between
    them), then the last grid read as n x m: the transpose."""
    steps = inplace.two_passes(m, n)
    g = math.gcd(m, n)
    fig, axes = plt.subplots(1, len(steps) + 1, figsize=(2.6 * (len(steps) + 1), 2.6),
                             gridspec_kw={"width_ratios": [n] * len(steps) + [m]})
    for ax, (title, grid), lines in zip(axes, steps, [(g, g), (g, g), (None, g)]):
        _panel(ax, grid, n, title, *lines)
    flat = [x for row in steps[-1][1] for x in row]
    _panel(axes[-1], [flat[k * m:(k + 1) * m] for k in range(n)], n, f"read as {n} x {m}")
    cycles = " ".join("(" + " ".join(str(y) for y in cycle) + ")" for cycle in inplace.cycles(m, n))
    fig.suptitle(f"In place in two passes, {m} x {n} (g = gcd = {g}): squares of {g} x {g}, then "
                 f"chunks of {g} along the cycles {cycles}", y=1.02)
    return fig
