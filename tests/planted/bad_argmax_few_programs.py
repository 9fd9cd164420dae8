"""BAD (slower: too few programs for the GPU): a hand-tiled argmax over the middle dimension of
examples/argmax_middle.py (32 x 4096 x 4093). Each program owns one batch and a block of 256
contiguous columns and walks all 4096 reduced rows: correct (ties to the first index, NaN wins),
and on KernelBench L1/51 (128 batches) it came out optimized at 1.019x. Here there are only
16 x 32 = 512 programs of 4 warps for 132 SMs, each with a long serial walk, and the H200 measured
it at 0.398x [0.397, 0.400] against the compiler (results/gates/planted/). It was planted as a
good candidate; that measurement made it a bad one: G4 must reject it (slower).
The reduce_dim recipe, which also tiles the reduced dimension, passes on the same problem
(good_argmax_reduce_dim.py, 1.165x).
"""

import triton
import triton.language as tl


@triton.jit
def _argmax_dim1(x_ptr, out_ptr, n_cols, x_batch, x_row, out_batch, N_REDUCE: tl.constexpr,
                 BLOCK: tl.constexpr):
    batch = tl.program_id(1).to(tl.int64)
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = cols < n_cols
    base = x_ptr + batch * x_batch + cols
    best = tl.full([BLOCK], float("-inf"), tl.float32)
    index = tl.zeros([BLOCK], tl.int64)
    row = base
    for r in tl.range(0, N_REDUCE):
        v = tl.load(row, mask=ok, other=float("-inf"))
        take = (v > best) | ((v != v) & (best == best))
        best = tl.where(take, v, best)
        index = tl.where(take, tl.zeros([BLOCK], tl.int64) + r, index)
        row += x_row
    tl.store(out_ptr + batch * out_batch + cols, index, mask=ok)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_batch, n_reduce, n_cols = x.shape
    assert x.stride(2) == 1 and out.stride(-1) == 1
    block = 256
    grid = (triton.cdiv(n_cols, block), n_batch)
    # The reduced length is a compile-time constant, as in Inductor's kernel: the compiled graph
    # has static shapes.
    _argmax_dim1[grid](x, out, n_cols, x.stride(0), x.stride(1), out.stride(0),
                       N_REDUCE=n_reduce, BLOCK=block, num_warps=4, num_stages=4)
