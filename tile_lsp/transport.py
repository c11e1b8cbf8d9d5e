"""The language server's transports: stdio, read on the event loop (`serve_stdio`), and TCP
(`tile-lsp serve --tcp PORT`) for one client holding a secret token.

Stdio: pygls reads stdin on a thread, one `readline` per header line and one read per body, each
handed to the loop through the GIL. While a request thread runs Python code (semantic tokens of a
big line, an analysis) every handoff waited out its switch interval, and a hover sent meanwhile
was not even read before that work ended. Here stdin is an asyncio pipe: a message is read by
the loop itself. A stdin asyncio cannot watch (a regular file), or one that is also stdout (the
non-blocking mode it needs would be stdout's too), or a character device (a terminal,
/dev/null), keeps pygls's reader.

TCP:

127.0.0.1 is reachable by every local user, so a bare TCP server would let any of them drive
the server as its owner (run a `ptxasPath` program, write previews, read open documents). Here:

- The token: `--token-file PATH` (a file only this user can read: `private_files.read_secret`),
  or a fresh `secrets.token_urlsafe(32)` written to a private file
  (`private_files.user_runtime_dir("tcp")/<port>.token`, 0600, removed on exit) whose path is
  printed on stderr. The token itself is never printed.
- The wire: the connection's first LSP message must be `initialize` whose
  `initializationOptions` has `"token": "<secret>"` (compared with `hmac.compare_digest`).
  Editors can send that without code of their own (Neovim's `init_options`, VS Code's
  `initializationOptions`), which a raw line before the first frame would not allow. Anything
  else (another method first, no token, a wrong one, no complete message within
  `AUTH_TIMEOUT_S`, a frame over `MAX_FIRST_MESSAGE`) gets a JSON-RPC error when it was a
  request, and the connection is closed; the server is untouched and keeps listening. The
  token is taken out of the options before pygls sees them.
- One client: once a connection has authenticated, the listening socket is closed (later
  connections are refused by the kernel) and connections still authenticating are closed.
  At most `MAX_PENDING` connections may be authenticating at once; a new one past that closes
  the oldest, so that connections which send nothing cannot keep the owner out: a real client
  sends its initialize at once, and an idle one is gone after `AUTH_TIMEOUT_S` anyway.
- The end: when the authenticated client disconnects (or sends `exit`), the server exits, as
  the stdio server does on EOF: the port is never left open after its owner is gone.

Only the protocol side (pygls) is here; nothing in `tile_lsp.compiler` knows of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import os
import re
import secrets
import stat
import sys
import threading
from collections.abc import Callable
from typing import Any

from pygls.io_ import run_async
from pygls.lsp.server import LanguageServer

from tile_lsp.compiler import private_files

log = logging.getLogger("tile_lsp.transport")

AUTH_TIMEOUT_S = 10.0  # a connection's first message must be complete within this
MAX_PENDING = 32  # connections authenticating at once (the oldest goes for a new one)
MAX_HEADER_BYTES = 4096
MAX_FIRST_MESSAGE = 4 << 20  # an initialize is a few KB (VS Code's ~15 KB)
TOKEN_MIN_CHARS = 16
MAX_STDIO_LINE = 1 << 20  # a header line on stdin (they are ~30 bytes)
TOKEN_OPTION = "token"
_CONTENT_LENGTH = re.compile(rb"content-length:\s*(\d+)\s*$", re.IGNORECASE)


class TokenError(Exception):
    """A --token-file that cannot be used (its message says why)."""


def read_token_file(path: str) -> str:
    """The token in `path`: a file only this user can read (0600 or 0400, ours, not a link)."""
    data = private_files.read_secret(path)
    if data is None:
        raise TokenError(
            f"--token-file {path}: not a private file (it must be a regular file of this user's, "
            f"not a link, mode 0600 or 0400, at most 4 KiB)"
        )
    try:
        token = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise TokenError(f"--token-file {path}: not UTF-8 text") from None
    if len(token) < TOKEN_MIN_CHARS or any(c.isspace() for c in token):
        raise TokenError(f"--token-file {path}: the token must be one word of at least {TOKEN_MIN_CHARS} characters")
    return token


def new_token() -> str:
    return secrets.token_urlsafe(32)


def write_token_file(port: int, token: str) -> str:
    """The generated token, in `<user runtime dir>/tcp/<port>.token` (0600)."""
    directory = private_files.user_runtime_dir("tcp")
    return private_files.write_private(os.path.join(directory, f"{port}.token"), (token + "\n").encode())


class _PipeReader:
    """stdin as pygls's reader wants it (`readline`, `readexactly`; b"" at the end), read by
    the loop. A header line over `MAX_STDIO_LINE` ends the session as the end of input does."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self.stream = stream

    async def readline(self) -> bytes:
        try:
            return await self.stream.readline()
        except ValueError:  # (LimitOverrunError: no newline within the limit)
            log.error("a header line of over %d bytes on stdin: not LSP; the server exits", MAX_STDIO_LINE)
            return b""

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self.stream.readexactly(n)
        except asyncio.IncompleteReadError:
            return b""  # (the input ended inside a message)


def _watchable_stdin(stdin: Any, stdout: Any) -> bool:
    try:
        fd_in, fd_out = stdin.fileno(), stdout.fileno()
        st_in, st_out = os.fstat(fd_in), os.fstat(fd_out)
    except (AttributeError, OSError, ValueError):
        return False
    if (st_in.st_dev, st_in.st_ino) == (st_out.st_dev, st_out.st_ino):
        return False  # (one socket or tty for both: O_NONBLOCK on one is on the other)
    # (a pipe or a socket, what editors give; not a character device: epoll refuses /dev/null,
    # and the refusal comes later, in a callback of the loop)
    return stat.S_ISFIFO(st_in.st_mode) or stat.S_ISSOCK(st_in.st_mode)


def serve_stdio(ls: LanguageServer) -> None:
    """Serve `ls` over stdin/stdout (see the module docstring); returns at the end of input or
    `exit`."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    if not _watchable_stdin(stdin, stdout):
        ls.start_io()
        return
    from pygls.io_ import StdoutWriter

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stream = asyncio.StreamReader(limit=MAX_STDIO_LINE)
        try:
            await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), stdin)
            reader: Any = _PipeReader(stream)
        except (OSError, ValueError):  # (not pollable after all, e.g. a tty epoll refuses)
            from pygls.io_ import StdinAsyncReader

            reader = StdinAsyncReader(stdin, ls.thread_pool)
        stop = threading.Event()
        ls._stop_event = stop  # what pygls's start_io sets: shutdown() stops the loop below
        ls.protocol.set_writer(StdoutWriter(stdout))
        await run_async(stop_event=stop, reader=reader, protocol=ls.protocol, logger=log, error_handler=ls.report_server_error)

    try:
        asyncio.run(main())
    except BrokenPipeError:
        log.error("the client's end of stdout closed: the server exits")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        ls.shutdown()


async def _read_frame(reader: asyncio.StreamReader) -> bytes | None:
    """One LSP frame's body (headers, a blank line, Content-Length bytes), or None when the
    bytes are not one (or too large)."""
    length: int | None = None
    seen = 0
    while True:
        line = await reader.readline()
        if not line:
            return None
        seen += len(line)
        if seen > MAX_HEADER_BYTES:
            return None
        if line in (b"\r\n", b"\n"):
            break
        match = _CONTENT_LENGTH.match(line.strip())
        if match:
            length = int(match.group(1))
    if length is None or length > MAX_FIRST_MESSAGE:
        return None
    return await reader.readexactly(length)


def check_first_message(body: bytes, token: str) -> tuple[dict[str, Any] | None, Any]:
    """(the initialize message without its token, its id) when `body` is an `initialize`
    request carrying `token`; (None, the request's id or None) otherwise."""
    try:
        message = json.loads(body)
    except ValueError:
        return None, None
    if not isinstance(message, dict):
        return None, None
    msg_id = message.get("id")
    if not isinstance(msg_id, (int, str)) or isinstance(msg_id, bool):
        msg_id = None
    params = message.get("params")
    options = params.get("initializationOptions") if isinstance(params, dict) else None
    given = options.get(TOKEN_OPTION) if isinstance(options, dict) else None
    if message.get("method") != "initialize" or msg_id is None or not isinstance(given, str):
        return None, msg_id
    if not hmac.compare_digest(given.encode("utf-8", "surrogatepass"), token.encode("utf-8")):
        return None, msg_id
    assert isinstance(options, dict)
    del options[TOKEN_OPTION]
    return message, msg_id


def _refusal(msg_id: Any) -> bytes:
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": msg_id,
            "error": {
                "code": -32600,
                "message": "tile-lsp: this server needs its token: the first message must be initialize "
                "with initializationOptions.token (see `tile-lsp serve --help`)",
            },
        }
    ).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class TokenServer:
    """Listens on host:port until one connection authenticates, then serves that one client
    with `ls` until it disconnects."""

    def __init__(self, ls: LanguageServer, host: str, port: int, token: str) -> None:
        self.ls, self.host, self.port, self.token = ls, host, port, token
        self.owner: asyncio.StreamWriter | None = None
        self.pending: dict[asyncio.StreamWriter, None] = {}  # oldest first
        self._server: asyncio.Server | None = None
        self._done: asyncio.Event | None = None

    async def run(self, listening: Callable[[int], None] | None = None) -> None:
        self._done = asyncio.Event()
        self._server = await asyncio.start_server(self._connection, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        if listening is not None:
            listening(self.port)
        try:
            await self._done.wait()
        finally:
            self._server.close()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.owner is not None:
            _close(writer)
            return
        if len(self.pending) >= MAX_PENDING:  # the oldest goes (its read sees the end and refuses it)
            oldest = next(iter(self.pending))
            del self.pending[oldest]
            _close(oldest)
        self.pending[writer] = None
        message: dict[str, Any] | None = None
        try:
            body = await asyncio.wait_for(_read_frame(reader), AUTH_TIMEOUT_S)
            if body is not None:
                message, msg_id = check_first_message(body, self.token)
                if message is None and msg_id is not None:
                    writer.write(_refusal(msg_id))
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(writer.drain(), 1.0)
        except (TimeoutError, asyncio.IncompleteReadError, ValueError, OSError):
            message = None  # (ValueError: a header line over the reader's limit)
        finally:
            self.pending.pop(writer, None)
        if message is None or self.owner is not None:
            log.info("refused a connection from %s", writer.get_extra_info("peername"))
            _close(writer)
            return
        self.owner = writer
        assert self._server is not None and self._done is not None
        self._server.close()  # one client: nobody else can connect from now on
        for other in list(self.pending):
            _close(other)
        try:
            await self._serve(reader, writer, message)
        finally:
            self._done.set()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, first: dict[str, Any]) -> None:
        ls, protocol = self.ls, self.ls.protocol
        stop = threading.Event()
        ls._stop_event = stop  # what pygls's own start_tcp sets: shutdown() stops the loop below
        protocol.set_writer(writer)  # type: ignore[arg-type]  # (pygls's start_tcp passes it too)
        protocol.handle_message(json.loads(json.dumps(first), object_hook=protocol.structure_message))
        await run_async(
            stop_event=stop, reader=reader, protocol=protocol, logger=log, error_handler=ls.report_server_error
        )
        log.info("the client disconnected: the server exits")


def _close(writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(Exception):
        writer.close()


def serve_tcp(ls: LanguageServer, host: str, port: int, token_file: str | None = None) -> None:
    """Serve `ls` on host:port to the one client holding the token (see the module docstring);
    returns when that client has gone. Raises TokenError for an unusable `token_file`."""
    token = read_token_file(token_file) if token_file is not None else new_token()
    written: list[str] = []

    def listening(bound: int) -> None:
        if token_file is None:
            written.append(write_token_file(bound, token))
            where = f"the token is in {written[0]} (0600)"
        else:
            where = f"the token is the one in {token_file}"
        print(
            f"tile-lsp: listening on {host}:{bound} for one client; its initialize must carry "
            f'initializationOptions.token ({where}); the server exits when that client disconnects',
            file=sys.stderr,
            flush=True,
        )

    try:
        asyncio.run(TokenServer(ls, host, port, token).run(listening))
    finally:
        ls.shutdown()
        for path in written:
            with contextlib.suppress(OSError):
                os.unlink(path)
