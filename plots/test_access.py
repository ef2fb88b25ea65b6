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


def assert_transposes(case, pairs, rows, cols):
    """pairs: (input offset, output offset) of every element moved; `in` is rows x cols."""
    written = set()
    for src, dst in pairs:
        r, c = divmod(src, cols)
        case.assertEqual(divmod(dst, rows), (c, r), f"in[{src}] stored to out[{dst}]")
        case.assertNotIn(dst, written)
        written.add(dst)
    case.assertEqual(len(written), rows * cols)


class ElementTypes(unittest.TestCase):
    """The other element types: index maths of the vector and unrolled kernels, sectors and
    shared-memory wavefronts per request for float, double, half and bf16."""

    def test_vector_sectors(self):
        self.assertEqual(access.sectors([0], 4, width=4), [0])        # 16 bytes: half a sector
        self.assertEqual(access.sectors([0, 4], 4, width=4), [0])     # two lanes, one sector
        self.assertEqual(access.sectors([6], 4, width=4), [0, 1])     # bytes 24..39 straddle two
        self.assertEqual(access.sectors(range(0, 64, 2), 8, width=2), list(range(16)))  # 512 B

    def test_vec_elements(self):
        self.assertEqual({d: access.vec_elements(b) for d, b in access.DTYPE_BYTES.items()},
                         {"float": 4, "double": 2, "half": 8, "bf16": 8})
        with self.assertRaises(ValueError):
            access.vec_elements(3)

    def test_copy_vec16_copies_contiguous_vectors(self):
        for b in set(access.DTYPE_BYTES.values()):
            v = access.vec_elements(b)
            moved = []
            for block in range(2):
                for warp in range(access.VEC_THREADS // access.WARP):
                    a = access.copy_vec16(block, warp, b)
                    self.assertEqual(a.load, a.store)
                    self.assertEqual(len(access.sectors(a.load, b, a.load_width)), 16)  # 512 B
                    moved += [o + e for o in a.load for e in range(a.load_width)]
            self.assertEqual(moved, list(range(2 * access.VEC_THREADS * v)), b)

    def test_unroll_transposes(self):
        for K, cols in ((1, COLS), (2, COLS), (4, COLS), (8, 128)):
            pairs = []
            for bx in range(ROWS // 32):
                for by in range(cols // (8 * K)):
                    for ty in range(access.BLOCK_Y):
                        for k in range(K):
                            a = access.unroll(bx, by, ty, k, K, ROWS, cols)
                            pairs += zip(a.load, a.store)
            assert_transposes(self, pairs, ROWS, cols)

    def test_unroll1_is_naive_col(self):
        for w in warps(ROWS // 32, COLS // 8):
            self.assertEqual(access.unroll(k=0, K=1, rows=ROWS, cols=COLS, **w),
                             access.naive_col(rows=ROWS, cols=COLS, **w))

    def test_vec16_store_transposes(self):
        for b in set(access.DTYPE_BYTES.values()):
            v = access.vec_elements(b)
            rows, cols = 2 * 32 * v, 16  # two blocks of 32 chunks along an output row
            pairs = []
            for bx in range(2):
                for by in range(cols // 8):
                    for ty in range(access.BLOCK_Y):
                        for k in range(v):  # v[k] = src[k * cols]; the store puts v[k] at dst + k
                            a = access.vec16_store(bx, by, ty, k, rows, cols, b)
                            self.assertEqual(a.store_width, v)
                            pairs += [(src, dst + k) for src, dst in zip(a.load, a.store)]
            assert_transposes(self, pairs, rows, cols)

    def test_lane_elements(self):
        self.assertEqual(access.lane_elements((5, 9)), [(5, 0), (9, 1)])  # one element per lane
        self.assertEqual(access.lane_elements((0, 4), width=4),
                         [(0, 0), (1, 0), (2, 0), (3, 0), (4, 1), (5, 1), (6, 1), (7, 1)])

    def test_vec16_store_lanes_fill_one_output_row(self):
        """Step 04's one store: lane l writes columns l * V .. l * V + V - 1 of output row orow,
        so the warp writes one whole run of 32 V elements (512 bytes) of that row."""
        for b in set(access.DTYPE_BYTES.values()):
            v = access.vec_elements(b)
            rows, cols = 32 * v, 16  # out is cols x rows: one warp's chunks fill an output row
            a = access.vec16_store(0, 1, 2, 0, rows, cols, b)  # orow = 1 * 8 + 2 = 10
            offsets, lanes = zip(*access.lane_elements(a.store, a.store_width))
            self.assertEqual(offsets, tuple(range(10 * rows, 11 * rows)), b)
            self.assertEqual(lanes, tuple(lane for lane in range(access.WARP) for _ in range(v)), b)

    def test_sectors_per_request(self):
        expected = {  # kernel: {elem_bytes: (load, store)}
            "copy_2d":     {4: (4, 4), 8: (8, 8), 2: (2, 2)},
            "copy_vec16":  {4: (16, 16), 8: (16, 16), 2: (16, 16)},
            "naive_row":   {4: (4, 32), 8: (8, 32), 2: (2, 32)},
            "naive_col":   {4: (32, 4), 8: (32, 8), 2: (32, 2)},
            "unroll4":     {4: (32, 4), 8: (32, 8), 2: (32, 2)},
            "vec16_store": {4: (32, 16), 8: (32, 16), 2: (32, 16)},
            "shared_32x8": {4: (4, 4), 8: (8, 8), 2: (2, 2)},
        }
        for kernel, by_size in expected.items():
            for b, want in by_size.items():
                self.assertEqual(access.sectors_per_request(kernel, b, 1024, 2048), want, (kernel, b))
        with self.assertRaises(ValueError):
            access.sectors_per_request("cublas_geam")

    def test_smem_words(self):
        for layout in access.LAYOUTS:  # float: one word, the one the diagrams draw
            self.assertEqual(list(access.smem_words(3, 5, layout)), [access.smem_word(3, 5, layout)])
        self.assertEqual(list(access.smem_words(0, 1, "unpadded", 2)), [0])  # halves 0 and 1 share word 0
        self.assertEqual(list(access.smem_words(1, 0, "padded", 2)), [16])   # half 33: word 16
        self.assertEqual(list(access.smem_words(0, 1, "unpadded", 8)), [2, 3])

    def test_wavefront_minimum(self):
        self.assertEqual(access.wavefronts(range(64), request_bytes=256), 2)  # 32 doubles, no conflict
        self.assertEqual(access.wavefronts(range(16), request_bytes=64), 1)   # 32 halves
        self.assertEqual(access.wavefronts([0, 32], request_bytes=8), 2)      # conflict decides

    def test_smem_wavefronts_per_request(self):
        expected = {  # kernel: {elem_bytes: (load, store)}
            "shared_32x8":   {4: (32, 1), 8: (32, 2), 2: (16, 1)},
            "padded_32x8":   {4: (1, 1), 8: (2, 2), 2: (1.5, 1)},
            "swizzled_32x8": {4: (1, 1), 8: (2, 2), 2: (1, 1)},
        }
        for kernel, by_size in expected.items():
            for b, want in by_size.items():
                self.assertEqual(access.smem_wavefronts_per_request(kernel, b), want, (kernel, b))
        with self.assertRaises(ValueError):
            access.smem_wavefronts_per_request("naive_col")

    def test_padded_half_conflicts_on_odd_columns(self):
        loads, _ = access.smem_wavefront_counts("padded_32x8", 2)
        self.assertEqual(loads, [1, 2] * 16)  # column k even: 1 wavefront; odd: 2


class Step07ChunkSwizzle(unittest.TestCase):
    """Step 07's store-phase read: 16 wavefronts without the swizzle, 2 with it, in every type
    (as the CPU test Step07.StorePhaseReadsTakeTwoWavefronts counts in C++)."""

    def test_wavefronts_of_a_store_phase_read(self):
        for elem_bytes in (2, 4, 8):
            for swizzle, expected in ((False, 16), (True, 2)):
                words = access.store_phase_read(swizzle, elem_bytes=elem_bytes)
                with self.subTest(elem_bytes=elem_bytes, swizzle=swizzle):
                    self.assertEqual(access.wavefronts(words, access.WARP * elem_bytes), expected)

    def test_the_swizzle_keeps_chunks_whole_and_permutes_them(self):
        for elem_bytes in (2, 4, 8):
            v, side = 16 // elem_bytes, 256 // elem_bytes
            for r in range(side):
                slots = [access.chunk_slot(r, c, True, elem_bytes) for c in range(side)]
                self.assertEqual(sorted(slots), list(range(side)))  # a permutation of the row
                self.assertTrue(all(slots[c] % v == c % v for c in range(side)))  # place within the chunk kept


if __name__ == "__main__":
    unittest.main()
