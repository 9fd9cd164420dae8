"""Segment 0: l2_normalize over the last dim of f32[4096, 65533] (pow, sum, pow 0.5, div).

Written by kernelopt from the row_two_pass recipe (python/kernelopt/recipes/row_two_pass.py).
"""

from kernelopt.recipes.row_two_pass import row_two_pass


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n = x.shape[-1]
    row_two_pass(x.view(-1, n), out.view(-1, n), "l2_normalize", 4096, 16, 0, 1)
