"""Segment 0: Inductor's 2 kernels of the segment relaunched with other settings, each its own (triton_red_fused_cumsum_flip_0, triton_poi_fused_div_flip_1).

Written by kernelopt's config proposer: Inductor's kernels of the segment without their
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
def _triton_helper_fn_add0(arg0_0, arg1_0):
    tmp0 = arg0_0 + arg1_0
    return tmp0

@triton.jit
def triton_red_fused_cumsum_flip_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 6144
    r0_numel = 10240
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp3 = tl.full([XBLOCK, 1], float('nan'), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (10239 + ((-1)*r0_1) + 10240*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4, = tl.associative_scan((tmp2,), 1, _triton_helper_fn_add0)
        tmp5 = triton_helpers.select_one((tmp4), rbase == (RBLOCK - 1), dim=-1, keep_dims=True)
        tmp6 = tmp3 + tmp5
        tmp7 = tmp3 + tmp4
        tmp8 = tl.where(roffset > 0, tmp7, tmp4)
        tmp3 = tl.where(roffset > 0, tmp6, tmp5)
        tl.store(out_ptr0 + (r0_1 + 10240*x0), tmp8, r0_mask & xmask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused_div_flip_1(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 62914560
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 10240)
    x1 = xindex // 10240
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (10239 + ((-1)*x0) + 10240*x1), None, eviction_policy='evict_last')
    tmp1 = tl.full([1], 0.009882117688026186, tl.float32)
    tmp2 = tmp0 * tmp1
    tl.store(out_ptr0 + (x2), tmp2, None)



def run(inputs, outputs):
    _device = inputs["arg0_1"].device
    _t0 = inputs["arg0_1"]
    _t1 = torch.empty_strided((6144, 10240,), (10240, 1,), dtype=torch.float32, device=_device)
    triton_red_fused_cumsum_flip_0[(triton.cdiv(6144, 1), 1, 1)](_t0, _t1, 6144, 10240, XBLOCK=1, R0_BLOCK=2048, num_warps=4, num_stages=1)
    _t2 = outputs["buf1"]
    triton_poi_fused_div_flip_1[(triton.cdiv(62914560, 1024), 1, 1)](_t1, _t2, 62914560, XBLOCK=1024, num_warps=4, num_stages=2)
