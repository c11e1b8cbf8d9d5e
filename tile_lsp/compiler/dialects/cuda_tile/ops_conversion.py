"""cuda_tile ops: conversion family (see ARCHITECTURE.md, "Adding an op").

Each op class carries its syntax, type constraints and NVIDIA-worded checks.
"""

from __future__ import annotations

from xdsl.ir import Operation

OPS: list[type[Operation]] = []
