"""Average pooling, 1D: windows of 5, stride 3, no padding, over a 96 x 40 x 30001 tensor.

Written for kernelopt in KernelBench's format (a row length that no power of two divides). One
segment: one input (about 460 MB, float32), one output.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int = 5, stride: int = 3):
        super().__init__()
        self.pool = nn.AvgPool1d(kernel_size, stride=stride)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    return [torch.randn(96, 40, 30001)]


def get_init_inputs():
    return [5, 3]
