"""Files in upstream MLIR dialects (gpu, nvgpu, nvvm, llvm, func, arith, ...).

Three layers: lexical diagnostics (brackets, strings), then a real parse + verify of each
`// -----` chunk with the back half's xDSL dialects (`compiler/mlir/`), then token-level
navigation for SSA values, block labels and symbols (which also works on half-typed text).

An op tile-lsp does not define (rocdl, transform, an nvvm op newer than our set, ...) is not
an error of the user's: the chunk gets one information note there and no further checks.
"""

from __future__ import annotations

import re

from xdsl.dialects import builtin
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Block, Region
from xdsl.parser.core import ForwardDeclaredValue

from tile_lsp.compiler.diagnostics import Diagnostic, DiagnosticSink, Related, Severity
from tile_lsp.compiler.frontend import ParseResult
from tile_lsp.compiler.mlir.mlir22_ops import known_to_mlir22
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.sourcemap import OpInfo, SourceMap, SymbolUse, ValueUse

# Upstream op prefixes that mark a file as not cuda_tile.
_UPSTREAM = re.compile(r"\b(?:gpu|nvgpu|nvvm|llvm|func|arith|scf|memref|math|cf|vector)\.[a-z_]+")
_SYMBOL_DEF = re.compile(r"func|func\.func|module|gpu\.module|gpu\.func|llvm\.func|llvm\.mlir\.global|memref\.global")
_PAIRS = {"(": ")", "[": "]", "{": "}"}


_UPSTREAM_HINTS = ("gpu.", "nvvm.", "llvm.", "func.", "arith.", "scf.", "memref.", "math.", "cf.", "vector.")


def is_upstream(text: str) -> bool:
    """True for text written in upstream dialects with no cuda_tile op in it."""
    if "cuda_tile" in text or "entry @" in text:  # bare entries are tileirdisasm's cuda_tile
        return False
    # Substring probes run at C speed; the regex only confirms around a hit (every keystroke).
    for hint in _UPSTREAM_HINTS:
        pos = text.find(hint)
        if pos >= 0 and _UPSTREAM.search(text, max(0, pos - 8), pos + 64) is not None:
            return True
    return False


def analyze_upstream(source: SourceText) -> ParseResult:
    """Lexical diagnostics and a token-level SourceMap for an upstream-dialect file."""
    tokens = lexer.tokenize(source.text)
    sink = DiagnosticSink()
    smap = SourceMap()
    _check_tokens(tokens, sink)
    if not sink.items:
        _check_semantics(source, sink)
    _index(tokens, smap)
    return ParseResult(source, Span(0, len(source.text)), builtin.ModuleOp(Region(Block())), sink.items, smap)


# Dialects whose ops the back half models; a parse failure on any other dialect's op is
# "not modelled", not an error.
_MODELLED = ("builtin", "gpu", "nvgpu", "nvvm", "llvm", "arith", "cf", "func", "math", "memref", "scf", "vector", "ub")
_UNMODELLED_OP = re.compile(r"Operation ([\w$.]+) (?:is not registered|does not have a custom format)")


def _check_semantics(source: SourceText, sink: DiagnosticSink) -> None:
    """Parse + verify every chunk with the back half's dialects; diagnostics at their ops."""
    from tile_lsp.compiler.frontend import split_chunks
    from tile_lsp.compiler.mlir.context import parse_upstream

    for chunk in split_chunks(source.text):
        try:
            result = parse_upstream(source, chunk)
        except Exception as exc:  # never let a dialect bug take the document down
            sink.items.append(
                Diagnostic(Span(chunk.start, chunk.start), Severity.NOTE, f"tile-lsp could not check this: {exc}", "mlir")
            )
            continue
        for diag in result.diagnostics:
            m = _UNMODELLED_OP.search(diag.message)
            name = m.group(1) if m is not None else ""
            if name == "builtin.unregistered":  # xDSL's stand-in: the op's own name is in the text
                bare = _bare_op_before(source.text, diag.span.start)
                if bare is not None:  # an op name without a dialect (`%0 = bogus : i32`)
                    sink.items.append(bare)
                    continue
                name = _op_name_before(source.text, diag.span.start) or name
            if m is not None and name != "builtin.unregistered" and known_to_mlir22(name) is False:
                sink.items.append(_unknown_op(source, diag.span, name))  # MLIR 22 has no such op
                continue
            if m is not None:
                # Upstream has ops we do not define (newer nvvm, rocdl, transform...): say so
                # instead of calling valid text wrong.
                what = "does not know the op" if name.split(".")[0] in _MODELLED else "does not model"
                note = f"tile-lsp {what} '{name}'; this chunk is not checked further"
                sink.items.append(Diagnostic(diag.span, Severity.NOTE, note, "mlir"))
                continue
            sink.items.append(diag)
        if result.module is not None:  # the generic form of an op MLIR 22 does not have
            for op in result.module.walk():
                if isinstance(op, UnregisteredOp) and known_to_mlir22(op.op_name.data) is False:
                    span = result.spans.get(op, Span(chunk.start, chunk.start))
                    sink.items.append(_unknown_op(source, span, op.op_name.data))


_OP_NAME = re.compile(r'(?:^|=)[ \t]*"?([A-Za-z_][\w$]*\.[\w$.]+)"?', re.M)


def _op_name_before(text: str, offset: int) -> str | None:
    """The op name on the line of `offset`, at or before it (`%0 = math.expp ...`)."""
    line_start = text.rfind("\n", 0, offset) + 1
    m = _OP_NAME.search(text, line_start, max(offset, line_start) + 1)
    return m.group(1) if m is not None else None


_LAST_WORD = re.compile(r"(?<![A-Za-z_$.%#@^!])([A-Za-z_][\w$]*)\s*\Z")
_DEFAULT_DIALECT = {"func.func": "func", "builtin.module": "builtin", "module": "builtin"}


def _bare_op_before(text: str, offset: int) -> Diagnostic | None:
    """mlir-opt 22's error for an op name without a dialect just before `offset` (where xDSL
    stopped after taking it for an unregistered op), at the name. MLIR tries the default dialect
    of the innermost op around it: `func` in a func.func, `builtin` at the top level or in a
    module, none in any other op (`Dialect `' not found ...`)."""
    m = _LAST_WORD.search(text, max(0, offset - 256), offset)
    if m is None:
        return None
    name = m[1]
    token = m.start()
    while token > 0 and (text[token - 1].isalnum() or text[token - 1] in "_$."):
        token -= 1
    if "." in text[token : m.start()]:  # the tail of a dotted name xDSL cut (`nvvm.dot.accumulate.4way`)
        return None
    dialect = _DEFAULT_DIALECT.get(_enclosing_op(text, m.start()) or "module", "")
    if dialect:
        message = f"custom op '{name}' is unknown (tried '{dialect}.{name}' as well)"
    else:
        message = f"Dialect `' not found for custom op '{name}'  (tried '.{name}' as well)"
    return Diagnostic(Span(m.start(), m.end()), Severity.ERROR, message, "mlir")


def _enclosing_op(text: str, offset: int) -> str | None:
    """The name of the op whose region holds `offset` (None at the top level): the op named on
    the line of the innermost unclosed `{` before it, or on one of the few lines above."""
    depth = 0
    for at in range(offset - 1, -1, -1):
        ch = text[at]
        if ch == "}":
            depth += 1
        elif ch == "{":
            if depth == 0:
                for _ in range(8):
                    name = _op_name_before(text, at)
                    if name is not None or at <= 0:
                        return name
                    at = text.rfind("\n", 0, at)
                    if at < 0:
                        return None
                return None
            depth -= 1
    return None


def _unknown_op(source: SourceText, near: Span, name: str) -> Diagnostic:
    """mlir-opt 22's error for an op its dialect does not have, at the op name (its column, as
    MLIR reports it): `custom op 'math.expp' is unknown`, or for the generic form `"math.expp"(...)`
    `unregistered operation ... found in dialect ('math') that does not allow unknown operations`."""
    text = source.text
    line_start = text.rfind("\n", 0, near.start) + 1
    line_end = text.find("\n", near.start)
    line_end = len(text) if line_end < 0 else line_end
    at = text.find(name, line_start, line_end)
    if at < 0:
        at = text.rfind(name, 0, near.start + 1)
    if at < 0:
        return Diagnostic(near, Severity.ERROR, f"custom op '{name}' is unknown", "mlir")
    if at > 0 and text[at - 1] == '"':
        dialect = name.split(".", 1)[0]
        message = f"unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"
        return Diagnostic(Span(at - 1, at + len(name) + 1), Severity.ERROR, message, "mlir")
    return Diagnostic(Span(at, at + len(name)), Severity.ERROR, f"custom op '{name}' is unknown", "mlir")


def _check_tokens(tokens: lexer.Tokens, sink: DiagnosticSink) -> None:
    stack: list[tuple[str, int]] = []
    for i, kind in enumerate(tokens.kinds):
        text = tokens.texts[i]
        span = Span(tokens.starts[i], tokens.ends[i])
        if kind == lexer.ERROR:
            what = "unterminated string" if text.startswith('"') else f"unexpected character '{text}'"
            sink.error(span, what)
        elif kind == lexer.PUNCT and text in _PAIRS:
            stack.append((text, i))
        elif kind == lexer.PUNCT and text in (")", "]", "}"):
            if not stack or _PAIRS[stack[-1][0]] != text:
                sink.error(span, f"unbalanced '{text}'")
                return
            stack.pop()
    if stack:
        opener, i = stack[-1]
        end = tokens.starts[-1]
        sink.error(Span(end, end), f"expected '{_PAIRS[opener]}'", Related(Span(tokens.starts[i], tokens.ends[i]), "to match this"))


def _index(tokens: lexer.Tokens, smap: SourceMap) -> None:
    """Values are defined where followed by `=`/`:`, or listed before `=`; the rest are uses."""
    values: dict[str, ForwardDeclaredValue] = {}
    texts, kinds = tokens.texts, tokens.kinds
    n = len(kinds)
    pending: list[int] = []  # value tokens of a result list `%a, %b =`
    signature_depth = -1  # paren depth of an argument list after `@name` or `^bb`
    depth = 0
    for i in range(n):
        kind = kinds[i]
        if kind == lexer.PUNCT and texts[i] == "(":
            depth += 1
            if signature_depth < 0 and i > 0 and kinds[i - 1] in (lexer.SYMBOL, lexer.BLOCK):
                signature_depth = depth
        elif kind == lexer.PUNCT and texts[i] == ")":
            if depth == signature_depth:
                signature_depth = -1
            depth -= 1
        if kind == lexer.VALUE:
            pending.append(i)
            nxt = texts[i + 1] if i + 1 < n else ""
            if nxt == ",":
                continue
            # `%x =`, `%x:2 =`, and `%x: type` written tight (block/function arguments)
            # define; `%x : type` with a space is a use's trailing type annotation.
            tight_colon = nxt == ":" and tokens.ends[i] == tokens.starts[i + 1]
            in_signature = nxt == ":" and depth == signature_depth
            if nxt == "=" or tight_colon or in_signature:
                for j in pending:
                    _define(tokens, j, values, smap)
            else:
                for j in pending:
                    _use(tokens, j, values, smap)
            pending = []
        elif kind == lexer.SYMBOL:
            prev = texts[i - 1] if i > 0 else ""
            span = Span(tokens.starts[i], tokens.ends[i])
            name = texts[i][1:].strip('"')
            if _SYMBOL_DEF.fullmatch(prev):
                if prev != "module" and prev != "gpu.module":
                    values = {}  # functions are isolated: their values are a new scope
                op = UnregisteredOp.with_name(prev).create(properties={"sym_name": builtin.StringAttr(name)})
                smap.ops[op] = OpInfo(span, span, symbol_span=span)
            else:
                holder = UnregisteredOp.with_name("upstream.use").create()
                smap.symbol_uses.append(SymbolUse(name, span, holder))
        else:
            if pending:
                for j in pending:
                    _use(tokens, j, values, smap)
                pending = []


def _value(name: str, values: dict[str, ForwardDeclaredValue]) -> ForwardDeclaredValue:
    v = values.get(name)
    if v is None:
        v = values[name] = ForwardDeclaredValue(builtin.NoneType())
    return v


def _define(tokens: lexer.Tokens, i: int, values: dict[str, ForwardDeclaredValue], smap: SourceMap) -> None:
    name = tokens.texts[i].split("#")[0]
    v = _value(name, values)
    span = Span(tokens.starts[i], tokens.ends[i])
    if v not in smap.value_defs:
        smap.value_defs[v] = span
        smap.value_names[v] = name
    else:
        smap.uses.append(ValueUse(v, span, None))


def _use(tokens: lexer.Tokens, i: int, values: dict[str, ForwardDeclaredValue], smap: SourceMap) -> None:
    name = tokens.texts[i].split("#")[0]
    smap.uses.append(ValueUse(_value(name, values), Span(tokens.starts[i], tokens.ends[i]), None))
