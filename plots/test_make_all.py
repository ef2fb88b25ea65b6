"""Tests of make_all.py on the synthetic fixtures, on no CSVs at all, and on the real
docs/results; always into temporary directories. Needs matplotlib."""
import contextlib
import io
import pathlib
import re
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fig_access  # noqa: E402
import fig_cycles  # noqa: E402
import fig_inplace  # noqa: E402
import fig_multi_gpu  # noqa: E402
import make_all  # noqa: E402
import results  # noqa: E402

FIXTURES = HERE / "testdata"
DIAGRAMS = fig_access.NAMES + [fig_inplace.NAME, fig_inplace.NAME_TWO, fig_cycles.NAME,  # need no CSV
                              fig_multi_gpu.NAME_BLOCKS, fig_multi_gpu.NAME_CHUNKS]
FROM_CSV = ["--only", "progression", "--only", "sizes", "--only", "warm_vs_cold",  # not the diagrams
            "--only", "step_*", "--only", "profile*", "--only", "multi_gpu_parts", "--only", "multi_gpu_timeline",
            "--only", "multi_gpu_versions"]
FROM_FIXTURES = ["progression", "sizes", "warm_vs_cold", "step_00_copy", "step_01_naive_row",
                 "profile", "profile_00_copy", "profile_01_naive_row", "profile_05_shared",
                 "multi_gpu_parts", "multi_gpu_timeline", "multi_gpu_versions"]


def run(results_dir, out_dir, *options):
    """make_all.main() with its printed lines captured: (exit status, lines)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = make_all.main(["--results", str(results_dir), "--out", str(out_dir), *options])
    return status, printed.getvalue().splitlines()


class MakeAll(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out1 = pathlib.Path(cls.tmp.name) / "first"
        cls.out2 = pathlib.Path(cls.tmp.name) / "second"
        cls.status1, cls.lines1 = run(FIXTURES, cls.out1)
        cls.status2, _ = run(FIXTURES, cls.out2)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_exit_status_zero(self):
        self.assertEqual(self.status1, 0, "\n".join(self.lines1))
        self.assertEqual(self.status2, 0)

    def test_every_figure_written_and_non_empty(self):
        for name in FROM_FIXTURES + DIAGRAMS:
            png, svg = self.out1 / f"{name}.png", self.out1 / f"{name}.svg"
            self.assertTrue(png.is_file() and svg.is_file(), name)
            self.assertEqual(png.read_bytes()[:8], b"\x89PNG\r\n\x1a\n", name)
            self.assertGreater(png.stat().st_size, 10_000, name)
            self.assertIn(b"<svg", svg.read_bytes()[:1000], name)
        written = sorted(p.stem for p in self.out1.glob("*.png"))
        self.assertEqual(written, sorted(FROM_FIXTURES + DIAGRAMS))

    def test_one_line_per_figure(self):
        self.assertEqual(len(self.lines1), len(FROM_FIXTURES + DIAGRAMS))
        self.assertTrue(all(line.startswith("wrote ") for line in self.lines1), self.lines1)

    def test_svg_is_deterministic(self):
        for svg in sorted(self.out1.glob("*.svg")):
            self.assertEqual(svg.read_bytes(), (self.out2 / svg.name).read_bytes(), svg.name)
            self.assertNotIn(b"<dc:date>", svg.read_bytes(), svg.name)


class ChaptersShowDrawnDiagrams(unittest.TestCase):
    def test_every_diagram_a_chapter_shows_is_one_make_all_draws(self):
        used = set()
        for readme in sorted((HERE.parent / "steps").glob("*/README.md")):
            used.update(re.findall(r"docs/images/((?:access|banks)_\w+)\.svg", readme.read_text()))
        self.assertTrue(used)
        self.assertEqual(used - set(DIAGRAMS), set())


class MissingInputs(unittest.TestCase):
    def test_no_csv_skips_with_a_reason_and_exits_zero(self):
        with tempfile.TemporaryDirectory() as tmp:
            empty, out = pathlib.Path(tmp) / "results", pathlib.Path(tmp) / "images"
            empty.mkdir()
            status, lines = run(empty, out, *FROM_CSV)
            self.assertEqual(status, 0, lines)
            self.assertEqual(lines, ["skipped progression: no tour_*.csv in " + str(empty) + "/",
                                     "skipped sizes: no sweep_cold_*.csv in " + str(empty) + "/",
                                     "skipped warm_vs_cold: no sweep_cold_*.csv in " + str(empty) + "/",
                                     "skipped profile: no ncu_*.csv in " + str(empty) + "/",
                                     "skipped multi_gpu_parts: no 09_multi_gpu_float_*.csv in " + str(empty) + "/",
                                     "skipped multi_gpu_timeline: no 09_multi_gpu_float_*.csv in " + str(empty) + "/",
                                     "skipped multi_gpu_versions: no 09_multi_gpu_float_*.csv in " + str(empty) + "/"])
            self.assertEqual(list(out.glob("*")), [])

    def test_sizes_without_ncu_leaves_the_l2_line_out_and_says_so(self):
        with tempfile.TemporaryDirectory() as tmp:
            some, out = pathlib.Path(tmp) / "results", pathlib.Path(tmp) / "images"
            some.mkdir()
            for name in ("sweep_cold_fixture_2026-01-10.csv", "sweep_warm_fixture_2026-01-10.csv"):
                (some / name).write_bytes((FIXTURES / name).read_bytes())
            status, lines = run(some, out, "--only", "sizes", "--only", "warm_*")
            self.assertEqual(status, 0, lines)
            self.assertEqual(len(lines), 2, lines)  # --only: just these two figures
            self.assertTrue(all(line.startswith("wrote") for line in lines), lines)
            self.assertIn("L2 line left out", lines[0])
            self.assertEqual(sorted(p.stem for p in out.glob("*.svg")), ["sizes", "warm_vs_cold"])


class RealResults(unittest.TestCase):
    """make_all works on the committed CSVs of real runs (as a clean clone would run it)."""

    def test_real_results(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, lines = run(results.RESULTS, tmp, *FROM_CSV)  # the diagrams need no CSV
            self.assertEqual(status, 0, lines)
            self.assertFalse([line for line in lines if line.startswith("FAILED")], lines)
            expected = [f"step_{s}" for s in results.step_sources()]
            if results.newest("tour") is not None:
                expected.append("progression")
            if results.newest("09_multi_gpu_float") is not None:
                expected += ["multi_gpu_parts", "multi_gpu_timeline", "multi_gpu_versions"]
            for name in expected:
                self.assertTrue((pathlib.Path(tmp) / f"{name}.svg").is_file(), name)
            # The committed figures are what the committed CSVs draw (a new CSV needs make_all).
            images = HERE.parent / "docs" / "images"
            stale = [svg.name for svg in sorted(pathlib.Path(tmp).glob("*.svg"))
                     if (images / svg.name).is_file() and (images / svg.name).read_bytes() != svg.read_bytes()]
            self.assertEqual(stale, [], "docs/images differs from what the CSVs draw: run plots/make_all.py")


if __name__ == "__main__":
    unittest.main()
