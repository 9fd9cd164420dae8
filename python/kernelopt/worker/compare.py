"""Numbers that compare a candidate's output with the reference: errors, mismatch counts and the
smallest tolerance at which outputs match (the engine holds them against its thresholds).

KernelBench tensors reach several GB: comparisons run piece by piece (`CHUNK` elements at a time,
in float64), so that their temporaries stay small, and a reference kept in host memory
(`park`) is brought to the GPU one piece at a time.
"""

from __future__ import annotations

import os

from .buffers import still_poisoned

CHUNK = 1 << 25  # elements per piece of a comparison
# References (eager and float64 outputs of one seed) larger than this wait in host memory.
PARK_BYTES = int(os.environ.get("KERNELOPT_PARK_BYTES", str(2 << 30)))


def park(tensors: list, host: str = "cpu") -> list:
    """The tensors, moved to host memory when those elsewhere hold more than PARK_BYTES."""
    import torch

    away = [t for t in tensors if isinstance(t, torch.Tensor) and t.device.type != host]
    if sum(t.numel() * t.element_size() for t in away) <= PARK_BYTES:
        return tensors
    return [t.to(host) if isinstance(t, torch.Tensor) else t for t in tensors]


def pieces(a, b):
    """(piece of a, same piece of b on a's device), covering both in step. Small tensors come
    whole; large ones flattened (a copy only where one is not contiguous)."""
    if a.numel() <= CHUNK:
        yield a, b.to(a.device)
        return
    fa, fb = a.reshape(-1), b.reshape(-1)
    for i in range(0, fa.numel(), CHUNK):
        yield fa[i:i + CHUNK], fb[i:i + CHUNK].to(a.device)


def max_abs_err(a_list, b_list) -> float:
    """Largest |a - b| over paired tensors; a position holding NaN in both or the same infinity
    in both counts 0, any other NaN or infinity as infinite."""
    import torch

    worst = 0.0
    for a, b in zip(a_list, b_list):
        for pa, pb in pieces(a.detach(), b.detach()):
            x, y = pa.double(), pb.double()
            d = torch.nan_to_num((x - y).abs(), nan=float("inf"))
            d[(x == y) | (torch.isnan(x) & torch.isnan(y))] = 0
            if d.numel():
                worst = max(worst, float(d.max()))
    return worst


REL_TOL = 1e-2  # an element of a float64 comparison is off when |a - r| > REL_TOL * |r|


def rel_exceed(a_list, ref_list) -> int:
    """How many elements are off by more than REL_TOL of the reference's own magnitude (whatever
    their size against the largest element); a NaN or infinity where the reference has another
    value counts, NaN against NaN and equal infinities do not."""
    import torch

    count = 0
    for a, b in zip(a_list, ref_list):
        for pa, pb in pieces(a.detach(), b.detach()):
            x, y = pa.double(), pb.double()
            same = (x == y) | (torch.isnan(x) & torch.isnan(y))
            near = (x - y).abs() <= REL_TOL * y.abs()
            count += int((~(same | near)).sum())
    return count


def closeness(a_list, b_list) -> dict:
    """How close paired tensors are, as numbers the engine holds against its tolerance:
    `tol`, the smallest t at which torch.allclose(a, b, rtol=t, atol=t, equal_nan=True) holds for
    every pair, that is the largest |a - b| / (1 + |b|) over positions finite in both; and
    `nonfinite_match`, whether every other position holds NaN in both or the same infinity.
    Lists of other lengths or tensors of other shapes match at no tolerance."""
    import torch

    if len(a_list) != len(b_list) or any(a.shape != b.shape for a, b in zip(a_list, b_list)):
        return {"tol": float("inf"), "nonfinite_match": False}
    tol, match = 0.0, True
    for a, b in zip(a_list, b_list):
        for pa, pb in pieces(a.detach(), b.detach()):
            x, y = pa.to(torch.float64), pb.to(torch.float64)
            finite = torch.isfinite(x) & torch.isfinite(y)
            if bool(finite.any()):
                tol = max(tol, float(((x - y).abs() / (1 + y.abs()))[finite].max()))
            xs, ys = x[~finite], y[~finite]
            if match and xs.numel():
                match = bool(((xs == ys) | (torch.isnan(xs) & torch.isnan(ys))).all())
    return {"tol": tol, "nonfinite_match": match}


def compare(out, ref, rtol: float, atol: float) -> dict:
    """Errors of `out` against `ref` (same shape and dtype). `max_abs_err` and `max_rel_err` are
    over the positions where both are finite (`max_rel_err` also skips ref == 0); NaN, Inf and
    unwritten positions are counted separately; `mismatched` counts what fails
    isclose(rtol, atol, equal_nan=True), NaN and Inf disagreements included (for integer and
    boolean outputs: what differs at all)."""
    import torch

    total = {"elements": out.numel(), "max_abs_err": 0.0, "max_rel_err": 0.0, "mismatched": 0,
             "unwritten": 0, "nan_mismatch": 0, "inf_mismatch": 0}
    for po, pr in pieces(out.detach(), ref.detach()):
        a, b = po.to(torch.float64), pr.to(torch.float64)
        finite = torch.isfinite(a) & torch.isfinite(b)
        diff = (a - b).abs()
        if bool(finite.any()):
            total["max_abs_err"] = max(total["max_abs_err"], float(diff[finite].max()))
        rel_mask = finite & b.ne(0)
        if bool(rel_mask.any()):
            total["max_rel_err"] = max(total["max_rel_err"],
                                       float((diff[rel_mask] / b[rel_mask].abs()).max()))
        # Integers (indices, counts, masks) match exactly or not at all.
        exact = not (po.dtype.is_floating_point or po.dtype.is_complex)
        close = a.eq(b) if exact else torch.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
        inf_differs = torch.isposinf(a).ne(torch.isposinf(b)) | torch.isneginf(a).ne(torch.isneginf(b))
        total["mismatched"] += int((~close).sum())
        total["unwritten"] += int(still_poisoned(po, pr).sum())
        total["nan_mismatch"] += int(torch.isnan(a).ne(torch.isnan(b)).sum())
        total["inf_mismatch"] += int(inf_differs.sum())
    return total


def combine(per_root: dict) -> dict:
    """One seed's totals over its output roots: the largest errors, the summed counts."""
    total = {"elements": 0, "max_abs_err": 0.0, "max_rel_err": 0.0, "mismatched": 0, "unwritten": 0,
             "nan_mismatch": 0, "inf_mismatch": 0}
    for m in per_root.values():
        for key in total:
            total[key] = max(total[key], m[key]) if key.startswith("max_") else total[key] + m[key]
    return total
