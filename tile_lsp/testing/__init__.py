"""Test support shared by the test suite and the conformance/benchmark scripts.

Pure functions over text; callers do the file I/O.
"""
