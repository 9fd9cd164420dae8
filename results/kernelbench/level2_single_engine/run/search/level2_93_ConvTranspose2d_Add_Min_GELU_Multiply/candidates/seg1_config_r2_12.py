"""Segment 1: Inductor's pointwise kernel triton_poi_fused_add_convolution_gelu_lift_fresh_minimum_mul_2 relaunched with other settings.

Written by kernelopt's config proposer: the kernel's source as Inductor wrote it, without its
autotuning decorator, launched with the settings below.
"""


import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused_add_convolution_gelu_lift_fresh_minimum_mul_2(in_ptr0, in_ptr1, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 2163200
    xnumel = 128
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 16900)
    y1 = yindex // 16900
    tmp0 = tl.load(in_ptr0 + (x2 + 128*y3), xmask & ymask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (x2), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1, 1], 0.5, tl.float32)
    tmp4 = tmp2 + tmp3
    tmp5 = tl.full([1, 1], 0.0, tl.float32)
    tmp6 = triton_helpers.minimum(tmp4, tmp5)
    tmp7 = tmp6 * tmp3
    tmp8 = tl.full([1, 1], 0.7071067811865476, tl.float32)
    tmp9 = tmp6 * tmp8
    tmp10 = libdevice.erf(tmp9)
    tmp11 = tl.full([1, 1], 1.0, tl.float32)
    tmp12 = tmp10 + tmp11
    tmp13 = tmp7 * tmp12
    tmp14 = tl.full([1, 1], 2.0, tl.float32)
    tmp15 = tmp13 * tmp14
    tl.store(out_ptr0 + (y0 + 16900*x2 + 2163200*y1), tmp15, xmask & ymask)



def run(inputs, outputs):
    _t0 = inputs["buf2"]
    _t1 = inputs["arg1_1"]
    _t2 = outputs["buf3"]
    triton_poi_fused_add_convolution_gelu_lift_fresh_minimum_mul_2[(triton.cdiv(128, 32), triton.cdiv(2163200, 64), 1)](_t0, _t1, _t2, 2163200, 128, YBLOCK=64, XBLOCK=32, num_warps=2, num_stages=1)
