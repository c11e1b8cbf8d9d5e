"""Printing IR back to text: NVIDIA's custom form by default, MLIR's generic form on request.

Value names keep the user's spelling where it is unique; otherwise MLIR-style numbering.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import builtin
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.syntax.attributes import attr_str, dict_str
from tile_lsp.compiler.syntax.format import op_syntax
from tile_lsp.compiler.syntax.locations import location_suffix
from tile_lsp.compiler.syntax.types import type_str


class Printer:
    """Prints ops; one instance per module print (holds the value naming state)."""

    def __init__(self, generic: bool = False, indent_unit: str = "  "):
        self.generic = generic
        self.indent_unit = indent_unit
        self.depth = 0
        self.names: dict[SSAValue, str] = {}
        self.used: set[str] = set()
        self.next_id = 0
        self.next_arg = 0
        self.default_dialect: list[str] = [""]
        self.block_names: dict[Block, str] = {}
        self.aliases: dict[Attribute, str] = {}  # attribute -> `#name` (debug info, locations)
        self.alias_defs: list[str] = []  # `#name = ...` lines, printed before the ops

    # -- names ---------------------------------------------------------------
    def value_name(self, v: SSAValue) -> str:
        name = self.names.get(v)
        if name is None:
            name = self._assign(v)
        return name

    def _assign(self, v: SSAValue, default_hint: str | None = None) -> str:
        hint = v.name_hint or default_hint
        if hint and not hint[0].isdigit():
            cand = "%" + hint
            n = 1
            while cand in self.used:
                cand = f"%{hint}_{n}"
                n += 1
        else:
            cand = f"%{self.next_id}"
            while cand in self.used:
                self.next_id += 1
                cand = f"%{self.next_id}"
            self.next_id += 1
        self.used.add(cand)
        self.names[v] = cand
        return cand

    def _name_results(self, op: Operation) -> str:
        if not op.results:
            return ""
        first = op.results[0]
        asm_names: tuple[str, ...] = getattr(type(op), "RESULT_NAMES", ())
        if asm_names and len(asm_names) == len(op.results):
            names = [self.names.get(r) or self._assign(r, asm_names[i]) for i, r in enumerate(op.results)]
            return ", ".join(names) + " = "
        if len(op.results) > 1:
            base = self.names.get(first) or self._assign(first)
            base = base.split("#")[0]
            for i, r in enumerate(op.results):
                self.names[r] = f"{base}#{i}"
            return f"{base}:{len(op.results)} = "
        return self.value_name(first) + " = "

    def _number_region(self, region: Region, next_id: int) -> None:
        """MLIR's numbering of unnamed values: a region's own results first, in order;
        then each nested region continues from there (siblings reuse the same numbers)."""
        nested: list[Region] = []
        for block in region.blocks:
            for op in block.ops:
                results = op.results
                if results and not getattr(type(op), "RESULT_NAMES", ()):
                    first = results[0]
                    hint = first.name_hint
                    if not hint or hint[0].isdigit():
                        base = f"%{next_id}"
                        next_id += 1
                        if len(results) == 1:
                            self.names[first] = base
                        else:
                            for i, r in enumerate(results):
                                self.names[r] = f"{base}#{i}"
                        self.used.add(base)
                if op.regions and not registry.is_isolated(registry.op_class(op.name)):
                    nested.extend(op.regions)
        for r in nested:
            self._number_region(r, next_id)

    def type(self, t: Attribute) -> str:
        return type_str(t, short=not self.generic and self.default_dialect[-1] == "cuda_tile")

    # -- ops -------------------------------------------------------------------
    def op_text(self, op: Operation) -> str:
        """The text of one op (without leading indentation), regions included."""
        results = self._name_results(op)
        cls = registry.op_class(op.name)
        if registry.is_isolated(cls):
            # Like MLIR, an isolated op (entry, module) numbers its values afresh.
            saved = (self.used, self.next_id, self.next_arg)
            self.used, self.next_id, self.next_arg = set(), 0, 0
            for region in op.regions:
                self._number_region(region, 0)
            try:
                return results + self._op_text(op)
            finally:
                self.used, self.next_id, self.next_arg = saved
        if op.regions:
            # Names made inside an op's regions are not visible after it (MLIR scopes
            # its used-name table per region), so sibling regions may reuse them.
            saved_used = self.used
            self.used = set(saved_used)
            try:
                return results + self._op_text(op)
            finally:
                self.used = saved_used
        return results + self._op_text(op)

    def _op_text(self, op: Operation) -> str:
        cls = registry.op_class(op.name)
        if self.generic or cls is None or not _has_custom(cls) or registry.structure_error(op):
            return self.generic_body(op) + location_suffix(self, op.location)
        name = op.name
        dd = self.default_dialect[-1]
        if dd and name.startswith(dd + "."):
            name = name[len(dd) + 1 :]
        body = op_syntax(cls).print(self, op)
        return name + body + location_suffix(self, op.location)

    def generic_body(self, op: Operation) -> str:
        name = op.name
        attributes = dict(op.attributes)
        if isinstance(op, UnregisteredOp):
            name = op.op_name.data
            attributes.pop("op_name__", None)
        parts = [f'"{name}"(' + ", ".join(self.value_name(v) for v in op.operands) + ")"]
        if op.properties:
            parts.append(" <" + dict_str(sorted(op.properties.items()), short_types=False) + ">")
        if op.regions:
            dd = getattr(registry.op_class(op.name), "DEFAULT_DIALECT", "") or ""
            self.default_dialect.append(dd if not self.generic else "")
            try:
                parts.append(" (" + ", ".join(self.region_text(r, generic=True) for r in op.regions) + ")")
            finally:
                self.default_dialect.pop()
        if attributes:
            parts.append(" " + dict_str(attributes, short_types=False))
        ins = ", ".join(type_str(v.type, short=False) for v in op.operands)
        outs = [type_str(r.type, short=False) for r in op.results]
        out = outs[0] if len(outs) == 1 else "(" + ", ".join(outs) + ")"
        parts.append(f" : ({ins}) -> {out}")
        return "".join(parts)

    def attr_dict(self, op: Operation, elided: set[str]) -> str:
        items = {k: v for k, v in op.attributes.items() if k not in elided}
        items.update({k: v for k, v in op.properties.items() if k not in elided})
        if not items:
            return ""
        return dict_str(items, short_types=False)

    def attr(self, a: Attribute) -> str:
        return attr_str(a, short_types=False)

    def alias(self, a: Attribute, base: str, body: Callable[[], str]) -> str:
        """`#base`, `#base1`, ...: an alias of `a` defined at the top of the module text."""
        name = self.aliases.get(a)
        if name is None:
            text = body()  # nested aliases get defined first
            n = sum(1 for v in self.aliases.values() if v.rstrip("0123456789") == "#" + base)
            name = f"#{base}{n or ''}"
            self.aliases[a] = name
            self.alias_defs.append(f"{name} = {text}")
        return name

    # -- regions ---------------------------------------------------------------
    def region_text(self, region: Region, generic: bool = False, print_entry_args: bool | None = None) -> str:
        """`{\\n ... }` at the current depth."""
        lines = ["{"]
        self.depth += 1
        blocks = list(region.blocks)
        for bi, block in enumerate(blocks):
            show_label = generic and (bi > 0 or bool(block.args)) or bi > 0
            if print_entry_args is not None and bi == 0:
                show_label = print_entry_args
            if show_label:
                label = self._block_label(block)
                args = ", ".join(
                    f"{self.value_name(a)}: {self.type(a.type)}{location_suffix(self, a.location)}" for a in block.args
                )
                lines.append(self.indent_unit * (self.depth - 1) + label + (f"({args})" if block.args else "") + ":")
            for op in block.ops:
                if _is_implicit_terminator(op, block) and not generic:
                    continue
                lines.append(self.indent_unit * self.depth + self.op_text(op))
        self.depth -= 1
        lines.append(self.indent_unit * self.depth + "}")
        return "\n".join(lines)

    def _block_label(self, block: Block) -> str:
        name = self.block_names.get(block)
        if name is None:
            name = f"^bb{len(self.block_names)}"
            self.block_names[block] = name
        return name

    def module_text(self, module: builtin.ModuleOp) -> str:
        """Top level: the implicit module's ops, one after another."""
        out = []
        for op in module.ops:
            # Bare top-level items (as tileirdisasm prints them) keep their short form.
            bare = op.name.startswith("cuda_tile.") and op.name != "cuda_tile.module"
            self.default_dialect.append("cuda_tile" if bare and not self.generic else "")
            try:
                out.append(self.op_text(op))
            finally:
                self.default_dialect.pop()
        return "".join(d + "\n" for d in self.alias_defs) + "\n".join(out) + "\n"


def _has_custom(cls: type[Operation]) -> bool:
    return getattr(cls, "TILE_FORMAT", None) is not None or hasattr(cls, "print_custom")


def _is_implicit_terminator(op: Operation, block: Block) -> bool:
    elide = getattr(op, "elide_if_implicit", None)
    return bool(elide and op is block.last_op and elide())
