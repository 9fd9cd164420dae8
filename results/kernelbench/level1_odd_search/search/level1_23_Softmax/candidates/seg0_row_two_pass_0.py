"""Segment 0: softmax over the last dim of f32[4096, 393216] (torch.ops.prims.prepare_softmax_online.default).

Written by kernelopt from the row_two_pass recipe (python/kernelopt/recipes/row_two_pass.py).
"""

from kernelopt.recipes.row_two_pass import row_two_pass


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n = x.shape[-1]
    row_two_pass(x.view(-1, n), out.view(-1, n), "softmax", 4096, 16, 0, 1)
