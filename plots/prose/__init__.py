"""Numbers that the prose quotes, computed from the committed results CSVs.

A sentence in a chapter may quote a measured number, or one derived from measurements (a
median of runs, a range, a count of wins). It does not type it: the number lives between two
marker comments, and plots/tables.py writes it there from a function of this package:

    The two passes reach <!-- value lab.two_pass_8192 -->42.9 to 43.4%<!-- /value --> ...

`lab.two_pass_8192` is the function `two_pass_8192` of plots/prose/lab.py; it returns the text
to show. One module per part of the docs (lab.py for lab/README.md, steps.py for the chapters,
pages.py for the README and the other pages). The helpers below read the CSVs the same way
the tables do (the newest file of a source). Standard library only.
"""
import importlib
from decimal import ROUND_HALF_UP, Decimal
import re
import statistics

import results

DTYPES = results.DTYPES


def table(source):
    """The newest results Table of `source` (e.g. "08_inplace_rect"); stops with a message if none."""
    found = results.newest(source, results.RESULTS)
    if found is None:
        raise SystemExit(f"prose: no docs/results/{source}_*.csv for a quoted value")
    return found


def file(name):
    """One committed CSV by its file name (e.g. "tour_run2_h200_2026-11-23.csv"), for a number
    that an older run than the newest of its source gave."""
    path = results.RESULTS / name
    if not path.exists():
        raise SystemExit(f"prose: no docs/results/{name} for a quoted value")
    return results.read(path)


def report(source):
    """The newest docs/results/<source>_<gpu>_<date>.txt (or <source>_<date>.txt): a report kept
    as written (Nsight Compute's details page, the timed commands), for a function to parse."""
    name = re.compile(re.escape(source) + r"(?:_[^_]+)?_(\d{4}-\d{2}-\d{2})\.txt")
    found = sorted((m.group(1), p.name, p) for p in results.RESULTS.glob(f"{source}_*.txt") if (m := name.fullmatch(p.name)))
    if not found:
        raise SystemExit(f"prose: no docs/results/{source}_*.txt for a quoted value")
    return found[-1][2]


def runs(source):
    """The newest Table of `source` and of each repeat run `<source>_runN` (N = 2, 3, ...), in
    that order: the same benchmark run again in other processes, for medians over runs."""
    found = [table(source)]
    names = {p.name for p in results.RESULTS.glob(f"{source}_run*_*.csv")}
    numbers = sorted({int(m.group(1)) for n in names if (m := re.match(re.escape(source) + r"_run(\d+)_", n))})
    return found + [table(f"{source}_run{k}") for k in numbers]


def one(rows, what):
    """The single row of `rows` (a list from Table.where); stops with a message otherwise."""
    if len(rows) != 1:
        raise SystemExit(f"prose: {len(rows)} rows for {what}, expected one")
    return rows[0]


def row(tbl, **equal):
    """The one row of Table `tbl` whose columns equal the given values (shape as rows=, cols=)."""
    return one(tbl.where(**equal), f"{equal} in {tbl.path.name}")


def pct(tbl, **equal):
    """% of cudaMemcpy of the one matching row; a row that failed verification stops the run."""
    r = row(tbl, **equal)
    if not r["verified"]:
        raise SystemExit(f"prose: {equal} in {tbl.path.name} failed verification")
    return r["pct_of_memcpy"]


def gbps(tbl, **equal):
    """GB/s of the one matching row (verified, as pct)."""
    pct(tbl, **equal)
    return row(tbl, **equal)["gbps"]


def median(values):
    return statistics.median(values)


def num(x, digits=1):
    """A number as the prose shows it, rounded half up from the digits the CSV wrote (not from
    the float nearest to them): 42.94 -> '42.9', 1.15 -> '1.2'."""
    return str(Decimal(repr(x)).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP))


def span(values, digits=1, unit=""):
    """'39.6 to 45.3' (lowest to highest), or one number if they print the same."""
    lo, hi = num(min(values), digits), num(max(values), digits)
    return f"{lo}{unit}" if lo == hi else f"{lo} to {hi}{unit}"


def value(name, *args):
    """The text of the quoted value `module.function` (plots/prose/<module>.py), called with
    `args` (words of the marker after the name, e.g. a type)."""
    module, _, function = name.partition(".")
    if not function or not re.fullmatch(r"[a-z_]+", module):
        raise SystemExit(f"prose: '{name}' is not <module>.<function>")
    try:
        found = getattr(importlib.import_module(f"prose.{module}"), function)
    except (ModuleNotFoundError, AttributeError):
        raise SystemExit(f"prose: no function {function} in plots/prose/{module}.py for '{name}'") from None
    text = found(*args)
    if not isinstance(text, str):
        raise SystemExit(f"prose: {name} returned {type(text).__name__}, not the text to show")
    return text
