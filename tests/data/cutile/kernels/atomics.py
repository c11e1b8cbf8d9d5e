"""Histogram with atomic_add, global maximum with atomic_max, first-finisher via atomic_cas."""

import cuda.tile as ct
from _common import array, signature


@ct.kernel
def histogram(values, bins, global_max, winner, done_count, TILE: ct.Constant[int]):
    pid = ct.bid(0)
    n_bins = bins.shape[0]
    offsets = pid * TILE + ct.arange(TILE, dtype=ct.int32)
    in_range = offsets < values.shape[0]
    vals = ct.gather(values, offsets, mask=in_range, padding_value=0)

    bucket = ct.minimum(ct.maximum(vals, 0), n_bins - 1)
    ct.atomic_add(bins, bucket, ct.where(in_range, 1, 0))

    ct.atomic_max(global_max, 0, ct.max(vals))

    # The first block to claim slot 0 records its id; others see a non-(-1) old value.
    old = ct.atomic_cas(winner, 0, -1, pid)
    if old == -1:
        ct.atomic_add(done_count, 0, 1, memory_order=ct.MemoryOrder.RELAXED)


KERNEL = histogram
SIGNATURES = [
    signature(array(ct.int32, 1), array(ct.int32, 1), array(ct.int32, 1), array(ct.int32, 1), array(ct.int32, 1), 1024),
]
