"""KernelBench level 1, problem 51 (argmax over dim 1 of a [B, R, C] tensor): seg0.

Inductor flattens (batch, column) into one index and recovers both with a division and a modulo
by C for every element; its tiles straddle rows of odd length (C = 4095). This one gives each
program one batch and a block of contiguous columns, walks the R rows in order keeping a running
max and its first index per column, so every load is a contiguous run of columns. NaN counts as
the maximum and the first NaN wins, as in torch.argmax. Generic in B, R, C and the strides.
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
