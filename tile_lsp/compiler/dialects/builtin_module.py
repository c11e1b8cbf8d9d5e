"""`module [@name] [attributes {...}] { ... }`: MLIR's builtin module as a wrapper in files.

NVIDIA's tests wrap cuda_tile modules in it; the parser resolves a top-level `module` here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.ir import Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, region_def

from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.attributes import dict_str, parse_attr_dict_body, symbol_name

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter


@irdl_op_definition
class BuiltinModuleOp(IRDLOperation):
    """A top-level container of other ops (MLIR's `builtin.module`).

    ```mlir
    module attributes {foo} { cuda_tile.module @m { } }
    ```
    """

    name = "builtin.module"
    sym_name = opt_prop_def(builtin.StringAttr)
    body = region_def()
    ISOLATED: ClassVar[bool] = True
    DEFAULT_DIALECT: ClassVar[str] = ""

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        if p.kind == lexer.SYMBOL:
            state.properties["sym_name"] = builtin.StringAttr(symbol_name(p.tok))
            state.symbol_span = p.span()
            p.advance()
        if p.accept_keyword("attributes"):
            state.attributes.update(parse_attr_dict_body(p))
        state.regions["body"] = [p.parse_region(isolated=True)]

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        name = op.properties.get("sym_name")
        sym = f" @{name.data}" if isinstance(name, builtin.StringAttr) else ""
        attrs = f" attributes {dict_str(op.attributes)}" if op.attributes else ""
        return f"{sym}{attrs} {pr.region_text(op.regions[0])}"


OPS: list[type[Operation]] = [BuiltinModuleOp]
