"""The cuda_tile dialect (Tile IR 13.1-13.3) in xDSL: types, attributes, ops, syntax.

Import `dialect` for the op list; this package init stays empty to avoid import cycles.
"""
