"""The profiler's view: Nsight Compute metrics from the newest ncu CSV, as horizontal bars.

One panel per metric, one row per (step, kernel), a float bar and a half bar in each row.
profile() shows every kernel; profile_step() one step's kernels plus the previous step's
headline kernel, for that step's chapter. Both leave out the kernels that a step's newest
results CSV no longer has (variants removed or renamed since the profile was taken).
"""
import matplotlib.pyplot as plt

import style
from results import REF, RESULTS, Missing, headline_kernels, newest, require

# (column, panel title, value format, reference line or None). The reference lines are
# definitions, not measurements: 1.0 = exactly the ideal bytes, 100 = the whole of a percentage.
METRICS = [
    ("ld_sectors_per_req", "global load:\nsectors per request", "{:.1f}", None),
    ("st_sectors_per_req", "global store:\nsectors per request", "{:.1f}", None),
    ("dram_pct_of_peak", "DRAM throughput:\n% of peak", "{:.0f}%", 100),
    ("dram_read_vs_ideal", "DRAM bytes read:\nmeasured ÷ ideal", "{:.2f}", 1.0),
    ("dram_write_vs_ideal", "DRAM bytes written:\nmeasured ÷ ideal", "{:.2f}", 1.0),
    ("l2_hit_pct", "L2 hit rate:\n%", "{:.0f}%", None),
    ("smem_ld_wavefronts_per_req", "shared load:\nwavefronts per request", "{:.1f}", None),
    ("smem_st_wavefronts_per_req", "shared store:\nwavefronts per request", "{:.1f}", None),
    ("occupancy_pct", "achieved occupancy:\n% of max warps", "{:.0f}%", 100),
]
ROW_INCHES = 0.5    # height of one kernel's row (two bars)
PANEL_INCHES = 2.7  # width of one panel


def _figure(table, rows, title):
    """Draws the metric panels for `rows` (a subset of the ncu table)."""
    dtypes = table.dtypes(["float", "half"]) or table.dtypes()
    rows = [r for r in rows if r["dtype"] in dtypes]
    kernels = style.kernel_order(rows)
    value = {(r["step"], r["kernel"], r["dtype"]): r for r in rows}
    # Shared-memory panels only when some kernel uses shared memory (empty cells otherwise).
    metrics = [m for m in METRICS if any(r.get(m[0]) is not None for r in rows)]

    n = len(kernels)
    ncols = 3 if n <= 12 else len(metrics)  # many kernels: one tall row of panels
    nrows = -(-len(metrics) // ncols)
    fig, axes = plt.subplots(nrows, ncols, sharey=True, layout="constrained", squeeze=False,
                             figsize=(PANEL_INCHES * ncols + 2.5, nrows * (n * ROW_INCHES + 1.3) + 0.6))
    flat = [ax for line in axes for ax in line]
    for ax in flat[len(metrics):]:
        ax.set_visible(False)

    height = 0.8 / len(dtypes)
    for ax, (column, name, fmt, reference) in zip(flat, metrics):
        biggest = max([r[column] for r in rows if r.get(column) is not None] + [reference or 0])
        for i, d in enumerate(dtypes):
            shift = (i - (len(dtypes) - 1) / 2) * height
            for k, (step, kernel) in enumerate(kernels):
                row = value.get((step, kernel, d))
                v = None if row is None else row.get(column)
                if v is None:  # not measured, or not applicable (no shared memory)
                    if row is not None:
                        ax.text(biggest * 0.02, k + shift, "n/a", va="center", fontsize=9, color="#888888")
                    continue
                ax.barh(k + shift, v, height * 0.92, color=style.DTYPE_COLOURS[d])
                ax.text(v + biggest * 0.02, k + shift, fmt.format(v), va="center", fontsize=9,
                        bbox=style.LABEL_BOX, zorder=4)
        if reference is not None:
            ax.axvline(reference, color="black", linewidth=1.0, linestyle="--")
        ax.set_xlim(0, biggest * 1.35 if biggest > 0 else 1)
        ax.set_title(name, fontsize=10, loc="left")
        ax.grid(axis="y", visible=False)
    flat[0].set_yticks(range(n), [style.kernel_label(s, k) for s, k in kernels])
    flat[0].set_ylim(n - 0.5, -0.5)  # first kernel at the top
    for line in axes:
        line[0].tick_params(axis="y", length=0)

    handles = [plt.Rectangle((0, 0), 1, 1, color=style.DTYPE_COLOURS[d]) for d in dtypes]
    handles.append(plt.Line2D([], [], color="black", linewidth=1.0, linestyle="--"))
    fig.legend(handles, [*dtypes, "ideal (1.0) or the maximum (100%)"], loc="upper left",
               bbox_to_anchor=(1.0, 0.98), title="element type")
    shape = {(r["rows"], r["cols"]) for r in rows}
    size = ", ".join(f"{a} x {b}" for a, b in sorted(shape))
    fig.suptitle(f"{title} — {table.gpu}, matrix {size}")
    style.caption(fig, table.caption(what=None) + ". Ideal bytes = rows x cols x sizeof(T), "
                  "once for reading and once for writing.", y=-0.005)
    return fig


def _current(rows, results):
    """The rows whose kernel its step's newest results CSV still has (the references, and the
    steps without a results CSV, stay)."""
    kernels = {}
    for step in {r["step"] for r in rows if r["step"] != REF}:
        table = newest(step, results)
        if table is not None:
            kernels[step] = set(table.values("kernel", table.where(step=step)))
    return [r for r in rows if r["step"] not in kernels or r["kernel"] in kernels[r["step"]]]


def profile(results=RESULTS):
    """Every current kernel of the newest ncu CSV."""
    ncu = require("ncu", results)
    return _figure(ncu, _current(ncu.rows, results), "Nsight Compute metrics of every kernel"), ncu.path.name


def profiled_steps(results=RESULTS):
    """The steps that have rows in the newest ncu CSV (no CSV: none)."""
    ncu = newest("ncu", results)
    return [] if ncu is None else sorted({r["step"] for r in ncu.rows if r["step"] != REF})


def _previous_headline(step, steps, results):
    """(previous step, its headline kernel) or None: from the tour, else from the step's CSV,
    which holds the previous step's headline kernel beside its own."""
    earlier = [s for s in steps if s < step]
    if not earlier:
        return None
    previous = earlier[-1]
    kernel = headline_kernels(results).get(previous)
    if kernel is None:
        own = newest(step, results)
        found = [] if own is None else own.values("kernel", own.where(step=previous))
        kernel = found[0] if found else None
    return (previous, kernel) if kernel else None


def profile_step(step, results=RESULTS):
    """One step's kernels, plus the previous step's headline kernel for comparison."""
    ncu = require("ncu", results)
    steps = sorted({r["step"] for r in ncu.rows if r["step"] != REF})
    previous = _previous_headline(step, steps, results)
    rows = [r for r in _current(ncu.rows, results) if r["step"] == step or (r["step"], r["kernel"]) == previous]
    if not any(r["step"] == step for r in rows):
        raise Missing(f"{ncu.path.name} has no rows for step {step}")
    title = f"Step {style.step_label(step)}: Nsight Compute metrics"
    return _figure(ncu, rows, title), ncu.path.name
