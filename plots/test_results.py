"""Tests of the CSV loader (plots/results.py): which file is newest, how rows are converted,
which steps have a CSV. Standard library only: no matplotlib needed."""
import pathlib
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import results  # noqa: E402

HEADER = ("gpu,cc,cuda,git_sha,step,kernel,dtype,rows,cols,bytes,reps,ms_median,ms_min,ms_max,"
          "gbps,pct_of_memcpy,verified\n")


def row(gpu="GPU A", step="00_copy", kernel="copy_vec16", verified="true", pct="99.50"):
    return f"{gpu},9.0,12.10,abc123,{step},{kernel},float,1024,2048,16777216,20,0.0100,0.0090,0.0110,1677.72,{pct},{verified}\n"


def read_one(paths):
    (path,) = paths
    return results.read(path)


class Loader(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, *rows):
        (self.dir / name).write_text(HEADER + "".join(rows))

    def test_newest_goes_by_the_date_not_the_name(self):
        self.write("tour_zz_2025-12-31.csv", row(gpu="old"))   # sorts last by name
        self.write("tour_aa_2026-01-02.csv", row(gpu="new"))   # newest by date
        self.write("tour_mm_2026-01-01.csv", row(gpu="middle"))
        self.assertEqual(results.newest("tour", self.dir).gpu, "new")
        self.assertEqual([p.name for p in results.files("tour", self.dir)],
                         ["tour_zz_2025-12-31.csv", "tour_mm_2026-01-01.csv", "tour_aa_2026-01-02.csv"])

    def test_newest_of_one_gpu(self):
        self.write("ncu_h100_2026-01-01.csv", row(gpu="GPU A"))
        self.write("ncu_h200_2026-02-01.csv", row(gpu="GPU B"))
        self.assertEqual(results.newest("ncu", self.dir).gpu, "GPU B")
        self.assertEqual(results.newest("ncu", self.dir, gpu="GPU A").path.name, "ncu_h100_2026-01-01.csv")
        self.assertIsNone(results.newest("ncu", self.dir, gpu="GPU C"))

    def test_the_pages_gpu_comes_first_and_another_gpu_is_asked_for_by_slug(self):
        self.write(f"tour_{results.PAGES_GPU}_2026-01-01.csv", row(gpu="pages"))
        self.write("tour_h100-80gb-hbm3_2026-02-01.csv", row(gpu="other"))  # newer, another GPU
        self.write("shapes_h100-80gb-hbm3_2026-01-01.csv", row(gpu="only"))  # no file of the pages' GPU
        self.assertEqual(results.newest("tour", self.dir).gpu, "pages")
        self.assertEqual(read_one(results.files("tour", self.dir, "h100-80gb-hbm3")).gpu, "other")
        self.assertEqual(len(results.files("tour", self.dir, "*")), 2)
        self.assertEqual(results.newest("tour", self.dir, gpu="other").gpu, "other")
        self.assertEqual(results.newest("shapes", self.dir).gpu, "only")

    def test_names_without_date_or_of_another_source_are_ignored(self):
        self.write("tour_h200.csv", row())
        self.write("tourist_h200_2026-01-01.csv", row())
        self.write("sweep_cold_h200_2026-01-01.csv", row())
        self.assertIsNone(results.newest("tour", self.dir))
        self.assertEqual(len(results.files("sweep_cold", self.dir)), 1)
        self.assertEqual(results.files("sweep_warm", self.dir), [])

    def test_a_source_is_not_confused_with_a_longer_one(self):
        self.write("07_coarsen_h200_2026-01-01.csv", row(gpu="step"))
        self.write("07_coarsen_tune_h200_2026-01-02.csv", row(gpu="tune"))
        self.assertEqual(results.newest("07_coarsen", self.dir).gpu, "step")
        self.assertEqual(results.newest("07_coarsen_tune", self.dir).gpu, "tune")

    def test_missing_source_raises_missing_with_a_reason(self):
        with self.assertRaises(results.Missing) as caught:
            results.require("sweep_cold", self.dir)
        self.assertIn("sweep_cold_*.csv", str(caught.exception))

    def test_numbers_and_flags_are_converted(self):
        self.write("00_copy_h200_2026-01-01.csv", row(), row(verified="false", pct=""))
        table = results.newest("00_copy", self.dir)
        first, second = table.rows
        self.assertEqual((first["rows"], first["cols"], first["bytes"]), (1024, 2048, 16777216))
        self.assertIsInstance(first["rows"], int)
        self.assertAlmostEqual(first["gbps"], 1677.72)
        self.assertIs(first["verified"], True)
        self.assertIs(second["verified"], False)
        self.assertIsNone(second["pct_of_memcpy"])
        self.assertEqual(first["cuda"], "12.10")  # versions stay text: 12.10 is not 12.1
        self.assertEqual(table.date, "2026-01-01")
        self.assertIn("GPU A, CUDA 12.10, commit abc123, 2026-01-01, median of 20", table.caption())

    def test_step_sources_use_the_step_column(self):
        # A step with '_' in its name, a GPU slug with '_' too, and the previous step's kernel.
        self.write("01_naive_row_h100_sxm_2026-01-01.csv", row(step="ref", kernel="cudaMemcpy"),
                   row(step="00_copy"), row(step="01_naive_row", kernel="transpose_naive_row"))
        self.write("00_copy_h200_2026-01-01.csv", row(step="00_copy"))
        self.write("tour_h200_2026-01-01.csv", row(step="00_copy"))
        self.assertEqual(results.step_sources(self.dir), ["00_copy", "01_naive_row"])

    def test_headline_kernels_come_from_the_tour(self):
        self.write("tour_h200_2026-01-01.csv", row(step="ref", kernel="cudaMemcpy"), row(step="00_copy"),
                   row(step="05_shared", kernel="transpose_tiled"))
        self.assertEqual(results.headline_kernels(self.dir),
                         {"00_copy": "copy_vec16", "05_shared": "transpose_tiled"})

    def test_size_label(self):
        self.assertEqual(results.size_label(2048, 2048), "2048²")
        self.assertEqual(results.size_label(3, 70000), "3 x 70000")


class Fixtures(unittest.TestCase):
    """The committed synthetic fixtures are what the make_all test expects."""

    def test_fixture_tour_is_the_newer_file(self):
        tour = results.newest("tour", HERE / "testdata")
        self.assertEqual(tour.path.name, "tour_fixture_2026-01-10.csv")
        self.assertEqual(tour.gpu, "Synthetic Fixture GPU")

    def test_fixtures_are_marked_synthetic(self):
        for path in (HERE / "testdata").glob("*.csv"):
            self.assertIn("Fixture GPU", results.read(path).gpu, path.name)


if __name__ == "__main__":
    unittest.main()
