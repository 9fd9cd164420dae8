"""Segment 1: triton_red_fused_convolution_native_group_norm_2: 1 Welford reduction(s) made shifted sums (no division per element; the mean and M2 from the sums after the loop).

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
def triton_red_fused_convolution_native_group_norm_2(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 2048
    r0_numel = 63504
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 16)
    x1 = xindex // 16
    tmp4_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_shift = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_sq = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x4 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = (r0_index % 4)
        r0_3 = r0_index // 4
        tmp0 = tl.load(in_ptr0 + (r0_2 + 4*x0 + 64*r0_3 + 1016064*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (r0_2 + 4*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
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
def triton_poi_fused_convolution_mul_native_group_norm_3(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, xnumel, XBLOCK : tl.constexpr):
    xnumel = 130056192
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x3 = xindex
    x0 = (xindex % 64)
    x2 = xindex // 1016064
    tmp0 = tl.load(in_out_ptr0 + (x3), None)
    tmp1 = tl.load(in_ptr0 + (x0), None, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr1 + (16*x2 + (x0 // 4)), None, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr2 + (16*x2 + (x0 // 4)), None, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr3 + (x0), None, eviction_policy='evict_last')
    tmp14 = tl.load(in_ptr4 + (x0), None, eviction_policy='evict_last')
    tmp16 = tl.load(in_ptr5 + (x0), None, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 - tmp3
    tmp6 = tl.full([1], 63504.0, tl.float32)
    tmp7 = (tmp5 / tmp6)
    tmp8 = tl.full([1], 1e-05, tl.float32)
    tmp9 = tmp7 + tmp8
    tmp10 = libdevice.rsqrt(tmp9)
    tmp11 = tmp4 * tmp10
    tmp13 = tmp11 * tmp12
    tmp15 = tmp13 + tmp14
    tmp17 = tmp15 * tmp16
    tl.store(in_out_ptr0 + (x3), tmp17, None)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_group_norm_4(in_ptr0, out_ptr1, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
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
    tmp0 = tl.load(in_ptr0 + (y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr0 + (64 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr0 + (128 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr0 + (192 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr0 + (8064 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr0 + (8128 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp11 = tl.load(in_ptr0 + (8192 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp13 = tl.load(in_ptr0 + (8256 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp15 = tl.load(in_ptr0 + (16128 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp17 = tl.load(in_ptr0 + (16192 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp19 = tl.load(in_ptr0 + (16256 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp21 = tl.load(in_ptr0 + (16320 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp23 = tl.load(in_ptr0 + (24192 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp25 = tl.load(in_ptr0 + (24256 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp27 = tl.load(in_ptr0 + (24320 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
    tmp29 = tl.load(in_ptr0 + (24384 + y0 + 256*x2 + 32256*x3 + 1016064*y1), xmask, eviction_policy='evict_last')
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
    triton_red_fused_convolution_native_group_norm_2[(triton.cdiv(2048, 8), 1, 1)](_t0, _t1, _t2, _t3, 2048, 63504, XBLOCK=8, R0_BLOCK=512, num_warps=4, num_stages=2)
    _t4 = inputs["arg3_1"]
    _t5 = inputs["arg4_1"]
    _t6 = inputs["arg5_1"]
    triton_poi_fused_convolution_mul_native_group_norm_3[(triton.cdiv(130056192, 512), 1, 1)](_t0, _t1, _t2, _t3, _t4, _t5, _t6, 130056192, XBLOCK=512, num_warps=1, num_stages=1)
    _t7 = outputs["buf8"]
    triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_group_norm_4[(triton.cdiv(961, 8), triton.cdiv(8192, 64), 1)](_t0, _t7, 8192, 961, YBLOCK=64, XBLOCK=8, num_warps=16, num_stages=1)
