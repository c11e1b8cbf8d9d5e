"""Row-wise max/argmax with ct.argmax, plus a min-with-index via tuple ct.reduce."""

import cuda.tile as ct
from _common import array, signature


def _min_with_index(a_val, a_idx, b_val, b_idx):
    take_b = (b_val < a_val) | ((b_val == a_val) & (b_idx < a_idx))
    return ct.where(take_b, b_val, a_val), ct.where(take_b, b_idx, a_idx)


@ct.kernel
def row_argmax(x, max_val, max_idx, min_idx, BLOCK_N: ct.Constant[int]):
    row = ct.bid(0)
    raw = ct.load(x, index=(row, 0), shape=(1, BLOCK_N), padding_mode=ct.PaddingMode.NEG_INF)
    tile = ct.astype(raw, ct.float32)
    ct.store(max_val, index=(row,), tile=ct.max(tile, axis=1))
    ct.store(max_idx, index=(row,), tile=ct.argmax(tile, axis=1))

    cols = ct.arange(BLOCK_N, dtype=ct.int32)[None, :]
    finite = ct.where(tile == -float("inf"), float("inf"), tile)
    _, idx = ct.reduce((finite, cols), axis=1, func=_min_with_index, identity=(float("inf"), 2**31 - 1))
    ct.store(min_idx, index=(row,), tile=idx)


KERNEL = row_argmax
SIGNATURES = [
    signature(array(ct.float16, 2), array(ct.float32, 1), array(ct.int32, 1), array(ct.int32, 1), 2048),
]
