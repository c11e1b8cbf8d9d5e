"""Tile IR bytecode in the editor: the text view of a `.tileirbc` file, and a cuda_tile document
saved as bytecode. Protocol-free (the server's `tileLsp/bytecodeText` request and
`tileLsp.saveAsBytecode` command call these; so do tests).

The text view is the file decoded by our reader (tile_lsp/compiler/bytecode) and printed as
cuda_tile text with the bytecode's debug info as `loc(...)`, under a header comment that names
the file, its bytecode version and producer. Clients show it read-only under its own URI (VS
Code: `tileirbc:` virtual documents; Neovim: a `nowrite` buffer of the file's name), and open it
on the server like any cuda_tile document: diagnostics, hovers, navigation and the pipeline
all work on it. A file that is not bytecode, or that cannot be decoded, gives an `error` with
the byte offset instead of a text.
"""

from __future__ import annotations

import os
from typing import Any

from tile_lsp.compiler.diagnostics import Diagnostic, format_text
from tile_lsp.compiler.source import SourceText
from tile_lsp.lsp_names import BYTECODE_TEXT_REQUEST as BYTECODE_TEXT_REQUEST  # (declared at initialize)
from tile_lsp.lsp_names import SAVE_AS_BYTECODE as SAVE_AS_BYTECODE

# A bytecode file bigger than this is not decoded for the editor (cuTile's kernels are a few KB;
# the reader takes ~1 s per MB).
MAX_BYTECODE_VIEW = 16 << 20


def bytecode_text(path: str, max_size: int = MAX_BYTECODE_VIEW) -> dict[str, Any]:
    """{path, text, version, producer, bytes} for a bytecode file, or {path, error}."""
    from tile_lsp.compiler.bytecode import is_bytecode
    from tile_lsp.compiler.bytecode.format import version_str
    from tile_lsp.compiler.bytecode.reader import decode

    name = os.path.basename(path) or path
    try:
        size = os.stat(path).st_size
        if size > max_size:
            return {"path": path, "error": f"{name}: {size:,} bytes, over the {max_size:,}-byte limit of the bytecode view"}
        with open(path, "rb") as f:
            data = f.read(max_size + 1)
    except OSError as exc:
        return {"path": path, "error": f"{name}: cannot read it: {exc.strerror or exc}"}
    if not is_bytecode(data):
        return {"path": path, "error": f"{name}: not Tile IR bytecode (it does not start with the bytecode magic)"}
    decoded = decode(data)
    if decoded.module is None:
        return {"path": path, "error": _first_error(decoded.diagnostics, data, path)}
    from tile_lsp.compiler.bytecode.convert import module_text

    try:
        body = module_text(decoded.module)
    except Exception as exc:
        return {"path": path, "error": f"{name}: internal error printing the decoded bytecode: {exc!r}"}
    version = version_str(decoded.version) if decoded.version else "?"
    producer = decoded.producer or ""
    header = (
        f"// {name}: Tile IR bytecode {version}, {len(data):,} bytes"
        + (f", written by {producer}" if producer else "")
        + "\n// decoded by tile-lsp (read-only view; tile-lsp: Save as Bytecode writes a document as bytecode)\n"
    )
    return {"path": path, "text": header + body, "version": version, "producer": producer or None, "bytes": len(data)}


def _mode_for(target: str) -> int:
    """The mode of the file being replaced, else a new file's (0666 less the umask); mkstemp's
    0600 would hide the bytecode from the user's other tools and users."""
    try:
        return os.stat(target).st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _first_error(diagnostics: list[Diagnostic], data: bytes, path: str) -> str:
    blank = SourceText(" " * len(data), path)
    for d in diagnostics:
        if d.is_error:
            return format_text(d, blank)[0]
    return f"{os.path.basename(path)}: cannot decode this bytecode"


def save_as_bytecode(text: str, source_path: str, target: str, version: str | None = None) -> dict[str, Any]:
    """Write `text` (a cuda_tile document) as bytecode to the absolute path `target`, atomically
    (`private_files.write_private`: a failed write leaves the old file). IR that
    fails verification is still written (tileiras reports it), with the errors returned.
    -> {path, bytes, version, diagnostics: [messages]} or {error}."""
    from tile_lsp.compiler.bytecode.convert import text_to_bytecode
    from tile_lsp.compiler.bytecode.format import parse_version, version_str

    if not target or not os.path.isabs(target):
        return {"error": f"the bytecode's path must be absolute: {target!r}"}
    if os.path.isdir(target):
        return {"error": f"{target} is a folder"}
    wanted = None
    if version:
        wanted = parse_version(version)
        if wanted is None:
            return {"error": f"invalid bytecode version {version!r}: expected one of 13.1, 13.2, 13.3, 13.4, 13.5"}
    data, diags, source = text_to_bytecode(text, source_path, wanted)
    messages = [format_text(d, source)[0] for d in diags]
    if data is None:
        errors = [m for m, d in zip(messages, diags) if d.is_error]
        return {"error": errors[0] if errors else "the document could not be written as bytecode", "diagnostics": messages}
    from tile_lsp.compiler.private_files import write_private

    try:
        write_private(target, data, _mode_for(target))
    except OSError as exc:
        return {"error": f"cannot write {target}: {exc.strerror or exc}"}
    from tile_lsp.compiler.bytecode.format import header_version

    written = header_version(data)  # (what the writer chose when no version was asked)
    return {"path": target, "bytes": len(data), "version": version_str(written) if written else version, "diagnostics": messages}
