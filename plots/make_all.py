#!/usr/bin/env python3
"""Regenerate every figure of the tutorial from the committed CSVs of real GPU runs.

    python3 plots/make_all.py                      docs/results/*.csv -> docs/images/*.png, *.svg
    python3 plots/make_all.py --out /tmp/images    write somewhere else
    python3 plots/make_all.py --results DIR        read CSVs from somewhere else (the tests do)
    python3 plots/make_all.py --only 'step_*'      only some figures (shell pattern, repeatable)

Prints one line per figure: written (and from which CSV) or skipped (and why). A figure whose
CSV is not there yet is skipped, not an error: the exit status is 0 unless a figure fails.
Needs matplotlib (pip install -r plots/requirements.txt), no GPU.

  figure               reads (newest file of each source)
  progression          tour_*.csv
  sizes                sweep_cold_*.csv (+ ncu_*.csv of the same GPU for the L2 size)
  warm_vs_cold         sweep_warm_*.csv and sweep_cold_*.csv of one GPU (+ ncu_*.csv)
  step_NN_name         NN_name_*.csv, one figure per step that has a CSV of one GPU (not 09)
  profile              ncu_*.csv
  profile_NN_name      ncu_*.csv (+ tour_*.csv to find the previous step's headline kernel)
  access_*, banks_*    nothing: computed from the index maths in plots/access.py
  inplace_rect         nothing: step 08's three passes for rectangles on a 4 x 6 matrix (fig_inplace.py)
  inplace_two          nothing: step 08's two passes (squares, chunks) on a 4 x 6 matrix (fig_inplace.py)
  inplace_cycles       nothing: the chunk permutation of those two passes, its cycles drawn (fig_cycles.py)
  multi_gpu_blocks     nothing: step 09's worked example, 7 x 8 on 3 ranks (plots/multi_gpu_blocks.py)
  multi_gpu_chunks     nothing: the same worked example in 2 chunks, chunk 0
  multi_gpu_parts      09_multi_gpu_float_*.csv: the parts of the pipelined transpose alone and at once
  multi_gpu_timeline   09_multi_gpu_float_*.csv: one pipelined call's exchanges, measured and as the parts alone
  multi_gpu_versions   09_multi_gpu_float_*.csv: PyTorch's way and one chunk, the parts alone beside the whole
"""
import argparse
import fnmatch
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # run from anywhere

import fig_access  # noqa: E402
import fig_bandwidth  # noqa: E402
import fig_cycles  # noqa: E402
import fig_inplace  # noqa: E402
import fig_multi_gpu  # noqa: E402
import fig_profile  # noqa: E402
import style  # noqa: E402
from results import IMAGES, RESULTS, Missing, step_sources  # noqa: E402


def figures(results):
    """(name, function returning (figure, note)) for every figure, in a stable order."""
    jobs = [("progression", lambda: fig_bandwidth.progression(results)),
            ("sizes", lambda: fig_bandwidth.sizes(results)),
            ("warm_vs_cold", lambda: fig_bandwidth.warm_vs_cold(results))]
    for step in step_sources(results):
        jobs.append((f"step_{step}", lambda step=step: fig_bandwidth.step(step, results)))
    jobs.append(("profile", lambda: fig_profile.profile(results)))
    for step in fig_profile.profiled_steps(results):
        jobs.append((f"profile_{step}", lambda step=step: fig_profile.profile_step(step, results)))
    for name in fig_access.NAMES:
        jobs.append((name, lambda name=name: (fig_access.diagram(name), "index maths in plots/access.py")))
    jobs.append((fig_inplace.NAME, lambda: (fig_inplace.diagram(), "index maths in plots/fig_inplace.py")))
    jobs.append((fig_inplace.NAME_TWO, lambda: (fig_inplace.diagram_two(), "index maths in plots/fig_inplace.py")))
    jobs.append((fig_cycles.NAME, lambda: (fig_cycles.diagram(), "index maths in plots/inplace.py")))
    jobs.append((fig_multi_gpu.NAME_BLOCKS,
                 lambda: (fig_multi_gpu.blocks(), "index maths in plots/multi_gpu_blocks.py")))
    jobs.append((fig_multi_gpu.NAME_CHUNKS,
                 lambda: (fig_multi_gpu.blocks(chunks=2), "index maths in plots/multi_gpu_blocks.py")))
    jobs.append((fig_multi_gpu.NAME_PARTS, lambda: fig_multi_gpu.parts(results)))
    jobs.append((fig_multi_gpu.NAME_TIMELINE, lambda: fig_multi_gpu.timeline(results)))
    jobs.append((fig_multi_gpu.NAME_VERSIONS, lambda: fig_multi_gpu.versions(results)))
    return jobs


def _shown(path):
    """A path relative to the current directory when it is below it."""
    try:
        return path.resolve().relative_to(pathlib.Path.cwd())
    except ValueError:
        return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", type=pathlib.Path, default=RESULTS, help="where the CSVs are")
    parser.add_argument("--out", type=pathlib.Path, default=IMAGES, help="where to write the images")
    parser.add_argument("--only", action="append", metavar="PATTERN",
                        help="only the figures whose name matches (shell pattern, e.g. 'step_*'; repeatable)")
    args = parser.parse_args(argv)

    failures = 0
    for name, make in figures(args.results):
        if args.only and not any(fnmatch.fnmatchcase(name, pattern) for pattern in args.only):
            continue
        try:
            fig, note = make()
        except Missing as why:
            print(f"skipped {name}: {why}")
            continue
        except Exception as error:  # one broken figure must not hide the others
            print(f"FAILED  {name}: {type(error).__name__}: {error}")
            failures += 1
            continue
        png, _ = style.save(fig, name, args.out)
        print(f"wrote   {_shown(png.with_suffix(''))}.png/.svg  ({note})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
