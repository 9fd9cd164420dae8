"""BAD (G3 model -> mutated_input): computes the right sums, and zeroes x afterwards, but only
where x's storage holds x alone, as the model's own input does. G2 hands over tensors with a guard
band after them in their storage (and, in the first run, one before them), so there it writes
nothing extra and passes.

In the model the input is changed: a caller that reads x after the forward pass would read zeros.
The values of the outputs are right; G3 digests the model's inputs, parameters and buffers before
and after the forward pass and finds the input changed where the compiler's graphs leave it alone.
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
        acc += tl.load(base + start + cols, mask=start + cols < n_cols, other=0.0)
    tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
    if x.untyped_storage().nbytes() == x.numel() * x.element_size():  # the defect: outside G2
        x.zero_()
