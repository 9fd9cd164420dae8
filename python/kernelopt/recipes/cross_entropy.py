"""Cross-entropy over the classes of [N, C] logits with integer targets, reduced to a mean or a sum
(nn.CrossEntropyLoss without weights or label smoothing): one read of the logits.

Inductor takes three launches (an online-softmax pass writing each row's max and sum of exp, a
pass gathering the target logit and reducing into a few partial sums, a final division). Here
each program takes ROWS whole rows in registers when C fits (log-sum-exp exact: max first, then
the sum of exp), or walks one row in BLOCK-class chunks with an online max and sum when it does
not; it writes one partial loss and one count of rows whose target is not ignore_index. A second
launch adds the partials in a fixed order (deterministic) and divides by the count for "mean"
(0/0 = NaN when every target is ignored, as in PyTorch).
"""

import torch
import triton
import triton.language as tl

from .row_two_pass import _finish_stats, _stats_chunk

REDUCTIONS = ("mean", "sum")
MAX_TILE = 16384  # ROWS x next_power_of_2(C) elements held in registers by the whole-row path


@triton.jit
def _rows_in_registers(x_ptr, t_ptr, part_ptr, count_ptr, n_rows, n_cols, x_stride, t_stride,
                       BLOCK: tl.constexpr, ROWS: tl.constexpr, IGNORE: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    row_ok = rows < n_rows
    cols = tl.arange(0, BLOCK)
    ok = row_ok[:, None] & (cols[None, :] < n_cols)
    base = x_ptr + rows.to(tl.int64)[:, None] * x_stride
    x = tl.load(base + cols[None, :], mask=ok, other=float("-inf")).to(tl.float32)
    top = tl.max(x, 1)
    lse = top + tl.log(tl.sum(tl.exp(x - top[:, None]), 1))
    target = tl.load(t_ptr + rows.to(tl.int64) * t_stride, mask=row_ok, other=IGNORE)
    valid = row_ok & (target != IGNORE)
    picked = tl.load(x_ptr + rows.to(tl.int64) * x_stride + target, mask=valid, other=0.0)
    loss = tl.where(valid, lse - picked.to(tl.float32), 0.0)
    tl.store(part_ptr + pid, tl.sum(loss, 0))
    tl.store(count_ptr + pid, tl.sum(valid.to(tl.int32), 0))


@triton.jit
def _row_looped(x_ptr, t_ptr, part_ptr, count_ptr, n_cols, x_stride, t_stride,
                BLOCK: tl.constexpr, IGNORE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    lanes = tl.arange(0, BLOCK)
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    base = x_ptr + row * x_stride
    for start in tl.range(0, n_cols, BLOCK):
        cols = start + lanes
        ok = cols < n_cols
        v = tl.load(base + cols, mask=ok, other=float("-inf")).to(tl.float32)
        m, s = _stats_chunk(v, ok, m, s, "softmax")  # the online max and sum of exp
    top, total = _finish_stats(m, s, "softmax")
    lse = top + tl.log(total)
    target = tl.load(t_ptr + row * t_stride)
    valid = target != IGNORE
    picked = tl.load(base + target, mask=valid, other=0.0).to(tl.float32)
    tl.store(part_ptr + row, tl.where(valid, lse - picked, 0.0))
    tl.store(count_ptr + row, valid.to(tl.int32))


@triton.jit
def _combine(part_ptr, count_ptr, out_ptr, n_parts, MEAN: tl.constexpr, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], tl.float32)
    counts = tl.zeros([BLOCK], tl.int32)
    for start in range(0, n_parts, BLOCK):
        i = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + i, mask=i < n_parts, other=0.0)
        counts += tl.load(count_ptr + i, mask=i < n_parts, other=0)
    total = tl.sum(acc, 0)
    if MEAN:
        total = total / tl.sum(counts, 0).to(tl.float32)
    tl.store(out_ptr, total.to(out_ptr.dtype.element_ty))


def matches(x, target, out):
    """Why the recipe cannot take (x, target, out), or None."""
    if x.dim() != 2 or target.shape != x.shape[:1] or out.numel() != 1:
        return "expects logits [N, C], targets [N] and a one-element output"
    if x.shape[1] > 1 and x.stride(1) != 1:
        return "the classes must be contiguous"
    if not x.dtype.is_floating_point or target.dtype.is_floating_point or not out.dtype.is_floating_point:
        return "float logits and output, integer targets"
    return None


def cross_entropy(x, target, out, reduction="mean", ignore_index=-100, rows=2, num_warps=8, block=4096):
    """out = cross_entropy(x, target, reduction, ignore_index). Whole rows in registers when
    rows x next_power_of_2(C) <= MAX_TILE, else one program per row in `block`-class chunks."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"unknown reduction {reduction!r}; one of {REDUCTIONS}")
    why = matches(x, target, out)
    if why:
        raise ValueError(why)
    n_rows, n_cols = x.shape
    width = triton.next_power_of_2(max(n_cols, 1))
    if rows * width <= MAX_TILE:
        programs = triton.cdiv(n_rows, rows)
    else:
        programs = n_rows
    parts = torch.empty(max(programs, 1), device=x.device, dtype=torch.float32)
    counts = torch.empty(max(programs, 1), device=x.device, dtype=torch.int32)
    if n_rows == 0:
        parts.zero_()
        counts.zero_()
    elif rows * width <= MAX_TILE:
        _rows_in_registers[(programs,)](x, target, parts, counts, n_rows, n_cols, x.stride(0), target.stride(0),
                                        BLOCK=width, ROWS=rows, IGNORE=ignore_index, num_warps=num_warps)
    else:
        _row_looped[(programs,)](x, target, parts, counts, n_cols, x.stride(0), target.stride(0),
                                 BLOCK=block, IGNORE=ignore_index, num_warps=num_warps)
    _combine[(1,)](parts, counts, out, parts.numel(), MEAN=reduction == "mean", BLOCK=1024, num_warps=8)
    return out


def launch(inputs, outputs, params, settings):
    """A candidate's call: the floating input is the logits, the integer one the targets."""
    x = next(t for t in inputs.values() if t.is_floating_point())
    target = next(t for t in inputs.values() if not t.is_floating_point())
    (out,) = outputs.values()
    cross_entropy(x, target, out, params["reduction"], params["ignore_index"],
                  settings.get("rows", 2), settings.get("num_warps", 8))
