"""BAD (G2 isolated -> nan_inf_mismatch, on examples/row_softmax.py and its shifted seed): softmax
as exp(x) / sum(exp(x)), without subtracting the row's maximum first.

On get_inputs()'s N(0, 1) rows exp(x) stays far from float32's range and the result is right. On
the shifted stress seed (x * 2 + 256) exp(x) overflows to +inf and every probability is NaN,
where the compiler's softmax (and PyTorch's) stays finite.
"""
import triton
import triton.language as tl


@triton.jit
def _softmax(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row.to(tl.int64) * x_stride + cols, mask=mask, other=float("-inf"))
    e = tl.exp(x)  # the defect: no maximum subtracted
    tl.store(out_ptr + row.to(tl.int64) * out_stride + cols, e / tl.sum(e, axis=0), mask=mask)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _softmax[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(n_cols),
                        num_warps=16)
