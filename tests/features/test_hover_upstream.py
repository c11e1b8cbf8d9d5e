"""Hover on upstream-dialect files (features/upstream_hover.py): values get their real types
and definers, ops our description and types, and, with a background report of the same text,
the NVVM and PTX lines the op became (trimmed, counted)."""

from __future__ import annotations

import pathlib
import time

import pytest

from tile_lsp.background import PipelineReport, PipelineRequest, StageText, run_request
from tile_lsp.compiler.document import analyze
from tile_lsp.compiler.provenance import SourceRef
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.target import CompileOptions, Target
from tile_lsp.features import hover, upstream_hover
from tile_lsp.features.upstream_docs import op_description

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEXT = (ROOT / "examples" / "block_sum.mlir").read_text()
PATH = str(ROOT / "examples" / "block_sum.mlir")


def at(needle: str, delta: int = 1) -> int:
    return TEXT.index(needle) + delta


def hover_text(offset: int, report: PipelineReport | None = None) -> str:
    found = hover.hover(analyze(TEXT, PATH), offset, report)
    assert found is not None
    return found[0]


@pytest.fixture(scope="module")
def report() -> PipelineReport:
    return run_request(PipelineRequest(TEXT, PATH, CompileOptions(target=Target(90, "a"))))


def test_values_have_types_and_definers() -> None:
    assert hover_text(at("%tid =")) == (
        "`%tid`: `index`\n\nDefined by `gpu.thread_id`: index of the thread within its block along one dimension (PTX %tid)."
    )
    assert hover_text(at("%k =")) == "`%k`: `index`\n\nArgument 0 of `scf.for`"
    assert hover_text(at("%x:")).startswith("`%x`: `memref<4096xf32, 1 : i64>`\n\nArgument 0 of `gpu.func` `@block_sum`")


def test_value_in_text_that_does_not_parse_still_answers() -> None:
    broken = TEXT.replace("gpu.barrier", "gpu.barrier(")  # the parse stops there
    doc = analyze(broken, PATH)
    found = hover.hover(doc, broken.index("%is_first =") + 1)
    assert found is not None and found[0].startswith("`%is_first`\n\nDefined on line")


def test_op_hover_without_report() -> None:
    text = hover_text(at("gpu.thread_id", 2))
    assert text.splitlines()[:5] == [
        "**gpu.thread_id**",
        "",
        "Index of the thread within its block along one dimension (PTX %tid).",
        "",
        "Results: `index`",
    ]
    assert "**PTX**" not in text


def test_op_hover_lists_nvvm_and_ptx_lines(report: PipelineReport) -> None:
    text = hover_text(at("gpu.thread_id", 2), report)
    assert "**NVVM**: 2 lines" in text and "nvvm.read.ptx.sreg.tid.x" in text
    ptx = report.stage("ptx")
    assert ptx is not None
    span = Span(at("%tid =", 0), TEXT.index("\n", at("%tid =")))
    lines = report.source_to_lines("ptx", span)
    assert [ptx.text.splitlines()[i] for i in lines] == ["\tmov.u32 \t%r1, %tid.x;"]
    assert "**PTX** (sm_90a): 1 line" in text and "```ptx\nmov.u32 %r1, %tid.x;\n```" in text


def test_symbol_hover_shows_header_and_resources(report: PipelineReport) -> None:
    text = hover_text(at("@block_sum", 2), report)
    assert text.startswith("```mlir\ngpu.func @block_sum(%x: memref<4096xf32, 1>, %out: memref<32xf32, 1>)")
    if report.kernels:
        assert "ptxas: sm_90a · " in text


def test_long_sections_are_trimmed() -> None:
    start = at("%tid =", 0)
    refs: list[SourceRef | None] = [SourceRef(PATH, 12, 6, start, None)] * 12
    stage = StageText("ptx", "\n".join(f"mov.u32 %r{i}, %tid.x;" for i in range(12)) + "\n", 0.0, line_refs=refs)
    fake = PipelineReport("done", stages=[stage], target="sm_90a")
    text = hover_text(at("gpu.thread_id", 2), fake)
    assert "**PTX** (sm_90a): 12 lines (lines 1-12)" in text
    assert "mov.u32 %r7, %tid.x;\n```\n… 4 more" in text and "%r8," not in text


def test_cached_hover_is_fast(report: PipelineReport) -> None:
    doc = analyze(TEXT, PATH)
    upstream_hover.warm(doc.source)
    started = time.perf_counter()
    for needle in ("gpu.thread_id", "memref.load %x", "gpu.barrier", "%tid =", "%acc2 ="):
        assert hover.hover(doc, at(needle, 2), report) is not None
    assert (time.perf_counter() - started) / 5 < 0.02


def test_descriptions_are_ours_for_every_gpu_nvgpu_and_nvvm_op() -> None:
    from tile_lsp.compiler.mlir.dialects.registry import registered

    missing = [
        op.name
        for factory in registered()
        if factory().name in ("gpu", "nvgpu", "nvvm")
        for op in factory().operations
        if not op_description(op.name)
    ]
    assert missing == []


def test_instruction_mix_counts_ops_and_opcodes() -> None:
    """A long hover section says what it is made of: PTX opcodes (with their first modifier,
    predicates, labels and directives skipped) and MLIR op names, most frequent first."""
    from tile_lsp.features.upstream_hover import instruction_mix

    ptx = [
        "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2}, {%r3}, {%r4}, {%r5};",
        "\t@%p1 st.shared.v2.b32 [%rd78], {%r22, %r23};",
        "\t@!%p2 st.shared.v2.b32 [%rd79], {%r24, %r25};",
        "$L__BB0_4:",
        "\t.loc 1 2 3",
        "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%rd1];",
    ]
    assert instruction_mix(ptx, "ptx") == [("st.shared", 2), ("ldmatrix.sync", 1), ("mma.sync", 1)]
    mlir = ["%1 = arith.addi %a, %b : i32", "%2, %3 = gpu.shuffle xor %a, %c, %w : f32", '"nvvm.mma.sync"(%a) : () -> ()',
            "%4 = arith.addi %1, %b : i32", "}"]
    assert instruction_mix(mlir, "mlir") == [("arith.addi", 2), ("gpu.shuffle", 1), ("nvvm.mma.sync", 1)]
