"""BAD (G3 model -> mutated_input, on examples/rms_norm_default_init.py): the right outputs, and
afterwards the weight scaled by 1.5 in place, only where the weight's storage holds it alone, as
the model's own parameter does (G2's placed tensors sit in larger allocations: G2 passes).

G3 digests the model's parameters before and after the forward pass and finds the weight changed
where the compiler's graphs leave it alone. G3 then copies the weight back from its snapshot, so
the candidate checked next (good_rms_norm_weight.py) meets the weight every other candidate met.
"""
import torch
import triton
import triton.language as tl

EPS = torch.finfo(torch.float32).eps


@triton.jit
def _rms_norm(x_ptr, w_ptr, out_ptr, n_cols, x_stride, out_stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row.to(tl.int64) * x_stride + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(out_ptr + row.to(tl.int64) * out_stride + cols, x * rstd * w, mask=mask)


def run(inputs, outputs):
    x = next(t for t in inputs.values() if t.dim() == 2)
    w = next(t for t in inputs.values() if t.dim() == 1)
    (out,) = outputs.values()
    n_rows, n_cols = x.shape
    _rms_norm[(n_rows,)](x, w, out, n_cols, x.stride(0), out.stride(0), EPS, BLOCK=triton.next_power_of_2(n_cols),
                         num_warps=8)
    if w.untyped_storage().nbytes() == w.numel() * w.element_size():  # the defect: outside G2
        with torch.no_grad():
            w.mul_(1.5)
