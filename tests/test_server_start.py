"""The language server's start: nothing of the compiler is imported with `tile_lsp.server` (it
answers `initialize` first), and what it declares without importing the facade agrees with it."""

from __future__ import annotations

import inspect
import subprocess
import sys

from tile_lsp import server


def _loaded_after(statement: str, prefixes: tuple[str, ...]) -> list[str]:
    code = f"import sys; {statement}; print('\\n'.join(m for m in sys.modules if m.startswith({prefixes!r})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return out.split()


def test_the_server_module_imports_no_compiler_and_no_xdsl() -> None:
    assert _loaded_after("import tile_lsp.server", ("xdsl", "tile_lsp.compiler", "tile_lsp.host", "tile_lsp.facade")) == []


def test_the_front_end_imports_no_upstream_dialect_of_xdsl() -> None:
    loaded = _loaded_after("import tile_lsp.host, tile_lsp.facade", ("xdsl.dialects.",))
    assert "xdsl.dialects.builtin" in loaded
    assert "xdsl.dialects.arith" not in loaded  # (the lowering and the upstream context import it)


def test_the_methods_answered_on_the_loop_are_the_facades_plain_ones() -> None:
    tile = server.TileServer(pipeline=False)
    names = [name for _, _, name in server.REQUESTS]
    plain = {name for name in names if not inspect.iscoroutinefunction(getattr(tile.facade, name))}
    assert plain == server.ON_THE_LOOP
    assert all(inspect.iscoroutinefunction(getattr(tile.facade, name)) for _, name in server.COMMANDS)
    tile.host.analysis_pool.shutdown(wait=True)


def test_a_server_built_before_initialize_takes_its_options() -> None:
    """(Tests build the host before any initialize; the server's own comes after it.)"""
    import json

    from tile_lsp import protocol

    class Sink:
        def write(self, data: object) -> None:
            pass

        def close(self) -> None:
            pass

    tile = server.TileServer(pipeline=False)
    assert tile.host.session.settings.gpuName != "sm_100a"
    rpc = tile.ls.protocol
    rpc.set_writer(Sink())  # type: ignore[arg-type]
    caps = {"general": {"positionEncodings": ["utf-8"]}}
    message = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": caps, "initializationOptions": {"gpuName": "sm_100a"}}}
    try:
        rpc.handle_message(json.loads(json.dumps(message), object_hook=rpc.structure_message))
        assert tile.host.session.settings.gpuName == "sm_100a"
        assert protocol.position_encoding() == "utf-8"
    finally:
        protocol.set_position_encoding("utf-16")
        tile.host.analysis_pool.shutdown(wait=True)


def test_a_bare_tile_lsp_serves_over_stdio() -> None:
    """(What editors start: `tile-lsp` without a command. Its stdin closed: it exits cleanly.)"""
    done = subprocess.run([sys.executable, "-m", "tile_lsp"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr and done.returncode == 0, done.stderr
