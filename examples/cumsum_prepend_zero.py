"""A running sum with a zero in front: cumsum(cat([0, x]), 1), x of 2500 x 30001, out of 2500 x 30002.

Written for kernelopt in KernelBench's format: out[i, 0] = 0 and out[i, j] = sum of x[i, :j] for
j up to the row's length (offsets from lengths, as a prefix sum with its leading zero). About
300 MB in, as much out.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        zero = torch.zeros_like(x.select(1, 0).unsqueeze(1))
        return torch.cumsum(torch.cat((zero, x), dim=1), dim=1)


def get_inputs():
    return [torch.rand(2500, 30001)]


def get_init_inputs():
    return []
