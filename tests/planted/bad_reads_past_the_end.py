"""BAD (G2 isolated -> out_of_bounds under `--sanitize memcheck`, on examples/row_sum_scaled.py):
row sums whose load mask is off by one (`<=`): each row reads one element more than it has, and
drops it before adding. For the last row that element lies past the end of x.

Every value is right and nothing is written out of place, so G2's guard bands (the read lands in
one), G3 and G4 see nothing: in the model the read lands in the slack PyTorch's allocator leaves
after the 2047-row input. G2 with `--sanitize memcheck` runs the first seed once more in a process
of its own, every tensor in an allocation of its own exact size, under compute-sanitizer's
memcheck, which reports the read outside every allocation.
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
    for start in range(0, n_cols + BLOCK, BLOCK):
        v = tl.load(base + start + cols, mask=start + cols <= n_cols, other=0.0)  # the defect: <=
        acc += tl.where(start + cols < n_cols, v, 0.0)
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
