"""Average pooling, 3D: 2 x 2 x 2 windows, stride 2, over a 6 x 20 x 50 x 70 x 90 tensor.

Written for kernelopt in KernelBench's format. One segment: one input (about 150 MB, float32),
one output.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int = 2, stride: int = 2):
        super().__init__()
        self.pool = nn.AvgPool3d(kernel_size, stride=stride)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    return [torch.randn(6, 20, 50, 70, 90)]


def get_init_inputs():
    return [2, 2]
