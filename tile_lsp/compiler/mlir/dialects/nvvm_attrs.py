"""Attributes of the nvvm dialect in MLIR 22 syntax: the enum attributes its ops carry
(`#nvvm<shfl_kind bfly>`, `#nvvm.mem_scope<cta>`, ...) and the `#nvvm.target` of a gpu.module.

```mlir
gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">] { ... }
```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

# --------------------------------------------------------------------------------------------
# Enum attributes. "Spaced" ones print generically as `#nvvm<shfl_kind bfly>` (MLIR's enums
# without a specialised attribute); "angled" ones as `#nvvm.proxy_kind<async.shared>` and as
# `<cta>` inside an op's custom form.


class _Angled:
    """Mixin: an enum parameter written `<value>`; a full `#nvvm.x<value>` is accepted too."""

    enum_type: ClassVar[type[StrEnum]]

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{cast(EnumAttribute[StrEnum], self).data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> StrEnum:
        if parser.parse_optional_punctuation("<") is None:
            attr = parser.parse_attribute()
            if not isinstance(attr, EnumAttribute) or not isinstance(attr.data, cls.enum_type):
                parser.raise_error(f"expected {cls.enum_type.__name__} attribute")
            return cast(StrEnum, attr.data)
        value = parser.parse_str_enum(cls.enum_type)
        parser.parse_punctuation(">")
        return value


class ShflKind(StrEnum):
    BFLY = "bfly"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


class VoteSyncKind(StrEnum):
    ANY = "any"
    ALL = "all"
    BALLOT = "ballot"
    UNI = "uni"


class ReduxKind(StrEnum):
    ADD = "add"
    AND = "and"
    MAX = "max"
    MIN = "min"
    OR = "or"
    UMAX = "umax"
    UMIN = "umin"
    XOR = "xor"
    FMIN = "fmin"
    FMAX = "fmax"


class MatchSyncKind(StrEnum):
    ANY = "any"
    ALL = "all"


class PrefetchCacheLevel(StrEnum):
    L1 = "L1"
    L2 = "L2"


class SetMaxRegisterAction(StrEnum):
    INCREASE = "increase"
    DECREASE = "decrease"


class ProxyKind(StrEnum):
    ALIAS = "alias"
    ASYNC = "async"
    ASYNC_GLOBAL = "async.global"
    ASYNC_SHARED = "async.shared"
    TENSORMAP = "tensormap"
    GENERIC = "generic"


class SharedSpace(StrEnum):
    CTA = "cta"
    CLUSTER = "cluster"


class MemScopeKind(StrEnum):
    CTA = "cta"
    CLUSTER = "cluster"
    GPU = "gpu"
    SYS = "sys"


class FPRoundingMode(StrEnum):
    NONE = "none"
    RN = "rn"
    RM = "rm"
    RP = "rp"
    RZ = "rz"
    RNA = "rna"
    RS = "rs"


class SaturationMode(StrEnum):
    NONE = "none"
    SATFINITE = "satfinite"


class GridDepAction(StrEnum):
    WAIT = "wait"
    LAUNCH_DEPENDENTS = "launch_dependents"


class BarrierReduction(StrEnum):
    POPC = "popc"
    AND = "and"
    OR = "or"


@irdl_attr_definition
class ShflKindAttr(EnumAttribute[ShflKind], SpacedOpaqueSyntaxAttribute):
    name = "nvvm.shfl_kind"


@irdl_attr_definition
class VoteSyncKindAttr(EnumAttribute[VoteSyncKind], SpacedOpaqueSyntaxAttribute):
    name = "nvvm.vote_sync_kind"


@irdl_attr_definition
class ReduxKindAttr(EnumAttribute[ReduxKind], SpacedOpaqueSyntaxAttribute):
    name = "nvvm.redux_kind"


@irdl_attr_definition
class MatchSyncKindAttr(EnumAttribute[MatchSyncKind], SpacedOpaqueSyntaxAttribute):
    name = "nvvm.match_sync_kind"


@irdl_attr_definition
class PrefetchCacheLevelAttr(EnumAttribute[PrefetchCacheLevel], SpacedOpaqueSyntaxAttribute):
    name = "nvvm.prefetch_cache_level"


@irdl_attr_definition
class SetMaxRegisterActionAttr(EnumAttribute[SetMaxRegisterAction], SpacedOpaqueSyntaxAttribute):
    name = "nvvm.action"


@irdl_attr_definition
class GridDepActionAttr(EnumAttribute[GridDepAction], SpacedOpaqueSyntaxAttribute):
    name = "nvvm.grid_dep_action"


@irdl_attr_definition
class ProxyKindAttr(_Angled, EnumAttribute[ProxyKind]):  # type: ignore[misc]
    name = "nvvm.proxy_kind"


@irdl_attr_definition
class SharedSpaceAttr(_Angled, EnumAttribute[SharedSpace]):  # type: ignore[misc]
    name = "nvvm.shared_space"


@irdl_attr_definition
class MemScopeKindAttr(_Angled, EnumAttribute[MemScopeKind]):  # type: ignore[misc]
    name = "nvvm.mem_scope"


@irdl_attr_definition
class FPRoundingModeAttr(_Angled, EnumAttribute[FPRoundingMode]):  # type: ignore[misc]
    name = "nvvm.fp_rnd_mode"


@irdl_attr_definition
class SaturationModeAttr(_Angled, EnumAttribute[SaturationMode]):  # type: ignore[misc]
    name = "nvvm.sat_mode"


@irdl_attr_definition
class BarrierReductionAttr(_Angled, EnumAttribute[BarrierReduction]):  # type: ignore[misc]
    name = "nvvm.reduction"


@irdl_attr_definition
class ConstantRangeAttr(ParametrizedAttribute):
    """`#llvm.constant_range<i32, lo, hi>` (the `range` of a special-register read)."""

    name = "llvm.constant_range"

    width: IntAttr
    lower: IntAttr
    upper: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        typ = parser.parse_type()
        if not isinstance(typ, IntegerType):
            parser.raise_error("expected an integer type")
        parser.parse_punctuation(",")
        lo = parser.parse_integer()
        parser.parse_punctuation(",")
        hi = parser.parse_integer()
        parser.parse_punctuation(">")
        return (IntAttr(typ.width.data), IntAttr(lo), IntAttr(hi))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<i{self.width.data}, {self.lower.data}, {self.upper.data}>")


# --------------------------------------------------------------------------------------------
# #nvvm.target


_TARGET_DEFAULTS: dict[str, object] = {
    "O": 2,
    "triple": "nvptx64-nvidia-cuda",
    "chip": "sm_50",
    "features": "",
    "verifyTarget": True,
}
_TARGET_KEYS = ("O", "triple", "chip", "features", "flags", "link", "verifyTarget")


@irdl_attr_definition
class NVVMTargetAttr(ParametrizedAttribute):
    """`#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80", flags = {...}>`: the GPU target
    of a gpu.module (MLIR 22 struct syntax; fields at their default value are not printed)."""

    name = "nvvm.target"

    O: IntAttr  # noqa: E741 - MLIR's field name
    triple: StringAttr
    chip: StringAttr
    features: StringAttr
    flags: DictionaryAttr | NoneAttr
    link: ArrayAttr[StringAttr] | NoneAttr
    verifyTarget: BoolAttr

    @classmethod
    def make(
        cls,
        O: int = 2,  # noqa: E741, N803 - MLIR's field name
        triple: str = "nvptx64-nvidia-cuda",
        chip: str = "sm_50",
        features: str = "",
        flags: DictionaryAttr | None = None,
        link: Sequence[str] | None = None,
        verifyTarget: bool = True,  # noqa: N803 - MLIR's field name
    ) -> NVVMTargetAttr:
        return cls(
            IntAttr(O),
            StringAttr(triple),
            StringAttr(chip),
            StringAttr(features),
            flags if flags is not None else NoneAttr(),
            ArrayAttr([StringAttr(s) for s in link]) if link is not None else NoneAttr(),
            IntegerAttr(1 if verifyTarget else 0, IntegerType(1)),
        )

    @property
    def flag_dict(self) -> dict[str, Attribute]:
        return dict(self.flags.data) if isinstance(self.flags, DictionaryAttr) else {}

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        fields: dict[str, object] = dict(_TARGET_DEFAULTS)
        flags: DictionaryAttr | NoneAttr = NoneAttr()
        link: ArrayAttr[StringAttr] | NoneAttr = NoneAttr()
        if parser.parse_optional_punctuation("<") is not None and parser.parse_optional_punctuation(">") is None:
            while True:
                key = parser.parse_identifier()
                if key not in _TARGET_KEYS:
                    parser.raise_error(f"unknown #nvvm.target field '{key}'")
                parser.parse_punctuation("=")
                if key == "O":
                    fields[key] = parser.parse_integer()
                elif key in ("triple", "chip", "features"):
                    fields[key] = parser.parse_str_literal()
                elif key == "verifyTarget":
                    fields[key] = parser.parse_boolean()
                else:
                    value = parser.parse_attribute()
                    if key == "flags":
                        if not isinstance(value, DictionaryAttr):
                            parser.raise_error("flags must be a dictionary")
                        flags = value
                    else:
                        if not isinstance(value, ArrayAttr):
                            parser.raise_error("link must be an array of strings")
                        link = cast(ArrayAttr[StringAttr], value)
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation(">")
        return (
            IntAttr(cast(int, fields["O"])),
            StringAttr(cast(str, fields["triple"])),
            StringAttr(cast(str, fields["chip"])),
            StringAttr(cast(str, fields["features"])),
            flags,
            link,
            IntegerAttr(1 if fields["verifyTarget"] else 0, IntegerType(1)),
        )

    def print_parameters(self, printer: Printer) -> None:
        parts: list[str] = []
        if self.O.data != _TARGET_DEFAULTS["O"]:
            parts.append(f"O = {self.O.data}")
        for key in ("triple", "chip", "features"):
            value = cast(StringAttr, getattr(self, key)).data
            if value != _TARGET_DEFAULTS[key]:
                parts.append(f"{key} = {_quote(value)}")
        pending: list[tuple[str, Attribute]] = []
        if isinstance(self.flags, DictionaryAttr):
            pending.append(("flags", self.flags))
        if isinstance(self.link, ArrayAttr):
            pending.append(("link", self.link))
        verify = bool(self.verifyTarget.value.data)
        if not parts and not pending and verify:
            return
        printer.print_string("<" + ", ".join(parts))
        for i, (key, attr) in enumerate(pending):
            printer.print_string(f"{', ' if parts or i else ''}{key} = ")
            if isinstance(attr, DictionaryAttr):
                _print_flags(printer, attr)
            else:
                printer.print_attribute(attr)
        if not verify:
            printer.print_string(f"{', ' if parts or pending else ''}verifyTarget = false")
        printer.print_string(">")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _print_flags(printer: Printer, flags: DictionaryAttr) -> None:
    """MLIR writes unit entries of a dictionary as the bare (quoted if needed) key."""
    printer.print_string("{")
    for i, (key, value) in enumerate(flags.data.items()):
        if i:
            printer.print_string(", ")
        printer.print_identifier_or_string_literal(key)
        if not isinstance(value, UnitAttr):
            printer.print_string(" = ")
            printer.print_attribute(value)
    printer.print_string("}")
