"""BAD (G2 isolated -> out_of_bounds): one program too many (grid n_rows + 1). The extra program's
loads are masked (`row < n_rows`), but its store is not, so it writes 0.0 one element past the end
of `out`.

Every real row is correct. The harness places `out` between guard bands of a byte pattern; the
store lands on the first element of the trailing band, so `out_of_bounds` = 1 (the judge checks it
before any value comparison). The masked loads never touch memory past `x`, so the GPU raises no
illegal-address error: the write lands inside the harness's own allocation, in the guard.
"""
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _row_sum(x_ptr, out_ptr, n_rows, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        m = (start + cols < n_cols) & (row < n_rows)
        acc += tl.load(base + start + cols, mask=m, other=0.0)
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))  # unmasked: row n_rows writes past the end


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    grid = (n_rows + 1,)  # the defect: one program too many
    _row_sum[grid](x, out, n_rows, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
