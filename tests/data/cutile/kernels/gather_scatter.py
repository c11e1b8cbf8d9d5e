"""Embedding lookup via ct.gather, then scatter of scaled rows to permuted positions."""

import cuda.tile as ct
from _common import array, scalar, signature


@ct.kernel
def gather_scatter(table, ids, dest_rows, out, scale, ROWS: ct.Constant[int], DIM: ct.Constant[int]):
    pid = ct.bid(0)
    n_ids = ids.shape[0]
    pos = pid * ROWS + ct.arange(ROWS, dtype=ct.int32)
    live = pos < n_ids

    token = ct.gather(ids, pos, mask=live, padding_value=0)
    dest = ct.gather(dest_rows, pos, mask=live, padding_value=-1)
    cols = ct.arange(DIM, dtype=ct.int32)[None, :]

    rows = ct.gather(table, (token[:, None], cols), mask=live[:, None], padding_value=0.0)
    scaled = ct.astype(ct.astype(rows, ct.float32) * scale, out.dtype)
    ct.scatter(out, (dest[:, None], cols), scaled, mask=live[:, None] & (dest[:, None] >= 0))


KERNEL = gather_scatter
SIGNATURES = [
    signature(
        array(ct.float16, 2), array(ct.int32, 1), array(ct.int32, 1), array(ct.float16, 2), scalar(ct.float32), 32, 128
    ),
    signature(
        array(ct.float32, 2, index_dtype=ct.int64),
        array(ct.int64, 1),
        array(ct.int64, 1),
        array(ct.float32, 2, index_dtype=ct.int64),
        scalar(ct.float32),
        16,
        64,
    ),
]
