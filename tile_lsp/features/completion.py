"""Completion: op names, values in scope, types and keywords, symbols after `@`.

The cursor's line is usually half-typed and does not parse: it is read lexically, while
scopes, value types and symbols come from the parse of the text before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.attrs import ENUM_KINDS
from tile_lsp.compiler.document import DocumentAnalysis
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.types import type_str
from tile_lsp.features.completion_ops import ITEM_OPS, op_keyword_spellings, op_keywords, op_names
from tile_lsp.features.completion_scope import values_in_scope
from tile_lsp.features.completion_types import CLOSE, OPEN, Completion, Cursor, keyword
from tile_lsp.features.symbols import symbol_ops

__all__ = ["ELEMENT_TYPES", "TOP_TYPES", "Completion", "Cursor", "complete", "read_cursor"]

# The word being typed: a sigil and its name, or a bare word (which may be `4x8xf` in a type).
# Names after `%`, `@` and `^` may hold `-`; after `!` and `#`, and bare words, not.
_DASH_SIGILS = "%@^"
_SIGILS = "!#"
_SHAPE_PREFIX = re.compile(r"(?:\d*x)*")  # `4x8x` of `4x8xf`, or the `x` left of `?x`

TOP_TYPES = ("tile<", "token", "tensor_view<", "partition_view<", "strided_view<", "gather_scatter_view<")
ELEMENT_TYPES = tuple(ct.ELEMENT_TYPE_NAMES)
_VIEW_KEYWORDS = {
    "tensor_view": ("strides=[",),
    "strided_view": ("tile=(", "traversal_strides=[", "tensor_view<"),
    "partition_view": ("tile=(", "padding_value = ", "tensor_view<"),
    "gather_scatter_view": ("tile=(", "padding_value = ", "tensor_view<"),
}


def complete(doc: DocumentAnalysis, offset: int) -> list[Completion]:
    """Candidates at `offset`, most likely first; the client filters by the typed word."""
    cur = read_cursor(doc, offset)
    if cur is None:
        return []
    sigil = cur.word[:1]
    if sigil == "%":
        return values_in_scope(cur)
    if sigil == "@":
        return symbols(cur)
    if sigil == "!":
        return [_type(f"!cuda_tile.{t}", cur.replace) for t in TOP_TYPES]
    if sigil in ("^", "#"):
        return []
    return by_position(cur)


def read_cursor(doc: DocumentAnalysis, offset: int) -> Cursor | None:
    """The typed word and the statement tokens before it; None inside comments and strings."""
    text = doc.source.text
    line_start = text.rfind("\n", 0, offset) + 1
    word_start = _word_start(text, line_start, offset)
    toks = lexer.tokenize(text, line_start, word_start)
    n = len(toks.kinds) - 1  # without EOF
    last_end = toks.ends[n - 1] if n else line_start
    unterminated_string = n and toks.kinds[n - 1] == lexer.ERROR and toks.texts[n - 1].startswith('"')
    if unterminated_string or text.find("//", last_end, offset) >= 0:
        return None
    kinds, texts = _statement(toks.kinds[:n], toks.texts[:n])
    cur = Cursor(doc, offset, text[word_start:offset], Span(word_start, offset), kinds, texts)
    for i, t in enumerate(texts):
        if t in OPEN:
            cur.open_brackets.append(i)
        elif t in CLOSE and cur.open_brackets:
            cur.open_brackets.pop()
    return cur


def _word_start(text: str, line_start: int, offset: int) -> int:
    """Where the word ending at `offset` starts, read backwards from the cursor (a regex search
    for a word at the end of the line retries every start: quadratic on a long word)."""
    s = offset
    while s > line_start and (text[s - 1].isalnum() or text[s - 1] in "_$.-"):
        s -= 1
    before = text[s - 1] if s > line_start else ""
    run = text[s:offset]
    if before and before in _DASH_SIGILS:
        return s - 1
    if "-" not in run and before and before in _SIGILS:
        return s - 1
    dash = run.rfind("-")
    return s if dash < 0 else s + dash + 1


def _statement(kinds: list[int], texts: list[str]) -> tuple[list[int], list[str]]:
    """The tokens after the last `{` or `}` outside brackets: `} else {` starts a statement."""
    depth = 0
    start = 0
    for i, t in enumerate(texts):
        if t in OPEN:
            depth += 1
        elif t in CLOSE:
            depth -= 1
        elif t in ("{", "}") and depth <= 0:
            start = i + 1
    return kinds[start:], texts[start:]


# -- what may come at the cursor ------------------------------------------------------


def by_position(cur: Cursor) -> list[Completion]:
    """Dispatch on the statement so far: op start, operands, types, or inside brackets."""
    results = _result_list_length(cur)
    if results == len(cur.texts):
        return op_names(cur, with_results=results > 0)
    op_name = _op_name(cur, results)
    inner = cur.innermost()
    if inner is not None:
        return in_brackets(cur, inner, op_name)
    if op_name in ITEM_OPS or op_name == "cuda_tile.module":
        return types_at(cur, TOP_TYPES) if cur.last in (":", "->") else []
    if _after_colon(cur):
        return types_at(cur, TOP_TYPES) if cur.last in (":", ",", "->") else []
    if not op_name:  # `%x ` or an op we do not know: nothing sensible to offer
        return []
    if cur.last == "=":
        return values_in_scope(cur)
    return values_in_scope(cur) + op_keywords(cur, op_name)


def _result_list_length(cur: Cursor) -> int:
    """Tokens in a leading `%a, %b:2 =` (0 when the statement does not start so)."""
    k, t = cur.kinds, cur.texts
    i = 0
    while i < len(t) and k[i] == lexer.VALUE:
        i += 1
        if i + 1 < len(t) and t[i] == ":" and k[i + 1] == lexer.INT:
            i += 2
        if i < len(t) and t[i] == ",":
            i += 1
            continue
        break
    return i + 1 if i > 0 and i < len(t) and t[i] == "=" else 0


def _op_name(cur: Cursor, results: int) -> str:
    """The statement's op, by its full name ('' when unknown)."""
    if results >= len(cur.texts) or cur.kinds[results] not in (lexer.BARE, lexer.STRING):
        return ""
    word = cur.texts[results].strip('"')
    for name in (word, f"cuda_tile.{word}"):
        if registry.op_class(name) is not None:
            return name
    return ""


def _after_colon(cur: Cursor) -> bool:
    """A `:` outside brackets has been typed: the statement is in its type list."""
    depth = 0
    for t in cur.texts:
        if t in OPEN:
            depth += 1
        elif t in CLOSE:
            depth -= 1
        elif t == ":" and depth == 0:
            return True
    return False


def in_brackets(cur: Cursor, inner: tuple[str, str], op_name: str) -> list[Completion]:
    bracket, head = inner
    if bracket == "<":
        return in_angles(cur, head, op_name)
    if cur.last == ":":  # `(%a: ` block arguments; `[0xFF : ` attribute element types
        return types_at(cur, ELEMENT_TYPES if bracket == "[" else TOP_TYPES)
    if head == "->":
        return types_at(cur, TOP_TYPES)
    if op_name in ITEM_OPS:  # `entry @k(%a` defines values and uses none
        return []
    return values_in_scope(cur)


def in_angles(cur: Cursor, head: str, op_name: str) -> list[Completion]:
    """After `tile<`, `ptr<`, `rounding<`, `constant <` ... and their inner commas."""
    head = head.removeprefix("!cuda_tile.")
    if head == "tile":
        return types_at(cur, (*ELEMENT_TYPES, "ptr<"))
    if head == "ptr":
        return types_at(cur, ELEMENT_TYPES)
    if head in _VIEW_KEYWORDS:
        if cur.last == ",":
            return [keyword(k, head, cur.replace) for k in _VIEW_KEYWORDS[head]]
        return (
            types_at(cur, ELEMENT_TYPES)
            if head == "tensor_view"
            else [keyword(k, head, cur.replace) for k in _VIEW_KEYWORDS[head][:1]]
        )
    cases = enum_cases(head, op_name)
    if cases:
        return [keyword(c, head, cur.replace) for c in cases]
    opened = cur.open_brackets[-1]
    if ":" in cur.texts[opened:] or cur.last not in ("<",):
        return []
    # A dense literal (`constant <f32: ...>`, `global @g <i32: ...>`) starts with its element type.
    return types_at(cur, ELEMENT_TYPES) if op_name in ("cuda_tile.constant", "cuda_tile.global") else []


def enum_cases(keyword: str, op_name: str) -> tuple[str, ...]:
    """Cases that may follow `keyword<`: the op's own rounding modes, else the enum's."""
    if keyword == "rounding" and op_name:
        own = tuple(k[9:-1] for k in op_keyword_spellings(op_name) if k.startswith("rounding<"))
        if own:
            return own
    syntax = ENUM_KINDS.get(keyword)
    return syntax.cases if syntax is not None and syntax.bracketed else ()


def types_at(cur: Cursor, names: Sequence[str]) -> list[Completion]:
    """Type candidates; inside `tile<4x...` the typed shape stays and only the element is replaced."""
    shape = _SHAPE_PREFIX.match(cur.word)
    start = cur.replace.start + (shape.end() if shape else 0)
    replace = Span(start, cur.replace.end)
    return [_type(n, replace) for n in names]


def _type(name: str, replace: Span) -> Completion:
    return Completion(name, "type", "type", name, "", replace)


# -- symbols ---------------------------------------------------------------------------


def symbols(cur: Cursor) -> list[Completion]:
    """Entries and globals of the document; only globals for get_global; none where one is defined."""
    results = _result_list_length(cur)
    op_name = _op_name(cur, results)
    if op_name in (*ITEM_OPS, "cuda_tile.module", "cuda_tile.testing$func"):
        return []
    out: dict[str, Completion] = {}
    for name, kind, detail in symbol_defs(cur.doc):
        if op_name == "cuda_tile.get_global" and kind != "cuda_tile.global":
            continue
        if name not in out:
            label = "@" + (name if re.fullmatch(r"[\w$.\-]+", name) else f'"{name}"')
            out[name] = Completion(label, "symbol", detail, label, "", cur.replace)
    return list(out.values())


_ITEM_HEAD = re.compile(r"[ \t]*(?:cuda_tile\.)?(entry|global)\b[^@\n]*@([\w$.\-]+|\"[^\"\n]*\")")


def symbol_defs(doc: DocumentAnalysis) -> Iterator[tuple[str, str, str]]:
    """(name, defining op, detail) of every entry and global; an item that does not parse
    (the one being edited) still has its name read off its first line."""
    for item in doc.items:
        ops = symbol_ops(item)
        for op in ops:
            sym = op.properties.get("sym_name")
            if op.name != "cuda_tile.module" and isinstance(sym, builtin.StringAttr):
                yield sym.data, op.name, symbol_detail(op)
        if not ops and item.kind in ("entry", "global"):
            m = _ITEM_HEAD.match(doc.source.text, item.start)
            if m:
                yield m.group(2).strip('"'), f"cuda_tile.{m.group(1)}", m.group(1)


def symbol_detail(op: Operation) -> str:
    if op.name == "cuda_tile.global":
        t = op.properties.get("type")
        return f"global : {type_str(t)}" if isinstance(t, Attribute) else "global"
    ftype = op.properties.get("function_type")
    if isinstance(ftype, builtin.FunctionType):
        return f"{op.name.removeprefix('cuda_tile.')}(" + ", ".join(type_str(t) for t in ftype.inputs.data) + ")"
    return op.name.removeprefix("cuda_tile.")
