"""BAD (G2 isolated -> nan_inf_mismatch, on examples/row_max.py and its non-finite seed): row
maxima with Triton's plain maximum, which returns the other operand where one is NaN.

Right on every finite input. On the stress seed with NaN and infinities at random places, every
row holds a NaN, so PyTorch's and the compiler's maxima are NaN; this kernel returns +inf or the
largest finite value.
"""
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _row_max(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, n_cols, BLOCK):
        v = tl.load(base + start + cols, mask=start + cols < n_cols, other=float("-inf"))
        acc = tl.maximum(acc, v)  # the defect: NaN does not win
    tl.store(out_ptr + row * out_stride, tl.max(acc, axis=0))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_max[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
