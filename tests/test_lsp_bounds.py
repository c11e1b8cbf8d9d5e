"""Issue 26's bounds on the language server's work and memory, below the protocol:

- time: LSP position conversion, semantic tokens (and their LSP encoding) and `type_at` are
  linear in a line's length, also with non-ASCII characters on it (they rescanned the line per
  token or per position: one "é" and a 10,000-token line took seconds, on the event loop);
- stale work: the background analysis of a superseded version stops at its next item;
- memory: the item cache keeps the open documents' items and at most a budget of the rest,
  and semantic tokens are cached only while their parse lives.
"""

from __future__ import annotations

import gc
import pathlib
import threading
import time
from collections.abc import Callable

from tile_lsp import protocol
from tile_lsp.compiler import document as document_module
from tile_lsp.compiler.document import ItemCache, analyze
from tile_lsp.compiler.source import SourceText
from tile_lsp.features import index, semantic_tokens
from tile_lsp.session import Session

GEMM = (pathlib.Path(__file__).resolve().parent / "data" / "cutile" / "gemm.mlir").read_text(encoding="utf-8")


def _fastest(run: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return best


def _growth(run: Callable[[int], object], small: int, factor: int = 4) -> float:
    """Time at `factor` x the size over time at the size (linear: ~factor; quadratic: ~factor²)."""
    run(small)  # (warm up)
    return _fastest(lambda: run(small * factor)) / max(_fastest(lambda: run(small)), 1e-6)


def _long_line(ops: int) -> str:
    """One entry whose body is a single line of `ops` ops, a non-ASCII character (in the first
    op's location) and an emoji (2 UTF-16 units, 4 UTF-8 bytes) at its start."""
    body = " ".join(f"%v{i} = addi %a, %a : tile<i32>" + (' loc("é\U0001f600")' if i == 0 else "") for i in range(ops))
    return "entry @k(%a: tile<i32>) {\n  " + body + "\n  return\n}\n"


def test_lsp_positions_are_linear_in_the_line():
    def convert_all(n: int) -> None:
        text = "\U0001f600é" + "x" * n
        source = SourceText(text)
        for offset in range(0, len(text), 7):
            line, col = source.lsp_position(offset, "utf-16")
            source.lsp_offset(line, col, "utf-8")

    assert _growth(convert_all, 20_000) < 8


def test_semantic_tokens_are_linear_in_a_long_non_ascii_line():
    docs = {n: analyze(_long_line(n)) for n in (300, 1200)}
    assert not any(d.is_error for d in docs[1200].diagnostics)

    def tokens(n: int) -> None:
        semantic_tokens.clear_cache()  # the whole path: lexing, classifying, placing, encoding
        doc = docs[n]
        for encoding in ("utf-16", "utf-8"):
            protocol.encode_semantic_tokens(doc.source, semantic_tokens.semantic_tokens(doc), encoding)

    assert len(semantic_tokens.semantic_tokens(docs[1200])) > 5 * 1200
    ratio = _fastest(lambda: tokens(1200)) / _fastest(lambda: tokens(300))
    assert ratio < 8, ratio


def test_semantic_tokens_encode_columns_of_the_negotiated_encoding():
    doc = analyze(_long_line(3))
    line = doc.source.text.splitlines()[1]
    data = protocol.encode_semantic_tokens(doc.source, semantic_tokens.semantic_tokens(doc), "utf-8")
    decoded, row, col = [], 0, 0
    for i in range(0, len(data), 5):
        row, col = row + data[i], (col + data[i + 1] if data[i] == 0 else data[i + 1])
        if row == 1:
            raw = line.encode("utf-8")[col : col + data[i + 2]].decode("utf-8")
            decoded.append(raw)
    assert decoded[-5:] == ["%v2", "addi", "%a", "%a", "tile<i32>"]


def test_type_at_is_linear_in_the_line():
    """A cursor after a deeply nested type: each nested type was matched and scanned again."""

    def hover_after(n: int) -> None:
        doc = analyze("// " + "tile<" * n + "f32" + ">" * n + " then tile<i32> and more\n")
        end = len(doc.source.text) - 1
        for offset in range(end - 20, end):
            index.type_at(doc, offset)

    assert index.type_at(analyze("// tile<tile<f32>> x tile<i32>\n"), 24) is not None
    assert _growth(hover_after, 500) < 8


def test_a_superseded_versions_background_analysis_stops_at_its_next_item(monkeypatch):
    """Background work (Snapshot.analysis_unless_superseded) on a version a newer one replaced
    stops before its next item parse; a request's `analysis` of the same version finishes."""
    text = "\n".join(GEMM.replace("entry @gemm", f"entry @gemm{i}_") for i in range(6))
    session = Session()
    snap = session.update("file:///k.mlir", 1, text, "/k.mlir")
    parsed = []
    real = document_module.parse_chunk

    def slow_parse(*args, **kwargs):  # type: ignore[no-untyped-def]
        parsed.append(1)
        if len(parsed) == 2:
            session.update("file:///k.mlir", 2, text + "\n", "/k.mlir")  # the user typed meanwhile
        return real(*args, **kwargs)

    monkeypatch.setattr(document_module, "parse_chunk", slow_parse)
    assert snap.analysis_unless_superseded() is None
    assert len(parsed) == 2  # (of 24 entries)
    assert snap.analysis_unless_superseded() is None  # superseded: not even started again
    assert len(parsed) == 2
    assert len(snap.analysis.items) == 24  # a request on it still gets its answer


def test_item_cache_keeps_the_open_documents_items_and_a_budget_of_the_rest():
    session = Session()
    session.cache = cache = ItemCache(budget=2 << 20)
    uri = "file:///gemm.mlir"
    entries = GEMM.count("\nentry ") + 1
    text = GEMM
    marker = text.index("\n", text.index("%", text.index("\nentry", 1) + 1))  # a line of the 2nd entry
    for version in range(1, 120):
        text = text[:marker] + f" // {version}" + text[text.index("\n", marker) :]
        analysis = session.update(uri, version, text, "/gemm.mlir").analysis
        assert analysis.reparsed == (entries if version == 1 else 1)  # the other entries: cached
        assert cache.unpinned_bytes <= cache.budget
    assert len(cache) < 20  # 119 versions of one entry: most are gone
    # Closing the document unpins its items: only the budget's worth stays.
    session.close(uri)
    assert cache.unpinned_bytes <= cache.budget
    # An entry pinned by an open document is never dropped, however small the budget.
    session.cache = tiny = ItemCache(budget=0)
    analysis = session.update(uri, 1, GEMM, "/gemm.mlir").analysis
    again = analyze(GEMM, cache=tiny)
    assert again.reparsed == 0 and [i.result for i in again.items] == [i.result for i in analysis.items]
    session.close(uri)
    assert len(tiny) == 0


def test_semantic_tokens_are_cached_only_while_their_parse_lives():
    semantic_tokens.clear_cache()
    cache = ItemCache(budget=0)  # keeps nothing nobody pins
    for n in range(50):
        doc = analyze(GEMM.replace("%0 = make_token", f"%t{n} = make_token", 1), cache=cache)
        semantic_tokens.semantic_tokens(doc)
    del doc
    cache.trim()  # (the last analysis's items: released, dropped at the next put; now)
    gc.collect()
    entries, size = semantic_tokens.cache_stats()
    assert entries == 0 and size == 0


def test_item_cache_is_thread_safe_under_concurrent_pins_and_puts():
    cache = ItemCache(budget=1 << 20)
    docs = [GEMM.replace("%0 = make_token", f"%t{n} = make_token", 1) for n in range(4)]
    errors: list[BaseException] = []

    def worker(k: int) -> None:
        try:
            for n in range(6):
                doc = analyze(docs[(k + n) % 4] + f"// {k} {n}\n", cache=cache)
                cache.pin(f"doc{k}", n, [i.result for i in doc.items])
            cache.unpin(f"doc{k}")
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert 0 <= cache.unpinned_bytes <= cache.budget
    assert cache.unpinned_bytes == sum(cache.estimate(k) for k in cache._data)  # the tally is exact


async def test_notifications_leave_no_state_behind_in_pygls():
    """pygls keeps the future of every notification its generator builtins handle, forever
    (~1 KB a didChange); the server's own didOpen/didChange/didClose must not go through them."""
    import json

    from tile_lsp import server as server_module

    class Sink:
        def write(self, data: object) -> None:
            pass

        def close(self) -> None:
            pass

    server = server_module.TileServer()
    proto = server.ls.protocol
    proto.set_writer(Sink())  # type: ignore[arg-type]

    def send(message: dict[str, object]) -> None:
        proto.handle_message(json.loads(json.dumps({"jsonrpc": "2.0", **message}), object_hook=proto.structure_message))

    send({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}})
    send({"method": "initialized", "params": {}})
    uri = "file:///tmp/leak.mlir"
    text = "entry @k(%a: tile<i32>) {\n  return\n}\n"
    send({"method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}}})
    before = len(proto._request_futures)
    for version in range(2, 202):
        where = {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}
        send({"method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": where, "text": " "}]}})
    send({"method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
    assert len(proto._request_futures) - before <= 1
    for task in list(server.host.pending.values()):
        task.cancel()
    server.host.analysis_pool.shutdown(wait=True)
