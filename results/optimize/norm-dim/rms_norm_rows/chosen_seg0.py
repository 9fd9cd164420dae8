"""Segment 0: Inductor's looped reduction triton_red_fused__fused_rms_norm_0 (1536 rows of 40000, both walks over each chunk, a barrier between) split: each row's chunks reduced by programs of their own into partial results, which a second kernel combines to finish the row (a kernel that walks its rows twice: the same programs, after a barrier, each its own chunk).

Written by kernelopt's split proposer: Inductor's kernels of the segment without their
autotuning decorators, each launched with the settings below.
"""

import torch
import triton


import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

from kernelopt.recipes.row_two_pass import _row_barrier as kernelopt_row_barrier


@triton.jit
def triton_red_fused__fused_rms_norm_0_split_walks(in_ptr0, in_ptr1, out_ptr1, xnumel, r0_numel, part_ptr, count_ptr, r0_chunk, n_xblocks, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr, SPLIT : tl.constexpr, SPLIT_BLOCK : tl.constexpr, PHASE : tl.constexpr):
    xnumel = 1536
    r0_numel = 40000
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    r0_split = tl.program_id(0) % SPLIT
    x_slot = tl.program_id(0) // SPLIT
    x_slots = tl.num_programs(0) // SPLIT
    r0_start = r0_split * r0_chunk
    r0_end = tl.minimum(r0_start + r0_chunk, r0_numel)
    for x_block in tl.range(x_slot, n_xblocks, x_slots):
        xoffset = x_block * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
        xmask = xindex < xnumel
        r0_base = tl.arange(0, R0_BLOCK)[None, :]
        rbase = r0_base
        x0 = xindex
        _tmp3 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
        if PHASE != 2:
            for r0_offset in tl.range(r0_start, r0_end, R0_BLOCK):
                r0_index = r0_offset + r0_base
                r0_mask = r0_index < r0_end
                roffset = r0_offset
                rindex = r0_index
                r0_1 = r0_index
                tmp0 = tl.load(in_ptr0 + (r0_1 + 40000*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
                tmp1 = tmp0 * tmp0
                tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
                tmp4 = _tmp3 + tmp2
                _tmp3 = tl.where(r0_mask & xmask, tmp4, _tmp3)
            tmp3 = tl.sum(_tmp3, 1)[:, None]
            tl.store(part_ptr + ((0 * SPLIT + r0_split) * xnumel + xindex), tmp3, xmask)
        if PHASE == 0:
            kernelopt_row_barrier(count_ptr, x_block, SPLIT)
        if PHASE != 1:
            split_index = tl.arange(0, SPLIT_BLOCK)[None, :]
            split_mask = (split_index < SPLIT) & xmask
            part0 = tl.load(part_ptr + ((0 * SPLIT + split_index) * xnumel + xindex), split_mask, other=0.0, cache_modifier=".cg")
            tmp3 = tl.sum(tl.where(split_mask, part0, 0.0), 1)[:, None]
            for r0_offset in tl.range(r0_start, r0_end, R0_BLOCK):
                r0_index = r0_offset + r0_base
                r0_mask = r0_index < r0_end
                roffset = r0_offset
                rindex = r0_index
                r0_1 = r0_index
                tmp5 = tl.load(in_ptr0 + (r0_1 + 40000*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
                tmp12 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
                tmp6 = tl.full([1, 1], 40000.0, tl.float32)
                tmp7 = (tmp3 / tmp6)
                tmp8 = tl.full([1, 1], 1e-05, tl.float32)
                tmp9 = tmp7 + tmp8
                tmp10 = libdevice.rsqrt(tmp9)
                tmp11 = tmp5 * tmp10
                tmp13 = tmp11 * tmp12
                tl.store(out_ptr1 + (r0_1 + 40000*x0), tmp13, r0_mask & xmask)



def run(inputs, outputs):
    _device = inputs["arg1_1"].device
    _t0 = inputs["arg1_1"]
    _t1 = inputs["arg0_1"]
    _t2 = outputs["buf1"]
    _k0_part = torch.empty((30720,), dtype=torch.float32, device=_t0.device)
    from kernelopt.recipes.row_two_pass import launch_split as _kernelopt_launch_split
    _kernelopt_launch_split(triton_red_fused__fused_rms_norm_0_split_walks, (_t0, _t1, _t2, 1536, 40000,), _k0_part, (2048, 192), dict(XBLOCK=8, R0_BLOCK=1024, SPLIT=20, SPLIT_BLOCK=32, num_warps=8, num_stages=1), 192, 20, 8, 4, _t0.device)
