"""Optimization hints on entries: `optimization_hints=<sm_90 = {num_cta_in_cga = 2}>`.

Per-architecture dictionaries of tuning knobs; a hint, never a compile target.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Attribute

from tile_lsp.compiler.syntax.attributes import dict_str, parse_attr_dict_body

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.parser import Parser


def parse_hints_body(p: Parser) -> Attribute:
    """`<arch = {k = v, ...}, ...>` into a DictionaryAttr of DictionaryAttrs."""
    p.expect_punct("<")
    out: dict[str, Attribute] = {}
    if not p.accept_punct(">"):
        while True:
            arch, _ = p.expect_bare("architecture name")
            p.expect_punct("=")
            out[arch] = builtin.DictionaryAttr(parse_attr_dict_body(p))
            if p.accept_punct(">"):
                break
            p.expect_punct(",")
    return builtin.DictionaryAttr(out)


def hints_body_str(a: Attribute) -> str:
    assert isinstance(a, builtin.DictionaryAttr)
    return "<" + ", ".join(f"{k} = {dict_str(v.data)}" for k, v in a.data.items()) + ">"  # type: ignore[attr-defined]
