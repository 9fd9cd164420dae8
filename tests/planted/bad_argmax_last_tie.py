"""BAD (G2 isolated -> wrong_result, on examples/argmax_middle.py and its tied seeds): argmax over
the middle dimension that keeps the last of equal maxima (`>=`), where PyTorch keeps the first.

get_inputs()'s N(0, 1) columns of 4096 values have no ties at their maximum. The shifted seed
(x * 2 + 256, rounded to float32 at 256's spacing) has a few, and the discrete seed (values on a
grid of 0.5, many equal) has them in every column: the indices differ, and integer outputs must
match exactly.
"""
import triton
import triton.language as tl

COLS = 128


@triton.jit
def _argmax_last(x_ptr, out_ptr, n_reduce, n_cols, x_batch, x_row, out_batch, COLS: tl.constexpr):
    b = tl.program_id(1)
    cols = tl.program_id(0) * COLS + tl.arange(0, COLS)
    mask = cols < n_cols
    ptr = x_ptr + b.to(tl.int64) * x_batch + cols
    best = tl.full([COLS], float("-inf"), tl.float32)
    index = tl.zeros([COLS], dtype=tl.int64)
    for r in range(0, n_reduce):
        v = tl.load(ptr, mask=mask, other=float("-inf"))
        ptr += x_row
        better = v >= best  # the defect: a tie moves the index to the later row
        best = tl.where(better, v, best)
        index = tl.where(better, r, index)
    tl.store(out_ptr + b.to(tl.int64) * out_batch + cols, index, mask=mask)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_batch, n_reduce, n_cols = x.shape
    grid = (triton.cdiv(n_cols, COLS), n_batch)
    _argmax_last[grid](x, out, n_reduce, n_cols, x.stride(0), x.stride(1), out.stride(0), COLS=COLS, num_warps=4)
