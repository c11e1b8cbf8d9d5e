"""Features never raise, on any text: every feature function the server calls, at many
positions of mutated real kernels (tokens deleted, duplicated, swapped, inserted; deep nesting,
huge numbers, NULs, unicode), with a fixed seed, in bounded time.

TILE_LSP_FUZZ_MUTANTS=N runs N mutants instead of the CI's few (TILE_LSP_FUZZ_SEED: the seed).
"""

from __future__ import annotations

import os
import random
import time
import traceback
from collections.abc import Callable

import pytest
from mutants import HOSTILE, kernels, mutants

from tile_lsp import protocol as proto
from tile_lsp.compiler.document import DocumentAnalysis, ItemCache, analyze
from tile_lsp.compiler.source import Span
from tile_lsp.features import (
    code_actions,
    completion,
    formatting,
    hover,
    navigation,
    semantic_tokens,
    symbols,
)

MUTANTS = int(os.environ.get("TILE_LSP_FUZZ_MUTANTS", "40"))
SEED = int(os.environ.get("TILE_LSP_FUZZ_SEED", "26"))
POSITIONS = 6  # random offsets per mutant, besides 0, the end and each diagnostic's start
MUTANT_BUDGET_S = 20.0  # all features of one mutant (a quadratic blow-up on a hostile token takes minutes)


def _at_offset(doc: DocumentAnalysis, at: int, cache: ItemCache) -> list[tuple[str, Callable[[], object]]]:
    return [
        ("hover", lambda: hover.hover(doc, at, None, None)),
        ("completion", lambda: completion.complete(doc, at)),
        ("definition", lambda: navigation.definition(doc, at)),
        ("references", lambda: navigation.references(doc, at, True)),
        ("references-no-decl", lambda: navigation.references(doc, at, False)),
        ("highlight", lambda: navigation.occurrences(doc, at)),
        ("prepare-rename", lambda: navigation.prepare_rename(doc, at)),
        ("rename-value", lambda: navigation.rename(doc, at, "%renamed")),
        ("rename-symbol", lambda: navigation.rename(doc, at, "@renamed")),
        ("rename-bad", lambda: navigation.rename(doc, at, "%" + "\u00e9" * 3)),
        ("position", lambda: proto.to_range(doc.source, Span(at, at))),
        ("code-actions", lambda: code_actions.quick_fixes(doc, Span(at, min(at + 1, len(doc.source.text))), cache)),
    ]


def _whole(doc: DocumentAnalysis, text: str, cache: ItemCache) -> list[tuple[str, Callable[[], object]]]:
    return [
        ("symbols", lambda: symbols.flatten(symbols.document_symbols(doc))),
        ("folding", lambda: symbols.folding_ranges(doc)),
        ("semantic-tokens", lambda: proto.encode_semantic_tokens(doc.source, semantic_tokens.semantic_tokens(doc))),
        ("formatting", lambda: formatting.format_text(text)),
        ("code-actions-all", lambda: code_actions.quick_fixes(doc, Span(0, len(text)), cache)),
    ]


def exercise(text: str, rng: random.Random) -> list[str]:
    """Run every feature on `text`; the failures as 'feature@offset: traceback'."""
    failures: list[str] = []
    cache = ItemCache()

    def attempt(name: str, fn: Callable[[], object]) -> None:
        try:
            fn()
        except Exception:
            failures.append(f"{name}: {traceback.format_exc(limit=-4)}")

    try:
        doc = analyze(text, "fuzz.mlir", cache)
    except Exception:
        return [f"analyze: {traceback.format_exc(limit=-4)}"]
    # The front end turns its own exceptions into "internal error" diagnostics: none may appear.
    failures += [f"diagnostic: {d.message[:300]}" for d in doc.diagnostics if "internal error" in d.message]
    for name, fn in _whole(doc, text, cache):
        attempt(name, fn)
    offsets = {0, len(text), *(rng.randrange(len(text) + 1) for _ in range(POSITIONS))}
    offsets |= {min(d.span.start, len(text)) for d in doc.diagnostics[:4]}
    sigils = [i + 1 for i, c in enumerate(text) if c in "%@<:!^#("]  # where completion pops up
    offsets |= {rng.choice(sigils) for _ in range(POSITIONS)} if sigils else set()
    for at in sorted(offsets):
        for name, fn in _at_offset(doc, at, cache):
            attempt(f"{name}@{at}", fn)
    return failures


def typed(text: str, rng: random.Random) -> tuple[str, int]:
    """`text` with a `%` (or `@`) being typed at the start of a random line: (text, cursor)."""
    starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]
    at = rng.choice(starts)
    sigil = rng.choice("%@")
    return text[:at] + "  " + sigil + "\n" + text[at:], at + 3


def _run(cases: list[tuple[str, str]], seed: int) -> None:
    rng = random.Random(seed)
    problems: list[str] = []
    for name, text in cases:
        started = time.perf_counter()
        problems += [f"{name}: {f}" for f in exercise(text, rng)]
        edited, cursor = typed(text, rng)
        try:
            completion.complete(analyze(edited), cursor)
        except Exception:
            problems.append(f"{name}: completion while typing at {cursor}: {traceback.format_exc(limit=-4)}")
        took = time.perf_counter() - started
        if took > MUTANT_BUDGET_S:
            problems.append(f"{name}: features took {took:.1f} s")
    assert not problems, f"{len(problems)} failures; first:\n" + "\n".join(problems[:3])


def test_features_never_raise_on_mutated_kernels() -> None:
    _run(list(mutants(MUTANTS, SEED)), SEED)


@pytest.mark.parametrize("hostile", range(len(HOSTILE)))
def test_features_never_raise_on_each_hostile_token(hostile: int) -> None:
    """Each hostile token in a few places of one real kernel: inside a type, an op, between items."""
    name, text = next((n, t) for n, t in kernels() if n == "vector_add.mlir")
    token = HOSTILE[hostile]
    cases = []
    for anchor in ("tile<", "%", "entry", "}\n"):  # inside a type, an operand, a header, between items
        at = text.find(anchor, len(text) // 3)
        if at >= 0:
            cut = at + len(anchor)
            cases.append((f"{name}+{token[:12]!r}@{cut}", text[:cut] + token + text[cut:]))
    _run(cases, hostile)


def test_features_never_raise_on_degenerate_documents() -> None:
    texts = ["", " ", "\n", "\ufeff", "\ufeff\n", "}", "{", "%", "@", "cuda_tile.module", "entry", "\x00", "\r\n\r\n"]
    _run([(repr(t), t) for t in texts], 0)


def test_features_never_raise_on_hostile_upstream_documents() -> None:
    """gpu/nvvm MLIR goes through its own front end and hover: the same hostile tokens there."""
    base = (
        "gpu.module @m {\n  gpu.func @k(%a: f32) kernel {\n    %x:2 = \"test.op\"() : () -> (i32, i32)\n"
        "    %y = arith.addi %x#1, %x#0 : i32\n    gpu.return\n  }\n}\n"
    )
    cases = [
        ("index", base.replace("%x#1", "%x#" + "9" * 5000)),
        ("int", base.replace("%x#0 : i32", "%x#0 : i32\n    %c = arith.constant " + "9" * 5000 + " : i32")),
        ("nesting", base.replace("(i32, i32)", "(i32, " + "vector<" * 400 + "i32" + ">" * 400 + ")")),
    ]
    _run(cases, 1)
