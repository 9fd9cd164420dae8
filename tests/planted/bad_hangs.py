"""BAD (G2 isolated -> timed_out): after launching a correct kernel, run() spins on the host until
a `done` flag becomes non-zero, but the kernel never writes the flag (the store was forgotten):
`while done.item() == 0: pass` never ends. The worker stops answering; the engine kills it at the
gate deadline (the suite uses --gate-timeout 60) and reports timed_out.

Why the loop is after the launch, polling the device, and not a bare `while True` before it:
G1 calls run() too, on `meta` tensors with launches replaced by compiles. A bare `while True`
would hang G1 (timed_out at G1, not G2). Here G1 compiles the kernel, then `done.item()` raises on
the meta tensor; G1 only looks at run_error when no kernel was launched, so G1 passes and the hang
happens in G2, on real tensors.
"""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _row_sum(x_ptr, out_ptr, done_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        acc += tl.load(base + start + cols, mask=start + cols < n_cols, other=0.0)
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))
    # the defect: `tl.atomic_add(done_ptr, 1)` is missing, so done stays 0


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    done = torch.zeros(1, dtype=torch.int32, device=x.device)
    _row_sum[(n_rows,)](x, out, done, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
    while done.item() == 0:  # never true again: the host spins forever
        pass
