"""The index maths of step 08's in-place transpose of a rectangle (steps/08_inplace/rect.cuh),
written again in Python for the figure (fig_inplace.py): make_plan, prerotate_source,
shuffle_target and permute_source are rect.cuh's functions; passes() applies them to a small
matrix. plots/test_inplace.py checks that the passes compose to the transpose on every shape up
to 24 x 24, as tests/cpu/test_rect.cu does for the C++. Standard library only.
"""
import math


def make_plan(m, n):
    """(m, n, c, a, b): c = gcd(m, n), a = m / c, b = n / c."""
    c = math.gcd(m, n)
    return m, n, c, m // c, n // c


def prerotate_source(plan, r, j):
    """Pass 1: the row whose element moves to row r of column j (column j rotates down by j / b)."""
    m, _, _, _, b = plan
    return (r - j // b) % m


def shuffle_target(plan, i_prime, j):
    """Pass 2: the column that element j of row i' moves to, its final column."""
    m, n, _, _, b = plan
    i = (i_prime - j // b) % m
    return (j * m + i) % n


def permute_source(plan, r, col):
    """Pass 3: the row whose element moves to row r of column col."""
    m, n, _, a, _ = plan
    return ((r * n + r // a) % m + col) % m


def passes(m, n):
    """The m x n grid (a list of rows of starting positions i n + j) at the start and after
    each pass that runs: [(title, grid)]. Pass 1 runs only when gcd(m, n) > 1."""
    plan = make_plan(m, n)
    grid = [[i * n + j for j in range(n)] for i in range(m)]
    steps = [("start", grid)]
    if plan[2] > 1:
        grid = [[grid[prerotate_source(plan, r, j)][j] for j in range(n)] for r in range(m)]
        steps.append(("pass 1: columns rotate", grid))
    shuffled = [[None] * n for _ in range(m)]
    for i in range(m):
        for j in range(n):
            shuffled[i][shuffle_target(plan, i, j)] = grid[i][j]
    grid = shuffled
    steps.append(("pass 2: rows shuffle", grid))
    grid = [[grid[permute_source(plan, r, col)][col] for col in range(n)] for r in range(m)]
    steps.append(("pass 3: columns permute", grid))
    return steps
