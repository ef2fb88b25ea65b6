"""Numbers quoted in lab/README.md's sentences (see plots/prose/__init__.py)."""
from prose import DTYPES, median, pct, runs, span


def _end_to_end(rows, cols):
    """{dtype: [% of cudaMemcpy of step 08's transpose_inplace in each 08_inplace_rect run]}."""
    return {d: [pct(t, kernel="inplace", dtype=d, rows=rows, cols=cols) for t in runs("08_inplace_rect")]
            for d in DTYPES}


def two_pass_8192_medians():
    """The medians over the runs of 08_inplace at 8192 x 16384, lowest to highest type."""
    return span([median(v) for v in _end_to_end(8192, 16384).values()], unit="%")


def two_pass_8192_singles():
    """Every single run of 08_inplace at 8192 x 16384, every type: lowest to highest."""
    return span([x for v in _end_to_end(8192, 16384).values() for x in v], unit="%")


def _lab_pass(kernel, dtype, rows, cols):
    return [pct(t, kernel=kernel, dtype=dtype, rows=rows, cols=cols) for t in runs("lab_inplace_rect")]


def _aligned_wins(pass_):
    """(wins, comparisons): in how many (type, orientation, run) 10240 x 7168's pass beat 10000 x 7000's."""
    wins = total = 0
    for order, shapes in (("rxc", ((10000, 7000), (10240, 7168))), ("cxr", ((7000, 10000), (7168, 10240)))):
        kernel = f"cycles_{pass_}_{order}"
        for d in DTYPES:
            odd, aligned = (_lab_pass(kernel, d, *s) for s in shapes)
            wins += sum(a > o for a, o in zip(aligned, odd))
            total += len(odd)
    return wins, total


def aligned_squares_wins():
    wins, total = _aligned_wins("pass1_squares")
    return f"{wins} of {total}" if wins < total else f"all {total}"


def aligned_chunks_wins():
    return str(_aligned_wins("pass2_chunks")[0])
