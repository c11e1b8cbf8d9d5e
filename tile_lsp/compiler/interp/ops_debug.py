"""Interpreter semantics of print (C printf conversions; a tile prints as `[a, b, ...]` with
each element formatted by the same conversion) and assert (a failed one stops the run)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation

import tile_lsp.compiler.interp.numerics as nx
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.interp.machine import InterpError, Interpreter, handles

Array = nx.Array
_SPEC = re.compile(r"%([-+ #0]*\d*(?:\.\d+)?)(hh|h|ll|l|z|j|t|L)?([diuoxXeEfFgGaAcsp%])")


def _one(flags: str, conv: str, value: Any, elem: Attribute) -> str:
    if conv in "aA":
        text = float(value).hex()
        return text.upper() if conv == "A" else text
    if conv == "p":
        return f"{int(value):#x}"
    if conv == "s":
        return ("%" + flags + "s") % str(value)
    if conv == "c":
        return ("%" + flags + "c") % chr(int(value) & 0xFF)
    if conv in "diuoxX":
        if isinstance(elem, builtin.AnyFloat):
            number = int(float(value)) if np.isfinite(float(value)) else 0
        else:
            unsigned = conv in "uoxX"
            number = int((nx.as_unsigned if unsigned else nx.as_signed)(np.asarray(value), elem))
        return ("%" + flags + ("d" if conv in "iu" else conv)) % number
    return ("%" + flags + conv) % float(value)


def format_print(fmt: str, args: list[Array], types: list[Attribute]) -> str:
    """printf-like formatting of tile values (length modifiers are accepted and ignored)."""
    out: list[str] = []
    pos = 0
    k = 0
    for m in _SPEC.finditer(fmt):
        out.append(fmt[pos : m.start()])
        pos = m.end()
        flags, _, conv = m.groups()
        if conv == "%":
            out.append("%")
            continue
        value, elem = np.asarray(args[k]), ct.element_type(types[k])
        if nx.is_codes(elem):  # fnv8E5M3FNU: print the values, not the codes
            value, elem = nx.float_values(value, elem), builtin.Float64Type()
        k += 1
        if value.size == 1:
            out.append(_one(flags, conv, value.reshape(()), elem))
        else:
            out.append(_tile_text(flags, conv, value, elem))
    out.append(fmt[pos:])
    return "".join(out)


def _tile_text(flags: str, conv: str, value: Array, elem: Attribute) -> str:
    if value.ndim == 0:
        return _one(flags, conv, value, elem)
    return "[" + ", ".join(_tile_text(flags, conv, v, elem) for v in value) + "]"


@handles("print", "print_tko")
def print_op(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    fmt = op.properties["str"]
    assert isinstance(fmt, builtin.StringAttr)
    nargs = len(op.args)  # type: ignore[attr-defined]
    it.stdout.write(format_print(fmt.data, ins[:nargs], [v.type for v in op.operands[:nargs]]))
    return ["token"]


@handles("assert")
def assert_op(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    cond = np.asarray(ins[0], dtype=np.bool_)
    if not np.all(cond):
        msg = op.properties["message"]
        text = msg.data if isinstance(msg, builtin.StringAttr) else ""
        first = tuple(int(i) for i in np.argwhere(~cond)[0]) if cond.ndim else ()
        at = f" at element {first}" if first else ""
        raise InterpError(f"assertion failed in tile block {it.state.block_id}{at}: {text}", it.where(op))
    return []


@handles("preview$call")
def preview_call(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    from tile_lsp.compiler.dialects.cuda_tile.preview import unsupported_message
    from tile_lsp.compiler.interp.machine import Unsupported

    raise Unsupported(unsupported_message(op, "run"), it.where(op))
