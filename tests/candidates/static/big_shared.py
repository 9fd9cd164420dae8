"""Compiles, but its tiles need more shared memory than an H100/H200 block may have (227 KiB):
the static check reports the size; the engine judges it."""
import triton
import triton.language as tl


@triton.jit
def _mm(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


def run(inputs, outputs):
    a, b, c = inputs["a"], inputs["b"], outputs["c"]
    _mm[(1,)](a, b, c, a.shape[1], BM=256, BN=256, BK=128, num_warps=8, num_stages=4)
