"""The diagnostics model shared by every stage: range, severity, message, stage, notes.

Stages return diagnostics as data; nothing here raises for user errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tile_lsp.compiler.source import SourceText, Span


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"
    REMARK = "remark"


@dataclass(frozen=True, slots=True)
class Related:
    """A secondary location attached to a diagnostic ("prior use here")."""

    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One message of one stage at one source range."""

    span: Span
    severity: Severity
    message: str
    stage: str = "cuda_tile"
    related: tuple[Related, ...] = ()

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


@dataclass
class DiagnosticSink:
    """Collects diagnostics for one run; stages append, callers read `items`."""

    stage: str = "cuda_tile"
    items: list[Diagnostic] = field(default_factory=list)

    def error(self, span: Span, message: str, *notes: Related) -> Diagnostic:
        diag = Diagnostic(span, Severity.ERROR, message, self.stage, tuple(notes))
        self.items.append(diag)
        return diag

    def warning(self, span: Span, message: str, *notes: Related) -> Diagnostic:
        diag = Diagnostic(span, Severity.WARNING, message, self.stage, tuple(notes))
        self.items.append(diag)
        return diag

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.items)


def format_text(diag: Diagnostic, source: SourceText) -> list[str]:
    """`path:line:col: severity: message` lines (1-based), notes included. On a bytecode's
    printout (`source.decoded_from`), at the op's debug location where it has one, with a note
    that gives the place in the printout (`debug_place`)."""
    line, col = source.line_col(diag.span.start)
    here = f"{source.path}:{line + 1}:{col + 1}"
    debug = debug_place(source, diag.span.start)
    if debug is not None:
        out = [f"{debug}: {diag.severity.value}: {diag.message}",
               f"{here}: note: in the decoded bytecode (`tile-lsp opt --no-verify {source.path}` prints it)"]
    else:
        out = [f"{here}: {diag.severity.value}: {diag.message}"]
    for note in diag.related:
        nline, ncol = source.line_col(note.span.start)
        where = debug_place(source, note.span.start) or f"{source.path}:{nline + 1}:{ncol + 1}"
        out.append(f"{where}: note: {note.message}")
    return out


def debug_place(source: SourceText, offset: int) -> str | None:
    """`file:line:col` of the debug location of the innermost op at `offset` of a bytecode's
    printout (the `locator` its decoder set, bytecode/debug_locations.py); None for other texts
    and for ops without one."""
    return source.locator(source, offset) if source.locator is not None else None


def to_json(diag: Diagnostic, source: SourceText) -> dict[str, object]:
    """The CLI's JSON shape for one diagnostic (1-based lines and columns)."""
    line, col = source.line_col(diag.span.start)
    end_line, end_col = source.line_col(diag.span.end)
    return {
        "file": source.path,
        "line": line + 1,
        "column": col + 1,
        "end_line": end_line + 1,
        "end_column": end_col + 1,
        "severity": diag.severity.value,
        "message": diag.message,
        "stage": diag.stage,
        "debug_location": debug_place(source, diag.span.start),
        "related": [
            {
                "line": source.line_col(n.span.start)[0] + 1,
                "column": source.line_col(n.span.start)[1] + 1,
                "message": n.message,
            }
            for n in diag.related
        ],
    }
