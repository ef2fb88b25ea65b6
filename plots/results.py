"""Read the results CSVs that real GPU runs wrote into docs/results/.

A results file is named `<source>_<gpu slug>_<YYYY-MM-DD>.csv`, for example
`tour_h200_2026-11-21.csv` or `00_copy_h200_2026-11-21.csv`; the slug has no '_'. The sources are:

    tour         every step's headline kernel beside cudaMemcpy and cuBLAS
    NN_name      one step's binary (00_copy, 01_naive_row, ...): all kernels of that step
    sweep_cold   the tour at many sizes, L2 flushed before every repetition (the normal way)
    sweep_warm   the same with --warm-l2 (no flush), to show how a warm cache inflates GB/s
    ncu          Nsight Compute metrics, one row per kernel x dtype
    peers        the tour and then scripts/peers.py (PyTorch, torch.compile, CuPy) in one run

The newest file of a source is the one with the latest date in its name. The pages are written
from the runs of one GPU, PAGES_GPU: where a source has files of that GPU, only those count
unless another slug is asked for (a table's `gpu=h100-80gb-hbm3`), so that a run on another GPU
can sit beside them without changing a page. This module uses only the standard library, so its
tests run where matplotlib is not installed.
"""
import csv
import pathlib
import re
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results"  # the committed CSVs of real GPU runs
IMAGES = ROOT / "docs" / "images"    # where make_all.py writes the figures

DTYPES = ["float", "double", "half", "bf16"]                  # the project's order
DTYPE_BYTES = {"float": 4, "double": 8, "half": 2, "bf16": 2}  # sizeof(T)
MEMCPY = "cudaMemcpy"  # the ceiling: step "ref", kernel "cudaMemcpy"
REF = "ref"            # the step of cudaMemcpy and of the library references (cuBLAS)

# Columns kept as text; every other column is a number (empty = None), `verified` a bool.
TEXT_COLUMNS = {"gpu", "cc", "cuda", "git_sha", "step", "kernel", "dtype", "function"}
FILE_NAME = re.compile(r"^(?P<stem>.+)_(?P<date>\d{4}-\d{2}-\d{2})\.csv$")
PAGES_GPU = "h200"  # the slug of the GPU whose runs the pages are written from


class Missing(Exception):
    """A figure cannot be drawn because an input CSV is not there; the message says which."""


def _number(text):
    """'' -> None, '42' -> 42, '4.5' -> 4.5; anything else stays text."""
    if text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _convert(row):
    out = {}
    for key, value in row.items():
        value = (value or "").strip()
        if key in TEXT_COLUMNS:
            out[key] = value
        elif key == "verified":
            out[key] = value.lower() == "true"
        else:
            out[key] = _number(value)
    return out


@dataclass
class Table:
    """One results CSV: its path and its rows (dicts with numbers converted)."""
    path: pathlib.Path
    rows: list

    @property
    def date(self):
        """The run's date, from the file name (YYYY-MM-DD)."""
        return FILE_NAME.match(self.path.name).group("date")

    @property
    def gpu(self):
        return self.rows[0]["gpu"] if self.rows else "unknown GPU"

    def where(self, **equal):
        """The rows whose columns equal the given values, e.g. where(dtype="float")."""
        return [r for r in self.rows if all(r.get(k) == v for k, v in equal.items())]

    def values(self, column, rows=None):
        """The distinct values of a column, in order of first appearance."""
        return list(dict.fromkeys(r[column] for r in (self.rows if rows is None else rows)))

    def dtypes(self, wanted=DTYPES):
        """The element types present, in the project's order, limited to `wanted`."""
        present = set(self.values("dtype"))
        return [d for d in wanted if d in present]

    def caption(self, what="median of {reps} cold-L2 runs"):
        """The line that says where a figure's numbers come from."""
        first = self.rows[0] if self.rows else {}
        parts = [self.gpu]
        if first.get("cuda"):
            parts.append(f"CUDA {first['cuda']}")
        if first.get("git_sha"):
            parts.append(f"commit {first['git_sha']}")
        parts.append(self.date)
        if what and first.get("reps") is not None:
            parts.append(what.format(reps=first["reps"]))
        return ", ".join(parts) + f"; from {_shown(self.path)}"


def read(path):
    """Reads one CSV into a Table."""
    path = pathlib.Path(path)
    with path.open(newline="") as f:
        return Table(path, [_convert(row) for row in csv.DictReader(f)])


def files(source, results=RESULTS, slug=None):
    """The CSV files of a source, oldest first: ordered by the date in the name, then by name.
    Of one GPU's slug if given ("*": of every GPU); else of PAGES_GPU where the source has any,
    else of any GPU."""
    found = []
    for path in pathlib.Path(results).glob(f"{source}_*.csv"):
        match = FILE_NAME.match(path.name)
        # The part before the date must be '<source>_<gpu slug>', with a non-empty slug and no
        # '_' in it (the GPU check writes slugs like 'h200'), so that the files of source
        # '07_coarsen_tune' are not taken for those of source '07_coarsen'.
        if not match or not match.group("stem").startswith(source + "_"):
            continue
        file_slug = match.group("stem")[len(source) + 1:]
        if file_slug and "_" not in file_slug:
            found.append((match.group("date"), path.name, path, file_slug))
    wanted = slug if slug is not None else PAGES_GPU if any(f[3] == PAGES_GPU for f in found) else "*"
    return [f[2] for f in sorted(found) if wanted in ("*", f[3])]


def newest(source, results=RESULTS, gpu=None):
    """The newest Table of a source (of one GPU, by the `gpu` column, if given), or None."""
    for path in reversed(files(source, results, None if gpu is None else "*")):
        table = read(path)
        if gpu is None or table.gpu == gpu:
            return table
    return None


def require(source, results=RESULTS, gpu=None):
    """newest(), but raises Missing (with a reason for make_all's log line) if there is none."""
    table = newest(source, results, gpu)
    if table is None:
        for_gpu = f" for {gpu}" if gpu else ""
        raise Missing(f"no {source}_*.csv{for_gpu} in {_shown(results)}")
    return table


def step_sources(results=RESULTS):
    """The steps that have their own CSV of one GPU (00_copy, 01_naive_row, ...), sorted.

    A step name may contain '_' and so may a GPU slug, so the name alone is ambiguous:
    the step is the longest value of the CSV's `step` column that starts the file name.
    """
    steps = set()
    for path in pathlib.Path(results).glob("[0-9][0-9]_*.csv"):
        match = FILE_NAME.match(path.name)
        if not match:
            continue
        stem = match.group("stem")
        table = read(path)
        if table.rows and "gpus" in table.rows[0]:
            continue  # across GPUs (step 09): times and % of the all-to-all, not of cudaMemcpy
        names = [s for s in table.values("step") if s != REF and stem.startswith(s + "_")]
        if names:
            steps.add(max(names, key=len))
    return sorted(steps)


def headline_kernels(results=RESULTS):
    """{step: kernel} from the newest tour CSV: the kernel that represents each step."""
    tour = newest("tour", results)
    if tour is None:
        return {}
    return {r["step"]: r["kernel"] for r in tour.rows if r["step"] != REF}


def size_label(rows, cols):
    """'2048²' for a square matrix, '3 x 70000' otherwise."""
    return f"{rows}²" if rows == cols else f"{rows} x {cols}"


def _shown(path):
    """A path as captions and log lines show it: relative to the repository if inside it,
    with a trailing '/' for a directory."""
    path = pathlib.Path(path).resolve()
    try:
        text = str(path.relative_to(ROOT))
    except ValueError:
        text = str(path)
    return text + "/" if path.is_dir() else text
