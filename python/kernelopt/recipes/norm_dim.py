"""Normalizations over one dimension of any position: L2 (also as an RMS norm, and F.normalize's
clamped form) and L1, out = x / d(x) [* weight], d as `row_two_pass.norm_divisor` makes it from the
sum of squares or of absolute values over the dimension: [its mean,] [+ eps,] [the square root,]
[at least clamp]. The weight, if any, has one value per index of the dimension.

The innermost dimension is `row_two_pass`'s rows. Any other is seen as [B, R, C] (R the
normalized dimension, C the contiguous columns after it), as `reduce_dim` sees it: each program
owns one b and a block of CB columns. With `rows_per_step` 0 it holds all of R at once in
registers ([next power of two of R, CB], masked): one read of x, as Inductor's persistent
reduction does; the dimension must be short (R rounded up times CB at most 32768 elements).
Otherwise it walks R twice in steps of RB rows, once for the sums and once for the output
(backward, so it starts on the tiles it loaded last); the second walk finds its tiles in L2 only
when the programs in flight hold less than L2 (on the H100, 80 channels of 24 x 96 x 96 pixels
walked twice ran at 0.70x of Inductor's one pass: every program of the grid was resident and
their 71 MB did not fit). Accumulates in float32, writes the output's dtype.
"""

import math

import triton
import triton.language as tl

from kernelopt.recipes.reduce_dim import columns_and_strides
from kernelopt.recipes.row_two_pass import check_constants, norm_divisor, row_two_pass

P_VALUES = (1, 2)


@triton.jit
def _norm_middle(x_ptr, w_ptr, out_ptr, n_reduce, n_cols, x_batch, x_row, o_batch, o_row,
                 P: tl.constexpr, MEAN: tl.constexpr, EPS: tl.constexpr, CLAMP: tl.constexpr,
                 HAS_W: tl.constexpr, RB: tl.constexpr, CB: tl.constexpr,
                 RESIDENT: tl.constexpr):
    batch = tl.program_id(1).to(tl.int64)
    cols = tl.program_id(0) * CB + tl.arange(0, CB)
    col_ok = cols < n_cols
    lanes = tl.arange(0, RB)
    x_base = x_ptr + batch * x_batch + cols[None, :]
    o_base = out_ptr + batch * o_batch + cols[None, :]
    if RESIDENT:  # RB covers the whole dimension: one load, the output from registers
        row_ok = lanes < n_reduce
        ok = row_ok[:, None] & col_ok[None, :]
        offsets = lanes[:, None].to(tl.int64)
        v = tl.load(x_base + offsets * x_row, mask=ok, other=0.0).to(tl.float32)
        if P == 2:
            stat = v * v
        else:
            stat = tl.abs(v)
        d = norm_divisor(tl.sum(stat, 0), n_reduce, P == 2, MEAN, EPS, CLAMP)
        r = v / d[None, :]
        if HAS_W:
            r = r * tl.load(w_ptr + lanes, mask=row_ok, other=0.0).to(tl.float32)[:, None]
        tl.store(o_base + offsets * o_row, r.to(out_ptr.dtype.element_ty), mask=ok)
    else:  # walk the dimension twice
        acc = tl.zeros([RB, CB], tl.float32)
        for start in range(0, n_reduce, RB):
            rows = start + lanes
            ok = (rows < n_reduce)[:, None] & col_ok[None, :]
            v = tl.load(x_base + rows[:, None].to(tl.int64) * x_row, mask=ok, other=0.0,
                        eviction_policy="evict_last").to(tl.float32)
            if P == 2:
                acc += v * v
            else:
                acc += tl.abs(v)
        d = norm_divisor(tl.sum(acc, 0), n_reduce, P == 2, MEAN, EPS, CLAMP)
        n_steps = tl.cdiv(n_reduce, RB)
        for step in range(0, n_steps):
            rows = (n_steps - 1 - step) * RB + lanes
            row_ok = rows < n_reduce
            ok = row_ok[:, None] & col_ok[None, :]
            v = tl.load(x_base + rows[:, None].to(tl.int64) * x_row, mask=ok, other=0.0,
                        eviction_policy="evict_first").to(tl.float32)
            r = v / d[None, :]
            if HAS_W:
                r = r * tl.load(w_ptr + rows, mask=row_ok, other=0.0).to(tl.float32)[:, None]
            tl.store(o_base + rows[:, None].to(tl.int64) * o_row, r.to(out_ptr.dtype.element_ty), mask=ok)


def norm_dim(x, out, dim, p=2, mean=False, eps=0.0, clamp=0.0, weight=None, *, rows_per_step=8,
             cols_per_program=128, num_warps=4, block=2048, programs_per_sm=1, reverse=True,
             split=1):
    """out = x / d(x) [* weight] over `dim` (module docstring). rows_per_step (0: all of the
    dimension at once), cols_per_program and num_warps tile a dimension that is not the
    innermost; block, num_warps, programs_per_sm,
    reverse and split are row_two_pass's, for the innermost. out has x's shape."""
    if p not in P_VALUES:
        raise ValueError(f"norm_dim: p must be one of {P_VALUES}, got {p!r}")
    if x.dim() == 0 or out.shape != x.shape:
        raise ValueError("norm_dim: expects an input of at least one dimension and an output of its shape")
    if not (x.dtype.is_floating_point and out.dtype.is_floating_point):
        raise ValueError("norm_dim: float dtypes only")
    if not -x.dim() <= dim < x.dim():
        raise ValueError(f"norm_dim: dim {dim} is out of range for {x.dim()} dimensions")
    dim = dim % x.dim()
    n = x.shape[dim]
    if weight is not None:
        if weight.numel() != n or not weight.dtype.is_floating_point:
            raise ValueError(f"norm_dim: the weight must hold one float per index of dim ({n})")
        weight = weight.reshape(n)
        if n > 1 and weight.stride(0) != 1:
            weight = weight.contiguous()
    op = "l2_normalize" if p == 2 else "l1_normalize"
    if dim == x.dim() - 1:
        if not (x.is_contiguous() and out.is_contiguous()):
            raise ValueError("norm_dim: over the innermost dimension x and out must be contiguous")
        return row_two_pass(x.view(-1, n), out.view(-1, n), op, block, num_warps, programs_per_sm,
                            reverse, split=split, mean=mean, eps=eps, clamp=clamp, weight=weight)
    check_constants(eps, clamp, "norm_dim")
    n_reduce = x.shape[dim]
    n_batch = math.prod(x.shape[:dim])
    n_cols, x_batch, x_row = columns_and_strides(x, dim, "norm_dim (x)")
    _, o_batch, o_row = columns_and_strides(out, dim, "norm_dim (out)")
    resident = rows_per_step == 0
    if resident:
        rows_per_step = triton.next_power_of_2(n_reduce)
        if rows_per_step * cols_per_program > 32768:
            raise ValueError(f"norm_dim: {n_reduce} rows x {cols_per_program} columns are too many "
                             "to hold at once (rows_per_step 0); walk the dimension instead")
    if x.numel() == 0:
        return out
    grid = (triton.cdiv(n_cols, cols_per_program), n_batch)
    _norm_middle[grid](x, x if weight is None else weight, out, n_reduce, n_cols, x_batch, x_row,
                       o_batch, o_row, P=p, MEAN=bool(mean), EPS=float(eps), CLAMP=float(clamp),
                       HAS_W=weight is not None, RB=rows_per_step, CB=cols_per_program,
                       RESIDENT=resident, num_warps=num_warps)
    return out


def reference(x, dim, p=2, mean=False, eps=0.0, clamp=0.0, weight=None):
    """What the models compute, in float64 (the tests' reference)."""
    x = x.double()
    stat = x * x if p == 2 else x.abs()
    d = stat.mean(dim, keepdim=True) if mean else stat.sum(dim, keepdim=True)
    d = (d + eps).sqrt() if p == 2 else d + eps
    out = x / d.clamp_min(clamp) if clamp else x / d
    if weight is not None:
        shape = [1] * x.dim()
        shape[dim] = -1
        out = out * weight.double().reshape(shape)
    return out


def launch(inputs, outputs, params, settings):
    """A candidate's call (params: x and weight by name, dim, the divisor's forms, whether dim is
    the last; settings: the tiles of the column or the row walk)."""
    x = inputs[params["x"]]
    weight = None if params["weight"] is None else inputs[params["weight"]]
    (out,) = outputs.values()
    if params.get("last", False):
        tiles = {"block": settings.get("block", 2048), "num_warps": settings.get("num_warps", 8),
                 "programs_per_sm": settings.get("programs_per_sm", 1),
                 "reverse": settings.get("reverse", 1) != 0, "split": settings.get("split", 1)}
    else:
        tiles = {"rows_per_step": settings.get("rows_per_step", 8),
                 "cols_per_program": settings.get("cols_per_program", 128),
                 "num_warps": settings.get("num_warps", 4)}
    norm_dim(x, out, params["dim"], p=params["p"], mean=params["mean"], eps=params["eps"],
             clamp=params["clamp"], weight=weight, **tiles)
