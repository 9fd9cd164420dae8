"""Wrong: adds a little noise that differs from run to run."""
import torch
import triton
import triton.language as tl


@triton.jit
def _k(x_ptr, b_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * x_stride + cols, mask=m)
    b = tl.load(b_ptr + cols, mask=m)
    tl.store(out_ptr + row * out_stride + cols, x * 2 + b, mask=m)


def run(inputs, outputs):
    x, b, out = inputs["arg0_1"], inputs["arg1_1"], outputs["buf0"]
    _k[(x.shape[0],)](x, b, out, x.shape[1], x.stride(0), out.stride(0), BLOCK=64)
    out.add_(torch.rand(out.shape, device=out.device) * 1e-6)  # the global generator moves on
