"""BAD (G4 performance -> slower): correct, but one program per row walks its 8192 columns 16 at a
time with a single warp (BLOCK=16, num_warps=1): 512 dependent loop iterations of 64-byte loads per
program, half of each warp's lanes idle. It passes G1-G3 (the sums are exact float32 sums in
another order) and is several times slower than the compiler's reduction, which streams the same
256 MiB near the copy bandwidth; G4's ratio of medians is far below 0.97.
"""
import triton
import triton.language as tl

BLOCK = 16
NUM_WARPS = 1


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
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=NUM_WARPS)
