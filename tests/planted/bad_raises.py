"""BAD (G2 isolated -> raised): a correct kernel, followed by a leftover debugging check that
compares `out` with a float64 row sum through torch.testing.assert_close, which also compares
dtypes (float32 vs float64) and so always raises AssertionError.

G1 passes: the launch compiles before the check runs (on meta tensors the check raises too, but
G1 only looks at run's error when no kernel was launched). G2 runs it for real: error kind
"exception", status raised.
"""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _row_sum(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        acc += tl.load(base + start + cols, mask=start + cols < n_cols, other=0.0)
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
    torch.testing.assert_close(out, x.sum(1, dtype=torch.float64))  # the defect: dtypes differ
