"""C = A @ B with ct.mma over a K loop, grouped (swizzled) tile order, f32 accumulator."""

import cuda.tile as ct
from _common import array, signature


@ct.kernel
def gemm(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int], GROUP_M: ct.Constant[int]):
    pid = ct.bid(0)
    tiles_m = ct.num_tiles(c, axis=0, shape=(BM, BN))
    tiles_n = ct.num_tiles(c, axis=1, shape=(BM, BN))
    group_size = GROUP_M * tiles_n
    first_m = (pid // group_size) * GROUP_M
    rows_in_group = min(tiles_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group_size) % rows_in_group
    pid_n = (pid % group_size) // rows_in_group

    acc = ct.zeros((BM, BN), dtype=ct.float32)
    zero = ct.PaddingMode.ZERO
    for k in range(ct.num_tiles(a, axis=1, shape=(BM, BK))):
        a_tile = ct.load(a, index=(pid_m, k), shape=(BM, BK), padding_mode=zero)
        b_tile = ct.load(b, index=(k, pid_n), shape=(BK, BN), padding_mode=zero)
        if a.dtype == ct.float32:
            a_tile = ct.astype(a_tile, ct.tfloat32)
            b_tile = ct.astype(b_tile, ct.tfloat32)
        acc = ct.mma(a_tile, b_tile, acc)
    ct.store(c, index=(pid_m, pid_n), tile=ct.astype(acc, c.dtype))


KERNEL = gemm
SIGNATURES = [
    signature(array(ct.float16, 2), array(ct.float16, 2), array(ct.float16, 2), 128, 128, 64, 8),
    signature(array(ct.bfloat16, 2), array(ct.bfloat16, 2), array(ct.float32, 2), 128, 256, 64, 8),
    signature(array(ct.float32, 2), array(ct.float32, 2), array(ct.float32, 2), 64, 64, 32, 4),
    signature(array(ct.float8_e4m3fn, 2), array(ct.float8_e4m3fn, 2), array(ct.float16, 2), 128, 128, 128, 8),
]
