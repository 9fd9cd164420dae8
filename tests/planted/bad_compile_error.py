"""BAD (G1 static -> compile_failed): a type error inside the kernel. The accumulator starts as the
Python int 0 (an int32 scalar in Triton) and the loop adds float32 chunk sums to it, so the
loop-carried variable changes type from int32 to fp32; Triton refuses to compile the loop.

G1 compiles every launched kernel for sm_90 (no GPU needed) and reports compiled = false with
Triton's error; the judge maps that to compile_failed before anything runs on a GPU.
"""
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _row_sum(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = 0  # the defect: an int32 accumulator, re-assigned to fp32 in the loop
    for start in range(0, n_cols, BLOCK):
        acc += tl.sum(tl.load(base + start + cols, mask=start + cols < n_cols, other=0.0), axis=0)
    tl.store(out_ptr + row * out_stride, acc)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
