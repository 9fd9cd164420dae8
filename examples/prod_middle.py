"""Product over the middle dimension of a 64 x 48 x 30000 tensor of values near 1.

Written for kernelopt in KernelBench's format. Values in [0.9, 1.1] keep 48-term products finite.
One segment: one input (about 370 MB, float32), one output (64 x 30000).
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.prod(x, dim=self.dim)


def get_inputs():
    return [0.9 + 0.2 * torch.rand(64, 48, 30000)]


def get_init_inputs():
    return [1]
