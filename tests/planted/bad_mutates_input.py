"""BAD (G2 isolated -> mutated_input): computes the right sums, but stores zeros back into each
chunk of x after reading it (a "scratch reuse" of the input buffer).

The output is correct, so no value check fires; `inputs_mutated` lists x's root because the input
tensor is no longer bitwise equal to the captured one (x is not updated in place by the compiler's
segment, so any change is a defect: the rest of the model would read zeros).
"""
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
        m = start + cols < n_cols
        acc += tl.load(base + start + cols, mask=m, other=0.0)
        tl.store(base + start + cols, tl.zeros([BLOCK], dtype=tl.float32), mask=m)  # the defect
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
