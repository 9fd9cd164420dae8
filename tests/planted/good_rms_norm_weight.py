"""GOOD (for examples/rms_norm_default_init.py): RMSNorm of each row, times the weight, one row a
program. Listed after bad_mutates_parameter.py: it must still be accepted (G1-G4, ratio >= 0.97)
after that candidate scaled the weight in place, which G3 puts back before the next candidate.
"""
import torch
import triton
import triton.language as tl

EPS = torch.finfo(torch.float32).eps  # nn.RMSNorm's eps when none is given


@triton.jit
def _rms_norm(x_ptr, w_ptr, out_ptr, n_cols, x_stride, out_stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row.to(tl.int64) * x_stride + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(out_ptr + row.to(tl.int64) * out_stride + cols, x * rstd * w, mask=mask)


def split(inputs):
    """(x, weight): the 2-D input and the 1-D parameter, whatever their order."""
    x = next(t for t in inputs.values() if t.dim() == 2)
    w = next(t for t in inputs.values() if t.dim() == 1)
    return x, w


def run(inputs, outputs):
    x, w = split(inputs)
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _rms_norm[(n_rows,)](x, w, out, n_cols, x.stride(0), out.stride(0), EPS, BLOCK=triton.next_power_of_2(n_cols),
                         num_warps=8)
