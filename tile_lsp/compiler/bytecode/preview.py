"""Bytecode of the 13.5 SIMT preview's constant arguments (what `preview$call` carries).

Facts (cuTile 1.7's `cuda.tile_preview` encoder, checked against tileirdisasm 13.5): the header's
16-bit tag has bit 0 set ("public preview") in a file with preview content, which is only valid
at 13.5; `preview$call` is opcode 0x4002 (see opspec); its `const_args` are tagged attributes
whose tags are varints outside the ordinary range: 0xD1 an integer (a signed varint: value << 1,
inverted when negative), 0xDB a type (a type index), 0xE4 a string (a string index).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tile_lsp.compiler.bytecode.format import ByteReader, put_svarint, put_varint

if TYPE_CHECKING:
    from xdsl.ir import Attribute

A_PREVIEW_EXPR_INT = 0xD1
A_PREVIEW_CONCRETE_TYPE = 0xDB
A_PREVIEW_EXPR_CONST_STR = 0xE4
PREVIEW_ATTR_TAGS = frozenset({A_PREVIEW_EXPR_INT, A_PREVIEW_CONCRETE_TYPE, A_PREVIEW_EXPR_CONST_STR})
PREVIEW_HEADER_BIT = 1  # in the version tag (the two bytes after major.minor)
FIRST_PREVIEW_OPCODE = 0x4000

# tileirdisasm 13.5's words.
NO_PREVIEW_FLAG = "malformed bytecode: encountered public-preview opcode {} but the header does not advertise preview content"
OLD_PREVIEW = "public-preview bytecode at version {} is not readable; preview content is only valid at the current version 13.5"


def _mod():  # type: ignore[no-untyped-def]
    from tile_lsp.compiler.dialects.cuda_tile import preview

    return preview


def read_attr(fr, r: ByteReader, tag: int, at: int) -> Attribute:  # type: ignore[no-untyped-def]
    """The body of a preview attribute whose tag was just read (`fr`: the reader's _FileReader)."""
    pv = _mod()
    if not fr.preview:
        raise r.fail(f"attribute tag {tag} is public-preview content but the header does not advertise preview content", at)
    if tag == A_PREVIEW_EXPR_INT:
        return pv.expr_int(r.svarint("a preview$expr_int value"))
    if tag == A_PREVIEW_CONCRETE_TYPE:
        return pv.concrete_type(fr.type_ref(r, "the type of a preview$concrete_type"))
    return pv.const_str(fr.string(r, "the string of a preview$expr_const_str"))


def sorted_dicts(items: list[Attribute]) -> list[Attribute]:
    """Dictionaries with their keys in order, as an MLIR DictionaryAttr holds (and NVIDIA prints) them."""
    from xdsl.dialects import builtin

    return [
        builtin.DictionaryAttr(dict(sorted(a.data.items()))) if isinstance(a, builtin.DictionaryAttr) else a
        for a in items
    ]


def write_attr(w, buf: bytearray, a: Attribute, op) -> bool:  # type: ignore[no-untyped-def]
    """Encode `a` if it is a preview attribute (`w`: the writer's _Writer); False if it is not."""
    pv = _mod()
    if isinstance(a, pv.PreviewExprIntAttr):
        put_varint(buf, A_PREVIEW_EXPR_INT)
        put_svarint(buf, a.value.data)
    elif isinstance(a, pv.PreviewConcreteTypeAttr):
        put_varint(buf, A_PREVIEW_CONCRETE_TYPE)
        put_varint(buf, w.t(a.type, op))
    elif isinstance(a, pv.PreviewExprConstStrAttr):
        put_varint(buf, A_PREVIEW_EXPR_CONST_STR)
        put_varint(buf, w.s(a.value.data))
    else:
        return False
    w.preview = True
    return True
