"""nn.RMSNorm over 8192 rows of 4096 float32, its weight left at its initial value (all ones).

Written for kernelopt in KernelBench's format: the problem of the planted candidates
bad_ignores_norm_weight.py, bad_mutates_parameter.py and good_rms_norm_weight.py. A kernel that
never reads the weight is right at initialisation and wrong for any trained model. One segment,
seg0: inputs x (128 MiB) and the weight, one output.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features: int = 4096):
        super().__init__()
        self.norm = nn.RMSNorm(features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


def get_inputs():
    return [torch.randn(8192, 4096)]


def get_init_inputs():
    return [4096]
