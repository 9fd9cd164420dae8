"""BAD (G1 static -> nondeterministic): splits each row over SPLIT=16 programs that
`tl.atomic_add` their float32 partial sums (512 columns each) into a zeroed `out`. Float addition
is not associative, so the order in which the 16 atomics of a row arrive decides the last bits
of the row's sum. The values are accurate (errors ~1e-3 against a tolerance of ~4.1). G1 reads
the float atomic add (and the clock read below) in the kernel's PTX; G2's bitwise comparison of
two runs, which caught it on the GPU before G1 did (runs 4 and 6 of results/gates/new-kinds/),
catches it only when the arrival order happens to differ between the runs.

On an idle H200 the arrival order turned out to repeat from run to run (measured 2026-11-29: the
first version of this candidate, without the delay below, passed G2 bit for bit on all three
seeds), and so did versions waiting before the atomic for a time read from a clock (%globaltimer,
then %clock; measured the same day). The reason: the grid had the row as its fast axis, so the 16
programs of a row were scheduled 8192 blocks apart (several waves), always in the same order.
Now the split is the fast axis (a row's programs run side by side) and each still waits up to 4096
cycles, read from its SM's cycle counter, before its atomic: on an H100 the two runs then
differed on 5 of 7 seeds. It is the same race; the layout and the delay only stop the scheduler
from hiding it. Triton's interpreter has no clock: there the delay is off.
"""
import os

import triton
import triton.language as tl

SPLIT = 16
BLOCK = 512


@triton.jit
def _clock():
    return tl.inline_asm_elementwise("mov.u32 $0, %clock;", "=r", [], dtype=tl.int32,
                                     is_pure=False, pack=1)


@triton.jit
def _partial_sum(x_ptr, out_ptr, n_cols, x_stride, out_stride, cols_per_program, BLOCK: tl.constexpr,
                 JITTER: tl.constexpr):
    # The split is the fastest grid axis: a row's programs are scheduled together, so their
    # atomics race (with the row as the fast axis they ran one whole wave of rows apart, always
    # in the same order).
    row = tl.program_id(1)
    first = tl.program_id(0) * cols_per_program
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(first, first + cols_per_program, BLOCK):
        m = (start + cols < n_cols) & (start + cols < first + cols_per_program)
        acc += tl.load(base + start + cols, mask=m, other=0.0)
    total = tl.sum(acc, axis=0)
    if JITTER:  # wait 0-4095 cycles, by the SM's clock: the arrival order below differs between runs
        start_cycle = _clock()
        wait = start_cycle & 4095
        while (_clock() - start_cycle) < wait:
            pass
    tl.atomic_add(out_ptr + row * out_stride, total)  # the defect: the order of the adds varies


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    out.zero_()
    per_program = triton.cdiv(triton.cdiv(n_cols, SPLIT), BLOCK) * BLOCK
    grid = (triton.cdiv(n_cols, per_program), n_rows)
    _partial_sum[grid](x, out, n_cols, x.stride(0), out.stride(0), per_program, BLOCK=BLOCK,
                       num_warps=4, JITTER=os.environ.get("TRITON_INTERPRET") != "1")
