"""Scalar control flow: per-block binary search (while + if/else) and an early-exit loop."""

import cuda.tile as ct
from _common import array, scalar, signature


@ct.kernel
def searchsorted(sorted_keys, queries, positions, first_over, threshold, MAX_STEPS: ct.Constant[int]):
    q = ct.bid(0)
    key = ct.load(queries, index=(q,), shape=())

    lo = 0
    hi = sorted_keys.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if ct.load(sorted_keys, index=(mid,), shape=()) < key:
            lo = mid + 1
        else:
            hi = mid
    ct.store(positions, index=(q,), tile=lo)

    # Walk forward from the insertion point until a key exceeds key + threshold.
    found = -1
    for step in range(MAX_STEPS):
        idx = lo + step
        if idx >= sorted_keys.shape[0]:
            break
        if ct.load(sorted_keys, index=(idx,), shape=()) - key <= threshold:
            continue
        found = idx
        break
    ct.store(first_over, index=(q,), tile=found)


KERNEL = searchsorted
SIGNATURES = [
    signature(
        array(ct.float32, 1), array(ct.float32, 1), array(ct.int32, 1), array(ct.int32, 1), scalar(ct.float32), 64
    ),
]
