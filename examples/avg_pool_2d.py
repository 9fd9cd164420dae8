"""Average pooling, 2D: 3 x 3 windows, stride 2, padding 1, over a 24 x 48 x 200 x 152 tensor.

Written for kernelopt in KernelBench's format: a pooling problem the avg_pool recipe should match
(padding counted in the divisor, PyTorch's default). One segment: one input (about 140 MB,
float32), one output.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int = 3, stride: int = 2, padding: int = 1):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    return [torch.randn(24, 48, 200, 152)]


def get_init_inputs():
    return [3, 2, 1]
