"""What the syntax pieces (types.py, attributes.py, locations.py, format.py, building.py) and
the dialects' custom syntax need of the parser and the printer, and the values a custom syntax
collects (`OpState`, `UseRef`, `ArgDef`). Below parser.py and printer.py, which implement
`SyntaxParser` and `SyntaxPrinter`, so the pieces they call need not import them back.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tile_lsp.compiler.diagnostics import DiagnosticSink
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.syntax.base import TokenCursor
from tile_lsp.compiler.syntax.sourcemap import SourceMap


@dataclass(slots=True)
class UseRef:
    """An SSA use as written: `%name` or `%name#2`, with its span."""

    name: str
    index: int
    span: Span


@dataclass(slots=True)
class ArgDef:
    """A block argument as written in a custom or generic region header."""

    name: str
    type: Attribute
    span: Span
    loc: Attribute | None = None  # `loc(...)` written after the type


class OpState:
    """What a custom syntax collected for one op before it is built.

    A plain slotted class: one is made per parsed op, and a dataclass with eight
    default factories costs measurably more.
    """

    __slots__ = (
        "name",
        "name_span",
        "operands",
        "operand_types",
        "result_types",
        "properties",
        "attributes",
        "regions",
        "successors",
        "spans",
        "symbol_span",
        "diagnosed",
    )

    def __init__(self, name: str, name_span: Span):
        self.name = name
        self.name_span = name_span
        self.operands: dict[str, list[UseRef]] = {}
        self.operand_types: dict[str, list[Attribute]] = {}
        self.result_types: dict[str, list[Attribute]] = {}
        self.properties: dict[str, Attribute] = {}
        self.attributes: dict[str, Attribute] = {}
        self.regions: dict[str, list[Region]] = {}
        self.successors: list[Block] = []
        self.spans: dict[str, Span] = {}  # where each element was written
        self.symbol_span: Span | None = None
        self.diagnosed = False  # a non-fatal error was already reported for this op


class SyntaxParser(TokenCursor, ABC):
    """The parser as the syntax pieces see it: the token cursor, its per-text state, and the
    parts of op parsing a custom syntax calls back into (parser.Parser implements them)."""

    source: SourceText
    sink: DiagnosticSink
    smap: SourceMap
    type_cache: dict[tuple[str, str], Attribute]
    attr_aliases: dict[str, Attribute]
    type_aliases: dict[str, Attribute]
    default_dialect: list[str]
    deferred_locs: list[tuple[str, Span]]  # `loc(#alias)` before `#alias = ...`

    @abstractmethod
    def matching_close(self, i: int) -> int:
        """Index of the token closing the bracket at i, or -1."""

    @abstractmethod
    def parse_location(self) -> Attribute: ...

    @abstractmethod
    def parse_region(
        self, entry_args: Sequence[ArgDef] = (), isolated: bool = False, allow_empty: bool = False
    ) -> Region: ...

    @abstractmethod
    def parse_value_use(self) -> UseRef: ...

    @abstractmethod
    def parse_value_use_list(self) -> list[UseRef]: ...

    @abstractmethod
    def resolve_operand(self, use: UseRef, expected: Attribute, state: OpState | None = None) -> SSAValue: ...

    @abstractmethod
    def note_use(self, value: SSAValue, span: Span, user: Operation | None) -> None: ...

    @abstractmethod
    def note_symbol_use(self, name: str, span: Span, user: Operation) -> None: ...


class SyntaxPrinter(Protocol):
    """The printer as the syntax pieces see it (printer.Printer)."""

    default_dialect: list[str]
    depth: int
    indent_unit: str

    def value_name(self, v: SSAValue) -> str: ...

    def type(self, t: Attribute) -> str: ...

    def attr(self, a: Attribute) -> str: ...

    def attr_dict(self, op: Operation, elided: set[str]) -> str: ...

    def alias(self, a: Attribute, base: str, body: Callable[[], str]) -> str: ...

    def region_text(self, region: Region, generic: bool = False, print_entry_args: bool | None = None) -> str: ...
