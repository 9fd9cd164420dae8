"""GOOD (for examples/row_variance.py): each row read once into registers, its mean taken, then
the sum of squared deviations from it: right on every stress seed. Must pass G1-G4 (ratio >=
0.97).
"""
import triton
import triton.language as tl


@triton.jit
def _two_pass_var(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row.to(tl.int64) * x_stride + cols, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    tl.store(out_ptr + row * out_stride, tl.sum(d * d, axis=0) / (n_cols - 1))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _two_pass_var[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(n_cols),
                             num_warps=16)
