"""Mean over the middle dimension of a 48 x 1500 x 2100 tensor.

Written for kernelopt in KernelBench's format: a reduction over a dimension that is not the
innermost. One segment: one input (about 600 MB, float32), one output (48 x 2100).
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.mean(x, dim=self.dim)


def get_inputs():
    return [torch.randn(48, 1500, 2100)]


def get_init_inputs():
    return [1]
