"""Plain xDSL printing helpers, below both `mlir.context` and the dialect definitions."""

from __future__ import annotations

import io

from xdsl.ir import Attribute
from xdsl.printer import Printer


def attr_text(attr: Attribute) -> str:
    """One attribute or type as MLIR text (xDSL's spelling), e.g. for diagnostics."""
    out = io.StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()
