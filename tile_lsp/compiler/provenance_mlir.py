"""Stage-line provenance of printed MLIR: the text of a module and, per line, the source op it
came from (`print_mapped`, `print_mapped_located`), from the ops' locations. The rest of
provenance (refs, LLVM IR and PTX line maps) is in provenance.py, which does not need xDSL: a
`tile-lsp compile` whose units all come from the cache never imports it.
"""

from __future__ import annotations

import io

from xdsl.dialects import builtin
from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from tile_lsp.compiler.mlir.context import inner_location
from tile_lsp.compiler.provenance import SourceIndex, SourceRef


def location_ref(index: SourceIndex, loc: Attribute | None) -> SourceRef | None:
    """The ref of an MLIR location: the first file position inside name/callsite/fused locs
    (a call site's callee when it is in this source, as `.loc` reports the callee)."""
    while loc is not None:
        if isinstance(loc, FileLineColLoc):
            return index.ref(loc.filename.data, loc.line.data, loc.column.data)
        if isinstance(loc, builtin.CallSiteLoc):
            callee = location_ref(index, loc.callee)
            if callee is not None and callee.offset is not None:
                return callee
            loc = loc.caller
        else:
            loc = inner_location(loc)
    return None


class _CountingStream(io.StringIO):
    """Counts the newlines written (the slow, sure way; used when the printer's own count is off)."""

    def __init__(self) -> None:
        super().__init__()
        self.line_count = 0

    def write(self, s: str) -> int:
        self.line_count += s.count("\n")
        return super().write(s)


_LITERALS: dict[str, str] = {}  # string -> its MLIR literal (filenames of locations repeat)


def _quote(string: str) -> str:
    """`string` as an MLIR string literal, escaped as xDSL's `print_bytes_literal` escapes it."""
    out = ['"']
    for byte in string.encode("utf-8"):
        if byte == 0x5C:
            out.append("\\\\")
        elif byte < 0x20 or byte > 0x7E or byte == 0x22:
            out.append(f"\\{byte:02X}")
        else:
            out.append(chr(byte))
    out.append('"')
    return "".join(out)


# Exact types (a set lookup: isinstance against xDSL's ABC attribute classes is slow on every attribute).
_LOCATIONS = frozenset({builtin.UnknownLoc, FileLineColLoc, builtin.CallSiteLoc, builtin.NameLoc, builtin.FusedLoc})


class _RecordingPrinter(Printer):
    """xDSL's printer that records the first and last line of every op it prints and, printing
    locations, where each top-level `loc(...)` went (character offsets), so that one printing
    gives both the text with locations and, with those cut out, the plain text.

    Lines come from the printer's own newline count (`_current_line`, kept by every
    `print_string` and new line) or, with `counted`, from a stream that counts what is written
    (a Python-level `write` per string: half again the cost of printing)."""

    def __init__(self, stream: io.StringIO, generic: bool, counted: bool = False, locations: bool = False) -> None:
        super().__init__(stream=stream, print_generic_format=generic, print_debuginfo=locations)
        self.out = stream
        self.counter = stream if counted and isinstance(stream, _CountingStream) else None
        self.op_lines: list[tuple[Operation, int, int]] = []
        self.loc_spans: list[tuple[int, int]] = []

    # xDSL's printer writes through `print(..., file=stream)` and string literals byte by byte
    # (a call per byte of every `loc("file":...)`); the same text, written directly, costs
    # about half as much (see `print_string`, `_print_new_line`, `print_string_literal`).

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" not in text:
            self._current_column += len(text)
            self.out.write(text)
            return
        super().print_string(text, indent=indent)

    def _print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        indent = self._indent if indent is None else indent
        self.out.write("\n")
        self._current_line += 1
        if print_message:
            for callback in self._next_line_callback:
                callback()
            self._next_line_callback = []
        spaces = indent * self.indent_num_spaces
        self.out.write(" " * spaces)
        self._current_column = spaces

    def print_string_literal(self, string: str) -> None:
        quoted = _LITERALS.get(string)
        if quoted is None:
            quoted = _quote(string)
            if len(string) < 256 and len(_LITERALS) < 4096:  # (a bounded memo: names, not data)
                _LITERALS[string] = quoted
        self.print_string(quoted)

    def _line(self) -> int:
        return self.counter.line_count if self.counter is not None else self._current_line

    def print_op(self, op: Operation) -> None:
        first = self._line()
        slot = len(self.op_lines)
        self.op_lines.append((op, first, first))
        super().print_op(op)
        self.op_lines[slot] = (op, first, self._line())

    def print_attribute(self, attribute: Attribute) -> None:
        if type(attribute) not in _LOCATIONS or self.printing_location or not self.print_debuginfo:
            super().print_attribute(attribute)
            return
        start = self.out.tell()
        super().print_attribute(attribute)
        self.loc_spans.append((start, self.out.tell()))


def _record(module: Operation, generic: bool, counted: bool, locations: bool = False) -> tuple[str, _RecordingPrinter]:
    stream = _CountingStream() if counted else io.StringIO()
    printer = _RecordingPrinter(stream, generic, counted, locations)
    printer.print_op(module)
    stream.write("\n")
    return stream.getvalue(), printer


def _refs(text: str, printer: _RecordingPrinter, index: SourceIndex) -> list[SourceRef | None]:
    refs: list[SourceRef | None] = [None] * len(text.splitlines())
    for op, first, last in printer.op_lines:
        ref = location_ref(index, op.location)
        if ref is None:
            continue
        if first < len(refs) and refs[first] is None:  # an outer op starting on the line wins
            refs[first] = ref
        if last != first and last < len(refs) and refs[last] is None and op.regions:
            refs[last] = ref
    return refs


def print_mapped(module: Operation, index: SourceIndex, *, generic: bool = False) -> tuple[str, list[SourceRef | None]]:
    """The plain MLIR text of `module` (as `print_ir` prints it) and its per-line refs: the
    line an op starts on, and the closing line of an op with regions, map to that op's source."""
    text, printer = _record(module, generic, counted=False)
    if printer._current_line + 1 != text.count("\n"):  # something wrote past print_string: count
        text, printer = _record(module, generic, counted=True)
    return text, _refs(text, printer, index)


def print_mapped_located(module: Operation, index: SourceIndex) -> tuple[str, str | None, list[SourceRef | None]]:
    """(plain text, text with `loc(...)` = `print_ir(locations=True)`, per-line refs) from one
    printing: the plain text is the located one with each ` loc(...)` cut out (locations print on
    the line they follow, so lines and refs are the same for both). Falls back to `print_mapped`
    (located text None) where the cut cannot be sure."""
    located, printer = _record(module, False, counted=False, locations=True)
    pieces: list[str] = []
    at = 0
    sure = printer._current_line + 1 == located.count("\n")
    for start, end in printer.loc_spans:
        if start < 1 or start < at or located[start - 1] != " " or "\n" in located[start:end]:
            sure = False
            break
        pieces.append(located[at : start - 1])
        at = end
    if not sure:
        text, refs = print_mapped(module, index)
        return text, None, refs
    pieces.append(located[at:])
    return "".join(pieces), located, _refs(located, printer, index)


__all__ = ["location_ref", "print_mapped", "print_mapped_located"]
