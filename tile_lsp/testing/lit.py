"""lit-style expectations: `// expected-error @below {{text}}` and round-trip checks.

Scores a chunk the way `mlir-opt -verify-diagnostics` would, but counts partial
success (line hit vs. text match) so conformance can be reported as rates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tile_lsp.compiler.frontend import ParseResult, parse_chunk, split_chunks
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.syntax.printer import Printer

_RUN = re.compile(r"^// RUN:(.*)$", re.MULTILINE)
_EXPECT = re.compile(
    r"expected-(error|warning|note|remark)\s*(?:@(below|above|[+-]\d+))?\s*\{\{(.*?)\}\}"
)


@dataclass
class Expectation:
    kind: str  # error | warning | note | remark
    line: int  # 0-based target line
    text: str
    annotation_line: int


@dataclass
class ChunkOutcome:
    """Result of checking one chunk against its annotations (or round-trip if none)."""

    span: Span
    first_line: int
    expectations: list[Expectation] = field(default_factory=list)
    hit_line: list[bool] = field(default_factory=list)
    hit_text: list[bool] = field(default_factory=list)
    valid: bool = False  # no error annotations: must parse, verify and round-trip
    roundtrip_ok: bool = False
    failure: str = ""


def parse_expectations(source: SourceText, span: Span) -> list[Expectation]:
    out: list[Expectation] = []
    first, _ = source.line_col(span.start)
    last, _ = source.line_col(max(span.start, span.end - 1))
    for line in range(first, last + 1):
        text = source.line_text(line)
        for m in _EXPECT.finditer(text):
            kind, where, msg = m.group(1), m.group(2), m.group(3)
            target = line
            if where == "below":
                # Like mlir's verifier: the next line that holds no expected-* annotation.
                target = line + 1
                while target <= last and _EXPECT.search(source.line_text(target)):
                    target += 1
            elif where == "above":
                target = line - 1
            elif where:
                target = line + int(where)
            out.append(Expectation(kind, target, _unregex(msg), line))
    return out


def _unregex(msg: str) -> str:
    # `{{...}}` may hold regex pieces like `{{\[}}`; keep the literal text around them.
    return msg.replace("\\[", "[").replace("\\]", "]")


def roundtrip(result: ParseResult) -> tuple[bool, str]:
    """Custom print -> reparse -> print is a fixed point; generic print reparses to it too."""
    assert result.module is not None
    first = Printer().module_text(result.module)
    second, msg = _reprinted(first, "<roundtrip>")
    if second is None:
        return False, f"custom form does not re-parse: {msg}\n{first}"
    if second != first:
        return False, f"custom form is not a fixed point:\n{_diff(first, second)}"
    generic = Printer(generic=True).module_text(result.module)
    third, msg = _reprinted(generic, "<generic>")
    if third is None:
        return False, f"generic form does not re-parse: {msg}\n{generic}"
    if third != first:
        return False, f"generic form round-trips differently:\n{_diff(first, third)}"
    return True, ""


def _reprinted(text: str, name: str) -> tuple[str | None, str]:
    """`text` (the file `name`) parsed and printed in the custom form; (None, why: the first
    diagnostic or "no module") when it does not parse."""
    parsed = parse_chunk(SourceText(text, name))
    if not parsed.ok or parsed.module is None:
        return None, parsed.diagnostics[0].message if parsed.diagnostics else "no module"
    return Printer().module_text(parsed.module), ""


def _diff(a: str, b: str) -> str:
    import difflib

    return "\n".join(difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=1))


def run_options(text: str) -> dict[str, object]:
    """Verifier options a test's RUN lines ask for (cuda-tile-opt flags we model)."""
    runs = " ".join(m.group(1) for m in _RUN.finditer(text))
    return {"hints_errors": True} if "-Werr-hints" in runs else {}


def check_file(text: str, path: str, split: bool = True) -> list[ChunkOutcome]:
    source = SourceText(text, path)
    outcomes: list[ChunkOutcome] = []
    options = run_options(text)
    for span in split_chunks(text) if split else [Span(0, len(text))]:
        result = parse_chunk(source, span, options=options)
        first_line = source.line_col(span.start)[0]
        expectations = parse_expectations(source, span)
        oc = ChunkOutcome(span, first_line, expectations)
        errors_by_line: dict[int, list[str]] = {}
        for d in result.diagnostics:
            sev = d.severity.value
            errors_by_line.setdefault(source.line_col(d.span.start)[0], []).append(f"{sev}:{d.message}")
            for n in d.related:
                errors_by_line.setdefault(source.line_col(n.span.start)[0], []).append(f"note:{n.message}")
        for e in expectations:
            got = [m.split(":", 1)[1] for m in errors_by_line.get(e.line, []) if m.startswith(e.kind + ":")]
            oc.hit_line.append(bool(got))
            oc.hit_text.append(any(e.text in g for g in got))
        if not any(e.kind == "error" for e in expectations):
            oc.valid = True
            if not result.ok:
                bad = [d for d in result.diagnostics if d.is_error][0]
                line, col = source.line_col(bad.span.start)
                oc.failure = f"{path}:{line + 1}:{col + 1}: unexpected error: {bad.message}"
            else:
                try:
                    oc.roundtrip_ok, oc.failure = roundtrip(result)
                except Exception as exc:  # a printer crash is a conformance failure, not a crash
                    oc.failure = f"{path}: round trip raised {exc!r}"
        outcomes.append(oc)
    return outcomes
