"""Cumulative sums and products over the innermost (contiguous) dimension, forward or reversed,
inclusive or exclusive, of x or of x * mask: cumsum(x, -1), cumsum(x.flip(-1), -1).flip(-1),
cumsum(x * mask, -1), cumprod(x, -1), and the exclusive forms (out[j] combines x[:j], or x[j+1:]
reversed; the first element is 0 for a sum and 1 for a product), each optionally times a constant
(a model's cumsum(x, -1) / c), and the inclusive scan with the neutral element in front
(`prepend`: cumsum(cat([0, x]), -1), one more column than x).

One read and one write per element. Each program owns ROWS rows and walks them in BLOCK-element
chunks, carrying the running sum from chunk to chunk (the scan inside a chunk is tl.cumsum). The
reversed scan walks the row from its end, loading each chunk in reverse order so that the scan
inside the chunk already runs from the end: no flipped copy of the input or of the result, and the
same order of additions as cumsum of the flipped row (a suffix sum computed as total - prefix would
lose digits to cancellation). The exclusive scan loads each chunk shifted by one element (the
neighbour is in the same cache lines), so no total minus element is formed either. Accumulates in
float32; writes the output's dtype. The mask is multiplied in (x * mask, as PyTorch does: NaN * 0
stays NaN).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _scan_rows(x_ptr, m_ptr, out_ptr, n_rows, n_cols, x_row, m_row, out_row, scale, HAS_MASK: tl.constexpr,
               REVERSE: tl.constexpr, ROWS: tl.constexpr, BLOCK: tl.constexpr, PROD: tl.constexpr = False,
               NEUTRAL: tl.constexpr = 0.0, EXCLUSIVE: tl.constexpr = False, MINUS: tl.constexpr = False,
               SCALED: tl.constexpr = False):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_ok = rows < n_rows
    rows64 = rows.to(tl.int64)
    lanes = tl.arange(0, BLOCK)
    carry = tl.full([ROWS], NEUTRAL, tl.float32)  # 0 for a sum, 1 for a product
    for start in tl.range(0, n_cols, BLOCK):
        if REVERSE:
            cols = n_cols - 1 - (start + lanes)  # the chunk read from the end of the row
            ok = cols >= 0
        else:
            cols = start + lanes
            ok = cols < n_cols
        both = row_ok[:, None] & ok[None, :]
        src = cols  # the element combined at cols: itself, or its neighbour for the exclusive scan
        if EXCLUSIVE:
            if REVERSE:
                src = cols + 1
            else:
                src = cols - 1
        take = row_ok[:, None] & ((src >= 0) & (src < n_cols))[None, :]
        v = tl.load(x_ptr + rows64[:, None] * x_row + src[None, :], mask=take, other=NEUTRAL).to(tl.float32)
        if HAS_MASK:
            keep = tl.load(m_ptr + rows64[:, None] * m_row + src[None, :], mask=take, other=0)
            v = tl.where(take, v * keep.to(tl.float32), v)
        if PROD:
            acc = tl.cumprod(v, axis=1) * carry[:, None]
        else:
            acc = tl.cumsum(v, axis=1) + carry[:, None]
        carry = tl.sum(tl.where(lanes[None, :] == BLOCK - 1, acc, 0.0), axis=1)  # the last lane's
        if MINUS:
            acc = acc - v  # cumsum(x) - x as written (inf - inf is NaN there too)
        if SCALED:
            acc = acc * scale  # the epilogue, after the carry is taken
        tl.store(out_ptr + rows64[:, None] * out_row + cols[None, :], acc.to(out_ptr.dtype.element_ty), mask=both)


def matches(x, out, mask=None):
    """Why the recipe cannot take (x, out, mask), or None."""
    if x.dim() != 2 or out.shape != x.shape or (mask is not None and mask.shape != x.shape):
        return "expects 2-D input, output (and mask) of one shape"
    for t in (x, out) + ((mask,) if mask is not None else ()):
        if x.shape[1] > 1 and t.stride(1) != 1:
            return "rows must be contiguous"
    if not (x.dtype.is_floating_point and out.dtype.is_floating_point):
        return "float input and output"
    return None


def cumsum_rows(x, out, mask=None, reverse=False, rows=1, block=1024, num_warps=4, op="sum",
                exclusive=False, minus=False, scale=None, prepend=False):
    """out = cumsum (op "sum") or cumprod (op "prod") over the last dim of x (times mask), from the
    end of each row when reverse, of the elements before (or after, reversed) each one when
    exclusive. With minus, out = cumsum - x (the element subtracted, as a model writes an exclusive
    sum; not the same as exclusive where x holds inf or NaN). With scale, the result is multiplied
    by it in float32 before it is stored (a model's cumsum(x) / c comes as scale = 1 / c, as
    Inductor computes it). With prepend, out has one more column than x: out[:, 0] is the neutral
    element (times scale) and out[:, 1:] the inclusive scan."""
    if op not in ("sum", "prod"):
        raise ValueError(f"scan: op must be 'sum' or 'prod', got {op!r}")
    if minus and (op != "sum" or exclusive):
        raise ValueError("scan: minus subtracts the element from an inclusive sum only")
    if prepend:
        if exclusive or minus or reverse:
            raise ValueError("scan: prepend is for a forward inclusive scan only")
        if x.dim() != 2 or out.dim() != 2 or tuple(out.shape) != (x.shape[0], x.shape[1] + 1):
            raise ValueError("scan: with prepend, out must be 2-D with one more column than x")
        out[:, 0].fill_((1.0 if op == "prod" else 0.0) * (1.0 if scale is None else float(scale)))
        out = out[:, 1:]
    why = matches(x, out, mask)
    if why:
        raise ValueError(why)
    n_rows, n_cols = x.shape
    if n_rows == 0 or n_cols == 0:
        return out
    m = mask if mask is not None else x
    if m.dtype == torch.bool:
        m = m.view(torch.uint8)  # the same bytes; Triton loads int1 pointers poorly
    _scan_rows[(triton.cdiv(n_rows, rows),)](
        x, m, out, n_rows, n_cols, x.stride(0), m.stride(0), out.stride(0),
        1.0 if scale is None else float(scale), HAS_MASK=mask is not None,
        REVERSE=bool(reverse), ROWS=rows, BLOCK=block, PROD=op == "prod",
        NEUTRAL=1.0 if op == "prod" else 0.0, EXCLUSIVE=bool(exclusive),
        MINUS=bool(minus), SCALED=scale is not None,
        num_warps=num_warps)
    return out


def launch(inputs, outputs, params, settings):
    """A candidate's call (params: the scanned input and mask by name, direction, op and the
    epilogue's forms; settings: rows, block, warps)."""
    x = inputs[params["x"]]
    mask = None if params.get("mask") is None else inputs[params["mask"]]
    (out,) = outputs.values()
    n = x.shape[-1]
    prepend = params.get("prepend", False)
    shift = {"prepend": True} if prepend else {"exclusive": True} if params.get("exclusive") else {}
    scale = {"scale": params["scale"]} if "scale" in params else {}
    cumsum_rows(x.view(-1, n), out.view(-1, n + 1 if prepend else n),
                None if mask is None else mask.view(-1, n), params["reverse"],
                settings.get("rows", 1), settings.get("block", 1024), settings.get("num_warps", 4),
                params.get("op", "sum"), minus=params.get("minus", False), **scale, **shift)
