"""How stage 3 (`gpu`, tile to threads) spreads one tile over the threads of a CTA.

A `Layout` is a plain data object: it maps (thread, register slot) <-> the row-major element
index of a tile, and nothing else in the stage does index math of its own.

Baseline layout ("contiguous vectors, cyclic over threads"): the N elements are cut into
vectors of V consecutive elements; vector k belongs to thread k mod T, as that thread's vector
k div T. So thread t holds, in slot r,

    element(t, r) = ((r div V) * T + t) * V + (r mod V)  =  t * V + offset(r)

Consecutive threads touch consecutive vectors, so loads and stores coalesce, and each thread's
V elements are contiguous, so they can become vector accesses. Every thread has the same
number of slots; elements at or past N ("ghosts") are computed but never stored, and loads
of them are masked off.

A tile of one element (rank 0, or a shape of all ones) is *uniform*: every thread holds the
value in its one slot. Control flow conditions and loop counters are uniform.

V depends only on N (never on the element type), so an element-wise op, a conversion between
element types or a reshape of a row-major tile never needs a layout change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_THREADS = 128
MAX_VECTOR = 4


@dataclass(frozen=True)
class Layout:
    """`num_elements` elements over `threads` threads in vectors of `vector` elements."""

    num_elements: int
    threads: int = DEFAULT_THREADS
    vector: int = 1

    @staticmethod
    def for_shape(shape: Sequence[int], threads: int = DEFAULT_THREADS, max_vector: int = MAX_VECTOR) -> Layout:
        """The baseline layout of a tile of `shape` (row-major) on `threads` threads: the widest
        vector (a power of two up to `max_vector`) that divides N and still gives every thread
        at least one whole vector."""
        n = 1
        for d in shape:
            n *= d
        vector = 1
        while vector * 2 <= max_vector and n % (vector * 2) == 0 and n >= vector * 2 * threads:
            vector *= 2
        return Layout(n, threads, vector)

    @property
    def uniform(self) -> bool:
        """One element: every thread holds it (no distribution)."""
        return self.num_elements == 1

    @property
    def slots(self) -> int:
        """Register slots per thread."""
        if self.uniform:
            return 1
        per_round = self.threads * self.vector
        rounds = -(-self.num_elements // per_round)
        return rounds * self.vector

    @property
    def has_ghosts(self) -> bool:
        """Whether some (thread, slot) pairs fall past the last element."""
        return not self.uniform and self.slots * self.threads != self.num_elements

    def offset(self, slot: int) -> int:
        """`element(t, slot) - t * vector`: the part of the element index fixed by the slot."""
        if self.uniform:
            return 0
        return (slot // self.vector) * self.threads * self.vector + slot % self.vector

    def element(self, thread: int, slot: int) -> int:
        """Row-major element index held by `thread` in `slot` (>= num_elements: a ghost)."""
        if self.uniform:
            return 0
        return thread * self.vector + self.offset(slot)

    def owner(self, element: int) -> tuple[int, int]:
        """(thread, slot) holding `element` (for a uniform tile: thread 0, every thread has it)."""
        if self.uniform:
            return (0, 0)
        vec, lane = divmod(element, self.vector)
        rnd, thread = divmod(vec, self.threads)
        return (thread, rnd * self.vector + lane)

    def describe(self, shape: Sequence[int] = ()) -> str:
        """The layout in words, for hovers: who holds which element."""
        dims = "x".join(str(d) for d in shape) if shape else str(self.num_elements)
        if self.uniform:
            return f"uniform: every thread of the {self.threads} holds the one element"
        text = (
            f"{dims} elements over {self.threads} threads, {self.slots} register slot"
            f"{'s' if self.slots != 1 else ''} per thread"
        )
        if self.vector > 1:
            text += f", contiguous vectors of {self.vector}"
        step, v = self.threads * self.vector, self.vector
        rounds = f" + {step}k (k < {self.slots // v})" if self.slots > v else ""
        text += f"; thread t holds element{'s' if self.slots > 1 else ''} " + (
            f"{v}t + j (j < {v}){rounds}" if v > 1 else f"t{rounds}"
        )
        if self.has_ghosts:
            text += f" ({self.slots * self.threads - self.num_elements} idle slots)"
        return text

    def is_ghost(self, thread: int, slot: int) -> bool:
        return self.element(thread, slot) >= self.num_elements


def unravel(index: int, shape: Sequence[int]) -> list[int]:
    """Row-major coordinates of element `index` in `shape`."""
    coords = []
    for d in reversed(shape):
        index, c = divmod(index, d)
        coords.append(c)
    return coords[::-1]


__all__ = ["DEFAULT_THREADS", "MAX_VECTOR", "Layout", "unravel"]
