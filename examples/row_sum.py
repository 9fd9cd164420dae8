"""Row sums of an 8192 x 8192 matrix: the problem of the planted-candidate suite (tests/planted/).

Written for kernelopt in KernelBench's format. Inductor compiles it to one reduction kernel: one
segment, seg0, with one input (x) and one output (the 8192 row sums). Every seed draws x with the
same shape; 256 MiB are read once, so any good kernel is memory bound.
"""

import torch
import torch.nn as nn

ROWS = 8192
COLS = 8192


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.sum(dim=1)


def get_inputs():
    return [torch.rand(ROWS, COLS)]


def get_init_inputs():
    return []
