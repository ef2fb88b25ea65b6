#!/usr/bin/env python3
"""The learner solutions, written as edits of the shipped skeletons: each make() below fills
the TODOs of steps/<step>/exercise.cuh (or drops or replaces lines) and writes the result as
tests/learners/<step>/<name>.diff, the unified diff that learners.py applies and judges.

    python3 tests/learners/solutions.py           rewrite every diff (after editing a skeleton,
                                                 or adding a solution below)
    python3 tests/learners/solutions.py --check   fail if a committed diff is not what the
                                                 edits below give (a ctest cpu test)
"""
import difflib
import pathlib
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECK = "--check" in sys.argv[1:]
stale = []    # diffs that differ from what the edits give (--check)
written = set()  # every diff the edits give


def todo_block(text, tag):
    """The TODO comment block starting at the line with `tag` (with its indentation), through
    the following comment lines that are indented deeper than the TODO line."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if tag in l and l.strip().startswith("// TODO"))
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines) and lines[end].strip().startswith("//") and len(lines[end]) - len(lines[end].lstrip()) >= indent \
            and not lines[end].strip().startswith("// TODO") and (lines[end][indent:indent+3] != "// " or lines[end][indent+3] == " "):
        end += 1
    return "\n".join(lines[start:end]) + "\n", " " * indent

def make(step, name, says, expect, todos=(), drop=(), replace=()):
    path = ROOT / "steps" / step / "exercise.cuh"
    old = path.read_text()
    new = old
    for tag, code in todos:
        block, indent = todo_block(new, tag)
        body = textwrap.dedent(code).strip("\n")
        new = new.replace(block, "\n".join(indent + l if l else l for l in body.split("\n")) + "\n" if body else "", 1)
    for d in drop:
        lines = [l for l in new.split("\n") if d not in l]
        assert len(lines) < len(new.split("\n")), (step, name, d)
        new = "\n".join(lines)
    new = new.replace("[[maybe_unused]] ", "")
    for a, b in replace:
        assert a in new, (step, name, a)
        new = new.replace(a, b, 1)
    diff = difflib.unified_diff(old.split("\n"), new.split("\n"), f"a/steps/{step}/exercise.cuh",
                                f"b/steps/{step}/exercise.cuh", lineterm="", n=2)
    out = ROOT / "tests" / "learners" / step / f"{name}.diff"
    text = f"{says}\nexpect: {expect}\n\n" + "\n".join(diff) + "\n"
    written.add(out)
    if CHECK:
        if not out.exists() or out.read_text() != text:
            stale.append(out.relative_to(ROOT))
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)

V = "// delete this line"
# 00 ---------------------------------------------------------------------------------------
make("00_copy", "right", "Exercise 00, right: the step's solution.", "accepted",
     [("TODO(1)", "reinterpret_cast<Vec*>(out)[i] = reinterpret_cast<const Vec*>(in)[i];"),
      ("TODO(2)", "const std::size_t t = n_vec * kPerVec + i;  // tail element number i\nif (t < n) out[t] = in[t];")])
make("00_copy", "wrong_element_loop", "Exercise 00, wrong: a vector copied element by element (kPerVec loads and stores of sizeof(T) bytes).",
     "caught by sass",
     [("TODO(1)", "for (std::size_t k = 0; k < kPerVec; ++k) out[i * kPerVec + k] = in[i * kPerVec + k];"),
      ("TODO(2)", "const std::size_t t = n_vec * kPerVec + i;\nif (t < n) out[t] = in[t];")])
make("00_copy", "wrong_no_tail", "Exercise 00, wrong: the tail (n not a multiple of kPerVec) is not copied.", "caught by test",
     [("TODO(1)", "reinterpret_cast<Vec*>(out)[i] = reinterpret_cast<const Vec*>(in)[i];")])
make("00_copy", "valid_ldg", "Exercise 00, right another way: the load through the read-only path (__ldg).", "accepted",
     [("TODO(1)", "reinterpret_cast<Vec*>(out)[i] = __ldg(reinterpret_cast<const Vec*>(in) + i);"),
      ("TODO(2)", "const std::size_t t = n_vec * kPerVec + i;\nif (t < n) out[t] = in[t];")])
# 01 ---------------------------------------------------------------------------------------
make("01_naive_row", "right", "Exercise 01, right: the step's solution.", "accepted",
     [("TODO(1)", "const std::size_t o = std::size_t(c) * rows + r;  // out (cols x rows): (c, r)"),
      ("TODO(2)", "out[o] = in[i];")], drop=["// [[maybe_unused]] only"])
make("01_naive_row", "wrong_int_offset", "Exercise 01, wrong: the output offset in 32-bit arithmetic, which wraps past 2^31 elements.",
     "caught by test",
     [("TODO(1)", "const int o = c * rows + r;"), ("TODO(2)", "out[o] = in[i];")], drop=["// [[maybe_unused]] only"])
make("01_naive_row", "wrong_copy", "Exercise 01, wrong: the element goes to (r, c), a copy, not a transpose.", "caught by test",
     [("TODO(1)", "const std::size_t o = std::size_t(r) * cols + c;"), ("TODO(2)", "out[o] = in[i];")], drop=["// [[maybe_unused]] only"])
# 02 ---------------------------------------------------------------------------------------
make("02_naive_col", "right", "Exercise 02, right: the step's solution.", "accepted",
     [("TODO(1)", "const std::size_t i = std::size_t(oc) * cols + orow;  // in (rows x cols): (oc, orow)"),
      ("TODO(2)", "const std::size_t o = std::size_t(orow) * rows + oc;\nout[o] = in[i];")])
make("02_naive_col", "wrong_unsigned_offset", "Exercise 02, wrong: the input offset in 32-bit unsigned arithmetic, which wraps past 2^32 elements.",
     "caught by test",
     [("TODO(1)", "const unsigned i = oc * cols + orow;"),
      ("TODO(2)", "const std::size_t o = std::size_t(orow) * rows + oc;\nout[o] = in[i];")])
# 03 ---------------------------------------------------------------------------------------
make("03_unroll", "right", "Exercise 03, right: the step's solution.", "accepted",
     [("TODO(1)", "if (orow < out_rows) v[k] = in[in_row + orow];"),
      ("TODO(2)", "if (orow < out_rows) out[std::size_t(orow) * rows + oc] = v[k];")], drop=["// [[maybe_unused]] only"])
make("03_unroll", "wrong_clamped_loads", "Exercise 03, wrong in the compiled code: every load unconditional, its column clamped into the matrix; the compiler moves the loads of values that are stored only under a condition into that branch, after the first store.",
     "caught by sass",
     [("TODO(1)", "v[k] = in[in_row + min(orow, out_rows - 1)];  // past the edge: a valid element, not stored"),
      ("TODO(2)", "if (orow < out_rows) out[std::size_t(orow) * rows + oc] = v[k];")], drop=["// [[maybe_unused]] only"])
make("03_unroll", "valid_store_in_load_loop", "Exercise 03, right by the compiler: each load followed by its store in the first loop; with __restrict__ pointers the compiler still issues the four loads first.",
     "accepted",
     [("TODO(1)", "if (orow < out_rows) {\n  v[k] = in[in_row + orow];\n  out[std::size_t(orow) * rows + oc] = v[k];\n}")],
     drop=["// [[maybe_unused]] only"], replace=[("      const unsigned orow = r0 + k * kTileRows;\n      // TODO(2)", "      // TODO(2)")])
make("03_unroll", "wrong_unsigned_offset", "Exercise 03, wrong: the output offset in 32-bit unsigned arithmetic, which wraps past 2^32 elements.",
     "caught by test",
     [("TODO(1)", "if (orow < out_rows) v[k] = in[in_row + orow];"),
      ("TODO(2)", "if (orow < out_rows) out[orow * rows + oc] = v[k];")], drop=["// [[maybe_unused]] only"])
# 04 ---------------------------------------------------------------------------------------
make("04_vectorize", "right", "Exercise 04, right: the step's solution.", "accepted",
     [("TODO(1)", "static_assert(sizeof(v) == sizeof(packed));\nstd::memcpy(&packed, v, sizeof(packed));"),
      ("TODO(2)", "*reinterpret_cast<uint4*>(dst) = packed;  // ONE 16-byte store")], drop=["(void)packed, (void)v, (void)dst;"])
make("04_vectorize", "valid_evict_first", "Exercise 04, right another way: the 16-byte store with the evict-first hint (__stcs).", "accepted",
     [("TODO(1)", "std::memcpy(&packed, v, sizeof(packed));"),
      ("TODO(2)", "__stcs(reinterpret_cast<uint4*>(dst), packed);  // one 16-byte store, evict-first")], drop=["(void)packed, (void)v, (void)dst;"])
make("04_vectorize", "wrong_element_stores", "Exercise 04, wrong: the chunk stored element by element (kV stores of sizeof(T) bytes).",
     "caught by sass",
     [("TODO(1)", "std::memcpy(&packed, v, sizeof(packed));"),
      ("TODO(2)", "std::memcpy(dst, &packed, sizeof(packed));  // the compiler cannot assume dst is 16-byte aligned")],
     drop=["(void)packed, (void)v, (void)dst;"])
# 05 ---------------------------------------------------------------------------------------
T05_1 = "if (r0 + k < unsigned(rows) && c < unsigned(cols)) tile[k][threadIdx.x] = in[std::size_t(r0 + k) * cols + c];"
T05_3 = "if (c0 + k < unsigned(cols) && oc < unsigned(rows)) out[std::size_t(c0 + k) * rows + oc] = tile[threadIdx.x][k];"
make("05_shared", "right", "Exercise 05, right: the step's solution.", "accepted",
     [("TODO(1)", T05_1), ("TODO(2)", "__syncthreads();"), ("TODO(3)", T05_3)], drop=["(void)c;", "(void)oc, (void)tile;"])
make("05_shared", "wrong_no_barrier", "Exercise 05, wrong: no barrier between writing the tile and reading it (a race).", "caught by racecheck",
     [("TODO(1)", T05_1), ("TODO(2)", ""), ("TODO(3)", T05_3)], drop=["(void)c;", "(void)oc, (void)tile;"])
make("05_shared", "valid_barrier_in_load_loop", "Exercise 05, right another way: the barrier inside the load loop; every thread runs the loop four times, so all reach each barrier, and the last comes after every write.",
     "accepted",
     [("TODO(1)", T05_1 + "\n__syncthreads();"), ("TODO(2)", ""), ("TODO(3)", T05_3)], drop=["(void)c;", "(void)oc, (void)tile;"])
make("05_shared", "wrong_barrier_under_edge_check", "Exercise 05, wrong: the barrier inside the edge check, which the threads outside the matrix skip: on a partial tile the block waits forever.",
     "caught by test",
     [("TODO(1)", "if (r0 + k < unsigned(rows) && c < unsigned(cols)) {\n  tile[k][threadIdx.x] = in[std::size_t(r0 + k) * cols + c];\n  __syncthreads();\n}"),
      ("TODO(2)", ""), ("TODO(3)", T05_3)], drop=["(void)c;", "(void)oc, (void)tile;"])
make("05_shared", "wrong_unsigned_offset", "Exercise 05, wrong: the output offset in 32-bit unsigned arithmetic, which wraps past 2^32 elements.",
     "caught by test",
     [("TODO(1)", T05_1), ("TODO(2)", "__syncthreads();"),
      ("TODO(3)", "if (c0 + k < unsigned(cols) && oc < unsigned(rows)) out[(c0 + k) * rows + oc] = tile[threadIdx.x][k];")],
     drop=["(void)c;", "(void)oc, (void)tile;"])
# 06 ---------------------------------------------------------------------------------------
make("06_padded", "right", "Exercise 06, right: the step's solution, c XOR r.", "accepted",
     [("TODO:", "return c ^ r;  // r, c < 32: the result stays in 0 .. 31")], drop=["(void)r;", "  return c;\n"] and ["(void)r;"],
     replace=[("  return c ^ r;  // r, c < 32: the result stays in 0 .. 31\n  return c;", "  return c ^ r;  // r, c < 32: the result stays in 0 .. 31")])
make("06_padded", "valid_rotation", "Exercise 06, right another way: row r rotated by r columns, (c + r) mod 32.", "accepted",
     [("TODO:", "return (c + r) % kTile;  // a rotation: a permutation of every row and of every column")], drop=["(void)r;"],
     replace=[("% kTile;  // a rotation: a permutation of every row and of every column\n  return c;", "% kTile;  // a rotation: a permutation of every row and of every column")])
make("06_padded", "wrong_row_only", "Exercise 06, wrong: a swizzle that ignores the row, c XOR 1: the column reads keep their conflicts.",
     "caught by test",
     [("TODO:", "return c ^ 1;")], drop=["(void)r;"], replace=[("return c ^ 1;\n  return c;", "(void)r;\n  return c ^ 1;")])
# 07 ---------------------------------------------------------------------------------------
S07 = ("TODO(1)", "return c ^ (((r / kV) & 7) * kV);  // chunk c / kV moves to (c / kV) XOR (r / kV) mod 8")
R07 = [("  return c;           // placeholder: no swizzle (correct results, conflicted reads)\n", "")]
W07 = ("TODO(2)", """#pragma unroll
for (int k = 0; k < kV; ++k) {
  const int r = q * kV + k;  // tile row
  v[k] = tile[r * kN + slot<T>(r, j)];
}""")
def st07(store):
    return ("TODO(3)", f"uint4 chunk;\nmemcpy(&chunk, v, sizeof(chunk));\n{store}(p, chunk);")
D07 = ["(void)r, (void)kV;"]
make("07_coarsen", "right", "Exercise 07, right: the step's solution.", "accepted",
     [S07, W07, st07("store16")], drop=D07, replace=R07)
make("07_coarsen", "valid_evict_first", "Exercise 07, right another way: 16-byte stores with the evict-first hint.",
     "accepted", [S07, W07, st07("store16_evict_first")], drop=D07, replace=R07)
make("07_coarsen", "wrong_no_swizzle", "Exercise 07, wrong: slot() left as shipped (no swizzle): correct output, conflicted reads.",
     "caught by test", [W07, st07("store16")])
make("07_coarsen", "wrong_no_async_wait", "Exercise 07, wrong: the barrier without the wait for this thread's cp.async copies (a race).",
     "caught by racecheck", [S07, W07, st07("store16")], drop=D07 + ["cp_async_wait_all();"], replace=R07)
# 08 ---------------------------------------------------------------------------------------
R08 = [("  (void)p;  // delete this line and the two below when the TODO is done\n  i = 0;\n  j = 0;\n", "")]
P08 = ("TODO(1)", """j = std::size_t((sqrt(8.0 * double(p) + 1.0) - 1.0) / 2.0);  // then correct the rounding:
while (j * (j + 1) / 2 > p) --j;
while ((j + 1) * (j + 2) / 2 <= p) ++j;
i = p - j * (j + 1) / 2;""")
L08 = """const std::size_t r2 = tj * kTile + threadIdx.y + k, c2 = ti * kTile + threadIdx.x;  // in tile (tj, ti)
if (!diagonal && r2 < std::size_t(n) && c2 < std::size_t(n)) tile[1][threadIdx.y + k][threadIdx.x] = data[r2 * n + c2];"""
make("08_inplace", "right", "Exercise 08, right: the step's solution.", "accepted", [P08, ("TODO(2)", L08)], replace=R08)
make("08_inplace", "valid_loop", "Exercise 08, right another way: pair_of() finds the column with a loop (slower, as the hint says).",
     "accepted", [("TODO(1)", "j = 0;\nwhile ((j + 1) * (j + 2) / 2 <= p) ++j;\ni = p - j * (j + 1) / 2;"), ("TODO(2)", L08)], replace=R08)
make("08_inplace", "wrong_sqrtf", "Exercise 08, wrong: pair_of() solves the quadratic in float (sqrtf), with no correction.",
     "caught by test",
     [("TODO(1)", "j = std::size_t((sqrtf(8.0f * float(p) + 1.0f) - 1.0f) / 2.0f);\ni = p - j * (j + 1) / 2;"), ("TODO(2)", L08)],
     replace=R08)
make("08_inplace", "wrong_load_after_barrier", "Exercise 08, wrong: the second tile loaded after the barrier (a race).",
     "caught by racecheck", [P08, ("TODO(2)", "")],
     replace=R08 + [("    __syncthreads();  // both tiles are read before either is overwritten\n",
                     "    __syncthreads();  // both tiles are read before either is overwritten\n"
                     "    for (int k = 0; k < kTile; k += kRows) {  // the second tile, after the barrier\n"
                     + "\n".join("      " + l for l in L08.split("\n")) + "\n    }\n")])
# 09 ---------------------------------------------------------------------------------------
S09 = ("  const T* slab = in;  // TODO 1: the first element of slab k of my rows (l.slabs(l.rank) knows where it starts)",
       "  const T* slab = in + l.slabs(l.rank).begin(k) * l.cols;  // slab k's first row, times the row length")
P09 = ("  return send;  // TODO 2: the first element of the rows of the send buffer that rank j needs",
       "  return send + l.cols_of().begin(j) * l.slab(l.rank, k);  // rank j's first row, times the slab's width")
O09 = ("  T* to = out;  // TODO 3: where piece (i, k) starts in `out`: its first column",
       "  T* to = out + l.out_column(i, k);  // rank i's first row, plus its slab's first row")
U09 = ("const T* piece_for(const T* send, [[maybe_unused]] const Layout& l, [[maybe_unused]] int j, [[maybe_unused]] int k) {",
       "const T* piece_for(const T* send, const Layout& l, int j, int k) {")
make("09_multi_gpu", "right", "Exercise 09, right: the step's offsets.", "accepted", replace=[S09, P09, O09])
make("09_multi_gpu", "wrong_piece_rows_not_scaled", "Exercise 09, wrong: the piece for rank j starts at row c_j of the send buffer, but the offset forgets that a row of it holds slab elements.",
     "caught by test", replace=[S09, ("  return send;  // TODO 2: the first element of the rows of the send buffer that rank j needs",
                                           "  return send + l.cols_of().begin(j);"), O09,
                               ("const T* piece_for(const T* send, const Layout& l, int j, int k) {",
                                "const T* piece_for(const T* send, const Layout& l, int j, [[maybe_unused]] int k) {")])
make("09_multi_gpu", "wrong_place_sender_only", "Exercise 09, wrong: a piece placed at its sender's first row, without its slab's place in the sender's rows (right only with one chunk).",
     "caught by test", replace=[S09, P09, ("  T* to = out;  // TODO 3: where piece (i, k) starts in `out`: its first column",
                                               "  T* to = out + l.rows_of().begin(i);")])

stale += [path.relative_to(ROOT) for path in sorted((ROOT / "tests" / "learners").glob("*/*.diff")) if path not in written]
if stale:
    sys.exit("solutions.py: these diffs are not what the edits in tests/learners/solutions.py give "
             "(run it without --check to rewrite them; delete a diff that has no edit):\n  " + "\n  ".join(map(str, stale)))
