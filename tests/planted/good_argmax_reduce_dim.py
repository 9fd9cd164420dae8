"""GOOD (for examples/argmax_middle.py): argmax over the middle dimension through the reduce_dim
recipe (python/kernelopt/recipes/reduce_dim.py): [8, 128] tiles walked down the reduced dimension,
the setting that won for KernelBench L1/51's argmax on the H200 (1.090x,
results/gates/kernelbench/). Must pass every gate, G4 included (ratio >= 0.97).
"""

from kernelopt.recipes.reduce_dim import reduce_dim


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    reduce_dim(x, out, 1, "argmax", 8, 128, 4)
