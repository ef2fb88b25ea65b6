"""Step 09's arithmetic in Python: the block arithmetic for the chapter's figure of the worked
example (the same definitions as steps/09_multi_gpu/blocks.hpp, Split and Layout, which the C++
tests check), and the pipelined schedule drawn from its parts' times alone (alone_schedule,
caller_schedule).
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


def alone_schedule(ms, gpus, chunks):
    """The pipelined schedule with every part at its speed alone, from a run's times `ms` (kernel
    -> ms: `packs`, `exchanges` and `places`, each over all chunks): the first pack, then the
    chunks' exchanges back to back, then the last chunk's received pieces ((G - 1) / G of its
    place). Returns each exchange's (start, end) and the schedule's end, in ms."""
    pack0, exchange = ms["packs"] / chunks, ms["exchanges"] / chunks
    last_place = ms["places"] / chunks * (gpus - 1) / gpus
    spans = [(pack0 + k * exchange, pack0 + (k + 1) * exchange) for k in range(chunks)]
    return spans, spans[-1][1] + last_place


def caller_schedule(ms, gpus, chunks):
    """The caller's stream under alone_schedule's exchanges, in the loop's order (kernel.cuh's
    transpose): pack k and my own piece's place k, then, once exchange k - 1 has ended, the place
    of its received pieces; last, the place of the last exchange's. Returns (label, start, end)
    for each pack and each place of received pieces (my own pieces' places follow each pack)."""
    spans, _ = alone_schedule(ms, gpus, chunks)
    pack, own = ms["packs"] / chunks, ms["places"] / chunks / gpus
    received = ms["places"] / chunks * (gpus - 1) / gpus
    bars, t = [], 0.0
    for k in range(chunks):
        bars.append((f"pack{k}", t, t + pack))
        t += pack + own
        if k > 0:  # chunk k - 1 has arrived: place it
            t = max(t, spans[k - 1][1])
            bars.append((f"pl{k - 1}", t, t + received))
            t += received
    t = max(t, spans[-1][1])
    bars.append((f"pl{chunks - 1}", t, t + received))
    return bars
