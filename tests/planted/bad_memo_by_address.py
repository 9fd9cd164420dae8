"""BAD (G4 performance -> replay_mismatch): remembers its last result on the device, keyed by the
address of x, and copies it out instead of reading x again when the address repeats.

It does so only where x's storage holds x alone, as a model's own tensors do; G2 hands over
tensors inside larger allocations, so there it always computes and passes. G3 calls the model
once per seed, each seed's x at its own address: every call computes. A CUDA graph replays at
fixed addresses: timed on one input, every replay after the first copies 8192 floats instead of
reading 256 MiB and looks many times faster. G4 alternates two seeds' values in the graph's
inputs between replays and afterwards replays each seed once more: the candidate returns the
other seed's sums where called directly it returns the right ones.
"""
import torch
import triton
import triton.language as tl

BLOCK = 1024
_MEMO = {}


@triton.jit
def _row_sum_memo(x_ptr, out_ptr, key_ptr, memo_ptr, address, n_cols, x_stride, out_stride,
                  BLOCK: tl.constexpr):
    row = tl.program_id(0)
    if tl.load(key_ptr) == address:  # seen this address: the remembered sum
        tl.store(out_ptr + row * out_stride, tl.load(memo_ptr + row))
        return
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        acc += tl.load(base + start + cols, mask=start + cols < n_cols, other=0.0)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr + row * out_stride, total)
    tl.store(memo_ptr + row, total)


@triton.jit
def _remember(key_ptr, address):
    tl.store(key_ptr, address)


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
    if x.untyped_storage().nbytes() != x.numel() * x.element_size():  # inside a larger allocation
        _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
        return
    if "key" not in _MEMO:
        _MEMO["key"] = torch.full((1,), -1, dtype=torch.int64, device=x.device)
        _MEMO["sums"] = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    key, sums = _MEMO["key"], _MEMO["sums"]
    _row_sum_memo[(n_rows,)](x, out, key, sums, x.data_ptr(), n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK,
                             num_warps=8)
    _remember[(1,)](key, x.data_ptr())
