"""Segment 1: Inductor's looped reduction over a channels-last tensor triton_red_fused_convolution_native_group_norm_2 (128 samples x 16 groups, 15876 spatial x 64 channels, its Welford loop as shifted sums) retiled: each program reduces one sample's chunk of spatial rows in tiles [spatial, channels] read in memory order, and a second kernel combines the chunks and channels of each row (on top of the fuse rewrite: triton_poi_fused_convolution_mul_native_group_norm_3 inlined into triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_group_norm_4 at 16 loads of buf2: buf2 is no longer written and reread (the copies' repeated statements computed once: 197)).

Written by kernelopt's rewrite proposer (fuse): Inductor's kernels without their
autotuning decorators, triton_poi_fused_convolution_mul_native_group_norm_3 computed inside triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_group_norm_4 instead of launched, each
launched with the settings below.
"""

import torch
import triton


import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_red_fused_convolution_native_group_norm_2_retile_partial(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, part_ptr0, part_ptr1, part_ptr2, s_chunk, n_chunks, SB : tl.constexpr, CB : tl.constexpr):
    xnumel = 2048
    r0_numel = 63504
    rnumel = r0_numel
    tile_n = tl.program_id(0) // n_chunks
    tile_k = tl.program_id(0) % n_chunks
    tile_s0 = tile_k * s_chunk
    tile_s1 = tl.minimum(tile_s0 + s_chunk, 15876)
    tile_c = tl.arange(0, CB)[None, :]
    xindex = tile_n * 16 + tile_c // 4
    xmask = tl.full([1, CB], True, tl.int1)
    x0 = tile_c // 4
    x1 = tile_n
    tmp4_mean = tl.zeros([SB, CB], tl.float32)
    tmp4_m2 = tl.zeros([SB, CB], tl.float32)
    tmp4_weight = tl.zeros([SB, CB], tl.float32)
    tmp4_shift = tl.zeros([SB, CB], tl.float32)
    tmp4_sum = tl.zeros([SB, CB], tl.float32)
    tmp4_sq = tl.zeros([SB, CB], tl.float32)
    x4 = xindex
    for tile_offset in tl.range(tile_s0, tile_s1, SB):
        tile_s = tile_offset + tl.arange(0, SB)[:, None]
        r0_offset = tile_offset - tile_s0
        tile_sc = tl.minimum(tile_s, 15876 - 1)
        r0_index = tile_sc * 4 + tile_c % 4
        r0_mask = tile_s < tile_s1
        roffset = r0_offset
        rindex = r0_index
        r0_2 = tile_c % 4
        r0_3 = tile_sc
        tmp0 = tl.load(in_ptr0 + (tile_c + 64*r0_3 + 1016064*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (tile_c), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp3 = tl.broadcast_to(tmp2, [SB, CB])
        tmp4_shift = tl.where((tmp4_weight == 0) & (r0_mask & xmask), tmp3, tmp4_shift)
        tmp4_dx = tl.where(r0_mask & xmask, tmp3 - tmp4_shift, 0.0)
        tmp4_sum = tmp4_sum + tmp4_dx
        tmp4_sq = tmp4_sq + tmp4_dx * tmp4_dx
        tmp4_weight = tl.where(r0_mask & xmask, tmp4_weight + 1, tmp4_weight)
    tile_g = tl.arange(0, CB // 4)
    tile_at = (tile_n * 16 + tl.minimum(tile_g, 16 - 1)) * n_chunks + tile_k
    tile_keep = tile_g < 16
    tmp4_n = tl.where(tmp4_weight == 0, 1.0, tmp4_weight)
    tmp4_mean = tmp4_shift + tmp4_sum / tmp4_n
    tmp4_m2 = tl.maximum(tmp4_sq - tmp4_sum * tmp4_sum / tmp4_n, 0.0)
    tmp5_c, tmp6_c, tmp7_c = triton_helpers.welford(tmp4_mean, tmp4_m2, tmp4_weight, 0)
    tmp5, tmp6, tmp7 = triton_helpers.welford(tl.reshape(tmp5_c, [CB // 4, 4]), tl.reshape(tmp6_c, [CB // 4, 4]), tl.reshape(tmp7_c, [CB // 4, 4]), 1)
    tl.store(part_ptr0 + tile_at, tmp5, tile_keep)
    tl.store(part_ptr1 + tile_at, tmp6, tile_keep)
    tl.store(part_ptr2 + tile_at, tmp7, tile_keep)


@triton.jit
def triton_red_fused_convolution_native_group_norm_2_split_combine(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, part_ptr0, part_ptr1, part_ptr2, n_split, XBLOCK : tl.constexpr, SPLIT_BLOCK : tl.constexpr):
    xnumel = 2048
    r0_numel = 63504
    rnumel = r0_numel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    x0 = (xindex % 16)
    x1 = xindex // 16
    x4 = xindex
    split_index = tl.arange(0, SPLIT_BLOCK)[None, :]
    split_mask = (split_index < n_split) & xmask
    part0 = tl.load(part_ptr0 + (xindex * n_split + split_index), split_mask, other=0.0)
    part1 = tl.load(part_ptr1 + (xindex * n_split + split_index), split_mask, other=0.0)
    part2 = tl.load(part_ptr2 + (xindex * n_split + split_index), split_mask, other=0.0)
    tmp5, tmp6, tmp7 = triton_helpers.welford(part0, part1, tl.where(split_mask, part2, 0.0), 1)
    tmp4 = tmp5[:, None]
    tmp8 = tmp6[:, None]
    tmp9 = tmp7[:, None]
    tl.store(out_ptr0 + (x4), tmp4, xmask)
    tl.store(out_ptr1 + (x4), tmp8, xmask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_group_norm_4_fused(in_ptr0, out_ptr1, fused_in_ptr0, fused_in_ptr1, fused_in_ptr2, fused_in_ptr3, fused_in_ptr4, fused_in_ptr5, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 8192
    xnumel = 961
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = (xindex % 31)
    x3 = xindex // 31
    y0 = (yindex % 64)
    y1 = yindex // 64
    x4 = xindex
    y5 = yindex
    f0_tmp0 = tl.load(in_ptr0 + ((y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f0_tmp1 = tl.load(fused_in_ptr0 + (y0), None, eviction_policy='evict_last')
    f0_tmp3 = tl.load(fused_in_ptr1 + (16*y1 + (y0 // 4)), None, eviction_policy='evict_last')
    f0_tmp5 = tl.load(fused_in_ptr2 + (16*y1 + (y0 // 4)), None, eviction_policy='evict_last')
    f0_tmp12 = tl.load(fused_in_ptr3 + (y0), None, eviction_policy='evict_last')
    f0_tmp14 = tl.load(fused_in_ptr4 + (y0), None, eviction_policy='evict_last')
    f0_tmp16 = tl.load(fused_in_ptr5 + (y0), None, eviction_policy='evict_last')
    f0_tmp2 = f0_tmp0 + f0_tmp1
    f0_tmp4 = f0_tmp2 - f0_tmp3
    f0_tmp6 = tl.full([1], 63504.0, tl.float32)
    f0_tmp7 = (f0_tmp5 / f0_tmp6)
    f0_tmp8 = tl.full([1], 1e-05, tl.float32)
    f0_tmp9 = f0_tmp7 + f0_tmp8
    f0_tmp10 = libdevice.rsqrt(f0_tmp9)
    f0_tmp11 = f0_tmp4 * f0_tmp10
    f0_tmp13 = f0_tmp11 * f0_tmp12
    f0_tmp15 = f0_tmp13 + f0_tmp14
    f0_tmp17 = f0_tmp15 * f0_tmp16
    tmp0 = f0_tmp17.to(tl.float32)
    f1_tmp0 = tl.load(in_ptr0 + ((64 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f1_tmp2 = f1_tmp0 + f0_tmp1
    f1_tmp4 = f1_tmp2 - f0_tmp3
    f1_tmp11 = f1_tmp4 * f0_tmp10
    f1_tmp13 = f1_tmp11 * f0_tmp12
    f1_tmp15 = f1_tmp13 + f0_tmp14
    f1_tmp17 = f1_tmp15 * f0_tmp16
    tmp1 = f1_tmp17.to(tl.float32)
    f2_tmp0 = tl.load(in_ptr0 + ((128 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f2_tmp2 = f2_tmp0 + f0_tmp1
    f2_tmp4 = f2_tmp2 - f0_tmp3
    f2_tmp11 = f2_tmp4 * f0_tmp10
    f2_tmp13 = f2_tmp11 * f0_tmp12
    f2_tmp15 = f2_tmp13 + f0_tmp14
    f2_tmp17 = f2_tmp15 * f0_tmp16
    tmp3 = f2_tmp17.to(tl.float32)
    f3_tmp0 = tl.load(in_ptr0 + ((192 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f3_tmp2 = f3_tmp0 + f0_tmp1
    f3_tmp4 = f3_tmp2 - f0_tmp3
    f3_tmp11 = f3_tmp4 * f0_tmp10
    f3_tmp13 = f3_tmp11 * f0_tmp12
    f3_tmp15 = f3_tmp13 + f0_tmp14
    f3_tmp17 = f3_tmp15 * f0_tmp16
    tmp5 = f3_tmp17.to(tl.float32)
    f4_tmp0 = tl.load(in_ptr0 + ((8064 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f4_tmp2 = f4_tmp0 + f0_tmp1
    f4_tmp4 = f4_tmp2 - f0_tmp3
    f4_tmp11 = f4_tmp4 * f0_tmp10
    f4_tmp13 = f4_tmp11 * f0_tmp12
    f4_tmp15 = f4_tmp13 + f0_tmp14
    f4_tmp17 = f4_tmp15 * f0_tmp16
    tmp7 = f4_tmp17.to(tl.float32)
    f5_tmp0 = tl.load(in_ptr0 + ((8128 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f5_tmp2 = f5_tmp0 + f0_tmp1
    f5_tmp4 = f5_tmp2 - f0_tmp3
    f5_tmp11 = f5_tmp4 * f0_tmp10
    f5_tmp13 = f5_tmp11 * f0_tmp12
    f5_tmp15 = f5_tmp13 + f0_tmp14
    f5_tmp17 = f5_tmp15 * f0_tmp16
    tmp9 = f5_tmp17.to(tl.float32)
    f6_tmp0 = tl.load(in_ptr0 + ((8192 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f6_tmp2 = f6_tmp0 + f0_tmp1
    f6_tmp4 = f6_tmp2 - f0_tmp3
    f6_tmp11 = f6_tmp4 * f0_tmp10
    f6_tmp13 = f6_tmp11 * f0_tmp12
    f6_tmp15 = f6_tmp13 + f0_tmp14
    f6_tmp17 = f6_tmp15 * f0_tmp16
    tmp11 = f6_tmp17.to(tl.float32)
    f7_tmp0 = tl.load(in_ptr0 + ((8256 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f7_tmp2 = f7_tmp0 + f0_tmp1
    f7_tmp4 = f7_tmp2 - f0_tmp3
    f7_tmp11 = f7_tmp4 * f0_tmp10
    f7_tmp13 = f7_tmp11 * f0_tmp12
    f7_tmp15 = f7_tmp13 + f0_tmp14
    f7_tmp17 = f7_tmp15 * f0_tmp16
    tmp13 = f7_tmp17.to(tl.float32)
    f8_tmp0 = tl.load(in_ptr0 + ((16128 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f8_tmp2 = f8_tmp0 + f0_tmp1
    f8_tmp4 = f8_tmp2 - f0_tmp3
    f8_tmp11 = f8_tmp4 * f0_tmp10
    f8_tmp13 = f8_tmp11 * f0_tmp12
    f8_tmp15 = f8_tmp13 + f0_tmp14
    f8_tmp17 = f8_tmp15 * f0_tmp16
    tmp15 = f8_tmp17.to(tl.float32)
    f9_tmp0 = tl.load(in_ptr0 + ((16192 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f9_tmp2 = f9_tmp0 + f0_tmp1
    f9_tmp4 = f9_tmp2 - f0_tmp3
    f9_tmp11 = f9_tmp4 * f0_tmp10
    f9_tmp13 = f9_tmp11 * f0_tmp12
    f9_tmp15 = f9_tmp13 + f0_tmp14
    f9_tmp17 = f9_tmp15 * f0_tmp16
    tmp17 = f9_tmp17.to(tl.float32)
    f10_tmp0 = tl.load(in_ptr0 + ((16256 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f10_tmp2 = f10_tmp0 + f0_tmp1
    f10_tmp4 = f10_tmp2 - f0_tmp3
    f10_tmp11 = f10_tmp4 * f0_tmp10
    f10_tmp13 = f10_tmp11 * f0_tmp12
    f10_tmp15 = f10_tmp13 + f0_tmp14
    f10_tmp17 = f10_tmp15 * f0_tmp16
    tmp19 = f10_tmp17.to(tl.float32)
    f11_tmp0 = tl.load(in_ptr0 + ((16320 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f11_tmp2 = f11_tmp0 + f0_tmp1
    f11_tmp4 = f11_tmp2 - f0_tmp3
    f11_tmp11 = f11_tmp4 * f0_tmp10
    f11_tmp13 = f11_tmp11 * f0_tmp12
    f11_tmp15 = f11_tmp13 + f0_tmp14
    f11_tmp17 = f11_tmp15 * f0_tmp16
    tmp21 = f11_tmp17.to(tl.float32)
    f12_tmp0 = tl.load(in_ptr0 + ((24192 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f12_tmp2 = f12_tmp0 + f0_tmp1
    f12_tmp4 = f12_tmp2 - f0_tmp3
    f12_tmp11 = f12_tmp4 * f0_tmp10
    f12_tmp13 = f12_tmp11 * f0_tmp12
    f12_tmp15 = f12_tmp13 + f0_tmp14
    f12_tmp17 = f12_tmp15 * f0_tmp16
    tmp23 = f12_tmp17.to(tl.float32)
    f13_tmp0 = tl.load(in_ptr0 + ((24256 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f13_tmp2 = f13_tmp0 + f0_tmp1
    f13_tmp4 = f13_tmp2 - f0_tmp3
    f13_tmp11 = f13_tmp4 * f0_tmp10
    f13_tmp13 = f13_tmp11 * f0_tmp12
    f13_tmp15 = f13_tmp13 + f0_tmp14
    f13_tmp17 = f13_tmp15 * f0_tmp16
    tmp25 = f13_tmp17.to(tl.float32)
    f14_tmp0 = tl.load(in_ptr0 + ((24320 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f14_tmp2 = f14_tmp0 + f0_tmp1
    f14_tmp4 = f14_tmp2 - f0_tmp3
    f14_tmp11 = f14_tmp4 * f0_tmp10
    f14_tmp13 = f14_tmp11 * f0_tmp12
    f14_tmp15 = f14_tmp13 + f0_tmp14
    f14_tmp17 = f14_tmp15 * f0_tmp16
    tmp27 = f14_tmp17.to(tl.float32)
    f15_tmp0 = tl.load(in_ptr0 + ((24384 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f15_tmp2 = f15_tmp0 + f0_tmp1
    f15_tmp4 = f15_tmp2 - f0_tmp3
    f15_tmp11 = f15_tmp4 * f0_tmp10
    f15_tmp13 = f15_tmp11 * f0_tmp12
    f15_tmp15 = f15_tmp13 + f0_tmp14
    f15_tmp17 = f15_tmp15 * f0_tmp16
    tmp29 = f15_tmp17.to(tl.float32)
    tmp2 = triton_helpers.maximum(tmp0, tmp1)
    tmp4 = triton_helpers.maximum(tmp2, tmp3)
    tmp6 = triton_helpers.maximum(tmp4, tmp5)
    tmp8 = triton_helpers.maximum(tmp6, tmp7)
    tmp10 = triton_helpers.maximum(tmp8, tmp9)
    tmp12 = triton_helpers.maximum(tmp10, tmp11)
    tmp14 = triton_helpers.maximum(tmp12, tmp13)
    tmp16 = triton_helpers.maximum(tmp14, tmp15)
    tmp18 = triton_helpers.maximum(tmp16, tmp17)
    tmp20 = triton_helpers.maximum(tmp18, tmp19)
    tmp22 = triton_helpers.maximum(tmp20, tmp21)
    tmp24 = triton_helpers.maximum(tmp22, tmp23)
    tmp26 = triton_helpers.maximum(tmp24, tmp25)
    tmp28 = triton_helpers.maximum(tmp26, tmp27)
    tmp30 = triton_helpers.maximum(tmp28, tmp29)
    tmp31 = tl.full([1, 1], 0.0, tl.float32)
    tmp32 = triton_helpers.maximum(tmp30, tmp31)
    tmp33 = tl.full([1, 1], 1.0, tl.float32)
    tmp34 = triton_helpers.minimum(tmp32, tmp33)
    tl.store(out_ptr1 + (x4 + 961*y5), tmp34, xmask)



def run(inputs, outputs):
    _device = inputs["buf2"].device
    _t0 = inputs["buf2"]
    _t1 = inputs["arg1_1"]
    _t2 = torch.empty_strided((128, 16, 1, 1,), (16, 1, 2048, 2048,), dtype=torch.float32, device=_device)
    _t3 = torch.empty_strided((128, 16, 1, 1,), (16, 1, 2048, 2048,), dtype=torch.float32, device=_device)
    _k0_part0 = torch.empty((32, 2048), dtype=torch.float32, device=_t0.device)
    _k0_part1 = torch.empty((32, 2048), dtype=torch.float32, device=_t0.device)
    _k0_part2 = torch.empty((32, 2048), dtype=torch.float32, device=_t0.device)
    triton_red_fused_convolution_native_group_norm_2_retile_partial[(4096, 1, 1)](_t0, _t1, _t2, _t3, 2048, 63504, _k0_part0, _k0_part1, _k0_part2, 512, 32, SB=16, CB=64, num_warps=4, num_stages=1)
    triton_red_fused_convolution_native_group_norm_2_split_combine[(triton.cdiv(2048, 64), 1, 1)](_t0, _t1, _t2, _t3, 2048, 63504, _k0_part0, _k0_part1, _k0_part2, 32, XBLOCK=64, SPLIT_BLOCK=32, num_warps=4, num_stages=1)
    _t4 = outputs["buf8"]
    _t5 = inputs["arg3_1"]
    _t6 = inputs["arg4_1"]
    _t7 = inputs["arg5_1"]
    triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_group_norm_4_fused[(triton.cdiv(961, 8), triton.cdiv(8192, 32), 1)](_t0, _t4, _t1, _t2, _t3, _t5, _t6, _t7, 8192, 961, YBLOCK=32, XBLOCK=8, num_warps=4, num_stages=1)
