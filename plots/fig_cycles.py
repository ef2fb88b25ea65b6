"""The chunk permutation of step 08's two passes, drawn on a small matrix: the chunks in memory
order after the squares pass (every c x c square transposed where it stands, c = gcd(m, n), which
cycles.cuh calls g) and after the cycles pass, each position numbered, with an arrow from the
position a chunk leaves to the one it fills, coloured by its cycle. The index maths is
cycles.cuh's source(), in Python in plots/inplace.py.
"""
import math

import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, Rectangle

import inplace
import style

NAME = "inplace_cycles"
CYCLE_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]


def diagram(m=4, n=6):
    """Two rows of the m n / c chunk positions (the squares pass's result above, the cycles
    pass's below), and the arrows of the permutation's cycles between them."""
    c = math.gcd(m, n)
    q = n // c                      # chunks per matrix row
    count = m * n // c              # chunk positions
    steps = inplace.two_passes(m, n)
    before = [x for row in steps[1][1] for x in row]
    after = [x for row in steps[2][1] for x in row]
    cycles = inplace.cycles(m, n)
    colour_of = {y: CYCLE_COLOURS[k % len(CYCLE_COLOURS)] for k, cycle in enumerate(cycles) for y in cycle}

    gap = 0.35                      # between two matrix rows
    x_of = [y + (y // q) * gap for y in range(count)]
    top, bottom, height = 3.0, 0.0, 1.0
    fig, ax = plt.subplots(figsize=(0.78 * (count + (m - 1) * gap) + 1.6, 4.1))
    for y in range(count):
        colour = colour_of.get(y, "#bbbbbb")
        for level, values in ((top, before), (bottom, after)):
            ax.add_patch(Rectangle((x_of[y], level), 0.9, height, facecolor=colour, alpha=0.18,
                                   edgecolor=colour, linewidth=1.2))
            ax.text(x_of[y] + 0.45, level + height / 2, " ".join(str(v) for v in values[y * c:(y + 1) * c]),
                    ha="center", va="center", fontsize=9)
        ax.text(x_of[y] + 0.45, top + height + 0.12, str(y), ha="center", va="bottom", fontsize=10, fontweight="bold")
        ax.text(x_of[y] + 0.45, bottom - 0.12, str(y), ha="center", va="top", fontsize=10, fontweight="bold")
    for r in range(m):              # which row of the m x n matrix each run of q positions is
        ax.text(x_of[r * q] + (q - 0.1) / 2, bottom - 0.62, f"row {r}", ha="center", va="top", fontsize=9, color="#444444")
    for y in range(count):          # position y takes the chunk of position s: an arrow s -> y
        s = inplace.chunk_source(m // c, c, q, y)
        colour = colour_of.get(y, "#bbbbbb")
        ax.add_patch(FancyArrowPatch((x_of[s] + 0.45, top - 0.04), (x_of[y] + 0.45, bottom + height + 0.04),
                                     arrowstyle="-|>", mutation_scale=11, color=colour,
                                     linewidth=1.6 if s != y else 0.8, linestyle="-" if s != y else ":"))
    ax.text(-0.25, top + height / 2, "after the\nsquares pass", ha="right", va="center", fontsize=9)
    ax.text(-0.25, bottom + height / 2, "after the\ncycles pass", ha="right", va="center", fontsize=9)
    ax.set_xlim(-1.9, x_of[-1] + 1.1)
    ax.set_ylim(bottom - 1.1, top + height + 0.6)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.grid(False)
    names = " ".join("(" + " ".join(str(y) for y in cycle) + ")" for cycle in cycles)
    fig.suptitle(f"The cycles pass on a {m} x {n} matrix (c = {c}): {count} chunks, numbered by position; an arrow takes a chunk\n"
                 f"to the position it fills, one colour per cycle: {names}; dotted: the chunks that stay",
                 fontsize=10, y=1.0)
    return fig


if __name__ == "__main__":  # python3 plots/fig_cycles.py: draws it into docs/images/
    style.save(diagram(), NAME)
