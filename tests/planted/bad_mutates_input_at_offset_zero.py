"""BAD (G2 isolated -> mutated_input): computes the right sums, and zeroes x afterwards, but only
where x sits at storage offset 0, as a model's own tensors usually do.

G2's first run places every tensor between guard bands (never at offset 0) and sees nothing; its
second run places them at offset 0 with a guard band after them only, and finds x changed.
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
        acc += tl.load(base + start + cols, mask=start + cols < n_cols, other=0.0)
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
    if x.storage_offset() == 0:  # the defect: only where a model's tensors usually sit
        x.zero_()
