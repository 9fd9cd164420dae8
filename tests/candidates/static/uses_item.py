"""Reads a value on the host (.item()): impossible on meta tensors, a run_error, not a compile one."""
import triton
import triton.language as tl


@triton.jit
def _k(x_ptr, out_ptr, scale, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * scale)


def run(inputs, outputs):
    x, out = inputs["x"], outputs["out"]
    _k[(1,)](x, out, float(x.abs().max().item()), BLOCK=1024)
