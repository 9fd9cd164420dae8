"""BAD (G2 isolated -> aliased_output): computes the right sums into a tensor of its own and then
re-points the output it was given at that tensor's storage (`out.set_`), instead of writing into
the buffer it was handed.

The output dictionary still holds the same tensor object, so `replaced_outputs` is empty, and a
check that read the values through that object would see correct sums. The buffer the model
allocated (and every other view of it) is never written: the harness reads outputs through views
rebuilt from its own allocations, and `relaid_tensors` names the output whose data pointer moved.
"""
import torch
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
    mine = torch.empty_like(out)
    _row_sum[(n_rows,)](x, mine, n_cols, x.stride(0), mine.stride(0), BLOCK=BLOCK, num_warps=8)
    out.set_(mine)  # the defect: the buffer handed over stays unwritten
