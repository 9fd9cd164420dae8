"""BAD (G2 isolated -> wrong_result, on seed 1): computes the sums with a correct kernel on its
first call, keeps a clone in a module global, and on every later call copies that clone into
`out` without looking at x ("the inputs never change between calls").

G2 loads the candidate once and runs it for seeds 0, 1, 2 (twice each: the second run checks
determinism). Seed 0 is right (first call computes; the determinism run copies the same values).
Seed 1's input is different: a row sum differs from seed 0's by N(0, 37^2) (the std of the
difference of two sums of 8192 U(0, 1) is sqrt(2 * 8192 / 12) ~ 37), more than G2's tolerance
of ~4.1 for ~91% of the rows (~7450 of 8192), so seed 1 is wrong_result.
"""
import triton
import triton.language as tl

BLOCK = 1024
_CACHE = {}


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
    key = (tuple(x.shape), x.device.type)
    if key in _CACHE:  # the defect: a result of an earlier call, whatever x holds now
        out.copy_(_CACHE[key])
        return
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=8)
    _CACHE[key] = out.clone()
