"""Exclusive cumulative sum written as a shifted copy: cumsum(cat([0, x[:, :-1]]), 1), x of 3000 x 24000.

Written for kernelopt in KernelBench's format: out[i, j] = sum of x[i, :j], the idiom that shifts
the row right by one (a zero in front, the last element dropped) before an inclusive scan.
About 288 MB in, as much out.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shifted = torch.cat([torch.zeros_like(x[:, :1]), x[:, :-1]], dim=1)
        return torch.cumsum(shifted, dim=1)


def get_inputs():
    return [torch.rand(3000, 24000)]


def get_init_inputs():
    return []
