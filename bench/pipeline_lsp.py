"""The background pipeline in the language server, over stdio: open -> stage diagnostics (cold
and warm), edit -> stage diagnostics, tileLsp/viewStage ptx (fresh and cached), code lenses, and
definition latency while a compile runs.

`python bench/pipeline_lsp.py [--edits N] [--file examples/block_sum.mlir]`
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("lsp_latency", ROOT / "bench" / "lsp_latency.py")
assert _spec is not None and _spec.loader is not None
lsp_latency = importlib.util.module_from_spec(_spec)
sys.modules["lsp_latency"] = lsp_latency
_spec.loader.exec_module(lsp_latency)
LspClient = lsp_latency.LspClient

KERNEL = ROOT / "examples" / "block_sum.mlir"
SERVER = [sys.executable, "-m", "tile_lsp", "serve"]


def _ms(values: list[float]) -> str:
    if not values:
        return "-"
    return f"median {statistics.median(values) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms (n={len(values)})"


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--edits", type=int, default=10)
    ap.add_argument("--file", type=pathlib.Path, default=KERNEL)
    ap.add_argument("--server", nargs="+", default=SERVER, help="the server command (default: python -m tile_lsp serve)")
    args = ap.parse_args()
    text = args.file.read_text()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="tile-lsp-bench-"))
    path = tmp / args.file.name
    path.write_text(text)
    uri = path.as_uri()

    client = await LspClient.start(args.server)
    result = await client.request(
        "initialize",
        {"processId": None, "rootUri": None, "capabilities": {}, "initializationOptions": {"gpuName": "sm_90a"}},
    )
    assert result is not None
    client.notify("initialized", {})

    started = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
    ptx = await client.request("tileLsp/viewStage", {"uri": uri, "stage": "ptx"})
    cold = time.perf_counter() - started
    assert ".entry" in ptx["output"], ptx["output"][:500]

    cached = []
    for _ in range(5):
        t = time.perf_counter()
        await client.request("tileLsp/viewStage", {"uri": uri, "stage": "ptx"})
        cached.append(time.perf_counter() - t)

    edits, during = [], []
    lines = text.splitlines(keepends=True)
    for i in range(args.edits):
        version = i + 2
        since = len(client.published)
        lines.append(f"// edit {i}\n")  # a comment: every entry comes from the per-entry cache (moved)
        new_text = "".join(lines)
        t = time.perf_counter()
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": new_text}]},
        )
        lenses_task = asyncio.ensure_future(client.request("textDocument/codeLens", {"textDocument": {"uri": uri}}))
        # Definition requests while the compile runs.
        while not lenses_task.done():
            d0 = time.perf_counter()
            await client.request(
                "textDocument/definition",
                {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}},
            )
            during.append(time.perf_counter() - d0)
            await asyncio.sleep(0.01)
        lenses = lenses_task.result()
        edits.append(time.perf_counter() - t)
        await client.diagnostics_for(uri, version, since)
    print(f"file: {args.file} ({len(text.splitlines())} lines)")
    print(f"cold: open -> viewStage ptx (fork server + warm worker + compile): {cold * 1000:.0f} ms")
    print(f"viewStage ptx, cached: {_ms(cached)}")
    print(f"edit -> code lenses of the new version (its compile): {_ms(edits)}")
    print(f"definition while compiling: {_ms(during)}")
    print(f"lenses: {[lens['command']['title'] for lens in (lenses or [])]}")
    await client.request("shutdown", None)
    client.notify("exit", None)


if __name__ == "__main__":
    asyncio.run(main())
