#!/usr/bin/env python3
"""Regenerate what the chapters and the README quote: results tables from docs/results/*.csv
and code snippets from the kernels, so that no number and no line of code is typed by hand.

A table lives between two marker comments in a Markdown file:

    <!-- table source=00_copy rows=kernel cols=dtype value=pct rows_eq=16384 -->
    ...generated, do not edit...
    <!-- /table -->

source   results CSV: the newest docs/results/<source>_<gpu>_<date>.csv
rows     CSV column whose values become table rows (in order of first appearance)
cols     CSV column whose values become table columns
value    gbps | pct | ms | gbps_pct | ratio, or any CSV column, shown as written
values   instead of rows/value: these CSV columns (comma separated) become the rows, e.g.
         the Nsight Compute metrics of source=ncu
X_eq=V   keep only CSV rows whose column X equals V (any number of these)
X_in=V,W keep only CSV rows whose column X is one of V, W, ... (any number of these)
X_ne=V   leave out CSV rows whose column X equals V (e.g. step_ne=lab: the main line only)
cols_order=A,B  the columns in this order (default: as they first appear in the CSV)
unchecked=K,L  kernels that move bytes without transposing them, so that nothing is verified
         (step 09's nccl_alltoall, local_work): their rows are shown as measured, not as FAILED
date=D   the source's file of day D (YYYY-MM-DD) instead of the newest: for rows of kernels that
         are no longer built, which a later run of the source would not write
gpu=S    the newest file of the GPU whose slug is S (e.g. h100-80gb-hbm3) instead of the pages'
         GPU (results.PAGES_GPU)

A table can also divide one source by another, row by row (same step, kernel, dtype and
shape), e.g. how much a warm L2 inflates GB/s:

    <!-- table source=sweep_warm divide=sweep_cold rows=shape cols=kernel value=ratio dtype_eq=float -->

`shape` ("4096x4096") and `mb` (MB moved) can be used like CSV columns.

A table can put words beside the numbers: with `notes=docs/FILE.csv` (a CSV of text, typed by
hand and holding no measurement) the rows are that file's rows, keyed by its first column (the
values of `rows`), its other columns are shown as written, and the measured columns go where
its header has a `*`:

    <!-- table source=tour rows=kernel cols=dtype value=pct rows_eq=16384 notes=docs/summary.csv -->

The navigation line of a page (previous, contents, next; pages in the reading order of
docs/pages.txt) lives between `<!-- nav -->` and `<!-- /nav -->`.

A code snippet is the region of a source file between two `// [name]` lines (the marker
Doxygen's \\snippet uses):

    <!-- snippet steps/00_copy/kernel.cuh copy_naive -->
    ...generated...
    <!-- /snippet -->

A diff shows what one step changed in another's code: a unified diff, with every line of
both as context, from the snippets of the first file (names joined by commas, in order) to
those of the second:

    <!-- diff steps/06_padded/kernel.cuh padded steps/07_coarsen/kernel.cuh tile,coarsen -->
    ...generated...
    <!-- /diff -->

A number quoted in a sentence (a measurement, or a median, range or count derived from
measurements) lives between two inline marker comments; the text between them is what the
function `two_pass_8192` of plots/prose/lab.py returns (see plots/prose/__init__.py). Words
after the name are passed to the function as arguments (e.g. a type: `steps.cap half`):

    reach <!-- value lab.two_pass_8192 -->42.9 to 43.4%<!-- /value --> of cudaMemcpy

    python3 plots/tables.py           rewrite every table, snippet, diff and value in place
    python3 plots/tables.py --check   exit 1 if any table differs from what the CSVs give
"""
import argparse
import csv
import difflib
import os
import re
import sys

import prose  # plots/prose/: the numbers quoted in sentences
import results  # plots/results.py: where the CSVs are and which one is the newest
from results import RESULTS, ROOT

# The docs in reading order (docs/pages.txt: the README, how to read, the method, the steps'
# chapters, the lab, beyond this tutorial, the glossary).
DOCS = [ROOT / line for line in (ROOT / "docs" / "pages.txt").read_text().split("\n")
        if line and not line.startswith("#")]
NAV = re.compile(r"(<!-- nav -->\n)(?P<body>.*?)(<!-- /nav -->)", re.S)
BLOCK = re.compile(r"(<!-- table (?P<spec>[^>]*?) -->\n)(?P<body>.*?)(<!-- /table -->)", re.S)
SNIPPET = re.compile(r"(<!-- snippet (?P<file>\S+) (?P<name>\S+) -->\n)(?P<body>.*?)(<!-- /snippet -->)", re.S)
DIFF = re.compile(r"(<!-- diff (?P<old>\S+) (?P<old_names>\S+) (?P<new>\S+) (?P<new_names>\S+) -->\n)(?P<body>.*?)"
                  r"(<!-- /diff -->)", re.S)
VALUE = re.compile(r"(<!-- value (?P<name>[\w.]+)(?P<args>(?: [\w.]+)*) -->)(?P<body>[^<\n]*)(<!-- /value -->)")


def snippet_lines(file, name):
    """The lines of `file` between its two `// [name]` lines."""
    lines = (ROOT / file).read_text().split("\n")
    marks = [i for i, line in enumerate(lines) if line.strip() == f"// [{name}]"]
    if len(marks) != 2:
        raise SystemExit(f"tables.py: {file} needs exactly two '// [{name}]' lines, found {len(marks)}")
    return lines[marks[0] + 1:marks[1]]


def snippet(file, name):
    body = "\n".join(snippet_lines(file, name))
    return f"```cpp\n{body}\n```\n"


def diff(old, old_names, new, new_names):
    """Unified diff from the snippets `old_names` of `old` to `new_names` of `new`, whole."""
    def lines(file, names):  # the snippets in order, a blank line between two
        return [line for i, name in enumerate(names.split(",")) for line in [""] * (i > 0) + snippet_lines(file, name)]

    a, b = lines(old, old_names), lines(new, new_names)
    body = list(difflib.unified_diff(a, b, old, new, n=len(a) + len(b), lineterm=""))
    return "```diff\n" + "\n".join(body) + "\n```\n"


def newest_csv(source, date=None, gpu=None):
    """The newest docs/results/<source>_<gpu>_<date>.csv: the same choice the figures make.
    With `date` (YYYY-MM-DD), the newest of that day; with `gpu` (a slug), of that GPU."""
    found = [p for p in results.files(source, RESULTS, gpu) if date is None or p.name.endswith(f"_{date}.csv")]
    if not found:
        on = (f" of {date}" if date else "") + (f" of GPU {gpu}" if gpu else "")
        raise SystemExit(f"tables.py: no docs/results/{source}_*{on}.csv for a table")
    return found[-1]


def load(source, date=None, gpu=None):
    path = newest_csv(source, date, gpu)
    with path.open() as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        if "rows" in r:  # a results CSV; a CSV of other measurements may have no shape
            r["shape"] = f"{r['rows']}x{r['cols']}"
        if "bytes" in r:
            r["mb"] = f"{int(r['bytes']) / 1e6:.1f}"
    return path, rows


def key(row):
    return tuple(row[k] for k in ("step", "kernel", "dtype", "rows", "cols"))


def cell(row, value):
    if value in FORMATS:
        checked = row["verified"] == "true" or row.get("unchecked", False)
        if not checked or row.get("divisor", {}).get("verified", "true") != "true":
            return "FAILED"
        return FORMATS[value](row)
    return row[value] or "-"  # a CSV column as written (e.g. an Nsight Compute metric)


FORMATS = {
    "gbps": lambda r: f"{float(r['gbps']):.0f}",
    "pct": lambda r: f"{float(r['pct_of_memcpy']):.1f}%",
    "ms": lambda r: f"{float(r['ms_median']):.3f}",
    "gbps_pct": lambda r: f"{float(r['gbps']):.0f} ({float(r['pct_of_memcpy']):.0f}%)",
    "ratio": lambda r: f"{float(r['gbps']) / float(r['divisor']['gbps']):.2f}x",
}
LABELS = {"gbps": "GB/s", "pct": "% of cudaMemcpy", "ms": "ms (median)", "gbps_pct": "GB/s (% of cudaMemcpy)",
          "ratio": "GB/s of the first file over GB/s of the second"}


def caption(spec, first, sources):
    where = f"{first['gpu']}, CUDA {first['cuda']}, commit {first['git_sha']}"
    if spec["source"].startswith("ncu"):
        return f"*Nsight Compute, one launch per kernel (caches flushed before it, clocks as they are); {where}; from {sources}.*"
    if "reps" not in first:  # not a benchmark's CSV: no repetitions to state
        return f"*{where}; from {sources}.*"
    if "value" not in spec:  # columns as measured (e.g. 00_latency's laps), no cudaMemcpy ratio
        return f"*{where}, median of {first['reps']} runs; from {sources}.*"
    what = LABELS.get(spec["value"], spec["value"])
    runs = "warm-L2 runs" if "warm" in spec["source"] else "cold-L2 runs"
    return f"*{what}; {where}, median of {first['reps']} {runs}; from {sources}.*"


def notes_table(notes_path, col_keys, cells):
    """The lines of a table whose rows and text columns come from the CSV `notes_path` (first
    column: the row key), with the measured columns `col_keys` where its header has `*`."""
    with notes_path.open() as f:
        header, *notes = list(csv.reader(f))
    if "*" not in header[1:]:
        raise SystemExit(f"tables.py: {notes_path.name} needs a '*' column: where the measured columns go")
    star = header.index("*")
    titles = header[1:star] + col_keys + header[star + 1:]
    align = ["---"] * (star - 1) + ["---:"] * len(col_keys) + ["---"] * (len(header) - star - 1)
    lines = ["| " + " | ".join(titles) + " |", "|" + "|".join(align) + "|"]
    for note in notes:
        measured = [cells.get((note[0], ck), "") for ck in col_keys]
        lines.append("| " + " | ".join(note[1:star] + measured + note[star + 1:]) + " |")
    return lines


def render(spec_text):
    """One table. With `values=a,b,c` the rows are those CSV columns (e.g. profiler metrics)."""
    spec = dict(item.split("=", 1) for item in spec_text.split())
    path, rows = load(spec["source"], spec.get("date"), spec.get("gpu"))
    sources = f"`docs/results/{path.name}`"
    if "divide" in spec:
        divisor_path, divisors = load(spec["divide"])
        by_key = {key(r): r for r in divisors}
        rows = [dict(r, divisor=by_key[key(r)]) for r in rows if key(r) in by_key]
        sources += f" divided by `docs/results/{divisor_path.name}`"
    for name, want in spec.items():
        if name.endswith("_eq"):
            rows = [r for r in rows if r[name[:-3]] == want]
        if name.endswith("_in"):
            rows = [r for r in rows if r[name[:-3]] in want.split(",")]
        if name.endswith("_ne"):
            rows = [r for r in rows if r[name[:-3]] != want]
    if not rows:
        raise SystemExit(f"tables.py: no rows in {path.name} for '{spec_text}'")
    unchecked = set(spec["unchecked"].split(",")) if "unchecked" in spec else set()
    rows = [dict(r, unchecked=r.get("kernel") in unchecked) for r in rows]
    col_keys = list(dict.fromkeys(r[spec["cols"]] for r in rows))
    if "cols_order" in spec:
        order = spec["cols_order"].split(",")
        if sorted(order) != sorted(col_keys):
            raise SystemExit(f"tables.py: cols_order {order} is not the columns {col_keys} of '{spec_text}'")
        col_keys = order
    if "values" in spec:
        row_title, row_keys = "metric", spec["values"].split(",")
        cells = {(v, r[spec["cols"]]): cell(r, v) for r in rows for v in row_keys}
    else:
        row_title = spec["rows"]
        row_keys = list(dict.fromkeys(r[spec["rows"]] for r in rows))
        cells = {(r[spec["rows"]], r[spec["cols"]]): cell(r, spec["value"]) for r in rows}
    if "notes" in spec:
        lines = notes_table(ROOT / spec["notes"], col_keys, cells)
    else:
        lines = [f"| {row_title} | " + " | ".join(col_keys) + " |", "|---|" + "---:|" * len(col_keys)]
        for rk in row_keys:
            lines.append(f"| {rk} | " + " | ".join(cells.get((rk, ck), "") for ck in col_keys) + " |")
    lines += ["", caption(spec, rows[0], sources)]
    return "\n".join(lines) + "\n"


def chapters():
    """The docs in reading order, each with its title (its first '# ' line)."""
    return [(p, p.read_text().split("\n", 1)[0].lstrip("# ").strip()) for p in DOCS if p.exists()]


def nav(doc):
    """Previous, contents and next links for `doc`, relative to it (GitHub and Doxygen both follow them)."""
    docs = chapters()
    i = [p for p, _ in docs].index(doc)
    link = lambda p: os.path.relpath(p, doc.parent)
    parts = [f"[← {docs[i - 1][1]}]({link(docs[i - 1][0])})"] if i > 1 else []
    parts.append(f"[Contents]({link(docs[0][0])})")
    if i + 1 < len(docs):
        parts.append(f"[{docs[i + 1][1]} →]({link(docs[i + 1][0])})")
    return " · ".join(parts) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if a table is stale")
    args = parser.parse_args()
    stale = []
    for doc in DOCS:
        if not doc.exists():
            continue
        text = doc.read_text()
        if text.count("<!-- value ") != len(VALUE.findall(text)):
            raise SystemExit(f"tables.py: {os.path.relpath(doc, ROOT)} has a '<!-- value' marker that is not "
                             "'<!-- value module.function [args] -->text<!-- /value -->' on one line")
        new = BLOCK.sub(lambda m: m.group(1) + render(m.group("spec")) + m.group(4), text)
        new = NAV.sub(lambda m: m.group(1) + nav(doc) + m.group(3), new)
        new = SNIPPET.sub(lambda m: m.group(1) + snippet(m.group("file"), m.group("name")) + m.group(5), new)
        new = DIFF.sub(lambda m: m.group(1) + diff(*m.group("old", "old_names", "new", "new_names")) + m.group(7), new)
        new = VALUE.sub(lambda m: m.group(1) + prose.value(m.group("name"), *m.group("args").split()) + m.group(5), new)
        if new != text:
            stale.append(os.path.relpath(doc, ROOT))
            if not args.check:
                doc.write_text(new)
    if args.check and stale:
        print("generated tables, snippets, diffs or values are stale (run python3 plots/tables.py):", *stale, sep="\n  ")
        return 1
    if args.check:
        print("all tables, snippets, diffs and values match docs/results and the sources")
    else:
        print("rewrote: " + (", ".join(map(str, stale)) or "nothing (all up to date)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
