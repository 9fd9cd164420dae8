"""KernelBench level 1, problem 51 (Argmax over dim 1 of a [B, R, C] tensor): seg0, through the
reduce_dim recipe (`python/kernelopt/recipes/reduce_dim.py`): one program per batch and block of
contiguous columns, [ROWS_PER_STEP, COLS_PER_PROGRAM] tiles walked down the reduced dimension.
The launch constants below were chosen on the H200 by `scripts/gpu/reduce_dim_variants.py`.
"""

from kernelopt.recipes.reduce_dim import reduce_dim

DIM = 1
OP = "argmax"
ROWS_PER_STEP = 8
COLS_PER_PROGRAM = 128
NUM_WARPS = 4


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    reduce_dim(x, out, DIM, OP, ROWS_PER_STEP, COLS_PER_PROGRAM, NUM_WARPS)
