"""Language-server latency over stdio: open and edit to diagnostics, hover and definition, for
tile-lsp on 1,000/10,000-line cuda_tile files and mlir-lsp-server 22 on a 1,000-line gpu file.

`python bench/lsp_latency.py [--edits N] [--requests N] [--json PATH] [--mlir-bin DIR]`

`--long-line`: instead, hover latency while semantic tokens run on a line of 10,000 tokens in a
file with one non-ASCII character (issue 26: they rescanned the line per token, on the loop, and
a hover waited seconds), and how fast a $/cancelRequest of semantic tokens is answered.

`--memory N`: instead, the server's RSS (/proc/<pid>/status VmRSS) over N edits typed inside one
entry of tests/data/cutile/gemm.mlir, each followed by its diagnostics and semantic tokens, with
the pipeline off (issue 26: 5,500 such edits kept 1.2 GB of old parses in the caches).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
KERNELS = ROOT / "tests" / "data" / "cutile"
GPU_OPS = SHARED / "conformance" / "mlir-upstream" / "mlir" / "test" / "Dialect" / "GPU" / "ops.mlir"
MLIR_BIN = pathlib.Path("/usr/lib/llvm-22/bin")
TIMEOUT_S = 60.0
EDIT_KERNEL = "searchsorted_"  # the entry edits go into: a name prefix (control_flow.mlir, 81 lines)

# Targets of issue 3, at 1,000 lines (milliseconds) and for the 10,000-line growth.
TARGETS = {"edit_p95_ms": 50.0, "hover_p95_ms": 10.0, "definition_p95_ms": 10.0, "edit_growth_10k": 2.0}


# --------------------------------------------------------------------------- JSON-RPC client
class LspClient:
    """A minimal LSP client over a subprocess's stdio: requests, notifications, diagnostics."""

    def __init__(self, proc: asyncio.subprocess.Process):
        self.proc = proc
        self.next_id = 0
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.published: list[tuple[float, dict[str, Any]]] = []  # (arrival time, params)
        self.notifications: list[tuple[float, str, Any]] = []  # (arrival time, method, params)
        self.diag_event = asyncio.Event()
        self.closed = False
        self.reader = asyncio.get_running_loop().create_task(self._read_loop())

    @classmethod
    async def start(cls, cmd: list[str]) -> LspClient:
        proc = await asyncio.create_subprocess_exec(
            *cmd,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            limit=1 << 26,  # some answers (whole-file diagnostics) are large
        )
        return cls(proc)

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def request(self, method: str, params: Any) -> Any:
        _, fut = self.start_request(method, params)
        return await asyncio.wait_for(fut, TIMEOUT_S)

    def start_request(self, method: str, params: Any) -> tuple[int, asyncio.Future[Any]]:
        """Send a request; its id (for $/cancelRequest) and the future of its answer."""
        self.next_id += 1
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = fut
        self._send({"id": self.next_id, "method": method, "params": params})
        return self.next_id, fut

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    async def _read_loop(self) -> None:
        try:
            while True:
                msg = await self._read_message()
                if msg is None:
                    break
                self._dispatch(msg, time.perf_counter())
        finally:  # server gone or stream garbled: fail every waiter instead of hanging
            self.closed = True
            self.diag_event.set()
            for fut in self.pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("language server closed its output"))

    async def _read_message(self) -> dict[str, Any] | None:
        """One framed JSON-RPC message; lines that are not headers (stray prints) are skipped."""
        stream = self.proc.stdout
        assert stream is not None
        length = None
        while True:
            line = await stream.readline()
            if not line:
                return None
            name, sep, value = line.strip().partition(b":")
            if sep and name.lower() == b"content-length":
                length = int(value)
            elif not line.strip() and length is not None:
                return json.loads(await stream.readexactly(length))  # type: ignore[no-any-return]

    def _dispatch(self, msg: dict[str, Any], now: float) -> None:
        if "id" in msg and "method" not in msg:  # a response
            fut = self.pending.pop(msg["id"], None)
            if fut is not None and not fut.done():
                if "error" in msg:
                    fut.set_exception(RuntimeError(str(msg["error"])))
                else:
                    fut.set_result(msg.get("result"))
        elif "id" in msg:  # a server->client request (progress, registration): accept it
            self._send({"id": msg["id"], "result": None})
        elif msg.get("method") == "textDocument/publishDiagnostics":
            self.published.append((now, msg["params"]))
            self.diag_event.set()
        elif "method" in msg:  # any other notification (tileLsp/pipelineStatus, ...)
            self.notifications.append((now, msg["method"], msg.get("params")))
            self.diag_event.set()

    async def notification(self, method: str, match: Callable[[Any], bool], since: int = 0) -> tuple[float, Any]:
        """The first `method` notification at index >= since whose params `match`."""
        deadline = time.perf_counter() + TIMEOUT_S
        while True:
            for when, got, params in self.notifications[since:]:
                if got == method and match(params):
                    return when, params
            if self.closed:
                raise ConnectionError("language server closed its output")
            self.diag_event.clear()
            await asyncio.wait_for(self.diag_event.wait(), max(0.0, deadline - time.perf_counter()))

    async def diagnostics_for(self, uri: str, version: int | None, since: int) -> tuple[float, dict[str, Any]]:
        """The first publish for `uri` at index >= since, for `version` when the server sends one."""
        deadline = time.perf_counter() + TIMEOUT_S
        while True:
            for when, params in self.published[since:]:
                got = params.get("version")
                if params["uri"] == uri and (version is None or got is None or got >= version):
                    return when, params
            if self.closed:
                raise ConnectionError("language server closed its output")
            self.diag_event.clear()
            await asyncio.wait_for(self.diag_event.wait(), max(0.0, deadline - time.perf_counter()))

    async def initialize(self) -> dict[str, Any]:
        result = await self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": None,
                "capabilities": {"textDocument": {"hover": {"contentFormat": ["markdown"]}}},
            },
        )
        self.notify("initialized", {})
        return result  # type: ignore[no-any-return]

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.request("shutdown", None), 5)
            self.notify("exit", None)
            await asyncio.wait_for(self.proc.wait(), 5)
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        self.reader.cancel()


# --------------------------------------------------------------------------- corpora
def split_entries(text: str) -> list[str]:
    """The top-level `entry` ops of a kernel file, each to the line before the next one."""
    starts = [m.start() for m in re.finditer(r"^entry\b", text, re.M)] + [len(text)]
    return [text[a:b].rstrip() + "\n" for a, b in zip(starts, starts[1:])]


def module_corpus(entries: list[str], min_lines: int, head: str = "", tail: str = "") -> str:
    """`entries` round-robin, each copy renamed (`@name_c<n>`) to stay unique, inside one
    `cuda_tile.module` until the file has at least `min_lines` lines; `head`/`tail` go outside it."""
    body: list[str] = []
    lines = 2 + head.count("\n") + tail.count("\n")
    copy = 0
    while lines < min_lines:
        entry = entries[copy % len(entries)]
        renamed = re.sub(r"^entry @([\w$.-]+)", rf"entry @\g<1>_c{copy}", entry, count=1)
        body.append("".join("  " + ln if ln.strip() else ln for ln in renamed.splitlines(keepends=True)))
        lines += renamed.count("\n")
        copy += 1
    return head + "cuda_tile.module @bench {\n" + "".join(body) + "}\n" + tail


def cuda_tile_corpus(min_lines: int) -> str:
    """Entries of the real kernels (not the generic *.g.mlir), round-robin, renamed to stay unique,
    inside one `cuda_tile.module` until the file has at least `min_lines` lines."""
    entries: list[str] = []
    for path in sorted(KERNELS.glob("*.mlir")):
        if not path.name.endswith(".g.mlir"):
            entries += split_entries(path.read_text(encoding="utf-8"))
    return module_corpus(entries, min_lines)


# `"use"(%x) : (f32) -> ()`: a result-less op of no dialect, only there to keep values alive.
_UNREGISTERED_SINK = re.compile(r'\s*"[\w$]+"\(.*->\s*\(\)\s*$')


def _top_level_items(body: list[str]) -> list[list[str]]:
    """Split a module body (2-space indented) into its top-level ops, dropping CHECK comments."""
    items: list[list[str]] = []
    for line in body:
        if re.match(r"\s*// *CHECK", line) or _UNREGISTERED_SINK.match(line):
            continue
        if re.match(r"  [a-z\"]", line) or not items:
            items.append([])
        items[-1].append(line)
    return [it for it in items if any(ln.strip() and not ln.strip().startswith("//") for ln in it)]


def _mlir_errors(mlir_opt: pathlib.Path, text: str) -> list[int]:
    """1-based lines mlir-opt reports errors on (no unregistered dialects allowed)."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    proc = subprocess.run([str(mlir_opt), f.name, "-o", "/dev/null"], capture_output=True, text=True, check=False)
    pathlib.Path(f.name).unlink()
    if proc.returncode == 0:
        return []
    found = [int(m.group(1)) for m in re.finditer(r"\.mlir:(\d+):\d+: error", proc.stderr)]
    return found or [0]


def _gpu_module(items: list[list[str]]) -> str:
    return "module attributes {gpu.container_module} {\n" + "".join("".join(it) for it in items) + "}\n"


def gpu_corpus(mlir_opt: pathlib.Path, min_lines: int) -> str:
    """Upstream GPU-dialect ops.mlir: its module's valid top-level ops (mlir-opt verifies; invalid
    ones and unregistered-dialect users are dropped), copied with renamed symbols to `min_lines`."""
    lines = GPU_OPS.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, ln in enumerate(lines) if ln.startswith("module attributes {gpu.container_module}"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("}"))
    items = _top_level_items(lines[start + 1 : end])
    while True:
        errors = _mlir_errors(mlir_opt, _gpu_module(items))
        if not errors:
            break
        items.pop(_item_of_line(items, errors[0]))
    copies: list[list[str]] = []
    n = 0
    while sum(len(it) for it in copies) + 2 < min_lines:
        copies += [[re.sub(r"@([\w$.-]+)", rf"@\1_c{n}", ln) for ln in it] for it in items]
        n += 1
    text = _gpu_module(copies)
    if _mlir_errors(mlir_opt, text):
        raise RuntimeError("the generated gpu file does not verify")
    return text


def _item_of_line(items: list[list[str]], line: int) -> int:
    at = 2  # line 1 is the module header
    for i, it in enumerate(items):
        if at <= line < at + len(it):
            return i
        at += len(it)
    return len(items) - 1


# --------------------------------------------------------------------------- positions
def _utf16(line: str, col: int) -> int:
    return len(line[:col].encode("utf-16-le")) // 2


_VALUE = re.compile(r"%[\w$.-]+")
_OP_NAME = re.compile(r"^\s*(?:%[\w$.:#, -]*?=\s*)?\"?([a-z_][\w.$]*)")


def value_uses(text: str) -> list[tuple[int, int, int]]:
    """(line, utf16 col, length) of value operands: `%x` after an op's `=` sign."""
    out = []
    for n, line in enumerate(text.splitlines()):
        eq = line.find(" = ")
        if eq < 0 or "//" in line[:eq]:
            continue
        for m in _VALUE.finditer(line, eq):
            if not line[m.end() :].lstrip().startswith(("=", ":")) or line[m.end() :].lstrip().startswith("::"):
                out.append((n, _utf16(line, m.start() + 1), m.end() - m.start()))
    return out


def op_names(text: str) -> list[tuple[int, int, int]]:
    """(line, utf16 col, length) of op-name tokens at the start of op lines."""
    out = []
    for n, line in enumerate(text.splitlines()):
        m = _OP_NAME.match(line)
        if m and "=" in line[: m.start(1)] and not line.lstrip().startswith("//"):
            out.append((n, _utf16(line, m.start(1) + 1), len(m.group(1))))
    return out


def spread(points: list[tuple[int, int, int]], count: int) -> list[tuple[int, int, int]]:
    """`count` points taken evenly over the whole list (cycling if it is short)."""
    if not points:
        return []
    step = max(1, len(points) // count)
    return [points[(i * step) % len(points)] for i in range(count)]


# --------------------------------------------------------------------------- measurement
@dataclass
class Result:
    label: str
    server: str
    lines: int
    metrics: dict[str, float] = field(default_factory=dict)
    checks: dict[str, Any] = field(default_factory=dict)


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summarize(metrics: dict[str, float], name: str, samples: list[float]) -> None:
    ms = [s * 1e3 for s in samples]
    metrics[f"{name}_p50_ms"] = statistics.median(ms)
    metrics[f"{name}_p95_ms"] = pct(ms, 0.95)
    metrics[f"{name}_max_ms"] = max(ms)


async def measure(
    label: str, cmd: list[str], text: str, edits: int, requests: int, profile: pathlib.Path | None = None
) -> Result:
    uri = f"file:///tmp/tile-lsp-bench/{label.replace(' ', '_')}.mlir"
    res = Result(label, label.split()[0], text.count("\n"))
    t0 = time.perf_counter()
    client = await LspClient.start(cmd)
    spy = None
    if profile is not None and label.startswith("tile-lsp"):
        spy = await _attach_profiler(client.proc.pid, profile / f"{label.replace(' ', '_')}.txt")
    try:
        caps = (await client.initialize()).get("capabilities", {})
        res.metrics["initialize_ms"] = (time.perf_counter() - t0) * 1e3
        sync = caps.get("textDocumentSync")
        incremental = (sync.get("change") if isinstance(sync, dict) else sync) == 2
        res.checks["incremental_sync"] = incremental
        await _open(client, uri, text, res)
        await _edits(client, uri, text, edits, incremental, res)
        await _navigation(client, uri, text, requests, res)
        await _after_parse_error(client, uri, text, edits + 3, res)
    finally:
        await client.stop()
        if spy is not None:
            await spy.wait()
    return res


async def _open(client: LspClient, uri: str, text: str, res: Result) -> None:
    since = len(client.published)
    t0 = time.perf_counter()
    client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}}
    )
    when, params = await client.diagnostics_for(uri, 1, since)
    res.metrics["open_ms"] = (when - t0) * 1e3
    res.checks["open_diagnostics"] = len(params["diagnostics"])


def _edit_point(text: str, after: int | None = None) -> tuple[int, int]:
    """A plain value operand (no `#n`) to break: (line, col just after it). In a cuda_tile corpus
    it is in the middle copy of the same kernel (EDIT_KERNEL) whatever the file's size, so 1k and
    10k lines re-parse the same entry; elsewhere just past the middle of the file (or line `after`)."""
    lines = text.splitlines()
    after = len(lines) // 2 if after is None else after
    headers = [n for n, ln in enumerate(lines) if re.match(rf"\s*entry @{EDIT_KERNEL}[\w$.-]*_c\d+\(", ln)]
    if headers:
        after = headers[len(headers) // 2]
    for line, col, length in value_uses(text):
        end = col - 1 + length
        if line >= after and not lines[line][end:].startswith(("#", ":")):
            return line, end
    raise RuntimeError("no value use to edit")


async def _edits(
    client: LspClient, uri: str, text: str, edits: int, incremental: bool, res: Result, after: int | None = None
) -> list[float]:
    """Alternately break a value name and restore it; time edit -> diagnostics of that version
    (the seconds of every edit are returned).

    Each break uses a new name (`%x` -> `%xZ7`), so it re-parses its entry as typing would; a
    restore brings back text the item cache has seen. Both are reported, and all edits together.
    """
    line, col = _edit_point(text, after)
    lines = text.splitlines(keepends=True)
    samples: dict[bool, list[float]] = {True: [], False: []}
    counts: dict[bool, set[int]] = {True: set(), False: set()}
    for i in range(edits):
        version = i + 2
        breaking = i % 2 == 0
        suffix = f"Z{i // 2}"
        if incremental:
            end = col if breaking else col + len(suffix)
            change: dict[str, Any] = {
                "range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": end}},
                "text": suffix if breaking else "",
            }
        else:
            edited = lines[line][:col] + suffix + lines[line][col:] if breaking else lines[line]
            change = {"text": "".join(lines[:line]) + edited + "".join(lines[line + 1 :])}
        since = len(client.published)
        t0 = time.perf_counter()
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
        )
        when, params = await client.diagnostics_for(uri, version, since)
        samples[breaking].append(when - t0)
        counts[breaking].add(len(params["diagnostics"]))
    summarize(res.metrics, "edit", samples[True] + samples[False])
    summarize(res.metrics, "edit_break", samples[True])
    summarize(res.metrics, "edit_restore", samples[False])
    res.checks["edit_at"] = f"line {line + 1}"
    res.checks["diagnostics_when_broken"] = sorted(counts[True])
    res.checks["diagnostics_when_restored"] = sorted(counts[False])
    if edits % 2:  # leave the document valid for the navigation requests
        await _restore(client, uri, text, edits + 2)
    return samples[True] + samples[False]


async def _restore(client: LspClient, uri: str, text: str, version: int) -> None:
    since = len(client.published)
    client.notify(
        "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}
    )
    await client.diagnostics_for(uri, version, since)


async def _navigation(client: LspClient, uri: str, text: str, requests: int, res: Result) -> None:
    uses = value_uses(text)
    ops = op_names(text)
    hover_points = [p for pair in zip(spread(ops, requests // 2), spread(uses, requests // 2)) for p in pair]
    await _timed_requests(client, uri, "textDocument/hover", hover_points, "hover", res)
    await _timed_requests(client, uri, "textDocument/definition", spread(uses, requests), "definition", res)


async def _after_parse_error(client: LspClient, uri: str, text: str, version: int, res: Result) -> None:
    """Put a parse error at the edit point, then count the hovers and definitions still answered
    over the whole file (mlir-lsp-server drops the chunk's index; tile-lsp only the broken tail)."""
    line, col = _edit_point(text)
    lines = text.splitlines(keepends=True)
    broken = "".join(lines[:line]) + lines[line][:col] + " ) " + lines[line][col:] + "".join(lines[line + 1 :])
    since = len(client.published)
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": broken}]},
    )
    _, params = await client.diagnostics_for(uri, version, since)
    res.checks["parse_error_diagnostics"] = len(params["diagnostics"])
    points = spread(value_uses(text), 100)
    for method, name in (("textDocument/hover", "hover"), ("textDocument/definition", "definition")):
        answered = 0
        for pline, pcol, _ in points:
            pos = {"line": pline, "character": pcol + (3 if pline == line and pcol > col else 0)}
            answered += bool(await client.request(method, {"textDocument": {"uri": uri}, "position": pos}))
        res.checks[f"{name}_answered_after_parse_error"] = f"{answered}/{len(points)}"


async def _timed_requests(
    client: LspClient, uri: str, method: str, points: list[tuple[int, int, int]], name: str, res: Result
) -> None:
    samples = []
    answered = 0
    for line, col, _ in points:
        params = {"textDocument": {"uri": uri}, "position": {"line": line, "character": col}}
        t0 = time.perf_counter()
        result = await client.request(method, params)
        samples.append(time.perf_counter() - t0)
        answered += bool(result)
    if samples:
        summarize(res.metrics, name, samples)
    res.checks[f"{name}_answered"] = f"{answered}/{len(points)}"


# --------------------------------------------------------------------------- a long line
LONG_LINE_OPS = 2000  # 5 semantic tokens each: a line of 10,000 tokens


def long_line_document(ops: int = LONG_LINE_OPS) -> str:
    """One entry whose body is one line of `ops` ops (MLIR needs no line breaks between ops),
    and one non-ASCII character, at the start of that line (in the first op's location)."""
    body = " ".join(f"%v{i} = addi %a, %a : tile<i32>" + (' loc("\u00e9")' if i == 0 else "") for i in range(ops))
    return "// a line of 10,000 tokens\nentry @k(%a: tile<i32>) {\n  " + body + "\n  return\n}\n"


async def measure_long_line(label: str, cmd: list[str], hovers: int) -> Result:
    """Hover latency (on a value of the long line) idle, then while semantic tokens of the whole
    file run; the tokens' own latency; the answer time of tokens cancelled at once."""
    text = long_line_document()
    uri = "file:///tmp/tile-lsp-bench/long_line.mlir"
    res = Result(label, label.split()[0], text.count("\n"))
    client = await LspClient.start(cmd)
    try:
        await client.initialize()
        await _open(client, uri, text, res)
        doc = {"textDocument": {"uri": uri}}
        hover = {**doc, "position": {"line": 2, "character": text.splitlines()[2].index("%a, %a") + 1}}
        idle = []
        for _ in range(hovers):
            t0 = time.perf_counter()
            await client.request("textDocument/hover", hover)
            idle.append(time.perf_counter() - t0)
        summarize(res.metrics, "hover_idle", idle)
        for round_ in range(3):  # the first run fills the token cache; later ones place cached tokens
            busy = []
            t0 = time.perf_counter()
            _, tokens = client.start_request("textDocument/semanticTokens/full", doc)
            await asyncio.sleep(0.005)
            while not tokens.done() or len(busy) < 1:
                h0 = time.perf_counter()
                await client.request("textDocument/hover", hover)
                busy.append(time.perf_counter() - h0)
            data = (await tokens)["data"]
            res.metrics[f"tokens_{round_}_ms"] = (time.perf_counter() - t0) * 1e3
            summarize(res.metrics, f"hover_during_tokens_{round_}", busy)
            res.checks[f"tokens_{round_}"] = len(data) // 5
            res.checks[f"hovers_during_tokens_{round_}"] = len(busy)
        # A new version (the tokens cache misses), its tokens cancelled at once.
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text.replace("%v0 ", "%w0 ", 1)}]},
        )
        t0 = time.perf_counter()
        rid, tokens = client.start_request("textDocument/semanticTokens/full", doc)
        client.notify("$/cancelRequest", {"id": rid})
        with contextlib.suppress(RuntimeError):  # the RequestCancelled error
            await asyncio.wait_for(tokens, TIMEOUT_S)
        res.metrics["cancelled_tokens_answer_ms"] = (time.perf_counter() - t0) * 1e3
        h0 = time.perf_counter()
        await client.request("textDocument/hover", hover)
        res.metrics["hover_after_cancel_ms"] = (time.perf_counter() - h0) * 1e3
    finally:
        await client.stop()
    return res


# --------------------------------------------------------------------------- memory
NO_PIPELINE = ["-m", "tile_lsp", "serve", "--no-pipeline"]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def typing_edits(text: str, count: int) -> list[tuple[int, int, str]]:
    """`count` edits (offset, characters removed, text) typed inside gemm's second entry: a
    comment at the end of one of its lines grows a character at a time, and every 40 characters
    it is deleted again in one edit; every version's entry text is one the server has not seen."""
    line_end = text.index("\n", text.index("%", text.index("\nentry", 1) + 1))
    out: list[tuple[int, int, str]] = [(line_end, 0, " //")]
    typed = 0
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    while len(out) < count:
        if typed == 40:
            out.append((line_end + 3, typed, ""))
            typed = 0
        else:
            out.append((line_end + 3 + typed, 0, alphabet[(len(out) * 7 + typed) % len(alphabet)]))
            typed += 1
    return out


async def measure_memory(label: str, cmd: list[str], count: int, every: int) -> Result:
    text = (KERNELS / "gemm.mlir").read_text(encoding="utf-8")
    uri = "file:///tmp/tile-lsp-bench/gemm_memory.mlir"
    res = Result(label, label.split()[0], text.count("\n"))
    client = await LspClient.start(cmd)
    pid = client.proc.pid
    samples: list[tuple[int, int]] = []
    try:
        await client.initialize()
        await _open(client, uri, text, res)
        doc = {"textDocument": {"uri": uri}}
        await client.request("textDocument/semanticTokens/full", doc)
        samples.append((0, rss_kib(pid)))
        t0 = time.perf_counter()
        for i, (at, removed, new) in enumerate(typing_edits(text, count), start=1):
            start = _lsp_position(text, at)
            end = _lsp_position(text, at + removed)
            text = text[:at] + new + text[at + removed :]
            since = len(client.published)
            client.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": i + 1}, "contentChanges": [{"range": {"start": start, "end": end}, "text": new}]},
            )
            await client.diagnostics_for(uri, i + 1, since)
            await client.request("textDocument/semanticTokens/full", doc)
            if i % every == 0 or i == count or i == 100:
                samples.append((i, rss_kib(pid)))
        res.metrics["seconds"] = time.perf_counter() - t0
    finally:
        await client.stop()
    by_edit = dict(samples)
    res.checks["rss_mib"] = {n: round(kib / 1024, 1) for n, kib in samples}
    if 100 in by_edit:
        res.metrics["rss_after_100_mib"] = by_edit[100] / 1024
        res.metrics[f"rss_after_{count}_mib"] = by_edit[count] / 1024
        res.metrics[f"growth_{count}_over_100"] = by_edit[count] / by_edit[100]
    return res


def _lsp_position(text: str, offset: int) -> dict[str, int]:
    line = text.count("\n", 0, offset)  # (gemm.mlir: ASCII, "\n" only)
    return {"line": line, "character": offset - (text.rfind("\n", 0, offset) + 1)}


def print_long_line(r: Result) -> None:
    print(f"{r.label}: a {r.checks['tokens_0']}-token line, one non-ASCII character (milliseconds)")
    for k, v in r.metrics.items():
        print(f"  {k:36s} {v:10.2f}")
    print("  " + ", ".join(f"{k}={v}" for k, v in r.checks.items()))


# --------------------------------------------------------------------------- report
def print_table(results: list[Result]) -> None:
    cols = ["open_ms", "edit_p50_ms", "edit_p95_ms", "edit_break_p50_ms", "edit_break_p95_ms", "edit_restore_p95_ms"]
    cols += ["hover_p50_ms", "hover_p95_ms", "definition_p50_ms", "definition_p95_ms"]
    heads = [
        "open",
        "edit p50",
        "edit p95",
        "break p50",
        "break p95",
        "rest. p95",
        "hover p50",
        "hover p95",
        "def p50",
        "def p95",
    ]
    print(f"{'scenario':34s} {'lines':>6s} " + " ".join(f"{h:>9s}" for h in heads) + "   (milliseconds)")
    for r in results:
        vals = " ".join(f"{r.metrics[c]:9.2f}" if c in r.metrics else f"{'-':>9s}" for c in cols)
        print(f"{r.label:34s} {r.lines:6d} {vals}")
    print()
    for r in results:
        print(f"{r.label}: " + ", ".join(f"{k}={v}" for k, v in r.checks.items()))


def verdicts(by_label: dict[str, Result]) -> dict[str, Any]:
    """Each target met or missed, and the ratios tile-lsp / mlir-lsp-server at 1,000 lines."""
    out: dict[str, Any] = {}
    small, big, mlir = by_label.get("tile-lsp 1k"), by_label.get("tile-lsp 10k"), by_label.get("mlir-lsp-server 1k")
    checks = [("edit_p95_ms", "edit_p95_ms"), ("edit_break_p95_ms", "edit_p95_ms")]
    checks += [("hover_p95_ms", "hover_p95_ms"), ("definition_p95_ms", "definition_p95_ms")]
    if small is not None:
        for key, target in checks:
            value = small.metrics[key]
            out[key] = {"value": value, "target": TARGETS[target], "met": value <= TARGETS[target]}
    if small is not None and big is not None:
        for key in ("edit_p50_ms", "edit_p95_ms", "edit_break_p50_ms", "edit_break_p95_ms"):
            growth = big.metrics[key] / small.metrics[key]
            out[f"growth_10k_{key}"] = {
                "value": growth,
                "target": TARGETS["edit_growth_10k"],
                "met": growth <= TARGETS["edit_growth_10k"],
            }
    if small is not None and mlir is not None:
        out["ratio_tile_over_mlir"] = {
            k: small.metrics[k] / mlir.metrics[k] for k in small.metrics if k in mlir.metrics and mlir.metrics[k] > 0
        }
    return out


def print_verdicts(v: dict[str, Any], mlir_note: str | None) -> None:
    print()
    for key, d in v.items():
        if key.startswith("growth_10k_"):
            what = key.removeprefix("growth_10k_").removesuffix("_ms")
            print(f"target {what} 10k/1k <= {d['target']:.0f}x: {d['value']:.2f}x  {'MET' if d['met'] else 'MISSED'}")
        elif key != "ratio_tile_over_mlir":
            print(
                f"target {key} <= {d['target']:.0f} at 1k lines: {d['value']:.2f} ms  {'MET' if d['met'] else 'MISSED'}"
            )
    if "ratio_tile_over_mlir" in v:
        print("tile-lsp 1k / mlir-lsp-server 1k (below 1: tile-lsp faster):")
        for k, r in v["ratio_tile_over_mlir"].items():
            print(f"  {k:22s} {r:6.2f}x")
    if mlir_note:
        print(mlir_note)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    ours = [sys.executable, "-m", "tile_lsp", "serve"]
    if args.memory:
        cmd = [sys.executable, *NO_PIPELINE]
        found = await measure_memory("tile-lsp memory", cmd, args.memory, args.every)
        print(f"{found.label}: RSS (MiB) after N edits inside one gemm entry: {found.checks['rss_mib']}")
        for k, v in found.metrics.items():
            print(f"  {k:24s} {v:10.2f}")
        return {"results": [found.__dict__]}
    if args.long_line:
        found = await measure_long_line("tile-lsp long line", ours, args.hovers)
        print_long_line(found)
        return {"results": [found.__dict__]}
    scenarios: list[tuple[str, list[str], str]] = [
        ("tile-lsp 1k", ours, cuda_tile_corpus(1000)),
        ("tile-lsp 10k", ours, cuda_tile_corpus(10000)),
    ]
    mlir_note = None
    server, opt = args.mlir_bin / "mlir-lsp-server", args.mlir_bin / "mlir-opt"
    if server.exists() and opt.exists() and GPU_OPS.exists():
        scenarios.append(("mlir-lsp-server 1k", [str(server)], gpu_corpus(opt, 1000)))
    else:
        missing = [str(p) for p in (server, opt, GPU_OPS) if not p.exists()]
        mlir_note = (
            "mlir-lsp-server not measured: missing "
            + ", ".join(missing)
            + " (install Debian's mlir-22-tools: apt-get install -y mlir-22-tools)"
        )
    if args.only:
        scenarios = [sc for sc in scenarios if args.only in sc[0]]
    if args.save_corpus:
        args.save_corpus.mkdir(parents=True, exist_ok=True)
        for label, _, text in scenarios:
            (args.save_corpus / f"{label.replace(' ', '_')}.mlir").write_text(text, encoding="utf-8")
    results = [
        await measure(label, cmd, text, args.edits, args.requests, args.profile) for label, cmd, text in scenarios
    ]
    print_table(results)
    v = verdicts({r.label: r for r in results})
    print_verdicts(v, mlir_note)
    return {
        "results": [r.__dict__ for r in results],
        "verdicts": v,
        "mlir_lsp_server": mlir_note or str(server),
        "edits": args.edits,
        "requests": args.requests,
    }


async def _attach_profiler(pid: int, out: pathlib.Path) -> asyncio.subprocess.Process:
    """py-spy sampling the server process into collapsed stacks (flamegraph.pl input)."""
    spy = pathlib.Path(sys.executable).with_name("py-spy")
    out.parent.mkdir(parents=True, exist_ok=True)
    return await asyncio.create_subprocess_exec(
        str(spy),
        "record",
        "--format",
        "raw",
        "--rate",
        "1000",
        "--output",
        str(out),
        "--pid",
        str(pid),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


def main() -> int:
    global TIMEOUT_S
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--edits", type=int, default=120, help="edits per file (alternately break/restore)")
    ap.add_argument("--requests", type=int, default=240, help="hover and definition requests per file")
    ap.add_argument("--json", type=pathlib.Path, help="write the results as JSON here")
    ap.add_argument("--mlir-bin", type=pathlib.Path, default=MLIR_BIN, help="where mlir-lsp-server and mlir-opt are")
    ap.add_argument("--save-corpus", type=pathlib.Path, help="write the generated files into this folder")
    ap.add_argument("--only", help="run only the scenarios whose label contains this (e.g. '10k')")
    ap.add_argument("--profile", type=pathlib.Path, help="record py-spy stacks of tile-lsp into this folder")
    ap.add_argument("--long-line", action="store_true", help="only: hovers while semantic tokens run on a 10,000-token line")
    ap.add_argument("--hovers", type=int, default=20, help="idle hovers of --long-line")
    ap.add_argument("--timeout", type=float, default=TIMEOUT_S, help="seconds to wait for one answer")
    ap.add_argument("--memory", type=int, metavar="N", help="only: the server's RSS over N edits inside one gemm entry")
    ap.add_argument("--every", type=int, default=250, help="RSS sample every this many edits of --memory")
    args = ap.parse_args()
    TIMEOUT_S = args.timeout
    report = asyncio.run(run(args))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
