"""Stage texts printed in forked children (compiler/forked.py): the same texts and line maps as
printing in process, failures reported in the text, chained children one after another."""

from __future__ import annotations

import os
import pathlib
import time
from dataclasses import replace

import pytest

from tile_lsp.compiler import forked, pipeline
from tile_lsp.compiler.entry_cache import compile_source
from tile_lsp.compiler.pipeline import MLIR_STAGES
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
KERNEL = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile" / "row_softmax.mlir"


def test_result_comes_back_from_the_child() -> None:
    parent = os.getpid()
    job = forked.Forked(lambda: (os.getpid(), [1, 2, 3]))
    pid, value = job.result()
    assert pid != parent and value == [1, 2, 3]
    assert job.result() == (pid, [1, 2, 3])  # collected once, kept


def test_a_failing_child_is_reported_not_raised_through() -> None:
    def boom() -> int:
        raise ValueError("no")

    with pytest.raises(forked.ForkFailed, match="exit status 1"):
        forked.Forked(boom).result()


def test_a_hanging_child_is_killed_at_the_timeout() -> None:
    job = forked.Forked(lambda: time.sleep(30))
    started = time.monotonic()
    with pytest.raises(forked.ForkFailed, match="timed out"):
        job.result(timeout=0.3)
    assert time.monotonic() - started < 5


def test_a_chained_child_starts_after_the_one_before() -> None:
    first = forked.Forked(lambda: (time.sleep(0.3), time.monotonic())[1])
    second = forked.Forked(time.monotonic, after=first)
    assert second.result() >= first.result()


def test_a_nice_child_runs_at_a_lower_priority() -> None:
    mine = os.nice(0)
    assert forked.Forked(lambda: os.nice(0), nice=5).result() == min(mine + 5, 19)
    assert forked.Forked(lambda: os.nice(0)).result() == mine


def test_the_printing_children_yield_to_the_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stages' printing children run niced: the compile goes on at full priority."""
    seen: list[int] = []
    real = forked.Forked

    def spy(fn: object, after: object = None, *, nice: int = 0) -> object:
        seen.append(nice)
        return real(fn, after, nice=nice)  # type: ignore[arg-type]

    monkeypatch.setattr(forked, "Forked", spy)
    options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
    one_entry = KERNEL.parent / "argmax.mlir"  # (a file's entries would compile in forked children)
    result = compile_source(SourceText(one_entry.read_text(), str(one_entry)), options, "llvm", cache=False)
    assert result.ok and result.stage("gpu").text
    assert seen and all(n == pipeline.PRINT_NICENESS > 0 for n in seen)


def _texts(
    monkeypatch: pytest.MonkeyPatch, enabled: bool, emit: str = "llvm"
) -> dict[str, tuple[str, str | None, list[object] | None]]:
    if enabled:
        monkeypatch.delenv("TILE_LSP_NO_FORK", raising=False)
    else:
        monkeypatch.setenv("TILE_LSP_NO_FORK", "1")
    options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
    result = compile_source(SourceText(KERNEL.read_text(), str(KERNEL)), options, emit, cache=False)
    assert result.ok, [d.message for d in result.diagnostics]
    out = {}
    for name in MLIR_STAGES:
        stage = result.stage(name)
        assert stage is not None
        out[name] = (stage.text, stage.located_text, stage.line_refs)
    return out


@pytest.mark.parametrize("emit", ["llvm", "ptx"])
def test_forked_printing_gives_the_same_texts_and_maps(monkeypatch: pytest.MonkeyPatch, emit: str) -> None:
    inline = _texts(monkeypatch, False, emit)
    deferred = _texts(monkeypatch, True, emit)
    for name in MLIR_STAGES:
        assert deferred[name] == inline[name], name
        text, located, refs = deferred[name]
        assert text.count("\n") > 10 and located is not None and "loc(" in located
        assert refs is not None and any(r is not None for r in refs)


def test_only_the_stages_rewritten_later_are_forked_before_the_diagnostics(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fork costs the stages after it copy-on-write faults: the small tileaa stage is
    printed in process, gpu and nvvm (rewritten in place by the next stage) in children forked
    at once, and llvm (only read after it) in one forked after the early diagnostics."""
    events: list[str] = []
    real_init = forked.Forked.__init__

    def counting_init(self: forked.Forked[object], *args: object, **kwargs: object) -> None:
        events.append("fork")
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(forked.Forked, "__init__", counting_init)
    monkeypatch.delenv("TILE_LSP_NO_FORK", raising=False)
    options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
    one_entry = KERNEL.with_name("layernorm.mlir")  # (entries of a file compile in forked children)
    result = compile_source(
        SourceText(one_entry.read_text(), str(one_entry)), options, "ptx", cache=False, early=lambda _: events.append("early")
    )
    assert result.ok
    assert events == ["fork", "fork", "early", "fork"]
    for name in ("tileaa", "llvm"):
        stage = result.stage(name)
        assert stage is not None and stage.text.count("\n") > 10 and stage.line_refs


def test_a_stage_error_hands_out_the_diagnostics_before_the_texts_are_collected(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stage whose errors stop the compile: its diagnostics are final, so the early hook gets
    them at once (the editor publishes them without waiting for the printing children), and the
    stage texts still come back."""
    from tile_lsp.compiler import pipeline as pipeline_mod

    events: list[object] = []
    real_nvvm, real_join = pipeline_mod.STAGE_TABLE["nvvm"], pipeline_mod._join_prints
    assert real_nvvm.lower is not None

    def failing_nvvm(run: object) -> bool:
        ok = real_nvvm.lower(run)  # type: ignore[misc, arg-type]
        run.lctx.error(run.module, "broken on purpose")  # type: ignore[attr-defined]
        return ok

    monkeypatch.setitem(pipeline_mod.STAGE_TABLE, "nvvm", replace(real_nvvm, lower=failing_nvvm))
    monkeypatch.setattr(pipeline_mod, "_join_prints", lambda run: (events.append("join"), real_join(run)))
    monkeypatch.delenv("TILE_LSP_NO_FORK", raising=False)
    options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
    one_entry = KERNEL.with_name("layernorm.mlir")
    result = compile_source(
        SourceText(one_entry.read_text(), str(one_entry)), options, "ptx", cache=False,
        early=lambda found: events.append([d.message for d in found]),
    )
    assert events == [["broken on purpose"], "join"]
    assert [d.message for d in result.diagnostics] == ["broken on purpose"]
    for name in ("gpu", "nvvm"):
        stage = result.stage(name)
        assert stage is not None and stage.text.count("\n") > 10 and stage.line_refs


def test_while_ptxas_runs_the_ir_is_gone_and_the_texts_are_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """`pipeline.work_beside_ptxas` (the editor's worker collects its garbage there) runs once the
    stages' IR is let go (a collection then frees all of it) and the printing children are
    collected: a collection touching the pages of a live child would copy them."""
    import gc

    from xdsl.ir import Operation

    from tile_lsp.compiler import pipeline as pipeline_mod
    from tile_lsp.compiler.backend.ptxas import find_ptxas

    options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
    if find_ptxas(options) is None:
        pytest.skip("needs ptxas")
    monkeypatch.delenv("TILE_LSP_NO_FORK", raising=False)
    one_entry = KERNEL.with_name("layernorm.mlir")
    source = SourceText(one_entry.read_text(), str(one_entry))

    def live_ops() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, Operation))

    before = live_ops()
    seen: list[tuple[int, list[object]]] = []
    real_join = pipeline_mod._join_prints
    monkeypatch.setattr(pipeline_mod, "_join_prints", lambda run: (seen.append((-1, list(run.pending))), real_join(run)))
    monkeypatch.setattr(pipeline_mod, "_BESIDE_PTXAS", [lambda: seen.append((live_ops(), []))])  # (work_beside_ptxas, undone after)
    result = compile_source(source, options, "ptx", cache=False)
    assert result.ok and result.stage("cubin") is not None
    (joined, printing), (ops, _), *after = seen
    assert joined == -1 and len(printing) == 3  # gpu, nvvm and llvm printed, collected first
    assert ops <= before + 10, (before, ops)  # (the IR of the stages: thousands of ops)
    assert after == [(-1, [])]  # (the compile's own join finds nothing left)
    for name in ("gpu", "nvvm", "llvm"):
        stage = result.stage(name)
        assert stage is not None and stage.text.count("\n") > 10 and stage.line_refs


def test_where_the_ir_cannot_be_let_go_the_compile_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """`_release_ir` is only a saving: when it fails, the IR stays, and a ptxas message with no
    PTX line still lands on its kernel (CUDA 13's ptxas rejects sm_70 for the whole file)."""
    from tile_lsp.compiler import pipeline as pipeline_mod

    example = pathlib.Path(__file__).resolve().parents[2] / "examples" / "block_sum.mlir"
    text = example.read_text()
    options = CompileOptions(target=Target(70))
    plain = compile_source(SourceText(text, str(example)), options, "ptx", cache=False)
    if plain.ok:
        pytest.skip("this ptxas still accepts sm_70 (CUDA < 13)")
    real = pipeline_mod._shallow_ops
    calls: list[int] = []

    def fails_once(module: object) -> object:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("cannot walk")
        return real(module)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline_mod, "_shallow_ops", fails_once)
    kept = compile_source(SourceText(text, str(example)), options, "ptx", cache=False)
    assert len(calls) >= 2  # the release gave up; the anchor walked the module still there
    [diag] = kept.diagnostics
    assert diag.stage == "ptxas" and diag.span == plain.diagnostics[0].span
    assert SourceText(text).line_col(diag.span.start)[0] == next(
        i for i, line in enumerate(text.splitlines()) if "gpu.func @" in line
    )


def test_without_a_process_to_fork_the_stage_is_printed_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(forked.os, "fork", no_fork)
    monkeypatch.delenv("TILE_LSP_NO_FORK", raising=False)
    options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
    result = compile_source(SourceText(KERNEL.read_text(), str(KERNEL)), options, "gpu", cache=False)
    assert result.ok
    gpu = result.stage("gpu")
    assert gpu is not None and "gpu.func" in gpu.text and gpu.line_refs


def test_a_chain_after_a_collected_child_still_runs() -> None:
    first = forked.Forked(lambda: 1)
    assert first.result() == 1
    assert forked.Forked(lambda: 2, after=first).result() == 2


def test_a_cancel_stops_the_compile_at_a_checkpoint_and_its_printing_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """compiler/cancel.py: a cancel requested during the nvvm stage stops the compile at the next
    checkpoint; the children forked to print earlier stages are stopped; the next compile is whole."""
    from tile_lsp.compiler import cancel
    from tile_lsp.compiler import pipeline as pipeline_mod

    monkeypatch.delenv("TILE_LSP_NO_FORK", raising=False)
    jobs: list[forked.Forked[object]] = []
    real_init = forked.Forked.__init__

    def recording_init(self: forked.Forked[object], *args: object, **kwargs: object) -> None:
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]
        jobs.append(self)

    monkeypatch.setattr(forked.Forked, "__init__", recording_init)
    real_nvvm = pipeline_mod.STAGE_TABLE["nvvm"]
    assert real_nvvm.lower is not None

    def nvvm_then_cancel(run: object) -> bool:
        cancel.request()  # as the worker's signal handler does, mid-stage
        return real_nvvm.lower(run)  # type: ignore[misc, arg-type]

    one_entry = KERNEL.with_name("layernorm.mlir")
    source = SourceText(one_entry.read_text(), str(one_entry))
    options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
    monkeypatch.setitem(pipeline_mod.STAGE_TABLE, "nvvm", replace(real_nvvm, lower=nvvm_then_cancel))
    try:
        with pytest.raises(cancel.Cancelled):
            compile_source(source, options, "ptx", cache=False)
    finally:
        cancel.clear()
    assert jobs, "the gpu stage's printer was forked before the cancel"
    for job in jobs:
        with pytest.raises(ProcessLookupError):
            os.kill(job._pid, 0)  # stopped and reaped
    monkeypatch.setitem(pipeline_mod.STAGE_TABLE, "nvvm", real_nvvm)
    again = compile_source(source, options, "ptx", cache=False)
    monkeypatch.setenv("TILE_LSP_NO_FORK", "1")
    reference = compile_source(source, options, "ptx", cache=False)
    assert again.ok and [s.name for s in again.stages] == [s.name for s in reference.stages]
    for mine, theirs in zip(again.stages, reference.stages, strict=True):
        assert mine.text == theirs.text, mine.name
