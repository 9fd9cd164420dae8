"""GOOD: a 2D tile of ROWS x BLOCK (4 rows x 512 columns) per program, float32 accumulator tile
reduced along the columns at the end, rows masked at the bottom edge, 8 warps. 2048 programs of
128 KiB each on the 8192 x 8192 problem: memory bound like the compiler's kernel, expected to pass
every gate (G4 ratio >= 0.97).

Reads the shape at run time and does not depend on the root buffers' names.
"""
import triton
import triton.language as tl

ROWS = 4
BLOCK = 512
NUM_WARPS = 8


@triton.jit
def _rows_sum(x_ptr, out_ptr, n_rows, x_stride, out_stride, N_COLS: tl.constexpr, ROWS: tl.constexpr,
              BLOCK: tl.constexpr):
    # N_COLS is a compile-time constant (static shapes, as in Inductor's kernel): the loop unrolls.
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    row_ok = rows < n_rows
    ptrs = x_ptr + rows[:, None].to(tl.int64) * x_stride + cols[None, :]
    acc = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
    for start in tl.static_range(0, N_COLS, BLOCK):
        m = row_ok[:, None] & (start + cols[None, :] < N_COLS)
        acc += tl.load(ptrs + start, mask=m, other=0.0, eviction_policy="evict_first")
    tl.store(out_ptr + rows * out_stride, tl.sum(acc, axis=1), mask=row_ok)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    assert x.stride(1) == 1
    _rows_sum[(triton.cdiv(n_rows, ROWS),)](x, out, n_rows, x.stride(0), out.stride(0), N_COLS=n_cols, ROWS=ROWS,
                                            BLOCK=BLOCK, num_warps=NUM_WARPS)
