"""BAD (G1 static -> resource_exceeded): computes row sums as a matrix product x @ ones, with
tiles far too large: each program multiplies a BM x BK = 256 x 128 float32 tile of x by a 128 x 16
tile of ones, with num_stages=3. The software pipeliner buffers the x tile in shared memory,
128 KiB per stage: Triton 3.6 reports shared = 262144 bytes for sm_90 (two 128 KiB buffers; the
ones tile is a constant), more than the 227 KiB (232448 bytes) an sm_90 block may use. Triton
compiles it (the metadata states the size) and a launch would fail with OutOfResources; G1
compares the compiled shared_bytes with the limit and reports resource_exceeded, without a GPU.

(The arithmetic is otherwise right: input_precision="ieee" keeps the products exact float32; the
planted defect is the tile size.)
"""
import triton
import triton.language as tl

BM = 256
BK = 128
BN = 16
NUM_STAGES = 3


@triton.jit
def _row_sum_mma(x_ptr, out_ptr, n_rows, n_cols, x_stride, out_stride,
                 BM: tl.constexpr, BK: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    ks = tl.arange(0, BK)
    ones = tl.full([BK, BN], 1.0, dtype=tl.float32)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, n_cols, BK):
        m = (rows[:, None] < n_rows) & (k + ks[None, :] < n_cols)
        a = tl.load(x_ptr + rows[:, None].to(tl.int64) * x_stride + k + ks[None, :], mask=m, other=0.0)
        acc += tl.dot(a, ones, input_precision="ieee")
    sums = tl.sum(acc, axis=1) / BN
    tl.store(out_ptr + rows * out_stride, sums, mask=rows < n_rows)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sum_mma[(triton.cdiv(n_rows, BM),)](x, out, n_rows, n_cols, x.stride(0), out.stride(0), BM=BM, BK=BK,
                                             BN=BN, num_warps=8, num_stages=NUM_STAGES)
