"""tanh-GELU followed by hash-based dropout: transcendental math, uint32 bit ops, rounding."""

import math

import cuda.tile as ct
from _common import array, scalar, signature

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def _hash_u32(x):
    # Small integer mixer (xorshift-multiply), applied element-wise.
    x = x ^ (x >> 16)
    x = x * 0x7FEB352D
    x = x ^ (x >> 15)
    x = x * 0x846CA68B
    return x ^ (x >> 16)


@ct.kernel
def gelu_dropout(x, y, seed, keep_prob, TILE: ct.Constant[int]):
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    v = ct.astype(v, ct.float32)
    inner = SQRT_2_OVER_PI * (v + 0.044715 * v * v * v)
    gelu = 0.5 * v * (1.0 + ct.tanh(inner))

    lane = ct.astype(pid * TILE + ct.arange(TILE, dtype=ct.int32), ct.uint32)
    bits = _hash_u32(lane ^ ct.astype(seed, ct.uint32))
    uniform = ct.astype(bits >> 8, ct.float32) * (1.0 / (1 << 24))
    scaled = ct.truediv(gelu, keep_prob, rounding_mode=ct.RoundingMode.APPROX)
    kept = ct.where(uniform < keep_prob, scaled, 0.0)
    ct.store(y, index=(pid,), tile=ct.astype(kept, y.dtype, rounding_mode=ct.RoundingMode.RN))


KERNEL = gelu_dropout
SIGNATURES = [
    signature(array(ct.bfloat16, 1), array(ct.bfloat16, 1), scalar(ct.int32), scalar(ct.float32), 1024),
]
