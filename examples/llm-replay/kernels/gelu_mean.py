"""L2/67 (conv, GELU, global average pool), segment 1: gelu(conv + bias) averaged over each
channel's H x W. Each program reduces one sample's chunk of spatial positions in [positions,
channels] tiles into partial sums; a second kernel adds a sample's chunks in a fixed order and
divides. When the positions lie at one stride (H's stride is W times W's, as in a channels-last
or a contiguous conv output) a position's address is one multiply, and a channels-last tile is
one contiguous block; otherwise the address is rebuilt from (h, w). The GELU's erf makes the
segment compute-bound, so the tiles wholly inside a chunk go without masks. Strides are read
from the tensors, so any layout is right."""
import torch
import triton
import triton.language as tl

CHUNKS = 32


@triton.jit
def _gelu_tile(x_ptr, b, base, s, cs, s_w, s_h, s_c, W, m, FLAT: tl.constexpr, MASKED: tl.constexpr):
    if FLAT:
        pos = s * s_w
    else:
        pos = (s // W) * s_h + (s % W) * s_w
    ptrs = base + pos[:, None] + (cs * s_c)[None, :]
    if MASKED:
        x = tl.load(ptrs, mask=m, other=0.0)
    else:
        x = tl.load(ptrs)
    x = x.to(tl.float32) + b[None, :]
    g = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    if MASKED:
        g = tl.where(m, g, 0.0)
    return g


@triton.jit
def _partial(x_ptr, b_ptr, part_ptr, C, HW, W, s_n, s_c, s_h, s_w, chunk, n_chunks,
             FLAT: tl.constexpr, EVEN_C: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_C: tl.constexpr):
    # The GELU's erf makes this segment compute-bound: the tiles that lie wholly inside the chunk
    # (all but the last) are read and summed without any mask.
    n = tl.program_id(0)
    k = tl.program_id(1)
    cs = tl.arange(0, BLOCK_C)
    cm = cs < C
    b = tl.load(b_ptr + cs, mask=cm, other=0.0).to(tl.float32)
    base = x_ptr + n.to(tl.int64) * s_n
    start = k * chunk
    stop = tl.minimum(start + chunk, HW)
    full = tl.maximum(stop - start, 0) // BLOCK_S * BLOCK_S
    acc = tl.zeros([BLOCK_S, BLOCK_C], dtype=tl.float32)
    rows = tl.arange(0, BLOCK_S)
    for off in range(0, full, BLOCK_S):
        s = start + off + rows
        if EVEN_C:
            acc += _gelu_tile(x_ptr, b, base, s, cs, s_w, s_h, s_c, W, None, FLAT, False)
        else:
            acc += _gelu_tile(x_ptr, b, base, s, cs, s_w, s_h, s_c, W, (s < stop)[:, None] & cm[None, :],
                              FLAT, True)
    s = start + full + rows
    acc += _gelu_tile(x_ptr, b, base, s, cs, s_w, s_h, s_c, W, (s < stop)[:, None] & cm[None, :], FLAT, True)
    tl.store(part_ptr + (n * n_chunks + k) * BLOCK_C + cs, tl.sum(acc, axis=0), mask=cm)


@triton.jit
def _finish(part_ptr, out_ptr, C, n_chunks, inv_hw, so_n, so_c, BLOCK_C: tl.constexpr):
    n = tl.program_id(0)
    cs = tl.arange(0, BLOCK_C)
    cm = cs < C
    acc = tl.zeros([BLOCK_C], dtype=tl.float32)
    for k in range(0, n_chunks):
        acc += tl.load(part_ptr + (n * n_chunks + k) * BLOCK_C + cs, mask=cm, other=0.0)
    tl.store(out_ptr + n * so_n + cs * so_c, acc * inv_hw, mask=cm)


def run(inputs, outputs):
    x = next(t for t in inputs.values() if t.dim() == 4)  # the conv's output
    b = next(t for t in inputs.values() if t.dim() == 1)  # the conv's bias
    (out,) = outputs.values()
    n, c, h, w = x.shape
    s_n, s_c, s_h, s_w = x.stride()
    block_c = triton.next_power_of_2(c)
    chunk = triton.cdiv(h * w, CHUNKS)
    part = torch.empty((n, CHUNKS, block_c), device=x.device, dtype=torch.float32)
    _partial[(n, CHUNKS)](x, b, part, c, h * w, w, s_n, s_c, s_h, s_w, chunk, CHUNKS,
                          FLAT=(h == 1 or s_h == w * s_w), EVEN_C=(c == block_c), BLOCK_S=64, BLOCK_C=block_c,
                          num_warps=4)
    _finish[(n,)](part, out, c, CHUNKS, 1.0 / (h * w), out.stride(0), out.stride(1),
                  BLOCK_C=block_c)
