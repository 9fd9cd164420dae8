"""L1 normalization of the rows of a 12000 x 20000 tensor: x / sum(|x|) over each row.

Written for kernelopt in KernelBench's format (the L1 sibling of l2_norm_rows.py). One segment:
one input (960 MB, float32), one output.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / torch.sum(torch.abs(x), dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(12000, 20000)]


def get_init_inputs():
    return []
