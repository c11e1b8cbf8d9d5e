"""No way in for another local user or a cloned repository (issue 26).

Real servers (`python -m tile_lsp serve`, over TCP and over stdio), real LSP clients
(pytest-lsp's), real files:

- `serve --tcp`: the first message must be `initialize` with `initializationOptions.token`;
  a bare connect-and-close, no token or a wrong one never reaches the server nor stops it; one
  client only (a second connection is refused, the first is untouched); the server exits when
  its client disconnects. As root, the attack is also run as uid 1001 (another local user).
- Settings a repository can set: a `ptxasPath` inside the workspace or a document's folder, in
  a folder others can write, or relative, is refused with a warning and never run; a
  `previewDir` that is absolute, `~`, has `..`, or resolves out of the workspace through a link
  is refused.
- Preview files: scratch previews in this user's private runtime folder (a folder and links an
  attacker planted in the old `$TMPDIR/tile-lsp-previews/<hash>` are never used); the user's
  own files in the preview folder are never overwritten or removed (the manifest).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import pathlib
import re
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient
from pytest_lsp.client import make_test_lsp_client

from tests.lsp.lsp_helpers import configure, doc_id, open_document, record_timeline

ROOT = pathlib.Path(__file__).resolve().parents[2]
TIMEOUT_S = 90.0
KERNEL = (pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "upstream" / "scale.mlir").read_text(encoding="utf-8")
STATUS = "tileLsp/pipelineStatus"


def _env(tmp_path: pathlib.Path) -> dict[str, str]:
    run = tmp_path / "run"
    run.mkdir(mode=0o700, exist_ok=True)
    return {**os.environ, "XDG_RUNTIME_DIR": str(run), "PYTHONPATH": str(ROOT)}


# -- over TCP -----------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listening(port: int) -> bool:
    """Whether 127.0.0.1:port is in LISTEN state (read from /proc: no connection made)."""
    with open("/proc/net/tcp") as f:
        rows = [line.split() for line in f.readlines()[1:]]
    return any(r[1] == f"0100007F:{port:04X}" and r[3] == "0A" for r in rows)


class TcpServer:
    """`tile-lsp serve --tcp PORT` in a process of its own, with what it printed."""

    def __init__(self, proc: subprocess.Popen[bytes], port: int, stderr: pathlib.Path) -> None:
        self.proc, self.port, self.stderr = proc, port, stderr

    def token_file(self) -> pathlib.Path | None:
        found = re.search(r"the token is in (\S+) \(0600\)", self.stderr.read_text())
        return pathlib.Path(found.group(1)) if found else None

    def token(self) -> str:
        path = self.token_file()
        return path.read_text().strip() if path is not None and path.exists() else "no-token-was-printed"

    def alive(self) -> bool:
        return self.proc.poll() is None


@contextlib.contextmanager
def tcp_server(tmp_path: pathlib.Path, *extra: str) -> Any:
    port = _free_port()
    err = tmp_path / f"server-{port}.err"
    with open(err, "wb") as f:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tile_lsp", "serve", "--tcp", str(port), *extra],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=f, env=_env(tmp_path), cwd=tmp_path,
        )  # fmt: skip
    try:
        deadline, listening_since = time.monotonic() + 30, None
        while time.monotonic() < deadline and proc.poll() is None and "listening" not in err.read_text():
            if _listening(port):  # (a server that prints nothing: give it 2 s)
                listening_since = listening_since or time.monotonic()
                if time.monotonic() - listening_since > 2:
                    break
            time.sleep(0.05)
        yield TcpServer(proc, port, err)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _initialize(options: dict[str, Any] | None, msg_id: int = 1) -> bytes:
    params: dict[str, Any] = {"processId": None, "rootUri": None, "capabilities": {}}
    if options is not None:
        params["initializationOptions"] = options
    return _frame({"jsonrpc": "2.0", "id": msg_id, "method": "initialize", "params": params})


def _exchange(port: int, data: bytes, wait: float = 5.0) -> bytes:
    """Connect, send `data`, and read until the server closes the connection or `wait` passes."""
    out = b""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        s.sendall(data)
        deadline = time.monotonic() + wait
        with contextlib.suppress(OSError):
            while time.monotonic() < deadline:
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
    return out


@contextlib.asynccontextmanager
async def tcp_client(port: int, token: str, **options: Any) -> AsyncIterator[LanguageClient]:
    client = make_test_lsp_client()
    await client.start_tcp("127.0.0.1", port)
    await asyncio.wait_for(
        client.initialize_session(
            lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), initialization_options={"token": token, **options})
        ),
        30,
    )
    try:
        yield client
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.shutdown_session(), 10)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.stop(), 10)


async def _settings(client: LanguageClient) -> dict[str, Any]:
    found = await asyncio.wait_for(client.protocol.send_request_async("tileLsp/settings", {}), 15)
    return found if isinstance(found, dict) else found._asdict()


async def test_tcp_refuses_connections_without_the_token_and_keeps_serving(tmp_path: pathlib.Path):
    with tcp_server(tmp_path) as server:
        token_file = server.token_file()
        assert token_file is not None and token_file.parent == tmp_path / "run" / "tile-lsp" / "tcp"
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600 and token_file.stat().st_uid == os.geteuid()
        token = server.token()
        assert token not in server.stderr.read_text()  # the path is printed, never the token
        # A bare connect-and-close (it used to shut the server down).
        with socket.create_connection(("127.0.0.1", server.port)):
            pass
        # initialize without a token, with a wrong one, another method first, junk: an error, closed.
        for data in (
            _initialize({"ptxasPath": "/bin/true"}),
            _initialize({"token": token[:-1] + ("A" if token[-1] != "A" else "B")}),
            _initialize(None),
            _frame({"jsonrpc": "2.0", "id": 7, "method": "tileLsp/settings", "params": {}}),
        ):
            reply = _exchange(server.port, data)
            assert b'"result"' not in reply and b'"error"' in reply and b"token" in reply, reply[:300]
        assert _exchange(server.port, b"GET / HTTP/1.0\r\n\r\n") == b""
        await asyncio.sleep(0.3)
        assert server.alive() and _listening(server.port)
        # The owner, with the token, gets a server (and the token is not one of its settings).
        async with tcp_client(server.port, token, gpuName="sm_90a") as client:
            settings = await _settings(client)
            assert settings["gpuName"] == "sm_90a" and "token" not in settings


async def test_connections_that_send_nothing_cannot_keep_the_owner_out(tmp_path: pathlib.Path):
    """Another user holds every authentication slot with connections that send nothing; the
    owner, connecting after them, still gets the server at once (the oldest silent one goes),
    long before those connections would time out."""
    from tile_lsp.transport import AUTH_TIMEOUT_S, MAX_PENDING

    with tcp_server(tmp_path) as server:
        silent = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(2 * MAX_PENDING)]
        try:
            await asyncio.sleep(0.5)  # (the server has accepted them all)
            started = time.monotonic()
            async with tcp_client(server.port, server.token(), gpuName="sm_80") as client:
                assert (await _settings(client))["gpuName"] == "sm_80"
                assert time.monotonic() - started < AUTH_TIMEOUT_S / 2
            closed = 0
            for conn in silent:  # every silent one was closed by the server, none answered
                conn.settimeout(5.0)
                with contextlib.suppress(OSError):
                    closed += conn.recv(1) == b""
            assert closed == len(silent)
        finally:
            for conn in silent:
                conn.close()


async def test_tcp_serves_one_client_and_exits_when_it_leaves(tmp_path: pathlib.Path):
    with tcp_server(tmp_path) as server:
        token_file = server.token_file()
        async with tcp_client(server.port, server.token()) as owner:
            path = tmp_path / "k.mlir"
            path.write_text(KERNEL)
            open_document(owner, path.as_uri(), KERNEL)
            # A second connection while the owner is connected: refused or closed at once, with
            # nothing read from the owner's session (even with the right token).
            for data in (b"", _initialize({"token": server.token()}, msg_id=9)):
                try:
                    reply = _exchange(server.port, data, wait=3.0)
                except ConnectionRefusedError:
                    reply = b""
                assert reply == b"", reply[:300]
            assert not _listening(server.port)
            # The owner's session is untouched: its answers still come to it.
            symbols = await asyncio.wait_for(
                owner.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=doc_id(path.as_uri()))),
                15,
            )
            assert symbols
            assert server.alive()
        # The owner left: the server exits and the port is closed; the generated token is removed.
        deadline = time.monotonic() + 15
        while server.alive() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not server.alive() and not _listening(server.port)
        assert token_file is not None and not token_file.exists()


async def test_tcp_token_file_must_be_private(tmp_path: pathlib.Path):
    secret = tmp_path / "token"
    secret.write_text("correct-horse-battery-staple-42\n")
    secret.chmod(0o644)
    with tcp_server(tmp_path, "--token-file", str(secret)) as server:
        server.proc.wait(timeout=30)
        assert server.proc.returncode == 2 and "not a private file" in server.stderr.read_text()
    secret.chmod(0o600)
    with tcp_server(tmp_path, "--token-file", str(secret)) as server:
        assert b'"error"' in _exchange(server.port, _initialize({"token": "correct-horse-battery-staple-4"}))
        async with tcp_client(server.port, "correct-horse-battery-staple-42") as client:
            assert (await _settings(client))["previewDir"] == ".tile-lsp"


ATTACKER = r"""
import json, socket, sys, time
port, marker = int(sys.argv[1]), sys.argv[2]
def frame(m):
    b = json.dumps(m).encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b
def talk(data, wait=3.0):
    out = b""
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=wait)
    except OSError as e:
        return "refused: %s" % e
    s.sendall(data)
    end = time.time() + wait
    try:
        while time.time() < end:
            c = s.recv(65536)
            if not c:
                break
            out += c
    except OSError:
        pass
    s.close()
    return out.decode("latin-1")
script = "/tmp/evil-ptxas-%d" % port
open(script, "w").write("#!/bin/sh\nid > %s\n" % marker)
import os; os.chmod(script, 0o755)
doc = "file:///tmp/evil-%d.mlir" % port
text = sys.stdin.read()
def attack(**token):
    options = {"ptxasPath": script, "gpuName": "sm_90a", "previewDir": "/root", **token}
    data = frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {},
        "initializationOptions": options}})
    data += frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    return data + frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": doc, "languageId": "mlir", "version": 1, "text": text}}})
try:
    token = open(sys.argv[3]).read()
except OSError as e:
    token = None
    print("token file:", e.__class__.__name__)
results = {"bare": talk(b"", 1.0), "no token": talk(attack(), 8.0), "wrong token": talk(attack(token="guess"), 3.0)}
print(json.dumps(results))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root: the attack runs as uid 1001 against a root server")
async def test_another_local_user_gets_nothing(tmp_path: pathlib.Path):
    """The attack of issue 26, as uid 1001 against this (root) server: connect and close, then
    initialize without the token and with a guessed one, each carrying a ptxasPath to the
    attacker's script and a document to compile. Nothing runs, the owner still connects."""
    python = shutil.which("python3", path="/usr/bin:/bin")
    if python is None:
        pytest.skip("no system python3 that uid 1001 can run")
    marker = pathlib.Path(f"/tmp/evil-ptxas-ran-{os.getpid()}")
    marker.unlink(missing_ok=True)
    with tcp_server(tmp_path) as server:
        token_file = server.token_file()
        done = subprocess.run(
            [python, "-c", ATTACKER, str(server.port), str(marker), str(token_file)],
            input=KERNEL, capture_output=True, text=True, timeout=60, user=1001, group=1001, extra_groups=[], cwd="/",
            env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        results = json.loads(lines[-1])
        assert "result" not in results["no token"] and "token" in results["no token"], results
        assert "result" not in results["wrong token"] and "token" in results["wrong token"], results
        time.sleep(1.0)
        assert not marker.exists(), marker.read_text()
        assert server.alive()
        assert "token file: PermissionError" in lines  # the token file is the owner's alone
        async with tcp_client(server.port, server.token()) as client:
            assert (await _settings(client))["ptxasPath"] is None
    assert not marker.exists()
    pathlib.Path(f"/tmp/evil-ptxas-{server.port}").unlink(missing_ok=True)


# -- over stdio: settings and previews ------------------------------------------------------
@contextlib.asynccontextmanager
async def stdio_client(
    tmp_path: pathlib.Path, options: dict[str, Any], root: pathlib.Path | None = None
) -> AsyncIterator[LanguageClient]:
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "tile_lsp", "serve", env=_env(tmp_path))
    folders = [lsp.WorkspaceFolder(uri=root.as_uri(), name=root.name)] if root is not None else None
    await client.initialize_session(
        lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(),
            root_uri=root.as_uri() if root is not None else None,
            workspace_folders=folders,
            initialization_options=options,
        )
    )
    try:
        yield client
    finally:
        await client.shutdown_session()
        await client.stop()


def _fake_ptxas(path: pathlib.Path, marker: pathlib.Path) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho ran >> {marker}\nexit 1\n")
    path.chmod(0o755)
    return path


async def _compiled(log: list[tuple[str, Any]], uri: str) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        for method, params in log:
            get = params.get if isinstance(params, dict) else lambda k, p=params: getattr(p, k, None)
            if method == STATUS and get("uri") == uri and get("state") in ("done", "timeout", "crash"):
                return
        await asyncio.sleep(0.02)
    raise AssertionError(f"no finished compile of {uri}")


def _warnings(client: LanguageClient, needle: str) -> list[str]:
    return [m.message for m in client.messages if m.type == lsp.MessageType.Warning and needle in m.message]


async def test_ptxas_path_from_the_workspace_is_refused_and_never_run(tmp_path: pathlib.Path):
    workspace = tmp_path / "repo"
    marker = tmp_path / "ran"
    inside = _fake_ptxas(workspace / "tools" / "ptxas", marker)
    async with stdio_client(tmp_path, {"gpuName": "sm_90a", "ptxasPath": str(inside)}, root=workspace) as client:
        log = record_timeline(client, STATUS)
        assert (await _settings(client))["ptxasPath"] is None
        assert len(_warnings(client, "tileLsp.ptxasPath")) == 1 and "inside" in _warnings(client, "ptxasPath")[0]
        path = workspace / "k.mlir"
        path.write_text(KERNEL)
        open_document(client, path.as_uri(), KERNEL)
        await _compiled(log, path.as_uri())
        # The same through didChangeConfiguration (a workspace settings file changing).
        configure(client, ptxasPath=str(inside), optLevel=2)
        settings = await _settings(client)
        assert settings["optLevel"] == 2 and settings["ptxasPath"] is None
        assert len(_warnings(client, "tileLsp.ptxasPath")) == 1  # one warning for the same refusal
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=doc_id(path.as_uri())))
        await asyncio.sleep(1.0)
    assert not marker.exists()


async def test_ptxas_path_in_the_folder_of_a_document_opened_later_is_refused(tmp_path: pathlib.Path):
    """No workspace folder (a single file opened from a cloned repository): the program is
    refused once a document from its folder is open, before anything compiles."""
    repo = tmp_path / "clone"
    marker = tmp_path / "ran"
    planted = _fake_ptxas(repo / "ptxas", marker)
    async with stdio_client(tmp_path, {"gpuName": "sm_90a", "ptxasPath": str(planted)}) as client:
        log = record_timeline(client, STATUS)
        path = repo / "k.mlir"
        path.write_text(KERNEL)
        open_document(client, path.as_uri(), KERNEL)
        await _compiled(log, path.as_uri())
        assert (await _settings(client))["ptxasPath"] is None
        assert _warnings(client, "tileLsp.ptxasPath")
    assert not marker.exists()


async def test_ptxas_path_must_be_absolute_and_in_folders_nobody_else_can_write(tmp_path: pathlib.Path):
    marker = tmp_path / "ran"
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    writable = _fake_ptxas(shared / "ptxas", marker)
    loose = _fake_ptxas(tmp_path / "loose" / "ptxas", marker)
    loose.chmod(0o777)
    private = _fake_ptxas(tmp_path / "tools" / "ptxas", marker)  # (only /tmp above it, sticky and root's)
    async with stdio_client(tmp_path, {"gpuName": "sm_90a"}) as client:
        for value, why in (
            (str(writable), "writable by other users"),
            (str(loose), "writable by other users"),
            ("bin/ptxas", "not an absolute path"),
            (str(tmp_path / "missing"), "cannot be read"),
            (str(tmp_path), "not an executable file"),
        ):
            configure(client, ptxasPath=value)
            assert (await _settings(client))["ptxasPath"] is None, value
            assert any(why in w for w in _warnings(client, f"tileLsp.ptxasPath {value!r}")), client.messages
        configure(client, ptxasPath=str(private))  # the user's own, outside every workspace: taken
        assert (await _settings(client))["ptxasPath"] == str(private)
        assert not _warnings(client, str(private))
    assert not marker.exists()


async def test_preview_dir_must_stay_in_the_workspace(tmp_path: pathlib.Path):
    workspace = tmp_path / "repo"
    workspace.mkdir()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    path = workspace / "k.mlir"
    path.write_text(KERNEL)
    uri = path.as_uri()
    async with stdio_client(tmp_path, {"gpuName": "sm_90a", "previewDir": str(outside)}, root=workspace) as client:
        log = record_timeline(client, STATUS)
        assert (await _settings(client))["previewDir"] == ".tile-lsp"
        assert _warnings(client, "tileLsp.previewDir")
        for value in ("../elsewhere", "~/elsewhere", "a/../../elsewhere"):
            configure(client, previewDir=value)
            assert (await _settings(client))["previewDir"] == ".tile-lsp", value
            assert _warnings(client, f"tileLsp.previewDir {value!r}"), value
        open_document(client, uri, KERNEL)
        await _compiled(log, uri)
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=doc_id(uri)))
        deadline = time.monotonic() + TIMEOUT_S
        while not (workspace / ".tile-lsp" / "k.ptx").exists() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert (workspace / ".tile-lsp" / "k.ptx").exists()
        assert list(outside.iterdir()) == []
        # A link committed to the repository that leads out of it: refused, nothing written.
        (workspace / "out").symlink_to(outside)
        configure(client, previewDir="out")
        assert (await _settings(client))["previewDir"] == "out"
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=doc_id(uri)))
        deadline = time.monotonic() + 10
        while not _warnings(client, "preview folder") and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert _warnings(client, "preview folder") and "outside" in _warnings(client, "preview folder")[0]
        await asyncio.sleep(0.5)
        assert list(outside.iterdir()) == []


async def test_previews_never_overwrite_or_remove_the_users_files(tmp_path: pathlib.Path):
    """previewDir ".": the user's own k.ptx, k.ll and k.tileaa.mlir (a stage this upstream file
    does not produce) survive saves; a preview the user edited is left alone too; links and
    temporary names planted in the folder are never followed."""
    folder = tmp_path / "proj"
    folder.mkdir(mode=0o700)
    path = folder / "k.mlir"
    path.write_text(KERNEL)
    uri = path.as_uri()
    mine = {"k.ptx": "// my hand-written PTX\n", "k.ll": "; my LLVM IR\n", "k.tileaa.mlir": "// my notes\n"}
    for name, text in mine.items():
        (folder / name).write_text(text)
    victim = tmp_path / "victim"
    victim.write_text("root's secret\n")
    victim.chmod(0o600)
    async with stdio_client(tmp_path, {"gpuName": "sm_90a", "previewDir": "."}) as client:
        pid = client._server.pid  # type: ignore[union-attr]
        for name in ("k.nvvm.mlir", "k.llvm.mlir", "k.map.json"):  # the old writer's temporary names
            (folder / f"{name}.{pid}.tmp").symlink_to(victim)
        log = record_timeline(client, STATUS)
        open_document(client, uri, KERNEL)
        await _compiled(log, uri)
        for _ in range(2):
            client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=doc_id(uri)))
            deadline = time.monotonic() + TIMEOUT_S
            while not (folder / "k.nvvm.mlir").exists() and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
        for name, text in mine.items():
            assert (folder / name).read_text() == text, name
        assert victim.read_text() == "root's secret\n"
        assert "gpu.module @kernels" in (folder / "k.nvvm.mlir").read_text()
        manifest = json.loads((folder / ".tile-lsp-manifest.json").read_text())
        assert set(manifest["files"]) == {"k.nvvm.mlir", "k.llvm.mlir", "k.map.json"}
        # Each file left alone is reported once (two saves, one warning each).
        left = _warnings(client, "was left alone")
        assert sorted(left) == sorted(set(left)) and len(left) == 2, left
        assert all(str(folder / n) in " ".join(left) for n in ("k.ptx", "k.ll"))
        # The map links only into the files tile-lsp wrote.
        assert set(json.loads((folder / "k.map.json").read_text())["files"]) == {"k.nvvm.mlir", "k.llvm.mlir"}
        # A preview the user edits is theirs from then on.
        (folder / "k.llvm.mlir").write_text("// edited\n")
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=doc_id(uri)))
        deadline = time.monotonic() + 10
        while not _warnings(client, "k.llvm.mlir was left alone") and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert (folder / "k.llvm.mlir").read_text() == "// edited\n"
    assert victim.read_text() == "root's secret\n"
    assert stat.S_IMODE(victim.stat().st_mode) == 0o600


async def test_scratch_previews_are_private_and_never_follow_planted_links(tmp_path: pathlib.Path):
    """previewOnSave off: the cross-stage links write scratch previews. An attacker's folder at the
    old place ($TMPDIR/tile-lsp-previews/<hash>, uid 1001's when we are root) with links at the
    file names and the old writer's temporary names leads nowhere: a root 0600 file stays."""
    path = tmp_path / "s.mlir"
    path.write_text(KERNEL)
    uri = path.as_uri()
    old = pathlib.Path(tempfile.gettempdir()) / "tile-lsp-previews" / hashlib.sha256(str(path).encode()).hexdigest()[:12]
    victim = tmp_path / "victim"
    victim.write_text("root's secret\n")
    victim.chmod(0o600)
    old.mkdir(parents=True, exist_ok=True)
    old.parent.chmod(0o1777)
    try:
        async with stdio_client(tmp_path, {"gpuName": "sm_90a", "previewOnSave": False}) as client:
            pid = client._server.pid  # type: ignore[union-attr]
            for name in ("s.ptx", "s.ll", "s.nvvm.mlir", "s.llvm.mlir", "s.map.json"):
                (old / name).symlink_to(victim)
                (old / f"{name}.{pid}.tmp").symlink_to(victim)
            if os.geteuid() == 0:
                for p in [old, *old.iterdir()]:
                    os.lchown(p, 1001, 1001)
            log = record_timeline(client, STATUS)
            open_document(client, uri, KERNEL)
            await _compiled(log, uri)
            line = KERNEL.splitlines().index("      %r = arith.mulf %v, %s : f32")
            impl = await client.text_document_implementation_async(
                lsp.ImplementationParams(text_document=doc_id(uri), position=lsp.Position(line, 8))
            )
            assert impl, "no lowered lines"
            assert victim.read_text() == "root's secret\n"
            folders = {pathlib.Path(loc.uri.removeprefix("file://")).parent for loc in impl}  # type: ignore[union-attr]
            assert len(folders) == 1
            (scratch,) = folders
            assert scratch != old and str(scratch).startswith(str(tmp_path / "run" / "tile-lsp" / "previews"))
            st = scratch.stat()
            assert st.st_uid == os.geteuid() and stat.S_IMODE(st.st_mode) == 0o700
            assert ".entry scale" in (scratch / "s.ptx").read_text()
    finally:
        shutil.rmtree(old, ignore_errors=True)
        with contextlib.suppress(OSError):
            old.parent.rmdir()
    assert victim.read_text() == "root's secret\n"
