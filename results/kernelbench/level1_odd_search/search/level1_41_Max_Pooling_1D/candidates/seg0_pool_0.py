"""Segment 0: max pool 2d, kernel [1, 8], of f32[64, 192, 65536].

Written by kernelopt from the pool recipe (python/kernelopt/recipes/pool.py).
"""

from kernelopt.recipes.pool import max_pool


def run(inputs, outputs):
    x = inputs["arg0_1"].unsqueeze(-2)
    (out,) = outputs.values()
    max_pool(x, out, [1, 8], [1, 1], [0, 4], [1, 3], rows=4, block=256, num_warps=4, ceil_mode=False)
