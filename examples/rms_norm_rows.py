"""nn.RMSNorm over long rows, with its learned weight: 1536 rows of 40000 float32.

Written for kernelopt in KernelBench's format. A row is 160 KB, too long to keep on chip in one
program, so the compiler's kernel reads it twice; the weight is drawn at random so that it
matters. About 246 MB in, as much out.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features: int = 40000, eps: float = 1e-5):
        super().__init__()
        self.norm = nn.RMSNorm(features, eps=eps)
        with torch.no_grad():
            self.norm.weight.copy_(torch.rand(features) + 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


def get_inputs():
    return [torch.randn(1536, 40000)]


def get_init_inputs():
    return [40000, 1e-5]
