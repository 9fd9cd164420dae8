"""BAD (G3 model -> model_mismatch, NOT G2): the column mask is `< n_cols - 1`, so the last column
of every row is dropped.

Why G2 does not catch it on this problem: each row sum is ~4096 (8192 values of U(0, 1)), so G2's
isclose tolerance is atol + rtol * |ref| = 1e-3 + 1e-3 * 4096 ~ 4.1, while the error of a row is
the one dropped value x[r, 8191] < 1. G2's numbers are clean (mismatched = 0; max_abs_err < 1).

Why G3 catches it: the model gate compares with eager at rtol = atol = 1e-4, a tolerance of ~0.41
per row, and x[r, 8191] > 0.41 for ~59% of the 8192 rows, so allclose fails; the float64 fallback
then compares the candidate's error against float64 (max over rows of the dropped value, ~1.0)
with 10x the compiler's (float32 rounding, ~1e-3 at most): ~1.0 > ~1e-2, model_mismatch.

(On a short row, e.g. 64 x 256 with sums ~128 and a G2 tolerance of ~0.13, G2 would catch it:
the CPU test runs it at the real row length, 8192, to show the G2 numbers the GPU will see.)
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
        m = start + cols < n_cols - 1  # the defect: should be < n_cols
        acc += tl.load(base + start + cols, mask=m, other=0.0)
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
