"""BAD (G2 isolated -> wrong_result, on examples/row_variance.py and its shifted seed): each row's
variance in one pass, (sum(x^2) - sum(x)^2 / n) / (n - 1), in float32.

On get_inputs()'s N(0, 1) rows the two sums are of the size of the variance and the result is
right to ~1e-6. On the shifted stress seed (x * 2 + 256) sum(x^2) is ~5e8, whose float32 rounding
is larger than the variance's own size allows: the variances (~4) are off by ~1%, far outside
G2's tolerance.
"""
import triton
import triton.language as tl


@triton.jit
def _naive_var(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row.to(tl.int64) * x_stride + cols, mask=cols < n_cols, other=0.0)
    s = tl.sum(x, axis=0)
    ss = tl.sum(x * x, axis=0)
    tl.store(out_ptr + row * out_stride, (ss - s * s / n_cols) / (n_cols - 1))  # the defect


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _naive_var[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(n_cols),
                          num_warps=16)
