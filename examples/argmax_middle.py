"""Argmax over the middle dimension of a 32 x 4096 x 4093 tensor.

Written for kernelopt in KernelBench's format; the problem of two planted candidates:
good_argmax_reduce_dim.py and bad_argmax_few_programs.py (too few programs at this shape).
Inductor flattens (batch, column) into one index and recovers both with a division and a modulo
for every element; rows of 4093 columns are odd. One
segment, seg0: one input (2 GiB, float32), one output (int64 indices, 32 x 4093).
"""

import torch
import torch.nn as nn

SHAPE = (32, 4096, 4093)


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmax(x, dim=1)


def get_inputs():
    return [torch.randn(*SHAPE)]


def get_init_inputs():
    return []
