"""A version's front-end diagnostics are published at once, with the stage diagnostics of the
entries it did not change (`AnalysisHost.carried_stage`): the same parse of the same text is the
same per-entry compile. A changed entry's stage diagnostics wait for its compile."""

from __future__ import annotations

from typing import Any

from tile_lsp import textsync
from tile_lsp.compiler.diagnostics import Diagnostic, Related, Severity
from tile_lsp.compiler.document import analyze
from tile_lsp.compiler.source import Span
from tile_lsp.host import AnalysisHost

ENTRY = "  entry @k{n}(%a: tile<f32>) {{\n    %b = addf %a, %a : tile<f32>\n    return\n  }}\n"
TEXT = "cuda_tile.module @m {\n" + "".join(ENTRY.format(n=n) for n in range(3)) + "}\n"
URI = "file:///tmp/m.mlir"


class _Client:
    def __init__(self) -> None:
        self.published: list[Any] = []

    def publish(self, params: Any) -> None:
        self.published.append(params)

    def __getattr__(self, name: str) -> Any:
        return lambda *args: [] if name == "workspace_folders" else None


def _edited(entry: str, new: str) -> tuple[Any, Any]:
    """Stage diagnostics published in @k2 and in the header, then `%b` of `entry` renamed `new`:
    what the new version carries, and (header, stage diagnostic, the edit's change in length)."""
    host = AnalysisHost(_Client())  # type: ignore[arg-type]
    snap = host.session.update(URI, 1, TEXT, "/tmp/m.mlir")
    first = snap.analysis
    addf = TEXT.index("addf", TEXT.index("@k2"))
    stage = Diagnostic(Span(addf, addf + 4), Severity.ERROR, "ptxas says no", "ptx", (Related(Span(addf, addf + 1), "here"),))
    header = Diagnostic(Span(0, 9), Severity.WARNING, "no target", "pipeline")
    host._publish(snap, first, [header, stage])
    source = snap.text_source
    pos = TEXT.index("%b", TEXT.index(entry))
    source, edit = textsync.apply_source_changes(source, [((*source.lsp_position(pos), *source.lsp_position(pos + 2)), new)])
    assert edit is not None
    second = analyze(source.text, "/tmp/m.mlir", host.session.cache, source=source, previous=(first, edit))
    return host.carried_stage(URI, second), (header, stage, len(new) - 2)


def test_an_edit_elsewhere_carries_the_entry_s_stage_diagnostics_moved() -> None:
    carried, (header, stage, delta) = _edited("@k0", "%longer")
    moved = Span(stage.span.start + delta, stage.span.end + delta)
    assert [d.message for d in carried] == ["no target", "ptxas says no"]
    assert carried[0] == header and carried[1].span == moved
    assert carried[1].related[0].span.start == moved.start


def test_an_edit_inside_the_entry_drops_its_stage_diagnostics() -> None:
    carried, _ = _edited("@k2", "%z")
    assert [d.message for d in carried] == ["no target"]
