"""L2/67, segment 1, WRONG on purpose: one program per sample and block of channels walks all of
H x W and averages the GELU of the conv output, but leaves out the conv's bias. G2 rejects it
(wrong_result): the means differ from the compiler's by far more than 1e-3."""
import triton
import triton.language as tl


@triton.jit
def _gelu_mean(x_ptr, out_ptr, C, HW, W, s_n, s_c, s_h, s_w, so_n, so_c, inv_hw,
               BLOCK_S: tl.constexpr, BLOCK_C: tl.constexpr):
    n = tl.program_id(0)
    channels = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    on = channels < C
    total = tl.zeros([BLOCK_C], dtype=tl.float32)
    for start in range(0, HW, BLOCK_S):
        pos = start + tl.arange(0, BLOCK_S)
        inside = pos < HW
        offsets = (pos // W) * s_h + (pos % W) * s_w
        mask = inside[:, None] & on[None, :]
        v = tl.load(x_ptr + n.to(tl.int64) * s_n + offsets[:, None] + channels[None, :] * s_c,
                    mask=mask, other=0.0).to(tl.float32)
        gelu = v * 0.5 * (1.0 + tl.math.erf(v * 0.7071067811865476))
        total += tl.sum(tl.where(mask, gelu, 0.0), axis=0)
    tl.store(out_ptr + n * so_n + channels * so_c, total * inv_hw, mask=on)


def run(inputs, outputs):
    x = next(t for t in inputs.values() if t.dim() == 4)
    (out,) = outputs.values()
    n, c, h, w = x.shape
    block_c = min(64, triton.next_power_of_2(c))
    _gelu_mean[(n, triton.cdiv(c, block_c))](x, out, c, h * w, w, *x.stride(), out.stride(0),
                                             out.stride(1), 1.0 / (h * w), BLOCK_S=64,
                                             BLOCK_C=block_c, num_warps=4)
