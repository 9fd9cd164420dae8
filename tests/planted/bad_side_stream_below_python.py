"""BAD (G2 isolated -> side_stream): the right sums, launched on a stream of its own made with
the generic `torch.Stream` and selected through torch's C entry point, never waited for.

None of the Python names a watch could patch (torch.cuda.Stream, torch.cuda.stream,
torch.cuda.set_stream) is called. The harness synchronizes the device before it reads `out`, so
the values are right; in a model the kernel races with what follows. G2 traces the run with the
CUDA profiler and finds a kernel on another stream than the harness's.
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


def _select(stream) -> None:
    torch._C._cuda_setStream(stream_id=stream.stream_id, device_index=stream.device_index,
                             device_type=stream.device_type)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    home = torch.cuda.current_stream()
    other = torch.Stream(device="cuda")  # the defect: work off the caller's stream, no wait
    _select(other)
    try:
        _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
    finally:
        _select(home)
