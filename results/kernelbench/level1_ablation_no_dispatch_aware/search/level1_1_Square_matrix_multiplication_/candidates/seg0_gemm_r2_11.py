"""Segment 0: extern mm into float32[4096, 4096] of arg0_1, arg1_1.

Written by kernelopt from the gemm recipe (python/kernelopt/recipes/gemm.py).
"""

from kernelopt.recipes.gemm import gemm, view


def run(inputs, outputs):
    a = inputs["arg0_1"]
    b = inputs["arg1_1"]
    bias = None
    out = outputs["buf0"]
    gemm(a, b, out, bias, 1, 1, block_m=64, block_n=128, block_k=32,
         group_m=8, num_warps=8, num_stages=4)
