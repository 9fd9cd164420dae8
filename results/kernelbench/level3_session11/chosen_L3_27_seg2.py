"""Segment 2: triton_poi_fused__native_batch_norm_legit_functional_convolution_relu_5 inlined into triton_poi_fused__native_batch_norm_legit_functional_convolution_max_pool2d_with_indices_relu_7 at 4 loads of buf14: buf14 is no longer written and reread.

Written by kernelopt's rewrite proposer (fuse): Inductor's kernels without their
autotuning decorators, triton_poi_fused__native_batch_norm_legit_functional_convolution_relu_5 computed inside triton_poi_fused__native_batch_norm_legit_functional_convolution_max_pool2d_with_indices_relu_7 instead of launched, each
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
def triton_red_fused__native_batch_norm_legit_functional_convolution_2(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 65536
    r0_numel = 392
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 64)
    x1 = xindex // 64
    tmp1 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last')
    tmp4_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp4_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_2 + 25088*x1), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp4_mean_next, tmp4_m2_next, tmp4_weight_next = triton_helpers.welford_reduce(
            tmp3, tmp4_mean, tmp4_m2, tmp4_weight, roffset == 0
        )
        tmp4_mean = tl.where(r0_mask, tmp4_mean_next, tmp4_mean)
        tmp4_m2 = tl.where(r0_mask, tmp4_m2_next, tmp4_m2)
        tmp4_weight = tl.where(r0_mask, tmp4_weight_next, tmp4_weight)
    tmp5, tmp6, tmp7 = triton_helpers.welford(tmp4_mean, tmp4_m2, tmp4_weight, 1)
    tmp4 = tmp5[:, None]
    tmp8 = tmp6[:, None]
    tmp9 = tmp7[:, None]
    tl.store(out_ptr0 + (x3), tmp4, None)
    tl.store(out_ptr1 + (x3), tmp8, None)
    tl.store(out_ptr2 + (x3), tmp9, None)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_red_fused__native_batch_norm_legit_functional_convolution_3(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 512
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 64)
    x1 = xindex // 64
    tmp6_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp6_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp6_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp2 = tl.load(in_ptr2 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp6_mean_next, tmp6_m2_next, tmp6_weight_next = triton_helpers.welford_combine(
            tmp6_mean, tmp6_m2, tmp6_weight,
            tmp3, tmp4, tmp5
        )
        tmp6_mean = tl.where(r0_mask & xmask, tmp6_mean_next, tmp6_mean)
        tmp6_m2 = tl.where(r0_mask & xmask, tmp6_m2_next, tmp6_m2)
        tmp6_weight = tl.where(r0_mask & xmask, tmp6_weight_next, tmp6_weight)
    tmp7, tmp8, tmp9 = triton_helpers.welford(tmp6_mean, tmp6_m2, tmp6_weight, 1)
    tmp6 = tmp7[:, None]
    tmp10 = tmp8[:, None]
    tmp11 = tmp9[:, None]
    tl.store(out_ptr0 + (x3), tmp6, xmask)
    tl.store(out_ptr1 + (x3), tmp10, xmask)
    tl.store(out_ptr2 + (x3), tmp11, xmask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_per_fused__native_batch_norm_legit_functional_convolution_copy__4(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, out_ptr1, out_ptr3, out_ptr5, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp2 = tl.load(in_ptr2 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp18 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last')
    tmp27 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp3, 0)
    tmp8 = tl.where(xmask, tmp4, 0)
    tmp9 = tl.where(xmask, tmp5, 0)
    tmp10, tmp11, tmp12 = triton_helpers.welford(tmp7, tmp8, tmp9, 1)
    tmp13 = tmp10[:, None]
    tmp14 = tmp11[:, None]
    tmp15 = tmp12[:, None]
    tmp16 = tl.full([1, 1], 0.1, tl.float32)
    tmp17 = tmp13 * tmp16
    tmp19 = tl.full([1, 1], 0.9, tl.float32)
    tmp20 = tmp18 * tmp19
    tmp21 = tmp17 + tmp20
    tmp22 = tl.full([1, 1], 401408.0, tl.float32)
    tmp23 = (tmp14 / tmp22)
    tmp24 = tl.full([1, 1], 1.0000024912370735, tl.float32)
    tmp25 = tmp23 * tmp24
    tmp26 = tmp25 * tmp16
    tmp28 = tmp27 * tmp19
    tmp29 = tmp26 + tmp28
    tl.store(out_ptr3 + (x0), tmp21, xmask)
    tl.store(out_ptr5 + (x0), tmp29, xmask)
    tl.store(out_ptr0 + (x0), tmp13, xmask)
    tl.store(out_ptr1 + (x0), tmp14, xmask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused__native_batch_norm_legit_functional_convolution_max_pool2d_with_indices_relu_7_fused(in_ptr0, out_ptr0, fused_in_ptr0, fused_in_ptr1, fused_in_ptr2, fused_in_ptr3, fused_in_ptr4, xnumel, XBLOCK : tl.constexpr):
    xnumel = 6422528
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 64)
    x1 = ((xindex // 64) % 112)
    x2 = xindex // 7168
    x3 = xindex
    f0_x0 = ((x0 + 128*x1 + 28672*x2) % 64)
    f0_tmp0 = tl.load(in_ptr0 + ((x0 + 128*x1 + 28672*x2)), None)
    f0_tmp1 = tl.load(fused_in_ptr0 + (f0_x0), None, eviction_policy='evict_last')
    f0_tmp3 = tl.load(fused_in_ptr1 + (f0_x0), None, eviction_policy='evict_last')
    f0_tmp5 = tl.load(fused_in_ptr2 + (f0_x0), None, eviction_policy='evict_last')
    f0_tmp12 = tl.load(fused_in_ptr3 + (f0_x0), None, eviction_policy='evict_last')
    f0_tmp14 = tl.load(fused_in_ptr4 + (f0_x0), None, eviction_policy='evict_last')
    f0_tmp2 = f0_tmp0 + f0_tmp1
    f0_tmp4 = f0_tmp2 - f0_tmp3
    f0_tmp6 = tl.full([1], 401408.0, tl.float32)
    f0_tmp7 = (f0_tmp5 / f0_tmp6)
    f0_tmp8 = tl.full([1], 1e-05, tl.float32)
    f0_tmp9 = f0_tmp7 + f0_tmp8
    f0_tmp10 = libdevice.rsqrt(f0_tmp9)
    f0_tmp11 = f0_tmp4 * f0_tmp10
    f0_tmp13 = f0_tmp11 * f0_tmp12
    f0_tmp15 = f0_tmp13 + f0_tmp14
    f0_tmp16 = tl.full([1], 0, tl.int32)
    f0_tmp17 = triton_helpers.maximum(f0_tmp16, f0_tmp15)
    tmp0 = f0_tmp17.to(tl.float32)
    f1_x0 = ((64 + x0 + 128*x1 + 28672*x2) % 64)
    f1_tmp0 = tl.load(in_ptr0 + ((64 + x0 + 128*x1 + 28672*x2)), None)
    f1_tmp1 = tl.load(fused_in_ptr0 + (f1_x0), None, eviction_policy='evict_last')
    f1_tmp3 = tl.load(fused_in_ptr1 + (f1_x0), None, eviction_policy='evict_last')
    f1_tmp5 = tl.load(fused_in_ptr2 + (f1_x0), None, eviction_policy='evict_last')
    f1_tmp12 = tl.load(fused_in_ptr3 + (f1_x0), None, eviction_policy='evict_last')
    f1_tmp14 = tl.load(fused_in_ptr4 + (f1_x0), None, eviction_policy='evict_last')
    f1_tmp2 = f1_tmp0 + f1_tmp1
    f1_tmp4 = f1_tmp2 - f1_tmp3
    f1_tmp6 = tl.full([1], 401408.0, tl.float32)
    f1_tmp7 = (f1_tmp5 / f1_tmp6)
    f1_tmp8 = tl.full([1], 1e-05, tl.float32)
    f1_tmp9 = f1_tmp7 + f1_tmp8
    f1_tmp10 = libdevice.rsqrt(f1_tmp9)
    f1_tmp11 = f1_tmp4 * f1_tmp10
    f1_tmp13 = f1_tmp11 * f1_tmp12
    f1_tmp15 = f1_tmp13 + f1_tmp14
    f1_tmp16 = tl.full([1], 0, tl.int32)
    f1_tmp17 = triton_helpers.maximum(f1_tmp16, f1_tmp15)
    tmp1 = f1_tmp17.to(tl.float32)
    f2_x0 = ((14336 + x0 + 128*x1 + 28672*x2) % 64)
    f2_tmp0 = tl.load(in_ptr0 + ((14336 + x0 + 128*x1 + 28672*x2)), None)
    f2_tmp1 = tl.load(fused_in_ptr0 + (f2_x0), None, eviction_policy='evict_last')
    f2_tmp3 = tl.load(fused_in_ptr1 + (f2_x0), None, eviction_policy='evict_last')
    f2_tmp5 = tl.load(fused_in_ptr2 + (f2_x0), None, eviction_policy='evict_last')
    f2_tmp12 = tl.load(fused_in_ptr3 + (f2_x0), None, eviction_policy='evict_last')
    f2_tmp14 = tl.load(fused_in_ptr4 + (f2_x0), None, eviction_policy='evict_last')
    f2_tmp2 = f2_tmp0 + f2_tmp1
    f2_tmp4 = f2_tmp2 - f2_tmp3
    f2_tmp6 = tl.full([1], 401408.0, tl.float32)
    f2_tmp7 = (f2_tmp5 / f2_tmp6)
    f2_tmp8 = tl.full([1], 1e-05, tl.float32)
    f2_tmp9 = f2_tmp7 + f2_tmp8
    f2_tmp10 = libdevice.rsqrt(f2_tmp9)
    f2_tmp11 = f2_tmp4 * f2_tmp10
    f2_tmp13 = f2_tmp11 * f2_tmp12
    f2_tmp15 = f2_tmp13 + f2_tmp14
    f2_tmp16 = tl.full([1], 0, tl.int32)
    f2_tmp17 = triton_helpers.maximum(f2_tmp16, f2_tmp15)
    tmp3 = f2_tmp17.to(tl.float32)
    f3_x0 = ((14400 + x0 + 128*x1 + 28672*x2) % 64)
    f3_tmp0 = tl.load(in_ptr0 + ((14400 + x0 + 128*x1 + 28672*x2)), None)
    f3_tmp1 = tl.load(fused_in_ptr0 + (f3_x0), None, eviction_policy='evict_last')
    f3_tmp3 = tl.load(fused_in_ptr1 + (f3_x0), None, eviction_policy='evict_last')
    f3_tmp5 = tl.load(fused_in_ptr2 + (f3_x0), None, eviction_policy='evict_last')
    f3_tmp12 = tl.load(fused_in_ptr3 + (f3_x0), None, eviction_policy='evict_last')
    f3_tmp14 = tl.load(fused_in_ptr4 + (f3_x0), None, eviction_policy='evict_last')
    f3_tmp2 = f3_tmp0 + f3_tmp1
    f3_tmp4 = f3_tmp2 - f3_tmp3
    f3_tmp6 = tl.full([1], 401408.0, tl.float32)
    f3_tmp7 = (f3_tmp5 / f3_tmp6)
    f3_tmp8 = tl.full([1], 1e-05, tl.float32)
    f3_tmp9 = f3_tmp7 + f3_tmp8
    f3_tmp10 = libdevice.rsqrt(f3_tmp9)
    f3_tmp11 = f3_tmp4 * f3_tmp10
    f3_tmp13 = f3_tmp11 * f3_tmp12
    f3_tmp15 = f3_tmp13 + f3_tmp14
    f3_tmp16 = tl.full([1], 0, tl.int32)
    f3_tmp17 = triton_helpers.maximum(f3_tmp16, f3_tmp15)
    tmp5 = f3_tmp17.to(tl.float32)
    tmp2 = triton_helpers.maximum(tmp0, tmp1)
    tmp4 = triton_helpers.maximum(tmp2, tmp3)
    tmp6 = triton_helpers.maximum(tmp4, tmp5)
    tl.store(out_ptr0 + (x3), tmp6, None)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused__native_batch_norm_legit_functional_convolution_max_pool2d_with_indices_relu_8(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 8192
    xnumel = 9
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 64)
    y1 = yindex // 64
    tmp0 = tl.load(in_ptr0 + (x2 + 9*y3), xmask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 64*x2 + 576*y1), tmp0, xmask)



def run(inputs, outputs):
    _device = inputs["buf14"].device
    _t0 = inputs["buf14"]
    _t1 = inputs["arg9_1"]
    _t2 = torch.empty_strided((1, 64, 1, 1, 1024,), (65536, 1, 65536, 65536, 64,), dtype=torch.float32, device=_device)
    _t3 = torch.empty_strided((1, 64, 1, 1, 1024,), (65536, 1, 65536, 65536, 64,), dtype=torch.float32, device=_device)
    _t4 = torch.empty_strided((1, 64, 1, 1, 1024,), (65536, 1, 65536, 65536, 64,), dtype=torch.float32, device=_device)
    triton_red_fused__native_batch_norm_legit_functional_convolution_2[(triton.cdiv(65536, 64), 1, 1)](_t0, _t1, _t2, _t3, _t4, 65536, 392, XBLOCK=64, R0_BLOCK=4, num_warps=4, num_stages=1)
    _t5 = outputs["buf18"]
    _t6 = outputs["buf19"]
    _t7 = outputs["buf20"]
    triton_red_fused__native_batch_norm_legit_functional_convolution_3[(triton.cdiv(512, 16), 1, 1)](_t2, _t3, _t4, _t5, _t6, _t7, 512, 128, XBLOCK=16, R0_BLOCK=32, num_warps=4, num_stages=1)
    _t8 = outputs["arg11_1"]
    _t9 = outputs["arg12_1"]
    _t10 = torch.empty_strided((1, 64, 1, 1,), (64, 1, 1, 1,), dtype=torch.float32, device=_device)
    _t11 = torch.empty_strided((1, 64, 1, 1,), (64, 1, 64, 64,), dtype=torch.float32, device=_device)
    triton_per_fused__native_batch_norm_legit_functional_convolution_copy__4[(triton.cdiv(64, 8), 1, 1)](_t5, _t6, _t7, _t8, _t9, _t10, _t11, _t8, _t9, 64, 8, XBLOCK=8, num_warps=1, num_stages=1)
    _t12 = outputs["buf25"]
    _t13 = inputs["arg13_1"]
    _t14 = inputs["arg14_1"]
    triton_poi_fused__native_batch_norm_legit_functional_convolution_max_pool2d_with_indices_relu_7_fused[(triton.cdiv(6422528, 512), 1, 1)](_t0, _t12, _t1, _t10, _t11, _t13, _t14, 6422528, XBLOCK=512, num_warps=4, num_stages=1)
    _t15 = inputs["arg15_1"]
    _t16 = outputs["buf26"]
    triton_poi_fused__native_batch_norm_legit_functional_convolution_max_pool2d_with_indices_relu_8[(triton.cdiv(9, 4), triton.cdiv(8192, 512), 1)](_t15, _t16, 8192, 9, YBLOCK=512, XBLOCK=4, num_warps=16, num_stages=1)
