"""The Python copy of step 09's block arithmetic gives the chapter's worked example (a 7 x 8
matrix on 3 ranks), the numbers of its tables: in one chunk (page 1) and in two (pipelining)."""
import unittest

from multi_gpu_blocks import Layout, Split


class WorkedExample(unittest.TestCase):
    def test_even_splits_give_the_first_owners_one_more(self):
        self.assertEqual([Split(7, 3).size(p) for p in range(3)], [3, 2, 2])
        self.assertEqual([Split(8, 3).begin(p) for p in range(3)], [0, 3, 6])
        self.assertEqual([Split(2, 3).size(p) for p in range(3)], [1, 1, 0])

    def test_one_chunk_sending_side_of_rank_0(self):
        l = Layout(7, 8, 3, 0, 1)
        self.assertEqual((l.slabs(0).begin(0), l.slab(0, 0)), (0, 3))
        self.assertEqual([l.cols_of().begin(j) for j in range(3)], [0, 3, 6])

    def test_one_chunk_receiving_side_of_rank_1(self):
        l = Layout(7, 8, 3, 1, 1)
        self.assertEqual(l.out_rows(), 3)
        self.assertEqual([l.slab(i, 0) for i in (0, 2)], [3, 2])
        self.assertEqual([l.recv_offset(i, 0) for i in (0, 2)], [0, 15])
        self.assertEqual([l.out_column(i, 0) for i in (0, 2)], [0, 5])

    def test_the_sending_side_of_rank_0(self):
        l = Layout(7, 8, 3, 0, 2)
        self.assertEqual([l.slabs(0).begin(k) for k in range(2)], [0, 2])
        self.assertEqual([l.slab(0, k) for k in range(2)], [2, 1])

    def test_the_receiving_side_of_rank_1(self):
        l = Layout(7, 8, 3, 1, 2)
        self.assertEqual(l.out_rows(), 3)
        self.assertEqual([(l.slab(i, 0), l.slab(i, 1)) for i in (0, 2)], [(2, 1), (1, 1)])
        self.assertEqual([l.recv_offset(i, 0) for i in (0, 2)], [0, 9])
        self.assertEqual([l.recv_offset(i, 1) for i in (0, 2)], [0, 6])
        self.assertEqual([l.out_column(i, 0) for i in (0, 2)], [0, 5])
        self.assertEqual([l.out_column(i, 1) for i in (0, 2)], [2, 6])


if __name__ == "__main__":
    unittest.main()
