"""Micro-benchmark (next session): L2/85's group-norm statistics over a channels-last conv output
[N=128, C=64, 126 x 126] in groups of 4 channels. Inductor's kernel (one program per (n, group) row,
rows read 16 B of every 256 B) against a coalesced form: tiles [SB spatial, C channels] of one
sample, contiguous in memory, per-channel shifted sums, combined into groups and over chunks.
Question: is the 1.8x above the floor the access pattern? Usage: python3 scripts/gpu/channels_last_stats.py [small] (small: under TRITON_INTERPRET=1 on the CPU)"""
import json, os, sys
import torch, triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers


@triton.jit
def inductor_stats(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, S, C: tl.constexpr,
                   G: tl.constexpr, CG: tl.constexpr, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    # Inductor's triton_red_fused_convolution_native_group_norm_2, its sizes as parameters.
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    x0 = (xindex % G)
    x1 = xindex // G
    tmp4_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        r0_2 = (r0_index % CG)
        r0_3 = r0_index // CG
        tmp0 = tl.load(in_ptr0 + (r0_2 + CG * x0 + C * r0_3 + (S * C) * x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (r0_2 + CG * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp3 = tl.broadcast_to(tmp0 + tmp1, [XBLOCK, R0_BLOCK])
        m, m2, w = triton_helpers.welford_reduce(tmp3, tmp4_mean, tmp4_m2, tmp4_weight, r0_offset == 0)
        tmp4_mean = tl.where(r0_mask & xmask, m, tmp4_mean)
        tmp4_m2 = tl.where(r0_mask & xmask, m2, tmp4_m2)
        tmp4_weight = tl.where(r0_mask & xmask, w, tmp4_weight)
    tmp5, tmp6, tmp7 = triton_helpers.welford(tmp4_mean, tmp4_m2, tmp4_weight, 1)
    tl.store(out_ptr0 + xindex, tmp5[:, None], xmask)
    tl.store(out_ptr1 + xindex, tmp6[:, None], xmask)


@triton.jit
def cl_partial(x_ptr, b_ptr, part_ptr, S, chunk, n_chunks, C: tl.constexpr, G: tl.constexpr,
               CG: tl.constexpr, SB: tl.constexpr):
    # Program (n, k): spatial rows [k * chunk, (k + 1) * chunk) of sample n, tiles [SB, C].
    pid = tl.program_id(0)
    n = pid // n_chunks
    k = pid % n_chunks
    lo = k * chunk
    hi = tl.minimum(lo + chunk, S)
    c = tl.arange(0, C)
    s = tl.arange(0, SB)
    base = x_ptr + n.to(tl.int64) * S * C
    bias = tl.load(b_ptr + c)
    shift = tl.load(base + lo * C + c) + bias  # per channel: the chunk's first row
    s1 = tl.zeros([SB, C], tl.float32)
    s2 = tl.zeros([SB, C], tl.float32)
    for r in tl.range(lo, hi, SB):
        rows = r + s
        ok = (rows < hi)[:, None]
        v = tl.load(base + rows[:, None] * C + c[None, :], mask=ok, other=0.0, eviction_policy='evict_first')
        d = tl.where(ok, v + bias[None, :] - shift[None, :], 0.0)
        s1 += d
        s2 += d * d
    cnt = (hi - lo).to(tl.float32)
    t1 = tl.sum(s1, 0)  # [C]
    t2 = tl.sum(s2, 0)
    mean_c = shift + t1 / cnt
    m2_c = tl.maximum(t2 - t1 * t1 / cnt, 0.0)
    # Channels to groups (equal counts): Chan's combine.
    mean_gc = tl.reshape(mean_c, [G, CG])
    m2_gc = tl.reshape(m2_c, [G, CG])
    mean_g = tl.sum(mean_gc, 1) / CG
    dev = mean_gc - mean_g[:, None]
    m2_g = tl.sum(m2_gc, 1) + cnt * tl.sum(dev * dev, 1)
    g = tl.arange(0, G)
    out = part_ptr + (n * n_chunks + k) * (3 * G)
    tl.store(out + g, mean_g)
    tl.store(out + G + g, m2_g)
    tl.store(out + 2 * G + g, tl.zeros([G], tl.float32) + cnt * CG)


@triton.jit
def cl_combine(part_ptr, mean_ptr, m2_ptr, n_chunks, G: tl.constexpr, KB: tl.constexpr):
    n = tl.program_id(0)
    k = tl.arange(0, KB)[:, None]
    g = tl.arange(0, G)[None, :]
    ok = k < n_chunks
    base = part_ptr + (n * n_chunks + k) * (3 * G)
    mean = tl.load(base + g, mask=ok, other=0.0)
    m2 = tl.load(base + G + g, mask=ok, other=0.0)
    w = tl.load(base + 2 * G + g, mask=ok, other=0.0)
    m, v, _ = triton_helpers.welford(mean, m2, w, 0)
    tl.store(mean_ptr + n * G + tl.arange(0, G), m)
    tl.store(m2_ptr + n * G + tl.arange(0, G), v)


def main():
    small = len(sys.argv) > 1 and sys.argv[1] == "small"
    dev = torch.device("cpu" if small else "cuda")
    N, C, G, S = (2, 64, 16, 1000) if small else (128, 64, 16, 126 * 126)
    CG = C // G
    x = torch.randn(N, S, C, device=dev) * 0.5 + 0.1  # channels-last memory
    b = torch.randn(C, device=dev)
    v = (x + b).view(N, S, G, CG).permute(0, 2, 1, 3).reshape(N * G, S * CG).double()
    want_mean, want_m2 = v.mean(1), v.var(1, unbiased=False) * (S * CG)
    res = []

    def t(fn, n=20):
        if small:
            fn()
            return 0.0
        fn(); torch.cuda.synchronize()
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(2 * n)]
        for i in range(n):
            ev[2 * i].record(); fn(); ev[2 * i + 1].record()
        torch.cuda.synchronize()
        ts = sorted(ev[2 * i].elapsed_time(ev[2 * i + 1]) for i in range(n))
        return ts[n // 2]

    mean = torch.empty(N * G, device=dev)
    m2 = torch.empty(N * G, device=dev)
    for xb, rb, w in ([(8, 512, 8), (1, 2048, 8), (16, 512, 8), (64, 64, 4)] if not small else [(8, 512, 4)]):
        ms = t(lambda: inductor_stats[(triton.cdiv(N * G, xb),)](x, b, mean, m2, N * G, S * CG, S, C, G, CG, XBLOCK=xb, R0_BLOCK=rb, num_warps=w))
        err = max((mean.double() - want_mean).abs().max().item(), ((m2.double() - want_m2).abs() / want_m2).max().item())
        res.append({"kernel": "inductor", "XBLOCK": xb, "R0_BLOCK": rb, "warps": w, "ms": ms, "err": err}); print(res[-1], flush=True)
    for sb, chunk, w in ([(32, 256, 4)] if small else [(32, 512, 4), (64, 512, 4), (32, 1024, 4), (64, 1024, 8), (128, 2048, 8), (16, 256, 4), (64, 256, 4), (32, 128, 4)]):
        n_chunks = triton.cdiv(S, chunk)
        part = torch.empty(N * n_chunks * 3 * G, device=dev)
        def run():
            cl_partial[(N * n_chunks,)](x, b, part, S, chunk, n_chunks, C, G, CG, SB=sb, num_warps=w)
            cl_combine[(N,)](part, mean, m2, n_chunks, G, KB=triton.next_power_of_2(n_chunks))
        ms = t(run)
        err = max((mean.double() - want_mean).abs().max().item(), ((m2.double() - want_m2).abs() / want_m2).max().item())
        res.append({"kernel": "coalesced", "SB": sb, "chunk": chunk, "warps": w, "ms": ms, "err": err}); print(res[-1], flush=True)
    if not small:
        json.dump(res, open(os.path.join(os.environ.get("OUT", "."), "channels_last_stats.json"), "w"), indent=1)
    assert all(r["err"] < 1e-3 for r in res), res
    print("ok")


if __name__ == "__main__":
    main()
