"""GOOD (for examples/row_softmax.py): each row loaded once (16 warps), its maximum subtracted
before the exponential: right on every stress seed. Must pass G1-G4 (ratio >= 0.97).
"""
import triton
import triton.language as tl


@triton.jit
def _softmax(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row.to(tl.int64) * x_stride + cols, mask=mask, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row.to(tl.int64) * out_stride + cols, e / tl.sum(e, axis=0), mask=mask)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _softmax[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(n_cols),
                        num_warps=16)
