"""The index maths of step 08's in-place transpose of a rectangle, written again in Python for
the figures (fig_inplace.py). Three passes (steps/08_inplace/rect.cuh): make_plan,
prerotate_source, shuffle_target and permute_source are rect.cuh's functions; passes() applies
them to a small matrix. Two passes (kernel.cuh's transpose_squares, then
steps/08_inplace/cycles.cuh): chunk_source is cycles.cuh's source(), cycles() its cycles, and
two_passes() applies both passes. plots/test_inplace.py checks that both compose to the
transpose on every shape up to 24 x 24, as tests/cpu/test_rect.cu and test_cycles.cu do for
the C++. Standard library only.
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


def chunk_source(p, g, q, y):
    """The chunk position whose chunk moves to position y (cycles.cuh's source()): y is chunk
    (j, c, i) of the transpose, which was chunk (i, c, j), at (i g + c) q + j."""
    i, c, j = y % p, y // p % g, y // (p * g)
    return (i * g + c) * q + j


def cycles(m, n):
    """The cycles of the chunk permutation of an m x n matrix, fixed points left out: each a
    list of positions y_0, y_1 = chunk_source(y_0), ..."""
    g = math.gcd(m, n)
    p, q = m // g, n // g
    seen, found = set(), []
    for y0 in range(m * n // g):
        cycle, y = [], y0
        while y not in seen:
            seen.add(y)
            cycle.append(y)
            y = chunk_source(p, g, q, y)
        if len(cycle) > 1:
            found.append(cycle)
    return found


def two_passes(m, n):
    """The m x n grid at the start, after pass 1 (every g x g square transposed where it
    stands) and after pass 2 (the chunks of g elements moved along their cycles): [(title,
    grid)]."""
    g = math.gcd(m, n)
    grid = [[i * n + j for j in range(n)] for i in range(m)]
    steps = [("start", grid)]
    squares = [[grid[r - r % g + c % g][c - c % g + r % g] for c in range(n)] for r in range(m)]
    steps.append(("pass 1: squares transpose", squares))
    flat = [x for row in squares for x in row]
    moved = list(flat)
    for cycle in cycles(m, n):  # position y takes the chunk of the next position in its cycle
        for k, y in enumerate(cycle):
            source = cycle[(k + 1) % len(cycle)]
            moved[y * g:(y + 1) * g] = flat[source * g:(source + 1) * g]
    steps.append(("pass 2: chunks move", [moved[r * n:(r + 1) * n] for r in range(m)]))
    return steps
