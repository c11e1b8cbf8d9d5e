"""Row-wise inclusive cumsum (with a carried running total) plus a custom max-scan."""

import cuda.tile as ct
from _common import array, signature


@ct.kernel
def prefix_scan(x, sums, running_max, BLOCK: ct.Constant[int]):
    row = ct.bid(0)
    carry = ct.zeros((1, 1), dtype=ct.float32)
    peak = ct.full((1, 1), -3.0e38, dtype=ct.float32)
    for j in range(ct.num_tiles(x, axis=1, shape=(1, BLOCK))):
        raw = ct.load(x, index=(row, j), shape=(1, BLOCK), padding_mode=ct.PaddingMode.ZERO)
        tile = ct.astype(raw, ct.float32)
        partial = ct.cumsum(tile, axis=1) + carry
        ct.store(sums, index=(row, j), tile=partial)
        carry = ct.extract(partial, index=(0, BLOCK - 1), shape=(1, 1))

        peaks = ct.maximum(ct.scan(tile, axis=1, func=ct.maximum, identity=-3.0e38), peak)
        ct.store(running_max, index=(row, j), tile=peaks)
        peak = ct.max(peaks, axis=1, keepdims=True)


KERNEL = prefix_scan
SIGNATURES = [
    signature(array(ct.float32, 2), array(ct.float32, 2), array(ct.float32, 2), 1024),
    signature(array(ct.int32, 2), array(ct.float32, 2), array(ct.float32, 2), 256),
]
