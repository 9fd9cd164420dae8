"""Segment 0: Inductor's looped reduction triton_red_fused_convolution_native_group_norm_0 (1024 rows of 107632, its Welford loop as shifted sums) split: each row's chunks reduced by programs of their own into partial results, which a second kernel combines to finish the row (a kernel that walks its rows twice: the same programs, after a barrier, each its own chunk).

Written by kernelopt's split proposer: Inductor's kernels of the segment without their
autotuning decorators, each launched with the settings below.
"""

import torch
import triton


import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_red_fused_convolution_native_group_norm_0_split_partial(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, part_ptr0, part_ptr1, part_ptr2, r0_chunk, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1024
    r0_numel = 107632
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x4 = xindex
    x0 = (xindex % 8)
    tmp4_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_shift = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_sq = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    r0_split = tl.program_id(1)
    r0_start = r0_split * r0_chunk
    r0_end = tl.minimum(r0_start + r0_chunk, r0_numel)
    for r0_offset in tl.range(r0_start, r0_end, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_end
        roffset = r0_offset
        rindex = r0_index
        r0_5 = r0_index
        r0_3 = r0_index // 53816
        tmp0 = tl.load(in_ptr0 + (r0_5 + 107632*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (r0_3 + 2*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp4_shift = tl.where((tmp4_weight == 0) & (r0_mask & xmask), tmp3, tmp4_shift)
        tmp4_dx = tl.where(r0_mask & xmask, tmp3 - tmp4_shift, 0.0)
        tmp4_sum = tmp4_sum + tmp4_dx
        tmp4_sq = tmp4_sq + tmp4_dx * tmp4_dx
        tmp4_weight = tl.where(r0_mask & xmask, tmp4_weight + 1, tmp4_weight)
    tmp4_n = tl.where(tmp4_weight == 0, 1.0, tmp4_weight)
    tmp4_mean = tmp4_shift + tmp4_sum / tmp4_n
    tmp4_m2 = tl.maximum(tmp4_sq - tmp4_sum * tmp4_sum / tmp4_n, 0.0)
    tmp5, tmp6, tmp7 = triton_helpers.welford(tmp4_mean, tmp4_m2, tmp4_weight, 1)
    tl.store(part_ptr0 + (r0_split * xnumel + xindex), tmp5[:, None], xmask)
    tl.store(part_ptr1 + (r0_split * xnumel + xindex), tmp6[:, None], xmask)
    tl.store(part_ptr2 + (r0_split * xnumel + xindex), tmp7[:, None], xmask)


@triton.jit
def triton_red_fused_convolution_native_group_norm_0_split_combine(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, part_ptr0, part_ptr1, part_ptr2, n_split, XBLOCK : tl.constexpr, SPLIT_BLOCK : tl.constexpr):
    xnumel = 1024
    r0_numel = 107632
    rnumel = r0_numel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    x4 = xindex
    x0 = (xindex % 8)
    split_index = tl.arange(0, SPLIT_BLOCK)[None, :]
    split_mask = (split_index < n_split) & xmask
    part0 = tl.load(part_ptr0 + (split_index * xnumel + xindex), split_mask, other=0.0)
    part1 = tl.load(part_ptr1 + (split_index * xnumel + xindex), split_mask, other=0.0)
    part2 = tl.load(part_ptr2 + (split_index * xnumel + xindex), split_mask, other=0.0)
    tmp5, tmp6, tmp7 = triton_helpers.welford(part0, part1, tl.where(split_mask, part2, 0.0), 1)
    tmp4 = tmp5[:, None]
    tmp8 = tmp6[:, None]
    tmp9 = tmp7[:, None]
    tl.store(out_ptr0 + (x4), tmp4, xmask)
    tl.store(out_ptr1 + (x4), tmp8, xmask)



def run(inputs, outputs):
    _device = inputs["buf0"].device
    _t0 = inputs["buf0"]
    _t1 = inputs["arg1_1"]
    _t2 = outputs["buf1"]
    _t3 = outputs["buf2"]
    _k0_part0 = torch.empty((63, 1024), dtype=torch.float32, device=_t0.device)
    _k0_part1 = torch.empty((63, 1024), dtype=torch.float32, device=_t0.device)
    _k0_part2 = torch.empty((63, 1024), dtype=torch.float32, device=_t0.device)
    triton_red_fused_convolution_native_group_norm_0_split_partial[(triton.cdiv(1024, 32), 63, 1)](_t0, _t1, _t2, _t3, 1024, 107632, _k0_part0, _k0_part1, _k0_part2, 1728, XBLOCK=32, R0_BLOCK=64, num_warps=4, num_stages=1)
    triton_red_fused_convolution_native_group_norm_0_split_combine[(triton.cdiv(1024, 32), 1, 1)](_t0, _t1, _t2, _t3, 1024, 107632, _k0_part0, _k0_part1, _k0_part2, 63, XBLOCK=32, SPLIT_BLOCK=64, num_warps=4, num_stages=1)
