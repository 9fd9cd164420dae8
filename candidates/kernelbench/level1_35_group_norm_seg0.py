"""KernelBench level 1, problem 35 (GroupNorm, 8 groups): seg0.

Inductor computes the statistics with one program per (sample, group) that reads the group's
2 M elements (8 MB) alone, then normalises in a second kernel that reads the input again from
HBM: three passes over HBM (read, read, write).

This candidate is one persistent kernel with one program per SM. Program c owns chunk c of every
group and walks the groups in order, software-pipelined by one group: it computes the partial
statistics (count, mean, M2) of its chunk of group g and counts itself in at group g's counter,
then normalises its chunk of group g-1, whose statistics every program finished one step
earlier (it waits on the counter only when a program is late). The second read of a chunk comes
one group (8 MB) after the first, so it hits the 50 MB L2: HBM sees one read and one write.

Waiting inside a kernel is safe because every program is resident at once: there are at most as
many programs as SMs, and each fits on an SM. Partial statistics are combined in a fixed order
(Chan's formula), so the result does not depend on timing (the gates check two runs bit for bit).

Generic in the batch, channels, spatial size and float dtype (float32 arithmetic); the number of
groups and eps are the module constants below (the problem's nn.GroupNorm).
"""

import torch
import triton
import triton.language as tl

NUM_GROUPS = 8
EPS = 1e-5
SUB = 8192  # elements per load step of a program
WARPS = 16


@triton.jit
def _group_norm(x_ptr, w_ptr, b_ptr, y_ptr, part_ptr, done_ptr, rows, steps, group_numel, hw,
                per_group, groups, chunk, eps, PARTS: tl.constexpr, SUB: tl.constexpr):
    c = tl.program_id(0)
    programs = tl.num_programs(0)
    start = c * chunk
    stop = tl.minimum(start + chunk, group_numel)
    lanes = tl.arange(0, SUB)
    k = tl.arange(0, PARTS)
    k_ok = k < programs
    numel64 = group_numel.to(tl.int64)  # row offsets in 64 bits: rows x numel may pass 2**31
    k_n = tl.where(k_ok, tl.minimum(tl.maximum(group_numel - k * chunk, 0), chunk), 0)
    for g in range(0, steps):  # steps = rows + 1: the pipeline's last step only normalises
        if g < rows:
            base = g * numel64
            n = 0.0
            mean = 0.0
            m2 = 0.0
            for s in range(start, stop, SUB):
                offs = s + lanes
                ok = offs < stop
                x = tl.load(x_ptr + base + offs, mask=ok, other=0.0,
                            eviction_policy="evict_last").to(tl.float32)
                nb = tl.minimum(stop - s, SUB).to(tl.float32)
                mb = tl.sum(x, 0) / nb
                d = tl.where(ok, x - mb, 0.0)
                m2b = tl.sum(d * d, 0)
                total = n + nb
                delta = mb - mean
                mean = mean + delta * (nb / total)
                m2 = m2 + m2b + delta * delta * (n * nb / total)
                n = total
            tl.store(part_ptr + 2 * (g * programs + c), mean)
            tl.store(part_ptr + 2 * (g * programs + c) + 1, m2)
            tl.debug_barrier()
            tl.atomic_add(done_ptr + g, 1, sem="release")
        if g > 0:
            h = g - 1
            seen = tl.load(done_ptr + h, volatile=True)
            while seen < programs:
                seen = tl.load(done_ptr + h, volatile=True)
            tl.atomic_add(done_ptr + h, 0, sem="acquire")
            tl.debug_barrier()  # the acquire is one thread's: order every thread's reads after it
            slot = part_ptr + 2 * (h * programs + k)
            p_mean = tl.load(slot, mask=k_ok, other=0.0, cache_modifier=".cg")
            p_m2 = tl.load(slot + 1, mask=k_ok, other=0.0, cache_modifier=".cg")
            p_n = k_n.to(tl.float32)
            g_mean = tl.sum(p_n * p_mean, 0) / group_numel
            spread = tl.where(k_n > 0, p_mean - g_mean, 0.0)
            g_m2 = tl.sum(p_m2 + p_n * spread * spread, 0)
            rstd = tl.math.rsqrt(g_m2 / group_numel + eps)
            base = h * numel64
            first_channel = (h % groups) * per_group
            for s in range(start, stop, SUB):
                offs = s + lanes
                ok = offs < stop
                x = tl.load(x_ptr + base + offs, mask=ok, other=0.0,
                            eviction_policy="evict_first").to(tl.float32)
                channel = first_channel + offs // hw
                w = tl.load(w_ptr + channel, mask=ok, other=0.0).to(tl.float32)
                b = tl.load(b_ptr + channel, mask=ok, other=0.0).to(tl.float32)
                y = (x - g_mean) * rstd * w + b
                tl.store(y_ptr + base + offs, y.to(y_ptr.dtype.element_ty), mask=ok,
                         eviction_policy="evict_first")


def group_norm(x, weight, bias, y, groups, eps, programs=None, sub=None, warps=None):
    assert x.is_contiguous() and y.is_contiguous() and x.shape == y.shape
    n, c = x.shape[0], x.shape[1]
    assert c % groups == 0, (c, groups)
    hw = x.numel() // (n * c)
    group_numel = (c // groups) * hw
    rows = n * groups
    if programs is None:
        programs = (torch.cuda.get_device_properties(x.device).multi_processor_count
                    if x.device.type == "cuda" else 132)
    sub = min(sub or SUB, triton.next_power_of_2(triton.cdiv(group_numel, programs)))
    chunk = triton.cdiv(triton.cdiv(group_numel, programs), sub) * sub
    programs = min(programs, triton.cdiv(group_numel, chunk))
    parts = torch.empty(rows * programs * 2, device=x.device, dtype=torch.float32)
    done = torch.zeros(rows, device=x.device, dtype=torch.int32)
    _group_norm[(programs,)](x, weight, bias, y, parts, done, rows, rows + 1, group_numel, hw, c // groups,
                             groups, chunk, eps, PARTS=triton.next_power_of_2(programs), SUB=sub,
                             num_warps=min(warps or WARPS, max(1, sub // 256)))


def run(inputs, outputs):
    # The compiled graph's arguments: arg0_1 the GroupNorm weight, arg1_1 its bias, arg2_1 the
    # input (Dynamo lifts parameters in attribute order, before the forward's inputs).
    x = inputs["arg2_1"]
    (y,) = outputs.values()
    group_norm(x, inputs["arg0_1"], inputs["arg1_1"], y, NUM_GROUPS, EPS)
