"""Tests of scripts/ncu_to_csv.py on a small hand-made report (no GPU needed).

    python3 -m unittest discover -s scripts -p 'test_*.py'
"""
import csv
import pathlib
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import ncu_to_csv  # noqa: E402

LAUNCHES = """Some line the program printed
device,NVIDIA Test GPU,9.0,13.0,abc123,test-gpu
launch,00_copy,copy_2d,float,64,32
launch,ref,cublas_geam,float,64,32
"""


def raw_report(values):
    """An `ncu --csv --page raw` export with a header, a units row and one row per kernel."""
    metrics = list(ncu_to_csv.METRICS.values())
    lines = [["ID", "Kernel Name"] + metrics, ["", ""] + ["" for _ in metrics]]
    for i, (name, by_metric) in enumerate(values):
        lines.append([str(i), name] + [by_metric.get(m, "0") for m in metrics])
    return "\n".join(",".join(f'"{x}"' for x in line) for line in lines) + "\n"


M = ncu_to_csv.METRICS
COPY = {M["ld_sectors"]: "1,024", M["ld_requests"]: "256", M["st_sectors"]: "1,024", M["st_requests"]: "256",
        M["dram_read_bytes"]: "8,192", M["dram_write_bytes"]: "16384", M["registers"]: "16",
        M["duration_ns"]: "2500", M["l2_bytes"]: "52428800", M["stall_long_scoreboard"]: "7.25",
        M["stall_barrier"]: "0"}
GEAM = {M["smem_ld_requests"]: "100", M["smem_ld_wavefronts"]: "3200", M["smem_st_requests"]: "100",
        M["smem_st_wavefronts"]: "100", M["smem_ld_conflicts"]: "3100", M["ld_requests"]: "0"}


class NcuToCsv(unittest.TestCase):
    def convert(self, profiled):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            (tmp / "launches.txt").write_text(LAUNCHES)
            (tmp / "raw.csv").write_text(raw_report(profiled))
            run = subprocess.run([sys.executable, str(HERE / "ncu_to_csv.py"), str(tmp / "launches.txt"),
                                  str(tmp / "raw.csv"), str(tmp / "out.csv")], capture_output=True, text=True)
            rows = list(csv.DictReader((tmp / "out.csv").open())) if run.returncode == 0 else None
            return run, rows

    def test_rows_follow_the_launches_in_order(self):
        run, rows = self.convert([("copy_2d_kernel", COPY), ("geam_kernel", GEAM)])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual([r["kernel"] for r in rows], ["copy_2d", "cublas_geam"])
        self.assertEqual(list(rows[0].keys()), ncu_to_csv.COLUMNS)
        copy, geam = rows
        self.assertEqual((copy["gpu"], copy["git_sha"], copy["function"]), ("NVIDIA Test GPU", "abc123", "copy_2d_kernel"))
        self.assertEqual(copy["ld_sectors_per_req"], "4.00")       # 1024 sectors / 256 requests
        self.assertEqual(copy["ideal_bytes"], str(64 * 32 * 4))    # one 64 x 32 float matrix
        self.assertEqual(copy["dram_read_vs_ideal"], "1.000")
        self.assertEqual(copy["dram_write_vs_ideal"], "2.000")
        self.assertEqual(copy["duration_us"], "2.50")
        self.assertEqual(copy["smem_ld_wavefronts_per_req"], "")  # no shared memory used
        self.assertEqual(geam["smem_ld_wavefronts_per_req"], "32.00")
        self.assertEqual(geam["smem_bank_conflicts"], "3100")
        self.assertEqual(geam["ld_sectors_per_req"], "")           # no requests: no ratio
        self.assertEqual(copy["stall_long_scoreboard"], "7.25")    # stall cycles per issued instruction, on global memory
        self.assertEqual(copy["stall_barrier"], "0.00")

    def test_refuses_to_guess_when_counts_differ(self):
        run, _ = self.convert([("copy_2d_kernel", COPY)])
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("2 launches but 1 profiled", run.stderr)

    def test_reports_missing_metrics(self):
        with tempfile.TemporaryDirectory() as tmp:
            raw = pathlib.Path(tmp) / "raw.csv"
            raw.write_text('"ID","Kernel Name","dram__bytes_read.sum"\n"","","byte"\n"0","k","1"\n')
            with self.assertRaises(SystemExit) as caught:
                ncu_to_csv.read_profiled(raw)
            self.assertIn("lacks metrics", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
