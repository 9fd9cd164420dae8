"""Segment 1: Inductor's looped reduction over a channels-last tensor triton_red_fused_convolution_gelu_native_group_norm_2 (128 samples x 8 groups, 66564 spatial x 64 channels, its Welford loop as shifted sums) retiled: each program reduces one sample's chunk of spatial rows in tiles [spatial, channels] read in memory order, and a second kernel combines the chunks and channels of each row (on top of the rewrite rewrite: triton_red_fused_convolution_gelu_native_group_norm_2: 1 Welford reduction(s) made shifted sums (no division per element; the mean and M2 from the sums after the loop)).

Written by kernelopt's retile proposer: Inductor's kernels of the segment without their
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
def triton_red_fused_convolution_gelu_native_group_norm_2_retile_partial(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, part_ptr0, part_ptr1, part_ptr2, s_chunk, n_chunks, SB : tl.constexpr, CB : tl.constexpr):
    xnumel = 1024
    r0_numel = 532512
    rnumel = r0_numel
    tile_n = tl.program_id(0) // n_chunks
    tile_k = tl.program_id(0) % n_chunks
    tile_s0 = tile_k * s_chunk
    tile_s1 = tl.minimum(tile_s0 + s_chunk, 66564)
    tile_c = tl.arange(0, CB)[None, :]
    xindex = tile_n * 8 + tile_c // 8
    xmask = tl.full([1, CB], True, tl.int1)
    x0 = tile_c // 8
    x1 = tile_n
    tmp12_mean = tl.zeros([SB, CB], tl.float32)
    tmp12_m2 = tl.zeros([SB, CB], tl.float32)
    tmp12_weight = tl.zeros([SB, CB], tl.float32)
    tmp12_shift = tl.zeros([SB, CB], tl.float32)
    tmp12_sum = tl.zeros([SB, CB], tl.float32)
    tmp12_sq = tl.zeros([SB, CB], tl.float32)
    x4 = xindex
    for tile_offset in tl.range(tile_s0, tile_s1, SB):
        tile_s = tile_offset + tl.arange(0, SB)[:, None]
        r0_offset = tile_offset - tile_s0
        tile_sc = tl.minimum(tile_s, 66564 - 1)
        r0_index = tile_sc * 8 + tile_c % 8
        r0_mask = tile_s < tile_s1
        roffset = r0_offset
        rindex = r0_index
        r0_2 = tile_c % 8
        r0_3 = tile_sc
        tmp0 = tl.load(in_ptr0 + (tile_c + 64*r0_3 + 4260096*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (tile_c), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp3 = tl.full([1, 1], 0.5, tl.float32)
        tmp4 = tmp2 * tmp3
        tmp5 = tl.full([1, 1], 0.7071067811865476, tl.float32)
        tmp6 = tmp2 * tmp5
        tmp7 = libdevice.erf(tmp6)
        tmp8 = tl.full([1, 1], 1.0, tl.float32)
        tmp9 = tmp7 + tmp8
        tmp10 = tmp4 * tmp9
        tmp11 = tl.broadcast_to(tmp10, [SB, CB])
        tmp12_shift = tl.where((tmp12_weight == 0) & (r0_mask & xmask), tmp11, tmp12_shift)
        tmp12_dx = tl.where(r0_mask & xmask, tmp11 - tmp12_shift, 0.0)
        tmp12_sum = tmp12_sum + tmp12_dx
        tmp12_sq = tmp12_sq + tmp12_dx * tmp12_dx
        tmp12_weight = tl.where(r0_mask & xmask, tmp12_weight + 1, tmp12_weight)
    tile_g = tl.arange(0, CB // 8)
    tile_at = (tile_n * 8 + tl.minimum(tile_g, 8 - 1)) * n_chunks + tile_k
    tile_keep = tile_g < 8
    tmp12_n = tl.where(tmp12_weight == 0, 1.0, tmp12_weight)
    tmp12_mean = tmp12_shift + tmp12_sum / tmp12_n
    tmp12_m2 = tl.maximum(tmp12_sq - tmp12_sum * tmp12_sum / tmp12_n, 0.0)
    tmp13_c, tmp14_c, tmp15_c = triton_helpers.welford(tmp12_mean, tmp12_m2, tmp12_weight, 0)
    tmp13, tmp14, tmp15 = triton_helpers.welford(tl.reshape(tmp13_c, [CB // 8, 8]), tl.reshape(tmp14_c, [CB // 8, 8]), tl.reshape(tmp15_c, [CB // 8, 8]), 1)
    tl.store(part_ptr0 + tile_at, tmp13, tile_keep)
    tl.store(part_ptr1 + tile_at, tmp14, tile_keep)
    tl.store(part_ptr2 + tile_at, tmp15, tile_keep)


@triton.jit
def triton_red_fused_convolution_gelu_native_group_norm_2_split_combine(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, part_ptr0, part_ptr1, part_ptr2, n_split, XBLOCK : tl.constexpr, SPLIT_BLOCK : tl.constexpr):
    xnumel = 1024
    r0_numel = 532512
    rnumel = r0_numel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    x0 = (xindex % 8)
    x1 = xindex // 8
    x4 = xindex
    split_index = tl.arange(0, SPLIT_BLOCK)[None, :]
    split_mask = (split_index < n_split) & xmask
    part0 = tl.load(part_ptr0 + (xindex * n_split + split_index), split_mask, other=0.0)
    part1 = tl.load(part_ptr1 + (xindex * n_split + split_index), split_mask, other=0.0)
    part2 = tl.load(part_ptr2 + (xindex * n_split + split_index), split_mask, other=0.0)
    tmp13, tmp14, tmp15 = triton_helpers.welford(part0, part1, tl.where(split_mask, part2, 0.0), 1)
    tmp12 = tmp13[:, None]
    tmp16 = tmp14[:, None]
    tmp17 = tmp15[:, None]
    tl.store(out_ptr0 + (x4), tmp12, xmask)
    tl.store(out_ptr1 + (x4), tmp16, xmask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused_convolution_gelu_native_group_norm_3(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 8520192
    xnumel = 64
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y1 = yindex // 66564
    y0 = (yindex % 66564)
    tmp0 = tl.load(in_ptr0 + (x2 + 64*y3), xmask & ymask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (x2), xmask, eviction_policy='evict_last')
    tmp11 = tl.load(in_ptr2 + (8*y1 + (x2 // 8)), xmask & ymask, eviction_policy='evict_last')
    tmp13 = tl.load(in_ptr3 + (8*y1 + (x2 // 8)), xmask & ymask, eviction_policy='evict_last')
    tmp20 = tl.load(in_ptr4 + (x2), xmask, eviction_policy='evict_last')
    tmp22 = tl.load(in_ptr5 + (x2), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1, 1], 0.5, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tl.full([1, 1], 0.7071067811865476, tl.float32)
    tmp6 = tmp2 * tmp5
    tmp7 = libdevice.erf(tmp6)
    tmp8 = tl.full([1, 1], 1.0, tl.float32)
    tmp9 = tmp7 + tmp8
    tmp10 = tmp4 * tmp9
    tmp12 = tmp10 - tmp11
    tmp14 = tl.full([1, 1], 532512.0, tl.float32)
    tmp15 = (tmp13 / tmp14)
    tmp16 = tl.full([1, 1], 1e-05, tl.float32)
    tmp17 = tmp15 + tmp16
    tmp18 = libdevice.rsqrt(tmp17)
    tmp19 = tmp12 * tmp18
    tmp21 = tmp19 * tmp20
    tmp23 = tmp21 + tmp22
    tl.store(out_ptr0 + (y0 + 66564*x2 + 4260096*y1), tmp23, xmask & ymask)



def run(inputs, outputs):
    _device = inputs["buf2"].device
    _t0 = inputs["buf2"]
    _t1 = inputs["arg1_1"]
    _t2 = torch.empty_strided((128, 8, 1, 1,), (8, 1, 1024, 1024,), dtype=torch.float32, device=_device)
    _t3 = torch.empty_strided((128, 8, 1, 1,), (8, 1, 1024, 1024,), dtype=torch.float32, device=_device)
    _k0_part0 = torch.empty((261, 1024), dtype=torch.float32, device=_t0.device)
    _k0_part1 = torch.empty((261, 1024), dtype=torch.float32, device=_t0.device)
    _k0_part2 = torch.empty((261, 1024), dtype=torch.float32, device=_t0.device)
    triton_red_fused_convolution_gelu_native_group_norm_2_retile_partial[(33408, 1, 1)](_t0, _t1, _t2, _t3, 1024, 532512, _k0_part0, _k0_part1, _k0_part2, 256, 261, SB=16, CB=64, num_warps=4, num_stages=1)
    triton_red_fused_convolution_gelu_native_group_norm_2_split_combine[(triton.cdiv(1024, 4), 1, 1)](_t0, _t1, _t2, _t3, 1024, 532512, _k0_part0, _k0_part1, _k0_part2, 261, XBLOCK=4, SPLIT_BLOCK=512, num_warps=4, num_stages=1)
    _t4 = inputs["arg3_1"]
    _t5 = inputs["arg4_1"]
    _t6 = outputs["buf6"]
    triton_poi_fused_convolution_gelu_native_group_norm_3[(triton.cdiv(64, 8), triton.cdiv(8520192, 256), 1)](_t0, _t1, _t2, _t3, _t4, _t5, _t6, 8520192, 64, YBLOCK=256, XBLOCK=8, num_warps=8, num_stages=1)
