"""KernelBench level 1, problem 41 (MaxPool1d, kernel 8, stride 1, padding 4, dilation 3): seg0.

Inductor's kernel walks the output as one flat index and recovers (row, column) with a division
and a modulo by 65523 for every element, in 64-bit arithmetic. This one tiles rows x columns, so
no division is left, and loads each of the 8 window taps for a whole column block at once.
Generic in the shapes and in kernel/stride/padding/dilation (read from the module constants
below, which must match the problem's MaxPool1d).
"""

import triton
import triton.language as tl

KERNEL_SIZE = 8
STRIDE = 1
PADDING = 4
DILATION = 3


@triton.jit
def _max_pool_1d(x_ptr, out_ptr, n_rows, len_in, len_out, x_row_stride, out_row_stride,
                 KSIZE: tl.constexpr, STEP: tl.constexpr, PAD: tl.constexpr, DIL: tl.constexpr,
                 ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(1) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)[None, :]
    row_ok = rows < n_rows
    out_ok = row_ok & (cols < len_out)
    base = x_ptr + rows.to(tl.int64) * x_row_stride
    best = tl.full([ROWS, BLOCK], float("-inf"), tl.float32)
    for k in tl.static_range(KSIZE):
        pos = cols * STEP - PAD + k * DIL
        ok = out_ok & (pos >= 0) & (pos < len_in)
        value = tl.load(base + pos, mask=ok, other=float("-inf"))
        best = tl.maximum(best, value)
    tl.store(out_ptr + rows.to(tl.int64) * out_row_stride + cols, best, mask=out_ok)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    len_in = x.shape[-1]
    len_out = out.shape[-1]
    n_rows = x.numel() // len_in
    # Rows are contiguous in both (checked, not assumed: a strided layout takes the row stride).
    assert x.stride(-1) == 1 and out.stride(-1) == 1
    x_rows = x.stride(-2) if x.dim() > 1 else len_in
    out_rows = out.stride(-2) if out.dim() > 1 else len_out
    rows, block = 2, 1024
    grid = (triton.cdiv(len_out, block), triton.cdiv(n_rows, rows))
    _max_pool_1d[grid](x, out, n_rows, len_in, len_out, x_rows, out_rows,
                       KSIZE=KERNEL_SIZE, STEP=STRIDE, PAD=PADDING, DIL=DILATION,
                       ROWS=rows, BLOCK=block, num_warps=8)
