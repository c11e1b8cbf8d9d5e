"""Helpers for the nvvm-stage tests: lower upstream text with `convert_to_nvvm`, read ops back."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from tile_lsp.compiler.diagnostics import Diagnostic
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.to_nvvm import convert_to_nvvm
from tile_lsp.compiler.mlir.context import parse_upstream, print_ir
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target


@dataclass
class Lowered:
    source: SourceText
    module: ModuleOp
    ok: bool
    diagnostics: list[Diagnostic]

    @property
    def text(self) -> str:
        return print_ir(self.module)

    def ops(self, *prefixes: str) -> list[Operation]:
        return [op for op in self.module.walk() if not prefixes or op.name.startswith(prefixes)]

    def names(self, *prefixes: str) -> list[str]:
        return [op.name for op in self.ops(*prefixes)]

    def func(self, name: str) -> Operation:
        for op in self.module.walk():
            sym = op.properties.get("sym_name")
            if op.name == "llvm.func" and sym is not None and getattr(sym, "data", None) == name:
                return op
        raise AssertionError(f"no llvm.func @{name}")

    def messages(self) -> list[str]:
        return [d.message for d in self.diagnostics]


def lower(text: str, path: str = "k.mlir") -> Lowered:
    source = SourceText(text, path)
    parsed = parse_upstream(source)
    assert parsed.module is not None and not parsed.diagnostics, [d.message for d in parsed.diagnostics]
    lctx = LoweringContext(source, CompileOptions(Target(90, "a")), spans=parsed.spans)
    ok = convert_to_nvvm(parsed.module, lctx)
    return Lowered(source, parsed.module, ok, list(lctx.sink.items))


def kernel(body: str, args: str = "", attrs: str = "") -> str:
    """A gpu.module with one kernel whose body is `body` (gpu.return appended)."""
    return f"gpu.module @m {{\n  gpu.func @k({args}) kernel {attrs} {{\n{body}\n    gpu.return\n  }}\n}}\n"


def device_func(body: str, args: str, results: str, ret: str) -> str:
    """A gpu.module with a func.func returning `ret` (keeps lowered values alive)."""
    return (f"gpu.module @m {{\n  func.func @f({args}) -> ({results}) {{\n{body}\n"
            f"    func.return {ret} : {results}\n  }}\n}}\n")
