"""The largest value of each row of an 8192 x 8192 matrix (NaN wins, as in PyTorch).

Written for kernelopt in KernelBench's format: the problem of the planted candidates
bad_max_drops_nan.py and good_row_max_nan.py. One segment, seg0: one input (x, 256 MiB), one
output (8192 maxima).
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.amax(x, dim=1)


def get_inputs():
    return [torch.randn(8192, 8192)]


def get_init_inputs():
    return []
