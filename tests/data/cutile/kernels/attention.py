"""Flash-attention style forward pass: QK^T, online softmax and PV over KV blocks."""

import math

import cuda.tile as ct
from _common import array, scalar, signature

LOG2E = 1.0 / math.log(2)


@ct.kernel
def attention_fwd(
    q,
    k,
    v,
    o,
    sm_scale,
    BLOCK_M: ct.Constant[int],
    BLOCK_N: ct.Constant[int],
    HEAD_DIM: ct.Constant[int],
    CAUSAL: ct.Constant[bool],
):
    m_block = ct.bid(0)
    head = ct.bid(1)
    seq_kv = k.shape[1]
    qk_scale = sm_scale * LOG2E

    q_tile = ct.load(q, index=(head, m_block, 0), shape=(1, BLOCK_M, HEAD_DIM), padding_mode=ct.PaddingMode.ZERO)
    q_tile = ct.reshape(q_tile, (BLOCK_M, HEAD_DIM))

    row_max = ct.full((BLOCK_M, 1), -math.inf, dtype=ct.float32)
    row_sum = ct.zeros((BLOCK_M, 1), dtype=ct.float32)
    acc = ct.zeros((BLOCK_M, HEAD_DIM), dtype=ct.float32)

    q_pos = m_block * BLOCK_M + ct.arange(BLOCK_M, dtype=ct.int32)[:, None]
    if CAUSAL:
        kv_end = ct.cdiv(min((m_block + 1) * BLOCK_M, seq_kv), BLOCK_N)
    else:
        kv_end = ct.cdiv(seq_kv, BLOCK_N)

    for j in range(kv_end):
        # K is loaded transposed: (HEAD_DIM, BLOCK_N).
        k_t = ct.load(
            k, index=(head, 0, j), shape=(1, HEAD_DIM, BLOCK_N), order=(0, 2, 1), padding_mode=ct.PaddingMode.ZERO
        )
        k_t = ct.reshape(k_t, (HEAD_DIM, BLOCK_N))
        scores = ct.mma(q_tile, k_t, ct.zeros((BLOCK_M, BLOCK_N), dtype=ct.float32))
        kv_pos = j * BLOCK_N + ct.arange(BLOCK_N, dtype=ct.int32)[None, :]
        valid = kv_pos < seq_kv
        if CAUSAL:
            valid = valid & (kv_pos <= q_pos)
        scores = ct.where(valid, scores * qk_scale, -math.inf)

        new_max = ct.maximum(row_max, ct.max(scores, axis=1, keepdims=True))
        p = ct.exp2(scores - new_max)
        correction = ct.exp2(row_max - new_max)
        row_sum = row_sum * correction + ct.sum(p, axis=1, keepdims=True)
        v_tile = ct.load(v, index=(head, j, 0), shape=(1, BLOCK_N, HEAD_DIM), padding_mode=ct.PaddingMode.ZERO)
        v_tile = ct.reshape(v_tile, (BLOCK_N, HEAD_DIM))
        acc = ct.mma(ct.astype(p, v.dtype), v_tile, acc * correction)
        row_max = new_max

    out = ct.reshape(ct.astype(acc / row_sum, o.dtype), (1, BLOCK_M, HEAD_DIM))
    ct.store(o, index=(head, m_block, 0), tile=out)


KERNEL = attention_fwd
SIGNATURES = [
    signature(*(array(ct.float16, 3) for _ in range(4)), scalar(ct.float32), 128, 64, 64, True),
    signature(*(array(ct.bfloat16, 3) for _ in range(4)), scalar(ct.float32), 64, 64, 128, False),
]
