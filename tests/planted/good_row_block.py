"""GOOD: a 2D tile of ROWS x BLOCK per program, float32 accumulator tile reduced along the
columns at the end, rows masked at the bottom edge; the row length is a compile-time constant.
Memory bound like the compiler's kernel, expected to pass every gate (G4 ratio >= 0.97).

ROWS, BLOCK and NUM_WARPS were chosen on the H200 by scripts/gpu/row_sum_variants.py (2026-11-29:
1, 2048 and 16, 70.5 us against torch.compile's 67.7 us, 0.960x; the G4 gate then measured it
slower than 0.97 in the planted suite, see results/gates/).

Reads the shape at run time and does not depend on the root buffers' names.
"""
import triton
import triton.language as tl

ROWS = 1
BLOCK = 2048
NUM_WARPS = 16


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
