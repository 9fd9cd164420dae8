"""Segment 1: triton_poi_fused_convolution_mul_native_group_norm_3 inlined into triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_group_norm_4 at 16 loads of buf2: buf2 is no longer written and reread.

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
        tmp4_mean_next, tmp4_m2_next, tmp4_weight_next = triton_helpers.welford_reduce(
            tmp3, tmp4_mean, tmp4_m2, tmp4_weight, roffset == 0
        )
        tmp4_mean = tl.where(r0_mask & xmask, tmp4_mean_next, tmp4_mean)
        tmp4_m2 = tl.where(r0_mask & xmask, tmp4_m2_next, tmp4_m2)
        tmp4_weight = tl.where(r0_mask & xmask, tmp4_weight_next, tmp4_weight)
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
    f0_x0 = ((y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f0_x2 = (y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f0_tmp0 = tl.load(in_ptr0 + ((y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f0_tmp1 = tl.load(fused_in_ptr0 + (f0_x0), xmask, eviction_policy='evict_last')
    f0_tmp3 = tl.load(fused_in_ptr1 + (16*f0_x2 + (f0_x0 // 4)), xmask, eviction_policy='evict_last')
    f0_tmp5 = tl.load(fused_in_ptr2 + (16*f0_x2 + (f0_x0 // 4)), xmask, eviction_policy='evict_last')
    f0_tmp12 = tl.load(fused_in_ptr3 + (f0_x0), xmask, eviction_policy='evict_last')
    f0_tmp14 = tl.load(fused_in_ptr4 + (f0_x0), xmask, eviction_policy='evict_last')
    f0_tmp16 = tl.load(fused_in_ptr5 + (f0_x0), xmask, eviction_policy='evict_last')
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
    f1_x0 = ((64 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f1_x2 = (64 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f1_tmp0 = tl.load(in_ptr0 + ((64 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f1_tmp1 = tl.load(fused_in_ptr0 + (f1_x0), xmask, eviction_policy='evict_last')
    f1_tmp3 = tl.load(fused_in_ptr1 + (16*f1_x2 + (f1_x0 // 4)), xmask, eviction_policy='evict_last')
    f1_tmp5 = tl.load(fused_in_ptr2 + (16*f1_x2 + (f1_x0 // 4)), xmask, eviction_policy='evict_last')
    f1_tmp12 = tl.load(fused_in_ptr3 + (f1_x0), xmask, eviction_policy='evict_last')
    f1_tmp14 = tl.load(fused_in_ptr4 + (f1_x0), xmask, eviction_policy='evict_last')
    f1_tmp16 = tl.load(fused_in_ptr5 + (f1_x0), xmask, eviction_policy='evict_last')
    f1_tmp2 = f1_tmp0 + f1_tmp1
    f1_tmp4 = f1_tmp2 - f1_tmp3
    f1_tmp6 = tl.full([1], 63504.0, tl.float32)
    f1_tmp7 = (f1_tmp5 / f1_tmp6)
    f1_tmp8 = tl.full([1], 1e-05, tl.float32)
    f1_tmp9 = f1_tmp7 + f1_tmp8
    f1_tmp10 = libdevice.rsqrt(f1_tmp9)
    f1_tmp11 = f1_tmp4 * f1_tmp10
    f1_tmp13 = f1_tmp11 * f1_tmp12
    f1_tmp15 = f1_tmp13 + f1_tmp14
    f1_tmp17 = f1_tmp15 * f1_tmp16
    tmp1 = f1_tmp17.to(tl.float32)
    f2_x0 = ((128 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f2_x2 = (128 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f2_tmp0 = tl.load(in_ptr0 + ((128 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f2_tmp1 = tl.load(fused_in_ptr0 + (f2_x0), xmask, eviction_policy='evict_last')
    f2_tmp3 = tl.load(fused_in_ptr1 + (16*f2_x2 + (f2_x0 // 4)), xmask, eviction_policy='evict_last')
    f2_tmp5 = tl.load(fused_in_ptr2 + (16*f2_x2 + (f2_x0 // 4)), xmask, eviction_policy='evict_last')
    f2_tmp12 = tl.load(fused_in_ptr3 + (f2_x0), xmask, eviction_policy='evict_last')
    f2_tmp14 = tl.load(fused_in_ptr4 + (f2_x0), xmask, eviction_policy='evict_last')
    f2_tmp16 = tl.load(fused_in_ptr5 + (f2_x0), xmask, eviction_policy='evict_last')
    f2_tmp2 = f2_tmp0 + f2_tmp1
    f2_tmp4 = f2_tmp2 - f2_tmp3
    f2_tmp6 = tl.full([1], 63504.0, tl.float32)
    f2_tmp7 = (f2_tmp5 / f2_tmp6)
    f2_tmp8 = tl.full([1], 1e-05, tl.float32)
    f2_tmp9 = f2_tmp7 + f2_tmp8
    f2_tmp10 = libdevice.rsqrt(f2_tmp9)
    f2_tmp11 = f2_tmp4 * f2_tmp10
    f2_tmp13 = f2_tmp11 * f2_tmp12
    f2_tmp15 = f2_tmp13 + f2_tmp14
    f2_tmp17 = f2_tmp15 * f2_tmp16
    tmp3 = f2_tmp17.to(tl.float32)
    f3_x0 = ((192 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f3_x2 = (192 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f3_tmp0 = tl.load(in_ptr0 + ((192 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f3_tmp1 = tl.load(fused_in_ptr0 + (f3_x0), xmask, eviction_policy='evict_last')
    f3_tmp3 = tl.load(fused_in_ptr1 + (16*f3_x2 + (f3_x0 // 4)), xmask, eviction_policy='evict_last')
    f3_tmp5 = tl.load(fused_in_ptr2 + (16*f3_x2 + (f3_x0 // 4)), xmask, eviction_policy='evict_last')
    f3_tmp12 = tl.load(fused_in_ptr3 + (f3_x0), xmask, eviction_policy='evict_last')
    f3_tmp14 = tl.load(fused_in_ptr4 + (f3_x0), xmask, eviction_policy='evict_last')
    f3_tmp16 = tl.load(fused_in_ptr5 + (f3_x0), xmask, eviction_policy='evict_last')
    f3_tmp2 = f3_tmp0 + f3_tmp1
    f3_tmp4 = f3_tmp2 - f3_tmp3
    f3_tmp6 = tl.full([1], 63504.0, tl.float32)
    f3_tmp7 = (f3_tmp5 / f3_tmp6)
    f3_tmp8 = tl.full([1], 1e-05, tl.float32)
    f3_tmp9 = f3_tmp7 + f3_tmp8
    f3_tmp10 = libdevice.rsqrt(f3_tmp9)
    f3_tmp11 = f3_tmp4 * f3_tmp10
    f3_tmp13 = f3_tmp11 * f3_tmp12
    f3_tmp15 = f3_tmp13 + f3_tmp14
    f3_tmp17 = f3_tmp15 * f3_tmp16
    tmp5 = f3_tmp17.to(tl.float32)
    f4_x0 = ((8064 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f4_x2 = (8064 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f4_tmp0 = tl.load(in_ptr0 + ((8064 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f4_tmp1 = tl.load(fused_in_ptr0 + (f4_x0), xmask, eviction_policy='evict_last')
    f4_tmp3 = tl.load(fused_in_ptr1 + (16*f4_x2 + (f4_x0 // 4)), xmask, eviction_policy='evict_last')
    f4_tmp5 = tl.load(fused_in_ptr2 + (16*f4_x2 + (f4_x0 // 4)), xmask, eviction_policy='evict_last')
    f4_tmp12 = tl.load(fused_in_ptr3 + (f4_x0), xmask, eviction_policy='evict_last')
    f4_tmp14 = tl.load(fused_in_ptr4 + (f4_x0), xmask, eviction_policy='evict_last')
    f4_tmp16 = tl.load(fused_in_ptr5 + (f4_x0), xmask, eviction_policy='evict_last')
    f4_tmp2 = f4_tmp0 + f4_tmp1
    f4_tmp4 = f4_tmp2 - f4_tmp3
    f4_tmp6 = tl.full([1], 63504.0, tl.float32)
    f4_tmp7 = (f4_tmp5 / f4_tmp6)
    f4_tmp8 = tl.full([1], 1e-05, tl.float32)
    f4_tmp9 = f4_tmp7 + f4_tmp8
    f4_tmp10 = libdevice.rsqrt(f4_tmp9)
    f4_tmp11 = f4_tmp4 * f4_tmp10
    f4_tmp13 = f4_tmp11 * f4_tmp12
    f4_tmp15 = f4_tmp13 + f4_tmp14
    f4_tmp17 = f4_tmp15 * f4_tmp16
    tmp7 = f4_tmp17.to(tl.float32)
    f5_x0 = ((8128 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f5_x2 = (8128 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f5_tmp0 = tl.load(in_ptr0 + ((8128 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f5_tmp1 = tl.load(fused_in_ptr0 + (f5_x0), xmask, eviction_policy='evict_last')
    f5_tmp3 = tl.load(fused_in_ptr1 + (16*f5_x2 + (f5_x0 // 4)), xmask, eviction_policy='evict_last')
    f5_tmp5 = tl.load(fused_in_ptr2 + (16*f5_x2 + (f5_x0 // 4)), xmask, eviction_policy='evict_last')
    f5_tmp12 = tl.load(fused_in_ptr3 + (f5_x0), xmask, eviction_policy='evict_last')
    f5_tmp14 = tl.load(fused_in_ptr4 + (f5_x0), xmask, eviction_policy='evict_last')
    f5_tmp16 = tl.load(fused_in_ptr5 + (f5_x0), xmask, eviction_policy='evict_last')
    f5_tmp2 = f5_tmp0 + f5_tmp1
    f5_tmp4 = f5_tmp2 - f5_tmp3
    f5_tmp6 = tl.full([1], 63504.0, tl.float32)
    f5_tmp7 = (f5_tmp5 / f5_tmp6)
    f5_tmp8 = tl.full([1], 1e-05, tl.float32)
    f5_tmp9 = f5_tmp7 + f5_tmp8
    f5_tmp10 = libdevice.rsqrt(f5_tmp9)
    f5_tmp11 = f5_tmp4 * f5_tmp10
    f5_tmp13 = f5_tmp11 * f5_tmp12
    f5_tmp15 = f5_tmp13 + f5_tmp14
    f5_tmp17 = f5_tmp15 * f5_tmp16
    tmp9 = f5_tmp17.to(tl.float32)
    f6_x0 = ((8192 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f6_x2 = (8192 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f6_tmp0 = tl.load(in_ptr0 + ((8192 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f6_tmp1 = tl.load(fused_in_ptr0 + (f6_x0), xmask, eviction_policy='evict_last')
    f6_tmp3 = tl.load(fused_in_ptr1 + (16*f6_x2 + (f6_x0 // 4)), xmask, eviction_policy='evict_last')
    f6_tmp5 = tl.load(fused_in_ptr2 + (16*f6_x2 + (f6_x0 // 4)), xmask, eviction_policy='evict_last')
    f6_tmp12 = tl.load(fused_in_ptr3 + (f6_x0), xmask, eviction_policy='evict_last')
    f6_tmp14 = tl.load(fused_in_ptr4 + (f6_x0), xmask, eviction_policy='evict_last')
    f6_tmp16 = tl.load(fused_in_ptr5 + (f6_x0), xmask, eviction_policy='evict_last')
    f6_tmp2 = f6_tmp0 + f6_tmp1
    f6_tmp4 = f6_tmp2 - f6_tmp3
    f6_tmp6 = tl.full([1], 63504.0, tl.float32)
    f6_tmp7 = (f6_tmp5 / f6_tmp6)
    f6_tmp8 = tl.full([1], 1e-05, tl.float32)
    f6_tmp9 = f6_tmp7 + f6_tmp8
    f6_tmp10 = libdevice.rsqrt(f6_tmp9)
    f6_tmp11 = f6_tmp4 * f6_tmp10
    f6_tmp13 = f6_tmp11 * f6_tmp12
    f6_tmp15 = f6_tmp13 + f6_tmp14
    f6_tmp17 = f6_tmp15 * f6_tmp16
    tmp11 = f6_tmp17.to(tl.float32)
    f7_x0 = ((8256 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f7_x2 = (8256 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f7_tmp0 = tl.load(in_ptr0 + ((8256 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f7_tmp1 = tl.load(fused_in_ptr0 + (f7_x0), xmask, eviction_policy='evict_last')
    f7_tmp3 = tl.load(fused_in_ptr1 + (16*f7_x2 + (f7_x0 // 4)), xmask, eviction_policy='evict_last')
    f7_tmp5 = tl.load(fused_in_ptr2 + (16*f7_x2 + (f7_x0 // 4)), xmask, eviction_policy='evict_last')
    f7_tmp12 = tl.load(fused_in_ptr3 + (f7_x0), xmask, eviction_policy='evict_last')
    f7_tmp14 = tl.load(fused_in_ptr4 + (f7_x0), xmask, eviction_policy='evict_last')
    f7_tmp16 = tl.load(fused_in_ptr5 + (f7_x0), xmask, eviction_policy='evict_last')
    f7_tmp2 = f7_tmp0 + f7_tmp1
    f7_tmp4 = f7_tmp2 - f7_tmp3
    f7_tmp6 = tl.full([1], 63504.0, tl.float32)
    f7_tmp7 = (f7_tmp5 / f7_tmp6)
    f7_tmp8 = tl.full([1], 1e-05, tl.float32)
    f7_tmp9 = f7_tmp7 + f7_tmp8
    f7_tmp10 = libdevice.rsqrt(f7_tmp9)
    f7_tmp11 = f7_tmp4 * f7_tmp10
    f7_tmp13 = f7_tmp11 * f7_tmp12
    f7_tmp15 = f7_tmp13 + f7_tmp14
    f7_tmp17 = f7_tmp15 * f7_tmp16
    tmp13 = f7_tmp17.to(tl.float32)
    f8_x0 = ((16128 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f8_x2 = (16128 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f8_tmp0 = tl.load(in_ptr0 + ((16128 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f8_tmp1 = tl.load(fused_in_ptr0 + (f8_x0), xmask, eviction_policy='evict_last')
    f8_tmp3 = tl.load(fused_in_ptr1 + (16*f8_x2 + (f8_x0 // 4)), xmask, eviction_policy='evict_last')
    f8_tmp5 = tl.load(fused_in_ptr2 + (16*f8_x2 + (f8_x0 // 4)), xmask, eviction_policy='evict_last')
    f8_tmp12 = tl.load(fused_in_ptr3 + (f8_x0), xmask, eviction_policy='evict_last')
    f8_tmp14 = tl.load(fused_in_ptr4 + (f8_x0), xmask, eviction_policy='evict_last')
    f8_tmp16 = tl.load(fused_in_ptr5 + (f8_x0), xmask, eviction_policy='evict_last')
    f8_tmp2 = f8_tmp0 + f8_tmp1
    f8_tmp4 = f8_tmp2 - f8_tmp3
    f8_tmp6 = tl.full([1], 63504.0, tl.float32)
    f8_tmp7 = (f8_tmp5 / f8_tmp6)
    f8_tmp8 = tl.full([1], 1e-05, tl.float32)
    f8_tmp9 = f8_tmp7 + f8_tmp8
    f8_tmp10 = libdevice.rsqrt(f8_tmp9)
    f8_tmp11 = f8_tmp4 * f8_tmp10
    f8_tmp13 = f8_tmp11 * f8_tmp12
    f8_tmp15 = f8_tmp13 + f8_tmp14
    f8_tmp17 = f8_tmp15 * f8_tmp16
    tmp15 = f8_tmp17.to(tl.float32)
    f9_x0 = ((16192 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f9_x2 = (16192 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f9_tmp0 = tl.load(in_ptr0 + ((16192 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f9_tmp1 = tl.load(fused_in_ptr0 + (f9_x0), xmask, eviction_policy='evict_last')
    f9_tmp3 = tl.load(fused_in_ptr1 + (16*f9_x2 + (f9_x0 // 4)), xmask, eviction_policy='evict_last')
    f9_tmp5 = tl.load(fused_in_ptr2 + (16*f9_x2 + (f9_x0 // 4)), xmask, eviction_policy='evict_last')
    f9_tmp12 = tl.load(fused_in_ptr3 + (f9_x0), xmask, eviction_policy='evict_last')
    f9_tmp14 = tl.load(fused_in_ptr4 + (f9_x0), xmask, eviction_policy='evict_last')
    f9_tmp16 = tl.load(fused_in_ptr5 + (f9_x0), xmask, eviction_policy='evict_last')
    f9_tmp2 = f9_tmp0 + f9_tmp1
    f9_tmp4 = f9_tmp2 - f9_tmp3
    f9_tmp6 = tl.full([1], 63504.0, tl.float32)
    f9_tmp7 = (f9_tmp5 / f9_tmp6)
    f9_tmp8 = tl.full([1], 1e-05, tl.float32)
    f9_tmp9 = f9_tmp7 + f9_tmp8
    f9_tmp10 = libdevice.rsqrt(f9_tmp9)
    f9_tmp11 = f9_tmp4 * f9_tmp10
    f9_tmp13 = f9_tmp11 * f9_tmp12
    f9_tmp15 = f9_tmp13 + f9_tmp14
    f9_tmp17 = f9_tmp15 * f9_tmp16
    tmp17 = f9_tmp17.to(tl.float32)
    f10_x0 = ((16256 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f10_x2 = (16256 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f10_tmp0 = tl.load(in_ptr0 + ((16256 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f10_tmp1 = tl.load(fused_in_ptr0 + (f10_x0), xmask, eviction_policy='evict_last')
    f10_tmp3 = tl.load(fused_in_ptr1 + (16*f10_x2 + (f10_x0 // 4)), xmask, eviction_policy='evict_last')
    f10_tmp5 = tl.load(fused_in_ptr2 + (16*f10_x2 + (f10_x0 // 4)), xmask, eviction_policy='evict_last')
    f10_tmp12 = tl.load(fused_in_ptr3 + (f10_x0), xmask, eviction_policy='evict_last')
    f10_tmp14 = tl.load(fused_in_ptr4 + (f10_x0), xmask, eviction_policy='evict_last')
    f10_tmp16 = tl.load(fused_in_ptr5 + (f10_x0), xmask, eviction_policy='evict_last')
    f10_tmp2 = f10_tmp0 + f10_tmp1
    f10_tmp4 = f10_tmp2 - f10_tmp3
    f10_tmp6 = tl.full([1], 63504.0, tl.float32)
    f10_tmp7 = (f10_tmp5 / f10_tmp6)
    f10_tmp8 = tl.full([1], 1e-05, tl.float32)
    f10_tmp9 = f10_tmp7 + f10_tmp8
    f10_tmp10 = libdevice.rsqrt(f10_tmp9)
    f10_tmp11 = f10_tmp4 * f10_tmp10
    f10_tmp13 = f10_tmp11 * f10_tmp12
    f10_tmp15 = f10_tmp13 + f10_tmp14
    f10_tmp17 = f10_tmp15 * f10_tmp16
    tmp19 = f10_tmp17.to(tl.float32)
    f11_x0 = ((16320 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f11_x2 = (16320 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f11_tmp0 = tl.load(in_ptr0 + ((16320 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f11_tmp1 = tl.load(fused_in_ptr0 + (f11_x0), xmask, eviction_policy='evict_last')
    f11_tmp3 = tl.load(fused_in_ptr1 + (16*f11_x2 + (f11_x0 // 4)), xmask, eviction_policy='evict_last')
    f11_tmp5 = tl.load(fused_in_ptr2 + (16*f11_x2 + (f11_x0 // 4)), xmask, eviction_policy='evict_last')
    f11_tmp12 = tl.load(fused_in_ptr3 + (f11_x0), xmask, eviction_policy='evict_last')
    f11_tmp14 = tl.load(fused_in_ptr4 + (f11_x0), xmask, eviction_policy='evict_last')
    f11_tmp16 = tl.load(fused_in_ptr5 + (f11_x0), xmask, eviction_policy='evict_last')
    f11_tmp2 = f11_tmp0 + f11_tmp1
    f11_tmp4 = f11_tmp2 - f11_tmp3
    f11_tmp6 = tl.full([1], 63504.0, tl.float32)
    f11_tmp7 = (f11_tmp5 / f11_tmp6)
    f11_tmp8 = tl.full([1], 1e-05, tl.float32)
    f11_tmp9 = f11_tmp7 + f11_tmp8
    f11_tmp10 = libdevice.rsqrt(f11_tmp9)
    f11_tmp11 = f11_tmp4 * f11_tmp10
    f11_tmp13 = f11_tmp11 * f11_tmp12
    f11_tmp15 = f11_tmp13 + f11_tmp14
    f11_tmp17 = f11_tmp15 * f11_tmp16
    tmp21 = f11_tmp17.to(tl.float32)
    f12_x0 = ((24192 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f12_x2 = (24192 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f12_tmp0 = tl.load(in_ptr0 + ((24192 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f12_tmp1 = tl.load(fused_in_ptr0 + (f12_x0), xmask, eviction_policy='evict_last')
    f12_tmp3 = tl.load(fused_in_ptr1 + (16*f12_x2 + (f12_x0 // 4)), xmask, eviction_policy='evict_last')
    f12_tmp5 = tl.load(fused_in_ptr2 + (16*f12_x2 + (f12_x0 // 4)), xmask, eviction_policy='evict_last')
    f12_tmp12 = tl.load(fused_in_ptr3 + (f12_x0), xmask, eviction_policy='evict_last')
    f12_tmp14 = tl.load(fused_in_ptr4 + (f12_x0), xmask, eviction_policy='evict_last')
    f12_tmp16 = tl.load(fused_in_ptr5 + (f12_x0), xmask, eviction_policy='evict_last')
    f12_tmp2 = f12_tmp0 + f12_tmp1
    f12_tmp4 = f12_tmp2 - f12_tmp3
    f12_tmp6 = tl.full([1], 63504.0, tl.float32)
    f12_tmp7 = (f12_tmp5 / f12_tmp6)
    f12_tmp8 = tl.full([1], 1e-05, tl.float32)
    f12_tmp9 = f12_tmp7 + f12_tmp8
    f12_tmp10 = libdevice.rsqrt(f12_tmp9)
    f12_tmp11 = f12_tmp4 * f12_tmp10
    f12_tmp13 = f12_tmp11 * f12_tmp12
    f12_tmp15 = f12_tmp13 + f12_tmp14
    f12_tmp17 = f12_tmp15 * f12_tmp16
    tmp23 = f12_tmp17.to(tl.float32)
    f13_x0 = ((24256 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f13_x2 = (24256 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f13_tmp0 = tl.load(in_ptr0 + ((24256 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f13_tmp1 = tl.load(fused_in_ptr0 + (f13_x0), xmask, eviction_policy='evict_last')
    f13_tmp3 = tl.load(fused_in_ptr1 + (16*f13_x2 + (f13_x0 // 4)), xmask, eviction_policy='evict_last')
    f13_tmp5 = tl.load(fused_in_ptr2 + (16*f13_x2 + (f13_x0 // 4)), xmask, eviction_policy='evict_last')
    f13_tmp12 = tl.load(fused_in_ptr3 + (f13_x0), xmask, eviction_policy='evict_last')
    f13_tmp14 = tl.load(fused_in_ptr4 + (f13_x0), xmask, eviction_policy='evict_last')
    f13_tmp16 = tl.load(fused_in_ptr5 + (f13_x0), xmask, eviction_policy='evict_last')
    f13_tmp2 = f13_tmp0 + f13_tmp1
    f13_tmp4 = f13_tmp2 - f13_tmp3
    f13_tmp6 = tl.full([1], 63504.0, tl.float32)
    f13_tmp7 = (f13_tmp5 / f13_tmp6)
    f13_tmp8 = tl.full([1], 1e-05, tl.float32)
    f13_tmp9 = f13_tmp7 + f13_tmp8
    f13_tmp10 = libdevice.rsqrt(f13_tmp9)
    f13_tmp11 = f13_tmp4 * f13_tmp10
    f13_tmp13 = f13_tmp11 * f13_tmp12
    f13_tmp15 = f13_tmp13 + f13_tmp14
    f13_tmp17 = f13_tmp15 * f13_tmp16
    tmp25 = f13_tmp17.to(tl.float32)
    f14_x0 = ((24320 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f14_x2 = (24320 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f14_tmp0 = tl.load(in_ptr0 + ((24320 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f14_tmp1 = tl.load(fused_in_ptr0 + (f14_x0), xmask, eviction_policy='evict_last')
    f14_tmp3 = tl.load(fused_in_ptr1 + (16*f14_x2 + (f14_x0 // 4)), xmask, eviction_policy='evict_last')
    f14_tmp5 = tl.load(fused_in_ptr2 + (16*f14_x2 + (f14_x0 // 4)), xmask, eviction_policy='evict_last')
    f14_tmp12 = tl.load(fused_in_ptr3 + (f14_x0), xmask, eviction_policy='evict_last')
    f14_tmp14 = tl.load(fused_in_ptr4 + (f14_x0), xmask, eviction_policy='evict_last')
    f14_tmp16 = tl.load(fused_in_ptr5 + (f14_x0), xmask, eviction_policy='evict_last')
    f14_tmp2 = f14_tmp0 + f14_tmp1
    f14_tmp4 = f14_tmp2 - f14_tmp3
    f14_tmp6 = tl.full([1], 63504.0, tl.float32)
    f14_tmp7 = (f14_tmp5 / f14_tmp6)
    f14_tmp8 = tl.full([1], 1e-05, tl.float32)
    f14_tmp9 = f14_tmp7 + f14_tmp8
    f14_tmp10 = libdevice.rsqrt(f14_tmp9)
    f14_tmp11 = f14_tmp4 * f14_tmp10
    f14_tmp13 = f14_tmp11 * f14_tmp12
    f14_tmp15 = f14_tmp13 + f14_tmp14
    f14_tmp17 = f14_tmp15 * f14_tmp16
    tmp27 = f14_tmp17.to(tl.float32)
    f15_x0 = ((24384 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)
    f15_x2 = (24384 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064
    f15_tmp0 = tl.load(in_ptr0 + ((24384 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), xmask)
    f15_tmp1 = tl.load(fused_in_ptr0 + (f15_x0), xmask, eviction_policy='evict_last')
    f15_tmp3 = tl.load(fused_in_ptr1 + (16*f15_x2 + (f15_x0 // 4)), xmask, eviction_policy='evict_last')
    f15_tmp5 = tl.load(fused_in_ptr2 + (16*f15_x2 + (f15_x0 // 4)), xmask, eviction_policy='evict_last')
    f15_tmp12 = tl.load(fused_in_ptr3 + (f15_x0), xmask, eviction_policy='evict_last')
    f15_tmp14 = tl.load(fused_in_ptr4 + (f15_x0), xmask, eviction_policy='evict_last')
    f15_tmp16 = tl.load(fused_in_ptr5 + (f15_x0), xmask, eviction_policy='evict_last')
    f15_tmp2 = f15_tmp0 + f15_tmp1
    f15_tmp4 = f15_tmp2 - f15_tmp3
    f15_tmp6 = tl.full([1], 63504.0, tl.float32)
    f15_tmp7 = (f15_tmp5 / f15_tmp6)
    f15_tmp8 = tl.full([1], 1e-05, tl.float32)
    f15_tmp9 = f15_tmp7 + f15_tmp8
    f15_tmp10 = libdevice.rsqrt(f15_tmp9)
    f15_tmp11 = f15_tmp4 * f15_tmp10
    f15_tmp13 = f15_tmp11 * f15_tmp12
    f15_tmp15 = f15_tmp13 + f15_tmp14
    f15_tmp17 = f15_tmp15 * f15_tmp16
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
    triton_red_fused_convolution_native_group_norm_2[(triton.cdiv(2048, 2), 1, 1)](_t0, _t1, _t2, _t3, 2048, 63504, XBLOCK=2, R0_BLOCK=1024, num_warps=16, num_stages=1)
    _t4 = outputs["buf8"]
    _t5 = inputs["arg3_1"]
    _t6 = inputs["arg4_1"]
    _t7 = inputs["arg5_1"]
    triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_group_norm_4_fused[(triton.cdiv(961, 16), triton.cdiv(8192, 16), 1)](_t0, _t4, _t1, _t2, _t3, _t5, _t6, _t7, 8192, 961, YBLOCK=16, XBLOCK=16, num_warps=4, num_stages=1)
