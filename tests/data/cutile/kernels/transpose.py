"""Tiled 2-D transpose plus a (B, M, N) -> (B, N, M) permute, using ct.transpose/ct.permute."""

import cuda.tile as ct
from _common import array, signature


@ct.kernel
def transpose(x, y, xb, yb, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    tile = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(j, i), tile=ct.transpose(tile))

    batch = ct.bid(2)
    cube = ct.load(xb, index=(batch, i, j), shape=(1, TM, TN))
    ct.store(yb, index=(batch, j, i), tile=ct.permute(cube, (0, 2, 1)))


KERNEL = transpose
SIGNATURES = [
    signature(array(ct.float32, 2), array(ct.float32, 2), array(ct.float32, 3), array(ct.float32, 3), 64, 32),
    signature(array(ct.bfloat16, 2), array(ct.bfloat16, 2), array(ct.bfloat16, 3), array(ct.bfloat16, 3), 128, 64),
]
