"""BAD (G2 isolated -> wrong_result): the running row sum is kept in float16. Each 128-column
chunk is summed in float32 (tl.sum), cast to float16 and added into a float16 scalar accumulator:
64 float16 additions per row of 8192.

The arithmetic (numpy, float16 sequential accumulation of float32 chunk sums, 2048 rows of
U(0, 1) x 8192): a row sum is ~4096, where float16's spacing is 2 (below 4096) or 4 (above), so
each addition rounds by up to 1-2; G2's tolerance is atol + rtol * |ref| = 1e-3 + 1e-3 * 4096 ~ 4.1,
i.e. about one float16 spacing (float16's relative spacing 2^-10 ~ 1e-3 is rtol itself). One
rounding alone cannot exceed it; what does is the accumulation over many additions:

    chunk  additions  max err  mean err  rows outside 4.1
    1024        8       6.0      1.3        0.8%
     256       32       8.1      2.1       13.5%
     128       64      13.7      2.9       26.7%   <- this candidate
      64      128      15.6      4.1       42.6%

So on the GPU ~27% of the 8192 rows (~2200) are outside tolerance on every seed: wrong_result.
(The tempting claim "fp16 errors of several units >> rtol x 4096" is false for a single rounding;
it holds only after tens of additions, hence the small chunk.) Triton's interpreter adds float16
numbers the same way (round-to-nearest of the exact sum), so the CPU test reproduces it on
64 rows of 8192: P(no row outside) = 0.733^64 ~ 2e-9.
"""
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _row_sum(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.zeros([], dtype=tl.float16)  # the defect: should be float32
    for start in range(0, n_cols, BLOCK):
        chunk = tl.load(base + start + cols, mask=start + cols < n_cols, other=0.0)
        acc += tl.sum(chunk, axis=0).to(tl.float16)
    tl.store(out_ptr + row * out_stride, acc.to(tl.float32))


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=4)
