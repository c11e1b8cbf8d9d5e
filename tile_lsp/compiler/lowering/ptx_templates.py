"""The fixed inline-PTX templates and constraint strings of seed 002 (ops that reach PTX through
`llvm.inline_asm` instead of an intrinsic). Each builder returns `(template, constraints)`.

Operands are numbered `$0..$n` in LLVM inline-asm order: outputs first, then inputs.
"""

from __future__ import annotations

from collections.abc import Sequence


def _regs(start: int, count: int) -> str:
    return "{" + ", ".join(f"${i}" for i in range(start, start + count)) + "}"


def sparse_mma(
    shape: tuple[int, int, int],
    types: tuple[str, str, str, str],
    fragments: tuple[int, int, int, int],
    selector: int,
) -> tuple[str, str]:
    """`mma.sp.sync.aligned` with the sparsity selector baked into the template.

    `types` = (d, a, b, c) PTX element types (PTX order: `.dtype.atype.btype.ctype`),
    `fragments` = (d, a, b, c) register counts; the metadata word follows C.
    """
    m, n, k = shape
    d_t, a_t, b_t, c_t = types
    nd, na, nb, nc = fragments
    a0, b0, c0 = nd, nd + na, nd + na + nb
    meta = c0 + nc
    template = (
        f"mma.sp.sync.aligned.m{m}n{n}k{k}.row.col.{d_t}.{a_t}.{b_t}.{c_t} "
        f"{_regs(0, nd)}, {_regs(a0, na)}, {_regs(b0, nb)}, {_regs(c0, nc)}, ${meta}, 0x{selector:x};"
    )
    constraints = ",".join(["=r"] * nd + ["r"] * (na + nb + nc + 1))
    return template, constraints


def stmatrix_fallback(num: int, trans: bool) -> tuple[str, str]:
    """stmatrix through inline asm (targets that have no stmatrix intrinsic): `l` address, `num` x `r`."""
    template = (
        f"stmatrix.sync.aligned.m8n8.x{num}{'.trans' if trans else ''}.shared::cta.b16 "
        f"[$0], {_regs(1, num)};"
    )
    return template, ",".join(["l"] + ["r"] * num)


def im2col_tma_store(rank: int) -> tuple[str, str]:
    """Rank-`rank` im2col TMA store with an L2 cache hint: descriptor, `rank` coordinates, smem, hint."""
    template = (
        f"cp.async.bulk.tensor.{rank}d.global.shared::cta.im2col.bulk_group.L2::cache_hint "
        f"[$0, {_regs(1, rank)}], [${rank + 1}], ${rank + 2};"
    )
    return template, ",".join(["l"] + ["r"] * rank + ["l", "l"])


def tcgen05_cp(shape: str, multicast: str, src_fmt: str) -> tuple[str, str]:
    """`tcgen05.cp` between two TMEM column indices; the qualifiers are baked in."""
    quals = ".".join(q for q in (shape, multicast, src_fmt) if q)
    return f"tcgen05.cp.{quals} [$0], [$1];", "r,r"


def wgmma_scale_d(n: int, k: int, types: Sequence[str], acc_regs: int, acc_code: str = "=f") -> tuple[str, str]:
    """WGMMA with the scale-D immediate: `acc_regs` accumulator outputs, two `l` descriptors, then
    the scale-d predicate and the two transpose flags as `n` immediates (scale-a/b fixed to 1)."""
    acc_t, a_t, b_t = types
    w = acc_regs
    template = (
        f"wgmma.mma_async.sync.aligned.m64n{n}k{k}.{acc_t}.{a_t}.{b_t} "
        f"{_regs(0, w)}, ${w}, ${w + 1}, ${w + 2}, 1, 1, ${w + 3}, ${w + 4};"
    )
    return template, ",".join([acc_code] * w + ["l", "l", "n", "n", "n"])
