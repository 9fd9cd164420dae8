"""LayerNorm over the last dimension, GELU, then a residual add: all Inductor Triton.

Written for kernelopt in KernelBench's format (Model, get_inputs, get_init_inputs).
"""

import torch
import torch.nn as nn

ROWS = 4096
HIDDEN = 4096


class Model(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.norm = nn.LayerNorm(hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + torch.nn.functional.gelu(self.norm(x))


def get_inputs():
    return [torch.randn(ROWS, HIDDEN)]


def get_init_inputs():
    return [HIDDEN]
