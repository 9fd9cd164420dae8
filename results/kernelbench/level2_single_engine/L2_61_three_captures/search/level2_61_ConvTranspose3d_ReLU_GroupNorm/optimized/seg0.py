"""Segment 0: triton_red_fused_native_group_norm_relu_0: 1 Welford reduction(s) made shifted sums (no division per element; the mean and M2 from the sums after the loop).

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
def triton_red_fused_native_group_norm_relu_0(in_ptr0, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 640
    r0_numel = 125773
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 5)
    x1 = xindex // 5
    tmp17_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp17_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp17_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp17_shift = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp17_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp17_sq = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = r0_2 + 125773*x0
        tmp1 = tl.full([1, 1], 628864, tl.int32)
        tmp2 = tmp0 < tmp1
        tmp3 = tl.load(in_ptr0 + (628864*x1 + (((r0_2 + 125773*x0) % 628864))), r0_mask & tmp2 & xmask, eviction_policy='evict_last', other=0.0)
        tmp4 = tl.full([1, 1], 0, tl.int32)
        tmp5 = triton_helpers.maximum(tmp4, tmp3)
        tmp6 = tl.full(tmp5.shape, 0, tmp5.dtype)
        tmp7 = tl.where(tmp2, tmp5, tmp6)
        tmp8 = tl.full([1, 1], 0.0, tl.float32)
        tmp9 = tl.full(tmp8.shape, 0, tmp8.dtype)
        tmp10 = tl.where(tmp2, tmp8, tmp9)
        tmp11 = tl.full([1, 1], 1.0, tl.float32)
        tmp12 = tl.full(tmp11.shape, 0, tmp11.dtype)
        tmp13 = tl.where(tmp2, tmp11, tmp12)
        tmp14 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])
        tmp15 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        tmp16 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
        tmp17_w = tl.where(r0_mask & xmask, tmp16, 0.0)
        tmp17_shift = tl.where((tmp17_weight == 0) & (tmp17_w > 0), tmp14, tmp17_shift)
        tmp17_dx = tl.where(tmp17_w > 0, tmp14 - tmp17_shift, 0.0)
        tmp17_sum = tmp17_sum + tmp17_w * tmp17_dx
        tmp17_sq = tmp17_sq + tmp17_w * tmp17_dx * tmp17_dx
        tmp17_weight = tmp17_weight + tmp17_w
    tmp17_n = tl.where(tmp17_weight == 0, 1.0, tmp17_weight)
    tmp17_mean = tmp17_shift + tmp17_sum / tmp17_n
    tmp17_m2 = tl.maximum(tmp17_sq - tmp17_sum * tmp17_sum / tmp17_n, 0.0)
    tmp18, tmp19, tmp20 = triton_helpers.welford(tmp17_mean, tmp17_m2, tmp17_weight, 1)
    tmp17 = tmp18[:, None]
    tmp21 = tmp19[:, None]
    tmp22 = tmp20[:, None]
    tl.store(out_ptr0 + (x3), tmp17, xmask)
    tl.store(out_ptr1 + (x3), tmp21, xmask)
    tl.store(out_ptr2 + (x3), tmp22, xmask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_per_fused_native_group_norm_relu_1(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp1 = tl.load(in_ptr1 + (r0_1 + 5*x0), r0_mask & xmask, other=0.0)
    tmp2 = tl.load(in_ptr2 + (r0_1 + 5*x0), r0_mask & xmask, other=0.0)
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(r0_mask & xmask, tmp3, 0)
    tmp8 = tl.where(r0_mask & xmask, tmp4, 0)
    tmp9 = tl.where(r0_mask & xmask, tmp5, 0)
    tmp10, tmp11, tmp12 = triton_helpers.welford(tmp7, tmp8, tmp9, 1)
    tmp13 = tmp10[:, None]
    tmp14 = tmp11[:, None]
    tmp15 = tmp12[:, None]
    tl.store(out_ptr0 + (x0), tmp13, xmask)
    tl.store(out_ptr1 + (x0), tmp14, xmask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused_native_group_norm_relu_2(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 80494592
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x4 = xindex
    x6 = xindex // 39304
    x2 = ((xindex // 39304) % 128)
    tmp0 = tl.load(in_ptr0 + (x4), None)
    tmp3 = tl.load(in_ptr1 + (x6 // 16), None, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr2 + (x6 // 16), None, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr3 + (x2), None, eviction_policy='evict_last')
    tmp14 = tl.load(in_ptr4 + (x2), None, eviction_policy='evict_last')
    tmp1 = tl.full([1], 0, tl.int32)
    tmp2 = triton_helpers.maximum(tmp1, tmp0)
    tmp4 = tmp2 - tmp3
    tmp6 = tl.full([1], 628864.0, tl.float32)
    tmp7 = (tmp5 / tmp6)
    tmp8 = tl.full([1], 1e-05, tl.float32)
    tmp9 = tmp7 + tmp8
    tmp10 = libdevice.rsqrt(tmp9)
    tmp11 = tmp4 * tmp10
    tmp13 = tmp11 * tmp12
    tmp15 = tmp13 + tmp14
    tl.store(out_ptr0 + (x4), tmp15, None)



def run(inputs, outputs):
    _device = inputs["buf0"].device
    _t0 = inputs["buf0"]
    _t1 = torch.empty_strided((16, 8, 1, 1, 5,), (40, 5, 640, 640, 1,), dtype=torch.float32, device=_device)
    _t2 = torch.empty_strided((16, 8, 1, 1, 5,), (40, 5, 640, 640, 1,), dtype=torch.float32, device=_device)
    _t3 = torch.empty_strided((16, 8, 1, 1, 5,), (40, 5, 640, 640, 1,), dtype=torch.float32, device=_device)
    triton_red_fused_native_group_norm_relu_0[(triton.cdiv(640, 1), 1, 1)](_t0, _t1, _t2, _t3, 640, 125773, XBLOCK=1, R0_BLOCK=2048, num_warps=32, num_stages=1)
    _t4 = torch.empty_strided((16, 8, 1, 1,), (8, 1, 128, 128,), dtype=torch.float32, device=_device)
    _t5 = torch.empty_strided((16, 8, 1, 1,), (8, 1, 128, 128,), dtype=torch.float32, device=_device)
    triton_per_fused_native_group_norm_relu_1[(triton.cdiv(128, 2), 1, 1)](_t1, _t2, _t3, _t4, _t5, 128, 5, XBLOCK=2, num_warps=1, num_stages=1)
    _t6 = inputs["arg2_1"]
    _t7 = inputs["arg3_1"]
    _t8 = outputs["buf7"]
    triton_poi_fused_native_group_norm_relu_2[(triton.cdiv(80494592, 512), 1, 1)](_t0, _t4, _t5, _t6, _t7, _t8, 80494592, XBLOCK=512, num_warps=4, num_stages=1)
