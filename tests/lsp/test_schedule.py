"""When the server starts a version's compile: an edit on its own at once, an edit inside a burst
of edits once typing pauses (server.PIPELINE_DEBOUNCE_S)."""

from __future__ import annotations

import asyncio
import types
from collections.abc import Coroutine
from typing import Any

from tile_lsp.server import PIPELINE_DEBOUNCE_S, PIPELINE_IDLE_S, TileServer


async def test_an_edit_on_its_own_compiles_at_once_and_a_burst_waits_for_the_pause() -> None:
    server = TileServer()
    pauses: list[tuple[int, float]] = []

    def publish_later(snap: Any, pause: float) -> Coroutine[Any, Any, None]:
        pauses.append((snap.version, pause))
        return asyncio.sleep(0)

    server._publish_later = publish_later  # type: ignore[method-assign]
    uri = "file:///tmp/k.mlir"

    def edit(version: int, uri: str = uri) -> None:
        server.schedule_diagnostics(types.SimpleNamespace(uri=uri, version=version))  # type: ignore[arg-type]

    edit(1)  # the document opens: nothing to wait for
    edit(2)  # a keystroke right after: a burst may be starting
    edit(3)
    server.last_edit[uri] -= PIPELINE_IDLE_S  # the user paused, then made one edit
    edit(4)
    edit(1, "file:///tmp/other.mlir")  # another document's edits are its own
    assert pauses == [(1, 0.0), (2, PIPELINE_DEBOUNCE_S), (3, PIPELINE_DEBOUNCE_S), (4, 0.0), (1, 0.0)]
    await asyncio.sleep(0.01)
    assert all(task.done() for task in server.pending.values())
