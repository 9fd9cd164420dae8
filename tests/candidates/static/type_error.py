"""Does not compile: tl.arange needs constexpr bounds, n_cols is a runtime value."""
import triton
import triton.language as tl


@triton.jit
def _k(x_ptr, out_ptr, n_cols):
    cols = tl.arange(0, n_cols)
    tl.store(out_ptr + cols, tl.load(x_ptr + cols) * 2)


def run(inputs, outputs):
    x, out = inputs["x"], outputs["out"]
    _k[(1,)](x, out, x.numel())
