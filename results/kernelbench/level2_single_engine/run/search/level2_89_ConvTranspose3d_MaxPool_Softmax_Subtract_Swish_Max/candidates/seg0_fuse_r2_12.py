"""Segment 0: triton_poi_fused_convolution_0 inlined into triton_per_fused__softmax_convolution_exp_max_max_pool3d_with_indices_mul_prepare_softmax_online_sigmoid_sub_view_1 at 8 loads of buf0: buf0 is no longer written and reread (the copies' repeated statements computed once: 15).

Written by kernelopt's rewrite proposer (fuse): Inductor's kernels without their
autotuning decorators, triton_poi_fused_convolution_0 computed inside triton_per_fused__softmax_convolution_exp_max_max_pool3d_with_indices_mul_prepare_softmax_online_sigmoid_sub_view_1 instead of launched, each
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
def triton_per_fused__softmax_convolution_exp_max_max_pool3d_with_indices_mul_prepare_softmax_online_sigmoid_sub_view_1_fused(in_out_ptr0, in_ptr0, in_ptr1, fused_in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2097152
    r0_numel = 16
    R0_BLOCK: tl.constexpr = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_4 = r0_index
    x0 = (xindex % 32)
    x1 = ((xindex // 32) % 32)
    x2 = ((xindex // 1024) % 16)
    x3 = xindex // 16384
    x5 = (xindex % 16384)
    x6 = xindex
    f0_tmp0 = tl.load(in_ptr0 + ((2*x0 + 128*x1 + 8192*x2 + 131072*r0_4 + 2097152*x3)), None)
    f0_tmp1 = tl.load(fused_in_ptr0 + (r0_4), None, eviction_policy='evict_last')
    f0_tmp2 = f0_tmp0 + f0_tmp1
    tmp0 = f0_tmp2.to(tl.float32)
    f1_tmp0 = tl.load(in_ptr0 + ((1 + 2*x0 + 128*x1 + 8192*x2 + 131072*r0_4 + 2097152*x3)), None)
    f1_tmp2 = f1_tmp0 + f0_tmp1
    tmp1 = f1_tmp2.to(tl.float32)
    f2_tmp0 = tl.load(in_ptr0 + ((64 + 2*x0 + 128*x1 + 8192*x2 + 131072*r0_4 + 2097152*x3)), None)
    f2_tmp2 = f2_tmp0 + f0_tmp1
    tmp3 = f2_tmp2.to(tl.float32)
    f3_tmp0 = tl.load(in_ptr0 + ((65 + 2*x0 + 128*x1 + 8192*x2 + 131072*r0_4 + 2097152*x3)), None)
    f3_tmp2 = f3_tmp0 + f0_tmp1
    tmp5 = f3_tmp2.to(tl.float32)
    f4_tmp0 = tl.load(in_ptr0 + ((4096 + 2*x0 + 128*x1 + 8192*x2 + 131072*r0_4 + 2097152*x3)), None)
    f4_tmp2 = f4_tmp0 + f0_tmp1
    tmp7 = f4_tmp2.to(tl.float32)
    f5_tmp0 = tl.load(in_ptr0 + ((4097 + 2*x0 + 128*x1 + 8192*x2 + 131072*r0_4 + 2097152*x3)), None)
    f5_tmp2 = f5_tmp0 + f0_tmp1
    tmp9 = f5_tmp2.to(tl.float32)
    f6_tmp0 = tl.load(in_ptr0 + ((4160 + 2*x0 + 128*x1 + 8192*x2 + 131072*r0_4 + 2097152*x3)), None)
    f6_tmp2 = f6_tmp0 + f0_tmp1
    tmp11 = f6_tmp2.to(tl.float32)
    f7_tmp0 = tl.load(in_ptr0 + ((4161 + 2*x0 + 128*x1 + 8192*x2 + 131072*r0_4 + 2097152*x3)), None)
    f7_tmp2 = f7_tmp0 + f0_tmp1
    tmp13 = f7_tmp2.to(tl.float32)
    tmp28 = tl.load(in_ptr1 + (r0_4), None, eviction_policy='evict_last')
    tmp2 = triton_helpers.maximum(tmp0, tmp1)
    tmp4 = triton_helpers.maximum(tmp2, tmp3)
    tmp6 = triton_helpers.maximum(tmp4, tmp5)
    tmp8 = triton_helpers.maximum(tmp6, tmp7)
    tmp10 = triton_helpers.maximum(tmp8, tmp9)
    tmp12 = triton_helpers.maximum(tmp10, tmp11)
    tmp14 = triton_helpers.maximum(tmp12, tmp13)
    tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
    tmp17 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
    tmp19 = triton_helpers.max2(tmp17, 1)[:, None].to(tl.float32)
    tmp20 = tmp15 - tmp19
    tmp21 = libdevice.exp(tmp20)
    tmp22 = tl.broadcast_to(tmp21, [XBLOCK, R0_BLOCK])
    tmp24 = tl.sum(tmp22, 1)[:, None].to(tl.float32)
    tmp25 = tmp14 - tmp19
    tmp26 = libdevice.exp(tmp25)
    tmp27 = (tmp26 / tmp24)
    tmp29 = tmp27 - tmp28
    tmp30 = tl.sigmoid(tmp29)
    tmp31 = tmp30 * tmp29
    tmp32 = tl.broadcast_to(tmp31, [XBLOCK, R0_BLOCK])
    tmp34 = triton_helpers.max2(tmp32, 1)[:, None].to(tl.float32)
    tl.store(in_out_ptr0 + (x6), tmp34, None)



def run(inputs, outputs):
    _device = outputs["buf3"].device
    _t0 = outputs["buf3"]
    _t1 = inputs["buf0"]
    _t2 = inputs["arg3_1"]
    _t3 = inputs["arg1_1"]
    triton_per_fused__softmax_convolution_exp_max_max_pool3d_with_indices_mul_prepare_softmax_online_sigmoid_sub_view_1_fused[(triton.cdiv(2097152, 8), 1, 1)](_t0, _t1, _t2, _t3, 2097152, 16, XBLOCK=8, num_warps=2, num_stages=1)
