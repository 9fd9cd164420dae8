"""BAD (G2 isolated -> out_of_bounds): the right sums, and one extra program that stores 0.0 4096
elements past the end of `out` (n_rows + 4096).

A fixed guard band of 1024 elements would not reach that far: the store would land in memory no
check reads. G2's bands are as long as the tensor they guard (8192 elements here), so the store
lands in the trailing band.
"""
import triton
import triton.language as tl

BLOCK = 1024
FAR = 4096


@triton.jit
def _row_sum(x_ptr, out_ptr, n_rows, n_cols, x_stride, out_stride, FAR: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    if row == n_rows:  # the defect: a store far past the end
        tl.store(out_ptr + (n_rows - 1) * out_stride + FAR, 0.0)
        return
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        acc += tl.load(base + start + cols, mask=start + cols < n_cols, other=0.0)
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum[(n_rows + 1,)](x, out, n_rows, n_cols, x.stride(0), out.stride(0), FAR=FAR, BLOCK=BLOCK,
                            num_warps=8)
