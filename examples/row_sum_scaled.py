"""Row sums of a 2047 x 4096 matrix whose rows span eleven orders of magnitude.

Written for kernelopt in KernelBench's format: the problem of the planted candidates
bad_flushes_small_rows.py and bad_reads_past_the_end.py. Row r holds U(0, 1) values times
10^(-7 + 11 r / 2046), so the sums run from about 2e-4 to 2e7: an error that is large for a small
row is tiny next to the rounding of the largest ones. 2047 rows: the input's 32 MiB less 16 KiB,
so PyTorch's allocator leaves room after it. One segment, seg0: one input, one output (2047
sums).
"""

import torch
import torch.nn as nn

ROWS = 2047
COLS = 4096


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.sum(dim=1)


def get_inputs():
    return [torch.rand(ROWS, COLS) * torch.logspace(-7, 4, ROWS)[:, None]]


def get_init_inputs():
    return []
