"""Matrix products as one Triton kernel: out = beta * bias + alpha * (a @ b). It replaces
max-autotune's own Triton templates (Triton kernels like any other Inductor kernel) and, in the
`--no-dispatch-aware` ablation only, the extern calls mm, addmm, bmm and baddbmm (by default
kernelopt keeps every cuBLAS call as Inductor chose it).

Operands may have any strides (a transposed weight is a view, not a copy); 2-D products run as a
batch of one. Each program owns a BLOCK_M x BLOCK_N tile of one batch entry and walks K in
BLOCK_K steps; programs are ordered in groups of GROUP_M tile rows so that neighbours share
operand tiles in L2. Accumulates in float32. float32 operands multiply in full float32
(input_precision "ieee") unless PyTorch itself allows TF32 for matrix products, as cuBLAS does;
float16 and bfloat16 operands use the tensor cores.
"""

import ast

import torch
import triton
import triton.language as tl

OPS = ("mm", "addmm", "bmm", "baddbmm")


@triton.jit
def _gemm(a_ptr, b_ptr, c_ptr, x_ptr, M, N, K,
          sa0, sa1, sa2, sb0, sb1, sb2, sc0, sc1, sc2, sx0, sx1, sx2,
          alpha, beta,
          HAS_BIAS: tl.constexpr, PRECISION: tl.constexpr, BLOCK_M: tl.constexpr,
          BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    batch = tl.program_id(1).to(tl.int64)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * tiles_n
    first_m = (pid // in_group) * GROUP_M
    group_m = tl.minimum(tiles_m - first_m, GROUP_M)
    pid_m = first_m + (pid % in_group) % group_m
    pid_n = (pid % in_group) // group_m
    rm = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)).to(tl.int64)
    rn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)).to(tl.int64)
    rk = tl.arange(0, BLOCK_K).to(tl.int64)
    m_ok = rm < M
    n_ok = rn < N
    a = a_ptr + batch * sa0 + rm[:, None] * sa1 + rk[None, :] * sa2
    b = b_ptr + batch * sb0 + rk[:, None] * sb1 + rn[None, :] * sb2
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(0, K, BLOCK_K):
        k_ok = (rk + k) < K
        av = tl.load(a, mask=m_ok[:, None] & k_ok[None, :], other=0.0)
        bv = tl.load(b, mask=k_ok[:, None] & n_ok[None, :], other=0.0)
        acc = tl.dot(av, bv, acc, input_precision=PRECISION)
        a += BLOCK_K * sa2
        b += BLOCK_K * sb1
    acc = acc * alpha
    ok = m_ok[:, None] & n_ok[None, :]
    if HAS_BIAS:
        x = tl.load(x_ptr + batch * sx0 + rm[:, None] * sx1 + rn[None, :] * sx2, mask=ok, other=0.0)
        acc += beta * x.to(tl.float32)
    c = c_ptr + batch * sc0 + rm[:, None] * sc1 + rn[None, :] * sc2
    tl.store(c, acc.to(c_ptr.dtype.element_ty), mask=ok)


def view(t, size, stride, offset):
    """Inductor's reinterpret_tensor(t, size, stride, offset): offset adds to t's own offset."""
    return t.as_strided(size, stride, t.storage_offset() + offset)


def _batched(t, name):
    if t.dim() == 2:
        return t.unsqueeze(0)
    if t.dim() != 3:
        raise ValueError(f"gemm: {name} must be 2-D or 3-D, got shape {tuple(t.shape)}")
    return t


def gemm(a, b, out, bias=None, alpha=1, beta=1, block_m=64, block_n=64, block_k=32, group_m=8,
         num_warps=4, num_stages=3, precision=None):
    """out = beta * bias + alpha * (a @ b); a [M, K] or [B, M, K], b [K, N] or [B, K, N], out [M, N]
    or [B, M, N]; bias broadcasts to out (None: out = alpha * a @ b). `precision` sets tl.dot's
    input_precision for float32 operands ("ieee", "tf32", "tf32x3"); None follows PyTorch."""
    if not (a.is_floating_point() and b.is_floating_point() and out.is_floating_point()):
        raise ValueError("gemm: operands and output must be floating point")
    if a.dtype != b.dtype:
        raise ValueError(f"gemm: operand dtypes differ ({a.dtype}, {b.dtype})")
    a3, b3, c3 = _batched(a, "a"), _batched(b, "b"), _batched(out, "out")
    batch, m, k = a3.shape
    if b3.shape[0] != batch or b3.shape[1] != k or c3.shape != (batch, m, b3.shape[2]):
        raise ValueError(f"gemm: shapes do not chain: a {tuple(a.shape)}, b {tuple(b.shape)}, "
                         f"out {tuple(out.shape)}")
    n = b3.shape[2]
    x3 = c3 if bias is None else bias.expand(c3.shape) if bias.dim() <= 3 else None
    if x3 is None:
        raise ValueError(f"gemm: bias of shape {tuple(bias.shape)} does not broadcast to the output")
    if out.numel() == 0:
        return out
    if a.dtype == torch.float32:
        if precision is None:
            precision = "tf32" if torch.backends.cuda.matmul.allow_tf32 else "ieee"
        elif precision not in ("ieee", "tf32", "tf32x3"):
            raise ValueError(f"gemm: unknown precision {precision!r}")
    else:
        precision = None  # tl.dot's default: tensor cores for half-precision operands
    grid = (triton.cdiv(m, block_m) * triton.cdiv(n, block_n), batch)
    _gemm[grid](a3, b3, c3, x3, m, n, k, *a3.stride(), *b3.stride(), *c3.stride(), *x3.stride(),
                alpha, beta, HAS_BIAS=bias is not None, PRECISION=precision, BLOCK_M=block_m,
                BLOCK_N=block_n, BLOCK_K=block_k, GROUP_M=group_m, num_warps=num_warps,
                num_stages=num_stages)
    return out


def _operand(inputs, operand):
    """An operand as the match describes it: an input by name, Inductor's reinterpretation of it
    (size, stride and offset, as literals) and a reshape."""
    t = inputs[operand["name"]]
    if operand.get("view") is not None:
        v = operand["view"]
        t = view(t, ast.literal_eval(v["size"]), ast.literal_eval(v["stride"]), v["offset"])
    if "reshape" in operand:
        t = t.reshape(ast.literal_eval(operand["reshape"]))
    return t


def launch(inputs, outputs, params, settings):
    """A candidate's call (params: the operands, bias first when there are three, the output by
    name and its view, alpha and beta as literals; settings: the tiles, warps and stages)."""
    operands = [_operand(inputs, o) for o in params["operands"]]
    bias = operands.pop(0) if len(operands) == 3 else None
    out = outputs[params["out"]]
    if "out_shape" in params:
        out = out.view(ast.literal_eval(params["out_shape"]))
    gemm(operands[0], operands[1], out, bias, ast.literal_eval(params["alpha"]),
         ast.literal_eval(params["beta"]), block_m=settings.get("block_m", 64),
         block_n=settings.get("block_n", 64), block_k=settings.get("block_k", 32),
         group_m=settings.get("group_m", 8), num_warps=settings.get("num_warps", 4),
         num_stages=settings.get("num_stages", 3))
