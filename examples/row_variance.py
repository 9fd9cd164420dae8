"""Unbiased variance of each row of a 4096 x 8192 matrix.

Written for kernelopt in KernelBench's format: the problem of the planted candidates
bad_naive_variance.py and good_two_pass_variance.py. Inductor compiles it to one Welford
reduction: one segment, seg0, one input (x, 128 MiB) and one output (4096 variances).
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.var(x, dim=1)


def get_inputs():
    return [torch.randn(4096, 8192)]


def get_init_inputs():
    return []
