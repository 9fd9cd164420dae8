"""BAD (G2 isolated -> not_written): launches n_rows // 2 programs, so only the first half of the
rows is written.

The harness fills outputs with a NaN of a payload no arithmetic produces; the second half of `out`
still holds it after run(), and `unwritten` counts those elements (4096 on the GPU). The judge
checks unwritten before mismatched/NaN, so the status is not_written.
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
    grid = (n_rows // 2,)  # the defect: should be (n_rows,)
    _row_sum[grid](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
