"""Parsing and printing of types: builtin scalars, cuda_tile types, opaque dialect types.

cuda_tile types print short (`tile<4xf32>`) inside a cuda_tile.module and long
(`!cuda_tile.tile<4xf32>`) elsewhere; both spellings parse everywhere.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Data, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition

from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import lexer

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import SyntaxParser


@irdl_attr_definition
class OpaqueType(ParametrizedAttribute, TypeAttribute):
    """A type we do not model, kept as its exact spelling so it round-trips."""

    name = "tile_lsp.opaque_type"
    spelling: builtin.StringAttr


@irdl_attr_definition
class OpaqueAttr(Data[str]):
    """An attribute we do not model, kept as its exact spelling."""

    name = "tile_lsp.opaque_attr"

    @classmethod
    def parse_parameter(cls, parser):  # type: ignore[no-untyped-def]  # pragma: no cover
        raise NotImplementedError

    def print_parameter(self, printer) -> None:  # type: ignore[no-untyped-def]  # pragma: no cover
        printer.print_string(self.data)


def opaque_type(spelling: str) -> OpaqueType:
    return OpaqueType(builtin.StringAttr(spelling))


_ANGLE_BODY = re.compile(r"<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>")

CUDA_TILE_TYPES = ("tile", "ptr", "token", "tensor_view", "partition_view", "strided_view", "gather_scatter_view")
_SCALARS: dict[str, Attribute] = dict(ct.ELEMENT_TYPE_NAMES)
_SCALARS.update({"index": builtin.IndexType(), "none": builtin.NoneType()})


_INT64_MAX = (1 << 63) - 1
_MAX_INT_WIDTH = (1 << 24) - 1  # MLIR's IntegerType::kMaxWidth


def _dim(p: SyntaxParser, digits: str, start: int) -> int:
    """A static dimension spelled by `digits` at offset `start`: MLIR's "invalid dimension"
    when it does not fit in int64 (also past any length: no unbounded int-string conversion)."""
    if len(digits) <= 19 and (value := int(digits)) <= _INT64_MAX:
        return value
    if len(digits.lstrip("0")) <= 19 and (value := int(digits)) <= _INT64_MAX:
        return value
    p.fail("invalid dimension", Span(start, start + len(digits)), raw=True)
    raise AssertionError


def _int_type(p: SyntaxParser, digits: str, span: Span, sign: builtin.Signedness | None = None) -> builtin.IntegerType:
    """`i<digits>` (or `si`/`ui`) spelled at `span`: MLIR's width limit, checked before the
    digits are converted."""
    width = int(digits) if len(digits.lstrip("0")) <= 8 else _MAX_INT_WIDTH + 1
    if width > _MAX_INT_WIDTH:
        p.fail(f"integer bitwidth is limited to {_MAX_INT_WIDTH} bits", span, raw=True)
    return builtin.IntegerType(width) if sign is None else builtin.IntegerType(width, sign)


def _split_dims(word: str, dims: list[int], p: SyntaxParser, offset: int) -> str:
    """Consume `x4x?x` style dimension text from a bare word at `offset`; return the rest."""
    rest = word
    while rest.startswith("x"):
        rest = rest[1:]
        j = 0
        while j < len(rest) and rest[j] in "0123456789":
            j += 1
        if j == 0:
            break
        dims.append(_dim(p, rest[:j], offset + len(word) - len(rest)))
        rest = rest[j:]
    return rest


def parse_dims_and_element(p: SyntaxParser, allow_dynamic: bool) -> tuple[list[int], Attribute]:
    """Parse `2x?x4xf32` (or just `f32`) as it lexes: ints, `?`, and `x...` words."""
    dims: list[int] = []
    while True:
        k = p.kind
        if k == lexer.INT:
            tok = p.tok
            if tok[:2] in ("0x", "0X"):
                # `0x2x...` lexes as a hex literal; in a shape it is the dim 0, then more.
                start = p.starts[p.i]
                dims.append(0)
                rest = _split_dims(tok[1:], dims, p, start + 1)
                p.advance()
                if rest and not rest.startswith("x"):
                    return dims, parse_element_word(p, rest, start + len(tok) - len(rest))
                continue
            dims.append(_dim(p, tok, p.starts[p.i]))
            p.advance()
        elif k == lexer.PUNCT and p.tok == "?":
            if not allow_dynamic:
                p.fail("expected static shape")
            dims.append(ct.DYNAMIC)
            p.advance()
        elif k == lexer.BARE and p.tok.startswith("x") and dims:
            start = p.starts[p.i]
            word = p.tok
            rest = _split_dims(word, dims, p, start)
            if rest == "":
                p.advance()
                continue
            if rest.startswith("x"):  # `x` directly before `?`
                p.advance()
                continue
            # The rest of the word is the element type spelling.
            p.advance()
            return dims, parse_element_word(p, rest, start + len(word) - len(rest))
        else:
            if k not in (lexer.BARE, lexer.BANG):  # e.g. a negative dim: NVIDIA's type parser wording
                p.fail("expected valid keyword")
            return dims, parse_type(p)


def parse_element_word(p: SyntaxParser, word: str, offset: int) -> Attribute:
    """An element type spelled by a (possibly partial) bare word: f32, ptr<...>."""
    t = _SCALARS.get(word)
    if t is not None:
        return t
    if word[0] == "i" and word[1:].isdigit():
        return _int_type(p, word[1:], Span(offset, offset + len(word)))
    if word in CUDA_TILE_TYPES:
        return parse_cuda_tile_type_body(p, word)
    p.fail(f"expected type, got '{word}'", Span(offset, offset + len(word)))
    raise AssertionError


def parse_type(p: SyntaxParser) -> Attribute:
    """Parse any type at the cursor."""
    k = p.kind
    if k == lexer.BARE:
        word = p.tok
        t = _SCALARS.get(word)
        if t is not None:
            p.advance()
            return t
        if (word[0] in "iu" and word[1:].isdigit()) or (word.startswith("si") and word[2:].isdigit()):
            at = p.span()
            p.advance()
            if word[0] == "i":
                return _int_type(p, word[1:], at)
            sign = builtin.Signedness.UNSIGNED if word[0] == "u" else builtin.Signedness.SIGNED
            return _int_type(p, word.lstrip("sui"), at, sign)
        if word in CUDA_TILE_TYPES:
            p.advance()
            return parse_cuda_tile_type_body(p, word)
        if word in ("tensor", "vector", "memref", "complex", "tuple") or word.startswith("f"):
            return _parse_opaque_builtin(p)
        p.fail("expected type")
    if k == lexer.BANG:
        word = p.tok
        if word.startswith("!cuda_tile."):
            mnemonic = word[len("!cuda_tile.") :]
            if mnemonic in CUDA_TILE_TYPES:
                p.advance()
                return parse_cuda_tile_type_body(p, mnemonic)
            p.fail(f"unknown  type: {mnemonic}")
        alias = p.type_aliases.get(word)
        if alias is not None:
            p.advance()
            return alias
        return _parse_opaque_builtin(p)
    if k == lexer.PUNCT and p.tok == "(":
        return parse_function_type(p)
    p.fail("expected non-function type")
    raise AssertionError


def parse_function_type(p: SyntaxParser) -> builtin.FunctionType:
    return p.nested("types", _parse_function_type, p)


def expect_function_type(p: SyntaxParser) -> builtin.FunctionType:
    """A type that must be a function type (`functional-type` of an op's format); otherwise
    `expected function type` at where it starts."""
    start = p.i
    ftype = parse_type(p)
    if not isinstance(ftype, builtin.FunctionType):
        p.i = start
        p.fail("expected function type")
    assert isinstance(ftype, builtin.FunctionType)
    return ftype


def _parse_function_type(p: SyntaxParser) -> builtin.FunctionType:
    p.expect_punct("(")
    inputs = p.comma_list(lambda: parse_type(p), ")")
    p.expect_punct("->")
    outputs = parse_type_list_maybe_parens(p)
    return builtin.FunctionType.from_lists(inputs, outputs)


def parse_type_list_maybe_parens(p: SyntaxParser) -> list[Attribute]:
    if p.at_punct("(") and not _is_function_type_ahead(p):
        p.advance()
        return p.comma_list(lambda: parse_type(p), ")")
    return [parse_type(p)]


def _is_function_type_ahead(p: SyntaxParser) -> bool:
    depth = 0
    j = p.i
    while j < p.last:
        if p.kinds[j] == lexer.PUNCT:
            t = p.text[p.starts[j] : p.ends[j]]
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
                if depth == 0:
                    nxt = j + 1
                    return p.kinds[nxt] == lexer.PUNCT and p.text[p.starts[nxt] : p.ends[nxt]] == "->"
        j += 1
    return False


def _parse_opaque_builtin(p: SyntaxParser) -> Attribute:
    """Keep `tensor<...>`, `!llvm.ptr<1>` etc. as exact text."""
    start = p.starts[p.i]
    p.advance()
    if p.at_punct("<") and p.starts[p.i] == p.ends[p.i - 1]:
        p.skip_balanced()
    text = p.text[start : p.ends[p.i - 1]]
    return opaque_type(text)


def _parse_int_list(p: SyntaxParser, allow_dynamic: bool) -> list[int]:
    out: list[int] = []
    p.expect_punct("[")
    if p.accept_punct("]"):
        return out
    while True:
        if p.at_punct("?"):
            if not allow_dynamic:
                p.fail("expected integer value")
            p.advance()
            out.append(ct.DYNAMIC)
        else:
            out.append(p.parse_int_literal())
        if p.accept_punct("]"):
            return out
        p.expect_punct(",")


def parse_cuda_tile_type_body(p: SyntaxParser, mnemonic: str) -> Attribute:
    """After the mnemonic: the `<...>` body of a cuda_tile type (cached by spelling)."""
    if mnemonic == "token":
        return ct.TokenType()
    if not p.at_punct("<"):
        p.fail("expected '<'")
    # Cache by exact body text: real kernels repeat a few types many times. A regex finds
    # the balanced `<...>` in C; deeper nesting falls back to the token scan.
    start_i = p.i
    m = _ANGLE_BODY.match(p.text, p.starts[start_i])
    end_i = -1
    if m is not None:
        end_i = bisect.bisect_left(p.starts, m.end() - 1, start_i)
        if p.ends[end_i] != m.end():
            end_i = -1
    if end_i < 0:
        end_i = p.matching_close(start_i)
    key = (mnemonic, p.text[p.starts[start_i] : p.ends[end_i]]) if end_i >= 0 else None
    if key is not None:
        hit = p.type_cache.get(key)
        if hit is not None:
            p.i = end_i + 1
            return hit
    t = p.nested("types", _TYPE_BODY_PARSERS[mnemonic], p)
    if key is not None and p.i == end_i + 1:
        p.type_cache[key] = t
    return t


def _check_element(p: SyntaxParser, t: Attribute, what: str, allow_ptr: bool, span_start: int) -> None:
    # Tiles (allow_ptr) also take i4, which NVIDIA's message does not list (exti/trunci/pack use it).
    ok = t in ct.ELEMENT_TYPE_SPELLING or (allow_ptr and (t == _I4 or isinstance(t, ct.PointerType)))
    if not ok:
        allowed = _ELEMENT_DESC + (" or Pointer type" if allow_ptr else "")
        raise_at = Span(span_start, p.prev_end())
        p.fail(f"failed to verify '{what}': {allowed}", raise_at)


_I4 = builtin.IntegerType(4)
_ELEMENT_DESC = (
    "f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU "
    "or i1 or i8 or i16 or i32 or i64"
)


def _parse_tile(p: SyntaxParser) -> Attribute:
    open_span = p.span()
    p.expect_punct("<")
    start = p.starts[p.i]
    dims, elem = parse_dims_and_element(p, allow_dynamic=False)
    _check_element(p, elem, "elementType", True, start)
    p.expect_punct(">")
    problem = tile_type_error(dims, elem)
    if problem is not None:
        p.fail(problem, open_span)
    return ct.tile(dims, elem)


MAX_TILE_ELEMENTS = 16777216


def tile_type_error(shape: Sequence[int], elem: Attribute) -> str | None:
    """NVIDIA's TileType invariants: f4 packs two per byte; dims are powers of two; size cap."""
    if isinstance(elem, builtin.Float4E2M1FNType) and all(d % 2 for d in shape):
        return "F4E2M1FN tiles must have an even number of elements"
    n = 1
    dims = ", ".join(map(str, shape))
    for d in shape:
        if d <= 0:
            return f"all dimensions must be positive constants, got {dims}"
        if d & (d - 1):
            return f"all dimensions must be powers of two, got {dims}"
        if n > MAX_TILE_ELEMENTS // d:
            return f"tile would exceed the maximum of {MAX_TILE_ELEMENTS} elements"
        n *= d
    return None


def _parse_ptr_attr_case(p: SyntaxParser) -> str:
    """`<none>` / `<unicast>` / `<multicast>` (the cursor is at `<`)."""
    p.expect_punct("<")
    span = p.span()
    word = p.tok if p.kind == lexer.BARE else ""
    if word not in ct.PTR_ATTRS:
        p.fail(f"expected pointer attribute to be one of: {{{', '.join(repr(c) for c in ct.PTR_ATTRS)}}}", span)
    p.advance()
    p.expect_punct(">")
    return word


def _parse_ptr(p: SyntaxParser) -> Attribute:
    p.expect_punct("<")
    start = p.starts[p.i]
    elem = parse_type(p)
    _check_element(p, elem, "pointeeType", False, start)
    attr = ""
    if p.accept_punct(","):  # 13.4: ptr<f32, <multicast>>
        attr = _parse_ptr_attr_case(p)
    p.expect_punct(">")
    return ct.PointerType(elem, attr)


def _parse_tensor_view(p: SyntaxParser) -> Attribute:
    start = p.starts[p.i - 1]  # the `tensor_view` keyword
    p.expect_punct("<")
    dims, elem = parse_dims_and_element(p, allow_dynamic=True)
    strides: list[int] = []
    attr = ""
    while p.accept_punct(","):
        if p.kind == lexer.HASH:  # 13.4: `, #cuda_tile.ptr_attr<multicast>` after the strides
            if p.tok != "#cuda_tile.ptr_attr":
                p.fail(f"expected '#cuda_tile.ptr_attr', got '{p.tok}'")
            p.advance()
            attr = _parse_ptr_attr_case(p)
            break
        _expect_key(p, "strides")
        strides = _parse_int_list(p, allow_dynamic=True)
    _close_type(p, start, lambda: ct.tensor_view_error(dims, strides))
    return ct.TensorViewType(ct.ints(dims), elem, ct.ints(strides), attr)


def _expect_key(p: SyntaxParser, key: str) -> None:
    """`key =` of a `key = value` parameter."""
    p.expect_keyword(key)
    p.expect_punct("=")


def _close_type(p: SyntaxParser, start: int, error: Callable[[], str | None]) -> None:
    """The closing `>`, then NVIDIA's verifier of the type: it runs when the type is built,
    i.e. while parsing; an error spans the type from `start`."""
    p.expect_punct(">")
    message = error()
    if message is not None:
        p.fail(message, Span(start, p.prev_end()))


def _open_tiled_view(
    p: SyntaxParser, between: Callable[[SyntaxParser], list[int]] | None = None
) -> tuple[int, list[int], list[int], str, ct.TensorViewType]:
    """`<tile=(AxB), [between] [padding_value = kw,] tensor_view<...>` of a tiled view, up to
    what follows its tensor_view: its start, tile dims, what `between` parsed, padding, tensor_view."""
    start = p.starts[p.i]
    p.expect_punct("<")
    tile_dims = _parse_tile_dims(p)
    p.expect_punct(",")
    extra = between(p) if between is not None else []
    padding = _parse_padding_prefix(p)
    view = _parse_inner_tensor_view(p)
    return start, tile_dims, extra, padding, view


def _parse_partition_view(p: SyntaxParser) -> Attribute:
    start, tile_dims, _, padding, view = _open_tiled_view(p)
    dim_map = _parse_dim_map_suffix(p)
    _close_type(p, start, lambda: _tiled_view_error(tile_dims, view, dim_map, padding))
    return ct.PartitionViewType(
        ct.ints(tile_dims), view, ct.ints(dim_map), builtin.StringAttr(padding)
    )


def _parse_inner_tensor_view(p: SyntaxParser) -> ct.TensorViewType:
    """The tensor_view a tiled view is built on (NVIDIA's wording when it is not one)."""
    start = p.starts[p.i]
    view = parse_type(p)
    if not isinstance(view, ct.TensorViewType):
        p.fail(f"expected 'tensor_view' type, but got '{long_type_str(view)}'", Span(start, p.prev_end()))
    assert isinstance(view, ct.TensorViewType)
    return view


def _parse_tile_dims(p: SyntaxParser) -> list[int]:
    """`tile=(AxB)` of a tiled view."""
    _expect_key(p, "tile")
    p.expect_punct("(")
    dims: list[int] = []
    if not p.at_punct(")"):
        dims, _ = _parse_dim_list_only(p)
    p.expect_punct(")")
    return dims


def _parse_dim_map_suffix(p: SyntaxParser) -> list[int]:
    """Optional `, dim_map=[...]` after the tensor_view (empty: the identity map)."""
    if not p.accept_punct(","):
        return []
    _expect_key(p, "dim_map")
    return _parse_int_list(p, allow_dynamic=False)


def _parse_padding_prefix(p: SyntaxParser) -> str:
    """Optional `padding_value = kw,` before the tensor_view."""
    if not p.accept_keyword("padding_value"):
        return ""
    p.expect_punct("=")
    padding, span = p.expect_bare("padding value")
    if padding not in ct.PartitionViewType.PADDING_VALUES:
        p.fail(
            f'invalid padding_value attribute specification. Got "{padding}" but expect one of: '
            + ", ".join(ct.PartitionViewType.PADDING_VALUES),
            span,
        )
    p.expect_punct(",")
    return padding


def _tiled_view_error(
    tile_dims: list[int], view: ct.TensorViewType, dim_map: list[int], padding: str
) -> str | None:
    """NVIDIA's checks of a tiled view type (as for partition_view)."""
    if not tile_dims:
        return "0-dimension tile shape is not supported"
    if len(tile_dims) != view.rank:
        return (
            f"expected tensor_view rank and tile rank to match, got tensor_view of rank {view.rank} "
            f"and tiles of rank {len(tile_dims)}"
        )
    if dim_map and len(dim_map) != len(tile_dims):
        return (
            f"expected dim_map to map exactly all {len(tile_dims)} dimensions of the tile, "
            f"got {len(dim_map)} mappings"
        )
    shown = "[" + ", ".join(str(d) for d in tile_dims) + "]"
    if any(d <= 0 for d in tile_dims):
        return f"tile shape dimensions must have positive length but got {shown}"
    if any(d & (d - 1) for d in tile_dims):
        return f"tile shape dimensions must have power of two length but got {shown}"
    seen: dict[int, int] = {}
    for i, d in enumerate(dim_map):
        if d < 0:
            return f"target dimension must not be negative, got {d}"
        if d >= view.rank:
            return f"target dimension is outside of tensor view dimensions, expected strictly less than {view.rank}, got {d}"
        if d in seen:
            return f"target dimension {d} mapped at least twice (for tile dimensions {seen[d]} and {i})"
        seen[d] = i
    if padding not in ("", "zero") and not ct.is_float(view.element_type):
        return (
            f"padding_value {padding} can only be used with floating point element types, "
            f"got '{type_str(view.element_type)}'"
        )
    return None


def _parse_traversal_strides(p: SyntaxParser) -> list[int]:
    """`traversal_strides=[...],` of a strided_view."""
    _expect_key(p, "traversal_strides")
    strides = _parse_int_list(p, allow_dynamic=False)
    p.expect_punct(",")
    return strides


def _parse_strided_view(p: SyntaxParser) -> Attribute:
    start, tile_dims, strides, padding, view = _open_tiled_view(p, _parse_traversal_strides)
    dim_map = _parse_dim_map_suffix(p)

    def error() -> str | None:
        error = _tiled_view_error(tile_dims, view, dim_map, padding)
        if error is None and len(strides) != len(tile_dims):
            error = f"expected {len(tile_dims)} traversal strides, got {len(strides)}"
        if error is None and any(d <= 0 for d in strides):
            error = "traversal strides must be strictly positive but got [" + ", ".join(map(str, strides)) + "]"
        return error

    _close_type(p, start, error)
    return ct.StridedViewType(
        ct.ints(tile_dims), ct.ints(strides), view, ct.ints(dim_map), builtin.StringAttr(padding)
    )


def _parse_gather_scatter_view(p: SyntaxParser) -> Attribute:
    start, tile_dims, _, padding, view = _open_tiled_view(p)
    p.expect_punct(",")
    _expect_key(p, "sparse_dim")
    sparse_dim = p.parse_int_literal()

    def error() -> str | None:
        error = _tiled_view_error(tile_dims, view, [], padding)
        if error is None and not 0 <= sparse_dim < view.rank:
            error = (
                f"gather dimension is outside of tensor view dimensions, expected strictly less than {view.rank}, "
                f"got {sparse_dim}"
            )
        return error

    _close_type(p, start, error)
    return ct.GatherScatterViewType(ct.ints(tile_dims), view, ct.ints((sparse_dim,)), builtin.StringAttr(padding))


def _parse_dim_list_only(p: SyntaxParser) -> tuple[list[int], None]:
    dims: list[int] = []
    while True:
        if p.kind == lexer.INT:
            dims.append(_dim(p, p.tok, p.starts[p.i]))
            p.advance()
        elif p.kind == lexer.BARE and p.tok.startswith("x") and dims:
            rest = _split_dims(p.tok, dims, p, p.starts[p.i])
            if rest:
                p.fail("expected integer value")
            p.advance()
        else:
            return dims, None


_TYPE_BODY_PARSERS: dict[str, Callable[[SyntaxParser], Attribute]] = {
    "tile": _parse_tile,
    "ptr": _parse_ptr,
    "tensor_view": _parse_tensor_view,
    "partition_view": _parse_partition_view,
    "strided_view": _parse_strided_view,
    "gather_scatter_view": _parse_gather_scatter_view,
}


# -- printing ---------------------------------------------------------------


def _dims(shape: tuple[int, ...]) -> str:
    return "".join(("?" if d < 0 else str(d)) + "x" for d in shape)


def _tile_and_padding(
    t: ct.PartitionViewType | ct.StridedViewType | ct.GatherScatterViewType, between: str = ""
) -> str:
    """`tile=(AxB), [between]padding_value = kw, ` of a tiled view (up to its tensor_view)."""
    tile_dims = "x".join(str(d) for d in t.tile_shape)
    pad = f"padding_value = {t.padding_value.data}, " if t.padding_value.data else ""
    return f"tile=({tile_dims}), {between}{pad}"


def _dim_map_text(t: ct.PartitionViewType | ct.StridedViewType) -> str:
    return ", dim_map=[" + ", ".join(str(d) for d in t.dim_map) + "]" if t.has_explicit_dim_map else ""


def type_str(t: Attribute, short: bool = True) -> str:
    """Spelling of a type; `short` drops the `!cuda_tile.` prefix on the outer type."""
    prefix = "" if short else "!cuda_tile."
    if isinstance(t, ct.TileType):
        return f"{prefix}tile<{_dims(t.shape)}{type_str(t.element_type)}>"
    if isinstance(t, ct.PointerType):
        attr = f", <{t.ptr_attr.data}>" if t.ptr_attr.data else ""
        return f"{prefix}ptr<{type_str(t.pointee)}{attr}>"
    if isinstance(t, ct.TokenType):
        return f"{prefix}token"
    if isinstance(t, ct.TensorViewType):
        strides = ""
        if t.rank:
            strides = ", strides=[" + ",".join("?" if s < 0 else str(s) for s in t.strides) + "]"
        if t.ptr_attr.data:
            strides += f", #cuda_tile.ptr_attr<{t.ptr_attr.data}>"
        return f"{prefix}tensor_view<{_dims(t.shape)}{type_str(t.element_type)}{strides}>"
    if isinstance(t, ct.PartitionViewType):
        return f"{prefix}partition_view<{_tile_and_padding(t)}{type_str(t.tensor_view)}{_dim_map_text(t)}>"
    if isinstance(t, ct.StridedViewType):
        steps = ",".join(str(d) for d in t.traversal_strides)
        return (
            f"{prefix}strided_view<{_tile_and_padding(t, f'traversal_strides=[{steps}], ')}"
            f"{type_str(t.tensor_view)}{_dim_map_text(t)}>"
        )
    if isinstance(t, ct.GatherScatterViewType):
        return (
            f"{prefix}gather_scatter_view<{_tile_and_padding(t)}{type_str(t.tensor_view)}, "
            f"sparse_dim={t.sparse_dim}>"
        )
    spelled = ct.ELEMENT_TYPE_SPELLING.get(t)
    if spelled is not None:
        return spelled
    if isinstance(t, OpaqueType):
        return t.spelling.data
    if isinstance(t, builtin.IntegerType):
        sign = {builtin.Signedness.SIGNED: "si", builtin.Signedness.UNSIGNED: "ui"}.get(
            t.signedness.data, "i"
        )
        return f"{sign}{t.width.data}"
    if isinstance(t, builtin.IndexType):
        return "index"
    if isinstance(t, builtin.NoneType):
        return "none"
    if isinstance(t, builtin.FunctionType):
        ins = ", ".join(type_str(x, short) for x in t.inputs.data)
        outs = [type_str(x, short) for x in t.outputs.data]
        out = outs[0] if len(outs) == 1 and not isinstance(t.outputs.data[0], builtin.FunctionType) else "(" + ", ".join(outs) + ")"
        return f"({ins}) -> {out}"
    return str(t)


def long_type_str(t: Attribute) -> str:
    """The fully qualified spelling MLIR uses in diagnostics."""
    return type_str(t, short=False)
