"""Triton recipes: kernels for families of operations, general in shape, stride and float dtype.

Candidates import them (`from kernelopt.recipes.reduce_dim import reduce_dim`); the optimized
module's loader runs where `kernelopt` is importable, so a candidate that uses a recipe keeps
working after it is copied into `optimized/`.
"""
