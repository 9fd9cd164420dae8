"""BAD (slower by about 5%, near the threshold): one program per row, walking the row in
BLOCK-column chunks with a float32 vector accumulator (summed once at the end), the row length a
compile-time constant. Correct, and the best of 25 settings of this simple kernel on the H200
(scripts/gpu/row_sum_variants.py: 4096 x 16 warps, 70.5 us against torch.compile's 67.7 us); G4
measured it at 0.958x [0.950, 0.967] in the planted suite (results/gates/planted/). It must be
rejected by G4 (ratio < 0.97): the gate has to tell a 5% loss from noise, not only a 2x one
(bad_slower.py).

It was planted as a "good" candidate until the H200 showed it 4-5% slower than the compiler's
reduction; the suite's good candidates are now on problems with headroom (good_l2_norm_rows.py,
good_argmax_reduce_dim.py).
"""
import triton
import triton.language as tl

BLOCK = 4096
NUM_WARPS = 16


@triton.jit
def _row_sum(x_ptr, out_ptr, x_stride, out_stride, N_COLS: tl.constexpr, BLOCK: tl.constexpr):
    # The row length is a compile-time constant, as in Inductor's kernel (the compiled graph has
    # static shapes): the loop unrolls, so all of a row's loads are in flight at once.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in tl.static_range(0, N_COLS, BLOCK):
        if N_COLS % BLOCK == 0:
            acc += tl.load(base + start + cols, eviction_policy="evict_first")
        else:
            m = start + cols < N_COLS
            acc += tl.load(base + start + cols, mask=m, other=0.0, eviction_policy="evict_first")
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    assert x.stride(1) == 1
    _row_sum[(n_rows,)](x, out, x.stride(0), out.stride(0), N_COLS=n_cols, BLOCK=BLOCK, num_warps=NUM_WARPS)
