"""Batched matmul with the @ operator on 3-D tiles, bias epilogue and ReLU, int64 indexing."""

import cuda.tile as ct
from _common import array, signature


@ct.kernel
def bmm_bias_relu(a, b, bias, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    batch, pid_m, pid_n = ct.bid(0), ct.bid(1), ct.bid(2)
    acc = ct.zeros((1, BM, BN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=2, shape=(1, BM, BK))):
        a_tile = ct.load(a, index=(batch, pid_m, k), shape=(1, BM, BK), padding_mode=ct.PaddingMode.ZERO)
        b_tile = ct.load(b, index=(batch, k, pid_n), shape=(1, BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc += ct.astype(a_tile @ b_tile, ct.float32)
    bias_tile = ct.astype(ct.load(bias, index=(pid_n,), shape=(BN,)), ct.float32)
    out = ct.maximum(acc + bias_tile[None, None, :], 0.0)
    ct.store(c, index=(batch, pid_m, pid_n), tile=ct.astype(out, c.dtype))


KERNEL = bmm_bias_relu
SIGNATURES = [
    signature(
        array(ct.float16, 3, index_dtype=ct.int64),
        array(ct.float16, 3, index_dtype=ct.int64),
        array(ct.float16, 1),
        array(ct.float16, 3, index_dtype=ct.int64),
        64,
        64,
        32,
    ),
]
