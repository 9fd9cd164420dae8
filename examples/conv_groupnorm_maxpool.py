"""A convolution followed by GroupNorm, a per-channel scale, 3x3 max pooling and a clamp.

Written for kernelopt in KernelBench's format, on sizes KernelBench does not use (12 groups of 4
channels, an odd 88 x 88 output, a 3x3 window), as a problem for the `fuse` rewrite
(docs/candidates.md). On the H200 Inductor's max-autotune chooses its own Triton convolution
template at these sizes, so the whole model is one segment of eight Triton launches (0.117 ms):
the group-normalized tensor is written in place and read back by the pool, as fuse wants. Fuse
relaunches the segment's other kernels, the template as Inductor launched it, and matches
(tests/unit/rewrite_test.cpp).
"""

import torch
import torch.nn as nn

BATCH = 8
CHANNELS_IN = 16
CHANNELS_OUT = 48
GROUPS = 12
SIZE = 90


class Model(nn.Module):
    def __init__(self, c_in: int, c_out: int, groups: int):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, kernel_size=3)
        self.norm = nn.GroupNorm(groups, c_out)
        self.scale = nn.Parameter(torch.rand(c_out, 1, 1) + 0.5)
        self.pool = nn.MaxPool2d(3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.clamp(self.pool(self.norm(self.conv(x)) * self.scale), -1.0, 1.0)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS_IN, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS_IN, CHANNELS_OUT, GROUPS]
