"""Exclusive cumulative sum written with a pad: cumsum(F.pad(x[:, :-1], (1, 0)), 1), x of 2000 x 20000.

Written for kernelopt in KernelBench's format: out[i, j] = sum of x[i, :j], the row shifted right
by one with a zero padded in front. About 160 MB in, as much out.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.pad(x[:, :-1], (1, 0)).cumsum(1)


def get_inputs():
    return [torch.randn(2000, 20000)]


def get_init_inputs():
    return []
