"""Segment 0: max pool 3d, kernel [3, 3, 3], of f32[16, 32, 128, 128, 128].

Written by kernelopt from the pool recipe (python/kernelopt/recipes/pool.py).
"""

from kernelopt.recipes.pool import max_pool


def run(inputs, outputs):
    x = inputs["arg0_1"]
    (out,) = outputs.values()
    max_pool(x, out, [3, 3, 3], [2, 2, 2], [1, 1, 1], [3, 3, 3], rows=1, block=1024, num_warps=4, ceil_mode=False)
