"""Softmax over each row of a 4096 x 8192 matrix.

Written for kernelopt in KernelBench's format: the problem of the planted candidates
bad_unshifted_softmax.py and good_row_softmax.py. One segment, seg0: one input (x, 128 MiB), one
output (the probabilities, 128 MiB).
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=1)


def get_inputs():
    return [torch.randn(4096, 8192)]


def get_init_inputs():
    return []
