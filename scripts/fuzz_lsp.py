#!/usr/bin/env python3
"""Fuzz the language server as a real LSP client: random edits of real kernels, every request
interleaved at random, and checks of what comes back.

It starts `tile-lsp serve` (stdio) as a subprocess and talks JSON-RPC to it with its own small
asyncio client (exact control of timing and of `$/cancelRequest`; it answers the server's own
requests: workspace/configuration, window/workDoneProgress/create, client/registerCapability,
window/showDocument, workspace/applyEdit, ...). Each kernel is opened as a document, with the
pipeline on (initializationOptions {"gpuName": "sm_90a"}, `--no-pipeline`: no target, so no
compile), and edited by INCREMENTAL didChange notifications whose ranges the client computes
from its own model of the text: LSP line breaks (\\n, \\r\\n, \\r only) and UTF-16 columns.

Edits: characters, words, whole lines inserted/deleted/duplicated, blocks pasted from other
kernels, a duplicated entry, a deleted brace, an op typed character by character (with
completions as an editor asks for them), undo of the last edits, reverts to an earlier text,
line breaks of every kind (\\n \\r\\n \\r \\f \\v \\x85 \\u2028 \\u2029), tabs, non-ASCII and non-BMP
characters, NUL, deep nesting, huge numbers, several changes in one notification, and the
server's own rename/formatting/quick-fix edits applied as an editor applies them. Between them:
hover, completion, definition, references, documentHighlight, prepareRename+rename,
documentSymbol, workspace/symbol, foldingRange, semanticTokens/full, formatting, codeAction,
codeLens, implementation, tileLsp/viewStage, didSave; some requests get a `$/cancelRequest`.

Checks (each a count, with samples):
  crash             the server process exited during the run
  error_response    a JSON-RPC error that is not RequestCancelled/ContentModified for a
                    request we cancelled, nor ContentModified for a request whose document
                    was edited after it was sent (counted in the table's "modif" column)
  unanswered        a request not answered within --request-timeout (default 30 s)
  handler_exception a traceback/"Error" in window/logMessage, window/showMessage or stderr
  invalid_range     a range in a response or a publish that is not a position of the text the
                    request was made on (LSP line breaks, UTF-16 columns)
  stale_publish     publishDiagnostics of an older version after a newer one
  text_mismatch     the server's text differs from the client's. The server has no request that
                    returns its text, so every --check-every edits (and at the end) the client
                    asks for semanticTokens/full, documentSymbol, foldingRange and formatting and
                    compares them with the same features (tile_lsp.features, in this process)
                    over the client's own text: any drift moves or changes a token, a symbol's
                    range or the formatted text. Where the server answers `tileLsp/documentText`
                    ({uri} -> {uri, version, text}, a debug request), its text is compared
                    exactly. A mismatch is located by replaying the document's changes into
                    pygls's TextDocument (what the server applies them with): the first change
                    after which that text differs from the client's is the reproduction.
  final_diagnostics the last publish of each document's final version (pipeline settled) is not
                    what `tile-lsp check --format json` reports for the final text (plus, for a
                    final text without front-end errors, `tile-lsp compile --format json`'s
                    stage diagnostics), compared as (offset, severity, message) sets
  not_settled       no publish / no finished pipeline status for a final version
  exit              the server did not exit after shutdown/exit, or left processes behind
Measured (flags, not failures unless --strict): per-method latency (count, p50, p95, max; flag
p95 > 100 ms or max > 2 s, formatting exempt; the "after" columns: p95 and max of the requests
sent --warmup seconds or more into the run, past the documents' opening, the worker pool's
start and the first compiles), the server's VmRSS at start, after the first 100
edits and at the end (flag end > 1.5x after-100), and its descendant processes.

    .venv/bin/python scripts/fuzz_lsp.py --seed 1 --edits 2000 --json out.json
    .venv/bin/python scripts/fuzz_lsp.py --kernels vector_add,row_softmax --edits 300 --burst

Exit status: 0 when no failure was found, 1 otherwise (--strict: flags count too).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import dataclasses
import json
import os
import pathlib
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
CUTILE = ROOT / "tests" / "data" / "cutile"
NVIDIA = ROOT.parent / "shared" / "kernels" / "nvidia"
DEFAULT_KERNELS = ("attention", "gemm", "layernorm", "row_softmax", "vector_add")

LINE_BREAKS = ["\n", "\r\n", "\r", "\f", "\v", "\x85", "\u2028", "\u2029"]
ODD_CHARS = ["\t", "\x00", "é", "ß", "中", "\u0301", "\ufeff", "😀", "🚀", "𝔸", "👩\u200d💻", "\x1b", "\u200b", "\x7f", "\x1c"]
PUNCT = list("%@<>{}()[]:,=!-+*/.\"'#?^$ ") + ["//", "->", "x", "_", "0", "1", "9"]
HUGE = [
    "1" * 400, "0x" + "f" * 80, "1e400", "-1e999", "340282366920938463463374607431768211457", "<i64: 99999999999999999999999>",
    "<f32: 1e39>", "<i8: -129>", "<f16: 65520.0>", "<i32: 0x1ffffffff>", "9" * 40 + ".5",
]
NEST = ["(" * 300, "[" * 300, "{" * 200, "tile<" * 120, "<" * 400 + ">" * 400, "[" * 150 + "]" * 150, "((((" * 60 + "))))" * 60]
WORDS_EXTRA = [
    "entry", "global", "cuda_tile.module", "tile", "ptr", "token", "f32", "f16", "bf16", "i1", "i32", "i64", "tf32",
    "f8E4M3FN", "tensor_view", "partition_view", "iteration", "yield", "continue", "break", "if", "else", "for", "loop",
    "in", "to", "step", "iter_values", "optimization_hints", "div_by", "bounded", "weak", "relaxed", "acquire",
    "release", "device", "sm_90a", "loc(", "#loc", "^bb0", "%", "@", "%0", "%arg0", "@kernel", "dense<1.0>",
    "tile<128x64xf32>", "tile<?xi32>", "<f32: 1.0>", "<i32: [1, 2, 3]>", "-> tile<f32>", ": tile<i32>",
]
# Pipeline stages of the language server's own diagnostics; everything else is the front end's.
PIPELINE_SOURCES = {f"tile-lsp({s})" for s in ("tileaa", "gpu", "nvvm", "llvm", "llvm-ir", "ptx", "cubin")}
SEVERITY = {"error": 1, "warning": 2, "note": 3, "remark": 4}
CANCELLED_CODES = (-32800, -32801)  # RequestCancelled, ContentModified
CONTENT_MODIFIED = -32801
LATENCY_EXEMPT = {"textDocument/formatting", "initialize", "shutdown"}
# These answer from the finished compile of the version, waiting for it when it is not cached.
WAITS_FOR_COMPILE = {"textDocument/codeLens", "tileLsp/viewStage", "textDocument/implementation"}
RENAME_REFUSALS = ("is not a valid", "is already defined", "already exists", "nothing to rename here")
_BREAK = re.compile(r"\r\n|\r|\n")
_WORD = re.compile(r"[%@^#]?[A-Za-z_][\w.$]*|\d[\w.]*")
# pygls's own lines before a traceback it logs (the traceback is what is recorded)
_PYGLS_HEADER = re.compile(r"^(Exception occurred for message|Failed to handle (request|notification)|Cancel notification for unknown)")
_TRACE_LINE = re.compile(r'File "([^"]+)", line (\d+), in (\w+)')


# -- the client's model of a text: LSP positions ---------------------------------------------
class Lines:
    """LSP's view of a text: lines end at \\n, \\r\\n or \\r; columns count UTF-16 code units."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]

    def content_end(self, line: int) -> int:
        if line + 1 >= len(self.starts):
            return len(self.text)
        nxt = self.starts[line + 1]
        return nxt - (2 if self.text[nxt - 2 : nxt] == "\r\n" else 1)

    def position(self, offset: int) -> dict[str, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        seg = self.text[self.starts[line] : offset]
        return {"line": line, "character": len(seg) + sum(1 for c in seg if ord(c) > 0xFFFF)}

    def utf16_len(self, line: int) -> int:
        seg = self.text[self.starts[line] : self.content_end(line)]
        return len(seg) + sum(1 for c in seg if ord(c) > 0xFFFF)

    def offset(self, line: int, character: int) -> int | None:
        """The offset of a position, or None when it is not a position of this text (a line past
        the end, a column past the line's end or inside a surrogate pair)."""
        if line < 0 or character < 0 or line >= len(self.starts):
            return None
        start, end = self.starts[line], self.content_end(line)
        units = 0
        for i in range(start, end):
            if units == character:
                return i
            if units > character:
                return None
            units += 2 if ord(self.text[i]) > 0xFFFF else 1
        return end if units == character else None

    def valid(self, pos: Any) -> bool:
        return isinstance(pos, dict) and self.offset(pos.get("line", -1), pos.get("character", -1)) is not None


def snap(text: str, offset: int, forward: bool = False) -> int:
    """An offset that is not between the \\r and \\n of a \\r\\n (no LSP position is there)."""
    offset = max(0, min(offset, len(text)))
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        return offset + 1 if forward else offset - 1
    return offset


def minimal_change(old: str, new: str) -> tuple[int, int, str]:
    """One change (start, end, text) turning `old` into `new`: the common prefix and suffix kept."""
    p = 0
    limit = min(len(old), len(new))
    while p < limit and old[p] == new[p]:
        p += 1
    s = 0
    while s < limit - p and old[len(old) - 1 - s] == new[len(new) - 1 - s]:
        s += 1
    start, end = snap(old, p), snap(old, len(old) - s, forward=True)
    delta = len(new) - len(old)
    return start, end, new[start : end + delta]


def product_lines(text: str) -> list[int]:
    """Line starts of the server's own position model (tile_lsp SourceText: \\n only)."""
    return [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


# -- processes ----------------------------------------------------------------------------
def rss_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _stat(pid: int) -> tuple[int, int, str] | None:
    """(ppid, start time, command name) of a process."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            raw = f.read()
    except OSError:
        return None
    name = raw[raw.index("(") + 1 : raw.rindex(")")]
    fields = raw[raw.rindex(")") + 2 :].split()
    return int(fields[1]), int(fields[19]), name


def descendants(pid: int) -> dict[int, tuple[int, str]]:
    """Every descendant of `pid`: {pid: (start time, name)}."""
    children: dict[int, list[int]] = defaultdict(list)
    info: dict[int, tuple[int, str]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None:
                children[st[0]].append(int(entry))
                info[int(entry)] = (st[1], st[2])
    out: dict[int, tuple[int, str]] = {}
    todo = list(children.get(pid, []))
    while todo:
        p = todo.pop()
        if p in info and p not in out:
            out[p] = info[p]
            todo.extend(children.get(p, []))
    return out


# -- the JSON-RPC client ----------------------------------------------------------------------
@dataclasses.dataclass
class Pending:
    id: int
    method: str
    params: Any
    sent: float
    uri: str | None
    version: int | None
    texts: dict[str, str]  # uri -> the client's text when the request was sent
    future: asyncio.Future[Any]
    cancel_sent: bool = False
    answered: float | None = None
    flagged_unanswered: bool = False


class Client:
    def __init__(self, command: list[str], env: dict[str, str], cwd: str, fuzz: Fuzzer) -> None:
        self.command, self.env, self.cwd, self.fuzz = command, env, cwd, fuzz
        self.proc: asyncio.subprocess.Process | None = None
        self.next_id = 1
        self.pending: dict[int, Pending] = {}
        self.write_lock = asyncio.Lock()
        self.tasks: list[asyncio.Task[None]] = []
        self.stderr: list[str] = []
        self.closed = asyncio.Event()
        self.last_log: dict[str, Any] | None = None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self.env, cwd=self.cwd, limit=1 << 24,
        )
        self.tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._read_stderr())]

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def _write(self, message: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        async with self.write_lock:
            if self.proc.stdin.is_closing():
                return
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            with contextlib.suppress(ConnectionError):
                await self.proc.stdin.drain()

    async def notify(self, method: str, params: Any) -> None:
        await self._write({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: Any, *, uri: str | None = None, version: int | None = None,
                      texts: dict[str, str] | None = None) -> Pending:
        rid = self.next_id
        self.next_id += 1
        pending = Pending(rid, method, params, time.monotonic(), uri, version, texts or {}, asyncio.get_running_loop().create_future())
        self.pending[rid] = pending
        await self._write({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return pending

    async def cancel(self, pending: Pending) -> None:
        if pending.answered is None:
            pending.cancel_sent = True
            await self.notify("$/cancelRequest", {"id": pending.id})

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = await out.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.decode("ascii", "replace").partition(":")
                    if name.lower() == "content-length":
                        length = int(value.strip())
                if length is None:
                    continue
                body = await out.readexactly(length)
                try:
                    message = json.loads(body.decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                    self.fuzz.fail("protocol", {"what": f"undecodable message: {exc}", "body": body[:400].decode("utf-8", "replace")})
                    continue
                self._dispatch(message)
        except (asyncio.IncompleteReadError, ConnectionError):
            return
        finally:
            self.closed.set()

    async def _read_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        while True:
            line = await self.proc.stderr.readline()
            if not line:
                break
            text = line.decode("utf-8", "replace").rstrip("\n")
            self.stderr.append(text)
            if len(self.stderr) > 20000:
                del self.stderr[:10000]
            self.fuzz.stderr_line(text)

    def _dispatch(self, message: dict[str, Any]) -> None:
        if "id" in message and "method" not in message:  # a response
            pending = self.pending.pop(message["id"], None)
            if pending is None:
                return
            pending.answered = time.monotonic()
            self.fuzz.answered(pending, message)
            if not pending.future.done():
                pending.future.set_result(message)
            return
        method = message.get("method", "")
        if "id" in message:  # the server's request
            asyncio.ensure_future(self._answer(message))
            return
        self.fuzz.notification(method, message.get("params"))

    async def _answer(self, message: dict[str, Any]) -> None:
        method, params = message["method"], message.get("params") or {}
        self.fuzz.server_requests[method] += 1
        result: Any = None
        if method == "workspace/configuration":
            result = [self.fuzz.settings if (item.get("section") or "").startswith("tileLsp") else None for item in params.get("items", [])]
        elif method == "window/showDocument":
            result = {"success": False}
        elif method == "workspace/applyEdit":
            result = {"applied": False, "failureReason": "the fuzzer applies no server-initiated edits"}
        elif method == "window/showMessageRequest":
            result = None
        # window/workDoneProgress/create, client/(un)registerCapability, workspace/*/refresh: null
        await self._write({"jsonrpc": "2.0", "id": message["id"], "result": result})


# -- documents ----------------------------------------------------------------------------
@dataclasses.dataclass
class Doc:
    uri: str
    path: str
    name: str
    original: str
    text: str
    version: int = 1
    history: list[list[tuple[int, int, str]]] = dataclasses.field(default_factory=list)  # inverse steps (undo)
    snapshots: list[str] = dataclasses.field(default_factory=list)  # earlier texts to revert to
    versions: dict[int, str] = dataclasses.field(default_factory=dict)  # recent version -> text
    steps_since_reset: int = 0
    published: list[tuple[float, int | None, list[dict[str, Any]]]] = dataclasses.field(default_factory=list)
    status: list[tuple[float, int, str]] = dataclasses.field(default_factory=list)
    max_published: int = -1
    shadow: Any = None  # pygls's TextDocument with the same changes applied: the server's model
    drift: dict[str, Any] | None = None  # where the shadow first differed from the client's text
    tainted: list[tuple[int, int]] = dataclasses.field(default_factory=list)  # versions the server's text differed
    check_now: bool = False
    cursor: int = 0  # where the last change ended (the editor's cursor)
    last_mismatch_step: int = -(10**9)
    reopened: int = 0


class Fuzzer:
    def __init__(self, opts: argparse.Namespace) -> None:
        self.opts = opts
        self.rng = random.Random(opts.seed)
        self.settings: dict[str, Any] = {"pipelineTimeout": 30} if opts.no_pipeline else {"gpuName": "sm_90a", "pipelineTimeout": 30}
        self.failures: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.failure_counts: Counter[str] = Counter()
        self.flags: list[str] = []
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.latency_steady: dict[str, list[float]] = defaultdict(list)  # requests sent after --warmup s
        self.errors_by_method: Counter[str] = Counter()
        self.cancelled_by_method: Counter[str] = Counter()
        self.content_modified: Counter[str] = Counter()  # ContentModified for a version edited since
        self.refused: Counter[str] = Counter()
        self.edit_kinds: Counter[str] = Counter()
        self.requests_sent: Counter[str] = Counter()
        self.server_requests: Counter[str] = Counter()
        self.notifications: Counter[str] = Counter()
        self.skipped_requests = 0
        self.exceptions: dict[str, dict[str, Any]] = {}
        self.stderr_block: list[str] = []
        self.rss: dict[str, int | None] = {}
        self.children: dict[str, int] = {}
        self.children_names: dict[str, dict[str, int]] = {}
        self.seen_children: dict[int, tuple[int, str]] = {}
        self.max_children = 0
        self.text_checks = 0
        self.text_check_mode = "probe"  # tileLsp/documentText once; "exact" if answered, else "features"
        self.steps = 0
        self.rename_counter = 0
        self.docs: dict[str, Doc] = {}
        self.corpus_lines: list[str] = []
        self.op_lines: list[str] = []
        self.words: list[str] = []
        self.client: Client | None = None
        self.tmp = tempfile.mkdtemp(prefix="tile-lsp-fuzz-")
        self.start_time = time.monotonic()
        self.final: dict[str, Any] = {}
        self.phase = "setup"
        self.client_last_exception: dict[str, Any] | None = None
        self.notes: list[str] = []
        self.shadow_fits: list[dict[str, Any]] = []
        self.shadows_on = True
        self.inconclusive = 0
        self.slow: list[dict[str, Any]] = []  # requests answered after more than 0.5 s
        self.cursor_request = False
        self.cursor_back = 0
        self.after_drift: Counter[str] = Counter()

    # -- recording ---------------------------------------------------------------------------
    def fail(self, kind: str, sample: dict[str, Any]) -> None:
        self.failure_counts[kind] += 1
        if len(self.failures[kind]) < self.opts.samples:
            sample = {"step": self.steps, "phase": self.phase, **sample}
            self.failures[kind].append(sample)
            if self.opts.verbose:
                print(f"[{kind}] {json.dumps(sample, ensure_ascii=True)[:600]}", file=sys.stderr)

    def stderr_line(self, text: str) -> None:
        """The server's stderr: a traceback (up to its exception line) or an 'Error' line."""
        if self.stderr_block:
            self.stderr_block.append(text)
            if not text.startswith((" ", "\t", "Traceback")) and not text.startswith("During handling"):
                block, self.stderr_block = self.stderr_block, []
                self._exception("stderr", "\n".join(block))
            return
        if text.startswith("Traceback"):
            self.stderr_block = [text]
        elif re.search(r"\bError\b|ERROR|Exception", text) and not _PYGLS_HEADER.search(text):
            self._exception("stderr", text)

    def _exception(self, channel: str, text: str) -> None:
        frames = _TRACE_LINE.findall(text)
        ours = [f for f in frames if "tile_lsp" in f[0]]
        last = text.strip().splitlines()[-1] if text.strip() else text
        exc_type = last.split(":", 1)[0].strip()
        where = f"{os.path.basename(ours[-1][0])}:{ours[-1][1]} in {ours[-1][2]}" if ours else (
            f"{os.path.basename(frames[-1][0])}:{frames[-1][1]} in {frames[-1][2]}" if frames else "")
        handler = next((f[2] for f in frames if f[2].startswith("on_") or f[2] in ("view_stage", "_analyse_and_publish", "did_change")), "")
        # A refused rename raises ValueError by design (pygls answers an error and logs it).
        if exc_type == "ValueError" and any(r in last for r in RENAME_REFUSALS):
            self.refused["logged rename refusal (" + channel + ")"] += 1
            return
        key = f"{exc_type} at {where}" if where else last[:200]
        entry = self.exceptions.get(key)
        if entry is None:
            entry = self.exceptions[key] = {"count": 0, "channels": Counter(), "handler": handler, "message": last[:300],
                                            "traceback": text[-3000:], "first_step": self.steps, "request": None}
            self.fail("handler_exception", {"key": key, "handler": handler, "message": last[:300]})
        entry["channels"][channel] += 1
        entry["count"] = max(entry["channels"].values())  # the server logs one failure to stderr and to the client
        self.failure_counts["handler_exception"] = sum(e["count"] for e in self.exceptions.values())
        self.client_last_exception = entry

    def notification(self, method: str, params: Any) -> None:
        self.notifications[method] += 1
        if method == "textDocument/publishDiagnostics":
            doc = self.docs.get(params.get("uri"))
            if doc is None:
                return
            version = params.get("version")
            diags = params.get("diagnostics") or []
            doc.published.append((time.monotonic(), version, diags))
            if len(doc.published) > 400:
                del doc.published[:200]
            if isinstance(version, int):
                if version < doc.max_published:
                    self.fail("stale_publish", {"uri": doc.name, "version": version, "after": doc.max_published})
                doc.max_published = max(doc.max_published, version)
                text = doc.versions.get(version)
                if text is not None:
                    lines = Lines(text)
                    for d in diags:
                        self._check_range(lines, d.get("range"), "publishDiagnostics", doc, version, d.get("message"))
        elif method in ("window/logMessage", "window/showMessage"):
            kind, message = params.get("type"), params.get("message", "")
            if kind == 1 or "Traceback" in message:
                self._exception(method, message)
        elif method == "tileLsp/pipelineStatus":
            doc = self.docs.get(params.get("uri"))
            if doc is not None:
                doc.status.append((time.monotonic(), params.get("version"), params.get("state")))

    def answered(self, pending: Pending, message: dict[str, Any]) -> None:
        latency = (pending.answered or time.monotonic()) - pending.sent
        entry = self.client_last_exception
        if entry is not None and entry["request"] is None and pending.method not in ("shutdown",):
            entry["request"] = self._describe(pending)
        self.client_last_exception = None
        error = message.get("error")
        if error is not None:
            code = error.get("code")
            if pending.cancel_sent and code in CANCELLED_CODES:
                self.cancelled_by_method[pending.method] += 1
                return
            doc = self.docs.get(pending.uri) if pending.uri else None
            if code == CONTENT_MODIFIED and doc is not None and pending.version is not None and doc.version > pending.version:
                self.content_modified[pending.method] += 1  # (an edit came after it: LSP's answer for stale work)
                self.latency[pending.method].append(latency)  # (the client waited for it all the same)
                if pending.sent - self.start_time >= self.opts.warmup:
                    self.latency_steady[pending.method].append(latency)
                return
            if pending.method == "textDocument/rename" and any(r in str(error.get("message")) for r in RENAME_REFUSALS):
                self.refused[f"rename: {error.get('message')}"[:120]] += 1
                if "nothing to rename here" in str(error.get("message")):  # prepareRename said there was
                    self.fail("error_response", {**self._describe(pending), "code": code, "message": str(error.get("message"))[:300],
                                                 "note": "prepareRename on the same version returned a range"})
                return
            if pending.method == "tileLsp/documentText":
                return
            self.errors_by_method[pending.method] += 1
            self.fail("error_response", {**self._describe(pending), "code": code, "message": str(error.get("message"))[:500],
                                         "data": str(error.get("data"))[-1500:] if error.get("data") else None})
            return
        self.latency[pending.method].append(latency)
        if pending.sent - self.start_time >= self.opts.warmup:
            self.latency_steady[pending.method].append(latency)
        if latency > 0.5:
            doc = self.docs.get(pending.uri or "")
            self.slow.append({"method": pending.method, "ms": round(latency * 1000), "t_s": round(pending.sent - self.start_time, 2),
                              "step": self.steps, "doc": doc.name if doc else None, "doc_chars": len(pending.texts.get(pending.uri or "", ""))})
        try:
            self._validate(pending, message.get("result"))
        except Exception:  # the validator must not stop the run
            self.fail("harness", {"what": "validator failed", "traceback": traceback.format_exc()[-1500:]})

    def _describe(self, pending: Pending) -> dict[str, Any]:
        out: dict[str, Any] = {"method": pending.method, "version": pending.version}
        params = pending.params if isinstance(pending.params, dict) else {}
        pos = params.get("position")
        text = pending.texts.get(pending.uri or "")
        doc = self.docs.get(pending.uri or "")
        if doc is not None:
            out["doc"] = doc.name
        if pos is not None:
            out["position"] = pos
            if text is not None:
                lines = Lines(text)
                if pos["line"] < len(lines.starts):
                    out["line_text"] = text[lines.starts[pos["line"]] : lines.content_end(pos["line"])][:300]
        for key in ("query", "stage", "newName", "range"):
            if key in params:
                out[key] = params[key]
        if text is not None and self.opts.save_texts:
            out["text_file"] = self.save_text(text, f"{pending.method.replace('/', '_')}-{pending.id}")
        return out

    def save_text(self, text: str, stem: str) -> str:
        out_dir = pathlib.Path(self.opts.artifacts)
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / f"{stem}.mlir"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        return str(path)

    # -- response validation -------------------------------------------------------------
    def _check_range(self, lines: Lines, rng: Any, method: str, doc: Doc | None, version: int | None, what: Any = None) -> None:
        if not isinstance(rng, dict):
            return
        start, end = rng.get("start"), rng.get("end")
        bad = not lines.valid(start) or not lines.valid(end)
        if not bad:
            a, b = lines.offset(start["line"], start["character"]), lines.offset(end["line"], end["character"])
            bad = a is None or b is None or a > b
        if bad and self.tainted(doc, version):
            self.after_drift[method] += 1
            return
        if bad:
            sample: dict[str, Any] = {"method": method, "doc": doc.name if doc else None, "version": version, "range": rng,
                                      "lsp_lines": len(lines.starts), "server_model_lines": len(product_lines(lines.text))}
            if isinstance(start, dict) and start.get("line", 0) < len(lines.starts):
                ln = start["line"]
                sample["line_text"] = lines.text[lines.starts[ln] : lines.content_end(ln)][:200]
                sample["line_utf16_len"] = lines.utf16_len(ln)
            if what is not None:
                sample["what"] = str(what)[:200]
            sample["text_has"] = sorted({repr(c) for c in lines.text if c in "\r\f\v\x85\u2028\u2029"})
            self.fail("invalid_range", sample)

    def _validate(self, pending: Pending, result: Any) -> None:
        method = pending.method
        text = pending.texts.get(pending.uri or "")
        doc = self.docs.get(pending.uri or "")
        if result is None or text is None:
            if method == "workspace/symbol" and isinstance(result, list):
                for sym in result:
                    loc = sym.get("location") or {}
                    sdoc = self.docs.get(loc.get("uri"))
                    stext = pending.texts.get(loc.get("uri"))
                    if sdoc is not None and stext is not None:
                        self._check_range(Lines(stext), loc.get("range"), method, sdoc, None, sym.get("name"))
            return
        lines = Lines(text)
        check = lambda r, what=None: self._check_range(lines, r, method, doc, pending.version, what)  # noqa: E731
        if method == "textDocument/hover":
            check(result.get("range"))
        elif method in ("textDocument/definition", "textDocument/references", "textDocument/implementation"):
            for loc in result if isinstance(result, list) else [result]:
                if isinstance(loc, dict) and loc.get("uri") == pending.uri:
                    check(loc.get("range"))
        elif method == "textDocument/documentHighlight":
            for h in result:
                check(h.get("range"))
        elif method == "textDocument/prepareRename":
            check(result.get("range") if "range" in result else result)
        elif method in ("textDocument/rename", "textDocument/codeAction"):
            edits = [result] if method == "textDocument/rename" else [a.get("edit") for a in result if isinstance(a, dict)]
            for we in edits:
                for e in ((we or {}).get("changes") or {}).get(pending.uri, []):
                    check(e.get("range"), e.get("newText"))
        elif method == "textDocument/documentSymbol":
            todo = list(result)
            while todo:
                sym = todo.pop()
                check(sym.get("range"), sym.get("name"))
                check(sym.get("selectionRange"), sym.get("name"))
                todo.extend(sym.get("children") or [])
        elif method == "textDocument/foldingRange":
            for f in result:
                if not (0 <= f.get("startLine", -1) <= f.get("endLine", -1) < len(lines.starts)):
                    self.fail("invalid_range", {"method": method, "doc": doc.name if doc else None, "range": f, "lsp_lines": len(lines.starts)})
        elif method == "textDocument/semanticTokens/full":
            data = result.get("data") or []
            line = col = 0
            for i in range(0, len(data) - 4, 5):
                dl, dc, length = data[i], data[i + 1], data[i + 2]
                line, col = line + dl, (col + dc if dl == 0 else dc)
                if line >= len(lines.starts) or col + length > lines.utf16_len(line):
                    check({"start": {"line": line, "character": col}, "end": {"line": line, "character": col + length}}, "semantic token")
                    break
        elif method == "textDocument/completion":
            items = result.get("items", []) if isinstance(result, dict) else result
            for it in items[:50]:
                te = it.get("textEdit")
                if te:
                    check(te.get("range") or te.get("replace"), it.get("label"))
        elif method == "textDocument/formatting":
            for e in result:
                check(e.get("range"))
        elif method == "textDocument/codeLens":
            for lens in result:
                check(lens.get("range"))

    # -- corpus --------------------------------------------------------------------------
    def load(self) -> list[pathlib.Path]:
        names = [n for n in (self.opts.kernels or ",".join(DEFAULT_KERNELS)).split(",") if n]
        paths: list[pathlib.Path] = []
        for name in names:
            p = pathlib.Path(name)
            if not p.exists():
                p = CUTILE / (name if name.endswith(".mlir") else name + ".mlir")
            if not p.exists():
                raise SystemExit(f"fuzz_lsp: no kernel {name!r}")
            paths.append(p)
        nvidia = sorted(NVIDIA.glob("*.mlir")) if NVIDIA.is_dir() else []
        if nvidia and not self.opts.kernels and self.opts.nvidia_docs:
            paths += self.rng.sample(nvidia, min(self.opts.nvidia_docs, len(nvidia)))
        corpus = [*paths, *nvidia, *sorted(CUTILE.glob("*.mlir"))[:6]]
        for p in dict.fromkeys(corpus):
            lines = p.read_text(encoding="utf-8").split("\n")
            self.corpus_lines += lines
            self.op_lines += [ln.strip() for ln in lines if re.match(r"\s+(%[\w#:, %]+=\s*)?[a-z_]+", ln) and len(ln) < 200]
        words = set(WORDS_EXTRA)
        for ln in self.corpus_lines[:20000]:
            words.update(w for w in _WORD.findall(ln) if len(w) < 40)
        self.words = sorted(words)
        return paths

    # -- edits ---------------------------------------------------------------------------
    def _offset(self, text: str, kind: str = "any") -> int:
        n = len(text)
        if n == 0:
            return 0
        r = self.rng.random()
        if kind == "token" or r < 0.35:
            for _ in range(3):
                at = self.rng.randrange(n)
                m = _WORD.search(text, at)
                if m:
                    return snap(text, self.rng.randint(m.start(), m.end()))
        return snap(text, self.rng.randint(0, n))

    def _line_start(self, text: str) -> int:
        lines = Lines(text)
        return lines.starts[self.rng.randrange(len(lines.starts))]

    def _line_span(self, text: str) -> tuple[int, int]:
        lines = Lines(text)
        i = self.rng.randrange(len(lines.starts))
        end = lines.starts[i + 1] if i + 1 < len(lines.starts) else len(text)
        return lines.starts[i], end

    def _char(self) -> str:
        r = self.rng.random()
        if r < 0.25:
            return self.rng.choice(LINE_BREAKS)
        if r < 0.5:
            return self.rng.choice(ODD_CHARS)
        if r < 0.75:
            return self.rng.choice(PUNCT)
        return chr(self.rng.randint(0x20, 0x7E))

    def generate(self, doc: Doc) -> tuple[str, list[list[tuple[int, int, str]]], bool]:
        """(kind, steps, typing): each step is one didChange (a list of changes, applied in order);
        `typing`: the steps are keystrokes (the editor asks for completions between them)."""
        rng, text = self.rng, doc.text
        n = len(text)
        if doc.steps_since_reset > self.opts.reset_every or n > 4 * len(doc.original) + 2000 or (n < len(doc.original) // 5):
            doc.steps_since_reset = 0
            return "revert_original", [[minimal_change(text, doc.original)]], False
        kinds = [
            ("insert_char", 14), ("delete_chars", 10), ("insert_word", 8), ("delete_word", 6), ("insert_line", 4),
            ("delete_line", 4), ("duplicate_line", 3), ("paste_block", 3), ("duplicate_entry", 1), ("delete_brace", 2),
            ("type_op", 4), ("undo", 6), ("revert", 2), ("line_break", 6), ("odd_text", 3), ("nest_or_huge", 3),
            ("harmless", 8), ("multi_change", 3),
        ]
        kind = rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
        if kind == "insert_char":
            at = self._offset(text)
            return kind, [[(at, at, self._char())]], True
        if kind == "delete_chars" and n:
            start = self._offset(text)
            end = snap(text, start + rng.randint(1, 3), forward=True)
            return kind, [[(start, end, "")]], True
        if kind == "insert_word":
            at = self._offset(text)
            word = rng.choice(self.words)
            return kind, [[(at, at, rng.choice(["", " "]) + word + rng.choice(["", " "]))]], False
        if kind == "delete_word" and n:
            m = _WORD.search(text, self._offset(text))
            if m:
                return kind, [[(m.start(), snap(text, m.end(), forward=True), "")]], False
        if kind == "insert_line":
            at = self._line_start(text)
            line = rng.choice(self.corpus_lines) if rng.random() < 0.8 else rng.choice(self.words)
            return kind, [[(at, at, line + rng.choice(LINE_BREAKS[:3] * 4 + LINE_BREAKS[3:]))]], False
        if kind == "delete_line" and n:
            s, e = self._line_span(text)
            return kind, [[(s, e, "")]], False
        if kind == "duplicate_line" and n:
            s, e = self._line_span(text)
            return kind, [[(s, s, text[s:e] if text[s:e].endswith(("\n", "\r")) else text[s:e] + "\n")]], False
        if kind == "paste_block":
            k = rng.randint(2, 30)
            i = rng.randrange(max(1, len(self.corpus_lines) - k))
            block = "\n".join(self.corpus_lines[i : i + k]) + "\n"
            at = self._line_start(text)
            return kind, [[(at, at, block)]], False
        if kind == "duplicate_entry":
            found = self._entry_span(text)
            if found:
                s, e = found
                return kind, [[(e, e, text[s:e])]], False
        if kind == "delete_brace" and n:
            braces = [m.start() for m in re.finditer(r"[{}]", text)]
            if braces:
                at = rng.choice(braces)
                return kind, [[(at, at + 1, "")]], False
        if kind == "type_op":
            return kind, self._typing(text), True
        if kind == "undo" and doc.history:
            k = min(len(doc.history), rng.randint(1, 12))
            return kind, [doc.history[-1 - i] for i in range(k)], False  # (popped as they are sent)
        if kind == "revert" and doc.snapshots:
            target = rng.choice(doc.snapshots)
            return kind, [[minimal_change(text, target)]], False
        if kind == "line_break":
            breaks = [m for m in _BREAK.finditer(text)]
            new = rng.choice(LINE_BREAKS)
            if breaks and rng.random() < 0.6:
                m = rng.choice(breaks)
                return kind, [[(m.start(), m.end(), new)]], False
            at = self._offset(text)
            return kind, [[(at, at, new)]], True
        if kind == "odd_text":
            at = self._offset(text)
            piece = "".join(rng.choice(ODD_CHARS + LINE_BREAKS + PUNCT) for _ in range(rng.randint(1, 8)))
            return kind, [[(at, at, piece)]], False
        if kind == "nest_or_huge":
            at = self._offset(text, "token")
            piece = rng.choice(NEST if rng.random() < 0.5 else HUGE)
            return kind, [[(at, at, piece)]], False
        if kind == "harmless":
            commas = [m.end() for m in re.finditer(r", ", text)]
            if commas and rng.random() < 0.6:
                at = rng.choice(commas)
                return kind, [[(at, at, " ")]], False
            at = self._line_start(text)
            return kind, [[(at, at, "// fuzz " + rng.choice(self.words) + "\n")]], False
        if kind == "multi_change" and n:
            changes: list[tuple[int, int, str]] = []
            cur = text
            for _ in range(rng.randint(2, 4)):
                s = self._offset(cur)
                e = snap(cur, s + rng.choice([0, 0, 1, 2, 5]), forward=True)
                new = rng.choice(["", self._char(), rng.choice(self.words), "\n"])
                changes.append((s, e, new))
                cur = cur[:s] + new + cur[e:]
            return kind, [changes], False
        at = self._offset(text)
        return "insert_char", [[(at, at, self._char())]], True

    def _entry_span(self, text: str) -> tuple[int, int] | None:
        starts = [m for m in re.finditer(r"^([ \t]*)entry @", text, re.MULTILINE)]
        if not starts:
            return None
        m = self.rng.choice(starts)
        close = re.compile(r"^" + re.escape(m.group(1)) + r"\}[ \t]*(\n|$)", re.MULTILINE).search(text, m.end())
        return (m.start(), close.end()) if close else None

    def _typing(self, text: str) -> list[list[tuple[int, int, str]]]:
        """An op typed key by key on a new line after a random line."""
        lines = Lines(text)
        i = self.rng.randrange(len(lines.starts))
        at = lines.content_end(i)
        line = self.rng.choice(self.op_lines) if self.op_lines else "%x = addf %a, %b : tile<f32>"
        steps = [[(at, at, self.rng.choice(["\n", "\n", "\r\n", "\r"]) + "  ")]]
        pos = at + len(steps[0][0][2])
        for ch in line[: self.rng.randint(3, max(3, len(line)))]:
            steps.append([(pos, pos, ch)])
            pos += 1
        return steps

    # -- sending -------------------------------------------------------------------------
    async def send_step(self, doc: Doc, changes: list[tuple[int, int, str]], *, record_undo: bool = True) -> None:
        assert self.client is not None
        content: list[dict[str, Any]] = []
        inverse: list[tuple[int, int, str]] = []
        text = doc.text
        for start, end, new in changes:
            start, end = snap(text, start), snap(text, end, forward=True)
            lines = Lines(text)
            content.append({"range": {"start": lines.position(start), "end": lines.position(end)}, "text": new})
            inverse.append((start, start + len(new), text[start:end]))
            text = text[:start] + new + text[end:]
            doc.cursor = start + len(new)
        before = doc.text
        doc.text = text
        doc.version += 1
        doc.versions[doc.version] = text
        if doc.shadow is not None:
            shadow_apply(doc.shadow, content)
            if doc.drift is None and doc.shadow.source != text:
                doc.drift = drift_sample(before, content, doc.shadow.source, text, doc.version)
                if len(before) > 2000 or self.opts.save_texts:
                    doc.drift["text_before_file"] = self.save_text(before, f"drift-{doc.name}-v{doc.version - 1}")
                # checked at once, unless this document was re-synchronised lately (each edit after a
                # \v or \u2028 drifts again: the regular checks see those)
                doc.check_now = self.steps - doc.last_mismatch_step > self.opts.check_every
        if len(doc.versions) > 300:
            for v in sorted(doc.versions)[:100]:
                del doc.versions[v]
        if record_undo:
            doc.history.append(list(reversed(inverse)))
            del doc.history[:-500]
        doc.steps_since_reset += 1
        if self.rng.random() < 0.02:
            doc.snapshots.append(text)
            del doc.snapshots[:-20]
        await self.client.notify("textDocument/didChange", {"textDocument": {"uri": doc.uri, "version": doc.version}, "contentChanges": content})
        self.steps += 1

    def _pos(self, doc: Doc) -> dict[str, int]:
        text = doc.text
        lines = Lines(text)
        if self.cursor_request:
            self.cursor_request = False
            return lines.position(snap(text, doc.cursor - self.rng.randint(0, self.cursor_back)))
        r = self.rng.random()
        if r < 0.08:  # the end of a line; or past it (LSP: the line's end)
            ln = self.rng.randrange(len(lines.starts))
            return {"line": ln, "character": lines.utf16_len(ln) + (self.rng.randint(1, 5) if r < 0.03 else 0)}
        return lines.position(self._offset(text))

    async def send_request(self, doc: Doc, method: str | None = None, *, wait: bool = False, at_cursor: bool = False,
                           back: int = 0) -> Pending | None:
        assert self.client is not None
        outstanding = sum(1 for p in self.client.pending.values() if not p.cancel_sent)
        if outstanding >= self.opts.max_outstanding:
            self.skipped_requests += 1
            return None
        rng = self.rng
        if method is None:
            methods = [
                ("textDocument/hover", 20), ("textDocument/completion", 14), ("textDocument/definition", 8),
                ("textDocument/references", 6), ("textDocument/documentHighlight", 8), ("rename", 4),
                ("textDocument/documentSymbol", 6), ("workspace/symbol", 3), ("textDocument/foldingRange", 5),
                ("textDocument/semanticTokens/full", 8), ("textDocument/formatting", 3), ("textDocument/codeAction", 6),
                ("textDocument/codeLens", 4), ("tileLsp/viewStage", 3), ("textDocument/implementation", 1), ("didSave", 1),
            ]
            method = rng.choices([m for m, _ in methods], [w for _, w in methods])[0]
        td = {"uri": doc.uri}
        if method == "rename":
            await self.rename(doc)
            return None
        if method == "didSave":
            pathlib.Path(doc.path).write_bytes(doc.text.encode("utf-8", "surrogatepass"))
            await self.client.notify("textDocument/didSave", {"textDocument": td})
            self.requests_sent["didSave"] += 1
            return None
        params: dict[str, Any] = {"textDocument": td}
        self.cursor_request = at_cursor or rng.random() < 0.4  # where the user is typing, as editors ask
        self.cursor_back = back
        if method in ("textDocument/hover", "textDocument/definition", "textDocument/documentHighlight",
                      "textDocument/implementation", "textDocument/prepareRename"):
            params["position"] = self._pos(doc)
        elif method == "textDocument/completion":
            params["position"] = self._pos(doc)
            if rng.random() < 0.5:
                params["context"] = {"triggerKind": 2, "triggerCharacter": rng.choice(["%", "@", ":", "<", "!", " "])}
            else:
                params["context"] = {"triggerKind": 1}
        elif method == "textDocument/references":
            params["position"] = self._pos(doc)
            params["context"] = {"includeDeclaration": rng.random() < 0.5}
        elif method == "workspace/symbol":
            params = {"query": rng.choice(["", "", "k", "entry", "_", rng.choice(self.words)[:3]])}
        elif method == "textDocument/formatting":
            params["options"] = {"tabSize": rng.choice([2, 4]), "insertSpaces": True}
        elif method == "textDocument/codeAction":
            a, b = self._pos(doc), self._pos(doc)
            if (a["line"], a["character"]) > (b["line"], b["character"]):
                a, b = b, a
            diags = []
            if doc.published and doc.published[-1][1] == doc.version:
                diags = doc.published[-1][2][:5]
                if diags and rng.random() < 0.6:
                    d = rng.choice(diags)
                    a, b = d["range"]["start"], d["range"]["end"]
            params["range"] = {"start": a, "end": b}
            params["context"] = {"diagnostics": diags, **({"only": [rng.choice(["quickfix", "refactor"])]} if rng.random() < 0.2 else {})}
        elif method == "tileLsp/viewStage":
            params = {"uri": doc.uri, "stage": rng.choice(["cuda_tile", "tileaa", "gpu", "nvvm", "llvm", "llvm-ir", "ptx", "cubin"])}
        self.cursor_request = False
        self.requests_sent[method] += 1
        texts = {d.uri: d.text for d in self.docs.values()}
        pending = await self.client.request(method, params, uri=doc.uri, version=doc.version, texts=texts)
        if rng.random() < self.opts.cancel_rate:
            delay = rng.choice([0, 0.001, 0.005, 0.02, 0.1])
            asyncio.get_running_loop().call_later(delay, lambda: asyncio.ensure_future(self.client.cancel(pending)))  # type: ignore[union-attr]
        if wait:
            await self.wait_for(pending)
        return pending

    async def wait_for(self, pending: Pending, timeout: float | None = None) -> dict[str, Any] | None:
        try:
            return await asyncio.wait_for(asyncio.shield(pending.future), timeout or self.opts.request_timeout)
        except TimeoutError:
            return None

    async def rename(self, doc: Doc) -> None:
        """prepareRename, then (when it found a name) rename to a fresh one, on the same version;
        sometimes the client applies the rename's edits, as an editor does."""
        assert self.client is not None
        self.requests_sent["textDocument/prepareRename"] += 1
        texts = {d.uri: d.text for d in self.docs.values()}
        prep = await self.client.request("textDocument/prepareRename", {"textDocument": {"uri": doc.uri}, "position": self._pos(doc)},
                                         uri=doc.uri, version=doc.version, texts=texts)
        answer = await self.wait_for(prep)
        result = (answer or {}).get("result")
        if not isinstance(result, dict) or "range" not in result:
            return
        self.rename_counter += 1
        sigil = "@" if str(result.get("placeholder", "")).startswith("@") else "%"
        new_name = f"{sigil}fz{self.rename_counter}"
        start = result["range"]["start"]
        self.requests_sent["textDocument/rename"] += 1
        ren = await self.client.request("textDocument/rename", {"textDocument": {"uri": doc.uri}, "position": start, "newName": new_name},
                                        uri=doc.uri, version=doc.version, texts=texts)
        answer = await self.wait_for(ren)
        edits = (((answer or {}).get("result") or {}).get("changes") or {}).get(doc.uri)
        if edits and self.rng.random() < 0.5:
            await self.apply_edits(doc, edits, "apply_rename")

    async def apply_edits(self, doc: Doc, edits: list[dict[str, Any]], kind: str) -> None:
        """TextEdits of the server (ranges of the current text) as one didChange, last first."""
        lines = Lines(doc.text)
        spans = []
        for e in edits:
            a = lines.offset(e["range"]["start"]["line"], e["range"]["start"]["character"])
            b = lines.offset(e["range"]["end"]["line"], e["range"]["end"]["character"])
            if a is None or b is None or a > b:
                return  # (reported as invalid_range already)
            spans.append((a, b, e["newText"]))
        spans.sort(reverse=True)
        if any(spans[i][0] < spans[i + 1][1] for i in range(len(spans) - 1)):
            self.fail("invalid_range", {"method": kind, "doc": doc.name, "what": "overlapping edits", "edits": edits[:5]})
            return
        self.edit_kinds[kind] += 1
        await self.send_step(doc, spans)

    # -- checks --------------------------------------------------------------------------
    def sample_process(self, label: str | None = None) -> None:
        assert self.client is not None
        if not self.client.alive():
            return
        found = descendants(self.client.pid)
        self.seen_children.update(found)
        self.max_children = max(self.max_children, len(found))
        if label is not None:
            self.rss[label] = rss_kib(self.client.pid)
            self.children[label] = len(found)
            self.children_names[label] = dict(Counter(name for _, name in found.values()))

    async def check_text(self, doc: Doc) -> None:
        """Does the server hold the client's text? (see the module docstring)"""
        assert self.client is not None
        self.text_checks += 1
        doc.check_now = False
        version, text = doc.version, doc.text
        texts = {d.uri: d.text for d in self.docs.values()}
        await self.drain(quiet=True)  # nothing in flight while this process computes (no latency is inflated)
        if self.text_check_mode in ("probe", "exact"):
            got = await self.wait_for(await self.client.request("tileLsp/documentText", {"uri": doc.uri}, uri=doc.uri, version=version, texts=texts))
            if got is not None and "result" in got and isinstance(got["result"], dict):
                self.text_check_mode = "exact"
                server_text = got["result"].get("text")
                if server_text != text:
                    self._text_mismatch(doc, "documentText", {"server_len": len(server_text or ""), "client_len": len(text)})
                elif doc.shadow is not None and doc.shadow.source != text:
                    self._drop_shadows(doc, version)
                return
            self.text_check_mode = "features"
        expected = expected_features(text, doc.path)
        requests = {}
        for method, extra in (("textDocument/semanticTokens/full", {}), ("textDocument/documentSymbol", {}),
                              ("textDocument/foldingRange", {}), ("textDocument/formatting", {"options": {"tabSize": 2, "insertSpaces": True}})):
            requests[method] = await self.client.request(method, {"textDocument": {"uri": doc.uri}, **extra}, uri=doc.uri, version=version, texts=texts)
            self.requests_sent[method] += 1
        answers = {m: await self.wait_for(p) for m, p in requests.items()}
        differs = []
        for method, answer in answers.items():
            if answer is None or "error" in answer:
                continue  # unanswered / error: counted as such
            got = answer.get("result")
            if got != expected[method] and not (got in (None, []) and expected[method] in (None, [])):
                differs.append(method)
        shadow_text = doc.shadow.source if doc.shadow is not None else text
        telling = False  # would these answers tell pygls's text from the client's?
        if shadow_text != text:
            await self.drain(quiet=True)
            by_shadow = expected_features(shadow_text, doc.path)
            telling = any(by_shadow[m] != expected[m] for m in answers)
            self.shadow_fits.append({
                "doc": doc.name, "version": version, "telling": telling,
                "answers_fit_pygls_text": [m for m, a in answers.items() if a is not None and a.get("result") == by_shadow[m]],
                "answers_fit_client_text": [m for m, a in answers.items() if a is not None and a.get("result") == expected[m]]})
        if differs:
            detail: dict[str, Any] = {"differs": differs}
            sem = answers.get("textDocument/semanticTokens/full") or {}
            if "textDocument/semanticTokens/full" in differs and sem.get("result"):
                detail["first_token_difference"] = first_token_difference(sem["result"].get("data", []), expected["textDocument/semanticTokens/full"]["data"], text)
            self._text_mismatch(doc, "features", detail)
        elif shadow_text != text and telling:
            # pygls's TextDocument would have drifted, visibly, yet the server holds the client's
            # text: it does not apply changes that way. The shadow is dropped for every document.
            self._drop_shadows(doc, version)
        elif shadow_text != text:
            self.inconclusive += 1  # a drift these features cannot see (e.g. inside a comment): kept as predicted

    def _text_mismatch(self, doc: Doc, how: str, detail: dict[str, Any]) -> None:
        """The server's text is not the client's: reported with the change that caused it (where
        pygls's model shows it), then the document is closed and opened again with the client's
        text, so the rest of the run tests on a synchronised document."""
        sample: dict[str, Any] = {"doc": doc.name, "version": doc.version, "how": how, **detail}
        if doc.drift is not None:
            sample["cause"] = doc.drift
        else:
            sample["cause"] = "pygls's TextDocument agrees with the client: not a range-application drift"
        self.fail("text_mismatch", sample)
        doc.last_mismatch_step = self.steps
        doc.tainted.append((doc.drift["version"] if doc.drift else doc.version, doc.version))
        asyncio.ensure_future(self.reopen(doc))

    def _drop_shadows(self, doc: Doc, version: int) -> None:
        self.notes.append(f"{doc.name}: pygls's TextDocument would have drifted at v{doc.drift['version'] if doc.drift else '?'}, "
                          f"but the server holds the client's text at v{version}: no shadow from here on")
        self.shadows_on = False
        for d in self.docs.values():
            d.shadow, d.drift, d.check_now = None, None, False

    async def reopen(self, doc: Doc) -> None:
        assert self.client is not None
        await self.client.notify("textDocument/didClose", {"textDocument": {"uri": doc.uri}})
        doc.version += 1
        doc.versions[doc.version] = doc.text
        doc.reopened += 1
        doc.drift = None
        doc.shadow = new_shadow(doc.uri, doc.text, doc.version) if self.shadows_on else None
        await self.client.notify("textDocument/didOpen", {"textDocument": {"uri": doc.uri, "languageId": "mlir", "version": doc.version, "text": doc.text}})

    def tainted(self, doc: Doc | None, version: int | None) -> bool:
        """Whether the server's text of `doc` at `version` is known to differ from the client's."""
        if doc is None or version is None:
            return False
        if doc.drift is not None and version >= doc.drift["version"]:
            return True
        return any(a <= version <= b for a, b in doc.tainted)

    async def settle(self, doc: Doc, expect_pipeline: bool) -> tuple[list[dict[str, Any]] | None, str]:
        """The diagnostics of the doc's final version once the pipeline is done with it."""
        deadline = time.monotonic() + self.opts.settle_timeout
        while time.monotonic() < deadline:
            published = [p for p in doc.published if p[1] == doc.version]
            done = [s for s in doc.status if s[1] == doc.version and s[2] not in ("stages",)]
            if published and (not expect_pipeline or done):
                last_time = doc.published[-1][0]
                if time.monotonic() - last_time > 0.5:
                    return published[-1][2], done[-1][2] if done else "no pipeline"
            await asyncio.sleep(0.1)
        published = [p for p in doc.published if p[1] == doc.version]
        return (published[-1][2] if published else None), "not settled"

    async def final_check(self, doc: Doc) -> None:
        """The last publish of the final version, once settled, against the CLI on the same text
        (written at the document's own path, so messages naming it agree)."""
        from tile_lsp.compiler.source import SourceText
        from tile_lsp.host import compiles
        from tile_lsp.session import Snapshot

        with open(doc.path, "wb") as f:
            f.write(doc.text.encode("utf-8", "surrogatepass"))
        front = (await run_cli(["check", "--format", "json", doc.path])).get("diagnostics", [])
        has_errors = any(d["severity"] == "error" for d in front)
        # The server compiles text without front-end errors (also with no target: it reports that).
        runs_pipeline = not has_errors and compiles(Snapshot(doc.uri, doc.version, doc.text, doc.path, None))  # type: ignore[arg-type]
        published, state = await self.settle(doc, runs_pipeline)
        record: dict[str, Any] = {"doc": doc.name, "version": doc.version, "length": len(doc.text), "front_end_errors": has_errors,
                                  "pipeline": state, "published": None if published is None else len(published),
                                  "tainted": self.tainted(doc, doc.version), "reopened": doc.reopened}
        self.final[doc.name] = record
        if published is None or state == "not settled":
            self.fail("not_settled", {"doc": doc.name, "version": doc.version, "state": state, "expect_pipeline": runs_pipeline,
                                      "last_versions": [p[1] for p in doc.published[-5:]], "status": doc.status[-3:]})
            if published is None:
                return
        src = SourceText(doc.text)
        lines = Lines(doc.text)
        n_lines = len(product_lines(doc.text))

        def cli_key(d: dict[str, Any]) -> tuple[int, int, str]:
            offset = src.offset(d["line"] - 1, d["column"] - 1) if d["line"] - 1 < n_lines else len(doc.text)
            return offset, SEVERITY.get(d["severity"], 0), d["message"]

        def lsp_keys(diags: list[dict[str, Any]], model: str = "lsp") -> set[tuple[Any, int, str]]:
            out = set()
            for d in diags:
                s = d["range"]["start"]
                # "lsp": what the position means to an LSP client; "server": \n-only lines (SourceText)
                offset = lines.offset(s["line"], s["character"]) if model == "lsp" else src.offset_utf16(s["line"], s["character"])
                out.add((offset, d.get("severity", 1), d["message"]))
            return out

        expected = {cli_key(d) for d in front}
        server_front = [d for d in published if d.get("source") not in PIPELINE_SOURCES]
        server_stage = [d for d in published if d.get("source") in PIPELINE_SOURCES]
        record.update({"cli_check": len(expected), "server_front": len(server_front), "server_stage": len(server_stage)})
        if runs_pipeline and self.opts.compare_compile and state == "done":
            target = [] if self.opts.no_pipeline else ["--gpu-name", "sm_90a"]
            out = await run_cli(["compile", doc.path, *target, "--emit", "ptx", "--format", "json", "-o", os.devnull])
            compiled = {cli_key(d) for d in out.get("diagnostics", []) if d.get("stage") != "mlir"}
            record["cli_compile"] = len(compiled)
            expected |= compiled
            compared, got, alt = "all", lsp_keys(published), lsp_keys(published, "server")
        elif runs_pipeline:  # the front end's only (the stages' are not known here)
            compared, got, alt = "front end", lsp_keys(server_front), lsp_keys(server_front, "server")
        else:  # no compile: the publish is the front end's, exactly
            compared, got, alt = "all", lsp_keys(published), lsp_keys(published, "server")
        missing, extra = expected - got, (got - expected if compared == "all" else set())
        record["compared"] = compared
        if missing or extra:
            cause = ("the server's positions follow \\n-only lines (a lone \\r in the text)"
                     if (alt == expected if compared == "all" else expected <= alt) else "content")
            if self.tainted(doc, doc.version):
                cause += " (the server's text differed from the client's at this version)"
            shadow_text = doc.shadow.source if doc.shadow is not None else doc.text
            if shadow_text != doc.text:  # is the publish exactly the diagnostics of pygls's text?
                other = os.path.join(self.tmp, "pygls-text", os.path.basename(doc.path))
                os.makedirs(os.path.dirname(other), exist_ok=True)
                with open(other, "wb") as f:
                    f.write(shadow_text.encode("utf-8", "surrogatepass"))
                theirs = (await run_cli(["check", "--format", "json", other])).get("diagnostics", [])
                ssrc, slines = SourceText(shadow_text), Lines(shadow_text)
                want = {(ssrc.offset(d["line"] - 1, d["column"] - 1), SEVERITY.get(d["severity"], 0), d["message"]) for d in theirs}
                have = {(slines.offset(d["range"]["start"]["line"], d["range"]["start"]["character"]), d.get("severity", 1), d["message"])
                        for d in server_front}
                cause += ("; the publish is exactly `tile-lsp check` of the text pygls's TextDocument holds after the same changes"
                          if want == have else "; pygls's text differs too, but the publish is not its diagnostics either")
            self.fail("final_diagnostics", {
                "doc": doc.name, "version": doc.version, "cause": cause, "pipeline": state,
                "missing": [_show_diag(k, doc.text) for k in sorted(missing, key=str)[:8]],
                "extra": [_show_diag(k, doc.text) for k in sorted(extra, key=str)[:8]],
                "text_file": self.save_text(doc.text, f"final-{doc.name}-v{doc.version}") if self.opts.save_texts else None,
            })

    # -- the run -------------------------------------------------------------------------
    async def run(self) -> dict[str, Any]:
        kernels = self.load()
        expected_features("entry @warm() {\n  return\n}\n", os.path.join(self.tmp, "warm.mlir"))  # imports, before timing anything
        env = dict(os.environ)
        env.setdefault("PYTHONUNBUFFERED", "1")
        if not self.opts.user_cache:
            env["XDG_CACHE_HOME"] = os.path.join(self.tmp, "cache")
        self.cli_env = env
        command = self.opts.server or [str(ROOT / ".venv" / "bin" / "tile-lsp"), "serve"]
        if not self.opts.server and not os.path.exists(command[0]):
            command = [sys.executable, "-m", "tile_lsp", "serve"]
        self.client = client = Client(command, env, self.tmp, self)
        global _CLI_ENV
        _CLI_ENV = env
        await client.start()
        init = await client.request("initialize", {
            "processId": os.getpid(), "rootUri": pathlib.Path(self.tmp).as_uri(), "initializationOptions": self.settings,
            "capabilities": {
                "general": {"positionEncodings": ["utf-16"]},
                "window": {"workDoneProgress": True, "showDocument": {"support": True}, "showMessage": {}},
                "workspace": {"configuration": True, "applyEdit": True, "codeLens": {"refreshSupport": True},
                              "semanticTokens": {"refreshSupport": True}, "didChangeConfiguration": {"dynamicRegistration": True},
                              "workspaceFolders": True, "symbol": {}},
                "textDocument": {
                    "synchronization": {"didSave": True, "dynamicRegistration": True},
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                    "completion": {"completionItem": {"snippetSupport": True, "documentationFormat": ["markdown"]}, "contextSupport": True},
                    "publishDiagnostics": {"versionSupport": True, "relatedInformation": True},
                    "semanticTokens": {"requests": {"full": True}, "tokenTypes": [], "tokenModifiers": [], "formats": ["relative"]},
                    "rename": {"prepareSupport": True}, "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "refactor"]}}},
                    "documentSymbol": {"hierarchicalDocumentSymbolSupport": True}, "foldingRange": {}, "codeLens": {},
                },
            },
            "workspaceFolders": [{"uri": pathlib.Path(self.tmp).as_uri(), "name": "fuzz"}],
        })
        answer = await self.wait_for(init, 60)
        if answer is None or "result" not in answer:
            self.fail("crash", {"what": "no answer to initialize", "stderr": client.stderr[-20:]})
            return self.report()
        await client.notify("initialized", {})
        self.sample_process("start")
        for i, path in enumerate(kernels):
            text = path.read_text(encoding="utf-8")
            doc_path = os.path.join(self.tmp, f"{i}_{path.name}")
            doc = Doc(pathlib.Path(doc_path).as_uri(), doc_path, path.stem, text, text, snapshots=[text])
            doc.versions[1] = text
            doc.shadow = new_shadow(doc.uri, text, 1)
            self.docs[doc.uri] = doc
            await client.notify("textDocument/didOpen", {"textDocument": {"uri": doc.uri, "languageId": "mlir", "version": 1, "text": text}})
        self.phase = "edits"
        await self.edit_loop()
        self.phase = "final"
        await self.drain()
        for doc in self.docs.values():
            await self.check_text(doc)
        for doc in self.docs.values():
            if not client.alive():
                break
            await self.final_check(doc)
        self.sample_process("end")
        await self.drain()
        await self.shutdown()
        return self.report()

    async def edit_loop(self) -> None:
        assert self.client is not None
        client, opts, rng = self.client, self.opts, self.rng
        docs = list(self.docs.values())
        doc = docs[0]
        # an editor stays in one file for a while: every document in turn (shuffled rounds), for
        # 20..(edits / 2 per document) edits each; the last edits make some documents clean again
        stay = max(40, opts.edits // (2 * len(docs)))
        switch_at = rng.randint(20, stay)
        order: list[Doc] = []
        clean = rng.sample(docs, round(len(docs) * opts.final_clean)) if opts.edits >= 2 * len(docs) else []
        budget = opts.edits - len(clean)
        deadline = self.start_time + opts.time_limit if opts.time_limit else None
        interval = 1.0 / opts.rate if opts.rate > 0 else 0.0
        next_at = time.monotonic()
        burst_left = 0
        last_watch = time.monotonic()
        while self.steps < budget:
            if deadline is not None and time.monotonic() > deadline:
                break
            if not client.alive():
                self.fail("crash", {"returncode": client.proc.returncode if client.proc else None, "stderr": client.stderr[-30:]})
                return
            if self.steps >= switch_at and len(docs) > 1:
                if not order:
                    order = rng.sample(docs, len(docs))
                doc = order.pop()
                switch_at = self.steps + rng.randint(20, stay)
            kind, steps, typing = self.generate(doc)
            self.edit_kinds[kind] += 1
            for step in steps:
                if kind == "undo":
                    if not doc.history:
                        break
                    step = doc.history.pop()
                await self.send_step(doc, step, record_undo=kind != "undo")
                if self.steps == 100:
                    self.sample_process("after_100")
                if self.steps == opts.edits // 2:
                    self.sample_process("half")
                if typing and rng.random() < 0.4:
                    await self.send_request(doc, "textDocument/completion", at_cursor=True)
                if kind == "nest_or_huge":
                    await self.send_request(doc, "textDocument/hover", at_cursor=True, back=3)
                n_requests = rng.choices([0, 1, 2, 3], [40, 35, 18, 7])[0]
                for _ in range(n_requests):
                    await self.send_request(doc)
                if rng.random() < 0.01:
                    await self.apply_server_edit(doc)
                if doc.check_now or (opts.check_every and self.steps % opts.check_every == 0):
                    await self.check_text(doc)
                if self.steps % 25 == 0:
                    self.sample_process()
                now = time.monotonic()
                if now - last_watch > 1.0:
                    self.watchdog()
                    last_watch = now
                # pacing: typing speed, or bursts at full speed with pauses between
                if opts.burst:
                    if burst_left <= 0:
                        await asyncio.sleep(rng.uniform(0.2, 1.5))
                        burst_left = rng.randint(5, 60)
                    burst_left -= 1
                    await asyncio.sleep(0)
                elif interval:
                    next_at = max(next_at + interval, time.monotonic() - 1.0)
                    await asyncio.sleep(max(0.0, next_at - time.monotonic()))
                else:
                    await asyncio.sleep(0)
                if self.steps >= budget:
                    break
        for doc in clean:  # back to the original (front-end clean): the final check compares stage diagnostics too
            if doc.text != doc.original:
                self.edit_kinds["final_revert"] += 1
                await self.send_step(doc, [minimal_change(doc.text, doc.original)])
            else:
                await self.send_step(doc, [(len(doc.text), len(doc.text), "")])

    async def apply_server_edit(self, doc: Doc) -> None:
        """Format the document or take a quick fix, and apply it as an editor would."""
        assert self.client is not None
        texts = {d.uri: d.text for d in self.docs.values()}
        if self.rng.random() < 0.5:
            self.requests_sent["textDocument/formatting"] += 1
            p = await self.client.request("textDocument/formatting", {"textDocument": {"uri": doc.uri}, "options": {"tabSize": 2, "insertSpaces": True}},
                                          uri=doc.uri, version=doc.version, texts=texts)
            answer = await self.wait_for(p)
            edits = (answer or {}).get("result")
            if edits and doc.version == p.version:
                await self.apply_edits(doc, edits, "apply_formatting")
            return
        if not doc.published or doc.published[-1][1] != doc.version or not doc.published[-1][2]:
            return
        d = self.rng.choice(doc.published[-1][2])
        self.requests_sent["textDocument/codeAction"] += 1
        p = await self.client.request("textDocument/codeAction", {"textDocument": {"uri": doc.uri}, "range": d["range"], "context": {"diagnostics": [d]}},
                                      uri=doc.uri, version=doc.version, texts=texts)
        answer = await self.wait_for(p)
        actions = [a for a in (answer or {}).get("result") or [] if isinstance(a, dict) and a.get("edit")]
        if actions and doc.version == p.version:
            edits = (actions[0]["edit"].get("changes") or {}).get(doc.uri)
            if edits:
                await self.apply_edits(doc, edits, "apply_quick_fix")

    def watchdog(self) -> None:
        assert self.client is not None
        now = time.monotonic()
        for p in list(self.client.pending.values()):
            if not p.flagged_unanswered and now - p.sent > self.opts.request_timeout:
                p.flagged_unanswered = True
                self.fail("unanswered", {**self._describe(p), "waited_s": round(now - p.sent, 1), "cancel_sent": p.cancel_sent})

    async def drain(self, quiet: bool = False) -> None:
        """Wait for every outstanding request (up to the request timeout)."""
        assert self.client is not None
        deadline = time.monotonic() + self.opts.request_timeout
        while self.client.pending and time.monotonic() < deadline and self.client.alive():
            await asyncio.sleep(0.01)
        self.watchdog()
        if quiet:
            return
        for p in list(self.client.pending.values()):
            if not p.flagged_unanswered:
                p.flagged_unanswered = True
                self.fail("unanswered", {**self._describe(p), "waited_s": round(time.monotonic() - p.sent, 1), "cancel_sent": p.cancel_sent})

    async def shutdown(self) -> None:
        assert self.client is not None and self.client.proc is not None
        client = self.client
        if not client.alive():
            self.fail("crash", {"returncode": client.proc.returncode, "stderr": client.stderr[-30:]})
            return
        pid = client.pid
        self.sample_process()
        seen = dict(self.seen_children)
        p = await client.request("shutdown", None)
        if await self.wait_for(p, 20) is None:
            self.fail("exit", {"what": "no answer to shutdown"})
        await client.notify("exit", None)
        try:
            await asyncio.wait_for(client.proc.wait(), 15)
        except TimeoutError:
            self.fail("exit", {"what": "the server did not exit within 15 s of exit"})
            with contextlib.suppress(ProcessLookupError):
                client.proc.kill()
            await client.proc.wait()
        self.exit_code = client.proc.returncode
        if client.proc.returncode not in (0, None):
            self.fail("exit", {"what": f"exit status {client.proc.returncode}", "stderr": client.stderr[-10:]})
        for _ in range(30):  # children get a moment to go
            left = {q: v for q, v in seen.items() if (st := _stat(q)) is not None and st[1] == v[0]}
            if not left:
                break
            await asyncio.sleep(0.1)
        self.orphans = [{"pid": q, "name": v[1]} for q, v in left.items()]
        if self.orphans:
            self.fail("exit", {"what": "processes left after the server exited", "processes": self.orphans[:10], "server_pid": pid})
        for t in client.tasks:
            t.cancel()

    # -- the report ----------------------------------------------------------------------
    def report(self) -> dict[str, Any]:
        methods = {}
        for m in sorted(set(self.latency) | set(self.errors_by_method) | set(self.cancelled_by_method)):
            values = self.latency.get(m, [])
            methods[m] = {
                "count": len(values), "p50_ms": round(percentile(values, 0.5) * 1000, 1), "p95_ms": round(percentile(values, 0.95) * 1000, 1),
                "max_ms": round(max(values, default=0) * 1000, 1), "errors": self.errors_by_method.get(m, 0),
                "cancelled": self.cancelled_by_method.get(m, 0), "content_modified": self.content_modified.get(m, 0),
            }
            steady = self.latency_steady.get(m, [])
            methods[m].update({"steady_count": len(steady), "steady_p95_ms": round(percentile(steady, 0.95) * 1000, 1),
                               "steady_max_ms": round(max(steady, default=0) * 1000, 1)})
            if m not in LATENCY_EXEMPT and values and (methods[m]["p95_ms"] > 100 or methods[m]["max_ms"] > 2000):
                why = " (waits for the version's compile by design)" if m in WAITS_FOR_COMPILE else ""
                self.flags.append(f"latency {m}: p95 {methods[m]['p95_ms']} ms, max {methods[m]['max_ms']} ms{why}")
        after, end = self.rss.get("after_100"), self.rss.get("end")
        if after and end and end > 1.5 * after:
            self.flags.append(f"RSS grew: {after} KiB after 100 edits -> {end} KiB at the end")
        # the worker pool starts on demand: growth is measured from the larger of after-100 and mid-run
        base = max(self.children.get("after_100", 0), self.children.get("half", 0))
        if "after_100" in self.children and self.children.get("end", 0) > base + 1:
            self.flags.append(f"children grew: {self.children['after_100']} after 100 edits, {self.children.get('half')} mid-run "
                              f"-> {self.children['end']} at the end")
        failures = {k: {"count": self.failure_counts[k], "samples": v} for k, v in sorted(self.failures.items())}
        for k, c in self.failure_counts.items():
            failures.setdefault(k, {"count": c, "samples": []})
        return {
            "options": {k: v for k, v in vars(self.opts).items() if k != "server"} | {"server": self.opts.server},
            "duration_s": round(time.monotonic() - self.start_time, 1),
            "edits": self.steps,
            "edit_kinds": dict(self.edit_kinds),
            "documents": [d.name for d in self.docs.values()],
            "requests_sent": dict(self.requests_sent),
            "requests_skipped_backlog": self.skipped_requests,
            "server_requests": dict(self.server_requests),
            "notifications": dict(self.notifications),
            "methods": methods,
            "refused": dict(self.refused),
            "rss_kib": self.rss,
            "children": self.children | {"max_seen": self.max_children, "distinct_seen": len(self.seen_children)},
            "children_names": self.children_names,
            "orphans": getattr(self, "orphans", []),
            "text_checks": {"count": self.text_checks, "mode": self.text_check_mode, "predicted_drift_not_visible": self.inconclusive,
                            "reopened_after_mismatch": {d.name: d.reopened for d in self.docs.values() if d.reopened}},
            "invalid_ranges_after_drift": dict(self.after_drift),
            "notes": self.notes,
            "slowest": sorted(self.slow, key=lambda x: -x["ms"])[:40],
            "slow_by_second": dict(Counter(int(x["t_s"]) for x in self.slow).most_common(15)),
            "shadow_fits": self.shadow_fits[:20],
            "final": self.final,
            "handler_exceptions": {k: {**v, "channels": dict(v["channels"])} for k, v in self.exceptions.items()},
            "failures": failures,
            "flags": self.flags,
            "load_avg": os.getloadavg(),
            "cpus": os.cpu_count(),
        }


# -- helpers the checks share ----------------------------------------------------------------
_CLI_ENV: dict[str, str] | None = None


async def run_cli(args: list[str]) -> dict[str, Any]:
    """`tile-lsp ARGS` (never through a compile daemon) -> its JSON output."""
    env = dict(_CLI_ENV or os.environ)
    env["TILE_LSP_DAEMON"] = "0"
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "tile_lsp", *args, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE, env=env, cwd=str(ROOT))
    out, err = await asyncio.wait_for(proc.communicate(), 600)
    try:
        return json.loads(out.decode("utf-8", "replace"))
    except json.JSONDecodeError:
        return {"diagnostics": [], "cli_error": err.decode("utf-8", "replace")[-2000:]}


def expected_features(text: str, path: str) -> dict[str, Any]:
    """What the server answers for these requests if it holds `text`: the same features, here
    (a fresh item cache), converted as facade.py converts them."""
    from lsprotocol import converters
    from lsprotocol import types as lsp

    from tile_lsp import protocol as proto
    from tile_lsp.compiler.document import ItemCache, analyze
    from tile_lsp.compiler.source import SourceText, Span
    from tile_lsp.facade import SYMBOL_KIND as _SYMBOL_KIND
    from tile_lsp.features import formatting, semantic_tokens, symbols

    conv = converters.get_converter()
    doc = analyze(text, path, ItemCache())

    def convert(sym: Any) -> lsp.DocumentSymbol:
        return lsp.DocumentSymbol(name=sym.name, detail=sym.detail, kind=_SYMBOL_KIND[sym.kind], range=proto.to_range(doc.source, sym.span),
                                  selection_range=proto.to_range(doc.source, sym.selection), children=[convert(c) for c in sym.children])

    out: dict[str, Any] = {
        "textDocument/semanticTokens/full": {"data": proto.encode_semantic_tokens(doc.source, semantic_tokens.semantic_tokens(doc))},
        "textDocument/documentSymbol": conv.unstructure([convert(s) for s in symbols.document_symbols(doc)], list[lsp.DocumentSymbol]),
        "textDocument/foldingRange": conv.unstructure(
            [lsp.FoldingRange(start_line=a, end_line=b, kind=lsp.FoldingRangeKind.Region) for a, b in symbols.folding_ranges(doc)], list[lsp.FoldingRange]),
    }
    new = formatting.format_text(text)
    if new is None or new == text:
        out["textDocument/formatting"] = []
    else:
        source = SourceText(text)
        out["textDocument/formatting"] = conv.unstructure([lsp.TextEdit(range=proto.to_range(source, Span(0, len(text))), new_text=new)], list[lsp.TextEdit])
    return out


def first_token_difference(got: list[int], want: list[int], text: str) -> dict[str, Any]:
    def absolute(data: list[int]) -> list[tuple[int, int, int, int]]:
        out, line, col = [], 0, 0
        for i in range(0, len(data) - 4, 5):
            line, col = line + data[i], (col + data[i + 1] if data[i] == 0 else data[i + 1])
            out.append((line, col, data[i + 2], data[i + 3]))
        return out

    a, b = absolute(got), absolute(want)
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return {"index": i, "server": x, "expected": y, "server_tokens": len(a), "expected_tokens": len(b)}
    return {"index": min(len(a), len(b)), "server_tokens": len(a), "expected_tokens": len(b)}


def new_shadow(uri: str, text: str, version: int) -> Any:
    """pygls's TextDocument, as the server's workspace makes it (incremental sync, UTF-16)."""
    from lsprotocol import types as lsp
    from pygls.workspace import TextDocument

    return TextDocument(uri, text, version=version, sync_kind=lsp.TextDocumentSyncKind.Incremental)


def shadow_apply(shadow: Any, content: list[dict[str, Any]]) -> None:
    from lsprotocol import types as lsp

    for change in content:
        r = change["range"]
        rng = lsp.Range(start=lsp.Position(**r["start"]), end=lsp.Position(**r["end"]))
        shadow.apply_change(lsp.TextDocumentContentChangePartial(range=rng, text=change["text"]))


def drift_sample(before: str, content: list[dict[str, Any]], server: str, client: str, version: int) -> dict[str, Any]:
    """The didChange after which pygls's text differs from the client's: the reproduction."""
    first = next((k for k, (x, y) in enumerate(zip(server, client)) if x != y), min(len(server), len(client)))
    return {
        "version": version, "changes": content,
        "text_before": before if len(before) <= 2000 else None,
        "before_excerpt": before[max(0, first - 60) : first + 60],
        "client_after_excerpt": client[max(0, first - 60) : first + 60],
        "pygls_after_excerpt": server[max(0, first - 60) : first + 60],
        "pygls_line_breaks_in_text": sorted({repr(c) for c in before + "".join(c["text"] for c in content)
                                             if c in "\f\v\x1c\x1d\x1e\x85\u2028\u2029"}),
    }


def _show_diag(key: tuple[Any, ...], text: str) -> dict[str, Any]:
    offset, severity, message = key
    out: dict[str, Any] = {"offset": offset, "severity": severity, "message": message[:200]}
    if isinstance(offset, int):
        src_lines = product_lines(text)
        line = bisect.bisect_right(src_lines, offset) - 1
        out["line"] = line + 1
        out["column"] = offset - src_lines[line] + 1
    return out


def summary(rep: dict[str, Any]) -> str:
    out = []
    opts = rep["options"]
    out.append(f"tile-lsp fuzz: seed {opts['seed']}, {rep['edits']} edits over {', '.join(rep['documents'])} in {rep['duration_s']} s "
               f"(pipeline {'off' if opts['no_pipeline'] else 'on'}, {'burst' if opts['burst'] else str(opts['rate']) + ' edits/s'}; "
               f"load avg {', '.join(f'{x:.1f}' for x in rep['load_avg'])} on {rep['cpus']} CPUs)")
    out.append("edit kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(rep["edit_kinds"].items(), key=lambda kv: -kv[1])))
    out.append(f"{'method':36} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>9} {'err':>4} {'canc':>5} {'modif':>5} {'p95 after':>9} {'max after':>9}")
    for m, s in rep["methods"].items():
        out.append(f"{m:36} {s['count']:6d} {s['p50_ms']:8.1f} {s['p95_ms']:8.1f} {s['max_ms']:9.1f} {s['errors']:4d} {s['cancelled']:5d} {s['content_modified']:5d} "
                   f"{s.get('steady_p95_ms', 0):9.1f} {s.get('steady_max_ms', 0):9.1f}")
    out.append(f"requests skipped (backlog): {rep['requests_skipped_backlog']}; server->client requests: {rep['server_requests']}")
    out.append(f"RSS KiB: {rep['rss_kib']}; children: {rep['children']}; orphans: {len(rep['orphans'])}")
    out.append(f"text checks: {rep['text_checks']['count']} ({rep['text_checks']['mode']}); documents reopened after a mismatch: "
               f"{rep['text_checks']['reopened_after_mismatch'] or 'none'}; invalid ranges on drifted text (not counted): "
               f"{sum(rep['invalid_ranges_after_drift'].values())}")
    for note in rep["notes"]:
        out.append("note: " + note)
    for name, f in rep["final"].items():
        out.append(f"final {name}: v{f['version']}, {f['length']} chars, front-end errors {f['front_end_errors']}, pipeline {f['pipeline']}, "
                   f"check {f.get('cli_check')} + compile {f.get('cli_compile', '-')} / server front {f.get('server_front')} + "
                   f"stage {f.get('server_stage')} (compared: {f.get('compared')})")
    if rep["refused"]:
        out.append(f"refused (by design): {rep['refused']}")
    for key, e in rep["handler_exceptions"].items():
        req = e.get("request") or {}
        out.append(f"EXCEPTION x{e['count']}: {key} [{e['handler']}] {e['message'][:160]} (request: {req.get('method')} {req.get('position', '')})")
    for kind, f in rep["failures"].items():
        out.append(f"FAIL {kind}: {f['count']}")
        for s in f["samples"][:3]:
            out.append("    " + json.dumps(s, ensure_ascii=True)[:400])
    for flag in rep["flags"]:
        out.append("FLAG " + flag)
    out.append("RESULT: " + ("FAIL (" + ", ".join(f"{k} {v['count']}" for k, v in rep["failures"].items()) + ")" if rep["failures"] else "no failures"))
    return "\n".join(out)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--edits", type=int, default=10000, help="didChange notifications to send (default 10000)")
    ap.add_argument("--kernels", help=f"comma-separated cuTile kernel names or paths (default {','.join(DEFAULT_KERNELS)} "
                    "plus --nvidia-docs of ../shared/kernels/nvidia)")
    ap.add_argument("--nvidia-docs", type=int, default=2, help="NVIDIA example kernels opened too when --kernels is not given")
    ap.add_argument("--time-limit", type=float, default=0, help="stop editing after this many seconds")
    ap.add_argument("--no-pipeline", action="store_true", help="no target: the background pipeline does not compile")
    ap.add_argument("--warmup", type=float, default=30.0,
                    help="the table's 'after' columns: p95/max of requests sent this many seconds into the run "
                         "(past opening the documents, the worker pool's start and the first compiles; default 30)")
    ap.add_argument("--rate", type=float, default=20.0, help="edits per second (default 20, typing speed; 0: as fast as possible)")
    ap.add_argument("--burst", action="store_true", help="bursts of 5-60 edits at full speed with 0.2-1.5 s pauses")
    ap.add_argument("--check-every", type=int, default=100, help="compare the server's text with the client's every N edits")
    ap.add_argument("--cancel-rate", type=float, default=0.08, help="fraction of requests followed by $/cancelRequest")
    ap.add_argument("--request-timeout", type=float, default=30.0)
    ap.add_argument("--settle-timeout", type=float, default=120.0, help="wait this long for a final version's diagnostics")
    ap.add_argument("--max-outstanding", type=int, default=32, help="send no new request while this many are unanswered")
    ap.add_argument("--reset-every", type=int, default=400, help="revert a document to its original text after this many edits")
    ap.add_argument("--final-clean", type=float, default=0.5,
                    help="fraction of the documents whose last edit reverts them to the original (default 0.5)")
    ap.add_argument("--no-compare-compile", dest="compare_compile", action="store_false",
                    help="final diagnostics: compare the front end's only (not `tile-lsp compile`'s stage diagnostics)")
    ap.add_argument("--user-cache", action="store_true", help="use the user's tile-lsp cache (default: a fresh one)")
    ap.add_argument("--server", nargs="+", help="server command (default .venv/bin/tile-lsp serve)")
    ap.add_argument("--json", help="write every number and sample here")
    ap.add_argument("--samples", type=int, default=8, help="samples kept per failure kind")
    ap.add_argument("--save-texts", action="store_true", help="write the text of each failing request to --artifacts")
    ap.add_argument("--artifacts", default=os.path.join(tempfile.gettempdir(), "tile-lsp-fuzz-artifacts"),
                    help="where reproductions (texts before a drift, failing texts) are written")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (documents, cache)")
    ap.add_argument("--strict", action="store_true", help="flags (latency, RSS, children) fail too")
    ap.add_argument("-v", "--verbose", action="store_true")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    opts = parse_args(argv)
    fuzz = Fuzzer(opts)
    loop = asyncio.new_event_loop()
    try:
        rep = loop.run_until_complete(fuzz.run())
    except KeyboardInterrupt:
        rep = fuzz.report()
    finally:
        if fuzz.client is not None and fuzz.client.alive():  # (an abnormal end): the server and what it started
            left = descendants(fuzz.client.pid)
            for pid in [fuzz.client.pid, *left]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        loop.close()
        if not opts.keep:
            shutil.rmtree(fuzz.tmp, ignore_errors=True)
    print(summary(rep))
    if opts.json:
        pathlib.Path(opts.json).write_text(json.dumps(rep, indent=1, ensure_ascii=True, default=str))
    return 1 if rep["failures"] or (opts.strict and rep["flags"]) else 0


if __name__ == "__main__":
    sys.exit(main())
