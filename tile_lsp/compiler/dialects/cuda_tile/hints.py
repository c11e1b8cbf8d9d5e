"""Optimization hints on entries and memory ops: `optimization_hints=<sm_90 = {num_cta_in_cga = 2}>`.

Per-architecture dictionaries of tuning knobs. Bad hints are warnings (never a compile
error) unless the `hints_errors` option (cuda-tile-opt's -Werr-hints) asks for an error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition

from tile_lsp.compiler.dialects.cuda_tile.base import OpError, VerifyResult, Warning_
from tile_lsp.compiler.syntax import attributes as attr_syntax
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.attributes import escape, parse_attribute, unescape

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import SyntaxParser
    from tile_lsp.compiler.verify_context import VerifyContext

# Architecture keys the verifier knows (`default` applies when no arch entry matches).
KNOWN_KEYS = frozenset(
    {"sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121", "default"}
)
# Archs without multi-CTA clusters: num_cta_in_cga must be 1 there.
SINGLE_CTA_ARCHS = ("sm_80", "sm_86", "sm_87", "sm_88", "sm_89")
# Hints each op accepts.
HINTS_FOR_OP: dict[str, tuple[str, ...]] = {
    "cuda_tile.entry": ("num_cta_in_cga", "num_worker_warps_per_cta", "occupancy"),
    "cuda_tile.load_view_tko": ("latency", "allow_tma"),
    "cuda_tile.store_view_tko": ("latency", "allow_tma"),
    "cuda_tile.load_ptr_tko": ("latency",),
    "cuda_tile.store_ptr_tko": ("latency",),
}


@irdl_attr_definition
class OptimizationHintsAttr(ParametrizedAttribute):
    """`<sm_100 = {...}, ...>`: architecture key -> dictionary of hints."""

    name = "cuda_tile.optimization_hints"
    value: builtin.DictionaryAttr

    @property
    def entries(self) -> dict[str, Attribute]:
        return dict(self.value.data)


def parse_hints_body(p: SyntaxParser) -> Attribute:
    """`<arch = {k = v, ...}, ...>` (the cursor is at `<`)."""
    p.expect_punct("<")
    out: dict[str, Attribute] = {}
    if not p.accept_punct(">"):
        while True:
            if p.kind == lexer.BARE:
                key = p.tok
            elif p.kind == lexer.STRING:
                key = unescape(p.tok)
            else:
                p.fail("expected valid keyword or string")
            p.advance()
            p.expect_punct("=")
            value = parse_attribute(p)
            if key in out:
                p.fail(f"duplicate optimization_hints key `{key}`")
            if not isinstance(value, builtin.DictionaryAttr):
                p.fail(f"expected dictionary attribute for optimization_hints entry `{key}` got value={_typed(value)}")
            out[key] = value
            if p.accept_punct(">"):
                break
            p.expect_punct(",")
    return OptimizationHintsAttr(builtin.DictionaryAttr(out))


def _typed(a: Attribute) -> str:
    """An attribute as MLIR diagnostics print it: integers and floats keep their type."""
    text = attr_syntax.attr_str(a)
    if isinstance(a, builtin.IntegerAttr | builtin.FloatAttr) and " : " not in text:
        from tile_lsp.compiler.syntax.types import type_str

        text += f" : {type_str(a.type)}"
    return text


def _untyped(a: Attribute) -> str:
    if isinstance(a, builtin.IntegerAttr) and a.type != builtin.i1:
        return str(a.value.data)
    text = attr_syntax.attr_str(a)
    if isinstance(a, builtin.FloatAttr):
        return text.split(" : ")[0]
    return text


def hints_body_str(a: Attribute) -> str:
    """`<sm_100 = {num_cta_in_cga = 2}>`: keys sorted (MLIR dictionaries are), values untyped."""
    entries = a.entries if isinstance(a, OptimizationHintsAttr) else dict(a.data)  # type: ignore[attr-defined]
    parts = []
    for arch in sorted(entries):
        inner = entries[arch]
        items = sorted(inner.data.items()) if isinstance(inner, builtin.DictionaryAttr) else []
        body = ", ".join(f"{_key(k)} = {_untyped(v)}" for k, v in items)
        parts.append(f"{_key(arch)} = {{{body}}}")
    return "<" + ", ".join(parts) + ">"


def is_empty(a: Attribute | None) -> bool:
    return a is None or (isinstance(a, OptimizationHintsAttr) and not a.value.data)


def _key(k: str) -> str:
    ok = k and (k[0].isalpha() or k[0] == "_") and all(c.isalnum() or c in "_$." for c in k)
    return k if ok else escape(k)


# -- verification ------------------------------------------------------------------


def verify_op_hints(op: Operation, ctx: VerifyContext) -> VerifyResult:
    """Warnings for unsupported hints of `op`; an error only when `hints_errors` is set."""
    hints = op.properties.get("optimization_hints")
    if not isinstance(hints, OptimizationHintsAttr) or not hints.value.data:
        return
    if not ctx.options.get("hints_warnings", True):
        return
    errors = bool(ctx.options.get("hints_errors", False))
    allowed = HINTS_FOR_OP.get(op.name, ())
    for arch, inner in hints.entries.items():
        if not isinstance(inner, builtin.DictionaryAttr):
            yield OpError(
                f"expected dictionary attribute for optimization_hints entry `{arch}` got value={_typed(inner)}"
            )
            return
        problems = list(_check_arch(arch, inner, allowed))
        for message in problems:
            yield Warning_(message)
        if problems and errors:
            yield OpError("Optimization hints verification failed")
            return


def _check_arch(arch: str, hints: builtin.DictionaryAttr, allowed: tuple[str, ...]) -> list[str]:
    if arch not in KNOWN_KEYS:
        return [f"unknown hint key {arch}"]
    out: list[str] = []
    for key, value in hints.data.items():
        if allowed and key not in allowed:
            out.append(f"{key} is not known hint for current Operation")
            continue
        check = _VALIDATORS.get(key)
        message = check(value, arch) if check is not None else f"unknown param {key} for {arch}"
        if message:
            out.append(message)
    return out


def _int(value: Attribute) -> int | None:
    if isinstance(value, builtin.IntegerAttr):
        return int(value.value.data)
    return None


def _num_cta_in_cga(value: Attribute, arch: str) -> str | None:
    n = _int(value)
    if n is None:
        return f"integer value expected for {arch}.num_cta_in_cga"
    if arch.startswith(SINGLE_CTA_ARCHS) and n != 1:
        return f"expected 1 for {arch}.num_cta_in_cga"
    if n <= 0 or n > 16 or n & (n - 1):
        return f"expected power-of-two ≤ 16 for {arch}.num_cta_in_cga"
    return None


def _num_worker_warps(value: Attribute, arch: str) -> str | None:
    n = _int(value)
    if n is None:
        return f"integer value expected for {arch}.num_worker_warps_per_cta"
    if n <= 0 or n > 32 or n & (n - 1):
        return f"expected power-of-two ≤ 32 for {arch}.num_worker_warps_per_cta"
    return None


def _allow_tma(value: Attribute, arch: str) -> str | None:
    if isinstance(value, builtin.IntegerAttr) and value.type == builtin.i1:
        return None
    return f"boolean value expected for {arch}.allow_tma"


def _ranged(key: str, lo: int, hi: int):  # type: ignore[no-untyped-def]
    def check(value: Attribute, arch: str) -> str | None:
        n = _int(value)
        if n is None:
            return f"integer value expected for {arch}.{key}"
        if not lo <= n <= hi:
            return f"integer value in the range [{lo}, {hi}] is expected for {arch}.{key}"
        return None

    return check


_VALIDATORS = {
    "num_cta_in_cga": _num_cta_in_cga,
    "num_worker_warps_per_cta": _num_worker_warps,
    "allow_tma": _allow_tma,
    "latency": _ranged("latency", 1, 10),
    "occupancy": _ranged("occupancy", 1, 32),
}


def _parse_qualified(p: SyntaxParser) -> Attribute:
    return parse_hints_body(p)


def _print_qualified(a: Attribute) -> str:
    return "#cuda_tile.optimization_hints" + hints_body_str(a)


attr_syntax.DIALECT_ATTR_PARSERS["cuda_tile.optimization_hints"] = _parse_qualified
attr_syntax.DIALECT_ATTR_PRINTERS[OptimizationHintsAttr] = _print_qualified
