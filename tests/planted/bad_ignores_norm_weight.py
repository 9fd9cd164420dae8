"""BAD (G2 isolated -> wrong_result, on examples/rms_norm_default_init.py and its redrawn seed):
RMSNorm of each row that never reads the weight ("it is all ones").

At initialisation the weight is all ones, so every seed drawn from get_inputs() is right. On the
stress seed that redraws the model's parameters, the weight is no longer ones, and the outputs
are off by the weight's distance from 1.
"""
import torch
import triton
import triton.language as tl

EPS = torch.finfo(torch.float32).eps


@triton.jit
def _rms_norm_unweighted(x_ptr, out_ptr, n_cols, x_stride, out_stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row.to(tl.int64) * x_stride + cols, mask=mask, other=0.0)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(out_ptr + row.to(tl.int64) * out_stride + cols, x * rstd, mask=mask)  # the defect: no weight


def run(inputs, outputs):
    x = next(t for t in inputs.values() if t.dim() == 2)
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _rms_norm_unweighted[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0), EPS,
                                    BLOCK=triton.next_power_of_2(n_cols), num_warps=8)
