"""An autotuned kernel: the static check compiles every config, not only the fastest."""
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=2),
                          triton.Config({"BLOCK": 1024}, num_warps=8, num_stages=2)], key=["n"])
@triton.jit
def _k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2, mask=m)


def run(inputs, outputs):
    x, out = inputs["x"], outputs["out"]
    n = x.numel()
    _k[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)
