"""cuda_tile debugging ops: assert, print (13.1) and the token-ordered print_tko.

print/print_tko check their printf-style format string against the argument count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Operation
from xdsl.irdl import operand_def, opt_operand_def, prop_def, result_def, var_operand_def

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, VerifyResult, tile_op
from tile_lsp.compiler.dialects.cuda_tile.memory_syntax import SEGMENTED_OPERANDS

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState
    from tile_lsp.compiler.verify_context import VerifyContext

# printf conversion characters: a `%` expression runs up to the first of these.
_CONVERSIONS = frozenset("diuoxXeEfFgGaAcspn%")


def format_error(fmt: str, nargs: int) -> str | None:
    """NVIDIA's check of a print format string against the number of arguments."""
    count = 0
    i, n = 0, len(fmt)
    while i < n:
        if fmt[i] != "%":
            i += 1
            continue
        if i + 1 < n and fmt[i + 1] == "%":
            i += 2
            continue
        j = i + 1
        while j < n and fmt[j] not in _CONVERSIONS:
            j += 1
        if j == n:
            return "found unterminated format expression"
        count += 1
        i = j + 1
    if count != nargs:
        return f"incorrect number of operands: expected {count}, found {nargs}"
    return None


def _check_format(op: PrintOp | PrintTkoOp) -> VerifyResult:
    fmt = op.properties.get("str")
    if isinstance(fmt, builtin.StringAttr):
        msg = format_error(fmt.data, len(op.args))
        if msg is not None:
            yield OpError(msg)


@tile_op
class AssertOp(CudaTileOp):
    """Aborts the kernel with a message when any element of the i1 condition tile is false.

    ```mlir
    assert %ok, "index out of range" : tile<16xi1>
    ```
    """

    name = "cuda_tile.assert"
    condition = operand_def()
    message = prop_def(builtin.StringAttr)
    TILE_FORMAT = "$condition `,` $message attr-dict `:` custom<CudaTileType>(type($condition))"
    TYPE_CONSTRAINTS = {"condition": C.I1_TILE}


@tile_op
class PrintOp(CudaTileOp):
    """Prints a printf-style message with tile arguments from the device (13.1 spelling).

    ```mlir
    print "x = %f\\n", %x : tile<f32>
    ```
    """

    name = "cuda_tile.print"
    str_ = prop_def(builtin.StringAttr, prop_name="str")
    args = var_operand_def()
    TILE_FORMAT = "$str (`,` $args^)? attr-dict (`:` custom<CudaTileType>(type($args)))?"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        yield from _check_format(self)


@tile_op
class PrintTkoOp(CudaTileOp):
    """Prints a printf-style message with tile arguments, ordered against other memory ops by tokens.

    ```mlir
    %t1 = print_tko "x = %f\\n", %x token=%t0 : tile<f32> -> token
    ```
    """

    name = "cuda_tile.print_tko"
    str_ = prop_def(builtin.StringAttr, prop_name="str")
    args = var_operand_def()
    token = opt_operand_def()
    result = result_def()
    irdl_options = SEGMENTED_OPERANDS
    SINCE = "13.2"
    TILE_FORMAT = (
        "$str (`,` $args^)? (`token` `` `=` `` `` $token^)? attr-dict "
        "(`:` custom<CudaTileType>(type($args)))? (`->` custom<CudaTileType>(type($result)))?"
    )
    TYPE_CONSTRAINTS = {"token": C.TOKEN, "result": C.TOKEN}

    @classmethod
    def infer_types(cls, state: OpState) -> None:
        state.operand_types.setdefault("token", [ct.TokenType()] * len(state.operands.get("token", [])))
        state.operand_types.setdefault("args", [])
        # NVIDIA always prints `-> token`; its README writes print_tko without it.
        state.result_types.setdefault("result", [ct.TokenType()])

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        yield from _check_format(self)


OPS: list[type[Operation]] = [AssertOp, PrintOp, PrintTkoOp]
