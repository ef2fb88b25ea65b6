"""Tests of plots/tables.py, the generator of every table, code quote and navigation line in
the docs: on the synthetic fixtures in plots/testdata/ and on temporary Markdown files.
Standard library only."""
import contextlib
import io
import pathlib
import sys
import tempfile
import unittest
from unittest import mock

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import prose  # noqa: E402
import results  # noqa: E402
import tables  # noqa: E402

FIXTURES = HERE / "testdata"


def gbps(source, kernel, dtype, n):
    table = results.newest(source, FIXTURES)
    return table.where(kernel=kernel, dtype=dtype, rows=n)[0]["gbps"]


@mock.patch.object(tables, "RESULTS", FIXTURES)
class Render(unittest.TestCase):
    def test_ratio_divides_matching_rows(self):
        text = tables.render("source=sweep_warm divide=sweep_cold rows=shape cols=kernel value=ratio dtype_eq=float")
        want = gbps("sweep_warm", "copy_vec16", "float", 256) / gbps("sweep_cold", "copy_vec16", "float", 256)
        header, _, first = text.split("\n")[:3]
        self.assertEqual(header.split(" | ")[0], "| shape")
        col = [c.strip() for c in header.strip("|").split("|")].index("copy_vec16")
        self.assertEqual(first.strip("|").split("|")[col].strip(), f"{want:.2f}x")
        self.assertIn("warm-L2 runs", text)
        self.assertIn("divided by `docs/results/sweep_cold_fixture_2026-01-10.csv`", text)

    def test_values_turn_columns_into_rows(self):
        text = tables.render("source=ncu cols=kernel values=registers,l2_hit_pct step_eq=00_copy dtype_eq=float")
        lines = text.split("\n")
        self.assertTrue(lines[0].startswith("| metric | copy_naive"))
        self.assertTrue(lines[2].startswith("| registers | "))
        self.assertTrue(lines[3].startswith("| l2_hit_pct | "))
        self.assertIn("Nsight Compute", text)

    def test_in_keeps_the_listed_values_only(self):
        text = tables.render("source=ncu cols=kernel values=registers dtype_eq=float kernel_in=copy_vec16,cublas_geam")
        self.assertTrue(text.startswith("| metric | copy_vec16 | cublas_geam |\n"))

    def test_a_program_csv_without_shapes_or_repetitions(self):
        with tempfile.TemporaryDirectory() as tmp:
            (pathlib.Path(tmp) / "latency_gpu_2026-01-01.csv").write_text(
                "gpu,cc,cuda,git_sha,sms,ns_per_load\nTest GPU,9.0,13.0,abc,132,350.6\n")
            with mock.patch.object(tables, "RESULTS", pathlib.Path(tmp)):
                text = tables.render("source=latency cols=gpu values=ns_per_load,sms")
        self.assertIn("| ns_per_load | 350.6 |", text)
        self.assertIn("*Test GPU, CUDA 13.0, commit abc; from", text)
        self.assertNotIn("median", text)

    def test_notes_give_the_rows_and_words_around_the_measured_columns(self):
        with tempfile.TemporaryDirectory() as tmp:
            notes = pathlib.Path(tmp) / "notes.csv"
            notes.write_text('kernel,step,idea,*,lesson\ncopy_vec16,00,"16-byte, wide",*,the ceiling\n'
                             "not_measured,99,none,*,empty cells\n")
            with mock.patch.object(tables, "ROOT", pathlib.Path(tmp)):
                text = tables.render("source=tour rows=kernel cols=dtype value=pct rows_eq=1024 dtype_in=float,half notes=notes.csv")
        lines = text.split("\n")
        self.assertEqual(lines[0], "| step | idea | float | half | lesson |")
        self.assertEqual(lines[1], "|---|---|---:|---:|---|")
        pct = lambda dtype: float(results.newest("tour", FIXTURES).where(kernel="copy_vec16", dtype=dtype, rows=1024)[0]["pct_of_memcpy"])
        self.assertEqual(lines[2], f"| 00 | 16-byte, wide | {pct('float'):.1f}% | {pct('half'):.1f}% | the ceiling |")
        self.assertEqual(lines[3], "| 99 | none |  |  | empty cells |")

    def test_failed_verification_shows_as_failed(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "tour_gpu_2026-01-01.csv"
            lines = (FIXTURES / "tour_fixture_2026-01-10.csv").read_text().splitlines()
            lines[2] = lines[2].rsplit(",", 1)[0] + ",false"
            path.write_text("\n".join(lines) + "\n")
            with mock.patch.object(tables, "RESULTS", pathlib.Path(tmp)):
                text = tables.render("source=tour rows=kernel cols=rows value=pct dtype_eq=float")
        self.assertIn("FAILED", text)

    def test_cols_order_sets_the_column_order_and_must_name_every_column(self):
        text = tables.render("source=tour rows=kernel cols=dtype value=pct rows_eq=1024 dtype_in=float,half cols_order=half,float")
        header = text.splitlines()[0]
        self.assertLess(header.index("half"), header.index("float"))
        with self.assertRaises(SystemExit):
            tables.render("source=tour rows=kernel cols=dtype value=pct rows_eq=1024 dtype_in=float,half cols_order=half")

    def test_unchecked_kernels_show_as_measured_and_no_other(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "tour_gpu_2026-01-01.csv"
            lines = (FIXTURES / "tour_fixture_2026-01-10.csv").read_text().splitlines()
            lines[2] = lines[2].rsplit(",", 1)[0] + ",false"
            kernel = lines[2].split(",")[5]
            path.write_text("\n".join(lines) + "\n")
            with mock.patch.object(tables, "RESULTS", pathlib.Path(tmp)):
                shown = tables.render(f"source=tour rows=kernel cols=rows value=pct dtype_eq=float unchecked={kernel}")
                other = tables.render("source=tour rows=kernel cols=rows value=pct dtype_eq=float unchecked=another")
        self.assertNotIn("FAILED", shown)
        self.assertIn("FAILED", other)


class Check(unittest.TestCase):
    def test_check_fails_on_a_stale_table_and_rewrite_fixes_it(self):
        spec = "source=tour rows=kernel cols=rows value=gbps dtype_eq=float"
        with tempfile.TemporaryDirectory() as tmp, mock.patch.object(tables, "RESULTS", FIXTURES):
            doc = pathlib.Path(tmp) / "README.md"
            doc.write_text(f"# T\n\n<!-- table {spec} -->\n| typed | by hand |\n<!-- /table -->\n")
            with mock.patch.object(tables, "DOCS", [doc]), contextlib.redirect_stdout(io.StringIO()):
                with mock.patch.object(sys, "argv", ["tables.py", "--check"]):
                    self.assertEqual(tables.main(), 1)
                with mock.patch.object(sys, "argv", ["tables.py"]):
                    self.assertEqual(tables.main(), 0)
                with mock.patch.object(sys, "argv", ["tables.py", "--check"]):
                    self.assertEqual(tables.main(), 0)
            self.assertNotIn("typed", doc.read_text())


def fixture_pct():
    """A quoted value as a plots/prose module would write it, on the fixtures."""
    return prose.num(prose.pct(prose.table("tour"), kernel="copy_vec16", dtype="float", rows=1024)) + "%"


@mock.patch.object(results, "RESULTS", FIXTURES)
class Values(unittest.TestCase):
    def run_main(self, text, *flags):
        with tempfile.TemporaryDirectory() as tmp:
            doc = pathlib.Path(tmp) / "README.md"
            doc.write_text(text)
            with mock.patch.object(tables, "DOCS", [doc]), contextlib.redirect_stdout(io.StringIO()), \
                    mock.patch.dict(sys.modules, {"prose.fixture": mock.Mock(pct=fixture_pct, pick=lambda d, n: f"{d} at {n}")}), \
                    mock.patch.object(sys, "argv", ["tables.py", *flags]):
                return tables.main(), doc.read_text()

    def test_a_typed_value_is_stale_and_rewrite_puts_the_csv_value(self):
        typed = "Copy reaches <!-- value fixture.pct -->99.9%<!-- /value --> at 1024.\n"
        want = float(results.newest("tour", FIXTURES).where(kernel="copy_vec16", dtype="float", rows=1024)[0]["pct_of_memcpy"])
        self.assertEqual(self.run_main(typed, "--check"), (1, typed))
        code, text = self.run_main(typed)
        self.assertEqual(code, 0)
        self.assertEqual(text, f"Copy reaches <!-- value fixture.pct -->{want:.1f}%<!-- /value --> at 1024.\n")
        self.assertEqual(self.run_main(text, "--check"), (0, text))

    def test_words_after_the_name_are_arguments(self):
        code, text = self.run_main("<!-- value fixture.pick float 1024 -->?<!-- /value -->\n")
        self.assertEqual((code, text), (0, "<!-- value fixture.pick float 1024 -->float at 1024<!-- /value -->\n"))

    def test_an_unknown_value_names_its_module(self):
        with self.assertRaisesRegex(SystemExit, "no function nope in plots/prose/lab.py"):
            self.run_main("<!-- value lab.nope -->1<!-- /value -->\n")

    def test_a_marker_without_its_end_on_the_line_stops_the_run(self):
        with self.assertRaisesRegex(SystemExit, r"not '<!-- value module.function \[args\] -->text<!-- /value -->' on one line"):
            self.run_main("<!-- value fixture.pct -->1\n<!-- /value -->\n")

    def test_a_failed_row_cannot_be_quoted(self):
        with tempfile.TemporaryDirectory() as tmp:
            lines = (FIXTURES / "tour_fixture_2026-01-10.csv").read_text().splitlines()
            lines[1:] = [line.rsplit(",", 1)[0] + ",false" for line in lines[1:]]
            (pathlib.Path(tmp) / "tour_gpu_2026-01-01.csv").write_text("\n".join(lines) + "\n")
            with mock.patch.object(results, "RESULTS", pathlib.Path(tmp)):
                with self.assertRaisesRegex(SystemExit, "failed verification"):
                    fixture_pct()

    def test_runs_are_the_source_then_its_repeats_in_order(self):
        with tempfile.TemporaryDirectory() as tmp:
            text = (FIXTURES / "tour_fixture_2026-01-10.csv").read_text()
            for name in ("x_gpu_2026-01-01", "x_run10_gpu_2026-01-01", "x_run2_gpu_2026-01-01", "xy_gpu_2026-01-01"):
                (pathlib.Path(tmp) / f"{name}.csv").write_text(text)
            with mock.patch.object(results, "RESULTS", pathlib.Path(tmp)):
                names = [t.path.name for t in prose.runs("x")]
        self.assertEqual(names, ["x_gpu_2026-01-01.csv", "x_run2_gpu_2026-01-01.csv", "x_run10_gpu_2026-01-01.csv"])

    def test_report_is_the_newest_text_of_its_source(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("x_gpu_2026-01-01", "x_gpu_2026-02-01", "x_2026-01-15", "xy_gpu_2026-03-01", "x_a_b_2026-04-01"):
                (pathlib.Path(tmp) / f"{name}.txt").write_text(name)
            with mock.patch.object(results, "RESULTS", pathlib.Path(tmp)):
                self.assertEqual(prose.report("x").name, "x_gpu_2026-02-01.txt")
                with self.assertRaisesRegex(SystemExit, "no docs/results/z_"):
                    prose.report("z")

    def test_span_and_median(self):
        self.assertEqual(prose.span([43.44, 42.94, 43.1], unit="%"), "42.9 to 43.4%")
        self.assertEqual(prose.span([5.01, 4.99]), "5.0")
        self.assertEqual(prose.median([3, 1, 2]), 2)
        self.assertEqual(prose.num(1.15), "1.2")  # half up from the CSV's digits (format() gives 1.1)
        self.assertEqual(prose.num(70.5, 0), "71")


class Diff(unittest.TestCase):
    def test_diff_marks_removed_added_and_kept_lines_of_the_snippets(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            (root / "a.cuh").write_text("x\n// [k]\nkeep();\nold();\n// [k]\n")
            (root / "b.cuh").write_text("// [h]\nhead();\n// [h]\n// [k]\nkeep();\nnew();\n// [k]\n")
            with mock.patch.object(tables, "ROOT", root):
                text = tables.diff("a.cuh", "k", "b.cuh", "h,k")
        lines = text.split("\n")
        self.assertEqual(lines[0], "```diff")
        self.assertEqual(lines[1:3], ["--- a.cuh", "+++ b.cuh"])
        self.assertEqual(lines[4:9], ["+head();", "+", " keep();", "-old();", "+new();"])
        self.assertNotIn(" x", lines)  # only the snippets, not the rest of the file


class Navigation(unittest.TestCase):
    def test_chapter_links_to_its_neighbours_and_the_contents(self):
        docs = [p for p, _ in tables.chapters()]
        chapter = tables.ROOT / "steps" / "00_copy" / "README.md"
        line = tables.nav(chapter)
        self.assertIn("[Contents](../../README.md)", line)
        before = docs[docs.index(chapter) - 1]
        self.assertIn(f"]({pathlib.Path('../..') / before.relative_to(tables.ROOT)})", line)
        if docs[-1] != chapter:
            self.assertIn("→](../", line)


if __name__ == "__main__":
    unittest.main()
