"""BAD (G2 isolated -> side_stream): a correct kernel, launched inside
`with torch.cuda.stream(torch.cuda.Stream()):`.

Work on a stream of its own escapes the stream order the recomposed model relies on (and the
CUDA graph G4 captures): a later kernel on the current stream could read `out` before it is
written. The harness replaces torch.cuda.Stream / torch.cuda.stream for the duration of run() and
notes the new stream; side_stream is judged before any value check. The numbers are right (the
harness synchronizes the device after run()).

Needs a GPU: on a machine without CUDA, torch.cuda.Stream() raises (the CPU tests skip it).
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
    with torch.cuda.stream(torch.cuda.Stream()):  # the defect
        _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
