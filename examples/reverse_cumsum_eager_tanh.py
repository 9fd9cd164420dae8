"""A reverse cumulative sum along rows, an eager tanh the compiler may not trace, and a row
centering after it.

`torch.compile` makes two graphs of this model (the scaled reverse scan; the centering) with the
tanh run eagerly between them (`torch._dynamo.disable`), so part of the model's GPU time is
outside the graphs the baseline replays. Unlike `softmax_eager_tanh_center.py`, whose kernels
sit near their floors, the first graph is a scan read through a flip, where Inductor's kernel
leaves room: a replacement found there must be reported at the whole model's ratio, not the
graphs' (docs/design-notes.md, "Time outside the compiled graphs counts";
results/optimize/graph-break/).

Written for kernelopt in KernelBench's format.
"""

import math

import torch
import torch.nn as nn

ROWS = 6144
COLS = 10240


@torch._dynamo.disable
def _eager_tanh(x: torch.Tensor) -> torch.Tensor:
    return torch.tanh(x)


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.shape[self.dim]
        suffix = torch.cumsum(x.flip(self.dim), dim=self.dim).flip(self.dim) / math.sqrt(n)
        z = _eager_tanh(suffix)
        return z - z.mean(dim=self.dim, keepdim=True)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return [1]
