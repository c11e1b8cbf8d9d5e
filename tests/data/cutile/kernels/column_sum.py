"""Split-row column sums: each block reduces a row band and atomically adds via a tiled view."""

import cuda.tile as ct
from _common import array, signature


@ct.kernel
def column_sum(x, out, BM: ct.Constant[int], BN: ct.Constant[int], BANDS_PER_BLOCK: ct.Constant[int]):
    col = ct.bid(1)
    src = x.tiled_view((BM, BN), padding_mode=ct.PaddingMode.ZERO)
    dst = out.tiled_view((1, BN))
    n_bands = src.num_tiles(0)

    acc = ct.zeros((BM, BN), dtype=ct.float32)
    first = ct.bid(0) * BANDS_PER_BLOCK
    for band in range(first, min(first + BANDS_PER_BLOCK, n_bands)):
        acc += ct.astype(src.load((band, col)), ct.float32)
    dst.atomic_store_add((0, col), ct.sum(acc, axis=0, keepdims=True))


KERNEL = column_sum
SIGNATURES = [
    signature(array(ct.float16, 2), array(ct.float32, 2), 64, 128, 4),
    signature(array(ct.float32, 2), array(ct.float32, 2), 32, 256, 16),
]
