"""Small builders the nvvm-stage patterns share: llvm/nvvm ops by name, function declarations,
module-level string globals, and the symbol table (gpu.module or builtin.module) they go into.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr, IntegerType, ModuleOp, StringAttr, UnregisteredOp, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, var_operand_def, var_result_def
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.mlir.xdsl_fast import int_attr


@cache
def op_class(name: str) -> type[Operation]:
    """The registered class of op `name`; an unregistered (generic-form) class when none exists."""
    from tile_lsp.compiler.mlir.context import upstream_context

    found = upstream_context().get_optional_op(name)
    if found is not None and not issubclass(found, UnregisteredOp):
        return found
    return _generic_op_class(name)


def _generic_op_class(name: str) -> type[Operation]:
    """A named op class with variadic operands/results, for ops no dialect of ours defines yet
    (printed in generic form, which upstream accepts)."""
    body = {
        "name": name,
        "args": var_operand_def(),
        "outs": var_result_def(),
        "__doc__": f"`{name}` (generic form).",
    }
    cls_name = "".join(p.capitalize() for p in name.replace(".", "_").split("_")) + "GenericOp"
    return irdl_op_definition(type(cls_name, (IRDLOperation,), body))


def make_op(
    name: str,
    operands: Sequence[SSAValue] = (),
    result_types: Sequence[Attribute] = (),
    properties: dict[str, Attribute] | None = None,
) -> Operation:
    """Create op `name` (registered class if any, else generic) without running its constructor."""
    cls = op_class(name)
    return cls.create(operands=list(operands), result_types=list(result_types), properties=properties or {})


def inherent(op: Operation, name: str) -> Attribute | None:
    """Attribute `name` of `op`, from its properties or (generic form) its attribute dictionary."""
    found = op.properties.get(name)
    return found if found is not None else op.attributes.get(name)


def fastmath_flags(op: Operation) -> set[str]:
    """The fastmath flag names set on `op` (`fast` expands to all of them)."""
    attr = inherent(op, "fastmath")
    flags = getattr(attr, "flags", None)
    if flags is None:
        flags = getattr(attr, "data", None)
    names = {str(getattr(f, "value", f)) for f in flags} if isinstance(flags, set | frozenset | tuple | list) else set()
    if "fast" in names:
        names |= {"reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"}
    return names


def emit(rewriter: PatternRewriter, op: Operation) -> Operation:
    rewriter.insert(op)
    return op


def symbol_scope(op: Operation) -> Operation | None:
    """The closest enclosing gpu.module / builtin.module (where declarations and globals go)."""
    cur = op.parent_op()
    while cur is not None:
        if cur.name == "gpu.module" or isinstance(cur, ModuleOp):
            return cur
        cur = cur.parent_op()
    return None


def in_gpu_code(op: Operation) -> bool:
    """Whether `op` is device code: inside a gpu.module, or in a module that has none (then the
    whole module is the device side, as the nvvm stage treats it)."""
    cur = op.parent_op()
    top: Operation = op
    while cur is not None:
        if cur.name == "gpu.module":
            return True
        top = cur
        cur = cur.parent_op()
    return not _has_gpu_module(top)


def _has_gpu_module(top: Operation) -> bool:
    # Only a module's own top-level ops (and one nesting level) are looked at: gpu.modules are
    # never deeper, and this runs once per matched op.
    for region in top.regions:
        for block in region.blocks:
            for child in block.ops:
                if child.name == "gpu.module":
                    return True
                if child.name == "builtin.module" and _has_gpu_module(child):
                    return True
    return False


def _symbols(scope: Operation) -> dict[str, Operation]:
    out: dict[str, Operation] = {}
    block = scope.regions[0].blocks.first
    if block is None:
        return out
    for child in block.ops:
        sym = inherent(child, "sym_name")
        if isinstance(sym, StringAttr):
            out[sym.data] = child
    return out


def _insert_at_top(scope: Operation, op: Operation) -> None:
    block = scope.regions[0].blocks.first
    if block is None:
        block = Block()
        scope.regions[0].add_block(block)
    first = block.first_op
    if first is None:
        block.add_op(op)
    else:
        block.insert_op_before(op, first)


def declare_function(
    at: Operation, name: str, inputs: Sequence[Attribute], output: Attribute | None = None
) -> llvm.FuncOp | None:
    """`llvm.func @name(inputs) -> output` declared once in the symbol scope of `at`."""
    scope = symbol_scope(at)
    if scope is None:
        return None
    existing = _symbols(scope).get(name)
    if isinstance(existing, llvm.FuncOp):
        return existing
    if existing is not None:
        return None
    ftype = llvm.LLVMFunctionType(list(inputs), output)
    decl = llvm.FuncOp(name, ftype, linkage=llvm.LinkageAttr("external"))
    _insert_at_top(scope, decl)
    return decl


def string_global(at: Operation, prefix: str, text: str) -> str | None:
    """Name of an internal constant `!llvm.array<N x i8>` global holding `text` + NUL (shared by content)."""
    scope = symbol_scope(at)
    if scope is None:
        return None
    data = text.encode("utf-8") + b"\0"
    value = StringAttr(data.decode("latin-1"))
    symbols = _symbols(scope)
    index = 0
    while True:
        name = f"{prefix}_{index}"
        existing = symbols.get(name)
        if existing is None:
            break
        if isinstance(existing, llvm.GlobalOp) and existing.value == value:
            return name
        index += 1
    glob = llvm.GlobalOp(
        llvm.LLVMArrayType(IntAttr(len(data)), IntegerType(8)), name, "internal", constant=True, value=value
    )
    _insert_at_top(scope, glob)
    return name


def call(
    rewriter: PatternRewriter, callee: str, args: Sequence[SSAValue], result: Attribute | None
) -> llvm.CallOp:
    """`llvm.call @callee(args)`."""
    op = llvm.CallOp(callee, *args, return_type=result)
    rewriter.insert(op)
    return op


def int_constant(rewriter: PatternRewriter, value: int, type: IntegerType) -> SSAValue:
    op = llvm.ConstantOp(int_attr(value, type), type)
    rewriter.insert(op)
    return op.result


def read_sreg(rewriter: PatternRewriter, name: str, bounds: tuple[int, int] | None = None) -> SSAValue:
    """`nvvm.read.ptx.sreg.<name> : i32`, with `range <i32, lo, hi>` when the value is known bounded."""
    op = emit(rewriter, make_op(f"nvvm.read.ptx.sreg.{name}", result_types=[i32]))
    if bounds is not None:
        from tile_lsp.compiler.mlir.dialects.nvvm import ConstantRangeAttr

        op.properties["range"] = ConstantRangeAttr(IntAttr(32), IntAttr(bounds[0]), IntAttr(bounds[1]))
    return op.results[0]


def new_func(
    name: str, inputs: Sequence[Attribute], output: Attribute | None, body: Region, attrs: dict[str, Attribute]
) -> llvm.FuncOp:
    """A defined external llvm.func with discardable attributes `attrs`."""
    func = llvm.FuncOp(name, llvm.LLVMFunctionType(list(inputs), output), linkage=llvm.LinkageAttr("external"),
                       body=body)
    func.attributes.update(attrs)
    return func

__all__ = [
    "call",
    "declare_function",
    "in_gpu_code",
    "emit",
    "int_constant",
    "make_op",
    "new_func",
    "op_class",
    "read_sreg",
    "string_global",
    "symbol_scope",
]
