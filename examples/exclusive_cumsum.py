"""Exclusive cumulative sum along the rows of a 5000 x 15000 tensor: out[i, j] = sum of x[i, :j].

Written for kernelopt in KernelBench's format: the exclusive scan written as the inclusive scan
minus the element. One segment: one input (300 MB, float32), one output.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x, dim=self.dim) - x


def get_inputs():
    return [torch.rand(5000, 15000)]


def get_init_inputs():
    return [1]
