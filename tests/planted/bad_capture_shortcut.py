"""BAD (G4 performance -> replay_mismatch): computes the sums when called directly; while a CUDA
graph is being captured, it records only a copy of the sums it computed last.

G2 and G3 call it directly: right every time. G4 times CUDA-graph replays, where a copy of 8192
floats replaces reading 256 MiB: many times faster. After timing, G4 replays each of two seeds'
values once more and compares with the baseline's replay: the copy holds neither seed's sums.
"""
import torch
import triton
import triton.language as tl

BLOCK = 1024
_LAST = []


@triton.jit
def _row_sum(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        acc += tl.load(base + start + cols, mask=start + cols < n_cols, other=0.0)
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))


@triton.jit
def _copy(src_ptr, dst_ptr, n, dst_stride, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst_ptr + i * dst_stride, tl.load(src_ptr + i, mask=i < n), mask=i < n)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    if x.is_cuda and torch.cuda.is_current_stream_capturing() and _LAST:  # the defect
        _copy[(triton.cdiv(n_rows, BLOCK),)](_LAST[-1], out, n_rows, out.stride(0), BLOCK=BLOCK)
        return
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
    _LAST.append(out.detach().clone())  # every copy kept: a captured graph may read any of them
