"""Elementwise c = alpha * a + b over 1-D arrays, one tile per block (tail padded)."""

import cuda.tile as ct
from _common import array, scalar, signature


@ct.kernel
def vector_add(a, b, c, alpha, TILE: ct.Constant[int]):
    pid = ct.bid(0)
    x = ct.load(a, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, index=(pid,), tile=alpha * x + y)


KERNEL = vector_add
SIGNATURES = [
    signature(array(ct.float32, 1), array(ct.float32, 1), array(ct.float32, 1), scalar(ct.float32), 1024),
    signature(array(ct.float16, 1), array(ct.float16, 1), array(ct.float16, 1), scalar(ct.float16), 2048),
]
