"""Host arguments for any entry or `testing$func` of NVIDIA's ops.mlir: small positive tiles,
pointers into a fresh buffer, and views over one (so every function can run once)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.interp import GlobalMemory, TensorView, TiledView
from tile_lsp.compiler.interp.numerics import np_dtype

BUFFER_ELEMENTS = 1 << 16


def _buffer(memory: GlobalMemory, elem: Any, name: str) -> int:
    return memory.add(name, np.zeros(BUFFER_ELEMENTS, dtype=np_dtype(elem)))


def _tensor_view(memory: GlobalMemory, t: ct.TensorViewType, name: str) -> TensorView:
    shape = tuple(8 if d < 0 else d for d in t.shape)
    strides = tuple(1 if s < 0 else s for s in t.strides)
    return TensorView(_buffer(memory, t.element_type, name), np_dtype(t.element_type), shape, strides)


def argument(memory: GlobalMemory, t: Any, i: int, rng: np.random.Generator) -> Any:
    if isinstance(t, ct.TensorViewType):
        return _tensor_view(memory, t, f"view{i}")
    if isinstance(t, ct.PartitionViewType):
        tv = _tensor_view(memory, t.tensor_view, f"view{i}")
        return TiledView(tv, t.tile_shape, t.dim_map, t.padding_value.data, "partition")
    if isinstance(t, ct.TokenType):
        return "token"
    assert isinstance(t, ct.TileType), t
    elem = t.element_type
    if isinstance(elem, ct.PointerType):
        return np.full(t.shape, _buffer(memory, elem.pointee, f"arg{i}"), dtype=np.int64)
    if ct.is_int(elem):
        return np.ones(t.shape, dtype=np_dtype(elem))  # safe as a divisor, shift or extract index
    return rng.uniform(0.5, 2.0, t.shape).astype(np_dtype(elem))
