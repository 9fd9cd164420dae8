"""L2 normalization of long rows: x / torch.norm(x, p=2, dim=1, keepdim=True), x of 4096 x 65533.

Written for kernelopt in KernelBench's format; the problem of the planted suite's good candidates
that must beat the compiler (tests/planted/good_l2_norm_rows.py). A row (256 KiB) is too long to
stay on chip, so any kernel reads it twice; the row length is odd, so row starts fall on every
16-byte phase and plain vector loads are impossible. Inductor compiles it to one looped reduction
kernel: one segment, seg0, one input, one output (1 GiB each).
"""

import torch
import torch.nn as nn

ROWS = 4096
COLS = 65533


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / torch.norm(x, p=2, dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
