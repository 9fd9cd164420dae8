"""GOOD (for examples/row_max.py): row maxima where NaN wins, as in PyTorch (a reduction with the
maximum that propagates NaN), each row loaded once (16 warps). Must pass G1-G4 (ratio >= 0.97).
"""
import triton
import triton.language as tl



@triton.jit
def _max_nan(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def _row_max(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row.to(tl.int64) * x_stride + cols, mask=cols < n_cols, other=float("-inf"))
    tl.store(out_ptr + row * out_stride, tl.reduce(x, 0, _max_nan))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_max[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(n_cols),
                        num_warps=16)
