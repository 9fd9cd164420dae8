"""Segment 0: Inductor's 8 kernels of the segment relaunched with other settings, each its own (triton_per_fused_cumsum_permute_view_0, triton_per_fused_constant_pad_nd_cumsum_select_1, triton_poi_fused_clone_exp_mul_permute_slice_sub_unsqueeze_view_2, triton_poi_fused_clone_permute_unsqueeze_view_3, triton_tem_fused__unsafe_view_bmm_clone_exp_mul_permute_slice_sub_unsqueeze_view_4, triton_poi_fused_bitwise_not_exp_masked_fill_ones_sub_tril_unsqueeze_5, triton_poi_fused_cat_clone_permute_unsqueeze_view_zeros_like_6, triton_tem_fused__unsafe_view_bitwise_not_bmm_cat_clone_exp_masked_fill_ones_permute_sub_tril_unsqueeze_view_zeros_like_7).

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
def triton_per_fused_cumsum_permute_view_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 32768
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
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
    r0_2 = r0_index
    x0 = (xindex % 8)
    x1 = xindex // 8
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 8*r0_2 + 512*x1), None)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp3, = tl.associative_scan((tmp2,), 1, _triton_helper_fn_add0)
    tl.store(out_ptr0 + (r0_2 + 64*x3), tmp3, None)



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
def triton_per_fused_constant_pad_nd_cumsum_select_1(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 16384
    r0_numel = 3
    R0_BLOCK: tl.constexpr = 4
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    x0 = (xindex % 8)
    x1 = xindex // 8
    x3 = xindex
    tmp0 = (-1) + r0_2
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.load(in_ptr0 + ((-449) + 64*x0 + 512*r0_2 + 1024*x1), r0_mask & tmp2, eviction_policy='evict_last', other=0.0)
    tmp4 = tmp3.to(tl.float32)
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp6, = tl.associative_scan((tmp5,), 1, _triton_helper_fn_add0)
    tl.store(out_ptr0 + (r0_2 + 3*x3), tmp6, r0_mask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused_clone_exp_mul_permute_slice_sub_unsqueeze_view_2(in_ptr0, in_ptr1, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 2097152
    xnumel = 64
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    y4 = yindex // 64
    x3 = xindex
    y2 = yindex // 512
    y5 = (yindex % 512)
    y6 = yindex
    tmp0 = tl.load(in_ptr0 + (63 + 64*y4), ymask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr0 + (x3 + 64*y4), xmask & ymask, eviction_policy='evict_last')
    tmp4 = tl.load(in_ptr1 + (y5 + 512*x3 + 32768*y2), xmask & ymask, eviction_policy='evict_last')
    tmp2 = tmp0 - tmp1
    tmp3 = libdevice.exp(tmp2)
    tmp5 = tmp3 * tmp4
    tl.store(out_ptr0 + (x3 + 64*y6), tmp5, xmask & ymask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused_clone_permute_unsqueeze_view_3(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 33554432
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 16)
    x1 = ((xindex // 16) % 64)
    x2 = ((xindex // 1024) % 8)
    x3 = xindex // 8192
    x4 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 16*x2 + 128*x1 + 8192*x3), None)
    tl.store(out_ptr0 + (x4), tmp0, None)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_tem_fused__unsafe_view_bmm_clone_exp_mul_permute_slice_sub_unsqueeze_view_4(arg_A, arg_B, out_ptr0):
    EVEN_K : tl.constexpr = True
    USE_FAST_ACCUM : tl.constexpr = False
    ACC_TYPE : tl.constexpr = tl.float32
    BLOCK_M : tl.constexpr = 64
    BLOCK_N : tl.constexpr = 16
    BLOCK_K : tl.constexpr = 32
    GROUP_M : tl.constexpr = 8
    ALLOW_TF32 : tl.constexpr = False
    INDEX_DTYPE : tl.constexpr = tl.int32
    A = arg_A
    B = arg_B

    M = 64
    N = 16
    K = 64

    stride_aq = 4096
    stride_am = 64
    stride_ak = 1

    stride_bq = 1024
    stride_bk = 16
    stride_bn = 1

    # based on triton.ops.matmul
    pid = tl.program_id(0).to(INDEX_DTYPE)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N

    # re-order program ID for better L2 performance
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if (stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1):
        ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        ram = rm % M
    if (stride_bk == 1 and stride_bn == K) or (stride_bk == N and stride_bn == 1):
        rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        rbn = rn % N

    rk = tl.arange(0, BLOCK_K)

    idx_q = tl.program_id(1).to(INDEX_DTYPE)  # batch dimension for BMM
    A = A + (ram[:, None] * stride_am + rk[None, :] * stride_ak + idx_q*stride_aq)
    B = B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn + idx_q*stride_bq)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k in range(K, 0, -BLOCK_K):
        if EVEN_K:
            a = tl.load(A)
            b = tl.load(B)
        else:
            a = tl.load(A, mask=rk[None, :] < k, other=0.)
            b = tl.load(B, mask=rk[:, None] < k, other=0.)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32)
        A += BLOCK_K * stride_ak
        B += BLOCK_K * stride_bk

    # rematerialize rm and rn to save registers
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_q = tl.program_id(1).to(INDEX_DTYPE)  # batch dimension for BMM
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)

    # inductor generates a suffix
    xindex = idx_n + 16*idx_m + 1024*idx_q
    tl.store(out_ptr0 + (tl.broadcast_to(xindex, [BLOCK_M, BLOCK_N])), acc, mask)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused_bitwise_not_exp_masked_fill_ones_sub_tril_unsqueeze_5(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 147456
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 3)
    x1 = ((xindex // 3) % 3)
    x3 = xindex // 3
    x2 = xindex // 9
    x4 = xindex
    tmp6 = tl.load(in_ptr0 + (x3), None, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr0 + (x0 + 3*x2), None, eviction_policy='evict_last')
    tmp0 = x0 + ((-1)*x1)
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 <= tmp1
    tmp3 = tl.full([1], True, tl.int1)
    tmp4 = tmp2 & tmp3
    tmp5 = tmp4 == 0
    tmp8 = tmp6 - tmp7
    tmp9 = tl.full([1], float("-inf"), tl.float32)
    tmp10 = tl.where(tmp5, tmp9, tmp8)
    tmp11 = libdevice.exp(tmp10)
    tl.store(out_ptr0 + (x4), tmp11, None)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_poi_fused_cat_clone_permute_unsqueeze_view_zeros_like_6(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 50331648
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x1 = ((xindex // 1024) % 3)
    x0 = (xindex % 1024)
    x2 = ((xindex // 3072) % 8)
    x3 = xindex // 24576
    x4 = xindex
    tmp0 = x1
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 1, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.full([1], 0.0, tl.float32)
    tmp6 = tl.full(tmp5.shape, 0.0, tmp5.dtype)
    tmp7 = tl.where(tmp4, tmp5, tmp6)
    tmp8 = tmp0 >= tmp3
    tmp9 = tl.full([1], 3, tl.int64)
    tmp10 = tmp0 < tmp9
    tmp11 = tl.load(in_ptr0 + (x0 + 1024*x2 + 8192*((-1) + x1) + 16384*x3), tmp8, other=0.0)
    tmp12 = tl.where(tmp4, tmp7, tmp11)
    tl.store(out_ptr0 + (x4), tmp12, None)



import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton.jit
def triton_tem_fused__unsafe_view_bitwise_not_bmm_cat_clone_exp_masked_fill_ones_permute_sub_tril_unsqueeze_view_zeros_like_7(arg_A, arg_B, out_ptr0):
    EVEN_K : tl.constexpr = False
    USE_FAST_ACCUM : tl.constexpr = False
    ACC_TYPE : tl.constexpr = tl.float32
    BLOCK_M : tl.constexpr = 16
    BLOCK_N : tl.constexpr = 32
    BLOCK_K : tl.constexpr = 16
    GROUP_M : tl.constexpr = 8
    ALLOW_TF32 : tl.constexpr = False
    INDEX_DTYPE : tl.constexpr = tl.int32
    A = arg_A
    B = arg_B

    M = 3
    N = 1024
    K = 3

    stride_aq = 9
    stride_am = 3
    stride_ak = 1

    stride_bq = 3072
    stride_bk = 1024
    stride_bn = 1

    # based on triton.ops.matmul
    pid = tl.program_id(0).to(INDEX_DTYPE)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N

    # re-order program ID for better L2 performance
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if (stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1):
        ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        ram = rm % M
    if (stride_bk == 1 and stride_bn == K) or (stride_bk == N and stride_bn == 1):
        rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        rbn = rn % N

    rk = tl.arange(0, BLOCK_K)

    idx_q = tl.program_id(1).to(INDEX_DTYPE)  # batch dimension for BMM
    A = A + (ram[:, None] * stride_am + rk[None, :] * stride_ak + idx_q*stride_aq)
    B = B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn + idx_q*stride_bq)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k in range(K, 0, -BLOCK_K):
        if EVEN_K:
            a = tl.load(A)
            b = tl.load(B)
        else:
            a = tl.load(A, mask=rk[None, :] < k, other=0.)
            b = tl.load(B, mask=rk[:, None] < k, other=0.)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32)
        A += BLOCK_K * stride_ak
        B += BLOCK_K * stride_bk

    # rematerialize rm and rn to save registers
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_q = tl.program_id(1).to(INDEX_DTYPE)  # batch dimension for BMM
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)

    # inductor generates a suffix
    xindex = idx_n + 1024*idx_m + 3072*idx_q
    tl.store(out_ptr0 + (tl.broadcast_to(xindex, [BLOCK_M, BLOCK_N])), acc, mask)



def run(inputs, outputs):
    _device = inputs["arg0_1"].device
    _t0 = inputs["arg0_1"]
    _t1 = torch.empty_strided((2048, 8, 2, 64,), (1024, 64, 512, 1,), dtype=torch.float32, device=_device)
    triton_per_fused_cumsum_permute_view_0[(triton.cdiv(32768, 4), 1, 1)](_t0, _t1, 32768, 64, XBLOCK=4, num_warps=2, num_stages=1)
    _t2 = torch.empty_strided((2048, 8, 3,), (24, 3, 1,), dtype=torch.float32, device=_device)
    triton_per_fused_constant_pad_nd_cumsum_select_1[(triton.cdiv(16384, 32), 1, 1)](_t1, _t2, 16384, 3, XBLOCK=32, num_warps=1, num_stages=1)
    _t3 = inputs["arg3_1"]
    _t4 = torch.empty_strided((2048, 2, 8, 64, 64, 1,), (65536, 32768, 4096, 64, 1, 1,), dtype=torch.float32, device=_device)
    triton_poi_fused_clone_exp_mul_permute_slice_sub_unsqueeze_view_2[(triton.cdiv(64, 64), triton.cdiv(2097152, 64), 1)](_t1, _t3, _t4, 2097152, 64, YBLOCK=64, XBLOCK=64, num_warps=8, num_stages=1)
    _t5 = inputs["arg1_1"]
    _t6 = torch.empty_strided((2048, 2, 8, 64, 16, 1,), (16384, 8192, 1024, 16, 1, 1,), dtype=torch.float32, device=_device)
    triton_poi_fused_clone_permute_unsqueeze_view_3[(triton.cdiv(33554432, 512), 1, 1)](_t5, _t6, 33554432, XBLOCK=512, num_warps=4, num_stages=1)
    _t7 = torch.empty_strided((32768, 64, 16,), (1024, 16, 1,), dtype=torch.float32, device=_device)
    triton_tem_fused__unsafe_view_bmm_clone_exp_mul_permute_slice_sub_unsqueeze_view_4[(1, 32768, 1)](_t4, _t6, _t7, num_warps=4, num_stages=2)
    _t8 = torch.empty_strided((2048, 8, 3, 3,), (72, 9, 3, 1,), dtype=torch.float32, device=_device)
    triton_poi_fused_bitwise_not_exp_masked_fill_ones_sub_tril_unsqueeze_5[(triton.cdiv(147456, 256), 1, 1)](_t2, _t8, 147456, XBLOCK=256, num_warps=8, num_stages=1)
    _t9 = torch.empty_strided((2048, 8, 3, 64, 16, 1,), (24576, 3072, 1024, 16, 1, 1,), dtype=torch.float32, device=_device)
    triton_poi_fused_cat_clone_permute_unsqueeze_view_zeros_like_6[(triton.cdiv(50331648, 512), 1, 1)](_t7, _t9, 50331648, XBLOCK=512, num_warps=4, num_stages=1)
    _t10 = outputs["buf7"]
    triton_tem_fused__unsafe_view_bitwise_not_bmm_cat_clone_exp_masked_fill_ones_permute_sub_tril_unsqueeze_view_zeros_like_7[(32, 16384, 1)](_t8, _t9, _t10, num_warps=2, num_stages=1)
