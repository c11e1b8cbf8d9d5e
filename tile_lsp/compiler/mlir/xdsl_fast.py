"""Faster paths through xDSL's generic op builder, for the pinned xDSL (pyproject.toml).

The lowering stages build tens of thousands of ops per large kernel, nearly all of them with one
value per operand/result definition. xDSL's `irdl_build_arg_list` asks `isinstance(arg, Sequence)`
of every argument, an abstract-base-class check that costs more than the rest of the call, and
`Operation.__init__` imports a module on every call to find the unknown location; equal
attributes (integer types and constants, segment-size arrays) are built and verified again and
again (a vector type costs ~30 us to build and verify, `arith.cmpi` builds ~8 attributes per
op), and attribute hashes are recomputed field by field on every call; `Operation.__init__`
goes through property setters built for replacing operands, and every `op.results[i]` and
`op.operands[i]` through an isinstance test and a `super()` call. `install()` swaps in versions
that decide the common case with exact type checks and hand everything else to xDSL's own code,
so results (and error messages) are the same; tests/upstream_lowering/test_xdsl_fast.py checks them
against the originals. The front end's packages install the patches of xDSL's core
(`install(upstream=False)`); xDSL's arith (~70 ms to import, its ops' assembly formats are parsed
when they are defined) is imported and patched by the packages that build upstream ops.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from xdsl.dialects.builtin import UNKNOWN_LOC, DenseArrayBase, IntegerAttr, IntegerType, StringAttr, VectorType
from xdsl.ir import Attribute, Block, BlockArgument, Data, Operation, ParametrizedAttribute, SSAValue
from xdsl.ir import core as _core
from xdsl.ir.core import OpResult, SSAValues, Use
from xdsl.irdl import operations as _operations
from xdsl.irdl.operations import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    AttrSizedSegments,
    IRDLOperation,
    OptionalDef,
    SameVariadicSize,
    VariadicDef,
)

if TYPE_CHECKING:
    from xdsl.dialects import arith

T = TypeVar("T")
ORIGINAL_BUILD_ARG_LIST = _operations.irdl_build_arg_list
ORIGINAL_BUILD_OPERATIONS_ARG = _operations.irdl_build_operations_arg
ORIGINAL_UNKNOWN_LOC = _core._unknown_loc
ORIGINAL_OPERATION_INIT = Operation.__init__
ORIGINAL_VALUES_GETITEM = SSAValues.__getitem__
ORIGINAL_REPLACE_ALL_USES_WITH = SSAValue.replace_all_uses_with
ORIGINAL_ATTRIBUTE_POST_INIT = Attribute.__post_init__
ORIGINAL_SSAVALUE_GET = SSAValue.get
ORIGINAL_ATTACH_OP = Block._attach_op
_TUPLE_GETITEM = tuple.__getitem__
_IRDL_POST_INIT = IRDLOperation.__post_init__
_OPERATION_POST_INIT = Operation.__post_init__

_NO_ENTRIES: dict[str, Attribute] = {}

# Whether values of a type are Sequences (the ABC check, made once per type).
_IS_SEQUENCE: dict[type, bool] = {list: True, tuple: True}


def _is_sequence(value: object) -> bool:
    kind = type(value)
    known = _IS_SEQUENCE.get(kind)
    if known is None:
        known = _IS_SEQUENCE[kind] = isinstance(value, Sequence)
    return known


def build_arg_list(construct: Any, args: Sequence[Any], arg_defs: Sequence[tuple[str, Any]],
                   error_prefix: str = "") -> tuple[list[Any], list[int]]:
    """`irdl_build_arg_list` where every definition gets exactly one plain value; anything else
    (None, a list, a count mismatch) goes to xDSL's version."""
    if len(args) != len(arg_defs):
        return ORIGINAL_BUILD_ARG_LIST(construct, args, arg_defs, error_prefix)
    for arg in args:
        if arg is None or _is_sequence(arg):
            return ORIGINAL_BUILD_ARG_LIST(construct, args, arg_defs, error_prefix)
    return list(args), [1] * len(args)


def build_operations_arg(operand: Any) -> SSAValue | list[SSAValue]:
    """`irdl_build_operations_arg`, same cases in the same order."""
    if operand is None:
        return []
    kind = operand.__class__
    if kind is OpResult or kind is BlockArgument:  # (exact types first: an ABC isinstance that misses costs ~0.3 us)
        return operand  # type: ignore[no-any-return]
    if isinstance(operand, SSAValue):
        return operand
    if isinstance(operand, Operation):
        return SSAValue.get(operand)
    return [SSAValue.get(op) for op in operand]


ORIGINAL_OP_INIT = _operations.irdl_op_init
_IS_VALUE: dict[type, bool] = {}
_IS_ATTRIBUTE: dict[type, bool] = {}
_IS_BLOCK: dict[type, bool] = {}


def op_init(self: Any, op_def: Any, *, operands: Sequence[Any], result_types: Sequence[Any],
            properties: Any, attributes: Any, successors: Sequence[Any], regions: Sequence[Any]) -> None:
    """`irdl_op_init` for the common op: no regions, one value (or, for a variadic or optional
    definition, a list of values) per operand definition and the same for result types and
    successors, operand and result segment sizes the only options. Its lists are then the
    arguments flattened, so it goes straight to `Operation.__init__`; everything else (and
    every error) is xDSL's own code."""
    if not (regions or op_def.regions):
        shape = _SHAPES.get(type(self))
        if shape is None:
            shape = _SHAPES[type(self)] = _op_shape(op_def)
        if shape is not _IRREGULAR:
            operand_kinds, result_kinds, successor_kinds, segments = shape
            flat_operands = _flatten(operands, operand_kinds, _IS_VALUE, SSAValue)
            flat_results = _flatten(result_types, result_kinds, _IS_ATTRIBUTE, Attribute)
            flat_successors = _flatten(successors, successor_kinds, _IS_BLOCK, Block)
            if flat_operands is not None and flat_results is not None and flat_successors is not None:
                built_properties = {k: v for k, v in properties.items() if v is not None}
                built_attributes = {k: v for k, v in attributes.items() if v is not None}
                for of_results, as_property, name in segments:
                    sizes = _sizes(result_types if of_results else operands)
                    (built_properties if as_property else built_attributes)[name] = dense_from_list(int_type(32), sizes)
                Operation.__init__(
                    self, operands=flat_operands, result_types=flat_results, properties=built_properties,
                    attributes=built_attributes, successors=flat_successors, regions=[],
                )
                return None
    return ORIGINAL_OP_INIT(self, op_def, operands=operands, result_types=result_types, properties=properties,
                            attributes=attributes, successors=successors, regions=regions)


# Per IRDL op class: (operand, result and successor kinds, segment-size options), a kind being 0 (single),
# 1 (variadic) or 2 (optional); _IRREGULAR when a region/successor segment or same-size option
# asks for xDSL's own builder.
_IRREGULAR: Any = object()
_SHAPES: dict[type, Any] = {}


def _op_shape(op_def: Any) -> Any:
    def kinds(defs: Any) -> tuple[int, ...]:
        return tuple(2 if isinstance(d, OptionalDef) else 1 if isinstance(d, VariadicDef) else 0 for _, d in defs)

    segments = []
    for option in op_def.options:  # (xDSL's builder acts on these two kinds and ignores the rest)
        if type(option) is AttrSizedOperandSegments or type(option) is AttrSizedResultSegments:
            segments.append((type(option) is AttrSizedResultSegments, option.as_property, option.attribute_name))
        elif isinstance(option, AttrSizedSegments | SameVariadicSize):
            return _IRREGULAR
    return kinds(op_def.operands), kinds(op_def.results), kinds(op_def.successors), tuple(segments)


def _flatten(args: Sequence[Any], kinds: tuple[int, ...], known: dict[type, bool], base: type) -> list[Any] | None:
    """The arguments as one list when each is one `base` (for any definition) or, for a variadic
    definition, a list or tuple of them (at most one for an optional one); None otherwise."""
    if len(args) != len(kinds):
        return None
    flat: list[Any] = []
    for arg, kind in zip(args, kinds):
        cls = arg.__class__
        if cls is list or cls is tuple:
            if kind == 0 or (kind == 2 and len(arg) > 1) or not _all_of(arg, known, base):
                return None
            flat.extend(arg)
        else:
            is_base = known.get(cls)
            if is_base is None:
                is_base = known[cls] = isinstance(arg, base)
            if not is_base:
                return None
            flat.append(arg)
    return flat


def _sizes(args: Sequence[Any]) -> list[int]:
    return [len(arg) if arg.__class__ is list or arg.__class__ is tuple else 1 for arg in args]


def operation_init(self: Operation, *, operands: Sequence[SSAValue] = (), result_types: Sequence[Attribute] = (),
                   properties: Any = _NO_ENTRIES, attributes: Any = _NO_ENTRIES, location: Any = None,
                   successors: Sequence[Any] = (), regions: Sequence[Any] = ()) -> None:
    """`Operation.__init__` for an op without regions (nearly every op a stage builds): the same
    fields set to the same values, without the property setters' generators, their empty loops
    over the old operands and successors, or a walk over the op definition's properties for
    defaults it does not have (a third of the time, ~10 us an op, is spent here otherwise).
    Anything else is xDSL's own code."""
    if regions:
        ORIGINAL_OPERATION_INIT(self, operands=operands, result_types=result_types, properties=properties,
                                attributes=attributes, location=location, successors=successors, regions=regions)
        return
    values = SSAValues(operands)
    if values:
        uses = tuple([Use(self, index) for index in range(len(values))])
        for value, use in zip(values, uses):
            value.add_use(use)
    else:
        uses = ()
    self._operands = values
    self._operand_uses = uses
    self.results = SSAValues([OpResult(t, self, index) for index, t in enumerate(result_types)])
    self.properties = dict(properties)
    self.attributes = dict(attributes)
    self.location = UNKNOWN_LOC if location is None else location
    if successors:  # (the setter's way, its loop over the old ones left out: there are none)
        blocks = tuple(successors)
        block_uses = tuple([Use(self, index) for index in range(len(blocks))])
        for block, use in zip(blocks, block_uses):
            block.add_use(use)
        self._successors = blocks
        self._successor_uses = block_uses
    else:
        self._successors = ()
        self._successor_uses = ()
    self.regions = ()
    post_init = type(self).__post_init__
    if post_init is _IRDL_POST_INIT:
        _fill_defaults(self)
        base = Operation.__post_init__
        if base is not _OPERATION_POST_INIT:  # xDSL's ImplicitBuilder hooks in there
            base(self)
    else:
        post_init(self)


def values_getitem(self: SSAValues[Any], idx: Any) -> Any:
    """`SSAValues.__getitem__` (`op.results[0]`, and every `op.operands[i]` goes through it too):
    an int index without the isinstance test and the `super()` object; slices as before."""
    if type(idx) is int:
        return _TUPLE_GETITEM(self, idx)
    return ORIGINAL_VALUES_GETITEM(self, idx)


def replace_all_uses_with(self: SSAValue[Any], value: SSAValue[Any]) -> None:
    """`SSAValue.replace_all_uses_with`: each use moves to `value`'s use list as it is (the same
    order as xDSL's), where xDSL goes through `OpOperands.__setitem__` per use, which unlinks the
    use, links it again and builds a view object on the way. The stages replace ~10,000 values
    per large kernel (every rewritten op's results, every merged subexpression)."""
    if value is self:
        return
    use = self.first_use
    while use is not None:
        following = use._next_use
        op = use._operation
        index = use._index
        operands = op._operands
        op._operands = SSAValues((*operands[:index], value, *operands[index + 1:]))
        first = value.first_use
        use._next_use = first
        use._prev_use = None
        if first is not None:
            first._prev_use = use
        value.first_use = use
        use = following
    self.first_use = None
    if value._name is None and self._name is not None:
        value._name = self._name  # (a name already checked when it was set on `self`)


# Attribute classes whose instances passed `Attribute.__post_init__`'s kind check once.
_CHECKED_KINDS: set[type] = set()


def attribute_post_init(self: Attribute) -> None:
    """`Attribute.__post_init__` with its Data-or-ParametrizedAttribute test made once per class:
    the test is two isinstance calls against ABCs, each a Python-level `__instancecheck__` when
    it misses (~0.3 us), and the stages build thousands of attributes per kernel."""
    self._verify()
    kind = type(self)
    if kind not in _CHECKED_KINDS:
        if not isinstance(self, Data | ParametrizedAttribute):
            raise TypeError("Attributes should only be Data or ParametrizedAttribute")
        _CHECKED_KINDS.add(kind)


def ssavalue_get(arg: Any, *, type: Any = Attribute) -> Any:
    """`SSAValue.get` (every xDSL op constructor calls it per operand): a value of any type asked
    for as such comes back without the ABC match; everything else is xDSL's own code."""
    if type is Attribute:
        kind = arg.__class__
        if kind is OpResult or kind is BlockArgument:
            return arg
    return ORIGINAL_SSAVALUE_GET(arg, type=type)


def attach_op(self: Block, operation: Operation) -> None:
    """`Block._attach_op`: an op without regions cannot contain the block, so xDSL's walk from
    the block to the top (looking for the op among its ancestors) is made only for ops with
    regions. The same errors otherwise."""
    if operation.parent:
        raise ValueError("Can't add to a block an operation already attached to a block.")
    if operation.regions and operation.is_ancestor(self):
        raise ValueError("Can't add an operation to a block contained in the operation.")
    operation.parent = self


# Per IRDL op class: the (name, default) of its properties and of its attributes that
# IRDLOperation.__post_init__ fills in when absent (most classes have none).
_DEFAULTS: dict[type, tuple[tuple[tuple[str, Attribute], ...], tuple[tuple[str, Attribute], ...]]] = {}


def _fill_defaults(op: Any) -> None:
    """`IRDLOperation.__post_init__` (and Operation's name check) with its defaults found once."""
    kind = type(op)
    found = _DEFAULTS.get(kind)
    if found is None:
        op_def = kind.get_irdl_definition()

        def defaults(defs: Any) -> tuple[tuple[str, Attribute], ...]:
            return tuple((name, d.default_value) for name, d in defs.items()
                         if not isinstance(d, OptionalDef) and d.default_value is not None)

        found = _DEFAULTS[kind] = (defaults(op_def.properties), defaults(op_def.attributes))
        assert kind.name != "" and isinstance(kind.name, str)
    props, attrs = found
    for name, default in props:
        if name not in op.properties:
            op.properties[name] = default
    for name, default in attrs:
        if name not in op.attributes:
            op.attributes[name] = default


def _all_of(values: Sequence[Any], known: dict[type, bool], base: type) -> bool:
    """Whether every value is an instance of `base` (decided once per exact type, in `known`)."""
    for value in values:
        kind = type(value)
        found = known.get(kind)
        if found is None:
            found = known[kind] = issubclass(kind, base)
        if not found:
            return False
    return True


def walk_ops(root: Operation) -> list[Operation]:
    """`list(root.walk())`: `root` and every op nested in it, in the same (pre-)order, without a
    generator per op, region and block (a whole-module walk is ~10^4 ops, and the stages walk
    their module many times). A list: changing the IR while looping over it is safe."""
    if not root.regions:
        return [root]
    out: list[Operation] = []
    _collect(root, out)
    return out


def _collect(op: Operation, out: list[Operation]) -> None:
    out.append(op)
    for region in op.regions:
        block = region._first_block
        while block is not None:
            nested = block._first_op
            while nested is not None:
                if nested.regions:
                    _collect(nested, out)
                else:
                    out.append(nested)
                nested = nested._next_op
            block = block._next_block


def _unknown_loc() -> Any:
    return UNKNOWN_LOC


# Attributes are immutable values: the common ones are built (and verified) once and shared.
# A large kernel's lowering otherwise builds tens of thousands of equal IntegerTypes,
# IntegerAttrs and segment-size arrays, each verified on construction.
_INT_TYPES: dict[int, IntegerType] = {}
_INT_ATTRS: dict[tuple[int, Attribute], IntegerAttr] = {}
_DENSE_ARRAYS: dict[tuple[Attribute, tuple[int, ...]], DenseArrayBase] = {}
ORIGINAL_DENSE_FROM_LIST = DenseArrayBase.from_list


def int_type(width: int) -> IntegerType:
    """`IntegerType(width)` (signless), shared."""
    found = _INT_TYPES.get(width)
    if found is None:
        found = _INT_TYPES[width] = IntegerType(width)
    return found


def int_attr(value: int, type: int | Attribute) -> IntegerAttr:
    """`IntegerAttr(value, type)` (a width means a signless integer type), shared."""
    t = int_type(type) if isinstance(type, int) else type
    key = (value, t)
    found = _INT_ATTRS.get(key)
    if found is None:
        found = _INT_ATTRS[key] = IntegerAttr(value, t)  # type: ignore[call-overload]
    return found


_SHARED: dict[object, Any] = {}


def shared(key: object, build: Callable[[], T]) -> T:
    """The attribute `build()` makes, built once per `key` and then shared (attributes are
    immutable values). The key names what is built, e.g. `("mma-shape", m, n, k)`."""
    found = _SHARED.get(key)
    if found is None:
        found = _SHARED[key] = build()
    return found  # type: ignore[no-any-return]


_VECTOR_TYPES: dict[tuple[Attribute, tuple[int, ...]], VectorType] = {}
_STRINGS: dict[str, StringAttr] = {}


def vector_type(element: Attribute, shape: Sequence[int]) -> VectorType:
    """`VectorType(element, shape)` (fixed-size), shared."""
    key = (element, tuple(shape))
    found = _VECTOR_TYPES.get(key)
    if found is None:
        found = _VECTOR_TYPES[key] = VectorType(element, key[1])
    return found


def string_attr(text: str) -> StringAttr:
    """`StringAttr(text)`, shared."""
    found = _STRINGS.get(text)
    if found is None:
        found = _STRINGS[text] = StringAttr(text)
    return found


def dense_from_list(data_type: Any, data: Any) -> DenseArrayBase:
    """`DenseArrayBase.from_list`, shared for integer arrays of ints (segment sizes, GEP indices)."""
    if isinstance(data_type, IntegerType) and all(type(v) is int for v in data):
        key = (data_type, tuple(data))
        found = _DENSE_ARRAYS.get(key)
        if found is None:
            found = _DENSE_ARRAYS[key] = ORIGINAL_DENSE_FROM_LIST(data_type, data)
        return found
    return ORIGINAL_DENSE_FROM_LIST(data_type, data)


# arith.cmpi's predicate mnemonics (xDSL's CmpiOp.__init__ table).
_CMPI_PREDICATES = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5, "ult": 6, "ule": 7, "ugt": 8, "uge": 9}


def cmpi_init(self: arith.CmpiOp, operand1: Operation | SSAValue, operand2: Operation | SSAValue, arg: int | str) -> None:
    """`arith.CmpiOp(lhs, rhs, predicate)` with its `i1` result type and its predicate attribute
    shared (xDSL builds and verifies both, ~8 attributes, per op; bounds tests make hundreds of
    compares per kernel). An unknown mnemonic goes to xDSL's own constructor and its error."""
    if isinstance(arg, str):
        code = _CMPI_PREDICATES.get(arg)
        if code is None:
            _FOUND["cmpi_init"](self, operand1, operand2, arg)
            return
        arg = code
    lhs, rhs = SSAValue.get(operand1), SSAValue.get(operand2)
    _CMPI_OP[0]._validate_operand_types(lhs, rhs)
    IRDLOperation.__init__(self, operands=[lhs, rhs], result_types=[int_type(1)], properties={"predicate": int_attr(arg, 64)})


_HASH_KEY = "_tile_lsp_hash"


def _caching_hash(original: Any) -> Any:
    def __hash__(self: Attribute) -> int:
        state = self.__dict__
        found = state.get(_HASH_KEY)
        if found is None:
            found = state[_HASH_KEY] = original(self)
        return found  # type: ignore[no-any-return]

    __hash__.tile_lsp_cached = True  # type: ignore[attr-defined]
    return __hash__


def _state_without_hash(self: Attribute) -> dict[str, Any]:
    """Pickled state: the memoized hash stays behind (string hashes differ between processes)."""
    state = self.__dict__
    return {k: v for k, v in state.items() if k != _HASH_KEY} if _HASH_KEY in state else state


def cache_attribute_hashes() -> int:
    """Attributes are immutable frozen dataclasses whose generated `__hash__` hashes every field
    again on each call (0.7 us for `i32`, 1.8 us for a vector type), and the stages hash them all
    the time (dict keys, CSE, type conversion). Each attribute class defined so far gets a
    `__hash__` that computes once per instance and keeps it; returns how many classes changed
    (idempotent: called again after more dialects are defined)."""
    import dataclasses

    changed = 0
    seen: set[type] = set()
    stack: list[type] = [Attribute]
    while stack:
        sub: type
        for sub in stack.pop().__subclasses__():
            if sub in seen:
                continue
            seen.add(sub)
            stack.append(sub)
            original = sub.__dict__.get("__hash__")
            if original is None or getattr(original, "tile_lsp_cached", False) or sub.__dictoffset__ == 0:
                continue
            params = getattr(sub, "__dataclass_params__", None)
            if not dataclasses.is_dataclass(sub) or params is None or not params.frozen:
                continue
            sub.__hash__ = _caching_hash(original)  # type: ignore[method-assign]
            changed += 1
    Attribute.__getstate__ = _state_without_hash  # type: ignore[method-assign, assignment]
    return changed


# The patches `install` makes: (name, owner, attribute, replacement); "attribute_hashes" is
# `cache_attribute_hashes`. Each is listed with the gain that keeps it in ARCHITECTURE.md
# (measured by bench/xdsl_patches.py, which turns them off one at a time). `upstream`: with those
# of upstream dialects' ops (importing the dialect).
def _patches(upstream: bool = True) -> list[tuple[str, Any, str, Any]]:
    core: list[tuple[str, Any, str, Any]] = [
        ("build_arg_list", _operations, "irdl_build_arg_list", build_arg_list),
        ("build_operations_arg", _operations, "irdl_build_operations_arg", build_operations_arg),
        ("op_init", _operations, "irdl_op_init", op_init),
        ("unknown_loc", _core, "_unknown_loc", _unknown_loc),
        ("operation_init", Operation, "__init__", operation_init),
        ("values_getitem", SSAValues, "__getitem__", values_getitem),
        ("replace_all_uses_with", SSAValue, "replace_all_uses_with", replace_all_uses_with),
        ("attribute_post_init", Attribute, "__post_init__", attribute_post_init),
        ("ssavalue_get", SSAValue, "get", staticmethod(ssavalue_get)),
        ("attach_op", Block, "_attach_op", attach_op),
        ("dense_from_list", DenseArrayBase, "from_list", staticmethod(dense_from_list)),
    ]
    if not upstream:
        return core
    from xdsl.dialects import arith

    _CMPI_OP[:] = [arith.CmpiOp]
    return [*core, ("cmpi_init", arith.CmpiOp, "__init__", cmpi_init)]


_CMPI_OP: list[Any] = []  # xDSL's arith.CmpiOp, once `_patches(upstream=True)` has imported it
PATCH_NAMES = ("attribute_hashes", *(name for name, *_ in _patches(upstream=False)), "cmpi_init")
_MISSING = object()
# What each patch replaces, as it was found before the patch was first installed.
_FOUND: dict[str, Any] = {}


def _found(name: str, owner: Any, attribute: str) -> Any:
    if name not in _FOUND:
        _FOUND[name] = owner.__dict__.get(attribute, _MISSING) if isinstance(owner, type) else getattr(owner, attribute)
    return _FOUND[name]


def set_patch(name: str, on: bool) -> None:
    """Turn one patch (a name of `_patches`, not "attribute_hashes") on or off, as installed:
    how bench/xdsl_patches.py times a workload with and without it in one process."""
    for found, owner, attribute, replacement in _patches():
        if found != name:
            continue
        _found(name, owner, attribute)
        if on:
            setattr(owner, attribute, replacement)
        elif _FOUND[name] is _MISSING:
            delattr(owner, attribute)
        else:
            setattr(owner, attribute, _FOUND[name])


def install(*, upstream: bool = True) -> None:
    """Swap the faster paths in (idempotent); `upstream` False: xDSL's core only, no upstream
    dialect imported. `TILE_LSP_XDSL_FAST_SKIP` (names of PATCH_NAMES, comma-separated) leaves
    some out: how bench/xdsl_patches.py measures what each one gains."""
    skip = set(os.environ.get("TILE_LSP_XDSL_FAST_SKIP", "").split(","))
    if "attribute_hashes" not in skip:
        cache_attribute_hashes()
    for name, owner, attribute, replacement in _patches(upstream):
        if name not in skip:
            _found(name, owner, attribute)
            setattr(owner, attribute, replacement)


def __getattr__(name: str) -> Any:
    """`ORIGINAL_CMPI_INIT`, xDSL's `arith.CmpiOp.__init__` (arith is imported on first use)."""
    if name == "ORIGINAL_CMPI_INIT":
        from xdsl.dialects import arith

        return _found("cmpi_init", arith.CmpiOp, "__init__")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "PATCH_NAMES", "attach_op", "set_patch", "attribute_post_init", "build_arg_list", "build_operations_arg", "cache_attribute_hashes", "cmpi_init",
    "dense_from_list", "install", "int_attr", "int_type", "op_init", "operation_init", "replace_all_uses_with",
    "shared", "ssavalue_get", "string_attr", "values_getitem", "vector_type", "walk_ops",
]
