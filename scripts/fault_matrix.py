"""Every bad input and every external fault, through the CLI and the language server as a user
runs them: exit status, wall time, peak memory, and the first diagnostic's position and text.

    .venv/bin/python scripts/fault_matrix.py [--only NAME,...] [--json OUT] [--timeout S] [--server]

Each case is a file (made here, in a scratch folder) and an environment (a fake CUDA root with a
corrupt libdevice, a ptxas that hangs or floods or lies, ...). Each runs `tile-lsp check` and
`tile-lsp compile --emit ptx` (or cubin where the fault is in ptxas) in a fresh process, without
the daemon, the cache in the scratch folder. A run is flagged when it is killed by the time limit,
prints a Python traceback, reports an internal error, or puts an error at 1:1 when the fault
has a better place. With `--server`, each text case is also opened in a fresh `tile-lsp serve`
(a real LSP client, gpuName sm_90a): the time to its first diagnostics and to the last publish
(the pipeline settled), the server's peak RSS, the first error, and whether the server survived
and still answers a hover. The table is the closing-note evidence of issue 26; nothing here is a
test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "tests", "data", "cutile")
EXE = [sys.executable, "-m", "tile_lsp"]
with open(os.path.join(ROOT, "examples", "vector_add.mlir"), encoding="utf-8") as _f:
    VECTOR_ADD = _f.read()


def _kernel(name: str) -> str:
    with open(os.path.join(KERNELS, name + ".mlir"), encoding="utf-8") as f:
        return f.read()


def _renamed_copies(text: str, target_bytes: int) -> str:
    """Entries of `text` repeated with fresh names until the module is `target_bytes` long
    (bare entries, as cuTile's kernels are printed: the whole text repeated)."""
    if "cuda_tile.module" in text:
        start, end = text.index("{", text.index("cuda_tile.module")) + 1, text.rindex("}")
    else:
        start, end = 0, len(text)
    body = text[start:end]
    names = sorted(set(re.findall(r"entry @([\w$.]+)", body)))
    parts, size, copy = [], 0, 0
    while size < target_bytes:
        chunk = body
        for name in names:
            chunk = re.sub(rf"@{re.escape(name)}\b", f"@{name}_{copy}", chunk)
        parts.append(chunk)
        size += len(chunk)
        copy += 1
    return text[:start] + "".join(parts) + text[end:]


def _nested(depth: int) -> str:
    return "cuda_tile.module @m {\n  entry @e() {\n" + "    %x = " + "tile<" * depth + "\n  }\n}\n"


def _long_line() -> str:
    # A valid kernel whose op sits past column 65535 (a long comment-free run of spaces).
    return VECTOR_ADD.replace("    %sum = addf", " " * 70000 + "%sum = addf")


def _one_mb_line() -> str:
    ops = " ".join(f"%v{i} = constant <i32: {i}> : tile<i32>" for i in range(30000))
    return "cuda_tile.module @m {\n  entry @e() { " + ops + " return }\n}\n"


def _big_int() -> str:
    return VECTOR_ADD.replace("<i32: 128>", "<i32: " + "9" * 5000 + ">")


def _corrupt_bytecode() -> bytes:
    with open(os.path.join(KERNELS, "vector_add.tileirbc"), "rb") as f:
        data = bytearray(f.read())
    for i in range(16, len(data), 7):
        data[i] ^= 0x5A
    return bytes(data)


@dataclass
class Case:
    name: str
    content: Callable[[], str | bytes]
    suffix: str = ".mlir"
    emit: str = "ptx"
    gpu: str = "sm_90a"
    env: Callable[[str], dict[str, str]] | None = None  # scratch folder -> extra environment
    where: str | None = None  # "line:col" the first diagnostic should be at, when known
    # ... in the server, where it differs: an editor sends text, never bytes (invalid UTF-8
    # arrives decoded, as U+FFFD), so the first error is what that text has first
    where_serve: str | None = None


def _fake_cuda(kind: str) -> Callable[[str], dict[str, str]]:
    """A CUDA root whose libdevice is corrupt, or missing (then no other root may be found)."""

    def make(scratch: str) -> dict[str, str]:
        root = os.path.join(scratch, f"cuda-{kind}")
        os.makedirs(os.path.join(root, "nvvm", "libdevice"), exist_ok=True)
        os.makedirs(os.path.join(root, "bin"), exist_ok=True)
        real = shutil.which("ptxas")
        if real and not os.path.exists(os.path.join(root, "bin", "ptxas")):
            os.symlink(real, os.path.join(root, "bin", "ptxas"))
        if kind == "corrupt":
            with open(os.path.join(root, "nvvm", "libdevice", "libdevice.10.bc"), "wb") as f:
                f.write(b"BC\xc0\xde" + os.urandom(4096))
        return {"CUDA_HOME": root, "TILE_LSP_LIBDEVICE": os.path.join(root, "nvvm", "libdevice", "libdevice.10.bc")}

    return make


def _fake_ptxas(script: str) -> Callable[[str], dict[str, str]]:
    def make(scratch: str) -> dict[str, str]:
        folder = os.path.join(scratch, "fakebin")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "ptxas")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + script + "\n")
        os.chmod(path, 0o755)
        return {"TILE_LSP_TEST_PTXAS": path}

    return make


MATH = VECTOR_ADD.replace("%sum = addf %x, %y : tile<128xf32>",
                          "%e = exp %x : tile<128xf32>\n    %sum = addf %e, %y : tile<128xf32>")

CASES = [
    Case("empty", lambda: ""),
    Case("binary-junk", lambda: bytes(range(256)) * 64),
    Case("invalid-utf8", lambda: VECTOR_ADD.encode().replace(b"addf", b"ad\xff\xfef"), where="22:14",
         where_serve="22:12"),  # (`ad\ufffd\ufffdf`: the unknown op `ad`, at its name as MLIR puts it)
    Case("nul", lambda: VECTOR_ADD.replace("%sum", "%s\0um"), where="22:7"),
    Case("crlf", lambda: VECTOR_ADD.replace("\n", "\r\n")),
    Case("lone-cr", lambda: VECTOR_ADD.replace("\n", "\r")),
    Case("form-feed", lambda: VECTOR_ADD.replace("// A small", "// A\f small")),
    Case("tabs", lambda: VECTOR_ADD.replace("    ", "\t")),
    Case("bom", lambda: "\ufeff" + VECTOR_ADD),
    Case("nesting-10000", lambda: _nested(10000)),
    Case("nesting-400-tile", lambda: _nested(400)),
    Case("unknown-op", lambda: VECTOR_ADD.replace("addf %x", "frobnicate %x"), where="22:12"),
    Case("int-5000-digits", _big_int, where="5:28"),
    Case("column-70000", _long_line),
    Case("line-1MB", _one_mb_line),
    Case("file-10MB", lambda: _renamed_copies(_kernel("attention"), 10 << 20)),
    Case("fake-bytecode", lambda: b"\x7fTileIR\x00" + os.urandom(512), suffix=".tileirbc"),
    Case("corrupt-bytecode", _corrupt_bytecode, suffix=".tileirbc"),
    Case("duplicate-entry", lambda: VECTOR_ADD.replace("  entry @vector_add", "  entry @vector_add() { return }\n  entry @vector_add", 1),
         where="4:9"),
    Case("gpu-name-sm_91", lambda: VECTOR_ADD, gpu="sm_91"),
    Case("gpu-name-hopper", lambda: VECTOR_ADD, gpu="hopper"),
    Case("libdevice-corrupt", lambda: MATH, env=_fake_cuda("corrupt")),
    Case("libdevice-missing", lambda: MATH, env=_fake_cuda("missing"), where="22:5"),  # (the op, at its results, as MLIR places it)
    Case("ptxas-hangs", lambda: VECTOR_ADD, emit="cubin", env=_fake_ptxas('case "$*" in *--help*) exec /usr/local/bin/ptxas "$@";; esac; sleep 1000 & sleep 1000 & wait')),
    Case("ptxas-floods", lambda: VECTOR_ADD, emit="cubin", env=_fake_ptxas('case "$*" in *--help*) exec /usr/local/bin/ptxas "$@";; esac; head -c 300000000 /dev/zero | tr "\\0" x >&2; exit 1')),
    Case("ptxas-not-utf8", lambda: VECTOR_ADD, emit="cubin", env=_fake_ptxas('case "$*" in *--help*) exec /usr/local/bin/ptxas "$@";; esac; printf "ptxas fatal: \\377\\376 bad\\n" >&2; exit 1')),
    Case("ptxas-exit0-no-output", lambda: VECTOR_ADD, emit="cubin", env=_fake_ptxas('case "$*" in *--help*) exec /usr/local/bin/ptxas "$@";; esac; exit 0')),
]


@dataclass
class Run:
    case: str
    command: str
    status: int | None
    seconds: float
    peak_mib: float
    first: str
    flags: list[str] = field(default_factory=list)


_DIAG = re.compile(r"^(?P<file>[^\n:]*):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note|remark|info\w*): (?P<msg>.*)$", re.M)


def _run(argv: list[str], env: dict[str, str], timeout: float) -> tuple[int | None, float, float, str]:
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        status: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, err = proc.communicate()
        status = None
    seconds = time.monotonic() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    text = (err + out).decode("utf-8", "replace")
    return status, seconds, peak, text


def _ptxas_dirs() -> set[str]:
    return {d for d in os.listdir(tempfile.gettempdir()) if d.startswith("tile-lsp-ptxas-")}


def run_case(case: Case, scratch: str, timeout: float, which: int) -> list[Run]:
    folder = os.path.join(scratch, case.name)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "input" + case.suffix)
    data = case.content()
    with open(path, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
    env = dict(os.environ, TILE_LSP_DAEMON="0", XDG_CACHE_HOME=os.path.join(folder, "cache"))
    if case.env:
        env.update(case.env(folder))
    commands = [["check", path], ["compile", path, "--gpu-name", case.gpu, "--emit", case.emit, "-o", os.path.join(folder, "out")]]
    if "TILE_LSP_TEST_PTXAS" in env:
        commands = [commands[1] + ["--ptxas", env["TILE_LSP_TEST_PTXAS"]]]
    runs = []
    for args in commands[which:which + 1]:
        before = _ptxas_dirs()
        status, seconds, peak, text = _run(EXE + args, env, timeout)
        match = _DIAG.search(text)
        first = (f"{match['line']}:{match['col']} {match['sev']}: {match['msg'][:160]}" if match
                 else (text.strip().splitlines() or [""])[0][:180])
        flags = []
        if status is None:
            flags.append("TIMEOUT")
        if "Traceback" in text:
            flags.append("TRACEBACK")
        if re.search(r"internal error", text, re.I):
            flags.append("INTERNAL")
        if case.where and match and f"{match['line']}:{match['col']}" != case.where and match["sev"] == "error":
            flags.append(f"AT {match['line']}:{match['col']} (want {case.where})")
        if len(text) > 1 << 20:
            flags.append(f"OUTPUT {len(text) >> 20} MiB")
        leftovers = _ptxas_dirs() - before
        if leftovers:
            flags.append(f"LEFT {len(leftovers)} ptxas dirs")
        runs.append(Run(case.name, args[0], status, seconds, peak, first, flags))
    return runs


def _vm_hwm_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def _serve_case(case: Case, folder: str, timeout: float) -> Run:
    """Open the case's file in a fresh server; wait until its pipeline reports a final state
    (tileLsp/pipelineStatus done/timeout/crash) and 0.5 s passed without a publish, or, where no
    pipeline runs (front-end errors, no target), until no publish came for 3 s; or `timeout`."""
    import asyncio

    from lsprotocol import types as lsp
    from pygls.lsp.client import LanguageClient

    path = os.path.join(folder, "input" + case.suffix)
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    env = dict(os.environ, TILE_LSP_DAEMON="0", XDG_CACHE_HOME=os.path.join(folder, "cache"))
    if case.env:
        env.update(case.env(folder))
    client = LanguageClient("fault-matrix", "1")
    publishes: list[tuple[float, list[lsp.Diagnostic]]] = []
    client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda p: publishes.append((time.monotonic(), p.diagnostics)))
    finals: list[float] = []  # when a final pipeline state came

    def on_status(params: object) -> None:
        state = params.get("state") if isinstance(params, dict) else getattr(params, "state", None)
        if state not in (None, "stages"):
            finals.append(time.monotonic())

    client.feature("tileLsp/pipelineStatus")(on_status)
    for method in (lsp.WINDOW_LOG_MESSAGE, lsp.WINDOW_SHOW_MESSAGE, lsp.WINDOW_WORK_DONE_PROGRESS_CREATE, "$/progress",
                   "tileLsp/status", "tileLsp/stageMapReady"):
        client.feature(method)(lambda *a: None)
    await client.start_io(sys.executable, "-m", "tile_lsp", "serve", env=env, cwd=folder)
    server = client._server  # noqa: SLF001 (the process, for its RSS)
    init = {"gpuName": case.gpu}
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), initialization_options=init))
    client.initialized(lsp.InitializedParams())
    uri = "file://" + path
    start = time.monotonic()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="mlir", version=1, text=text)))
    flags: list[str] = []
    while time.monotonic() - start < timeout:
        await asyncio.sleep(0.1)
        quiet = time.monotonic() - publishes[-1][0] if publishes else 0.0
        if finals and quiet > 0.5 and time.monotonic() - finals[-1] > 0.5:
            break
        front_errors = publishes and any(
            d.severity == lsp.DiagnosticSeverity.Error and d.source in ("tile-lsp(cuda_tile)", "tile-lsp(mlir)", "tile-lsp")
            for d in publishes[-1][1]
        )
        if not finals and quiet > (3.0 if front_errors or not case.gpu else 30.0):
            break
    else:
        flags.append("UNSETTLED")
    try:
        await asyncio.wait_for(client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=2, character=4))), 10)
    except Exception as exc:  # noqa: BLE001 (any failure to answer is what we measure)
        flags.append(f"HOVER {type(exc).__name__}")
    peak = _vm_hwm_mib(server.pid) if server else 0.0
    alive = server is not None and server.returncode is None
    if not alive:
        flags.append("DIED")
    if not publishes:
        flags.append("NO-DIAGNOSTICS")
    errors = [d for d in (publishes[-1][1] if publishes else []) if d.severity == lsp.DiagnosticSeverity.Error]
    first = (f"{errors[0].range.start.line + 1}:{errors[0].range.start.character + 1} error: {errors[0].message[:160]}"
             if errors else f"{len(publishes[-1][1]) if publishes else 0} diagnostics, no error")
    if errors and re.search(r"internal error|Traceback", errors[0].message, re.I):
        flags.append("INTERNAL")
    where = case.where_serve or case.where
    if where and errors and f"{errors[0].range.start.line + 1}:{errors[0].range.start.character + 1}" != where:
        flags.append(f"AT {errors[0].range.start.line + 1}:{errors[0].range.start.character + 1} (want {where})")
    first_s = publishes[0][0] - start if publishes else float("nan")
    last_s = publishes[-1][0] - start if publishes else float("nan")
    try:
        await asyncio.wait_for(client.shutdown_async(None), 10)
        client.exit(None)
        await asyncio.wait_for(client.stop(), 10)
    except Exception:  # noqa: BLE001
        if server and server.returncode is None:
            server.kill()
    return Run(case.name, f"serve {first_s:.2f}s..", None if not alive else 0, last_s, peak, first, flags)


def run_server_case(case: Case, scratch: str, timeout: float) -> list[Run]:
    import asyncio

    folder = os.path.join(scratch, case.name + "-serve")
    os.makedirs(folder, exist_ok=True)
    data = case.content()
    with open(os.path.join(folder, "input" + case.suffix), "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
    return [asyncio.run(_serve_case(case, folder, timeout))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--json", metavar="OUT")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--server", action="store_true", help="also open each case in the language server")
    ap.add_argument("--server-only", action="store_true", help="only the language-server runs")
    args = ap.parse_args()
    chosen = [c for c in CASES if not args.only or c.name in args.only.split(",")]
    results: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="fault-matrix-") as scratch:
        modes = (2,) if args.server_only else (0, 1, 2) if args.server else (0, 1)
        for case, which in ((c, w) for c in chosen for w in modes):
            if which == 2 and (case.emit == "cubin" or case.name.startswith("gpu-name")):
                continue  # ptxas fakes and CLI flags: no server equivalent
            # One run per interpreter, so that RUSAGE_CHILDREN's peak is that run's alone.
            proc = subprocess.run([sys.executable, __file__, "--_one", case.name, scratch, str(args.timeout), str(which)],
                                  capture_output=True, text=True)
            for line in proc.stdout.splitlines():
                run = Run(**json.loads(line))
                results.append(run)
                print(f"{run.case:24} {run.command:8} exit={run.status!s:4} {run.seconds:7.2f}s {run.peak_mib:7.0f}MiB  "
                      f"{run.first}  {' '.join(run.flags)}", flush=True)
            if proc.returncode:
                print(proc.stderr, file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            json.dump([r.__dict__ for r in results], f, indent=1)
    flagged = [r for r in results if r.flags]
    print(f"{len(results)} runs, {len(flagged)} flagged")
    return 1 if flagged else 0


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--_one":
        one = next(c for c in CASES if c.name == sys.argv[2])
        which = int(sys.argv[5])
        runs = run_server_case(one, sys.argv[3], float(sys.argv[4])) if which == 2 else run_case(one, sys.argv[3], float(sys.argv[4]), which)
        for r in runs:
            print(json.dumps(r.__dict__))
        sys.exit(0)
    sys.exit(main())
