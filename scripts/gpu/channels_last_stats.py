"""Micro-benchmark: a group norm's statistics over a channels-last conv output [N, S, C] in groups of
CG = C / G channels, the kernels after L2's convolutions (L2/85, 19, 21; L2/17's instance norm is
G = C). Three forms, each checked against float64 PyTorch:
- inductor: Inductor's kernel (one program per XBLOCK (n, group) rows, its loop over the row);
- split: the same tile with the row cut into SPLIT chunks (program_id(1)), partials per chunk and
  a combine kernel (what kernelopt's `split` strategy writes);
- coalesced: tiles [SB spatial, C channels] of one sample, contiguous in memory, per-channel shifted
  sums, combined into groups and over chunks.
ACT applies an elementwise function to x + bias first, as the fused kernels do (1: GELU with erf,
2: sigmoid). Question: how far above its floor does each run, and is the access pattern or the
number of programs what holds Inductor's kernel there?
Usage: python3 scripts/gpu/channels_last_stats.py [small]   (small: under TRITON_INTERPRET=1)"""
import json, os, sys
import torch, triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers


@triton.jit
def act_of(v, ACT: tl.constexpr):
    if ACT == 1:
        v = 0.5 * v * (tl.erf(v * 0.7071067811865476) + 1.0)  # libdevice.erf on the GPU too
    elif ACT == 2:
        v = tl.sigmoid(v)
    return v


@triton.jit
def inductor_stats(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, r0_chunk, S,
                   C: tl.constexpr, G: tl.constexpr, CG: tl.constexpr, ACT: tl.constexpr,
                   XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    # Inductor's triton_red_fused_convolution_native_group_norm_2 (L2/85), its sizes as
    # parameters; program_id(1) walks one chunk of r0_chunk elements (the whole row when 1 chunk).
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    r0_start = tl.program_id(1) * r0_chunk
    r0_end = tl.minimum(r0_start + r0_chunk, r0_numel)
    x0 = (xindex % G)
    x1 = xindex // G
    tmp4_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(r0_start, r0_end, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_end
        r0_2 = (r0_index % CG)
        r0_3 = r0_index // CG
        tmp0 = tl.load(in_ptr0 + (r0_2 + CG * x0 + C * r0_3 + (S * C) * x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (r0_2 + CG * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp3 = tl.broadcast_to(act_of(tmp0 + tmp1, ACT), [XBLOCK, R0_BLOCK])
        m, m2, w = triton_helpers.welford_reduce(tmp3, tmp4_mean, tmp4_m2, tmp4_weight, r0_offset == r0_start)
        tmp4_mean = tl.where(r0_mask & xmask, m, tmp4_mean)
        tmp4_m2 = tl.where(r0_mask & xmask, m2, tmp4_m2)
        tmp4_weight = tl.where(r0_mask & xmask, w, tmp4_weight)
    tmp5, tmp6, tmp7 = triton_helpers.welford(tmp4_mean, tmp4_m2, tmp4_weight, 1)
    at = tl.program_id(1) * xnumel + xindex
    tl.store(out_ptr0 + at, tmp5[:, None], xmask)
    tl.store(out_ptr1 + at, tmp6[:, None], xmask)
    tl.store(out_ptr2 + at, tmp7[:, None], xmask)


@triton.jit
def split_combine(mean_in, m2_in, w_in, mean_ptr, m2_ptr, xnumel, n_split, XBLOCK: tl.constexpr,
                  KB: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    k = tl.arange(0, KB)[None, :]
    ok = (k < n_split) & (xindex < xnumel)
    mean = tl.load(mean_in + k * xnumel + xindex, ok, other=0.0)
    m2 = tl.load(m2_in + k * xnumel + xindex, ok, other=0.0)
    w = tl.load(w_in + k * xnumel + xindex, ok, other=0.0)
    m, v, _ = triton_helpers.welford(mean, m2, w, 1)
    tl.store(mean_ptr + xindex, m[:, None], xindex < xnumel)
    tl.store(m2_ptr + xindex, v[:, None], xindex < xnumel)


@triton.jit
def cl_partial(x_ptr, b_ptr, part_ptr, S, chunk, n_chunks, C: tl.constexpr, G: tl.constexpr,
               CG: tl.constexpr, ACT: tl.constexpr, SB: tl.constexpr):
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
    shift = act_of(tl.load(base + lo * C + c) + bias, ACT)  # per channel: the chunk's first row
    s1 = tl.zeros([SB, C], tl.float32)
    s2 = tl.zeros([SB, C], tl.float32)
    for r in tl.range(lo, hi, SB):
        rows = r + s
        ok = (rows < hi)[:, None]
        v = tl.load(base + rows[:, None] * C + c[None, :], mask=ok, other=0.0, eviction_policy='evict_first')
        d = tl.where(ok, act_of(v + bias[None, :], ACT) - shift[None, :], 0.0)
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


# name: (N, C, G, S, ACT). The KernelBench ones are the odd L2 problems' conv outputs; "other" is a
# shape no KernelBench problem has.
SHAPES = {
    "L2_85": (128, 64, 16, 126 * 126, 0),
    "L2_19": (128, 64, 8, 258 * 258, 1),
    "L2_21": (128, 32, 8, 254 * 254, 2),
    "L2_17_stats": (128, 128, 128, 126 * 126, 0),
    "other": (48, 128, 32, 100 * 100, 0),
}


def timer(small):
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
    return t


def run_shape(name, shape, dev, small, res):
    N, C, G, S, ACT = shape
    CG = C // G
    x = torch.randn(N, S, C, device=dev) * 0.5 + 0.1  # channels-last memory
    b = torch.randn(C, device=dev)
    v = (x + b).double()
    v = torch.nn.functional.gelu(v) if ACT == 1 else torch.sigmoid(v) if ACT == 2 else v
    v = v.view(N, S, G, CG).permute(0, 2, 1, 3).reshape(N * G, S * CG)
    want_mean, want_m2 = v.mean(1), v.var(1, unbiased=False) * (S * CG)
    del v
    floor_ms = x.numel() * 4 / 4.25e9  # bytes over the copy bandwidth measured on the H200 (GB/s)
    t = timer(small)
    mean = torch.empty(N * G, device=dev)
    m2 = torch.empty(N * G, device=dev)
    rows, row = N * G, S * CG

    def record(entry):
        err = max((mean.double() - want_mean).abs().max().item(),
                  ((m2.double() - want_m2).abs() / want_m2).max().item())
        entry.update(shape=name, err=err, floor_ms=floor_ms)
        res.append(entry)
        print(entry, flush=True)

    inductor = [(8, 512, 8, 1)] if small else [(1, 2048, 16, 1), (8, 512, 8, 1), (16, 512, 8, 1),
                                               (64, 64, 4, 1)]
    split = [(G if G <= 16 else 16, 256, 4, 4)] if small else [
        (min(G, 16), 512, 8, 8), (min(G, 16), 512, 8, 32), (min(G, 8), 1024, 8, 16),
        (1, 2048, 8, 16), (min(G, 32), 128, 4, 16)]
    for xb, rb, w, sp in inductor + split:
        chunk = triton.cdiv(triton.cdiv(row, sp), rb) * rb
        n_split = triton.cdiv(row, chunk)
        part = torch.empty(3, n_split * rows, device=dev)

        def go():
            inductor_stats[(triton.cdiv(rows, xb), n_split)](
                x, b, part[0], part[1], part[2], rows, row, chunk, S, C, G, CG, ACT,
                XBLOCK=xb, R0_BLOCK=rb, num_warps=w)
            split_combine[(triton.cdiv(rows, 16),)](part[0], part[1], part[2], mean, m2, rows,
                                                    n_split, XBLOCK=16,
                                                    KB=max(2, triton.next_power_of_2(n_split)))
        ms = t(go)
        record({"kernel": "inductor" if sp == 1 else "split", "XBLOCK": xb, "R0_BLOCK": rb,
                "warps": w, "SPLIT": n_split, "ms": ms})
    coalesced = [(32, 256, 4)] if small else [(32, 512, 4), (64, 512, 4), (32, 1024, 4),
                                              (64, 1024, 8), (16, 256, 4), (32, 128, 4)]
    for sb, chunk, w in coalesced:
        if sb * C > 16384:
            continue
        n_chunks = triton.cdiv(S, chunk)
        part = torch.empty(N * n_chunks * 3 * G, device=dev)

        def go():
            cl_partial[(N * n_chunks,)](x, b, part, S, chunk, n_chunks, C, G, CG, ACT, SB=sb,
                                        num_warps=w)
            cl_combine[(N,)](part, mean, m2, n_chunks, G, KB=triton.next_power_of_2(n_chunks))
        ms = t(go)
        record({"kernel": "coalesced", "SB": sb, "chunk": chunk, "warps": w, "ms": ms})


def main():
    small = len(sys.argv) > 1 and sys.argv[1] == "small"
    dev = torch.device("cpu" if small else "cuda")
    shapes = {"small": (2, 64, 16, 1000, 1), "small_sigmoid": (2, 32, 8, 300, 2)} if small else SHAPES
    res = []
    for name, shape in shapes.items():
        run_shape(name, shape, dev, small, res)
        if not small:
            torch.cuda.empty_cache()
    if not small:
        json.dump(res, open(os.path.join(os.environ.get("OUT", "."), "channels_last_stats.json"), "w"), indent=1)
        for name in shapes:
            best = {}
            for r in res:
                if r["shape"] == name and (r["kernel"] not in best or r["ms"] < best[r["kernel"]]["ms"]):
                    best[r["kernel"]] = r
            print(name, {k: round(r["ms"], 4) for k, r in best.items()}, "floor", round(best["inductor"]["floor_ms"], 4))
    bad = [r for r in res if not r["err"] < 1e-3]
    assert not bad, bad
    print("ok")


if __name__ == "__main__":
    main()
