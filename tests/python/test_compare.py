"""compare, max_abs_err and allclose give the same numbers piece by piece as whole, and park
moves large references to host memory (CPU tensors: the logic is the same on the GPU)."""

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


def test_max_abs_err_and_allclose_in_pieces(monkeypatch):
    out, ref = _pair()
    out[2, 5] = ref[2, 5]
    out[3, 9] = ref[3, 9]
    whole_err = cmp.max_abs_err([out], [ref])
    monkeypatch.setattr(cmp, "CHUNK", 50)
    assert cmp.max_abs_err([out], [ref]) == whole_err
    assert not cmp.allclose([out], [ref], 1e-3)
    out[6, 100] = ref[6, 100]
    assert cmp.allclose([out], [ref], 1e-3)
    out[0, 0] = float("nan")
    assert cmp.max_abs_err([out], [ref]) == float("inf")


def test_park_keeps_small_references_where_they_are_and_moves_large_ones(monkeypatch):
    # "meta" stands in for host memory here (a CPU machine has no GPU to move from).
    small = [torch.ones(4)]
    assert cmp.park(small, host="meta")[0].device.type == "cpu"
    monkeypatch.setattr(cmp, "PARK_BYTES", 8)
    moved = cmp.park([torch.ones(4), 3], host="meta")
    assert moved[1] == 3 and moved[0].device.type == "meta" and moved[0].shape == (4,)
