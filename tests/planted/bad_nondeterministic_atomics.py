"""BAD (G2 isolated -> nondeterministic): splits each row over SPLIT=16 programs that
`tl.atomic_add` their float32 partial sums (512 columns each) into a zeroed `out`. Float addition
is not associative and the order in which the 16 atomics of a row arrive depends on scheduling, so
two runs on the same input differ in the last bits of some rows. The values are accurate (errors
~1e-3 against a tolerance of ~4.1), so only the determinism check (a second run on fresh copies,
compared bitwise) fires.

This is probabilistic. Given a different arrival order, two float32 sums of 16 partials of ~256
differ in the last bits about half the time (numpy: 54% of pairs of random orders); a miss needs the
arrival order of all 8192 rows to repeat exactly, in both runs of all three seeds (65536 programs
racing on 132 SMs). That is not expected in practice, but nothing guarantees it: a miss would show
as this candidate passing G2 (and then G3 and probably G4). Triton's interpreter runs programs one
after another, so on the CPU it is deterministic: the CPU test only shows the numbers are right.
"""
import triton
import triton.language as tl

SPLIT = 16
BLOCK = 512


@triton.jit
def _partial_sum(x_ptr, out_ptr, n_cols, x_stride, out_stride, cols_per_program, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    first = tl.program_id(1) * cols_per_program
    cols = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * x_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(first, first + cols_per_program, BLOCK):
        m = (start + cols < n_cols) & (start + cols < first + cols_per_program)
        acc += tl.load(base + start + cols, mask=m, other=0.0)
    tl.atomic_add(out_ptr + row * out_stride, tl.sum(acc, axis=0))  # the defect: order varies


def run(inputs, outputs):
    (x,) = inputs.values()
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    out.zero_()
    per_program = triton.cdiv(triton.cdiv(n_cols, SPLIT), BLOCK) * BLOCK
    _partial_sum[(n_rows, triton.cdiv(n_cols, per_program))](x, out, n_cols, x.stride(0), out.stride(0),
                                                             per_program, BLOCK=BLOCK, num_warps=4)
