"""Segment 1: Inductor's looped reduction triton_red_fused__softmax_add_convolution_exp_mul_prepare_softmax_online_sigmoid_sub_2 made one pass: rows of 128 fit one program, 2 loops flattened, 2 repeated load(s) reuse the first, 1 online softmax(es) a max then a sum of exponentials over the row.

Written by kernelopt's rewrite proposer: the kernel's source as Inductor wrote it and this proposer rewrote it, without its
autotuning decorator, launched with the settings below.
"""


import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_red_fused__softmax_add_convolution_exp_mul_prepare_softmax_online_sigmoid_sub_2(in_ptr0, in_ptr1, in_ptr2, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 2130048
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x3 = xindex
    _tmp4_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    _tmp4_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x0 = (xindex % 16641)
    x1 = xindex // 16641
    r0_offset = 0
    r0_index = r0_offset + r0_base
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    tmp0 = tl.load(in_ptr0 + (r0_2 + 128*x3), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp2 = tmp0 + tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])

    tmp4 = triton_helpers.max2(tl.where(r0_mask & xmask, tmp3, float('-inf')), 1)

    tmp5 = tl.sum(tl.where(r0_mask & xmask, tl.where(tmp4[:, None] == float('-inf'), 1.0, libdevice.exp(tmp3 - tmp4[:, None])), 0.0), 1)






    tmp4 = tmp4[:, None]
    tmp5 = tmp5[:, None]
    r0_offset = 0
    r0_index = r0_offset + r0_base
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    tmp6 = tmp0
    tmp7 = tmp1
    tmp12 = tl.load(in_ptr2 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp8 = tmp6 + tmp7
    tmp9 = tmp8 - tmp4
    tmp10 = libdevice.exp(tmp9)
    tmp11 = (tmp10 / tmp5)
    tmp13 = tmp11 + tmp12
    tmp14 = tl.full([1, 1], 2.0, tl.float32)
    tmp15 = tmp13 * tmp14
    tmp16 = tl.sigmoid(tmp15)
    tl.store(out_ptr2 + (x0 + 16641*r0_2 + 2130048*x1), tmp16, r0_mask & xmask)



def run(inputs, outputs):
    _t0 = inputs["buf2"]
    _t1 = inputs["arg1_1"]
    _t2 = inputs["arg3_1"]
    _t3 = outputs["buf5"]
    triton_red_fused__softmax_add_convolution_exp_mul_prepare_softmax_online_sigmoid_sub_2[(triton.cdiv(2130048, 64), 1, 1)](_t0, _t1, _t2, _t3, 2130048, 128, XBLOCK=64, R0_BLOCK=128, num_warps=16, num_stages=1)
