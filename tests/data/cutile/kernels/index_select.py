"""Row index_select with load/store_advanced_indexing (sparse row dim, dense column slice)."""

import cuda.tile as ct
from _common import array, signature


@ct.kernel
def index_select(src, row_ids, dst, ROWS: ct.Constant[int], COLS: ct.Constant[int]):
    block = ct.bid(0)
    col_block = ct.bid(1)
    rows = ct.load(row_ids, index=(block,), shape=(ROWS,), padding_mode=ct.PaddingMode.ZERO)
    cols = ct.Slice(col_block * COLS, COLS)
    picked = ct.load_advanced_indexing(src, (rows, cols), padding_mode=ct.PaddingMode.ZERO)
    out_rows = block * ROWS + ct.arange(ROWS, dtype=ct.int32)
    ct.store_advanced_indexing(dst, (out_rows, cols), picked * 2)


KERNEL = index_select
SIGNATURES = [
    signature(array(ct.float32, 2), array(ct.int32, 1), array(ct.float32, 2), 16, 64),
]
