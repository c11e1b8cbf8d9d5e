"""What op checks may consult (`CudaTileOp.verify_tile(ctx)`): below both the ops
(dialects/cuda_tile) and the verifier that runs them (verifier.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Operation

from tile_lsp.compiler.diagnostics import DiagnosticSink
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax.sourcemap import SourceMap


@dataclass
class VerifyContext:
    """What op checks may consult: the source map, symbols, and options."""

    smap: SourceMap
    sink: DiagnosticSink
    symbols: dict[str, Operation] = field(default_factory=dict)
    options: dict[str, object] = field(default_factory=dict)
    # Ops written in generic form (only they can disagree with their class's shape);
    # None means "unknown, check every op".
    generic_ops: set[Operation] | None = None

    def span(self, op: Operation) -> Span:
        info = self.smap.ops.get(op)
        if info is not None:
            return info.span
        parent = op.parent_op()
        while parent is not None:
            info = self.smap.ops.get(parent)
            if info is not None:
                return info.span
            parent = parent.parent_op()
        return Span(0, 0)
