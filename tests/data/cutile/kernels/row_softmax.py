"""Numerically stable softmax over the rows of a 2-D array (grid-stride over rows)."""

import cuda.tile as ct
from _common import array, signature


@ct.kernel
def row_softmax(x, y, BLOCK_N: ct.Constant[int]):
    num_rows = x.shape[0]
    for row in range(ct.bid(0), num_rows, ct.num_blocks(0)):
        raw = ct.load(x, index=(row, 0), shape=(1, BLOCK_N), padding_mode=ct.PaddingMode.NEG_INF)
        tile = ct.astype(raw, ct.float32)
        shifted = tile - ct.max(tile, axis=1, keepdims=True)
        numer = ct.exp(shifted)
        denom = ct.sum(numer, axis=1, keepdims=True)
        ct.store(y, index=(row, 0), tile=ct.astype(numer / denom, y.dtype))


KERNEL = row_softmax
SIGNATURES = [
    signature(array(ct.float32, 2), array(ct.float32, 2), 1024),
    signature(array(ct.bfloat16, 2), array(ct.bfloat16, 2), 4096),
]
