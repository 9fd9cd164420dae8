"""KernelBench level 1, problem 39 (x / torch.norm(x, p=2, dim=1, keepdim=True), rows of 65535
floats): seg0 through the row_two_pass recipe (`python/kernelopt/recipes/row_two_pass.py`):
persistent programs so a row is still in L2 when the second pass reads it, the second pass walked
backward, and rows split into a head, 16-byte-aligned unmasked chunks and a tail (a row of 65535
floats starts at every 16-byte phase, which makes Inductor's loads scalar).
The launch constants below are chosen on the H200 by `scripts/gpu/row_two_pass_variants.py`.
"""

from kernelopt.recipes.row_two_pass import row_two_pass

OP = "l2_normalize"
BLOCK = 4096
NUM_WARPS = 16
PROGRAMS_PER_SM = 0
REVERSE = 1


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    row_two_pass(x, out, OP, BLOCK, NUM_WARPS, PROGRAMS_PER_SM, REVERSE)
