"""Row-wise LayerNorm with affine weight/bias; columns are walked in BLOCK_N chunks."""

import cuda.tile as ct
from _common import array, scalar, signature


@ct.function
def _load_f32(arr, index, shape):
    return ct.astype(ct.load(arr, index=index, shape=shape, padding_mode=ct.PaddingMode.ZERO), ct.float32)


@ct.kernel
def layernorm(x, weight, bias, y, mean_out, rstd_out, eps, BLOCK_N: ct.Constant[int]):
    row = ct.bid(0)
    n_cols = x.shape[1]
    n_chunks = ct.num_tiles(x, axis=1, shape=(1, BLOCK_N))

    acc = ct.zeros((1, BLOCK_N), dtype=ct.float32)
    for j in range(n_chunks):
        acc += _load_f32(x, (row, j), (1, BLOCK_N))
    mean = ct.sum(acc, axis=1) / n_cols

    acc = ct.zeros((1, BLOCK_N), dtype=ct.float32)
    for j in range(n_chunks):
        cols = j * BLOCK_N + ct.arange(BLOCK_N, dtype=ct.int32)
        centered = ct.where(cols < n_cols, _load_f32(x, (row, j), (1, BLOCK_N)) - mean, 0.0)
        acc += centered * centered
    rstd = ct.rsqrt(ct.sum(acc, axis=1) / n_cols + eps)

    ct.store(mean_out, index=(row,), tile=mean)
    ct.store(rstd_out, index=(row,), tile=rstd)

    for j in range(n_chunks):
        w = _load_f32(weight, (j,), (BLOCK_N,))
        b = _load_f32(bias, (j,), (BLOCK_N,))
        out = (_load_f32(x, (row, j), (1, BLOCK_N)) - mean) * rstd * w + b
        ct.store(y, index=(row, j), tile=ct.astype(out, y.dtype))


KERNEL = layernorm
SIGNATURES = [
    signature(
        array(ct.float16, 2),
        array(ct.float16, 1),
        array(ct.float16, 1),
        array(ct.float16, 2),
        array(ct.float32, 1),
        array(ct.float32, 1),
        scalar(ct.float32),
        512,
    ),
]
