"""A Linear layer with bias followed by GELU in its tanh form, in float32: the case of cuBLASLt's
fused epilogue (bias and GELU applied by the matrix product itself, `torch._addmm_activation`).

Inductor splits the addmm into `mm` plus a Triton kernel that adds the bias and applies GELU
(or, under max-autotune, may pick a Triton template with that epilogue fused). The tanh form is
chosen on purpose: cuBLASLt's GELU epilogue computes the tanh approximation, so only that form
can be fused without changing the model's arithmetic (the exact, erf GELU cannot).

Written for kernelopt in KernelBench's format (Model, get_inputs, get_init_inputs).
"""

import torch
import torch.nn as nn

BATCH = 8192
IN_FEATURES = 4096
OUT_FEATURES = 4096


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, bias=True)
        self.act = nn.GELU(approximate="tanh")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(self.linear(x))


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
