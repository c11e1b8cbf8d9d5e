"""Builds the VS Code extension (.vsix) and runs its TextMate grammar tests.

Runs `bash editors/vscode/build.sh` (npm ci + tsc + vsce package) and `npm test`
(vscode-tmgrammar-test on real kernels) when node and npm are installed; skipped otherwise.
A fresh checkout needs the npm registry for `npm ci` (about 1-2 minutes; later runs reuse
editors/vscode/node_modules).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VSCODE = ROOT / "editors" / "vscode"
GRAMMARS = [
    "cuda-tile.tmLanguage.json",
    "cuda-tile-stage.tmLanguage.json",
    "ptx.tmLanguage.json",
    "llvm-ir.tmLanguage.json",
]

needs_npm = pytest.mark.skipif(
    shutil.which("npm") is None or shutil.which("node") is None,
    reason="npm/node not installed: the VS Code extension build (editors/vscode/build.sh) needs node >= 20 and npm",
)


def run(cmd: list[str], timeout: int) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, cwd=VSCODE, capture_output=True, text=True, timeout=timeout, check=False)
    assert proc.returncode == 0, (
        f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    )
    return proc


@pytest.fixture(scope="module")
def vsix() -> Path:
    version = json.loads((VSCODE / "package.json").read_text())["version"]
    target = VSCODE / f"tile-lsp-{version}.vsix"
    target.unlink(missing_ok=True)
    run(["bash", str(VSCODE / "build.sh")], timeout=600)
    assert target.is_file(), f"build.sh did not produce {target.name}"
    return target


@needs_npm
def test_vsix_contents(vsix: Path) -> None:
    with zipfile.ZipFile(vsix) as zf:
        names = set(zf.namelist())
        manifest = json.loads(zf.read("extension/package.json"))
    assert "extension/package.json" in names
    assert "extension/out/extension.js" in names
    assert "extension/out/tileLspContext.js" in names
    assert "extension/out/bytecode.js" in names
    assert any(n.startswith("extension/node_modules/vscode-languageclient/") for n in names)
    for grammar in GRAMMARS:
        assert f"extension/syntaxes/{grammar}" in names
    assert not any(n.startswith("extension/src/") or n.startswith("extension/test/") for n in names)
    contributes = manifest["contributes"]
    assert {"cuda-tile", "ptx", "cuda-tile-stage"} <= {lang["id"] for lang in contributes["languages"]}
    assert {"tileLsp.showStage", "tileLsp.showPtx", "tileLsp.restartServer"} <= {
        c["command"] for c in contributes["commands"]
    }
    props = contributes["configuration"]["properties"]
    server_keys = [
        "gpuName", "computeCapability", "optLevel", "lineinfo", "ptxasPath", "previewOnSave", "previewDir",
        "pipelineTimeout",
    ]  # fmt: skip
    assert {f"tileLsp.{k}" for k in ["serverPath", "upstreamMlir", *server_keys]} <= set(props)
    # The client sends every server key (SERVER_KEYS in tileLspContext.ts) and attaches to
    # upstream-dialect `.mlir` documents (language mlir) too.
    with zipfile.ZipFile(vsix) as zf:
        js = zf.read("extension/out/tileLspContext.js").decode()
    assert all(f"'{k}'" in js for k in server_keys)
    assert "language: 'mlir'" in js and "looksLikeUpstreamMlir" in js
    # Restricted Mode: the built manifest declares it, and the client reads the restricted settings'
    # user values only (inspect().globalValue) and sends settings itself (no `synchronize`, which
    # would send the workspace's values).
    _check_restricted(manifest)
    assert "isTrusted" in js and ".inspect(" in js and "globalValue" in js
    assert "configurationSection:" not in js and "onDidGrantWorkspaceTrust" in js
    _check_bytecode(manifest)
    # Bytecode views: the client serves `tileirbc:` documents, which the content provider fills from
    # the server's tileLsp/bytecodeText; Save as Bytecode runs the server's command.
    with zipfile.ZipFile(vsix) as zf:
        bc = zf.read("extension/out/bytecode.js").decode()
    assert "scheme: bytecode_1.BYTECODE_SCHEME, language: exports.LANGUAGE_ID" in js
    assert "'tileLsp/bytecodeText'" in bc and "'tileLsp.saveAsBytecode'" in bc and "'tileirbc'" in bc
    assert "registerTextDocumentContentProvider" in bc and "registerCustomEditorProvider" in bc
    assert "showSaveDialog" in bc and "setTextDocumentLanguage" in bc
    # The server's command is registered by the client; the palette's call reaches the dialog through
    # the executeCommand middleware (registering the same id again would stop the client starting).
    assert "executeCommand: (command, args, next) => this.bytecode.executeCommand(command, args, next)" in js
    assert bc.count("registerCommand(") == 1 and "registerCommand(exports.SAVE_AS_BYTECODE_COMMAND" in bc  # the stand-in


def _check_bytecode(manifest: dict) -> None:  # type: ignore[type-arg]
    """`.tileirbc` files open in the bytecode custom editor (the decoded, read-only text view) by
    default, and "Save as Bytecode…" is in the palette for cuda_tile documents."""
    contributes = manifest["contributes"]
    (editor,) = [e for e in contributes["customEditors"] if e["viewType"] == "tileLsp.bytecode"]
    assert editor["selector"] == [{"filenamePattern": "*.tileirbc"}]
    assert editor.get("priority", "default") == "default"
    (command,) = [c for c in contributes["commands"] if c["command"] == "tileLsp.saveAsBytecode"]
    assert command["category"] == "tile-lsp" and command["title"].startswith("Save as Bytecode")
    palette = {m["command"]: m.get("when") for m in contributes["menus"]["commandPalette"]}
    assert palette["tileLsp.saveAsBytecode"] == "editorLangId == cuda-tile"
    events = manifest["activationEvents"]
    assert "onCustomEditor:tileLsp.bytecode" in events and "onFileSystem:tileirbc" in events


RESTRICTED = ["tileLsp.serverPath", "tileLsp.ptxasPath", "tileLsp.previewDir"]


def _check_restricted(manifest: dict) -> None:  # type: ignore[type-arg]
    props = manifest["contributes"]["configuration"]["properties"]
    # Settings that name a program: user (machine) settings only, never a workspace's.
    assert props["tileLsp.serverPath"]["scope"] == "machine"
    assert props["tileLsp.ptxasPath"]["scope"] == "machine"
    untrusted = manifest["capabilities"]["untrustedWorkspaces"]
    assert untrusted["supported"] == "limited"
    assert sorted(untrusted["restrictedConfigurations"]) == sorted(RESTRICTED)


def test_program_settings_are_machine_scoped_and_restricted() -> None:
    """package.json itself (no build needed): the scopes and the untrusted-workspace capability."""
    _check_restricted(json.loads((VSCODE / "package.json").read_text()))
    src = (VSCODE / "src" / "tileLspContext.ts").read_text()
    assert "export const RESTRICTED_KEYS = ['serverPath', 'ptxasPath', 'previewDir'];" in src


def test_bytecode_contributions() -> None:
    """package.json itself (no build needed): the bytecode custom editor and Save as Bytecode; the
    server's request and command names and versions, as the extension spells them."""
    _check_bytecode(json.loads((VSCODE / "package.json").read_text()))
    from tile_lsp.compiler.bytecode.format import VERSIONS, version_str
    from tile_lsp.features.bytecode_view import BYTECODE_TEXT_REQUEST, SAVE_AS_BYTECODE

    src = (VSCODE / "src" / "bytecode.ts").read_text()
    assert f"export const BYTECODE_TEXT_REQUEST = '{BYTECODE_TEXT_REQUEST}';" in src
    assert f"export const SAVE_AS_BYTECODE_COMMAND = '{SAVE_AS_BYTECODE}';" in src
    versions = ", ".join(f"'{version_str(v)}'" for v in VERSIONS)
    assert f"export const BYTECODE_VERSIONS = [{versions}];" in src


def test_settings_match_server_schema() -> None:
    """Every server setting (tile_lsp.session.Settings) has a tileLsp.* setting with the same default."""
    from tile_lsp.session import Settings

    props = json.loads((VSCODE / "package.json").read_text())["contributes"]["configuration"]["properties"]
    defaults = Settings()
    for key in Settings.__dataclass_fields__:
        assert f"tileLsp.{key}" in props, key
        assert props[f"tileLsp.{key}"]["default"] == getattr(defaults, key), key


@needs_npm
def test_grammars(vsix: Path) -> None:  # after the build: node_modules is in place
    proc = run(["npm", "test"], timeout=300)
    out = proc.stdout + proc.stderr
    assert "failed" not in out, out[-4000:]
    assert out.count("run successfuly") >= 5, out[-4000:]
