"""BAD (G2 isolated -> wrong_result): sums x*x instead of x.

Otherwise the good one-row-per-program kernel. For x ~ U(0, 1) a row of 8192 gives sum(x^2) ~ 2731
instead of sum(x) ~ 4096: every element is off by ~1365, far outside rtol = atol = 1e-3 of G2's
allclose (about 4.1 at 4096), on every seed.
"""
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
        x = tl.load(base + start + cols, mask=start + cols < n_cols, other=0.0)
        acc += x * x  # the defect: should be acc += x
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
