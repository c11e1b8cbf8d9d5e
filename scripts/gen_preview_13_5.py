"""Regenerate tests/bytecode/data/preview_13_5: small Tile IR 13.5 modules with SIMT-preview
`preview$call` ops, encoded by cuTile Python 1.7's own bytecode encoder (`encode_PreviewCallOp`,
`patch_header_preview_flag`), and tileirdisasm's text of each (`--preview=simt`, `-g` too).

Needs cuTile Python 1.7 (`pip install cuda-tile`, no GPU) and nvidia-cuda-tileiras 13.5:
`python scripts/gen_preview_13_5.py [--disasm PATH]`. The constant-argument tags are not in
cuTile's public encoder (its optional `cuda.tile_preview` package makes them); they are written
here as that package writes them: a varint tag (0xD1 integer, 0xDB type, 0xE4 string), then a
signed varint, a type index or a string index.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cuda.tile import _bytecode as bc
from cuda.tile._bytecode.attribute import Dictionary, TaggedAttribute
from cuda.tile._bytecode.basic import encode_signed_varint, encode_varint
from cuda.tile._bytecode.debug_info import DebugAttrId
from cuda.tile._bytecode.encodings import encode_MakeTokenOp, encode_PreviewCallOp, encode_ReturnOp
from cuda.tile._bytecode.type import encode_typeid
from cuda.tile._bytecode.version import BytecodeVersion

OUT = Path(__file__).resolve().parents[1] / "tests" / "bytecode" / "data" / "preview_13_5"


@dataclass
class ExprInt(TaggedAttribute):
    value: int

    def encode_tagged(self, string_table: Any, buf: bytearray) -> None:
        encode_varint(0xD1, buf)
        encode_signed_varint(self.value, buf)


@dataclass
class ConcreteType(TaggedAttribute):
    type_id: Any

    def encode_tagged(self, string_table: Any, buf: bytearray) -> None:
        encode_varint(0xDB, buf)
        encode_typeid(self.type_id, buf)


@dataclass
class ConstStr(TaggedAttribute):
    text: str

    def encode_tagged(self, string_table: Any, buf: bytearray) -> None:
        encode_varint(0xE4, buf)
        encode_varint(string_table[self.text.encode()].string_id, buf)


@dataclass
class Raw(TaggedAttribute):  # for the invalid cases: bytes as they are
    data: bytes

    def encode_tagged(self, string_table: Any, buf: bytearray) -> None:
        buf.extend(self.data)


def build(case: dict[str, Any], version: BytecodeVersion = BytecodeVersion.V_13_5, flag: bool = True,
          debug: bool = False) -> bytes:
    """entry @kern(tile<f32>, tile<i32>) { [make_token]; preview$call ...; return }"""
    buf = bytearray()
    with bc.write_bytecode(num_functions=1, buf=buf, version=version) as w:
        tt = w.type_table
        f32, i32 = tt.tile(tt.F32, ()), tt.tile(tt.I32, ())
        named = {"f32": f32, "i32": i32, "4xi32": tt.tile(tt.I32, (4,)), "tok": tt.Token,
                 "scalar_f32": tt.F32, "scalar_i32": tt.I32}
        fn_loc = DebugAttrId(0)
        if debug:
            dt = w.debug_attr_table
            file = dt.file("kern.py", "/tmp")
            sp = dt.subprogram(file, 3, "kern", "kern", dt.compile_unit(file), 3)
            fn_loc = dt.loc(sp, "kern.py", 3, 1)
        with w.function("kern", [f32, i32], [], True, {}, fn_loc) as fb:
            cb = fb.code_builder
            a, b = fb.parameters
            if debug:
                cb.cur_debug_attr = w.debug_attr_table.loc(sp, "kern.py", 4, 5)
            operands = [a, b][: case.get("operands", 2)]
            if case.get("token"):
                operands.append(encode_MakeTokenOp(cb, tt.Token))
            consts: list[TaggedAttribute] = []
            for kind, v in case.get("consts", ()):
                if kind == "int":
                    consts.append(ExprInt(v))
                elif kind == "type":
                    consts.append(ConcreteType(named[v]))
                elif kind == "str":
                    consts.append(ConstStr(v))
                else:
                    consts.append(Raw(v))
            arg_attrs = case.get("arg_attrs")
            if arg_attrs == "preview":  # each kind inside a dictionary (printed in generic form)
                arg_attrs = [Dictionary([("n", ExprInt(-3)), ("t", ConcreteType(named["4xi32"])),
                                         ("s", ConstStr("hi"))]), Dictionary([])]
            res_attrs = case.get("res_attrs")
            if res_attrs == "bad":
                res_attrs = [Raw(b"\x01\x01\x02"), Dictionary([])]  # an i32 where a dictionary belongs
            results = [named[r] for r in case.get("results", ("f32", "tok"))]
            encode_PreviewCallOp(cb, results, operands, case.get("callee", "my_func"), consts, arg_attrs, res_attrs)
            if debug:
                cb.cur_debug_attr = w.debug_attr_table.loc(sp, "kern.py", 6, 5)
            encode_ReturnOp(cb, [])
    if flag:
        bc.patch_header_preview_flag(buf, version)
    return bytes(buf)


VALID: dict[str, dict[str, Any]] = {
    "plain": {},
    "no_results": {"results": ()},
    "token_result_only": {"results": ("tok",)},
    "several_results": {"results": ("f32", "4xi32", "f32", "tok")},
    "token_operand": {"token": True},
    "no_operands": {"operands": 0},
    "const_ints": {"consts": [("int", 42), ("int", -7), ("int", 0), ("int", 1 << 40),
                              ("int", (1 << 63) - 1), ("int", -(1 << 63))]},
    "const_types": {"consts": [("type", "scalar_f32"), ("type", "4xi32"), ("type", "tok")]},
    "const_strs": {"consts": [("str", "hello"), ("str", ""), ("str", "a\nb\\c")]},
    "const_mixed": {"consts": [("int", 3), ("type", "scalar_i32"), ("str", "mode")], "token": True},
    "arg_res_attrs": {"arg_attrs": "preview", "res_attrs": [Dictionary([]), Dictionary([])]},
    "quoted_callee": {"callee": "nvshmem tile.put"},
}
INVALID: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {  # name: (case, build options)
    "no_header_flag": ({}, {"flag": False}),
    "flag_at_13_4": ({}, {"version": BytecodeVersion.V_13_4}),
    "const_arg_not_preview": ({"consts": [("raw", b"\x01\x01\x02")]}, {}),  # an i32 integer attribute
    "res_attrs_not_dicts": ({"res_attrs": "bad"}, {}),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--disasm", default=shutil.which("tileirdisasm"))
    args = ap.parse_args()
    if args.disasm is None:
        try:
            from nvidia import cu13  # noqa: PLC0415

            args.disasm = str(Path(next(iter(cu13.__path__))) / "bin" / "tileirdisasm")
        except ImportError:
            sys.exit("tileirdisasm not found: pip install nvidia-cuda-tileiras")
    OUT.mkdir(parents=True, exist_ok=True)

    def disasm(path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([args.disasm, "--preview=simt", *flags, str(path)], capture_output=True, text=True,
                              check=False)

    for name, case in VALID.items():
        path = OUT / f"{name}.tileirbc"
        path.write_bytes(build(case))
        done = disasm(path)
        if done.returncode:
            sys.exit(f"tileirdisasm refused {name}:\n{done.stderr}")
        (OUT / f"{name}.mlir").write_text(done.stdout)
    path = OUT / "debug_info.tileirbc"
    path.write_bytes(build({"token": True, "consts": [("int", 1)]}, debug=True))
    (OUT / "debug_info.g.mlir").write_text(disasm(path, "-g").stdout)
    for name, (case, options) in INVALID.items():
        path = OUT / f"{name}.tileirbc"
        path.write_bytes(build(case, **options))
        done = disasm(path)
        if not done.returncode:
            sys.exit(f"tileirdisasm accepted {name}")
        (OUT / f"{name}.err").write_text(done.stderr)
    print(f"wrote {len(VALID) + 1 + len(INVALID)} modules to {OUT}")


if __name__ == "__main__":
    main()
