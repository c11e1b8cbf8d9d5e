"""The interpreter's global memory: named byte buffers, pointers as (buffer, byte offset).

A pointer value is one int64 "address": buffer number + 1 in the high bits, byte offset in
the low 40, so pointer tiles select, broadcast and convert to integers like any int64 tile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]

OFFSET_BITS = 40
OFFSET_MASK = (1 << OFFSET_BITS) - 1


class MemoryFault(Exception):
    """An access outside every buffer, misaligned, or to a read-only global."""


@dataclass
class Buffer:
    name: str
    data: Array  # uint8, padded to a multiple of 16 bytes
    read_only: bool = False


@dataclass
class GlobalMemory:
    """Buffers by number; `add` copies an array in and returns its base address."""

    buffers: list[Buffer] = field(default_factory=list)
    shapes: dict[str, tuple[tuple[int, ...], Any]] = field(default_factory=dict)

    def add(self, name: str, array: Array, read_only: bool = False) -> int:
        raw = np.ascontiguousarray(array).reshape(-1).view(np.uint8)
        padded = np.zeros(-(-max(raw.size, 1) // 16) * 16, dtype=np.uint8)
        padded[: raw.size] = raw
        self.buffers.append(Buffer(name, padded, read_only))
        self.shapes[name] = (tuple(np.shape(array)), np.asarray(array).dtype)
        return len(self.buffers) << OFFSET_BITS

    def alloc(self, name: str, nbytes: int) -> int:
        return self.add(name, np.zeros(nbytes, dtype=np.uint8))

    def array(self, name: str) -> Array:
        """The current contents of a buffer added by `add`, with its original shape and dtype."""
        shape, dtype = self.shapes[name]
        for buf in self.buffers:
            if buf.name == name:
                n = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
                return buf.data[:n].view(dtype).reshape(shape).copy()
        raise KeyError(name)

    def describe(self, addr: int) -> str:
        buf_no, off = (addr >> OFFSET_BITS) - 1, addr & OFFSET_MASK
        if 0 <= buf_no < len(self.buffers):
            return f"buffer '{self.buffers[buf_no].name}' byte {off}"
        return f"address {addr:#x} (no buffer)"

    def _locate(self, addrs: Array, dtype: Any, write: bool) -> list[tuple[Array, Array, Buffer]]:
        """Group element addresses by buffer: (positions in `addrs`, element indices, buffer)."""
        size = np.dtype(dtype).itemsize
        addrs = np.asarray(addrs, dtype=np.int64).reshape(-1)
        nos = (addrs >> OFFSET_BITS) - 1
        out = []
        for no in np.unique(nos):
            where = np.nonzero(nos == no)[0]
            offs = addrs[where] & OFFSET_MASK
            if not 0 <= no < len(self.buffers):
                raise MemoryFault(f"access to {self.describe(int(addrs[where[0]]))}")
            buf = self.buffers[int(no)]
            bad = (offs % size != 0) | (offs + size > buf.data.size)
            if np.any(bad):
                off = int(offs[np.argmax(bad)])
                why = "misaligned" if off % size else f"out of bounds (buffer size {buf.data.size} bytes)"
                raise MemoryFault(f"{'store to' if write else 'load from'} buffer '{buf.name}' byte {off}: {why}")
            if write and buf.read_only:
                raise MemoryFault(f"store to constant global '{buf.name}'")
            out.append((where, offs // size, buf))
        return out

    def load(self, addrs: Array, dtype: Any, mask: Array | None = None, fill: Any = 0) -> Array:
        """Gather elements of `dtype` at `addrs`; masked-off lanes get `fill`."""
        shape = np.shape(addrs)
        flat = np.asarray(addrs, dtype=np.int64).reshape(-1)
        out = np.empty(flat.size, dtype=dtype)
        out[...] = np.asarray(fill).astype(dtype)
        live = np.arange(flat.size) if mask is None else np.nonzero(np.broadcast_to(mask, shape).reshape(-1))[0]
        for where, idx, buf in self._locate(flat[live], dtype, write=False):
            out[live[where]] = buf.data.view(dtype)[idx]
        return out.reshape(shape)

    def store(self, addrs: Array, values: Array, dtype: Any, mask: Array | None = None) -> None:
        """Scatter `values` to `addrs` (lanes in row-major order: a later lane wins)."""
        shape = np.shape(addrs)
        flat = np.asarray(addrs, dtype=np.int64).reshape(-1)
        vals = np.broadcast_to(np.asarray(values).astype(dtype), shape).reshape(-1)
        live = np.arange(flat.size) if mask is None else np.nonzero(np.broadcast_to(mask, shape).reshape(-1))[0]
        for where, idx, buf in self._locate(flat[live], dtype, write=True):
            buf.data.view(dtype)[idx] = vals[live[where]]


# -- views -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TensorView:
    """make_tensor_view: base address, element dtype, shape and strides in elements."""

    base: int
    dtype: Any
    shape: tuple[int, ...]
    strides: tuple[int, ...]


@dataclass(frozen=True)
class TiledView:
    """partition / strided / gather-scatter view over a tensor view.

    Tile dimension d covers tensor dimension dim_map[d]. Tile origins step by the tile size
    (partition), by `steps` (strided view), or are element offsets (gather/scatter, whose
    `sparse_dim` index is a 1-D tile of element indices)."""

    tensor: TensorView
    tile: tuple[int, ...]
    dim_map: tuple[int, ...]
    padding: str
    kind: str  # "partition" | "strided" | "gather_scatter"
    steps: tuple[int, ...] = ()
    sparse_dim: int = -1

    def index_space(self) -> tuple[int, ...]:
        """Number of tiles along each tile dimension (get_index_space_shape)."""
        out = []
        for d, t in enumerate(self.tile):
            step = self.steps[d] if self.kind == "strided" else t
            out.append(-(-self.tensor.shape[self.dim_map[d]] // step))
        return tuple(out)

    def addresses(self, index: list[Array]) -> tuple[Array, Array]:
        """(element addresses, in-bounds mask) of the tile at `index`, both of the tile's shape."""
        rank = len(self.tile)
        offset = np.zeros(self.tile, dtype=np.int64)
        inside = np.ones(self.tile, dtype=np.bool_)
        for d in range(rank):
            shape = [1] * rank
            shape[d] = self.tile[d]
            if self.kind == "gather_scatter" and d == self.sparse_dim:
                g = np.asarray(index[d]).astype(np.int64).reshape(shape)
            else:
                i = int(np.asarray(index[d]).astype(np.int64))
                origin = i if self.kind == "gather_scatter" else i * (self.steps[d] if self.kind == "strided" else self.tile[d])
                g = (origin + np.arange(self.tile[d], dtype=np.int64)).reshape(shape)
            td = self.dim_map[d]
            inside = inside & (g >= 0) & (g < self.tensor.shape[td])
            offset = offset + g * self.tensor.strides[td]
        size = np.dtype(self.tensor.dtype).itemsize
        return self.tensor.base + offset * size, inside
