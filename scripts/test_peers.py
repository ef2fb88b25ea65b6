"""Tests of scripts/peers.py's parts that need no GPU: the command line and the CSV rows."""
import argparse
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import peers  # noqa: E402


class CommandLine(unittest.TestCase):
    def test_sizes_are_squares_or_rectangles(self):
        self.assertEqual(peers.parse_shapes("4096,4097x4099"), [(4096, 4096), (4097, 4099)])

    def test_bad_sizes_and_dtypes_are_refused(self):
        for bad in ("0", "3x", "x4", "4096x-1", "big"):
            with self.assertRaises(argparse.ArgumentTypeError, msg=bad):
                peers.parse_shapes(bad)
        with self.assertRaises(argparse.ArgumentTypeError):
            peers.parse_dtypes("float,int8")
        self.assertEqual(peers.parse_dtypes("all"), peers.DTYPES)


class Rows(unittest.TestCase):
    def test_row_has_the_results_columns_and_the_ratio_to_memcpy(self):
        device = {"gpu": "GPU", "cc": "9.0", "cuda": "13.0", "git_sha": "abc"}
        row = peers.csv_row(device, "torch_eager", "peer", "float", (1000, 1000), 8_000_000, 3,
                            [2.0, 1.0, 4.0], memcpy_gbps=16.0, verified=True)
        self.assertEqual(list(row), peers.COLUMNS)
        self.assertEqual(row["ms_median"], "2.000000")
        self.assertEqual(row["gbps"], "4.00")  # 8 MB in 2 ms
        self.assertEqual(row["pct_of_memcpy"], "25.00")
        self.assertEqual(row["verified"], "true")


if __name__ == "__main__":
    unittest.main()
