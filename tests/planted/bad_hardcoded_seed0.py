"""BAD (G2 isolated -> wrong_result, on seeds 1 and 2): returns the row sums of seed 0's input,
hard-coded, whatever x holds: its kernel copies a constant table into `out`.

The table stands for a literal list of 8192 numbers pasted into the file (too long to keep here):
it is built once, from the input the problem draws for seed 0 (torch.manual_seed(0), then
get_inputs()'s torch.rand(n_rows, n_cols) on the CPU), the way an answer key would be. Seed 0 is
right; on seeds 1 and 2 a row differs by N(0, 37^2) (sqrt(2 * 8192 / 12) ~ 37), more than G2's
~4.1 for ~91% of the rows, so G2 reports wrong_result on seed 1. This is why G2 checks several seeds.

Note: the SHAPE is legitimately fixed: KernelBench problems draw every seed with the same shapes
and the graph is compiled for static shapes, so a candidate may specialize on 8192 x 8192 (this
one only reads it from x). Hard-coding input VALUES is the defect.
"""
import torch
import triton
import triton.language as tl

BLOCK = 1024
_TABLE = {}


def _seed0_row_sums(n_rows, n_cols):
    """The row sums of seed 0's input: what an answer key pasted into the file would hold."""
    if (n_rows, n_cols) not in _TABLE:
        g = torch.Generator().manual_seed(0)
        _TABLE[n_rows, n_cols] = torch.rand(n_rows, n_cols, generator=g).sum(1)
    return _TABLE[n_rows, n_cols]


@triton.jit
def _copy(table_ptr, out_ptr, n, out_stride, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.store(out_ptr + i * out_stride, tl.load(table_ptr + i, mask=m), mask=m)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    table = _seed0_row_sums(n_rows, n_cols).to(out.device)  # the defect: x is never read
    _copy[(triton.cdiv(n_rows, BLOCK),)](table, out, n_rows, out.stride(0), BLOCK=BLOCK)
