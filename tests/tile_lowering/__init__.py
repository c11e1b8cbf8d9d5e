"""Tests of the tile lowering: cuda_tile -> tileaa -> gpu (tile to threads), the per-entry cache,
and the SIMT simulator that runs the gpu stage's kernels without a GPU (simt.py, hardware.py)."""
