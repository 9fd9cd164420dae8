"""GOOD (for examples/row_sum.py): one program per row, the whole row loaded at once (16 warps),
fp32 accumulation. The correct control beside the row-sum defects (far store, side stream,
address memo, capture shortcut): must pass G1-G4 (ratio >= 0.97).
"""
import triton
import triton.language as tl



@triton.jit
def _row_sum(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row.to(tl.int64) * x_stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row * out_stride, tl.sum(x, axis=0))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(n_cols),
                        num_warps=16)
