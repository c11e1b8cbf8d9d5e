"""Issue 30's table: tile-lsp and mlir-lsp-server 22 side by side at 1k, 10k and 50k lines, on
files generated from every real kernel, the worst corpus per metric reported.

Per file, over stdio (the client of bench/lsp_latency.py): cold start (process start ->
initialize answered, and -> the first diagnostics after didOpen); edit -> diagnostics of that
version, p50/p95, for two kinds of typing in the middle of the file: (1) a value name broken and
restored (bench/lsp_latency.py's edits), (2) characters typed into a comment at the end of an op
line, one per didChange, every version new valid text -- each kind sent when the previous
edit's diagnostics arrived, and (2) also at a fixed cadence (`--cadence-ms`, a fast typist);
hover and definition p95 at points spread over the whole file. Then attention's pipeline (edit ->
stage diagnostics, -> ptxas done, bench/pipeline_editor.py's edits) and open -> code lens with
resource numbers, cold (fresh server, empty disk cache) and warm (a second server, same cache).

Corpora (cuda_tile, from tests/data/cutile/*.mlir and examples/*.mlir):
  repeat:K   kernel K's entries copied (renamed) into one cuda_tile.module;
  mixed      every kernel's entries round-robin (bench/lsp_latency.py's corpus);
  huge:K     one entry: K's largest entry's body repeated with renamed SSA values;
  debug:K    K's *.g.mlir (tileirdisasm -g: loc(#locN) on every op, the aliases at the end)
             entries copied; debug-mixed: every *.g.mlir, its aliases renamed per file.
mlir-lsp-server gets the upstream GPU-dialect corpus of bench/lsp_latency.py at the same sizes.
At 1k every corpus is measured in full; at 10k every kernel is first scanned with few edits and
the worst `--worst` measured in full, and those go on to 50k.

`python bench/lsp_scale.py [--sizes 1k,10k,50k] [--edits N] [--quick] [--json OUT]
 [--server-python PY --cwd CHECKOUT] [--no-pipeline]`
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("pipeline_editor", ROOT / "bench" / "pipeline_editor.py")
assert _spec is not None and _spec.loader is not None
pipeline_editor = importlib.util.module_from_spec(_spec)
sys.modules["pipeline_editor"] = pipeline_editor
_spec.loader.exec_module(pipeline_editor)
lsp_latency = pipeline_editor.lsp_latency  # (one copy of the client module for both)
LspClient = lsp_latency.LspClient
Result = lsp_latency.Result

KERNELS = ROOT / "tests" / "data" / "cutile"
EXAMPLES = ROOT / "examples"
SIZES = {"1k": 1000, "10k": 10000, "50k": 50000}
# Issue 30's targets (milliseconds): edit p95 at every size, hover p95 at every size, cold start at 1k.
TARGETS = {"edit_p95_ms": 3.0, "hover_p95_ms": 2.0, "cold_start_ms": 300.0}
GPU_NAME = "sm_90a"


# --------------------------------------------------------------------------- servers
class Server:
    """A server command, where it runs and what it adds to the environment."""

    def __init__(self, name: str, cmd: list[str], cwd: pathlib.Path | None = None, env: dict[str, str] | None = None):
        self.name, self.cmd, self.cwd, self.env = name, cmd, cwd, env or {}

    async def start(self, cache: pathlib.Path | None = None) -> LspClient:
        env = {**os.environ, **self.env}
        if cache is not None:  # tile-lsp's disk cache is $XDG_CACHE_HOME/tile-lsp (entry_cache.default_directory)
            env["XDG_CACHE_HOME"] = str(cache)
        proc = await asyncio.create_subprocess_exec(
            *self.cmd,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            limit=1 << 26,
            cwd=self.cwd,
            env=env,
        )
        return LspClient(proc)


def tile_server(python: str, cwd: pathlib.Path, pipeline: bool) -> Server:
    """`serve` as an editor starts it ("tile-lsp+pipeline"), or its front end alone ("tile-lsp",
    `--no-pipeline`: no compiles, so nothing waits for one)."""
    cmd = [python, "-m", "tile_lsp", "serve", *([] if pipeline else ["--no-pipeline"])]
    return Server("tile-lsp+pipeline" if pipeline else "tile-lsp", cmd, cwd, {"PYTHONPATH": str(cwd)})


async def initialize(client: LspClient, options: dict[str, Any] | None = None) -> dict[str, Any]:
    params = {
        "processId": None,
        "rootUri": None,
        "capabilities": {"textDocument": {"hover": {"contentFormat": ["markdown"]}}},
        "initializationOptions": options or {"gpuName": GPU_NAME},
    }
    result = await client.request("initialize", params)
    client.notify("initialized", {})
    return result  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- corpora
def _module_body(text: str) -> str:
    """examples/*.mlir wrap their entries in a cuda_tile.module: its body, dedented."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, ln in enumerate(lines) if ln.startswith("cuda_tile.module"))
    end = max(i for i, ln in enumerate(lines) if ln.startswith("}"))
    return "".join(ln[2:] if ln.startswith("  ") else ln for ln in lines[start + 1 : end])


def kernel_entries() -> dict[str, list[str]]:
    """Every real cuda_tile kernel file (examples/broken.mlir is broken on purpose): its entries."""
    out: dict[str, list[str]] = {}
    for path in sorted(KERNELS.glob("*.mlir")):
        if not path.name.endswith(".g.mlir"):
            out[path.stem] = lsp_latency.split_entries(path.read_text(encoding="utf-8"))
    for path in sorted(EXAMPLES.glob("*.mlir")):
        text = path.read_text(encoding="utf-8")
        if path.stem != "broken" and "cuda_tile.module" in text:
            out[f"examples/{path.stem}"] = lsp_latency.split_entries(_module_body(text))
    return out


def upstream_repeat(path: pathlib.Path, min_lines: int) -> str:
    """An upstream-dialect example (examples/block_sum.mlir): its module's body copied, each
    copy's symbols renamed (@x -> @x_c<n>), until `min_lines`."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, ln in enumerate(lines) if ln.startswith("module"))
    end = max(i for i, ln in enumerate(lines) if ln.startswith("}"))
    body, out, n = lines[start + 1 : end], [], 0
    while len(out) + 2 < min_lines:
        out += [re.sub(r"@([\w$.-]+)", rf"@\1_c{n}", ln) for ln in body]
        n += 1
    return lines[start] + "".join(out) + "}\n"


_SSA = re.compile(r"%([\w$.-]+)")


def huge_entry(entry: str, min_lines: int) -> str:
    """One entry of at least `min_lines` lines: `entry`'s body (less its final return) repeated,
    every value it defines renamed per copy (%x -> %r<k>_x), the entry's arguments shared."""
    lines = entry.rstrip("\n").splitlines(keepends=True)
    header_end = next(i for i, ln in enumerate(lines) if ln.rstrip().endswith("{"))
    header = "".join(lines[: header_end + 1])
    args = {m.group(1) for m in _SSA.finditer(header)}
    body = lines[header_end + 1 : -1]
    ret = max(i for i, ln in enumerate(body) if re.match(r"  return\b", ln))
    ops, tail = body[:ret], body[ret:]
    out: list[str] = []
    k = 0
    while len(out) + len(tail) + 4 < min_lines:
        out += [_SSA.sub(lambda m, k=k: m.group(0) if m.group(1) in args else f"%r{k}_{m.group(1)}", ln) for ln in ops]
        k += 1
    text = header + "".join(out) + "".join(tail) + lines[-1] + "\n"
    return lsp_latency.module_corpus([text], 3)


def debug_copy(path: pathlib.Path, n: int) -> tuple[str, str]:
    """Copy `n` of a *.g.mlir: (its entries, its alias definitions -- the lines from the first
    `#name =` on), each entry, its subprogram's linkageName and every alias renamed with `_c<n>`
    (the verifier wants an entry's name to be its subprogram's linkageName)."""
    text = path.read_text(encoding="utf-8")
    cut = m.start() if (m := re.search(r"^#", text, re.M)) else len(text)
    names = set(re.findall(r"^#([\w$.-]+) =", text[cut:], re.M))
    entries = set(re.findall(r"^entry @([\w$.-]+)", text, re.M))

    def rename(m: re.Match[str]) -> str:
        return m.group(0) + f"_c{n}" if m.group(2) in (names if m.group(1) == "#" else entries) else m.group(0)

    renamed = re.sub(r'(#|@|linkageName = ")([\w$.-]+)', rename, text)
    cut = re.search(r"^#", renamed, re.M)
    at = cut.start() if cut else len(renamed)
    return renamed[:at], renamed[at:]


def debug_corpus(paths: list[pathlib.Path], min_lines: int) -> str:
    """Copies of `paths` (round-robin) until `min_lines`: their entries in one cuda_tile.module,
    then every copy's aliases, at the end as tileirdisasm -g writes them."""
    code: list[str] = []
    aliases: list[str] = []
    n = 0
    while 2 + sum(c.count("\n") for c in code + aliases) < min_lines:
        entries, defs = debug_copy(paths[n % len(paths)], n)
        code.append("".join("  " + ln if ln.strip() else ln for ln in entries.rstrip().splitlines(keepends=True)) + "\n")
        aliases.append(defs)
        n += 1
    return "cuda_tile.module @bench {\n" + "".join(code) + "}\n" + "".join(aliases)


def corpora(size: int, which: set[str] | None = None) -> dict[str, str]:
    """Every cuda_tile corpus at `size` lines (names: repeat:K, mixed, huge:K, debug:K, debug-mixed)."""
    out: dict[str, str] = {}
    kernels = kernel_entries()
    for name, entries in kernels.items():
        out[f"repeat:{name}"] = lsp_latency.module_corpus(entries, size)
    out["repeat:examples/block_sum"] = upstream_repeat(EXAMPLES / "block_sum.mlir", size)
    out["mixed"] = lsp_latency.cuda_tile_corpus(size)
    for name, entries in kernels.items():
        out[f"huge:{name}"] = huge_entry(max(entries, key=len), size)
    debug = sorted(KERNELS.glob("*.g.mlir"))
    for path in debug:
        out[f"debug:{path.name.removesuffix('.g.mlir')}"] = debug_corpus([path], size)
    out["debug-mixed"] = debug_corpus(debug, size)
    return {k: v for k, v in out.items() if which is None or k in which}


# --------------------------------------------------------------------------- edits
def middle_line(text: str) -> int:
    """The line of the middle value use: the middle of the entries (in a *.g.mlir corpus the
    second half of the lines are alias definitions)."""
    uses = lsp_latency.value_uses(text)
    return uses[len(uses) // 2][0] if uses else len(text.splitlines()) // 2


def comment_point(text: str) -> tuple[int, int]:
    """(line, end column) of an op line inside an entry, at or after the middle of the entries."""
    lines = text.splitlines()
    for n in range(middle_line(text), len(lines)):
        ln = lines[n]
        if " = " in ln and ln.startswith("    ") and "//" not in ln and not ln.rstrip().endswith("{"):
            return n, lsp_latency._utf16(ln, len(ln))
    raise RuntimeError("no op line to type a comment after")


class Typist:
    """Characters typed into a comment at the end of an op line: ' // ' first, then one character
    per edit; every 60 characters a new comment line below. Each version is new, valid text."""

    ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

    def __init__(self, text: str):
        self.lines = text.split("\n")
        self.line, self.col = comment_point(text)
        self.typed = -1

    def next(self) -> tuple[dict[str, Any], str]:
        """The next keystroke: (its ranged change, the whole new text)."""
        if self.typed < 0:
            new = " // "
        elif self.typed and self.typed % 60 == 0:
            new = "\n    // "
        else:
            new = self.ALPHABET[(self.typed * 7) % len(self.ALPHABET)]
        self.typed += 1
        pos = {"line": self.line, "character": self.col}
        change = {"range": {"start": pos, "end": pos}, "text": new}
        cur = self.lines[self.line]
        head, *rest = new.split("\n")
        if rest:
            self.lines[self.line : self.line + 1] = [cur[: self.col] + head, rest[-1] + cur[self.col :]]
            self.line, self.col = self.line + 1, len(rest[-1])
        else:
            self.lines[self.line] = cur[: self.col] + new + cur[self.col :]
            self.col += len(new)
        return change, "\n".join(self.lines)


def _change(typist: Typist, incremental: bool) -> dict[str, Any]:
    change, text = typist.next()
    return change if incremental else {"text": text}


async def typing(client: LspClient, uri: str, typist: Typist, version: int, edits: int, incremental: bool) -> tuple[list[float], int]:
    """Each keystroke sent when the previous one's diagnostics arrived: its latencies, next version."""
    samples = []
    for _ in range(edits):
        since = len(client.published)
        change = _change(typist, incremental)
        t0 = time.perf_counter()
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        when, _ = await client.diagnostics_for(uri, version, since)
        samples.append(when - t0)
        version += 1
    return samples, version


async def cadence(client: LspClient, uri: str, typist: Typist, version: int, edits: int, incremental: bool, gap: float) -> tuple[list[float], int, int]:
    """A keystroke every `gap` seconds whatever the server does; for each version, the time to the
    first diagnostics as new as it. Also how many versions got diagnostics of their own."""
    since = len(client.published)
    sent: list[tuple[int, float]] = []
    start = time.perf_counter()
    for i in range(edits):
        await asyncio.sleep(max(0.0, start + i * gap - time.perf_counter()))
        change = _change(typist, incremental)
        sent.append((version, time.perf_counter()))
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        version += 1
    await client.diagnostics_for(uri, version - 1, since)
    published = [(when, p.get("version")) for when, p in client.published[since:] if p["uri"] == uri]
    samples = []
    for v, t in sent:
        # A publish without a version counts for every version sent before it arrived.
        when = next(w for w, got in published if w >= t and (got is None or got >= v))
        samples.append(when - t)
    own = len({got for _, got in published if got is not None})
    return samples, version, own


# --------------------------------------------------------------------------- one file
async def measure(server: Server, corpus: str, size: str, text: str, edits: int, requests: int, cadence_edits: int, gap: float, cache: pathlib.Path | None) -> Result:
    """Cold start, both kinds of edits, hover and definition on one file in a fresh server."""
    label = f"{server.name} {size} {corpus}"
    uri = "file:///tmp/tile-lsp-scale/" + re.sub(r"[^\w.-]", "_", corpus) + f"_{size}.mlir"
    res = Result(label, server.name, text.count("\n"))
    res.checks["corpus"] = corpus
    t0 = time.perf_counter()
    client = await server.start(cache)
    try:
        caps = (await initialize(client)).get("capabilities", {})
        res.metrics["initialize_ms"] = (time.perf_counter() - t0) * 1e3
        sync = caps.get("textDocumentSync")
        incremental = (sync.get("change") if isinstance(sync, dict) else sync) == 2
        since = len(client.published)
        t_open = time.perf_counter()
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
        when, params = await client.diagnostics_for(uri, 1, since)
        res.metrics["cold_start_ms"] = (when - t0) * 1e3
        res.metrics["open_ms"] = (when - t_open) * 1e3
        errors = [d for d in params["diagnostics"] if d.get("severity", 1) == 1]
        res.checks["open_errors"] = len(errors)
        if errors:
            res.checks["first_error"] = f"line {errors[0]['range']['start']['line'] + 1}: {errors[0]['message'][:160]}"
        # (1) break a value name, restore it (versions 2 .. edits+2), then hover and definition.
        fe: list[float] = []
        if edits:
            fe = await lsp_latency._edits(client, uri, text, edits, incremental, res, middle_line(text))
            for key in ("p50", "p95", "max"):
                res.metrics[f"edit_fe_{key}_ms"] = res.metrics.pop(f"edit_{key}_ms")
        if requests:
            await lsp_latency._navigation(client, uri, text, requests, res)
        # (2) characters typed into a comment, each when the previous one's diagnostics came.
        typist = Typist(text)
        typed, version = await typing(client, uri, typist, edits + 3, edits, incremental)
        if typed:
            lsp_latency.summarize(res.metrics, "edit_type", typed)
        if fe or typed:  # both kinds together
            lsp_latency.summarize(res.metrics, "edit", fe + typed)
        paced: list[float] = []
        if cadence_edits:
            paced, version, own = await cadence(client, uri, typist, version, cadence_edits, incremental, gap)
            lsp_latency.summarize(res.metrics, "edit_cadence", paced)
            res.checks["cadence_versions_published"] = f"{own}/{cadence_edits}"
        res.checks["typed_at"] = f"line {comment_point(text)[0] + 1}"
        res.checks["samples_ms"] = {"break_restore": _ms(fe), "typing": _ms(typed), "cadence": _ms(paced)}
    finally:
        await client.stop()
    return res


def _ms(samples: list[float]) -> list[float]:
    """Every sample in milliseconds, in the order measured (the JSON keeps them: bimodal or not)."""
    return [round(x * 1e3, 2) for x in samples]


# --------------------------------------------------------------------------- the pipeline
async def attention_pipeline(server: Server, edits: int, tmp: pathlib.Path) -> dict[str, Any]:
    """bench/pipeline_editor.py's attention edits (a new constant in one entry, entries in turn):
    edit -> its stage diagnostics and -> ptxas done, as tileLsp/pipelineStatus says."""
    client = await server.start(tmp / "cache-attention")
    try:
        await initialize(client, {"gpuName": GPU_NAME, "pipelineTimeout": 600, "previewOnSave": False})
        text = (KERNELS / "attention.mlir").read_text(encoding="utf-8")
        doc = pipeline_editor.Doc(client, tmp / "attention.mlir", text)
        await pipeline_editor.pipeline_statuses(client, doc, 0)  # the first compile
        stages, done = [], []
        for i in range(edits):
            since = len(client.notifications)
            t = time.perf_counter()
            doc.change(pipeline_editor.edit_entry(doc.text, i % len(pipeline_editor.entries_of(text)), i))
            (stages_at, _), (done_at, _) = await pipeline_editor.pipeline_statuses(client, doc, since)
            stages.append(stages_at - t)
            done.append(done_at - t)
    finally:
        await client.stop()
    return {"edit_to_stage_diagnostics": pipeline_editor.summary(stages), "edit_to_ptxas_done": pipeline_editor.summary(done)}


def _has_resources(lenses: Any) -> bool:
    return bool(lenses) and any(" regs " in lens.get("command", {}).get("title", "") for lens in lenses)


async def open_to_lens(server: Server, cache: pathlib.Path, tmp: pathlib.Path) -> dict[str, Any]:
    """A fresh server opens attention: process start and didOpen -> the first textDocument/codeLens
    answer with ptxas's numbers (polled every 50 ms)."""
    t0 = time.perf_counter()
    client = await server.start(cache)
    try:
        await initialize(client, {"gpuName": GPU_NAME, "pipelineTimeout": 600, "previewOnSave": False})
        t_open = time.perf_counter()
        doc = pipeline_editor.Doc(client, tmp / "attention_lens.mlir", (KERNELS / "attention.mlir").read_text(encoding="utf-8"))
        polls = 0
        while True:
            polls += 1
            lenses = await client.request("textDocument/codeLens", {"textDocument": {"uri": doc.uri}})
            if _has_resources(lenses):
                break
            if time.perf_counter() - t_open > lsp_latency.TIMEOUT_S:
                raise TimeoutError("no code lens with resources")
            await asyncio.sleep(0.05)
        now = time.perf_counter()
    finally:
        await client.stop()
    titles = [lens["command"]["title"] for lens in lenses]
    return {"from_process_start_ms": (now - t0) * 1e3, "from_open_ms": (now - t_open) * 1e3, "polls": polls, "lenses": titles}


async def code_lens(server: Server, tmp: pathlib.Path) -> dict[str, Any]:
    cache = pathlib.Path(tempfile.mkdtemp(prefix="lens-cache-", dir=tmp))
    return {"cold": await open_to_lens(server, cache, tmp), "warm": await open_to_lens(server, cache, tmp)}


# --------------------------------------------------------------------------- the run
FAMILIES = ("repeat:", "huge:", "debug:")
UPSTREAM = {"repeat:examples/block_sum"}  # gpu/arith/memref text, not cuda_tile  # one corpus per kernel: the worst few go on


def family(corpus: str) -> str:
    return next((f for f in FAMILIES if corpus.startswith(f)), corpus)


def score(r: Result) -> float:
    """What "worst" means when choosing corpora: edit -> diagnostics p95, both kinds."""
    return float(r.metrics.get("edit_p95_ms", 0.0))


def worst_per_family(results: list[Result], count: int) -> list[str]:
    out: list[str] = []
    for fam in FAMILIES:
        ranked = sorted((r for r in results if family(r.checks["corpus"]) == fam), key=score, reverse=True)
        out += [r.checks["corpus"] for r in ranked[:count]]
    return out


def _progress(r: Result, scan: bool = False) -> None:
    m = r.metrics
    got = " ".join(f"{k.removesuffix('_ms')}={m[k]:.1f}" for k in ("cold_start_ms", "edit_p95_ms", "hover_p95_ms") if k in m)
    bad = f" OPEN ERRORS={r.checks['open_errors']} ({r.checks.get('first_error', '')})" if r.checks.get("open_errors") else ""
    print(f"  {'scan ' if scan else ''}{r.label} ({r.lines} lines): {got}{bad}", file=sys.stderr, flush=True)


class Budget:
    """Edits per file within --file-budget seconds, from an estimate of one edit's time: the last
    measurement of that corpus (its edit p50), scaled by the size ratio when it was smaller."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.known: dict[str, tuple[int, float]] = {}  # corpus -> (lines, seconds per edit)
        self.skipped: list[str] = []

    def learn(self, r: Result) -> None:
        if "edit_p50_ms" in r.metrics:
            self.known[r.checks["corpus"]] = (r.lines, r.metrics["edit_p50_ms"] / 1e3)

    def settings(self, corpus: str, n: int, wanted: dict[str, Any], floor: int = 4) -> dict[str, Any] | None:
        """`wanted` with fewer edits where they would not fit; None: not even `floor` would."""
        if corpus not in self.known:
            return wanted
        lines, per_edit = self.known[corpus]
        per_edit *= max(1.0, n / max(lines, 1))
        kinds = 3 if wanted["cadence_edits"] else 2
        fits = int(self.seconds / (kinds * max(per_edit, 1e-3)))
        if fits < floor and per_edit * floor * kinds > 3 * self.seconds:
            self.skipped.append(f"{corpus} at {n} lines: ~{per_edit:.1f} s an edit (estimated)")
            return None
        edits = max(floor, min(wanted["edits"], fits))
        return {**wanted, "edits": edits, "cadence_edits": min(wanted["cadence_edits"], edits)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="tile-lsp-scale-"))
    cache = tmp / "cache"  # one fresh disk cache for the run's tile-lsp servers
    front = tile_server(args.server_python, args.cwd, pipeline=False)
    shipped = None if args.no_pipeline else tile_server(args.server_python, args.cwd, pipeline=True)
    server_bin, opt = args.mlir_bin / "mlir-lsp-server", args.mlir_bin / "mlir-opt"
    theirs = Server("mlir-lsp-server", [str(server_bin)]) if server_bin.exists() and opt.exists() and lsp_latency.GPU_OPS.exists() else None
    full = {"edits": args.edits, "requests": args.requests, "cadence_edits": args.cadence_edits, "gap": args.cadence_ms / 1e3}
    few = {"edits": args.scan_edits, "requests": args.scan_edits * 2, "cadence_edits": 0, "gap": 0.0}
    budget, scan_budget = Budget(args.file_budget), Budget(args.file_budget / 4)
    results: list[Result] = []
    scans: list[Result] = []
    previous: list[Result] = []
    kernel_corpora = [c for c in corpora(1000) if family(c) in FAMILIES]

    async def one(server: Server, corpus: str, size: str, text: str, wanted: dict[str, Any], within: Budget) -> Result | None:
        settings = within.settings(corpus, SIZES[size], wanted, floor=2 if within is scan_budget else 4)
        if settings is None:
            print(f"  skipped {server.name} {size} {corpus}: {within.skipped[-1]}", file=sys.stderr, flush=True)
            return None
        r = await measure(server, corpus, size, text, cache=cache if server.name.startswith("tile-lsp") else None, **settings)
        if server is front:
            budget.learn(r)
            scan_budget.learn(r)
        _progress(r, scan=within is scan_budget)
        return r

    for size in args.sizes:
        n = SIZES[size]
        print(f"{size}:", file=sys.stderr, flush=True)
        here: list[Result] = []
        settings = full if n <= 10000 else {**full, "edits": max(2, args.edits // 2), "cadence_edits": max(2, args.cadence_edits // 2)}
        if n <= 10000:  # kernels' corpora scanned (front end, few edits), the worst measured in full
            candidates = [*kernel_corpora, "mixed", "debug-mixed"]
            if scans:  # past the first size: the worst --scan-top of each family before, no huge entry
                candidates = [c for c in worst_per_family(scans, args.scan_top) if not c.startswith("huge:")]
            ranked = []
            for corpus, text in corpora(n, set(candidates)).items():
                if (r := await one(front, corpus, size, text, few, scan_budget)) is not None:
                    ranked.append(r)
            chosen = worst_per_family(ranked, args.worst)
            if scans:  # a huge entry re-parses per keystroke: the 1k scan's worst go on, with few edits
                chosen += [c for c in worst_per_family(scans, args.worst) if c.startswith("huge:")]
            scans += ranked
            chosen += ["mixed", "debug-mixed"]
        else:  # the worst of the size before (no huge entry past 10k), fewer edits
            chosen = [c for c in worst_per_family(previous, args.worst) if not c.startswith("huge:")] + ["mixed", "debug-mixed"]
        texts = corpora(n, set(chosen))
        for corpus in chosen:
            if (r := await one(front, corpus, size, texts[corpus], settings, budget)) is not None:
                here.append(r)
        previous = list(here)
        if shipped is not None and here:  # the server as an editor starts it: the mixed and the worst corpus
            worst = max(here, key=score).checks["corpus"]
            valid = {**settings, "edits": args.pipeline_file_edits, "cadence_edits": args.pipeline_file_edits}
            for corpus in dict.fromkeys(["mixed", worst]):
                if (r := await one(shipped, corpus, size, texts[corpus], valid, budget)) is not None:
                    here.append(r)
        if theirs is not None and (r := await one(theirs, "gpu", size, lsp_latency.gpu_corpus(opt, n), settings, budget)):
            here.append(r)
        results += here
    report: dict[str, Any] = {"results": [r.__dict__ for r in results], "scans": [r.__dict__ for r in scans]}
    report["skipped"] = scan_budget.skipped + budget.skipped
    if shipped is not None:
        print("attention pipeline, code lens:", file=sys.stderr, flush=True)
        report["attention"] = await attention_pipeline(shipped, args.pipeline_edits, tmp)
        report["code_lens"] = await code_lens(shipped, tmp)
    report["mlir_lsp_server"] = str(server_bin) if theirs else f"not measured: {server_bin} or {opt} missing (apt-get install mlir-22-tools)"
    return report


# --------------------------------------------------------------------------- the table
ROWS = [
    ("initialize_ms", "start -> initialize answered"),
    ("cold_start_ms", "start -> first diagnostics (cold)"),
    ("open_ms", "didOpen -> first diagnostics"),
    ("edit_p50_ms", "edit -> diagnostics p50 (both kinds)"),
    ("edit_p95_ms", "edit -> diagnostics p95 (both kinds)"),
    ("edit_fe_p95_ms", "  break/restore a value p95"),
    ("edit_type_p50_ms", "  comment typing p50"),
    ("edit_type_p95_ms", "  comment typing p95"),
    ("edit_cadence_p50_ms", "  typing every N ms, p50"),
    ("edit_cadence_p95_ms", "  typing every N ms, p95"),
    ("hover_p95_ms", "hover p95"),
    ("definition_p95_ms", "definition p95"),
]


def worst_of(results: list[Result], key: str) -> Result | None:
    having = [r for r in results if key in r.metrics]
    return max(having, key=lambda r: r.metrics[key]) if having else None


def print_table(report: dict[str, Any], sizes: list[str], cadence_ms: float) -> dict[str, Any]:
    results = [Result(**d) for d in report["results"]]
    worst: dict[str, Any] = {}
    for size in sizes:
        here = [r for r in results if r.label.split()[1] == size]
        ours = [r for r in here if r.server == "tile-lsp"]
        shipped = [r for r in here if r.server == "tile-lsp+pipeline"]
        theirs = next((r for r in here if r.server == "mlir-lsp-server"), None)
        print(f"\n## {size} lines (milliseconds; worst = the slowest of the corpora measured in full, named with its line count)")
        print("| metric | tile-lsp front end: worst | its corpus | worst cuda_tile (corpus) | tile-lsp front end: mixed | tile-lsp with pipeline: worst (corpus) | mlir-lsp-server, gpu |")
        print("|---|---:|---|---:|---:|---:|---:|")
        for key, title in ROWS:
            w = worst_of(ours, key)
            if w is None:
                continue
            worst[f"{size} {key}"] = {"value": w.metrics[key], "corpus": w.checks["corpus"], "lines": w.lines}
            mixed = next((r for r in ours if r.checks["corpus"] == "mixed"), None)
            tile = worst_of([r for r in ours if r.checks["corpus"] not in UPSTREAM], key)
            title = title.replace("N ms", f"{cadence_ms:.0f} ms")
            print(f"| {title} | {w.metrics[key]:.1f} | {w.checks['corpus']} ({w.lines}) | {_named(tile, key)} | {_cell(mixed, key)} | {_named(worst_of(shipped, key), key)} | {_cell(theirs, key)} |")
        counts = f"{len(ours)} corpora in full (front end), {len(shipped)} with the pipeline"
        print(f"({counts}; mlir-lsp-server on {theirs.lines if theirs else '-'} lines)")
        invalid = [f"{r.server} {r.checks['corpus']}" for r in here if r.checks.get("open_errors")]
        if invalid:
            print(f"corpora with errors on open (their numbers are kept): {', '.join(invalid)}")
    return worst


def _named(r: Result | None, key: str) -> str:
    return f"{r.metrics[key]:.1f} ({r.checks['corpus']})" if r is not None else "-"


def _cell(r: Result | None, key: str) -> str:
    return f"{r.metrics[key]:.1f}" if r is not None and key in r.metrics else "-"


def verdicts(report: dict[str, Any], sizes: list[str]) -> list[dict[str, Any]]:
    results = [Result(**d) for d in report["results"] if d["server"].startswith("tile-lsp")]
    out = []
    for size, server in ((size, server) for server in ("tile-lsp", "tile-lsp+pipeline") for size in sizes):
        here = [r for r in results if r.label.split()[1] == size and r.server == server]
        checks = [("edit_p95_ms", "edit_p95_ms"), ("hover_p95_ms", "hover_p95_ms")]
        if size == "1k":
            checks.append(("cold_start_ms", "cold_start_ms"))
        for key, target in checks:
            w = worst_of(here, key)
            if w is not None:
                value = w.metrics[key]
                out.append({"server": server, "size": size, "metric": key, "value": value, "target": TARGETS[target], "corpus": w.checks["corpus"], "met": value <= TARGETS[target]})
    return out


def print_report(report: dict[str, Any], args: argparse.Namespace) -> None:
    print(f"tile-lsp at {report['commit']} ({args.cwd}); mlir-lsp-server: {report['mlir_lsp_server']}")
    print(f"machine: {os.cpu_count()} cores, load average before {report['load_before']}, after {report['load_after']}")
    report["worst"] = print_table(report, args.sizes, args.cadence_ms)
    print("\n## targets (issue 30), the worst corpus at each size")
    for v in report["verdicts"]:
        print(f"{v['server']:18s} {v['size']:>4s} {v['metric']:16s} {v['value']:9.2f} ms <= {v['target']:.0f} ms  {'MET' if v['met'] else 'MISSED'}  ({v['corpus']})")
    for size in args.sizes:
        ranked = sorted((d for d in report["scans"] if d["label"].split()[1] == size), key=lambda d: d["metrics"].get("edit_p95_ms", 0), reverse=True)
        if ranked:
            top = ", ".join(f"{d['checks']['corpus']} {d['metrics'].get('edit_p95_ms', 0):.1f}" for d in ranked[:6])
            print(f"\n{size} scan of {len(ranked)} corpora ({args.scan_edits} edits of each kind), worst edit p95 first: {top}")
    for line in report.get("skipped", []):
        print(f"skipped (past --file-budget): {line}")
    if "attention" in report:
        a = report["attention"]
        print(f"\n## attention.mlir pipeline ({GPU_NAME}, {args.pipeline_edits} edits)")
        print(f"edit -> stage diagnostics: {pipeline_editor.fmt(a['edit_to_stage_diagnostics'])}")
        print(f"edit -> ptxas done       : {pipeline_editor.fmt(a['edit_to_ptxas_done'])}")
        lens = report["code_lens"]
        for kind in ("cold", "warm"):
            d = lens[kind]
            print(f"{kind} open -> code lens with resources: {d['from_open_ms']:.0f} ms after didOpen, {d['from_process_start_ms']:.0f} ms after process start ({d['polls']} polls; {d['lenses'][0] if d['lenses'] else '-'})")


def commit_of(cwd: pathlib.Path) -> str:
    def git(*a: str) -> str:
        return subprocess.run(["git", "-C", str(cwd), *a], capture_output=True, text=True, check=False).stdout.strip()

    return git("rev-parse", "--short", "HEAD") + (" (+ uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1k,10k,50k", help="comma-separated, of " + ", ".join(SIZES))
    ap.add_argument("--edits", type=int, default=40, help="edits of each kind per file (50k: half)")
    ap.add_argument("--requests", type=int, default=100, help="hover and definition requests per file")
    ap.add_argument("--cadence-edits", type=int, default=40, help="keystrokes at the fixed cadence per file")
    ap.add_argument("--cadence-ms", type=float, default=30.0, help="the fixed cadence's gap")
    ap.add_argument("--scan-edits", type=int, default=3, help="edits of each kind per corpus in the scans (1k, 10k)")
    ap.add_argument("--worst", type=int, default=1, help="corpora per family measured in full (the scan's worst)")
    ap.add_argument("--scan-top", type=int, default=4, help="corpora per family of the 1k scan scanned again at 10k")
    ap.add_argument("--pipeline-edits", type=int, default=8, help="attention edits (edit -> stages, -> ptxas done)")
    ap.add_argument("--pipeline-file-edits", type=int, default=8, help="edits of each kind per file with the pipeline on")
    ap.add_argument("--quick", action="store_true", help="a smoke run: few edits and requests, 1k and 10k")
    ap.add_argument("--no-pipeline", action="store_true", help="only the front end (serve --no-pipeline): no pipeline column, attention or lens rows")
    ap.add_argument("--server-python", default=sys.executable, help="the Python that runs `-m tile_lsp serve`")
    ap.add_argument("--cwd", type=pathlib.Path, default=ROOT, help="the checkout measured (its PYTHONPATH and cwd)")
    ap.add_argument("--mlir-bin", type=pathlib.Path, default=lsp_latency.MLIR_BIN, help="where mlir-lsp-server and mlir-opt are")
    ap.add_argument("--file-budget", type=float, default=25.0, help="seconds of edits per file (a slow corpus gets fewer; scans a quarter)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for one answer")
    ap.add_argument("--json", type=pathlib.Path, help="write everything measured here")
    args = ap.parse_args()
    if args.quick:
        args.edits, args.requests, args.cadence_edits, args.scan_edits, args.worst, args.scan_top = 4, 10, 4, 2, 1, 2
        args.pipeline_edits = args.pipeline_file_edits = 2
        if args.sizes == ap.get_default("sizes"):
            args.sizes = "1k,10k"
    args.sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    if unknown := [s for s in args.sizes if s not in SIZES]:
        ap.error(f"unknown sizes {unknown}: use {', '.join(SIZES)}")
    args.cwd = args.cwd.resolve()
    lsp_latency.TIMEOUT_S = args.timeout
    load_before = os.getloadavg()
    started = time.perf_counter()
    report = asyncio.run(run(args))
    report["commit"] = commit_of(args.cwd)
    report["load_before"] = " ".join(f"{x:.2f}" for x in load_before)
    report["load_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    report["seconds"] = time.perf_counter() - started
    report["verdicts"] = verdicts(report, args.sizes)
    report["args"] = {k: (str(v) if isinstance(v, pathlib.Path) else v) for k, v in vars(args).items()}
    print_report(report, args)
    print(f"\n(run took {report['seconds']:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
