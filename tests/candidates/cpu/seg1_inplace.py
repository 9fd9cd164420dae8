"""A correct candidate for segment 1, which updates arg2_1 in place: arg2_1 += buf0[0, :]."""
import triton
import triton.language as tl


@triton.jit
def _k(acc_ptr, src_ptr, n, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    m = cols < n
    tl.store(acc_ptr + cols, tl.load(acc_ptr + cols, mask=m) + tl.load(src_ptr + cols, mask=m), mask=m)


def run(inputs, outputs):
    assert inputs["arg2_1"] is outputs["arg2_1"]
    _k[(1,)](outputs["arg2_1"], inputs["buf0"], outputs["arg2_1"].numel(), BLOCK=64)
