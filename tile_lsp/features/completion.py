"""Completion: op names, values in scope, types and keywords, symbols after `@`.

The cursor's line is usually half-typed and does not parse: it is read lexically, while
scopes, value types and symbols come from the parse of the text before it.
"""

from __future__ import annotations

import bisect
import inspect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

from xdsl.dialects import builtin
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.arith_syntax import DIRECTIVE_KEYWORDS
from tile_lsp.compiler.dialects.cuda_tile.attrs import ENUM_KINDS
from tile_lsp.compiler.document import DocumentAnalysis, Item
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import format as fmt
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.types import type_str


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # op | value | type | keyword | symbol
    detail: str = ""
    insert_text: str | None = None
    documentation: str = ""
    replace: Span | None = None  # the typed text the candidate replaces (absolute)


# The word being typed: a sigil and its name, or a bare word (which may be `4x8xf` in a type).
_WORD = re.compile(r"(?:%[\w$.\-]*|@[\w$.\-]*|![\w$.]*|\^[\w$.\-]*|#[\w$.]*|[\w$.]*)$")
_SHAPE_PREFIX = re.compile(r"(?:\d*x)*")  # `4x8x` of `4x8xf`, or the `x` left of `?x`
_OPEN = {"(", "[", "<"}
_CLOSE = {")", "]", ">"}

TOP_TYPES = ("tile<", "token", "tensor_view<", "partition_view<", "strided_view<", "gather_scatter_view<")
ELEMENT_TYPES = tuple(ct.ELEMENT_TYPE_NAMES)
_ITEM_OPS = ("cuda_tile.entry", "cuda_tile.global")
_NOT_IN_BODIES = frozenset(("builtin.module", "cuda_tile.module", *_ITEM_OPS, "cuda_tile.testing$func"))
_VIEW_KEYWORDS = {
    "tensor_view": ("strides=[",),
    "strided_view": ("tile=(", "traversal_strides=[", "tensor_view<"),
    "partition_view": ("tile=(", "padding_value = ", "tensor_view<"),
    "gather_scatter_view": ("tile=(", "padding_value = ", "tensor_view<"),
}


@dataclass
class Cursor:
    """What the text says around the cursor: the typed word and the statement before it."""

    doc: DocumentAnalysis
    offset: int
    word: str
    replace: Span
    kinds: list[int]  # the statement's tokens before the word
    texts: list[str]
    open_brackets: list[int] = field(default_factory=list)  # token indices of unclosed ( [ <

    @property
    def last(self) -> str:
        return self.texts[-1] if self.texts else ""

    def innermost(self) -> tuple[str, str] | None:
        """(bracket, the token before it) of the innermost bracket open at the cursor."""
        if not self.open_brackets:
            return None
        i = self.open_brackets[-1]
        return self.texts[i], self.texts[i - 1] if i > 0 else ""


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
    prefix = text[line_start:offset]
    m = _WORD.search(prefix)
    word_start = line_start + (m.start() if m else len(prefix))
    toks = lexer.tokenize(text, line_start, word_start)
    n = len(toks.kinds) - 1  # without EOF
    last_end = toks.ends[n - 1] if n else line_start
    unterminated_string = n and toks.kinds[n - 1] == lexer.ERROR and toks.texts[n - 1].startswith('"')
    if unterminated_string or text.find("//", last_end, offset) >= 0:
        return None
    kinds, texts = _statement(toks.kinds[:n], toks.texts[:n])
    cur = Cursor(doc, offset, text[word_start:offset], Span(word_start, offset), kinds, texts)
    for i, t in enumerate(texts):
        if t in _OPEN:
            cur.open_brackets.append(i)
        elif t in _CLOSE and cur.open_brackets:
            cur.open_brackets.pop()
    return cur


def _statement(kinds: list[int], texts: list[str]) -> tuple[list[int], list[str]]:
    """The tokens after the last `{` or `}` outside brackets: `} else {` starts a statement."""
    depth = 0
    start = 0
    for i, t in enumerate(texts):
        if t in _OPEN:
            depth += 1
        elif t in _CLOSE:
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
    if op_name in _ITEM_OPS or op_name == "cuda_tile.module":
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
        if t in _OPEN:
            depth += 1
        elif t in _CLOSE:
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
    if op_name in _ITEM_OPS:  # `entry @k(%a` defines values and uses none
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
            return [_keyword(k, head, cur.replace) for k in _VIEW_KEYWORDS[head]]
        return (
            types_at(cur, ELEMENT_TYPES)
            if head == "tensor_view"
            else [_keyword(k, head, cur.replace) for k in _VIEW_KEYWORDS[head][:1]]
        )
    cases = enum_cases(head, op_name)
    if cases:
        return [_keyword(c, head, cur.replace) for c in cases]
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


def _keyword(word: str, detail: str, replace: Span) -> Completion:
    return Completion(word, "keyword", detail, word, "", replace)


# -- op names --------------------------------------------------------------------------


@dataclass(frozen=True)
class OpEntry:
    name: str  # full name
    summary: str
    doc: str
    has_results: bool


@cache
def op_table() -> tuple[OpEntry, ...]:
    out = []
    for name, cls in sorted(registry.all_ops().items()):
        doc = inspect.getdoc(cls) or ""
        has_results = bool(registry.op_fields(cls).results)
        out.append(OpEntry(name, doc.splitlines()[0] if doc else "", doc, has_results))
    return tuple(out)


def op_names(cur: Cursor, with_results: bool) -> list[Completion]:
    """Ops that may start here: items at the top level and in modules, the rest in bodies."""
    region = enclosing_region(cur.doc, cur.offset)
    if region == "body":
        allowed = [e for e in op_table() if e.name.startswith("cuda_tile.") and e.name not in _NOT_IN_BODIES]
        short = not cur.word.startswith("cuda_tile.")
    elif region == "cuda_tile.module":
        allowed = [e for e in op_table() if e.name in _ITEM_OPS]
        short = not cur.word.startswith("cuda_tile.")
    else:  # top level, or a builtin module: short `entry` only in files written that way
        allowed = [e for e in op_table() if e.name in ("cuda_tile.module", *_ITEM_OPS)]
        short = _bare_items(cur.doc) and not cur.word.startswith("cuda_tile.")
    if with_results:
        allowed = [e for e in allowed if e.has_results]
    out = []
    for e in allowed:
        label = e.name.removeprefix("cuda_tile.") if short and e.name != "cuda_tile.module" else e.name
        out.append(Completion(label, "op", e.summary, label, e.doc, cur.replace))
    return out


def _bare_items(doc: DocumentAnalysis) -> bool:
    return not any(i.kind == "shell" for i in doc.items) and any(i.kind in ("entry", "global") for i in doc.items)


def _chunk_start(text: str, offset: int) -> int:
    """Where the `// -----` chunk holding `offset` starts: chunks of a split file are separate
    documents, so a whole-file item is scanned from there, not from the top."""
    return text.rfind("\n// -----", 0, offset) + 1


_REGION_OWNER = re.compile(r"[ \t]*(cuda_tile\.module|module)\b")


def enclosing_region(doc: DocumentAnalysis, offset: int) -> str:
    """'top', 'module' (builtin), 'cuda_tile.module' or 'body': whose region the cursor is in.
    Only the cursor's item is scanned; an item of a split file sits in the module (if any)."""
    text = doc.source.text
    item = doc.item_at(offset)
    if item is not None and item.kind != "whole":
        stack = braces_before(text, item.start, offset).open_stack
        outer = "cuda_tile.module" if any(i.kind == "shell" for i in doc.items) else "top"
    else:
        stack = braces_before(text, _chunk_start(text, offset), offset).open_stack
        outer = "top"
    if not stack:
        return outer
    line_start = text.rfind("\n", 0, stack[-1]) + 1
    m = _REGION_OWNER.match(text, line_start)
    return m.group(1) if m else "body"


# -- op keywords -----------------------------------------------------------------------


def op_keywords(cur: Cursor, op_name: str) -> list[Completion]:
    if not op_name:
        return []
    return [_keyword(k, op_name.removeprefix("cuda_tile."), cur.replace) for k in op_keyword_spellings(op_name)]


@cache
def op_keyword_spellings(op_name: str) -> tuple[str, ...]:
    """Keywords an op's custom form accepts, read off its format and ATTR_SYNTAX."""
    cls = registry.op_class(op_name)
    if cls is None:
        return ()
    attr_syntax = getattr(cls, "ATTR_SYNTAX", {})
    elements = registry.op_syntax(cls).elements
    words = list(_format_keywords(elements, attr_syntax)) if elements is not None else []
    for syntax in attr_syntax.values():
        words.extend(getattr(syntax, "cases", ()))
    return tuple(dict.fromkeys(words))


def _format_keywords(elements: Sequence[object], attr_syntax: dict[str, object]) -> Iterator[str]:
    for i, e in enumerate(elements):
        if isinstance(e, fmt.Optional_):
            yield from _format_keywords(e.elements, attr_syntax)
            yield from _format_keywords(e.else_elements, attr_syntax)
        elif isinstance(e, fmt.Lit) and e.text[:1].isalpha():
            yield from _literal_keyword(e.text, elements[i + 1 :], attr_syntax)
        elif isinstance(e, fmt.Custom):
            yield from _directive_keywords(e, attr_syntax)


def _literal_keyword(word: str, rest: Sequence[object], attr_syntax: dict[str, object]) -> Iterator[str]:
    """`rounding` before a bracketed enum is spelled `rounding<case>`; other keywords alone."""
    following = next((e for e in rest if not (isinstance(e, fmt.Lit) and not e.text)), None)
    syntax = attr_syntax.get(following.name) if isinstance(following, fmt.Var) else None
    if syntax is not None and getattr(syntax, "bracketed", False):
        yield from (f"{word}<{c}>" for c in getattr(syntax, "cases", ()))
    else:
        yield word


def _directive_keywords(e: fmt.Custom, attr_syntax: dict[str, object]) -> Iterator[str]:
    if e.name in DIRECTIVE_KEYWORDS:
        yield from DIRECTIVE_KEYWORDS[e.name][1]
    elif e.name == "UnitFlags":  # its arguments are spelled as their own names
        yield from (a.lstrip("$") for a in e.args)
    else:
        for a in e.args:
            yield from getattr(attr_syntax.get(a.lstrip("$")), "cases", ())


# -- values in scope -------------------------------------------------------------------


@dataclass
class Braces:
    """Brace structure of the text between an item's start and the cursor."""

    positions: list[int] = field(default_factory=list)  # every `{` and `}` token
    depth_after: list[int] = field(default_factory=list)
    opens: list[bool] = field(default_factory=list)
    nesting: list[int] = field(default_factory=list)  # ( [ < depth at each brace
    suffix_min: list[int] = field(default_factory=list)  # lowest depth from event i to the cursor
    open_stack: list[int] = field(default_factory=list)  # `{` still open at the cursor
    marks: dict[int, tuple[int, int]] = field(default_factory=dict)  # value token -> (depth, nesting)
    lexical_defs: list[tuple[int, str]] = field(default_factory=list)  # `%x = ` the parse did not reach
    statements: list[int] = field(default_factory=list)  # where each line's first word or value is
    statement_depths: list[int] = field(default_factory=list)

    def still_open(self, event: int) -> bool:
        """The brace opened at `event` is not closed before the cursor."""
        return event + 1 >= len(self.positions) or self.suffix_min[event + 1] >= self.depth_after[event]

    def unclosed_since(self, pos: int, depth: int) -> bool:
        """No brace around `pos` (at brace depth `depth`) closes between it and the cursor."""
        i = bisect.bisect_right(self.positions, pos)
        return i >= len(self.positions) or self.suffix_min[i] >= depth

    def region_after(self, pos: int, nesting: int) -> int | None:
        """The region `{` a header block argument at `pos` belongs to: the first brace after it
        outside the brackets it sits in (so `optimization_hints=<default = {}>` is skipped)."""
        i = bisect.bisect_right(self.positions, pos)
        for j in range(i, len(self.positions)):
            if self.opens[j] and self.nesting[j] <= nesting:
                return j
        return None

    def statement_between(self, start: int, stop: int, depth: int) -> bool:
        """A statement at brace depth `depth` starts strictly between `start` and `stop`."""
        i = bisect.bisect_right(self.statements, start)
        j = bisect.bisect_left(self.statements, stop)
        return depth in self.statement_depths[i:j]


def braces_before(text: str, start: int, stop: int) -> Braces:
    """One lexer pass over text[start:stop]: braces, where each value token sits, statements."""
    toks = lexer.tokenize(text, start, stop)
    b = Braces()
    depth = nesting = 0
    kinds, starts, texts = toks.kinds, toks.starts, toks.texts
    for i in range(len(kinds) - 1):
        k, s, t = kinds[i], starts[i], texts[i]
        if k == lexer.VALUE or k == lexer.BARE or k == lexer.STRING:
            if k == lexer.VALUE:
                b.marks[s] = (depth, nesting)
            if _starts_statement(text, toks, i):
                b.statements.append(s)
                b.statement_depths.append(depth)
                if k == lexer.VALUE:
                    b.lexical_defs.extend(_lexical_results(toks, i))
        elif k != lexer.PUNCT:
            continue
        elif t == "{" or t == "}":
            depth += 1 if t == "{" else -1
            b.positions.append(s)
            b.depth_after.append(depth)
            b.opens.append(t == "{")
            b.nesting.append(nesting)
            if t == "{":
                b.open_stack.append(s)
            elif b.open_stack:
                b.open_stack.pop()
        elif t in _OPEN:
            nesting += 1
        elif t in _CLOSE:
            nesting -= 1
    low = 1 << 30
    b.suffix_min = [0] * len(b.depth_after)
    for i in range(len(b.depth_after) - 1, -1, -1):
        low = min(low, b.depth_after[i])
        b.suffix_min[i] = low
    return b


def _starts_statement(text: str, toks: lexer.Tokens, i: int) -> bool:
    """First on its line or just after a `{`; a word after `}` continues its op (`} else {`)."""
    if i == 0:
        return True
    return toks.texts[i - 1] == "{" or text.find("\n", toks.ends[i - 1], toks.starts[i]) >= 0


def _lexical_results(toks: lexer.Tokens, i: int) -> list[tuple[int, str]]:
    """`%a, %b:2 =` at a statement start: the names it defines, found by their spelling."""
    found = []
    n = len(toks.kinds) - 1
    while i < n and toks.kinds[i] == lexer.VALUE:
        found.append((toks.starts[i], toks.texts[i]))
        i += 1
        if i + 1 < n and toks.texts[i] == ":" and toks.kinds[i + 1] == lexer.INT:
            i += 2
        if i < n and toks.texts[i] == ",":
            i += 1
            continue
        break
    return found if i < n and toks.texts[i] == "=" else []


def values_in_scope(cur: Cursor) -> list[Completion]:
    """Values the cursor may use, nearest definition first: earlier in its entry, in regions
    still open at the cursor (block arguments of enclosing for/loop/reduce bodies included)."""
    item = cur.doc.item_at(cur.offset)
    if item is None:
        return []
    text = cur.doc.source.text
    start = item.start if item.kind != "whole" else _chunk_start(text, cur.offset)
    br = braces_before(text, start, cur.replace.start)
    found: dict[str, tuple[int, str]] = {}
    known = set()
    for value, span in item.result.smap.value_defs.items():
        pos = item.start + span.start
        known.add(pos)
        name = item.result.smap.value_names.get(value, "")
        if name and name not in found and _visible(item, value, pos, br, cur.offset):
            found[name] = (pos, type_str(value.type))
    line_start = text.rfind("\n", 0, cur.offset) + 1
    for pos, name in br.lexical_defs:
        if pos not in known and pos < line_start and name not in found and _lexically_visible(br, pos):
            found[name] = (pos, "")
    ordered = sorted(found.items(), key=lambda kv: -kv[1][0])
    return [Completion(name, "value", detail, name, "", cur.replace) for name, (_, detail) in ordered]


def _visible(item: Item, value: SSAValue, pos: int, br: Braces, offset: int) -> bool:
    mark = br.marks.get(pos)
    if mark is None:  # defined after the cursor
        return False
    depth, nesting = mark
    smap = item.result.smap
    if isinstance(value, OpResult):
        info = smap.ops.get(value.op)
        if info is None or item.start + info.span.end > offset:  # not in its own op
            return False
        return br.unclosed_since(pos, depth)
    if isinstance(value, BlockArgument) and value.owner in smap.block_spans:  # ^bb(%x: ...)
        return br.unclosed_since(pos, depth)
    region = br.region_after(pos, nesting)
    return region is not None and br.still_open(region)


def _lexically_visible(br: Braces, pos: int) -> bool:
    """Like `_visible`, for a `%x = ` the parse did not reach. Where the cursor is deeper, the
    brace holding it must belong to a later statement: in `%r = for ... {` (or an `if` with
    its `else`) the op's own results do not exist yet."""
    mark = br.marks.get(pos)
    if mark is None or not br.unclosed_since(pos, mark[0]):
        return False
    depth = mark[0]
    if len(br.open_stack) <= depth:
        return True
    return br.statement_between(pos, br.open_stack[depth], depth)


# -- symbols ---------------------------------------------------------------------------


def symbols(cur: Cursor) -> list[Completion]:
    """Entries and globals of the document; only globals for get_global; none where one is defined."""
    results = _result_list_length(cur)
    op_name = _op_name(cur, results)
    if op_name in (*_ITEM_OPS, "cuda_tile.module", "cuda_tile.testing$func"):
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
        if item.kind in ("whole", "shell"):
            ops = [op for op, info in item.result.smap.ops.items() if info.symbol_span is not None]
        else:
            ops = [item.top_op] if item.top_op is not None else []
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
