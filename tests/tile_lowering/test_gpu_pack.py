"""`pack` / `unpack` with sub-byte elements (i1, i4, f4E2M1FN): bit order, the interpreter, and
the gpu stage's shared-memory exchange (gpu_views.reinterpret_bytes).

Bit order (checked against NVIDIA's tileiras 13.5 by disassembling its cubins): element 0 sits in
the least significant bits of byte 0; an i1 tile packs 8 elements per byte (bit k = element
8j + k), a 4-bit tile 2 per byte (low nibble = element 2j). Checks: the interpreter on known
patterns; ptxas (sm_80/sm_90a/sm_100a) on NVIDIA's ops.mlir functions; the SIMT simulator
(simt.py) against the interpreter, including unpack(pack(x)) == x.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from interp.util import evaluate

from tile_lowering.hardware import run_kernel
from tile_lowering.stages import SM80, SM90A, to_gpu
from tile_lowering.test_gpu_gaps import interpret
from tile_lsp.compiler.backend.cuda_tools import find_ptxas_binary
from tile_lsp.compiler.entry_cache import compile_source
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

TARGETS = ("sm_80", "sm_90a", "sm_100a")
BYTES = "<i8: [-79, 126]>"  # 0xB1, 0x7E


# ---------------------------------------------------------------------------------------------
# 1. The interpreter on known bit patterns


def _run(body: str) -> Any:
    return evaluate("%x: !cuda_tile.tile<ptr<i8>>", body, np.zeros(1, np.int8))


def test_unpack_i1_is_least_significant_bit_first() -> None:
    r = _run(f"""    %c = constant {BYTES} : tile<2xi8>
    %u = unpack %c : tile<2xi8> -> tile<16xi1>""")
    # 0xB1 = 0b1011_0001 and 0x7E = 0b0111_1110, read from bit 0 up.
    want = [1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0]
    assert r.named("u").dtype == np.bool_ and r.named("u").astype(int).tolist() == want


def test_pack_i1_puts_element_k_in_bit_k() -> None:
    """16 x i1 -> 2 x i8 (ops.mlir's shape): two bytes, not 16 elements."""
    r = _run("""    %c = constant <i32: [1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0]> : tile<16xi32>
    %z = constant <i32: 0> : tile<16xi32>
    %b = cmpi not_equal %c, %z, signed : tile<16xi32> -> tile<16xi1>
    %p = pack %b : tile<16xi1> -> tile<2xi8>""")
    assert r.named("p").dtype == np.int8 and r.named("p").view(np.uint8).tolist() == [0x81, 0x06]


def test_unpack_i4_is_low_nibble_first_and_sign_extended() -> None:
    r = _run(f"""    %c = constant {BYTES} : tile<2xi8>
    %u = unpack %c : tile<2xi8> -> tile<4xi4>
    %e = exti %u unsigned : tile<4xi4> -> tile<4xi32>""")
    assert r.named("u").tolist() == [1, -5, -2, 7]  # 0x1, 0xB, 0xE, 0x7 as signed nibbles
    assert r.named("e").tolist() == [1, 11, 14, 7]


def test_pack_i4_wraps_to_nibbles() -> None:
    """trunci to i4 keeps the low 4 bits (sign-extended); pack puts element 2j in the low nibble."""
    r = _run("""    %c = constant <i32: [1, -5, 9, 7, -8, 100, 15, -9]> : tile<8xi32>
    %t = trunci %c : tile<8xi32> -> tile<8xi4>""")
    assert r.named("t").tolist() == [1, -5, -7, 7, -8, 4, -1, 7]
    r = _run("""    %c = constant <i32: [1, -5, 9, 7]> : tile<4xi32>
    %t = trunci %c : tile<4xi32> -> tile<4xi4>
    %p = pack %t : tile<4xi4> -> tile<2xi8>""")
    assert r.named("p").view(np.uint8).tolist() == [0xB1, 0x79]


def test_f4_unpack_and_pack_use_the_e2m1_codes() -> None:
    r = _run(f"""    %c = constant {BYTES} : tile<2xi8>
    %u = unpack %c : tile<2xi8> -> tile<4xf4E2M1FN>
    %w = ftof %u : tile<4xf4E2M1FN> -> tile<4xf32>
    %p = pack %u : tile<4xf4E2M1FN> -> tile<2xi8>""")
    assert r.named("w").tolist() == [0.5, -1.5, -4.0, 6.0]  # codes 0x1, 0xB, 0xE, 0x7
    assert r.named("p").tolist() == [-79, 126]


def test_whole_byte_types_stay_little_endian() -> None:
    r = _run(f"""    %c = constant {BYTES} : tile<2xi8>
    %w = unpack %c : tile<2xi8> -> tile<1xi16>
    %p = pack %w : tile<1xi16> -> tile<2xi8>""")
    assert r.named("w").tolist() == [0x7EB1] and r.named("p").tolist() == [-79, 126]


# ---------------------------------------------------------------------------------------------
# 2. NVIDIA's ops.mlir functions reach ptxas

OPS = """cuda_tile.module @tests {
  testing$func @test_unpack_op(%arg0: !cuda_tile.tile<64xi8>) {
    %i1 = unpack %arg0 : tile<64xi8> -> tile<512xi1>
    %i4 = unpack %arg0 : tile<64xi8> -> tile<128xi4>
    %0 = unpack %arg0 : tile<64xi8> -> tile<128xf4E2M1FN>
  }
  testing$func @test_pack_op(%arg_i1: !cuda_tile.tile<16xi1>, %arg_i4: !cuda_tile.tile<64xi4>, %arg_i16: !cuda_tile.tile<64xi16>, %arg_f32: !cuda_tile.tile<64xf32>) {
    %i1 = pack %arg_i1 : tile<16xi1> -> tile<2xi8>
    %i4 = pack %arg_i4 : tile<64xi4> -> tile<32xi8>
    %0 = pack %arg_i16 : tile<64xi16> -> tile<128xi8>
    %1 = pack %arg_f32 : tile<64xf32> -> tile<256xi8>
  }
}
"""


@pytest.mark.parametrize("gpu_name", TARGETS)
def test_ops_mlir_pack_and_unpack_reach_ptxas(gpu_name: str) -> None:
    """ops.mlir's @test_pack_op and @test_unpack_op to a cubin."""
    if find_ptxas_binary() is None:
        pytest.skip("ptxas not found")
    options = CompileOptions(Target.resolve(gpu_name), ptxas=find_ptxas_binary())
    result = compile_source(SourceText(OPS, "ops.mlir"), options, "cubin", cache=False)
    assert result.ok, [d.message for d in result.diagnostics]
    assert {"test_pack_op", "test_unpack_op"} <= set(result.kernels)


# ---------------------------------------------------------------------------------------------
# 3. Numbers: the SIMT simulator against the interpreter


def _ptrs(name: str, elem: str, n: int, index: str) -> str:
    """`%<name>p`: tile<n x ptr> to elements 0..n-1 of pointer argument `%<name>`."""
    return f"""    %{name}r = reshape %{name} : tile<ptr<{elem}>> -> tile<1xptr<{elem}>>
    %{name}b = broadcast %{name}r : tile<1xptr<{elem}>> -> tile<{n}xptr<{elem}>>
    %{name}p = offset %{name}b, {index} : tile<{n}xptr<{elem}>>, tile<{n}xi32> -> tile<{n}xptr<{elem}>>
"""


def _unpack_kernel(n: int) -> str:
    """n bytes in; out: unpack to i1 (as bytes), unpack to i4 (sign-extended to i32), and each
    packed back to bytes."""
    bits, nibbles = 8 * n, 2 * n
    return f"""cuda_tile.module @m {{
  entry @k(%src: tile<ptr<i8>>, %o1: tile<ptr<i8>>, %o4: tile<ptr<i32>>, %r1: tile<ptr<i8>>, %r4: tile<ptr<i8>>) {{
    %i = iota : tile<{n}xi32>
    %j = iota : tile<{bits}xi32>
    %k = iota : tile<{nibbles}xi32>
{_ptrs("src", "i8", n, "%i")}{_ptrs("o1", "i8", bits, "%j")}{_ptrs("o4", "i32", nibbles, "%k")}{_ptrs("r1", "i8", n, "%i")}{_ptrs("r4", "i8", n, "%i")}
    %b, %t = load_ptr_tko weak %srcp : tile<{n}xptr<i8>> -> tile<{n}xi8>, token
    %u1 = unpack %b : tile<{n}xi8> -> tile<{bits}xi1>
    %e1 = exti %u1 unsigned : tile<{bits}xi1> -> tile<{bits}xi8>
    %t1 = store_ptr_tko weak %o1p, %e1 : tile<{bits}xptr<i8>>, tile<{bits}xi8> -> token
    %u4 = unpack %b : tile<{n}xi8> -> tile<{nibbles}xi4>
    %e4 = exti %u4 signed : tile<{nibbles}xi4> -> tile<{nibbles}xi32>
    %t2 = store_ptr_tko weak %o4p, %e4 : tile<{nibbles}xptr<i32>>, tile<{nibbles}xi32> -> token
    %p1 = pack %u1 : tile<{bits}xi1> -> tile<{n}xi8>
    %t3 = store_ptr_tko weak %r1p, %p1 : tile<{n}xptr<i8>>, tile<{n}xi8> -> token
    %p4 = pack %u4 : tile<{nibbles}xi4> -> tile<{n}xi8>
    %t4 = store_ptr_tko weak %r4p, %p4 : tile<{n}xptr<i8>>, tile<{n}xi8> -> token
    return
  }}
}}
"""


def _pack_kernel(n: int) -> str:
    """n i32 in; out: (x != 0) packed as i1 (n/8 bytes) and trunci(x) to i4 packed (n/2 bytes)."""
    return f"""cuda_tile.module @m {{
  entry @k(%src: tile<ptr<i32>>, %o1: tile<ptr<i8>>, %o4: tile<ptr<i8>>) {{
    %i = iota : tile<{n}xi32>
    %j = iota : tile<{n // 8}xi32>
    %k = iota : tile<{n // 2}xi32>
{_ptrs("src", "i32", n, "%i")}{_ptrs("o1", "i8", n // 8, "%j")}{_ptrs("o4", "i8", n // 2, "%k")}
    %x, %t = load_ptr_tko weak %srcp : tile<{n}xptr<i32>> -> tile<{n}xi32>, token
    %z = constant <i32: 0> : tile<{n}xi32>
    %b = cmpi not_equal %x, %z, signed : tile<{n}xi32> -> tile<{n}xi1>
    %p1 = pack %b : tile<{n}xi1> -> tile<{n // 8}xi8>
    %t1 = store_ptr_tko weak %o1p, %p1 : tile<{n // 8}xptr<i8>>, tile<{n // 8}xi8> -> token
    %q = trunci %x : tile<{n}xi32> -> tile<{n}xi4>
    %p4 = pack %q : tile<{n}xi4> -> tile<{n // 2}xi8>
    %t2 = store_ptr_tko weak %o4p, %p4 : tile<{n // 2}xptr<i8>>, tile<{n // 2}xi8> -> token
    return
  }}
}}
"""


def _compare(text: str, args: list[Any], target: Target = SM90A) -> list[Any]:
    run = to_gpu(text, target)
    assert run.ok, run.errors
    got, want = run_kernel(run, args), interpret(text, args)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
    return got


@pytest.mark.parametrize("n", [1, 2, 64, 256])
def test_unpack_and_round_trip_match_the_interpreter(n: int) -> None:
    """1 byte (a uniform source), 2 bytes (mostly ghost threads), 64 (ops.mlir's size: 512 i1
    results, 4 per thread), 256 (vectorized layouts, 2048 i1 results)."""
    b = np.random.default_rng(n).integers(-128, 128, n).astype(np.int8)
    args = [b, np.zeros(8 * n, np.int8), np.zeros(2 * n, np.int32), np.zeros(n, np.int8), np.zeros(n, np.int8)]
    _, bits, nibbles, back1, back4 = _compare(_unpack_kernel(n), args)
    u = b.view(np.uint8)
    np.testing.assert_array_equal(bits, np.unpackbits(u, bitorder="little"))
    np.testing.assert_array_equal(nibbles[0::2], ((u & 0xF) ^ 8).astype(np.int32) - 8)
    np.testing.assert_array_equal(nibbles[1::2], ((u >> 4) ^ 8).astype(np.int32) - 8)
    np.testing.assert_array_equal(back1, b)  # unpack(pack(x)) == x, both widths
    np.testing.assert_array_equal(back4, b)


@pytest.mark.parametrize("n", [16, 64, 1024])
def test_pack_matches_the_interpreter(n: int) -> None:
    x = np.random.default_rng(n).integers(-40, 40, n).astype(np.int32)
    x[::3] = 0
    _, p1, p4 = _compare(_pack_kernel(n), [x, np.zeros(n // 8, np.int8), np.zeros(n // 2, np.int8)], SM80)
    np.testing.assert_array_equal(p1.view(np.uint8), np.packbits(x != 0, bitorder="little"))
    q = (x & 0xF).astype(np.uint8)
    np.testing.assert_array_equal(p4.view(np.uint8), q[0::2] | (q[1::2] << 4))


def test_f4_unpack_and_round_trip_match_the_interpreter() -> None:
    """f4E2M1FN lives in an i8 register holding its code in the low nibble (gpu_convert.py)."""
    n = 64
    text = f"""cuda_tile.module @m {{
  entry @k(%src: tile<ptr<i8>>, %o: tile<ptr<f32>>, %r: tile<ptr<i8>>) {{
    %i = iota : tile<{n}xi32>
    %k = iota : tile<{2 * n}xi32>
{_ptrs("src", "i8", n, "%i")}{_ptrs("o", "f32", 2 * n, "%k")}{_ptrs("r", "i8", n, "%i")}
    %b, %t = load_ptr_tko weak %srcp : tile<{n}xptr<i8>> -> tile<{n}xi8>, token
    %u = unpack %b : tile<{n}xi8> -> tile<{2 * n}xf4E2M1FN>
    %f = ftof %u : tile<{2 * n}xf4E2M1FN> -> tile<{2 * n}xf32>
    %t1 = store_ptr_tko weak %op, %f : tile<{2 * n}xptr<f32>>, tile<{2 * n}xf32> -> token
    %p = pack %u : tile<{2 * n}xf4E2M1FN> -> tile<{n}xi8>
    %t2 = store_ptr_tko weak %rp, %p : tile<{n}xptr<i8>>, tile<{n}xi8> -> token
    return
  }}
}}
"""
    b = np.random.default_rng(3).integers(-128, 128, n).astype(np.int8)
    _, f, back = _compare(text, [b, np.zeros(2 * n, np.float32), np.zeros(n, np.int8)])
    e2m1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6], np.float32)
    u = b.view(np.uint8)
    np.testing.assert_array_equal(f[0::2], e2m1[u & 0xF])
    np.testing.assert_array_equal(f[1::2], e2m1[u >> 4])
    np.testing.assert_array_equal(back, b)


def test_testing_func_pack_of_an_i1_argument() -> None:
    """ops.mlir's 16 x i1 -> 2 x i8 as a testing$func: the i1 tile comes in memory (a byte per
    element), the result goes out through the appended pointer."""
    text = """cuda_tile.module @tests {
  testing$func @p(%a: !cuda_tile.tile<16xi1>) -> !cuda_tile.tile<2xi8> {
    %r = pack %a : tile<16xi1> -> tile<2xi8>
    return %r : tile<2xi8>
  }
}
"""
    run = to_gpu(text, SM90A)
    assert run.ok, run.errors
    a = np.array([1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0], np.bool_)
    _, out = run_kernel(run, [a, np.zeros(2, np.int8)])
    assert out.view(np.uint8).tolist() == [0x83, 0x50]
