"""GOOD (for examples/row_max.py): row maxima where NaN wins, as in PyTorch (the maximum that
propagates NaN, in the loop and in the final reduction). Must pass G1-G4 (ratio >= 0.97).
"""
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _max_nan(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def _row_max(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, n_cols, BLOCK):
        v = tl.load(base + start + cols, mask=start + cols < n_cols, other=float("-inf"))
        acc = _max_nan(acc, v)
    tl.store(out_ptr + row * out_stride, tl.reduce(acc, 0, _max_nan))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_max[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
