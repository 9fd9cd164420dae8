"""Segment 0: torch.ops.aten.argmax.default over dim 1 of f32[128, 4096, 4095].

Written by kernelopt from the reduce_dim recipe (python/kernelopt/recipes/reduce_dim.py).
"""

from kernelopt.recipes.reduce_dim import reduce_dim


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    reduce_dim(x, out, 1, "argmax", 8, 128, 4)
