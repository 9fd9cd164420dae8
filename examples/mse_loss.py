"""Mean squared error between two 30000 x 7000 tensors, reduced to one number.

Written for kernelopt in KernelBench's format: a loss that is an elementwise expression summed
over the whole tensor. One segment: two inputs (840 MB each, float32), a scalar output.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean((predictions - targets) ** 2)


def get_inputs():
    return [torch.randn(30000, 7000), torch.randn(30000, 7000)]


def get_init_inputs():
    return []
