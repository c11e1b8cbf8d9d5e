"""Stage 6 front: our own llvm dialect -> LLVM IR text emitter (NVPTX triple, kernels as
`ptx_kernel`, launch bounds as `"nvvm.*"` function attributes, line info from op locations).

An op the emitter cannot spell becomes a diagnostic at the op; the result is then None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import builtin
from xdsl.dialects import llvm as x
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tile_lsp.compiler.backend.llvmir_debug import LineInfo, Metadata
from tile_lsp.compiler.backend.llvmir_di import source_aliases
from tile_lsp.compiler.backend.llvmir_ops import emit_op
from tile_lsp.compiler.backend.llvmir_scopes import Flattened, flatten_modules
from tile_lsp.compiler.backend.llvmir_values import (
    NVPTX_DATALAYOUT,
    NVPTX_TRIPLE,
    Unsupported,
    cconv_text,
    constant_of,
    constant_text,
    dict_list,
    op_name,
    quoted,
    symbol,
    type_text,
)
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.mlir.dialects import llvm_ext as ext

# Launch bounds: MLIR attribute -> LLVM 22 string function attribute (what mlir-translate writes).
_LAUNCH_BOUNDS = {
    "nvvm.maxntid": "nvvm.maxntid",
    "nvvm.reqntid": "nvvm.reqntid",
    "nvvm.minctasm": "nvvm.minctasm",
    "nvvm.maxnreg": "nvvm.maxnreg",
    "nvvm.cluster_dim": "nvvm.cluster_dim",
    "nvvm.cluster_max_blocks": "nvvm.maxclusterrank",
}
_UNIT_FN_ATTRS = {"nvvm.blocksareclusters": "nvvm.blocksareclusters"}
_ARG_ATTRS = {
    "llvm.noalias": "noalias",
    "llvm.readonly": "readonly",
    "llvm.writeonly": "writeonly",
    "llvm.nonnull": "nonnull",
    "llvm.noundef": "noundef",
    "llvm.nocapture": "captures(none)",
    "llvm.inreg": "inreg",
    "llvm.signext": "signext",
    "llvm.zeroext": "zeroext",
    "nvvm.grid_constant": '"nvvm.grid_constant"',
}


_Line = tuple[str, Operation | None]


@dataclass
class EmittedIR:
    """LLVM IR text and, per line (0-based), the op it was emitted for (None: no single op)."""

    text: str
    line_ops: list[Operation | None]

    def lines_of(self, op: Operation) -> list[int]:
        """0-based lines emitted for `op`."""
        return [i for i, o in enumerate(self.line_ops) if o is op]


def emit_llvm_ir(module: builtin.ModuleOp, lctx: LoweringContext) -> str | None:
    """LLVM IR text of the llvm-dialect ops in `module` (inside its gpu.module, if any)."""
    emitted = emit_llvm_ir_mapped(module, lctx)
    return emitted.text if emitted is not None else None


def emit_llvm_ir_mapped(module: builtin.ModuleOp, lctx: LoweringContext) -> EmittedIR | None:
    """`emit_llvm_ir` plus the line -> op map (for stage views and provenance)."""
    return _ModuleEmitter(lctx).run(module)


def device_ops(module: builtin.ModuleOp) -> list[Operation]:
    """The device-side top-level ops: the bodies of the gpu.modules, else the module's own;
    nested builtin.modules spliced in (see llvmir_scopes; symbol conflicts are left out here)."""
    return _device_scope(module).ops


def _device_scope(module: builtin.ModuleOp) -> Flattened:
    gpu_modules = [op for op in module.ops if op.name == "gpu.module"]
    if not gpu_modules:
        return flatten_modules(module.ops)
    ops: list[Operation] = []
    for gm in gpu_modules:
        for region in gm.regions:
            for block in region.blocks:
                ops.extend(op for op in block.ops if not op.name.startswith("gpu.module_end"))
    return flatten_modules(ops)


class _ModuleEmitter:
    """Emits one LLVM module: globals, declarations, functions, attribute groups, metadata."""

    def __init__(self, lctx: LoweringContext) -> None:
        self.lctx = lctx
        self.md = Metadata()
        path = lctx.source.path or "<input>"
        full = lctx.options.device_debug
        aliases = source_aliases(lctx.source.text) if full else {}
        self.debug = LineInfo(self.md, path, lctx.options.lineinfo, full=full, aliases=aliases)
        self.declarations: dict[str, _Line] = {}  # intrinsic name -> (declare line, first user)
        self.defined: set[str] = set()
        self.with_body: set[str] = set()  # functions defined here (they get a DISubprogram)
        self.attribute_groups: list[str] = []
        self.globals: dict[str, x.GlobalOp] = {}
        self.ok = True

    def error(self, op: Operation, message: str) -> None:
        self.ok = False
        self.lctx.error(op, message, stage="llvm-ir")

    def run(self, module: builtin.ModuleOp) -> EmittedIR | None:
        scope = _device_scope(module)
        for op, message in scope.conflicts:
            self.error(op, message)
        ops = scope.ops
        for op in ops:
            if isinstance(op, x.GlobalOp):
                self.globals[op.sym_name.data] = op
            if isinstance(op, x.FuncOp):
                self.defined.add(op.sym_name.data)
                if op.body.blocks:
                    self.with_body.add(op.sym_name.data)
        global_lines: list[_Line] = []
        func_lines: list[_Line] = []
        for op in ops:
            try:
                if isinstance(op, x.GlobalOp):
                    global_lines.append((self.global_line(op), op))
                elif isinstance(op, x.FuncOp):
                    func_lines.extend(self.function(op))
                    if op.body.blocks:
                        func_lines.append(("", None))
                elif op.name in ("gpu.module_end", "llvm.mlir.global_ctors", "llvm.mlir.global_dtors"):
                    continue
                else:
                    self.error(op, f"cannot translate '{op_name(op)}' to LLVM IR")
            except Unsupported as exc:
                self.error(exc.op, exc.message)
            except Exception as exc:  # a malformed op must not take the pipeline down
                self.error(op, f"cannot translate '{op_name(op)}' to LLVM IR: {exc}")
        if not self.ok:
            return None
        flags = [self.md.add('!{i32 4, !"nvvm-reflect-ftz", i32 0}')]
        named = self.debug.module_lines(flags)
        out: list[_Line] = [
            (f'target datalayout = "{NVPTX_DATALAYOUT}"', None),
            (f'target triple = "{NVPTX_TRIPLE}"', None),
            ("", None),
        ]
        out += global_lines
        if global_lines:
            out.append(("", None))
        out += list(self.declarations.values())
        if self.declarations:
            out.append(("", None))
        out += func_lines
        tail = [f"attributes #{i} = {{ {text} }}" for i, text in enumerate(self.attribute_groups)]
        tail += named
        tail.append("!llvm.module.flags = !{" + ", ".join(f"!{f}" for f in flags) + "}")
        tail += self.md.lines()
        out += [(line, None) for line in tail]
        return EmittedIR("\n".join(line for line, _ in out) + "\n", [op for _, op in out])

    # -- globals ---------------------------------------------------------------------------

    def global_line(self, op: x.GlobalOp) -> str:
        gtype = type_text(op.global_type)
        if gtype is None:
            raise Unsupported(op, f"global '@{op.sym_name.data}' has a type LLVM IR cannot spell")
        linkage = op.linkage.linkage.data
        parts = [f"@{symbol(op.sym_name.data)} ="]
        has_init = op.value is not None or bool(op.body.blocks and op.body.block.ops)
        if linkage != "external" or not has_init:
            parts.append(linkage)
        if op.unnamed_addr is not None and op.unnamed_addr.value.data:
            parts.append("unnamed_addr" if op.unnamed_addr.value.data == 2 else "local_unnamed_addr")
        if op.thread_local_ is not None:
            parts.append("thread_local")
        space = op.addr_space.value.data
        if space:
            parts.append(f"addrspace({space})")
        parts.append("constant" if op.constant is not None else "global")
        parts.append(gtype)
        if op.value is not None:
            init = constant_text(op.value, op.global_type)
            if init is None:
                raise Unsupported(op, f"initializer of global '@{op.sym_name.data}' is not supported")
            parts.append(init)
        elif op.body.blocks and op.body.block.ops:
            parts.append(self.global_region_init(op))
        elif linkage != "external":
            parts.append("undef")
        line = " ".join(parts)
        if op.section is not None:
            line += f", section {quoted(op.section.data)}"
        if op.alignment is not None:
            line += f", align {op.alignment.value.data}"
        return line

    def global_region_init(self, op: x.GlobalOp) -> str:
        """Initializer regions made of constants only (zero/undef/poison/constant + return)."""
        ops = list(op.body.block.ops)
        ret = ops[-1]
        if not isinstance(ret, x.ReturnOp) or ret.arg is None or len(ops) != 2:
            raise Unsupported(op, "global initializer regions with more than one constant are not supported")
        text = constant_of(ops[0])
        if text is None:
            raise Unsupported(ops[0], f"'{ops[0].name}' in a global initializer is not supported")
        return text

    # -- functions -------------------------------------------------------------------------

    def function(self, op: x.FuncOp) -> list[_Line]:
        ftype = op.function_type
        name = op.sym_name.data
        ret = type_text(ftype.output)
        if ret is None:
            raise Unsupported(op, f"result type of '@{name}' cannot be spelled in LLVM IR")
        arg_attrs = dict_list(op.arg_attrs or op.attributes.get("arg_attrs"))
        args: list[str] = []
        for i, t in enumerate(ftype.inputs.data):
            ttext = type_text(t)
            if ttext is None:
                raise Unsupported(op, f"argument {i} of '@{name}' has a type LLVM IR cannot spell")
            attrs = _param_attrs(arg_attrs[i] if i < len(arg_attrs) else None)
            args.append(" ".join([ttext, *attrs]))
        if ftype.is_variadic:
            args.append("...")
        is_kernel = "gpu.kernel" in op.attributes or "nvvm.kernel" in op.attributes
        cconv = "ptx_kernel" if is_kernel else cconv_text(op.CConv)
        linkage = op.linkage.linkage.data
        blocks = list(op.body.blocks)
        head = ["declare" if not blocks else "define"]
        if blocks and linkage != "external":
            head.append(linkage)
        if cconv:
            head.append(cconv)
        head.append(ret)
        signature = " ".join(head) + f" @{symbol(name)}("
        if not blocks:
            return [(signature + ", ".join(args) + ")" + self.fn_attr_ref(op), op)]
        body = FunctionEmitter(self, op)
        named_args = [f"{a} {body.names[arg]}" for a, arg in zip(args, blocks[0].args, strict=False)]
        if ftype.is_variadic:
            named_args.append("...")
        sp = body.scope
        dbg = f" !dbg !{sp}" if sp is not None else ""
        header = signature + ", ".join(named_args) + ")" + self.fn_attr_ref(op) + dbg + " {"
        return [(header, op), *body.emit(), ("}", op)]

    def fn_attr_ref(self, op: x.FuncOp) -> str:
        """` #N` for the function's attribute group (launch bounds, passthrough), or ''."""
        attrs: list[str] = []
        for key, llvm_key in _LAUNCH_BOUNDS.items():
            value = op.attributes.get(key) or op.properties.get(key)
            if value is not None:
                text = _int_list(value)
                if text is None:
                    raise Unsupported(op, f"'{key}' must be an integer or an array of integers")
                attrs.append(f'"{llvm_key}"={quoted(text)}')
        for key, llvm_key in _UNIT_FN_ATTRS.items():
            if key in op.attributes:
                attrs.append(f'"{llvm_key}"')
        if op.no_inline is not None or "no_inline" in op.attributes:
            attrs.append("noinline")
        passthrough = op.passthrough or op.attributes.get("passthrough")
        if isinstance(passthrough, ArrayAttr):
            for entry in passthrough.data:
                if isinstance(entry, StringAttr):
                    attrs.append(entry.data if entry.data.isidentifier() else quoted(entry.data))
                elif isinstance(entry, ArrayAttr) and len(entry.data) == 2:
                    k, v = entry.data
                    if isinstance(k, StringAttr) and isinstance(v, StringAttr):
                        attrs.append(f"{quoted(k.data)}={quoted(v.data)}")
        if not attrs:
            return ""
        self.attribute_groups.append(" ".join(attrs))
        return f" #{len(self.attribute_groups) - 1}"

    def declare_intrinsic(self, op: Operation, name: str, ret: str, arg_types: Sequence[str]) -> None:
        if name in self.defined:
            return  # declared or defined by an llvm.func of the module
        line = f"declare {ret} @{symbol(name)}({', '.join(arg_types)})"
        known = self.declarations.get(name)
        if known is not None and known[0] != line:
            raise Unsupported(op, f"intrinsic '{name}' is used with two signatures: '{known[0]}' and '{line}'")
        self.declarations[name] = (line, op)


class FunctionEmitter:
    """Emits one llvm.func body: names values and blocks, builds phis from block arguments."""

    def __init__(self, module: _ModuleEmitter, func: x.FuncOp) -> None:
        self.m = module
        self.func = func
        self.names: dict[SSAValue, str] = {}
        self.consts: dict[SSAValue, str] = {}
        self.block_names: dict[Block, str] = {}
        self.lines: list[_Line] = []
        self.scope = module.debug.subprogram(func.sym_name.data, func.location)
        counter = 0
        for bi, block in enumerate(func.body.blocks):
            self.block_names[block] = f"bb{bi}"
            for arg in block.args:
                self.names[arg] = f"%arg{arg.index}" if bi == 0 else f"%b{bi}_{arg.index}"
            for op in block.ops:
                for res in op.results:
                    self.names[res] = f"%v{counter}"
                    counter += 1
        self.incoming = self._incoming()
        if module.debug.full:
            module.debug.prepare_variables(self.scope, list(func.walk()))

    def _incoming(self) -> dict[Block, list[tuple[Block, list[SSAValue]]]]:
        """Per block: (predecessor, operands passed) for each branch into it."""
        result: dict[Block, list[tuple[Block, list[SSAValue]]]] = {}
        for block in self.func.body.blocks:
            term = block.last_op
            if term is None:
                continue
            for succ, operands in _successor_operands(term):
                result.setdefault(succ, []).append((block, operands))
        return result

    def emit(self) -> list[_Line]:
        for block in self.func.body.blocks:
            self.lines.append((f"{self.block_names[block]}:", None))
            if block is not self.func.body.first_block:
                self.phis(block)
            for op in block.ops:
                try:
                    emit_op(self, op)
                except Unsupported as exc:
                    self.m.error(exc.op, exc.message)
                except Exception as exc:  # a malformed op must not take the pipeline down
                    self.m.error(op, f"cannot translate '{op_name(op)}' to LLVM IR: {exc}")
        self.m.debug.finish_subprogram(self.scope)
        return self.lines

    def debug_record(self, op: Operation) -> None:
        """`llvm.intr.dbg.*` -> a `#dbg_value/#dbg_declare/#dbg_label` record (device debug only;
        without it the ops carry nothing the chosen row of seed 001's table keeps)."""
        debug = self.m.debug
        if not debug.full or self.scope is None:
            return
        name = op_name(op)
        if name == "llvm.intr.dbg.label":
            found = debug.label(self.scope, op.properties.get("label") or op.attributes.get("label"))
            if found is None:
                raise Unsupported(op, "'llvm.intr.dbg.label' needs a '#llvm.di_label' attribute")
            lab, scope = found
            loc = debug.record_location(op.location, scope, 0)
            self.lines.append((f"    #dbg_label(!{lab}, !{loc})", op))
            return
        if not op.operands:
            raise Unsupported(op, f"'{name}' has no value operand")
        value = op.operands[0]
        found = debug.variable(self.scope, op.properties.get("varInfo") or op.attributes.get("varInfo"), value.type)
        if found is None:
            raise Unsupported(op, f"'{name}' needs a '#llvm.di_local_variable' attribute")
        var, scope = found
        expr = debug.expression(op.properties.get("locationExpr") or op.attributes.get("locationExpr"))
        loc = debug.record_location(op.location, scope, 0)
        kind = "declare" if name == "llvm.intr.dbg.declare" else "value"
        self.lines.append((f"    #dbg_{kind}({self.typed(value, op)}, !{var}, {expr}, !{loc})", op))

    # -- values ----------------------------------------------------------------------------

    def val(self, v: SSAValue) -> str:
        if v in self.consts:
            return self.consts[v]
        if v in self.names:
            return self.names[v]
        owner = v.owner
        if isinstance(owner, Operation):
            text = constant_of(owner)
            if text is not None:
                return text
            raise Unsupported(owner, f"value of '{owner.name}' is used outside the function that defines it")
        raise Unsupported(self.func, "use of a value from another function")

    def ty(self, t: Attribute, op: Operation) -> str:
        text = type_text(t)
        if text is None:
            raise Unsupported(op, f"type {t} cannot be spelled in LLVM IR")
        return text

    def typed(self, v: SSAValue, op: Operation) -> str:
        return f"{self.ty(v.type, op)} {self.val(v)}"

    def emit_line(self, op: Operation, text: str) -> None:
        loc = self.m.debug.location(op.location, self.scope)
        if loc is None and self._calls_local_function(op):
            loc = self.m.debug.fallback(self.scope)  # LLVM requires !dbg on calls to functions with debug info
        self.lines.append((f"  {text}" + (f", !dbg !{loc}" if loc is not None else ""), op))

    def _calls_local_function(self, op: Operation) -> bool:
        callee = op.properties.get("callee") if op.name == "llvm.call" else None
        return isinstance(callee, SymbolRefAttr) and callee.root_reference.data in self.m.with_body

    def result(self, op: Operation, text: str) -> None:
        self.emit_line(op, f"{self.names[op.results[0]]} = {text}")

    def metadata(self, node: str) -> int:
        """The number of the module's metadata node `node` (`!N = node`, one per text)."""
        return self.m.md.add(node)

    def phis(self, block: Block) -> None:
        preds = self.incoming.get(block, [])
        for arg in block.args:
            entries: list[str] = []
            seen: dict[str, str] = {}
            for pred, operands in preds:
                if arg.index >= len(operands):
                    raise Unsupported(pred.last_op or self.func, "branch passes too few block arguments")
                value = self.val(operands[arg.index])
                label = self.block_names[pred]
                if label in seen:
                    if seen[label] != value:
                        raise Unsupported(
                            pred.last_op or self.func, "a branch passes different values to the same block twice"
                        )
                    continue
                seen[label] = value
                entries.append(f"[ {value}, %{label} ]")
            phi = f"  {self.names[arg]} = phi {self.ty(arg.type, self.func)} " + ", ".join(entries)
            self.lines.append((phi, None))

    def call(
        self, op: Operation, callee: str, ret: str, args: list[str], arg_types: list[str], flags: str = ""
    ) -> None:
        self.m.declare_intrinsic(op, callee, ret, arg_types)
        text = f"call{flags} {ret} @{symbol(callee)}({', '.join(args)})"
        if op.results:
            self.result(op, text)
        else:
            self.emit_line(op, text)


# -- small helpers ---------------------------------------------------------------------------


def _param_attrs(attrs: DictionaryAttr | None) -> list[str]:
    if attrs is None:
        return []
    out: list[str] = []
    for key, value in attrs.data.items():
        if key in _ARG_ATTRS and isinstance(value, UnitAttr):
            out.append(_ARG_ATTRS[key])
        elif key in ("llvm.align", "llvm.dereferenceable") and isinstance(value, IntegerAttr):
            out.append(
                f"{key.removeprefix('llvm.')}({value.value.data})"
                if key == "llvm.dereferenceable"
                else f"align {value.value.data}"
            )
    return out


def _int_list(value: Attribute) -> str | None:
    if isinstance(value, IntegerAttr):
        return str(value.value.data)
    if isinstance(value, DenseArrayBase):
        return ",".join(str(int(v)) for v in value.get_values())
    if isinstance(value, ArrayAttr) and all(isinstance(v, IntegerAttr) for v in value.data):
        return ",".join(str(v.value.data) for v in value.data if isinstance(v, IntegerAttr))
    return None


def _successor_operands(term: Operation) -> list[tuple[Block, list[SSAValue]]]:
    if isinstance(term, x.BrOp):
        return [(term.successor, list(term.arguments))]
    if isinstance(term, x.CondBrOp):
        return [(term.successors[0], list(term.then_arguments)), (term.successors[1], list(term.else_arguments))]
    if isinstance(term, ext.SwitchOp):
        return [(term.defaultDestination, list(term.defaultOperands))] + [(b, ops) for _, b, ops in term.cases()]
    return [(s, []) for s in term.successors]


__all__ = ["EmittedIR", "FunctionEmitter", "device_ops", "emit_llvm_ir", "emit_llvm_ir_mapped"]
