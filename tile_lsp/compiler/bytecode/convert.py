"""Bytecode <-> cuda_tile text, for the command line (`check`/`opt`/`compile`/`run` on a
`.tileirbc`, `--emit-bytecode`).

- `bytecode_to_text`: decode (and verify) a bytecode file and print it as cuda_tile text
  with its debug info as `loc(...)`, so every later stage (which takes text) runs unchanged
  and its diagnostics point at the Python lines the bytecode's debug info names.
- `text_to_bytecode`: parse a cuda_tile text and write it as bytecode (even when it fails
  verification: that is reported, and the bytes are still made), with the text's lines as
  debug info for ops that have no `loc(...)`.
"""

from __future__ import annotations

from tile_lsp.compiler.diagnostics import Diagnostic
from tile_lsp.compiler.source import SourceText


def bytecode_to_text(data: bytes, path: str = "<bytecode>", locations: bool = True, verify: bool = True):
    """-> (text or None, diagnostics, a SourceText for the diagnostics).

    The diagnostics' spans are byte offsets; the SourceText returned with them is blank (one
    space per byte, one line), so `format_text` shows `path:1:<offset + 1>` and parsing it
    again reports nothing more."""
    from tile_lsp.compiler.bytecode.reader import read_bytecode

    result = read_bytecode(data, path, verify=verify, locations=locations)
    blank = SourceText(" " * len(data), path)
    if result.module is None:
        return None, result.diagnostics, blank
    try:
        text = module_text(result.module)
    except Exception as exc:
        from tile_lsp.compiler.diagnostics import Severity
        from tile_lsp.compiler.source import Span

        bug = Diagnostic(
            Span(0, 0), Severity.ERROR, f"internal error printing decoded bytecode: {exc!r}", stage="bytecode"
        )
        return None, [*result.diagnostics, bug], blank
    if result.producer:  # as tileirdisasm shows it
        text = f"// Producer: {' '.join(result.producer.split())}\n{text}"
    return text, result.diagnostics, blank


def module_text(module) -> str:  # type: ignore[no-untyped-def]
    """A decoded module printed in the custom form, or the generic form where an op that fails
    verification does not fit its custom form (raises only if neither prints)."""
    from tile_lsp.compiler.syntax.printer import Printer

    try:
        return Printer().module_text(module)
    except Exception:
        return Printer(generic=True).module_text(module)


def text_to_bytecode(text: str, path: str = "<input>", version: int | None = None):
    """-> (bytes or None, diagnostics (parse/verify, then writing), SourceText of `text`)."""
    from tile_lsp.compiler.bytecode.writer import write_bytecode
    from tile_lsp.compiler.frontend import parse_text

    results = parse_text(text, path)
    diags: list[Diagnostic] = [d for r in results for d in r.diagnostics]
    source = results[0].source if results else SourceText(text, path)
    if not results or results[0].module is None:
        return None, diags, source
    data, more = write_bytecode(results[0].module, version=version, source=source, smap=results[0].smap)
    return data, diags + more, source


def load_source(data: bytes, path: str) -> tuple[SourceText, list[Diagnostic]]:
    """A file's bytes as the text every front end takes: bytecode (found by its magic, whatever
    the file's name) decoded and printed with its debug info as locations; anything else decoded
    as UTF-8 text. A bytecode that cannot be read gives its diagnostics and a blank text (its
    positions are byte offsets, and nothing more is reported from it)."""
    from tile_lsp.compiler.bytecode import is_bytecode

    if is_bytecode(data):
        # (here, not at the top: a text file's cached compile never imports xDSL, which
        # debug_locations needs; tests/tile_lowering/test_entry_cache.py pins it)
        from tile_lsp.compiler.bytecode.debug_locations import debug_place

        text, diags, blank = bytecode_to_text(data, path, verify=False)
        if text is None:
            return blank, diags
        return SourceText(text, path, decoded_from="bytecode", locator=debug_place), diags
    from tile_lsp.compiler.textio import decode_source

    decoded, diags = decode_source(data)
    return SourceText(decoded, path), diags
