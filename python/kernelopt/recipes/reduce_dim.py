"""Reductions over one dimension that is not the innermost: sum, mean, prod, max, min, argmax,
argmin.

The input is seen as [B, R, C] (R the reduced dimension, C the contiguous columns after it). Each
program owns one b and a block of CB contiguous columns, and walks R in steps of RB rows: every
load is an [RB, CB] tile of contiguous runs of columns (no index division, RB x CB loads in
flight), accumulated elementwise and folded over the RB lanes once at the end. Ties go to the
first index and NaN wins (it propagates for max/min, and the first NaN is the arg), as in PyTorch.
Accumulates in float32; writes the output's dtype (int64 indices for the arg ops).
"""

import torch
import triton
import triton.language as tl

OPS = ("sum", "mean", "prod", "max", "min", "argmax", "argmin")
_NEUTRAL = {"sum": 0.0, "mean": 0.0, "prod": 1.0, "max": float("-inf"), "argmax": float("-inf"), "min": float("inf"),
            "argmin": float("inf")}


@triton.jit
def _multiply(a, b):
    return a * b


@triton.jit
def _reduce_middle(x_ptr, out_ptr, n_reduce, n_cols, x_batch, x_row, out_batch,
                   OP: tl.constexpr, NEUTRAL: tl.constexpr, RB: tl.constexpr, CB: tl.constexpr):
    batch = tl.program_id(1).to(tl.int64)
    cols = tl.program_id(0) * CB + tl.arange(0, CB)
    col_ok = cols < n_cols
    lanes = tl.arange(0, RB)
    base = x_ptr + batch * x_batch + cols[None, :]
    acc = tl.full([RB, CB], NEUTRAL, tl.float32)
    idx = tl.zeros([RB, CB], tl.int32)
    for start in range(0, n_reduce, RB):
        rows = start + lanes
        ok = (rows < n_reduce)[:, None] & col_ok[None, :]
        v = tl.load(base + rows[:, None].to(tl.int64) * x_row, mask=ok, other=NEUTRAL).to(tl.float32)
        if OP == "sum" or OP == "mean":
            acc += v
        elif OP == "prod":
            acc *= v
        elif OP == "max" or OP == "min":
            if OP == "max":
                better = v > acc
            else:
                better = v < acc
            acc = tl.where(better | (v != v), v, acc)
        else:
            if OP == "argmax":
                better = v > acc
            else:
                better = v < acc
            take = (better | ((v != v) & (acc == acc))) & ok
            acc = tl.where(take, v, acc)
            idx = tl.where(take, rows[:, None] + tl.zeros([RB, CB], tl.int32), idx)
    out = out_ptr + batch * out_batch + cols
    nan_lane = acc != acc
    any_nan = tl.max(nan_lane.to(tl.int32), 0) > 0
    if OP == "sum" or OP == "mean":
        total = tl.sum(acc, 0)
        if OP == "mean":
            total = total / n_reduce
        tl.store(out, total.to(out_ptr.dtype.element_ty), mask=col_ok)
    elif OP == "prod":
        tl.store(out, tl.reduce(acc, 0, _multiply).to(out_ptr.dtype.element_ty), mask=col_ok)
    elif OP == "max" or OP == "min":
        if OP == "max":
            best = tl.max(acc, 0)
        else:
            best = tl.min(acc, 0)
        best = tl.where(any_nan, float("nan"), best)
        tl.store(out, best.to(out_ptr.dtype.element_ty), mask=col_ok)
    else:
        if OP == "argmax":
            best = tl.max(acc, 0)
        else:
            best = tl.min(acc, 0)
        winner = tl.where(any_nan[None, :], nan_lane, acc == best[None, :])
        first = tl.min(tl.where(winner, idx, 2147483647), 0)
        tl.store(out, first.to(tl.int64), mask=col_ok)


def columns_and_strides(t, dim, who):
    """t seen as [B, R, C] over `dim` (R = t.shape[dim]): (C, B's stride, R's stride). C, the
    dimensions after dim, must be one contiguous run; the dimensions before it (size-1 ones aside,
    their stride is arbitrary) must collapse into one uniform batch stride. Checked, not assumed;
    a ValueError starting with `who` otherwise."""
    shape = list(t.shape)
    n_cols = 1
    expected = 1
    for n, s in reversed(list(zip(shape[dim + 1:], t.stride()[dim + 1:]))):
        if n != 1 and s != expected:
            raise ValueError(f"{who}: the columns after dim must be contiguous")
        expected *= n
        n_cols *= n
    batch, outer = 0, None
    for d in range(dim - 1, -1, -1):
        if shape[d] == 1:
            continue
        if outer is None:
            batch = t.stride(d)
        elif t.stride(d) != outer:
            raise ValueError(f"{who}: the dimensions before dim must be one uniform stride")
        outer = t.stride(d) * shape[d]
    return n_cols, batch, t.stride(dim)


def reduce_dim(x, out, dim, op, rows_per_step=8, cols_per_program=256, num_warps=4):
    """out = op(x, dim) for a dimension with a contiguous run of columns after it (out has x's
    shape without `dim`, any strides whose innermost is 1 over those columns)."""
    if op not in OPS:
        raise ValueError(f"reduce_dim: op must be one of {OPS}, got {op!r}")
    dim = dim % x.dim()
    if dim == x.dim() - 1:
        raise ValueError("reduce_dim: the innermost dimension is not this recipe's (no columns)")
    n_reduce = x.shape[dim]
    n_cols, x_batch, x_row = columns_and_strides(x, dim, "reduce_dim")
    n_batch = x.numel() // max(1, n_reduce * n_cols)
    out_view = out.reshape(n_batch, n_cols)
    if out_view.data_ptr() != out.data_ptr() or (n_cols > 1 and out_view.stride(1) != 1):
        raise ValueError("reduce_dim: out must be contiguous over the columns")
    if x.numel() == 0:
        return
    grid = (triton.cdiv(n_cols, cols_per_program), n_batch)
    _reduce_middle[grid](x, out_view, n_reduce, n_cols, x_batch, x_row,
                         out_view.stride(0) if n_batch > 1 else 0, OP=op, NEUTRAL=_NEUTRAL[op], RB=rows_per_step,
                         CB=cols_per_program, num_warps=num_warps)
    return out


def reference(x, dim, op):
    """What PyTorch computes (the tests' reference)."""
    if op in ("sum", "mean", "prod"):
        return getattr(torch, op)(x, dim)
    if op in ("max", "min"):
        return getattr(torch, op)(x, dim=dim)[0]
    return getattr(torch, op)(x, dim=dim)


def launch(inputs, outputs, params, settings):
    """A candidate's call (params: the match's dim and op; settings: the launch's tiles)."""
    (x,) = inputs.values()
    (out,) = outputs.values()
    reduce_dim(x, out, params["dim"], params["op"], settings.get("rows_per_step", 8),
               settings.get("cols_per_program", 256), settings.get("num_warps", 4))
