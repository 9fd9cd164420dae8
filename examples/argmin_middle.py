"""Argmin over the middle dimension of a 20 x 3000 x 6001 tensor.

Written for kernelopt in KernelBench's format. One segment: one input (about 1.4 GB, float32),
one output (int64 indices, 20 x 6001).
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmin(x, dim=self.dim)


def get_inputs():
    return [torch.randn(20, 3000, 6001)]


def get_init_inputs():
    return [1]
