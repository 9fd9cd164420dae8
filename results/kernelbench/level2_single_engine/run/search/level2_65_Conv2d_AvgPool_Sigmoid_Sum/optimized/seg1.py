"""Segment 1: Inductor's looped reduction triton_red_fused_sigmoid_sum_4 (640 rows of 115520) split: each row's chunks reduced by programs of their own into partial results, which a second kernel combines to finish the row (a kernel that walks its rows twice: the same programs, after a barrier, each its own chunk) (on top of the fuse rewrite: triton_poi_fused_convolution_2 inlined into triton_poi_fused_avg_pool2d_convolution_3 at 16 loads of buf2: buf2 is no longer written and reread (the copies' repeated statements computed once: 31)).

Written by kernelopt's rewrite proposer (fuse): Inductor's kernels without their
autotuning decorators, triton_poi_fused_convolution_2 computed inside triton_poi_fused_avg_pool2d_convolution_3 instead of launched, each
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
def triton_poi_fused_avg_pool2d_convolution_3_fused(in_ptr0, out_ptr0, fused_in_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 1155200
    xnumel = 64
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x3 = xindex
    y0 = (yindex % 95)
    y1 = ((yindex // 95) % 95)
    y2 = yindex // 9025
    y4 = (yindex % 9025)
    f0_tmp0 = tl.load(in_ptr0 + ((x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f0_tmp1 = tl.load(fused_in_ptr0 + (x3), xmask, eviction_policy='evict_last')
    f0_tmp2 = f0_tmp0 + f0_tmp1
    tmp0 = f0_tmp2.to(tl.float32)
    f1_tmp0 = tl.load(in_ptr0 + ((64 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f1_tmp2 = f1_tmp0 + f0_tmp1
    tmp1 = f1_tmp2.to(tl.float32)
    f2_tmp0 = tl.load(in_ptr0 + ((128 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f2_tmp2 = f2_tmp0 + f0_tmp1
    tmp3 = f2_tmp2.to(tl.float32)
    f3_tmp0 = tl.load(in_ptr0 + ((192 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f3_tmp2 = f3_tmp0 + f0_tmp1
    tmp5 = f3_tmp2.to(tl.float32)
    f4_tmp0 = tl.load(in_ptr0 + ((24448 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f4_tmp2 = f4_tmp0 + f0_tmp1
    tmp7 = f4_tmp2.to(tl.float32)
    f5_tmp0 = tl.load(in_ptr0 + ((24512 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f5_tmp2 = f5_tmp0 + f0_tmp1
    tmp9 = f5_tmp2.to(tl.float32)
    f6_tmp0 = tl.load(in_ptr0 + ((24576 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f6_tmp2 = f6_tmp0 + f0_tmp1
    tmp11 = f6_tmp2.to(tl.float32)
    f7_tmp0 = tl.load(in_ptr0 + ((24640 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f7_tmp2 = f7_tmp0 + f0_tmp1
    tmp13 = f7_tmp2.to(tl.float32)
    f8_tmp0 = tl.load(in_ptr0 + ((48896 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f8_tmp2 = f8_tmp0 + f0_tmp1
    tmp15 = f8_tmp2.to(tl.float32)
    f9_tmp0 = tl.load(in_ptr0 + ((48960 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f9_tmp2 = f9_tmp0 + f0_tmp1
    tmp17 = f9_tmp2.to(tl.float32)
    f10_tmp0 = tl.load(in_ptr0 + ((49024 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f10_tmp2 = f10_tmp0 + f0_tmp1
    tmp19 = f10_tmp2.to(tl.float32)
    f11_tmp0 = tl.load(in_ptr0 + ((49088 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f11_tmp2 = f11_tmp0 + f0_tmp1
    tmp21 = f11_tmp2.to(tl.float32)
    f12_tmp0 = tl.load(in_ptr0 + ((73344 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f12_tmp2 = f12_tmp0 + f0_tmp1
    tmp23 = f12_tmp2.to(tl.float32)
    f13_tmp0 = tl.load(in_ptr0 + ((73408 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f13_tmp2 = f13_tmp0 + f0_tmp1
    tmp25 = f13_tmp2.to(tl.float32)
    f14_tmp0 = tl.load(in_ptr0 + ((73472 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f14_tmp2 = f14_tmp0 + f0_tmp1
    tmp27 = f14_tmp2.to(tl.float32)
    f15_tmp0 = tl.load(in_ptr0 + ((73536 + x3 + 256*y0 + 97792*y1 + 9339136*y2)), xmask & ymask)
    f15_tmp2 = f15_tmp0 + f0_tmp1
    tmp29 = f15_tmp2.to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp6 = tmp4 + tmp5
    tmp8 = tmp6 + tmp7
    tmp10 = tmp8 + tmp9
    tmp12 = tmp10 + tmp11
    tmp14 = tmp12 + tmp13
    tmp16 = tmp14 + tmp15
    tmp18 = tmp16 + tmp17
    tmp20 = tmp18 + tmp19
    tmp22 = tmp20 + tmp21
    tmp24 = tmp22 + tmp23
    tmp26 = tmp24 + tmp25
    tmp28 = tmp26 + tmp27
    tmp30 = tmp28 + tmp29
    tmp31 = tl.full([1, 1], 16.0, tl.float32)
    tmp32 = (tmp30 / tmp31)
    tl.store(out_ptr0 + (y4 + 9025*x3 + 577600*y2), tmp32, xmask & ymask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_red_fused_sigmoid_sum_4_split_partial(in_ptr0, out_ptr0, xnumel, r0_numel, part_ptr0, r0_chunk, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 640
    r0_numel = 115520
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp3 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    r0_split = tl.program_id(1)
    r0_start = r0_split * r0_chunk
    r0_end = tl.minimum(r0_start + r0_chunk, r0_numel)
    for r0_offset in tl.range(r0_start, r0_end, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_end
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 115520*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.sigmoid(tmp0)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(r0_mask & xmask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    tl.store(part_ptr0 + (r0_split * xnumel + xindex), tmp3, xmask)


@triton.jit
def triton_red_fused_sigmoid_sum_4_split_combine(in_ptr0, out_ptr0, xnumel, r0_numel, part_ptr0, n_split, XBLOCK : tl.constexpr, SPLIT_BLOCK : tl.constexpr):
    xnumel = 640
    r0_numel = 115520
    rnumel = r0_numel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    x0 = xindex
    split_index = tl.arange(0, SPLIT_BLOCK)[None, :]
    split_mask = (split_index < n_split) & xmask
    part0 = tl.load(part_ptr0 + (split_index * xnumel + xindex), split_mask, other=0.0)
    tmp3 = tl.sum(tl.where(split_mask, part0, 0.0), 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp3, xmask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_per_fused_sigmoid_sum_5(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 128
    r0_numel = 5
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 5*x0), r0_mask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)



def run(inputs, outputs):
    _device = inputs["buf2"].device
    _t0 = inputs["buf2"]
    _t1 = torch.empty_strided((128, 64, 95, 95,), (577600, 9025, 95, 1,), dtype=torch.float32, device=_device)
    _t2 = inputs["arg1_1"]
    triton_poi_fused_avg_pool2d_convolution_3_fused[(triton.cdiv(64, 16), triton.cdiv(1155200, 32), 1)](_t0, _t1, _t2, 1155200, 64, YBLOCK=32, XBLOCK=16, num_warps=4, num_stages=1)
    _t3 = torch.empty_strided((128, 5,), (5, 1,), dtype=torch.float32, device=_device)
    _k1_part0 = torch.empty((15, 640), dtype=torch.float32, device=_t1.device)
    triton_red_fused_sigmoid_sum_4_split_partial[(triton.cdiv(640, 2), 15, 1)](_t1, _t3, 640, 115520, _k1_part0, 8192, XBLOCK=2, R0_BLOCK=2048, num_warps=16, num_stages=1)
    triton_red_fused_sigmoid_sum_4_split_combine[(triton.cdiv(640, 128), 1, 1)](_t1, _t3, 640, 115520, _k1_part0, 15, XBLOCK=128, SPLIT_BLOCK=16, num_warps=4, num_stages=1)
    _t4 = outputs["buf6"]
    triton_per_fused_sigmoid_sum_5[(triton.cdiv(128, 4), 1, 1)](_t3, _t4, 128, 5, XBLOCK=4, num_warps=2, num_stages=1)
