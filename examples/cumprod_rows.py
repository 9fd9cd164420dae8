"""Cumulative product along the rows of a 6000 x 12000 tensor of values near 1.

Written for kernelopt in KernelBench's format (a scan with another combine than the sum). Values
in [0.999, 1.001] keep 12000-term products finite. One segment: one input (288 MB, float32), one
output.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumprod(x, dim=self.dim)


def get_inputs():
    return [0.999 + 0.002 * torch.rand(6000, 12000)]


def get_init_inputs():
    return [1]
