"""Tests of plots/inplace.py's index maths: the passes compose to the transpose."""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import inplace  # noqa: E402


class Passes(unittest.TestCase):
    def test_the_passes_make_the_transpose_on_every_small_shape(self):
        for m in range(1, 25):
            for n in range(1, 25):
                flat = [x for row in inplace.passes(m, n)[-1][1] for x in row]
                transpose = [i * n + j for j in range(n) for i in range(m)]  # row j of the n x m result
                self.assertEqual(flat, transpose, f"{m} x {n}")

    def test_pass_1_runs_only_with_a_common_factor(self):
        self.assertEqual(len(inplace.passes(4, 6)), 4)  # start and three passes
        self.assertEqual(len(inplace.passes(5, 7)), 3)  # coprime: no pass 1

    def test_after_pass_2_every_element_is_in_its_final_column(self):
        m, n = 4, 6
        grid = inplace.passes(m, n)[2][1]
        for r in range(m):
            for col in range(n):
                i, j = divmod(grid[r][col], n)
                self.assertEqual((j * m + i) % n, col)

    def test_the_worked_example_of_the_lab_chapter(self):
        self.assertEqual(inplace.passes(4, 6)[-1][1][0], [0, 6, 12, 18, 1, 7])



class TwoPasses(unittest.TestCase):
    def test_squares_then_chunks_make_the_transpose_on_every_small_shape(self):
        for m in range(1, 25):
            for n in range(1, 25):
                flat = [x for row in inplace.two_passes(m, n)[-1][1] for x in row]
                transpose = [i * n + j for j in range(n) for i in range(m)]
                self.assertEqual(flat, transpose, f"{m} x {n}")

    def test_the_worked_example_of_the_lab_chapter(self):
        self.assertEqual(inplace.cycles(4, 6), [[1, 6, 4], [2, 3, 9, 8], [5, 7, 10]])
        self.assertEqual(inplace.two_passes(4, 6)[1][1][0], [0, 6, 2, 8, 4, 10])

if __name__ == "__main__":
    unittest.main()
