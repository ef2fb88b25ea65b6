"""The queueing model of bytes in flight (plots/queueing.py): its algebra, and its predictions
against the committed blocks_per_sm_k timings, within the bounds lab/README.md states.

    python3 -m unittest -v test_queueing
"""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import queueing  # noqa: E402
import results  # noqa: E402

GPUS = ("h200", "h100-80gb-hbm3")
TYPES = ("float", "double", "half", "bf16")
SIDE = 16384
# What the lab says the model does, fitted on one block: points of cudaMemcpy, every GPU and type.
BOUND = {2: 4.0, 3: 7.0}


class Algebra(unittest.TestCase):
    def test_one_block_never_queues(self):
        self.assertAlmostEqual(queueing.copy_share(1, 350, 1000, 400), 1000 / 1750)

    def test_many_blocks_fill_the_busier_server(self):
        self.assertAlmostEqual(queueing.copy_share(500, 350, 1000, 400), 1.0, places=2)  # the DRAM
        self.assertAlmostEqual(queueing.copy_share(500, 350, 500, 1000), 0.5, places=2)  # the SM

    def test_more_blocks_are_never_slower_and_never_pass_the_copy(self):
        shares = [queueing.copy_share(k, 350, 1000, 400) for k in range(1, 12)]
        self.assertEqual(shares, sorted(shares))
        self.assertLess(shares[-1], 1.0)

    def test_queueing_costs_against_no_waiting(self):
        # Without queues two blocks would double one block's rate (capped by the DRAM).
        one, two = (queueing.copy_share(k, 350, 1000, 400) for k in (1, 2))
        self.assertLess(two, min(1.0, 2 * one))

    def test_fit_inverts_one_block(self):
        share = queueing.copy_share(1, 345, 1428, 241)
        self.assertAlmostEqual(queueing.fit_work(share, 345, 1428), 241)

    def test_fit_refuses_a_share_faster_than_the_latency_allows(self):
        with self.assertRaises(ValueError):
            queueing.fit_work(0.9, 350, 1000)  # 1000 / 1350 = 0.74 at w = 0


class CommittedData(unittest.TestCase):
    def curves(self):
        return [queueing.curve(g, d, SIDE) for g in GPUS for d in TYPES]

    def test_every_gpu_and_type_is_measured(self):
        for c in self.curves():
            self.assertEqual(set(c.measured), {1, 2, 3, "headline"})
            self.assertGreater(c.work_ns, 0)

    def test_the_whole_tile_count_is_wrong(self):
        # Little's law with a whole tile in flight says one block covers the latency; it does not.
        for c in self.curves():
            self.assertLess(c.measured[1], 90, f"{c.gpu} {c.dtype}")

    def test_predictions_stay_within_the_stated_bounds(self):
        for c in self.curves():
            for k, bound in BOUND.items():
                with self.subTest(gpu=c.gpu, dtype=c.dtype, blocks=k):
                    self.assertLessEqual(abs(c.error(k)), bound,
                                         f"model {c.predicted(k):.1f} against {c.measured[k]:.1f}%")

    def test_the_model_is_nearer_than_no_queueing(self):
        # The same fit without any queue: k blocks reach k times one block's share, up to the copy.
        for c in self.curves():
            for k in (2, 3):
                naive = min(100.0, k * c.measured[1])
                with self.subTest(gpu=c.gpu, dtype=c.dtype, blocks=k):
                    self.assertLess(abs(c.error(k)), abs(naive - c.measured[k]))

    def test_missing_runs_are_reported(self):
        with self.assertRaises(LookupError):
            queueing.curve("no-such-gpu", "float", SIDE)


if __name__ == "__main__":
    unittest.main()
