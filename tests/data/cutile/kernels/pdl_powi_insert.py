"""A dependent-launch kernel (13.4): waits for its predecessor grid, raises each element to an
integer power, writes one sub-tile of the row back over a scaled copy (`insert`), then lets its
successor start. The loads skip the bounds check (`check_bounds=False`)."""

import cuda.tile as ct
from _common import array, scalar, signature


@ct.kernel
def pdl_powi_insert(x, y, n, TILE: ct.Constant[int], SUB: ct.Constant[int]):
    ct.grid_dependency_control_wait()
    pid = ct.bid(0)
    row = ct.load(x, index=(pid,), shape=(TILE,), check_bounds=False)
    powered = row**n
    head = ct.extract(powered, index=(0,), shape=(SUB,))
    out = ct.insert(row * 2.0, index=(1,), value=head)
    ct.grid_dependency_control_launch_dependents()
    ct.store(y, index=(pid,), tile=out, check_bounds=False)


KERNEL = pdl_powi_insert
SIGNATURES = [
    signature(array(ct.float32, 1), array(ct.float32, 1), scalar(ct.int32), 256, 64),
    signature(array(ct.float16, 1), array(ct.float16, 1), scalar(ct.int16), 128, 32),
]
