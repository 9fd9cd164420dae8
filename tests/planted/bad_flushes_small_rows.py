"""BAD (G3 model -> model_mismatch, on examples/row_sum_scaled.py): row sums, with every sum under
1e-3 written as 0 ("too small to matter").

Each flushed sum is off by less than 1e-3, inside G2's tolerance (1e-3 + 1e-3 |ref|), so G2 passes.
Against eager, the 129 flushed rows of seed 0 miss G3's 1e-4; the float64 fallback's largest
error is the largest row's rounding (~1.5, the compiler's too), so a test of the largest error
alone would accept it. Its elementwise test counts 129 elements off by more than 1% of float64's
value against the compiler's 0 and rejects it.
"""
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _row_sum_flushed(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        acc += tl.load(base + start + cols, mask=start + cols < n_cols, other=0.0)
    total = tl.sum(acc, axis=0)
    total = tl.where(tl.abs(total) < 1e-3, 0.0, total)  # the defect
    tl.store(out_ptr + row * out_stride, total)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum_flushed[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
