"""BAD (G2 isolated -> nondeterministic, caught only by the run beside other work): row sums by
a persistent grid of 64 programs (one wave on any card the engine targets), each scaling its rows'
sums by 1 + 2^-20 when its program runs on an odd-numbered SM. The values are accurate (a relative
error under 1e-6 against a tolerance of 1e-3), so only a bitwise comparison of two runs can see
it, and only when the two runs place their programs differently.

It stands for every kernel whose arithmetic depends on where or when its blocks run (float atomics
in arrival order, a work queue handing out tiles, a split decided by the SM's id). On an idle GPU
one launch after another puts a single wave's programs on the same SMs, so two runs back to back
agree bit for bit; G2's third run, on the first seed, has the harness keep the GPU busy on
another stream, and its programs land elsewhere.
Triton's interpreter has no SM id: there the scaling is off and the CPU test only shows the
numbers are right.
"""
import os

import triton
import triton.language as tl

PROGRAMS = 64


@triton.jit
def _sm_id(like):
    return tl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r,r", [like], dtype=tl.int32,
                                     is_pure=False, pack=1)


@triton.jit
def _row_sums(x_ptr, out_ptr, n_rows, n_cols, x_stride, out_stride, PROGRAMS: tl.constexpr,
              BLOCK: tl.constexpr, BY_SM: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    scale = 1.0
    if BY_SM:  # the defect: the result depends on the SM the program runs on
        scale = tl.where((_sm_id(pid) & 1) == 1, 1.0 + 1.0 / 1048576.0, 1.0)
    for i in range(0, tl.cdiv(n_rows - pid, PROGRAMS)):
        row = pid + i * PROGRAMS
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, n_cols, BLOCK):
            m = start + cols < n_cols
            acc += tl.load(x_ptr + row.to(tl.int64) * x_stride + start + cols, mask=m, other=0.0)
        tl.store(out_ptr + row * out_stride, tl.sum(acc, axis=0) * scale)


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _row_sums[(PROGRAMS,)](x, out, n_rows, n_cols, x.stride(0), out.stride(0), PROGRAMS=PROGRAMS,
                           BLOCK=2048, BY_SM=os.environ.get("TRITON_INTERPRET") != "1", num_warps=8)
