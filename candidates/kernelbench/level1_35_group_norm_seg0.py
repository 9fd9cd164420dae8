"""KernelBench level 1, problem 35 (GroupNorm, 8 groups): seg0.

Inductor computes the statistics with one program per (sample, group) that reads the group's
2 M elements (8 MB) alone, then normalises in a second kernel that reads the input again: three
passes over HBM (read, read, write) where two would do.

This candidate splits every group into chunks small enough to stay in registers (one chunk per
program) and lets the chunks of a group meet once: each program stores its chunk's mean and M2,
counts itself in at the group's counter and waits until all chunks of its group have arrived,
then combines the partial statistics (Chan's formula, in a fixed order: the result does not depend
on the arrival order) and normalises the chunk it still holds. Input read once, output written once.

Waiting inside a kernel is safe only if every program of a group can be resident at the same time.
Programs take a ticket when they start and use it as their index, so the programs holding tickets
are always a prefix; with at most one group's worth of chunks per SM count (checked below), the
lowest unfinished group can always make progress. When a group is too large for that, the same
kernel runs in two launches (partial statistics, then combine and normalise) without waiting.

Generic in the batch, channels, spatial size and dtype (float32 accumulation); the number of
groups and eps are the module constants below (the problem's nn.GroupNorm).
"""

import torch
import triton
import triton.language as tl

NUM_GROUPS = 8
EPS = 1e-5
MAX_BLOCK = 32768


@triton.jit
def _group_norm(x_ptr, w_ptr, b_ptr, y_ptr, part_ptr, sync_ptr, group_numel, hw, per_group,
                groups, n_chunks, eps, BLOCK: tl.constexpr, PARTS: tl.constexpr,
                PHASE: tl.constexpr):
    # PHASE 0: statistics, meeting and normalisation in one launch; 1: partial statistics only;
    # 2: combine and normalise (after a PHASE 1 launch).
    if PHASE == 0:
        ticket = tl.atomic_add(sync_ptr, 1)
    else:
        ticket = tl.program_id(0)
    row = ticket // n_chunks
    chunk = ticket % n_chunks
    offs = chunk * BLOCK + tl.arange(0, BLOCK)
    mask = offs < group_numel
    base = row.to(tl.int64) * group_numel
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    if PHASE != 2:
        count = tl.minimum(group_numel - chunk * BLOCK, BLOCK).to(tl.float32)
        mean_c = tl.sum(x, 0) / count
        centred = tl.where(mask, x - mean_c, 0.0)
        tl.store(part_ptr + 2 * ticket, mean_c)
        tl.store(part_ptr + 2 * ticket + 1, tl.sum(centred * centred, 0))
    if PHASE == 0:
        tl.debug_barrier()
        tl.atomic_add(sync_ptr + 1 + row, 1, sem="release")
        seen = tl.load(sync_ptr + 1 + row, volatile=True)
        while seen < n_chunks:
            seen = tl.load(sync_ptr + 1 + row, volatile=True)
        tl.atomic_add(sync_ptr + 1 + row, 0, sem="acquire")
    if PHASE != 1:
        k = tl.arange(0, PARTS)
        k_ok = k < n_chunks
        slot = part_ptr + 2 * (row * n_chunks + k)
        part_mean = tl.load(slot, mask=k_ok, other=0.0, cache_modifier=".cg")
        part_m2 = tl.load(slot + 1, mask=k_ok, other=0.0, cache_modifier=".cg")
        part_n = tl.where(k_ok, tl.minimum(group_numel - k * BLOCK, BLOCK), 0).to(tl.float32)
        mean = tl.sum(part_n * part_mean, 0) / group_numel
        spread = part_mean - mean
        m2 = tl.sum(part_m2 + part_n * spread * spread, 0)
        rstd = tl.math.rsqrt(m2 / group_numel + eps)
        channel = (row % groups) * per_group + offs // hw
        w = tl.load(w_ptr + channel, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + channel, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_ptr + base + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def plan(group_numel, sm_count):
    """(BLOCK, cooperative): one chunk per program, at most one group's chunks per SM count."""
    block = max(1024, triton.next_power_of_2(triton.cdiv(group_numel, sm_count)))
    if block <= MAX_BLOCK:
        return block, True
    return 8192, False


def group_norm(x, weight, bias, y, groups, eps, block=None, cooperative=None):
    assert x.is_contiguous() and y.is_contiguous() and x.shape == y.shape
    n, c = x.shape[0], x.shape[1]
    assert c % groups == 0, (c, groups)
    hw = x.numel() // (n * c)
    group_numel = (c // groups) * hw
    rows = n * groups
    sm_count = (torch.cuda.get_device_properties(x.device).multi_processor_count
                if x.device.type == "cuda" else 132)
    auto_block, auto_coop = plan(group_numel, sm_count)
    block = block or auto_block
    cooperative = auto_coop if cooperative is None else cooperative
    n_chunks = triton.cdiv(group_numel, block)
    parts = torch.empty(rows * n_chunks * 2, device=x.device, dtype=torch.float32)
    sync = torch.zeros(1 + rows, device=x.device, dtype=torch.int32)
    grid = (rows * n_chunks,)
    common = dict(BLOCK=block, PARTS=triton.next_power_of_2(n_chunks),
                  num_warps=min(16, max(4, block // 1024)))
    args = (x, weight, bias, y, parts, sync, group_numel, hw, c // groups, groups, n_chunks, eps)
    if cooperative:
        _group_norm[grid](*args, PHASE=0, **common)
    else:
        _group_norm[grid](*args, PHASE=1, **common)
        _group_norm[grid](*args, PHASE=2, **common)


def run(inputs, outputs):
    # The compiled graph's arguments: arg0_1 the GroupNorm weight, arg1_1 its bias, arg2_1 the
    # input (Dynamo lifts parameters in attribute order, before the forward's inputs).
    x = inputs["arg2_1"]
    (y,) = outputs.values()
    group_norm(x, inputs["arg0_1"], inputs["arg1_1"], y, NUM_GROUPS, EPS)
