"""An xDSL dialect with some of its ops replaced or added by ours (arith, math, memref)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Dialect, Operation


def overlay(base: Dialect, ops: Sequence[type[Operation]]) -> Dialect:
    """`base` with `ops` added, each replacing `base`'s op of the same name; `base`'s attributes."""
    ours = {op.name for op in ops}
    kept = [op for op in base.operations if op.name not in ours]
    return Dialect(base.name, [*kept, *ops], list(base.attributes))
