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


class Inputs(unittest.TestCase):
    def test_special_exponents_become_normal_numbers(self):
        import numpy as np
        cases = {"float": (np.int32, np.float32), "double": (np.int64, np.float64), "half": (np.int16, np.float16)}
        for dtype, (ints, floats) in cases.items():
            bits = np.random.default_rng(1).integers(np.iinfo(ints).min, np.iinfo(ints).max, 100000, dtype=ints)
            bits[:4] = np.array([0, -1, 1, np.iinfo(ints).max], dtype=ints)  # +0, NaN, subnormal, NaN
            values = peers.finite_normal(bits, dtype, np.where).view(floats)
            with np.errstate(all="ignore"):
                self.assertTrue(np.all(np.isfinite(values)), dtype)
                self.assertTrue(np.all(np.abs(values) >= np.finfo(floats).tiny), dtype)  # no zeros, no subnormals
            normal = np.isfinite(bits.view(floats)) & (np.abs(bits.view(floats)) >= np.finfo(floats).tiny)
            self.assertTrue(np.array_equal(values[normal].view(ints), bits[normal]), dtype)  # the rest kept

    def test_bf16_field(self):
        self.assertEqual(peers.finite_normal(0x7F80, "bf16", lambda c, a, b: a if c else b), 0x0080)  # inf -> 2^-126


if __name__ == "__main__":
    unittest.main()
