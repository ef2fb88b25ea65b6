"""Step 09's block arithmetic in Python, for the chapter's figure of the worked example: the
same definitions as steps/09_multi_gpu/blocks.hpp (Split, Layout), which the C++ tests check.
Standard library only.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Split:
    """n things shared by `parts` owners as evenly as possible: the first n % parts get one more."""
    n: int
    parts: int

    def size(self, p):
        return self.n // self.parts + (1 if p < self.n % self.parts else 0)

    def begin(self, p):
        return p * (self.n // self.parts) + min(p, self.n % self.parts)


@dataclass(frozen=True)
class Layout:
    """What rank `rank` of `ranks` holds, sends and receives when rows x cols is transposed in
    `chunks` chunks (blocks.hpp's Layout); i names a sender, j a receiver."""
    rows: int
    cols: int
    ranks: int
    rank: int
    chunks: int

    def rows_of(self):
        return Split(self.rows, self.ranks)

    def cols_of(self):
        return Split(self.cols, self.ranks)

    def slabs(self, i):
        return Split(self.rows_of().size(i), self.chunks)

    def slab(self, i, k):
        return self.slabs(i).size(k)

    def out_rows(self):
        return self.cols_of().size(self.rank)

    def recv_offset(self, i, k):
        """Where rank i's piece of chunk k starts in my receive buffer (a slot for every rank)."""
        return self.out_rows() * sum(self.slab(p, k) for p in range(i))

    def out_column(self, i, k):
        """The column of my out where rank i's piece of chunk k starts: its row in the input."""
        return self.rows_of().begin(i) + self.slabs(i).begin(k)
