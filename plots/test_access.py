"""Tests of the index maths behind the access-pattern diagrams (plots/access.py).

They check the numbers the diagrams print (sectors per warp access, bank conflicts) and that
each kernel's index maths really is a copy or a transpose. Pure Python: no matplotlib needed.
    python3 -m unittest discover -s plots -p 'test_access.py'
"""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import access  # noqa: E402

ROWS, COLS = 64, 96  # not square, so that a swapped rows/cols shows up


def warps(grid_x, grid_y, **extra):
    """Every (bx, by, ty) of a grid, plus fixed extra arguments."""
    for bx in range(grid_x):
        for by in range(grid_y):
            for ty in range(access.BLOCK_Y):
                yield dict(bx=bx, by=by, ty=ty, **extra)


class SectorCounts(unittest.TestCase):
    """A warp of 32 floats in a row costs 4 sectors; 32 floats in a column cost 32."""

    def count(self, fn, **warp):
        a = fn(rows=ROWS, cols=COLS, **warp)
        return len(access.sectors(a.load)), len(access.sectors(a.store))

    def test_sectors_helper(self):
        self.assertEqual(access.sectors(range(8)), [0])         # 8 floats = one 32-byte sector
        self.assertEqual(access.sectors([0, 8, 9]), [0, 1])
        self.assertEqual(access.sectors([3], elem_bytes=8), [0])
        self.assertEqual(list(access.sector_elements(2)), list(range(16, 24)))

    def test_copy_2d_is_coalesced(self):
        for w in warps(COLS // 32, ROWS // 8):
            self.assertEqual(self.count(access.copy_2d, **w), (4, 4), w)

    def test_naive_row_load_4_store_32(self):
        for w in warps(COLS // 32, ROWS // 8):
            self.assertEqual(self.count(access.naive_row, **w), (4, 32), w)

    def test_naive_col_load_32_store_4(self):
        # threads along output rows: the grid covers out, which is COLS x ROWS
        for w in warps(ROWS // 32, COLS // 8):
            self.assertEqual(self.count(access.naive_col, **w), (32, 4), w)

    def test_tiled_load_4_store_4(self):
        for j in range(0, access.TILE, access.BLOCK_Y):
            for w in warps(COLS // 32, ROWS // 32, j=j):
                self.assertEqual(self.count(access.tiled, **w), (4, 4), w)


class IndexMathsIsCorrect(unittest.TestCase):
    """Over the whole grid, every output element is written exactly once, from the right input."""

    def check_transpose(self, pairs):
        """pairs: (input offset, output offset) for every element moved."""
        written = {}
        for src, dst in pairs:
            r, c = divmod(src, COLS)        # in is ROWS x COLS
            orow, ocol = divmod(dst, ROWS)  # out is COLS x ROWS
            self.assertEqual((orow, ocol), (c, r), f"in[{src}] stored to out[{dst}]")
            self.assertNotIn(dst, written)
            written[dst] = src
        self.assertEqual(len(written), ROWS * COLS)

    def lanes(self, a):
        return zip(a.load, a.store)

    def test_copy_2d_copies(self):
        moved = [p for w in warps(COLS // 32, ROWS // 8) for p in self.lanes(access.copy_2d(rows=ROWS, cols=COLS, **w))]
        self.assertTrue(all(src == dst for src, dst in moved))
        self.assertEqual(sorted(dst for _, dst in moved), list(range(ROWS * COLS)))

    def test_naive_row_transposes(self):
        self.check_transpose(p for w in warps(COLS // 32, ROWS // 8)
                             for p in self.lanes(access.naive_row(rows=ROWS, cols=COLS, **w)))

    def test_naive_col_transposes(self):
        self.check_transpose(p for w in warps(ROWS // 32, COLS // 8)
                             for p in self.lanes(access.naive_col(rows=ROWS, cols=COLS, **w)))

    def test_tiled_transposes_through_the_tile(self):
        pairs = []
        js = range(0, access.TILE, access.BLOCK_Y)
        for bx in range(COLS // 32):
            for by in range(ROWS // 32):
                tile = {}  # tile[ty + j][tx] = in[...]: what each thread of the block loaded
                for ty in range(access.BLOCK_Y):
                    for j in js:
                        for tx, src in enumerate(access.tiled(bx, by, ty, j, ROWS, COLS).load):
                            tile[ty + j, tx] = src
                for ty in range(access.BLOCK_Y):  # after __syncthreads(): out[...] = tile[tx][ty + j]
                    for j in js:
                        for tx, dst in enumerate(access.tiled(bx, by, ty, j, ROWS, COLS).store):
                            pairs.append((tile[tx, ty + j], dst))
        self.check_transpose(pairs)


class Banks(unittest.TestCase):
    """Reading a column of a 32 x 32 float tile: unpadded 32-way conflict; padded/swizzled none."""

    def test_unpadded_column_read_is_a_32_way_conflict(self):
        words = access.column_read("unpadded", col=0)
        self.assertEqual({access.bank(w) for w in words}, {0})  # every lane in bank 0
        self.assertEqual(access.wavefronts(words), 32)
        for col in range(access.TILE):  # any column: all lanes in bank `col`
            self.assertEqual(access.wavefronts(access.column_read("unpadded", col)), 32)

    def test_padded_and_swizzled_column_reads_are_conflict_free(self):
        for layout in ("padded", "swizzled"):
            for col in range(access.TILE):
                words = access.column_read(layout, col)
                self.assertEqual(len({access.bank(w) for w in words}), 32, (layout, col))
                self.assertEqual(access.wavefronts(words), 1, (layout, col))

    def test_row_writes_are_conflict_free_in_every_layout(self):
        for layout in access.LAYOUTS:
            for row in range(access.TILE):
                self.assertEqual(access.wavefronts(access.row_write(layout, row)), 1, (layout, row))

    def test_same_word_is_a_broadcast(self):
        self.assertEqual(access.wavefronts([5] * 32), 1)
        self.assertEqual(access.wavefronts([0, 32, 32, 64]), 3)  # three words in bank 0

    def test_layouts_store_every_element_in_its_own_word(self):
        for layout in access.LAYOUTS:
            words = {access.smem_word(r, c, layout) for r in range(32) for c in range(32)}
            self.assertEqual(len(words), 32 * 32, layout)
        swizzled = {access.smem_word(r, c, "swizzled") for r in range(32) for c in range(32)}
        self.assertEqual(swizzled, set(range(32 * 32)))  # no padding needed
        with self.assertRaises(ValueError):
            access.smem_word(0, 0, "diagonal")


if __name__ == "__main__":
    unittest.main()
