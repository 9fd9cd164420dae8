"""Numbers that compare a candidate's output with the reference: errors and mismatch counts."""

from __future__ import annotations

from .buffers import still_poisoned


def compare(out, ref, rtol: float, atol: float) -> dict:
    """Errors of `out` against `ref` (same shape and dtype). `max_abs_err` and `max_rel_err` are
    over the positions where both are finite (`max_rel_err` also skips ref == 0); NaN, Inf and
    unwritten positions are counted separately; `mismatched` counts what fails
    isclose(rtol, atol, equal_nan=True), NaN and Inf disagreements included."""
    import torch

    a = out.detach().to(torch.float64)
    b = ref.detach().to(device=out.device).to(torch.float64)
    finite = torch.isfinite(a) & torch.isfinite(b)
    diff = (a - b).abs()
    max_abs = float(diff[finite].max()) if bool(finite.any()) else 0.0
    rel_mask = finite & b.ne(0)
    max_rel = float((diff[rel_mask] / b[rel_mask].abs()).max()) if bool(rel_mask.any()) else 0.0
    close = torch.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
    inf_differs = torch.isposinf(a).ne(torch.isposinf(b)) | torch.isneginf(a).ne(torch.isneginf(b))
    return {
        "elements": out.numel(),
        "max_abs_err": max_abs,
        "max_rel_err": max_rel,
        "mismatched": int((~close).sum()),
        "unwritten": int(still_poisoned(out, ref.to(out.device)).sum()),
        "nan_mismatch": int(torch.isnan(a).ne(torch.isnan(b)).sum()),
        "inf_mismatch": int(inf_differs.sum()),
    }


def combine(per_root: dict) -> dict:
    """One seed's totals over its output roots: the largest errors, the summed counts."""
    total = {"elements": 0, "max_abs_err": 0.0, "max_rel_err": 0.0, "mismatched": 0, "unwritten": 0,
             "nan_mismatch": 0, "inf_mismatch": 0}
    for m in per_root.values():
        for key in total:
            total[key] = max(total[key], m[key]) if key.startswith("max_") else total[key] + m[key]
    return total
