"""A convolution (cuDNN, kept as is) followed by BatchNorm, ReLU and 2x2 max pooling (Triton).

Written for kernelopt in KernelBench's format. The convolution splits the model's Triton work
into segments: what comes before it and the epilogue after it.
"""

import torch
import torch.nn as nn

BATCH = 8
CHANNELS_IN = 32
CHANNELS_OUT = 64
SIZE = 96


class Model(nn.Module):
    def __init__(self, c_in: int, c_out: int):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, kernel_size=3, padding=1)
        self.bn = nn.BatchNorm2d(c_out)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(torch.relu(self.bn(self.conv(x))))


def get_inputs():
    return [torch.randn(BATCH, CHANNELS_IN, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS_IN, CHANNELS_OUT]
