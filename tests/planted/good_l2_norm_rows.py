"""GOOD (for examples/l2_norm_rows.py): L2 normalization of long rows through the row_two_pass
recipe: persistent programs, so a row is still in L2 when the second pass reads it; the second
pass walked backward; rows split into a scalar head, 16-byte-aligned unmasked chunks and a masked
tail. Must pass every gate, G4 included (ratio >= 0.97).

The constants below are chosen on the H200 by scripts/gpu/row_two_pass_variants.py.
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
