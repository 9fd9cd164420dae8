"""compare, max_abs_err and closeness give the same numbers piece by piece as whole, closeness's
tolerance is the one at which torch.allclose starts to hold, and park moves large references to
host memory (CPU tensors: the logic is the same on the GPU)."""

import os
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from kernelopt.worker import compare as cmp  # noqa: E402


def _pair():
    g = torch.Generator().manual_seed(3)
    ref = torch.randn(7, 129, generator=g)
    out = ref + 1e-4 * torch.randn(7, 129, generator=g)
    out.view(torch.int32)[2, 5] = 0x7FC0DEAD  # the gates' poison: unwritten where ref is finite
    out[3, 9] = float("nan")       # a NaN the kernel computed
    ref[4, 7] = float("inf")
    out[4, 7] = float("inf")
    out[6, 100] = ref[6, 100] + 1  # one clear mismatch
    return out, ref


def test_compare_in_pieces_equals_compare_whole(monkeypatch):
    out, ref = _pair()
    whole = cmp.compare(out, ref, 1e-3, 1e-3)
    assert whole["mismatched"] == 3 and whole["unwritten"] == 1 and whole["nan_mismatch"] == 2
    assert abs(whole["max_abs_err"] - 1.0) < 1e-5
    monkeypatch.setattr(cmp, "CHUNK", 64)  # 903 elements: 15 pieces, the last one short
    assert cmp.compare(out, ref, 1e-3, 1e-3) == whole
    # A transposed (not contiguous) output is compared element for element too.
    assert cmp.compare(out.t().contiguous().t(), ref, 1e-3, 1e-3) == whole


def test_max_abs_err_and_closeness_in_pieces(monkeypatch):
    out, ref = _pair()
    out[2, 5] = ref[2, 5]
    out[3, 9] = ref[3, 9]
    whole_err = cmp.max_abs_err([out], [ref])
    whole = cmp.closeness([out], [ref])
    monkeypatch.setattr(cmp, "CHUNK", 50)
    assert cmp.max_abs_err([out], [ref]) == whole_err
    assert cmp.closeness([out], [ref]) == whole
    assert whole["nonfinite_match"] and whole["tol"] > 1e-3  # the clear mismatch
    out[6, 100] = ref[6, 100]
    assert cmp.closeness([out], [ref])["tol"] < 1e-3
    out[0, 0] = float("nan")
    assert cmp.max_abs_err([out], [ref]) == float("inf")


def test_closeness_is_the_tolerance_where_allclose_starts_to_hold():
    g = torch.Generator().manual_seed(5)
    ref = torch.randn(64, 33, generator=g, dtype=torch.float64) * 10
    out = ref + 1e-3 * torch.randn(64, 33, generator=g, dtype=torch.float64)
    close = cmp.closeness([out, ref[:3]], [ref, ref[:3]])
    t = close["tol"]
    assert close["nonfinite_match"] and 0 < t < 1e-2
    assert t == float(((out - ref).abs() / (1 + ref.abs())).max())
    for pair in ((out, ref), (ref[:3], ref[:3])):
        assert torch.allclose(*pair, rtol=t * (1 + 1e-9), atol=t * (1 + 1e-9))
    assert not torch.allclose(out, ref, rtol=t * (1 - 1e-6), atol=t * (1 - 1e-6))
    assert cmp.closeness([ref], [ref]) == {"tol": 0.0, "nonfinite_match": True}


def test_closeness_compares_nan_and_infinities_apart_from_the_tolerance():
    ref = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), 2.0])
    same = ref.clone()
    same[0] = 1.5
    assert cmp.closeness([same], [ref]) == {"tol": 0.25, "nonfinite_match": True}  # 0.5 / (1 + 1)
    for position, value in ((1, 0.0), (2, -float("inf")), (3, float("nan")), (4, float("inf"))):
        moved = ref.clone()
        moved[position] = value
        close = cmp.closeness([moved], [ref])
        assert not close["nonfinite_match"], (position, value)
        assert close["tol"] == 0.0, (position, value)  # finite positions alike: the flag decides
    nan_only = torch.full((3,), float("nan"))
    assert cmp.closeness([nan_only], [nan_only]) == {"tol": 0.0, "nonfinite_match": True}


def test_closeness_of_outputs_that_do_not_pair_is_infinite():
    a = torch.zeros(4)
    assert cmp.closeness([a], [a, a]) == {"tol": float("inf"), "nonfinite_match": False}
    assert cmp.closeness([a], [a.reshape(2, 2)]) == {"tol": float("inf"), "nonfinite_match": False}
    assert cmp.closeness([], []) == {"tol": 0.0, "nonfinite_match": True}


def test_park_keeps_small_references_where_they_are_and_moves_large_ones(monkeypatch):
    # "meta" stands in for host memory here (a CPU machine has no GPU to move from).
    small = [torch.ones(4)]
    assert cmp.park(small, host="meta")[0].device.type == "cpu"
    monkeypatch.setattr(cmp, "PARK_BYTES", 8)
    moved = cmp.park([torch.ones(4), 3], host="meta")
    assert moved[1] == 3 and moved[0].device.type == "meta" and moved[0].shape == (4,)
