"""KernelBench level 1, problem 49 (max over dim 1 of a [B, R, C] tensor): seg0.

Inductor's kernel flattens (batch, column) into one index and recovers both with a division and
a modulo by C for every element, with tiles that straddle rows of odd length (C = 4095). This
one gives each program one batch and a block of contiguous columns and walks the R rows in
order with a running maximum per column: every load is a contiguous run of columns. NaN
propagates, as in torch.max. Generic in B, R, C and the strides.
"""

import triton
import triton.language as tl


@triton.jit
def _max_dim1(x_ptr, out_ptr, n_cols, x_batch, x_row, out_batch, N_REDUCE: tl.constexpr,
              BLOCK: tl.constexpr):
    batch = tl.program_id(1).to(tl.int64)
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = cols < n_cols
    row = x_ptr + batch * x_batch + cols
    best = tl.full([BLOCK], float("-inf"), tl.float32)
    for _ in tl.range(0, N_REDUCE):
        v = tl.load(row, mask=ok, other=float("-inf"))
        best = tl.where((v > best) | (v != v), v, best)
        row += x_row
    tl.store(out_ptr + batch * out_batch + cols, best.to(out_ptr.dtype.element_ty), mask=ok)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_batch, n_reduce, n_cols = x.shape
    assert x.stride(2) == 1 and out.stride(-1) == 1
    block = 256
    grid = (triton.cdiv(n_cols, block), n_batch)
    # The reduced length is a compile-time constant, as in Inductor's kernel (static shapes).
    _max_dim1[grid](x, out, n_cols, x.stride(0), x.stride(1), out.stride(0),
                    N_REDUCE=n_reduce, BLOCK=block, num_warps=4, num_stages=4)
