"""Segment 1: triton_red_fused_add_convolution_mul_native_group_norm_sigmoid_2: 1 Welford reduction(s) made shifted sums (no division per element; the mean and M2 from the sums after the loop).

Written by kernelopt's rewrite proposer: Inductor's kernels of the segment (some rewritten) without their
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
def triton_red_fused_add_convolution_mul_native_group_norm_sigmoid_2(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1024
    r0_numel = 258064
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 8)
    x1 = xindex // 8
    tmp9_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp9_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp9_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp9_shift = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp9_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp9_sq = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x4 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = (r0_index % 4)
        r0_3 = r0_index // 4
        tmp0 = tl.load(in_ptr0 + (r0_2 + 4*x0 + 32*r0_3 + 2064512*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (r0_2 + 4*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp3 = tl.load(in_ptr2 + (r0_2 + 4*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp5 = tl.load(in_ptr3 + (r0_2 + 4*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp4 = tmp2 + tmp3
        tmp6 = tmp4 * tmp5
        tmp7 = tl.sigmoid(tmp6)
        tmp8 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])
        tmp9_shift = tl.where((tmp9_weight == 0) & (r0_mask & xmask), tmp8, tmp9_shift)
        tmp9_dx = tl.where(r0_mask & xmask, tmp8 - tmp9_shift, 0.0)
        tmp9_sum = tmp9_sum + tmp9_dx
        tmp9_sq = tmp9_sq + tmp9_dx * tmp9_dx
        tmp9_weight = tl.where(r0_mask & xmask, tmp9_weight + 1, tmp9_weight)
    tmp9_n = tl.where(tmp9_weight == 0, 1.0, tmp9_weight)
    tmp9_mean = tmp9_shift + tmp9_sum / tmp9_n
    tmp9_m2 = tl.maximum(tmp9_sq - tmp9_sum * tmp9_sum / tmp9_n, 0.0)
    tmp10, tmp11, tmp12 = triton_helpers.welford(tmp9_mean, tmp9_m2, tmp9_weight, 1)
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
    triton_red_fused_add_convolution_mul_native_group_norm_sigmoid_2[(triton.cdiv(1024, 2), 1, 1)](_t0, _t1, _t2, _t3, _t4, _t5, 1024, 258064, XBLOCK=2, R0_BLOCK=1024, num_warps=16, num_stages=1)
    _t6 = inputs["arg5_1"]
    _t7 = inputs["arg6_1"]
    _t8 = outputs["buf6"]
    triton_poi_fused_add_convolution_mul_native_group_norm_sigmoid_3[(triton.cdiv(64516, 512), triton.cdiv(4096, 32), 1)](_t0, _t1, _t2, _t3, _t4, _t5, _t6, _t7, _t8, 4096, 64516, YBLOCK=32, XBLOCK=512, num_warps=8, num_stages=1)
