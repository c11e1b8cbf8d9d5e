"""Debug metadata for the LLVM IR emitter, per seed 001's lineinfo/device-debug table:

| mode          | !dbg | DILocalVariable | DISubprogram                 | #dbg_value records |
| off           | no   | no              | none                         | no                 |
| lineinfo      | yes  | no              | minimal (name, line)         | no                 |
| device debug  | yes  | yes             | full (retainedNodes = vars)  | yes                |

One DICompileUnit (emissionKind DebugDirectivesOnly for line info, FullDebug for device debug),
a DIFile per source file, a DISubprogram per function, a DILocation per op location.
Locations map as seed 001 says: FileLineColLoc -> DILocation; CallSiteLoc -> the callee's
DILocation inlined at the caller's; NameLoc -> its child; FusedLoc -> its first located child;
UnknownLoc -> none. Line info adds `.loc`/`.file` to PTX without changing the code; device debug
adds the DWARF sections (`.debug_info`, `.debug_abbrev`, ...) with the variables.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from xdsl.dialects import builtin
from xdsl.dialects.builtin import ArrayAttr, FileLineColLoc
from xdsl.ir import Attribute, Operation

from tile_lsp.compiler.backend.llvmir_di import DIAttr, from_attribute, parse_di, unquote
from tile_lsp.compiler.backend.llvmir_values import quoted


@dataclass
class Metadata:
    """Numbered metadata nodes of one LLVM module (`!N = ...`)."""

    nodes: list[str] = field(default_factory=list)
    _interned: dict[str, int] = field(default_factory=dict)

    def add(self, text: str, distinct: bool = False) -> int:
        if not distinct and text in self._interned:
            return self._interned[text]
        self.nodes.append(("distinct " if distinct else "") + text)
        index = len(self.nodes) - 1
        if not distinct:
            self._interned[text] = index
        return index

    def lines(self) -> list[str]:
        return [f"!{i} = {text}" for i, text in enumerate(self.nodes)]


def first_file_loc(loc: Attribute | None) -> FileLineColLoc | None:
    """The FileLineColLoc a location stands for (names, fusions and call sites unwrapped)."""
    while loc is not None:
        if isinstance(loc, FileLineColLoc):
            return loc
        if isinstance(loc, builtin.NameLoc):
            loc = loc.location
        elif isinstance(loc, builtin.CallSiteLoc):
            loc = loc.callee
        elif isinstance(loc, builtin.FusedLoc):
            loc = next((c for c in _children(loc) if first_file_loc(c) is not None), None)
        else:
            return None
    return None


class LineInfo:
    """Builds the DI metadata; `enabled=False` makes every query return None."""

    def __init__(
        self,
        md: Metadata,
        default_file: str,
        enabled: bool,
        *,
        full: bool = False,
        aliases: dict[str, str] | None = None,
    ) -> None:
        self.md = md
        self.enabled = enabled or full
        self.full = full  # device debug: variables, full subprograms, FullDebug
        self.default_file = default_file
        self.aliases = aliases or {}
        self._files: dict[str, int] = {}
        self._inlined_sps: dict[tuple[str, int], int] = {}
        self._subprograms: dict[int, str] = {}  # sp node -> its text without the closing ")"
        self._sp_files: dict[int, int] = {}
        self._retained: dict[int, list[int]] = {}  # sp node -> variables and labels
        self._scopes: dict[tuple[int, str], int] = {}  # (sp, lexical block text) -> node
        self._variable_types: dict[tuple[int, str], int | None] = {}
        self.cu = -1
        if self.enabled:
            self.cu = md.add("", distinct=True)  # filled in by `finish`
            self._cu_file = self.file(default_file)
            self._sub_type = md.add("!DISubroutineType(types: !{})")

    def file(self, path: str) -> int:
        if path not in self._files:
            directory, name = os.path.split(path)
            self._files[path] = self.md.add(
                f"!DIFile(filename: {quoted(name or path)}, directory: {quoted(directory)})"
            )
        return self._files[path]

    def subprogram(self, name: str, loc: Attribute | None) -> int | None:
        if not self.enabled:
            return None
        at = first_file_loc(loc)
        path = at.filename.data if at is not None else self.default_file
        line = at.line.data if at is not None else 0
        f = self.file(path)
        flags = "DISPFlagDefinition" if self.full else "DISPFlagDefinition | DISPFlagOptimized"
        text = (
            f"!DISubprogram(name: {quoted(name)}, scope: !{f}, file: !{f}, line: {line}, type: !{self._sub_type}, "
            f"scopeLine: {line}, spFlags: {flags}, unit: !{self.cu}"
        )
        sp = self.md.add(text + ")", distinct=True)
        self._subprograms[sp] = text
        self._sp_files[sp] = f
        return sp

    def finish_subprogram(self, sp: int | None) -> None:
        """Device debug: the subprogram lists its variables and labels (`retainedNodes`)."""
        if sp is None or not self.full or sp not in self._subprograms:
            return
        retained = self._retained.get(sp, [])
        nodes = self.md.add("!{" + ", ".join(f"!{n}" for n in retained) + "}")
        self.md.nodes[sp] = f"distinct {self._subprograms[sp]}, retainedNodes: !{nodes})"

    # -- device debug: variables, expressions, records --------------------------------------

    def prepare_variables(self, sp: int | None, ops: list[Operation]) -> None:
        """Types for variables without one, from the values (and fragments) that describe them."""
        if sp is None or not self.full:
            return
        leaves: dict[str, list[tuple[int, int, str]]] = {}
        for op in ops:
            if _name(op) != "llvm.intr.dbg.value" or not op.operands:
                continue
            var = op.properties.get("varInfo")
            info = from_attribute(var, self.aliases)
            if info is None or info.attr("type") is not None:
                continue
            leaf = _leaf_type(op.operands[0].type)
            if leaf is None:
                continue
            bits, base = leaf
            fragment = _fragment(from_attribute(op.properties.get("locationExpr"), self.aliases))
            offset, size = fragment if fragment is not None else (0, bits)
            key = _key(var)
            leaves.setdefault(key, []).append((offset, size, base))
        for key, found in leaves.items():
            self._variable_types[(sp, key)] = self._aggregate_type(found)

    def variable(self, sp: int, attr: Attribute | None, value_type: Attribute | None) -> tuple[int, int] | None:
        """(DILocalVariable node, its scope node) for an `#llvm.di_local_variable`."""
        info = from_attribute(attr, self.aliases)
        if info is None or info.name != "llvm.di_local_variable":
            return None
        scope = self.scope(sp, info.attr("scope"))
        parts = [f"name: {quoted(info.text('name') or '')}"]
        arg = info.integer("arg")
        if arg:
            parts.append(f"arg: {arg}")
        parts.append(f"scope: !{scope}")
        parts.append(f"file: !{self.file_of(info.attr('file'), sp)}")
        parts.append(f"line: {info.integer('line') or 0}")
        ty = self.type_node(info.attr("type"))
        if ty is None:
            key = (sp, _key(attr))
            if key in self._variable_types:
                ty = self._variable_types[key]
            elif value_type is not None:
                leaf = _leaf_type(value_type)
                ty = self.md.add(leaf[1]) if leaf is not None else None
        if ty is not None:
            parts.append(f"type: !{ty}")
        flags = _flags(info.text("flags"))
        if flags:
            parts.append(f"flags: {flags}")
        align = info.integer("alignInBits")
        if align:
            parts.append(f"align: {align}")
        node = self.md.add("!DILocalVariable(" + ", ".join(parts) + ")")
        self._retain(sp, node)
        return node, scope

    def label(self, sp: int, attr: Attribute | None) -> tuple[int, int] | None:
        """(DILabel node, its scope node) for an `#llvm.di_label`."""
        info = from_attribute(attr, self.aliases)
        if info is None or info.name != "llvm.di_label":
            return None
        scope = self.scope(sp, info.attr("scope"))
        node = self.md.add(
            f"!DILabel(scope: !{scope}, name: {quoted(info.text('name') or '')}, "
            f"file: !{self.file_of(info.attr('file'), sp)}, line: {info.integer('line') or 0})"
        )
        self._retain(sp, node)
        return node, scope

    def expression(self, attr: Attribute | None) -> str:
        """`!DIExpression(...)` for an `#llvm.di_expression<[DW_OP_x(a, b), ...]>`."""
        info = from_attribute(attr, self.aliases)
        ops: list[str] = []
        if info is not None and info.positional and isinstance(info.positional[0], list):
            for item in info.positional[0]:
                if isinstance(item, str) and item.strip():
                    ops.append(item.strip().replace("(", ", ").replace(")", ""))
        return "!DIExpression(" + ", ".join(ops) + ")"

    def record_location(self, loc: Attribute | None, scope: int, fallback_line: int) -> int:
        """The location of a debug record: in the variable's scope (never inlined elsewhere)."""
        at = first_file_loc(loc)
        if at is None:
            return self.md.add(f"!DILocation(line: {fallback_line}, scope: !{scope})")
        return self.md.add(f"!DILocation(line: {at.line.data}, column: {_column(at.column.data)}, scope: !{scope})")

    def scope(self, sp: int, attr: DIAttr | None) -> int:
        """Lexical blocks become DILexicalBlocks parented to the function; anything else is it."""
        if attr is None or attr.name not in ("llvm.di_lexical_block", "llvm.di_lexical_block_file"):
            return sp
        f = self.file_of(attr.attr("file"), sp)
        if attr.name == "llvm.di_lexical_block":
            text = (
                f"!DILexicalBlock(scope: !{sp}, file: !{f}, line: {attr.integer('line') or 0}, "
                f"column: {_column(attr.integer('column') or 0)})"
            )
        else:
            text = f"!DILexicalBlockFile(scope: !{sp}, file: !{f}, discriminator: {attr.integer('discriminator') or 0})"
        key = (sp, text)
        if key not in self._scopes:
            self._scopes[key] = self.md.add(text, distinct=True)
        return self._scopes[key]

    def file_of(self, attr: DIAttr | None, sp: int) -> int:
        if attr is not None and attr.name == "llvm.di_file" and attr.positional:
            name = unquote(str(attr.positional[0]))
            directory = ""
            if len(attr.positional) > 1 and str(attr.positional[1]).startswith("in "):
                directory = unquote(str(attr.positional[1])[3:].strip())
            return self.file(os.path.join(directory, name) if directory else name)
        return self._sp_files.get(sp, self._cu_file)

    def type_node(self, attr: DIAttr | None, depth: int = 0) -> int | None:
        """The DI type node for an `#llvm.di_*_type` (None when it is not one we can spell)."""
        if attr is None or depth > 16:
            return None
        if attr.name == "llvm.di_null_type":
            return None
        if attr.name == "llvm.di_basic_type":
            parts = []
            tag = attr.text("tag")
            if tag and tag != "DW_TAG_base_type":
                parts.append(f"tag: {tag}")
            parts.append(f"name: {quoted(attr.text('name') or '')}")
            parts.append(f"size: {attr.integer('sizeInBits') or 0}")
            if attr.text("encoding"):
                parts.append(f"encoding: {attr.text('encoding')}")
            return self.md.add("!DIBasicType(" + ", ".join(parts) + ")")
        if attr.name == "llvm.di_derived_type":
            base = self.type_node(attr.attr("baseType"), depth + 1)
            parts = [f"tag: {attr.text('tag') or 'DW_TAG_pointer_type'}"]
            if attr.text("name"):
                parts.append(f"name: {quoted(attr.text('name') or '')}")
            parts.append(f"baseType: {'!' + str(base) if base is not None else 'null'}")
            for key, llvm_key in (("sizeInBits", "size"), ("alignInBits", "align"), ("offsetInBits", "offset")):
                if attr.integer(key):
                    parts.append(f"{llvm_key}: {attr.integer(key)}")
            return self.md.add("!DIDerivedType(" + ", ".join(parts) + ")")
        if attr.name == "llvm.di_composite_type":
            parts = [f"tag: {attr.text('tag') or 'DW_TAG_structure_type'}"]
            if attr.text("name"):
                parts.append(f"name: {quoted(attr.text('name') or '')}")
            base = self.type_node(attr.attr("baseType"), depth + 1)
            if base is not None:
                parts.append(f"baseType: !{base}")
            if attr.integer("sizeInBits"):
                parts.append(f"size: {attr.integer('sizeInBits')}")
            elements: list[int] = []
            raw = attr.fields.get("elements")
            for element in raw if isinstance(raw, list) else []:
                if isinstance(element, DIAttr) and element.name == "llvm.di_subrange":
                    elements.append(self.md.add(f"!DISubrange(count: {element.integer('count') or 0})"))
                elif isinstance(element, DIAttr):
                    node = self.type_node(element, depth + 1)
                    if node is not None:
                        elements.append(node)
            parts.append("elements: !{" + ", ".join(f"!{e}" for e in elements) + "}")
            return self.md.add("!DICompositeType(" + ", ".join(parts) + ")")
        return None

    def _aggregate_type(self, leaves: list[tuple[int, int, str]]) -> int | None:
        """The type of a variable seen as `leaves` (offset, bits, basic type): the leaf's own type,
        an array of equal leaves, or a struct of its fragments."""
        leaves = sorted(set(leaves))
        if len(leaves) == 1 and leaves[0][0] == 0:
            return self.md.add(leaves[0][2])
        end = max(o + b for o, b, _ in leaves)
        first = leaves[0]
        if all(t == first[2] and b == first[1] and o == i * first[1] for i, (o, b, t) in enumerate(leaves)):
            base = self.md.add(first[2])
            count = self.md.add(f"!DISubrange(count: {len(leaves)})")
            elements = self.md.add(f"!{{!{count}}}")
            return self.md.add(
                f"!DICompositeType(tag: DW_TAG_array_type, baseType: !{base}, size: {end}, elements: !{elements})"
            )
        members = []
        for i, (offset, bits, base_text) in enumerate(leaves):
            base = self.md.add(base_text)
            members.append(
                self.md.add(
                    f'!DIDerivedType(tag: DW_TAG_member, name: "f{i}", baseType: !{base}, size: {bits}, '
                    f"offset: {offset})"
                )
            )
        elements = self.md.add("!{" + ", ".join(f"!{m}" for m in members) + "}")
        return self.md.add(f"!DICompositeType(tag: DW_TAG_structure_type, size: {end}, elements: !{elements})")

    def _retain(self, sp: int, node: int) -> None:
        retained = self._retained.setdefault(sp, [])
        if node not in retained:
            retained.append(node)

    def location(self, loc: Attribute | None, scope: int | None) -> int | None:
        """The `!dbg` node for an op at `loc` inside the function whose subprogram is `scope`."""
        if not self.enabled or scope is None:
            return None
        if type(loc) is FileLineColLoc:  # (nearly every op's: no walk through the other kinds)
            return self.md.add(f"!DILocation(line: {loc.line.data}, column: {_column(loc.column.data)}, scope: !{scope})")
        if isinstance(loc, builtin.NameLoc):
            return self.location(loc.location, scope)
        if isinstance(loc, builtin.FusedLoc):
            child = next((c for c in _children(loc) if first_file_loc(c) is not None), None)
            return self.location(child, scope)
        if isinstance(loc, builtin.CallSiteLoc):
            caller = self.location(loc.caller, scope)
            callee = first_file_loc(loc.callee)
            if caller is None or callee is None:
                return caller
            inner = self._inlined_scope(callee)
            return self.md.add(
                f"!DILocation(line: {callee.line.data}, column: {_column(callee.column.data)}, "
                f"scope: !{inner}, inlinedAt: !{caller})"
            )
        if isinstance(loc, FileLineColLoc):
            return self.md.add(f"!DILocation(line: {loc.line.data}, column: {_column(loc.column.data)}, scope: !{scope})")
        return None

    def fallback(self, scope: int | None) -> int | None:
        """A line-0 location for ops without one (calls in a function with debug info need one)."""
        if not self.enabled or scope is None:
            return None
        return self.md.add(f"!DILocation(line: 0, scope: !{scope})")

    def _inlined_scope(self, at: FileLineColLoc) -> int:
        key = (at.filename.data, at.line.data)
        if key not in self._inlined_sps:
            f = self.file(at.filename.data)
            self._inlined_sps[key] = self.md.add(
                f'!DISubprogram(name: "inlined", scope: !{f}, file: !{f}, line: {at.line.data}, '
                f"type: !{self._sub_type}, scopeLine: {at.line.data}, "
                f"spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !{self.cu})",
                distinct=True,
            )
        return self._inlined_sps[key]

    def module_lines(self, flags: list[int]) -> list[str]:
        """Named metadata and module flags; call after every function was emitted."""
        if not self.enabled:
            return []
        kind = "FullDebug" if self.full else "DebugDirectivesOnly"
        optimized = "false" if self.full else "true"
        self.md.nodes[self.cu] = (
            f"distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !{self._cu_file}, "
            f'producer: "tile-lsp", isOptimized: {optimized}, runtimeVersion: 0, emissionKind: {kind})'
        )
        flags.append(self.md.add('!{i32 2, !"Debug Info Version", i32 3}'))
        return [f"!llvm.dbg.cu = !{{!{self.cu}}}"]


def _column(column: int) -> int:
    """A column as LLVM keeps it: 16 bits, 0 (unknown) past them, as DILocation::get does (its
    text parser rejects more: "value for 'column' too large"); lines are 32 bits, as ours."""
    return column if 0 <= column <= 0xFFFF else 0


def _children(loc: builtin.FusedLoc) -> list[Attribute]:
    locs = loc.locations
    return list(locs.data) if isinstance(locs, ArrayAttr) else []


def _name(op: Operation) -> str:
    if isinstance(op, builtin.UnregisteredOp):
        return op.op_name.data
    return op.name


def _key(attr: Attribute | None) -> str:
    """Identity of a variable attribute (its printed text)."""
    if isinstance(attr, builtin.UnregisteredAttr):
        return f"{attr.attr_name.data}<{attr.value.data}>"
    return repr(attr)


def _leaf_type(ty: Attribute) -> tuple[int, str] | None:
    """(bits, DI type text) of a scalar debug value."""
    if isinstance(ty, builtin.IntegerType):
        bits = ty.width.data
        if bits == 1:
            return 8, '!DIBasicType(name: "bool", size: 8, encoding: DW_ATE_boolean)'
        names = {8: "char", 16: "short", 32: "int", 64: "long long"}
        return bits, f'!DIBasicType(name: "{names.get(bits, f"i{bits}")}", size: {bits}, encoding: DW_ATE_signed)'
    floats = {
        builtin.Float16Type: (16, "half"),
        builtin.BFloat16Type: (16, "bfloat16"),
        builtin.Float32Type: (32, "float"),
        builtin.Float64Type: (64, "double"),
    }
    for cls, (bits, name) in floats.items():
        if isinstance(ty, cls):
            return bits, f'!DIBasicType(name: "{name}", size: {bits}, encoding: DW_ATE_float)'
    if type(ty).__name__ == "LLVMPointerType":
        return 64, "!DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)"
    return None


def _fragment(expr: DIAttr | None) -> tuple[int, int] | None:
    if expr is None or not expr.positional or not isinstance(expr.positional[0], list):
        return None
    for item in expr.positional[0]:
        if isinstance(item, str) and item.strip().startswith("DW_OP_LLVM_fragment"):
            inner = parse_di(f"#f<{item.strip()[len('DW_OP_LLVM_fragment') + 1 : -1]}>", {})
            if inner is not None and len(inner.positional) == 2:
                try:
                    return int(str(inner.positional[0])), int(str(inner.positional[1]))
                except ValueError:
                    return None
    return None


def _flags(text: str | None) -> str:
    """MLIR's `Artificial | ObjectPointer` -> LLVM's `DIFlagArtificial | DIFlagObjectPointer`."""
    if not text:
        return ""
    names = [part.strip() for part in text.split("|") if part.strip() and part.strip() != "Zero"]
    return " | ".join(n if n.startswith("DIFlag") else f"DIFlag{n}" for n in names)
