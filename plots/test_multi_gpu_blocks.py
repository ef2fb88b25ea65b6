"""The Python copy of step 09's block arithmetic gives the chapter's worked example (a 7 x 8
matrix on 3 ranks), the numbers of its tables: in one chunk (page 1) and in two (pipelining)."""
import unittest

from multi_gpu_blocks import Layout, Split, alone_schedule, caller_schedule


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



class Schedule(unittest.TestCase):
    """The pipelined schedule from the parts' times alone, in kernel.cuh's loop order."""
    MS = {"packs": 4.0, "exchanges": 12.0, "places": 4.0}  # 4 chunks: pack 1, exchange 3, place 1 each

    def test_exchanges_back_to_back_after_the_first_pack(self):
        spans, end = alone_schedule(self.MS, 4, 4)
        self.assertEqual(spans, [(1.0, 4.0), (4.0, 7.0), (7.0, 10.0), (10.0, 13.0)])
        self.assertEqual(end, 13.75)  # the last exchange's received pieces: 3/4 of a chunk's place

    def test_caller_packs_then_places_each_chunk_after_its_exchange(self):
        bars = caller_schedule(self.MS, 4, 4)
        self.assertEqual([label for label, _, _ in bars], ["pack0", "pack1", "pl0", "pack2", "pl1", "pack3", "pl2", "pl3"])
        spans, _ = alone_schedule(self.MS, 4, 4)
        for label, start, _ in bars:
            if label.startswith("pl"):
                self.assertGreaterEqual(start, spans[int(label[2:])][1], label)
        self.assertEqual(bars[1][1], 1.25)  # pack1 after pack0 and my own piece's place (1/4 of a chunk's)


if __name__ == "__main__":
    unittest.main()
