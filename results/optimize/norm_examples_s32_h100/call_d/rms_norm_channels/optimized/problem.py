"""RMS normalization over the channels of an image batch: x / sqrt(mean(x^2, dim=1) + eps).

Written for kernelopt in KernelBench's format: a norm over a dimension that is not the innermost
(each pixel's 80 channels, 9216 floats apart), no weight. x is 24 x 80 x 96 x 96 float32 (about
71 MB in, as much out).
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, eps: float = 1e-6):
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / torch.sqrt(torch.mean(x**2, dim=1, keepdim=True) + self.eps)


def get_inputs():
    return [torch.randn(24, 80, 96, 96)]


def get_init_inputs():
    return [1e-6]
