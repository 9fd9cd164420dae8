"""A convolution followed by GELU and a GroupNorm whose groups are too long for one program.

Written for kernelopt in KernelBench's format, on sizes KernelBench does not use (5 groups of 8
channels over a 98 x 98 output: 76832 elements per group, 6 samples), as a problem for the
`rewrite` proposer's shifted sums (docs/candidates.md). Inductor computes each group's statistics
in a looped reduction with a Welford update, one division per element behind the erf of the GELU;
shifted sums keep per-lane sums of the value and its square instead. KernelBench's L2/19 (a GELU
and a group norm after a transposed convolution) has the same statistics kernel
(results/kernelbench/l2-odd/).
"""

import torch
import torch.nn as nn

BATCH = 6
CHANNELS_IN = 12
CHANNELS_OUT = 40
GROUPS = 5
SIZE = 100


class Model(nn.Module):
    def __init__(self, c_in: int, c_out: int, groups: int):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, kernel_size=3)
        self.norm = nn.GroupNorm(groups, c_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(torch.nn.functional.gelu(self.conv(x)))


def get_inputs():
    return [torch.randn(BATCH, CHANNELS_IN, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS_IN, CHANNELS_OUT, GROUPS]
