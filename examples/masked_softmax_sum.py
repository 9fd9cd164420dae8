"""A masked softmax over rows followed by a weighted row sum: two reductions Inductor fuses.

Written for kernelopt in KernelBench's format.
"""

import torch
import torch.nn as nn

ROWS = 2048
COLS = 8192


class Model(nn.Module):
    def __init__(self, temperature: float):
        super().__init__()
        self.temperature = temperature

    def forward(self, scores: torch.Tensor, mask: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
        scores = scores.masked_fill(~mask, float("-inf")) / self.temperature
        weights = torch.softmax(scores, dim=-1)
        return (weights * values).sum(dim=-1)


def get_inputs():
    scores = torch.randn(ROWS, COLS)
    mask = torch.rand(ROWS, COLS) > 0.1
    mask[:, 0] = True  # every row keeps at least one column
    values = torch.randn(ROWS, COLS)
    return [scores, mask, values]


def get_init_inputs():
    return [0.7]
