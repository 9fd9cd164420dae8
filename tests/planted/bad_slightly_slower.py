"""BAD (slower by about 8-10%): one program per row, walking the row in BLOCK-column chunks with a
float32 vector accumulator (summed once at the end), the row length a compile-time constant, and
also reading the first HEAD columns of the row half the matrix away, a read whose values never
count (`tl.where` on a runtime flag that is 0). Correct on every seed.

Without the extra read this kernel is the best of 25 settings of its kind on the H200
(scripts/gpu/row_sum_variants.py: 4096 x 16 warps, 70.5 us against torch.compile's 67.7 us), and
G4 measured it at 0.958x on the H200 but 0.976x [0.966, 0.985] on an H100: a loss that close to
the 0.97 threshold falls on either side of it from card to card. The extra read adds about 6% of
the row's traffic from memory (the other row is not in the L2), which puts the candidate clearly
below the threshold on both cards while staying a modest loss: G4 must reject it (ratio < 0.97),
not only a 2x loss (bad_slower.py).
"""
import triton
import triton.language as tl

BLOCK = 4096
NUM_WARPS = 16
HEAD = 512  # 1/16 of a row of 8192


@triton.jit
def _row_sum(x_ptr, out_ptr, x_stride, out_stride, n_rows, flag, N_COLS: tl.constexpr, BLOCK: tl.constexpr,
             HEAD: tl.constexpr):
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
    # The wasted read: the head of a row processed far from this one in time, so it comes from
    # memory; its values are selected away by a flag the compiler cannot see is 0.
    other = (row + n_rows // 2) % n_rows
    heads = tl.arange(0, HEAD)
    extra = tl.load(x_ptr + other.to(tl.int64) * x_stride + heads, mask=heads < N_COLS, other=0.0)
    waste = tl.sum(tl.where(flag != 0, extra, 0.0), axis=0)
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0) + waste)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    assert x.stride(1) == 1
    _row_sum[(n_rows,)](x, out, x.stride(0), out.stride(0), n_rows, 0, N_COLS=n_cols, BLOCK=BLOCK, HEAD=HEAD,
                        num_warps=NUM_WARPS)
