"""Debugging aids: ct.assert_, ct.printf and ct.print on a partial row sum."""

import cuda.tile as ct
from _common import array, signature


@ct.kernel
def debug_print(x, out, TILE: ct.Constant[int]):
    pid = ct.bid(0)
    tile = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.assert_(tile >= 0, "inputs must be non-negative")
    total = ct.sum(tile)
    if pid == 0:
        ct.printf("block %d partial sum %f\n", pid, total)
    ct.print(f"pid={pid} max={ct.max(tile)}")
    ct.store(out, index=(pid,), tile=total)


KERNEL = debug_print
SIGNATURES = [signature(array(ct.float32, 1), array(ct.float32, 1), 256)]
