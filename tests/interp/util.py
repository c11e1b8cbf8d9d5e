"""Run a few cuda_tile ops on given tiles and read back named results (interpreter tests)."""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from tile_lsp.compiler.interp import Interpreter
from tile_lsp.compiler.interp.launch import RunResult, bind, entry_params, load_module


def module(params: str, body: str) -> str:
    return f"cuda_tile.module @m {{\n  testing$func @k({params}) {{\n{body}\n  }}\n}}\n"


class Run(RunResult):
    interp: Interpreter

    def named(self, name: str) -> np.ndarray:
        return np.asarray(self.interp.value_named(name))


def evaluate(params: str, body: str, *args: Any, grid: tuple[int, int, int] = (1, 1, 1)) -> Run:
    """Run testing$func @k(params) { body }; arrays given for pointer parameters become buffers
    (read back with `.array(i)`), other results are read with `.named("name")`."""
    interp = load_module(module(params, body), "test.mlir")
    interp.stdout = io.StringIO()
    launch = bind(entry_params(interp, "k"), list(args), interp.memory)
    interp.run("k", launch.values, grid)
    run = Run(interp.memory, launch)
    run.interp = interp
    return run


def value(params: str, body: str, *args: Any, name: str = "r") -> np.ndarray:
    return evaluate(params, body, *args).named(name)
