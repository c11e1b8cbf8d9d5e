"""The MLIR parser: operations (custom and generic form), regions, blocks, SSA scopes.

Ops with a registered syntax (`TILE_FORMAT` or `parse_custom` on the op class) are
parsed through it; everything else must use the generic form. Errors become
Diagnostics; a broken top-level item is skipped without hiding its neighbours.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import builtin
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.parser.core import ForwardDeclaredValue

from tile_lsp.compiler.diagnostics import DiagnosticSink, Related
from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.attributes import parse_arg_def, parse_attr_dict_body, parse_attribute, unescape
from tile_lsp.compiler.syntax.base import ParseError
from tile_lsp.compiler.syntax.format import op_syntax
from tile_lsp.compiler.syntax.interfaces import ArgDef, OpState, SyntaxParser, UseRef
from tile_lsp.compiler.syntax.lexer import tokenize
from tile_lsp.compiler.syntax.locations import parse_loc, resolve_deferred, set_location
from tile_lsp.compiler.syntax.sourcemap import OpInfo, SourceMap, SymbolUse, ValueUse
from tile_lsp.compiler.syntax.types import long_type_str, parse_function_type, parse_type

_OPENERS = frozenset("<([{")
_CLOSERS = frozenset(">)]}")

# Deeper nesting is reported instead of exhausting the Python stack.
MAX_REGION_DEPTH = 64

# cuda_tile types by (mnemonic, `<...>` body spelling), shared by every parser of a text without
# aliases: a document parsed item by item (the server, `check`) would otherwise parse each entry's
# types afresh (types are immutable and their parse has no side effects). Cleared when it fills.
_SHARED_TYPES: dict[tuple[str, str], Attribute] = {}
_SHARED_TYPES_MAX = 1 << 14

# (attribute aliases `#a`, type aliases `!t`, and a type cache that the parsers of texts
# given these tables share: types by spelling, as `_SHARED_TYPES`)
Aliases = tuple[Mapping[str, Attribute], Mapping[str, Attribute], dict[tuple[str, str], Attribute]]

# Ops at whose start error recovery resumes (top-level items of a module).
ITEM_KEYWORDS = frozenset(
    {"entry", "global", "cuda_tile.entry", "cuda_tile.global", "testing$func", "cuda_tile.testing$func"}
)


@dataclass
class Scope:
    values: dict[str, list[SSAValue]] = field(default_factory=dict)
    # name -> (result number -> placeholder, first use): a dict, since `%x#N` may say any N
    forward: dict[str, tuple[dict[int, ForwardDeclaredValue], Span]] = field(default_factory=dict)
    isolated: bool = False


class Parser(SyntaxParser):
    """Parses one text (or a slice of it) into xDSL IR plus a SourceMap."""

    def __init__(self, source: SourceText, start: int = 0, end: int | None = None, aliases: Aliases | None = None):
        """`aliases`: (attribute, type) aliases defined outside the text (the alias items of a
        document parsed item by item)."""
        super().__init__(tokenize(source.text, start, end))
        self.source = source
        self.sink = DiagnosticSink()
        self.smap = SourceMap()
        if len(_SHARED_TYPES) > _SHARED_TYPES_MAX:
            _SHARED_TYPES.clear()
        self.type_cache: dict[tuple[str, str], Attribute] = _SHARED_TYPES  # (own one once aliases come)
        self.attr_aliases: dict[str, Attribute] = {}
        self.type_aliases: dict[str, Attribute] = {}
        self.scopes: list[Scope] = [Scope(isolated=True)]
        self.default_dialect: list[str] = [""]
        self.short_types = True
        self.diagnosed_ops: set[Operation] = set()
        self.generic_ops: set[Operation] = set()
        self.allow_unregistered = True
        self.deferred_locs: list[tuple[str, Span]] = []  # `loc(#alias)` before `#alias = ...`
        self.defines_aliases = False  # (the text defines some itself)
        self._given_aliases = False  # (attr_aliases/type_aliases are the caller's: not to be written)
        if aliases is not None and (aliases[0] or aliases[1]):
            # (the given tables themselves, copied before a definition of this text's own: tens
            # of thousands in a big file with debug info, and an entry defines none)
            self.attr_aliases, self.type_aliases = aliases[0], aliases[1]  # type: ignore[assignment]
            self._given_aliases = True
            if len(aliases[2]) > _SHARED_TYPES_MAX:
                aliases[2].clear()
            self.type_cache = aliases[2]  # (a type spelling may mean something else with these)

    # -- brackets -----------------------------------------------------------
    def matching_close(self, i: int) -> int:
        """Index of the token closing the bracket at i, or -1."""
        texts = self.texts
        depth = 0
        for j in range(i, self.last):
            t = texts[j]
            if t in _OPENERS:
                depth += 1
            elif t in _CLOSERS:
                depth -= 1
                if depth == 0:
                    return j
        return -1

    # -- top level ---------------------------------------------------------
    def parse_top_level(self) -> builtin.ModuleOp:
        """Parse the whole text into an implicit builtin.module."""
        block = Block()
        self.parse_block_body(block, top_level=True)
        self.finish_scope(self.scopes[0])
        module = builtin.ModuleOp(Region(block))
        resolve_deferred(self, module)
        return module

    def parse_block_body(self, block: Block, top_level: bool = False) -> None:
        """Parse ops into `block` until `}`, a block label, or EOF; recover per item."""
        while True:
            k = self.kind
            if k == lexer.EOF_:
                if not top_level:
                    self.fail("expected '}' to end the region")
                return
            if k == lexer.PUNCT and self.tok == "}":
                if top_level:
                    self.error_here("unexpected '}' at top level")
                    self.advance()
                    continue
                return
            if k == lexer.BLOCK:
                return
            if top_level and k in (lexer.HASH, lexer.BANG) and self.peek_punct("="):
                self.parse_alias_definition()
                continue
            start_i = self.i
            item = top_level or self._at_item_keyword()
            if not item:
                op = self.parse_operation()
                block.add_op(op)
                continue
            try:
                op = self.parse_operation()
                block.add_op(op)
            except ParseError as err:
                self.report(err)
                self.recover_item(start_i)

    def _at_item_keyword(self) -> bool:
        i = self.i
        if self.kinds[i] == lexer.BARE:
            return self.texts[i] in ITEM_KEYWORDS
        return False

    def report(self, err: ParseError) -> None:
        notes = tuple(Related(s, m) for s, m in err.notes)
        self.sink.error(err.span, err.message, *notes)

    def error_here(self, message: str) -> None:
        self.sink.error(self.span(), message)

    def recover_item(self, start_i: int) -> None:
        """Skip the broken item that started at token start_i, stopping at the next item.

        Never resumes before the point of failure: text already parsed (and diagnosed)
        inside the item must not be parsed again as if it were top-level.
        """
        failed_at = self.i
        j = self._item_end(start_i)
        if j < failed_at:
            j = failed_at
            while j < self.last and not self._starts_item_line(j, self._column(start_i)):
                j += 1
        self.i = j

    def _column(self, i: int) -> int:
        return self.source.line_col(self.starts[i])[1]

    def _starts_item_line(self, j: int, item_col: int) -> bool:
        """Token j is an item keyword that begins its line, no deeper than the item."""
        if self.kinds[j] != lexer.BARE or self.texts[j] not in ITEM_KEYWORDS:
            return False
        line, col = self.source.line_col(self.starts[j])
        text = self.source.line_text(line)
        return col == len(text) - len(text.lstrip()) and col <= item_col

    def _item_end(self, start_i: int) -> int:
        """Token index just past the item at start_i: its balanced `{...}` body and the rest
        of the closing line, or the next item keyword / enclosing `}` if braces don't close."""
        texts = self.texts
        item_col = self._column(start_i)
        depth = 0
        seen_body = False
        j = start_i
        while j < self.last:
            if j > start_i and self._starts_item_line(j, item_col):
                return j
            t = texts[j]
            if t == "{" and self.kinds[j] == lexer.PUNCT:
                depth += 1
                seen_body = True
            elif t == "}" and self.kinds[j] == lexer.PUNCT:
                if depth == 0:
                    return j  # the enclosing region ends here
                depth -= 1
                if depth == 0 and seen_body:
                    # The item's tail (`) : () -> ()`, `loc(...)`) sits on the closing line.
                    close_line = self.source.line_col(self.starts[j])[0]
                    j += 1
                    while j < self.last and self.source.line_col(self.starts[j])[0] == close_line:
                        j += 1
                    return j
            j += 1
        return j

    def parse_alias_definition(self) -> None:
        if self.type_cache is _SHARED_TYPES:  # a type spelling may now mean something else here
            self.type_cache = {}
        self.defines_aliases = True
        if self._given_aliases:
            self.attr_aliases, self.type_aliases = dict(self.attr_aliases), dict(self.type_aliases)
            self._given_aliases = False
            self.type_cache = {}
        name = self.tok
        is_type = self.kind == lexer.BANG
        self.advance()
        self.expect_punct("=")
        try:
            if is_type:
                self.type_aliases[name] = parse_type(self)
            else:
                self.attr_aliases[name] = parse_attribute(self)
        except ParseError as err:
            self.report(err)
            # Skip the rest of the definition: resume at the next line-leading item.
            while self.kind != lexer.EOF_ and self.source.line_col(self.starts[self.i])[1] != 0:
                self.advance()
            while self.kind == lexer.PUNCT and self.tok in (">", ")", "]", "}"):
                self.advance()

    # -- operations --------------------------------------------------------
    def parse_operation(self) -> Operation:
        op_start = self.starts[self.i]
        result_defs: list[tuple[str, int, Span]] = []  # name, count, span
        if self.kind == lexer.VALUE:
            while True:
                if self.kind != lexer.VALUE:
                    self.fail("expected SSA value name")
                name = self.tok
                span = self.span()
                if "#" in name:
                    self.fail("expected SSA value name without result number")
                self.advance()
                count = 1
                if self.accept_punct(":"):
                    count = self.parse_int_literal()
                result_defs.append((name, count, span))
                if not self.accept_punct(","):
                    break
            self.expect_punct("=")
        k = self.kind
        name_span = self.span()
        if k == lexer.STRING:
            op_name = unescape(self.tok)
            self.advance()
            op = self.parse_generic_operation(op_name, name_span)
        elif k == lexer.BARE:
            op = self.parse_custom_operation(name_span)
        else:
            self.fail("expected operation name in quotes" if not result_defs else "expected operation name")
            raise AssertionError
        if self.at_keyword("loc"):
            set_location(op, self.parse_location())
        op_span = Span(op_start, self.prev_end())
        self.bind_results(op, result_defs, op_span)
        info = self.smap.ops.get(op)
        if info is None:
            self.smap.ops[op] = OpInfo(op_span, name_span, [s for _, _, s in result_defs])
        else:
            info.span = op_span
            info.result_spans = [s for _, _, s in result_defs]
        return op

    def parse_location(self) -> Attribute:
        """`loc(...)` (the cursor is at `loc`) as a location attribute."""
        return parse_loc(self)

    def bind_results(self, op: Operation, defs: list[tuple[str, int, Span]], op_span: Span) -> None:
        if not defs:
            return
        total = sum(c for _, c, _ in defs)
        if not op.results:
            raise ParseError(op_span, "cannot name an operation with no results")
        if total != len(op.results):
            raise ParseError(
                op_span,
                f"operation defines {len(op.results)} results but was provided {total} to bind",
            )
        pos = 0
        for name, count, span in defs:
            values: list[SSAValue] = list(op.results[pos : pos + count])
            pos += count
            self.define_values(name, values, span)

    def define_values(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        scope = self.scopes[-1]
        if name in scope.values:
            prev = self.smap.value_defs.get(scope.values[name][0])
            notes = ((prev, "previously defined here"),) if prev else ()
            raise ParseError(span, f"redefinition of SSA value '{name}'", notes)
        fwd = scope.forward.pop(name, None)
        if fwd is not None:
            placeholders, _ = fwd
            for idx, ph in sorted(placeholders.items()):
                if idx < len(values):
                    real = values[idx]
                    if real.type != ph.type:
                        self.sink.error(
                            span,
                            f"definition of SSA value '{name}#{idx}' has type {_q(real.type)}",
                        )
                    self._report_forward_uses(ph, span)
                    ph.replace_all_uses_with(real)
                    self._retarget_uses(ph, real)
        scope.values[name] = list(values)
        vnames = self.smap.value_names
        vdefs = self.smap.value_defs
        for idx, v in enumerate(values):
            vdefs[v] = span
            vnames[v] = name if len(values) == 1 else f"{name}#{idx}"
            base = name[1:]
            # `%x:2` names the group after its first value, so printing keeps `%x:2`.
            # Set the hint directly: xDSL's setter would strip a `_N` suffix, and the
            # user's names must survive printing exactly (the regex is xDSL's own rule).
            if idx == 0 and _VALID_NAME_HINT.match(base):
                v._name = base  # noqa: SLF001

    def _report_forward_uses(self, placeholder: SSAValue, def_span: Span) -> None:
        """A cuda_tile op that used a value before its definition: cuda_tile regions have one
        block, so the definition cannot dominate the use (MLIR's verifier wording)."""
        from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp

        for use in list(placeholder.uses):
            user = use.operation
            if not isinstance(user, CudaTileOp):
                continue
            info = self.smap.ops.get(user)
            at = info.span if info is not None else def_span
            self.sink.error(
                at,
                f"'{user.name}' op operand #{use.index} does not dominate this use",
                Related(def_span, "operand defined here"),
            )
            self.diagnosed_ops.add(user)

    def _retarget_uses(self, old: SSAValue, new: SSAValue) -> None:
        uses = self.smap.uses
        for i, use in enumerate(uses):
            if use.value is old:
                uses[i] = use._replace(value=new)

    def resolve_operand(self, use: UseRef, expected: Attribute, state: OpState | None = None) -> SSAValue:
        """Find the value a use names, checking it against the type the op expects."""
        for scope in reversed(self.scopes):
            values = scope.values.get(use.name)
            if values is not None:
                if use.index >= len(values):
                    raise ParseError(use.span, f"invalid SSA value result number: {use.name}#{use.index}")
                value = values[use.index]
                if value.type != expected:
                    prior = self.smap.value_defs.get(value)
                    notes = (Related(prior, "prior use here"),) if prior else ()
                    self.sink.error(
                        use.span,
                        f"use of value '{use.name}' expects different type than prior uses: "
                        f"{_q(expected)} vs {_q(value.type)}",
                        *notes,
                    )
                    if state is not None:
                        state.diagnosed = True
                return value
            if scope.isolated:
                break
        # A forward reference: resolved when the definition is parsed.
        scope = self.scopes[-1]
        entry = scope.forward.get(use.name)
        if entry is None:
            entry = ({}, use.span)
            scope.forward[use.name] = entry
        placeholders = entry[0]
        ph = placeholders.get(use.index)
        if ph is None:
            ph = ForwardDeclaredValue(expected)
            placeholders[use.index] = ph
        elif ph.type != expected:
            self.sink.error(
                use.span,
                f"use of value '{use.name}' expects different type than prior uses: "
                f"{_q(expected)} vs {_q(ph.type)}",
                Related(entry[1], "prior use here"),
            )
        return ph

    def finish_scope(self, scope: Scope) -> None:
        for name, (_, span) in scope.forward.items():
            # MLIR's wording, plus the name: an editor user wants to see which one.
            self.sink.error(span, f"use of undeclared SSA value name '{name}'")
        scope.forward.clear()

    def parse_value_use(self) -> UseRef:
        if self.kind != lexer.VALUE:
            self.fail("expected SSA operand")
        tok = self.tok
        span = self.span()
        self.advance()
        if "#" in tok:
            base, _, idx = tok.partition("#")
            if len(idx) > 18:  # past int64: no op has that many results
                raise ParseError(span, f"invalid SSA value result number: {tok}")
            return UseRef(base, int(idx), span)
        return UseRef(tok, 0, span)

    def parse_value_use_list(self) -> list[UseRef]:
        out: list[UseRef] = []
        if self.kind != lexer.VALUE:
            return out
        out.append(self.parse_value_use())
        while self.at_punct(",") and self.kinds[self.i + 1] == lexer.VALUE:
            self.advance()
            out.append(self.parse_value_use())
        return out

    def note_use(self, value: SSAValue, span: Span, user: Operation | None) -> None:
        self.smap.uses.append(ValueUse(value, span, user))

    def note_symbol_use(self, name: str, span: Span, user: Operation) -> None:
        self.smap.symbol_uses.append(SymbolUse(name, span, user))

    # -- custom form --------------------------------------------------------
    def resolve_op_name(self, word: str) -> tuple[str, type[Operation] | None]:
        cls = registry.op_class(word)
        if cls is not None:
            return word, cls
        dialect = self.default_dialect[-1]
        # At top level (and in a builtin module) `module` is MLIR's builtin one; other
        # bare names are cuda_tile's, as tileirdisasm prints items without a wrapper.
        candidates = (dialect,) if dialect else ("builtin", "cuda_tile")
        if "." not in word or word.startswith("testing$"):
            for prefix in candidates:
                full = f"{prefix}.{word}"
                cls = registry.op_class(full)
                if cls is not None:
                    return full, cls
        return word, None

    def parse_custom_operation(self, name_span: Span) -> Operation:
        word = self.tok
        full, cls = self.resolve_op_name(word)
        if cls is None:
            dialect = self.default_dialect[-1] or "cuda_tile"
            tried = f" (tried '{dialect}.{word}' as well)" if "." not in word else ""
            self.fail(f"custom op '{word}' is unknown{tried}")
            raise AssertionError
        self.advance()
        state = OpState(full, name_span)
        syntax = op_syntax(cls)
        dd = registry.default_dialect(cls)
        if dd is not None:
            self.default_dialect.append(dd)
        try:
            syntax.parse(self, state)
        except ParseError as err:
            # MLIR's custom-op parser prefixes its own errors (not those of nested ops).
            if not err.op_prefixed:
                err.op_prefixed = True
                if not err.message.startswith("custom op '"):
                    err.message = f"custom op '{full}' {err.message}"
            raise
        finally:
            if dd is not None:
                self.default_dialect.pop()
        return self.build(cls, state)

    def build(self, cls: type[Operation], state: OpState) -> Operation:
        """Resolve operands against inferred types and create the op."""
        from tile_lsp.compiler.syntax.building import build_op

        op = build_op(self, cls, state)
        if state.diagnosed:
            self.diagnosed_ops.add(op)
        return op

    # -- regions -------------------------------------------------------------
    def parse_region(
        self, entry_args: Sequence[ArgDef] = (), isolated: bool = False, allow_empty: bool = False
    ) -> Region:
        """`{ ... }` with optional explicit blocks; `entry_args` come from a custom header."""
        if len(self.scopes) > MAX_REGION_DEPTH:
            self.fail(f"regions are nested more than {MAX_REGION_DEPTH} levels deep")
        self.expect_punct("{")
        scope = Scope(isolated=isolated)
        self.scopes.append(scope)
        region = Region()
        try:
            entry = Block(arg_types=[a.type for a in entry_args])
            for arg, a in zip(entry.args, entry_args):
                self.define_values(a.name, [arg], a.span)
                if a.loc is not None:
                    set_location(arg, a.loc)
            if self.kind == lexer.BLOCK and not entry_args:
                first = True
                while self.kind == lexer.BLOCK:
                    block = self.parse_block_header(entry if first else None)
                    first = False
                    region.add_block(block)
                    self.parse_block_body(block)
            elif not (allow_empty and not entry_args and self.at_punct("}")):
                region.add_block(entry)
                self.parse_block_body(entry)
                while self.kind == lexer.BLOCK:
                    block = self.parse_block_header(None)
                    region.add_block(block)
                    self.parse_block_body(block)
            self.expect_punct("}")
            if isolated:
                self.finish_scope(scope)
            else:
                # Unresolved names may still be defined later in the parent.
                parent = self.scopes[-2]
                for name, entry_fwd in scope.forward.items():
                    parent.forward.setdefault(name, entry_fwd)
        except ParseError as err:
            err.op_prefixed = True  # belongs to a nested op, not to the region's owner
            raise
        finally:
            self.scopes.pop()
        if not region.blocks and not allow_empty:
            region.add_block(Block())
        return region

    def parse_block_header(self, reuse: Block | None) -> Block:
        label_span = self.span()
        self.advance()
        args: list[ArgDef] = []
        if self.accept_punct("(") and not self.accept_punct(")"):
            while True:
                args.append(parse_arg_def(self, message="expected SSA value name", attr_dict=False))
                if self.accept_punct(")"):
                    break
                self.expect_punct(",")
        self.expect_punct(":")
        block = reuse if reuse is not None and not reuse.args else Block()
        for a in args:
            arg = block.insert_arg(a.type, len(block.args))
            self.define_values(a.name, [arg], a.span)
            if a.loc is not None:
                set_location(arg, a.loc)
        self.smap.block_spans[block] = label_span
        return block

    # -- generic form -------------------------------------------------------
    def parse_generic_operation(self, op_name: str, name_span: Span) -> Operation:
        cls = registry.op_class(op_name)
        uses: list[UseRef] = []
        self.expect_punct("(")
        if not self.accept_punct(")"):
            uses = [self.parse_value_use()]
            while self.accept_punct(","):
                uses.append(self.parse_value_use())
            self.expect_punct(")")
        if self.at_punct("["):
            self.fail("successors are not supported in cuda_tile")
        props: dict[str, Attribute] = {}
        if self.at_punct("<") and self.peek_punct("{"):
            self.advance()
            props = parse_attr_dict_body(self)
            self.expect_punct(">")
        regions: list[Region] = []
        if self.at_punct("(") and self.peek_punct("{"):
            self.advance()
            isolated = registry.is_isolated(cls)
            regions.append(self.parse_generic_region(cls, isolated))
            while self.accept_punct(","):
                regions.append(self.parse_generic_region(cls, isolated))
            self.expect_punct(")")
        attrs: dict[str, Attribute] = {}
        if self.at_punct("{"):
            attrs = parse_attr_dict_body(self)
        self.expect_punct(":")
        ftype_span_start = self.starts[self.i]
        ftype = parse_function_type(self)
        inputs = list(ftype.inputs.data)
        if len(inputs) != len(uses):
            raise ParseError(
                Span(ftype_span_start, self.prev_end()),
                f"expected {len(uses)} operand type{'s' if len(uses) != 1 else ''} but had {len(inputs)}",
            )
        operands = [self.resolve_operand(u, t) for u, t in zip(uses, inputs)]
        if cls is not None:
            for key in list(attrs):
                if registry.is_inherent(cls, key):
                    props.setdefault(key, attrs.pop(key))
            op = registry.create_op(cls, operands, list(ftype.outputs.data), props, attrs, regions)
        else:
            if not self.allow_unregistered:
                raise ParseError(name_span, f"operation '{op_name}' is not registered")
            op = UnregisteredOp.with_name(op_name).create(
                operands=operands,
                result_types=list(ftype.outputs.data),
                attributes={**props, **attrs},
                regions=regions,
            )
        for u, v in zip(uses, operands):
            self.note_use(v, u.span, op)
        self.smap.ops[op] = OpInfo(name_span, name_span)
        self.generic_ops.add(op)
        return op

    def parse_generic_region(self, cls: type[Operation] | None, isolated: bool) -> Region:
        self.default_dialect.append(registry.default_dialect(cls) or "")
        try:
            # The generic form says exactly how many blocks a region has: `({ })` has none.
            return self.parse_region(isolated=isolated, allow_empty=True)
        finally:
            self.default_dialect.pop()


def _q(t: Attribute) -> str:
    return f"'{long_type_str(t)}'"


# xDSL's own name rule (its setter raises on anything else); digits-first names are numbered.
_VALID_NAME_HINT = re.compile(r"[A-Za-z_$.-][\w$.-]*\Z")
