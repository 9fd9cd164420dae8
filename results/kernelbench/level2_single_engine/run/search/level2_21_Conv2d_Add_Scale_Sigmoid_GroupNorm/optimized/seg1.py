"""Segment 1: Inductor's looped reduction over a channels-last tensor triton_red_fused_add_convolution_mul_native_group_norm_sigmoid_2 (128 samples x 8 groups, 64516 spatial x 32 channels, its Welford loop as shifted sums) retiled: each program reduces one sample's chunk of spatial rows in tiles [spatial, channels] read in memory order, and a second kernel combines the chunks and channels of each row.

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
def triton_red_fused_add_convolution_mul_native_group_norm_sigmoid_2_retile_partial(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, xnumel, r0_numel, part_ptr0, part_ptr1, part_ptr2, s_chunk, n_chunks, SB : tl.constexpr, CB : tl.constexpr):
    xnumel = 1024
    r0_numel = 258064
    rnumel = r0_numel
    tile_n = tl.program_id(0) // n_chunks
    tile_k = tl.program_id(0) % n_chunks
    tile_s0 = tile_k * s_chunk
    tile_s1 = tl.minimum(tile_s0 + s_chunk, 64516)
    tile_c = tl.arange(0, CB)[None, :]
    xindex = tile_n * 8 + tile_c // 4
    xmask = tl.full([1, CB], True, tl.int1)
    x0 = tile_c // 4
    x1 = tile_n
    tmp9_mean = tl.zeros([SB, CB], tl.float32)
    tmp9_m2 = tl.zeros([SB, CB], tl.float32)
    tmp9_weight = tl.zeros([SB, CB], tl.float32)
    tmp9_shift = tl.zeros([SB, CB], tl.float32)
    tmp9_sum = tl.zeros([SB, CB], tl.float32)
    tmp9_sq = tl.zeros([SB, CB], tl.float32)
    x4 = xindex
    for tile_offset in tl.range(tile_s0, tile_s1, SB):
        tile_s = tile_offset + tl.arange(0, SB)[:, None]
        r0_offset = tile_offset - tile_s0
        tile_sc = tl.minimum(tile_s, 64516 - 1)
        r0_index = tile_sc * 4 + tile_c % 4
        r0_mask = tile_s < tile_s1
        roffset = r0_offset
        rindex = r0_index
        r0_2 = tile_c % 4
        r0_3 = tile_sc
        tmp0 = tl.load(in_ptr0 + (tile_c + 32*r0_3 + 2064512*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (tile_c), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp3 = tl.load(in_ptr2 + (tile_c), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp5 = tl.load(in_ptr3 + (tile_c), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp4 = tmp2 + tmp3
        tmp6 = tmp4 * tmp5
        tmp7 = tl.sigmoid(tmp6)
        tmp8 = tl.broadcast_to(tmp7, [SB, CB])
        tmp9_shift = tl.where((tmp9_weight == 0) & (r0_mask & xmask), tmp8, tmp9_shift)
        tmp9_dx = tl.where(r0_mask & xmask, tmp8 - tmp9_shift, 0.0)
        tmp9_sum = tmp9_sum + tmp9_dx
        tmp9_sq = tmp9_sq + tmp9_dx * tmp9_dx
        tmp9_weight = tl.where(r0_mask & xmask, tmp9_weight + 1, tmp9_weight)
    tile_g = tl.arange(0, CB // 4)
    tile_at = (tile_n * 8 + tl.minimum(tile_g, 8 - 1)) * n_chunks + tile_k
    tile_keep = tile_g < 8
    tmp9_n = tl.where(tmp9_weight == 0, 1.0, tmp9_weight)
    tmp9_mean = tmp9_shift + tmp9_sum / tmp9_n
    tmp9_m2 = tl.maximum(tmp9_sq - tmp9_sum * tmp9_sum / tmp9_n, 0.0)
    tmp10_c, tmp11_c, tmp12_c = triton_helpers.welford(tmp9_mean, tmp9_m2, tmp9_weight, 0)
    tmp10, tmp11, tmp12 = triton_helpers.welford(tl.reshape(tmp10_c, [CB // 4, 4]), tl.reshape(tmp11_c, [CB // 4, 4]), tl.reshape(tmp12_c, [CB // 4, 4]), 1)
    tl.store(part_ptr0 + tile_at, tmp10, tile_keep)
    tl.store(part_ptr1 + tile_at, tmp11, tile_keep)
    tl.store(part_ptr2 + tile_at, tmp12, tile_keep)


@triton.jit
def triton_red_fused_add_convolution_mul_native_group_norm_sigmoid_2_split_combine(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, xnumel, r0_numel, part_ptr0, part_ptr1, part_ptr2, n_split, XBLOCK : tl.constexpr, SPLIT_BLOCK : tl.constexpr):
    xnumel = 1024
    r0_numel = 258064
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
    tmp10, tmp11, tmp12 = triton_helpers.welford(part0, part1, tl.where(split_mask, part2, 0.0), 1)
    tmp9 = tmp10[:, None]
    tmp13 = tmp11[:, None]
    tmp14 = tmp12[:, None]
    tl.store(out_ptr0 + (x4), tmp9, xmask)
    tl.store(out_ptr1 + (x4), tmp13, xmask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused_add_convolution_mul_native_group_norm_sigmoid_3(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 4096
    xnumel = 64516
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y0 = (yindex % 32)
    y1 = yindex // 32
    y3 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + 32*x2 + 2064512*y1), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (y0), None, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr2 + (y0), None, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr3 + (y0), None, eviction_policy='evict_last')
    tmp8 = tl.load(in_ptr4 + (y3 // 4), None, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr5 + (y3 // 4), None, eviction_policy='evict_last')
    tmp17 = tl.load(in_ptr6 + (y0), None, eviction_policy='evict_last')
    tmp19 = tl.load(in_ptr7 + (y0), None, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp6 = tmp4 * tmp5
    tmp7 = tl.sigmoid(tmp6)
    tmp9 = tmp7 - tmp8
    tmp11 = tl.full([1, 1], 258064.0, tl.float32)
    tmp12 = (tmp10 / tmp11)
    tmp13 = tl.full([1, 1], 1e-05, tl.float32)
    tmp14 = tmp12 + tmp13
    tmp15 = libdevice.rsqrt(tmp14)
    tmp16 = tmp9 * tmp15
    tmp18 = tmp16 * tmp17
    tmp20 = tmp18 + tmp19
    tl.store(out_ptr0 + (x2 + 64516*y3), tmp20, xmask)



def run(inputs, outputs):
    _device = inputs["buf2"].device
    _t0 = inputs["buf2"]
    _t1 = inputs["arg1_1"]
    _t2 = inputs["arg3_1"]
    _t3 = inputs["arg4_1"]
    _t4 = torch.empty_strided((128, 8, 1, 1,), (8, 1, 1024, 1024,), dtype=torch.float32, device=_device)
    _t5 = torch.empty_strided((128, 8, 1, 1,), (8, 1, 1024, 1024,), dtype=torch.float32, device=_device)
    _k0_part0 = torch.empty((253, 1024), dtype=torch.float32, device=_t0.device)
    _k0_part1 = torch.empty((253, 1024), dtype=torch.float32, device=_t0.device)
    _k0_part2 = torch.empty((253, 1024), dtype=torch.float32, device=_t0.device)
    triton_red_fused_add_convolution_mul_native_group_norm_sigmoid_2_retile_partial[(32384, 1, 1)](_t0, _t1, _t2, _t3, _t4, _t5, 1024, 258064, _k0_part0, _k0_part1, _k0_part2, 256, 253, SB=16, CB=32, num_warps=4, num_stages=1)
    triton_red_fused_add_convolution_mul_native_group_norm_sigmoid_2_split_combine[(triton.cdiv(1024, 8), 1, 1)](_t0, _t1, _t2, _t3, _t4, _t5, 1024, 258064, _k0_part0, _k0_part1, _k0_part2, 253, XBLOCK=8, SPLIT_BLOCK=256, num_warps=4, num_stages=1)
    _t6 = inputs["arg5_1"]
    _t7 = inputs["arg6_1"]
    _t8 = outputs["buf6"]
    triton_poi_fused_add_convolution_mul_native_group_norm_sigmoid_3[(triton.cdiv(64516, 512), triton.cdiv(4096, 32), 1)](_t0, _t1, _t2, _t3, _t4, _t5, _t6, _t7, _t8, 4096, 64516, YBLOCK=32, XBLOCK=512, num_warps=8, num_stages=1)
