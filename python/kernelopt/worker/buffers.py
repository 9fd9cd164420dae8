"""Tensors for a candidate's run: strided copies, guard bands, poison, bitwise comparisons.

A placed tensor lives in the middle of a larger flat allocation: `guard` elements of a known byte
pattern before and after it, so that a write outside the tensor is seen afterwards. Outputs are
poisoned (a NaN with a payload no arithmetic produces; the largest value for integers and True for
bools), so that an element the candidate never wrote is seen too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Poison bit patterns: quiet NaNs whose payload no arithmetic produces (canonical NaNs differ).
_NAN_BITS = {"float32": 0x7FC0DEAD, "float16": 0x7E5A, "bfloat16": 0x7FDA, "float64": 0x7FF8DEADBEEFDEAD}


def span(shape, stride) -> int:
    """Elements of storage a strided tensor reaches, from its first element to its last."""
    if any(int(n) == 0 for n in shape):
        return 0
    return 1 + sum((int(n) - 1) * int(s) for n, s in zip(shape, stride))


def bits(t):
    """The tensor reinterpreted as integers of the same width (NaN-aware bitwise comparisons)."""
    import torch

    width = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
    return t if t.dtype == width else t.view(width)


def bitwise_equal(a, b) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and bool(bits(a).eq(bits(b)).all())


def digest(t) -> tuple:
    """A fingerprint of a tensor's bits: two wrapping int64 sums, of the elements' bit patterns and
    of each times its position, computed in chunks on the tensor's device (no copy of the whole
    when it is contiguous). Equal tensors give equal digests; a changed element changes it."""
    import torch

    flat = bits(t.detach()).reshape(-1)
    plain = weighted = 0
    chunk = 1 << 24
    for start in range(0, flat.numel(), chunk):
        part = flat[start:start + chunk].to(torch.int64)
        where = torch.arange(start + 1, start + 1 + part.numel(), device=part.device, dtype=torch.int64)
        plain += int(part.sum())
        weighted += int((part * where).sum())
    return (tuple(t.shape), str(t.dtype), plain, weighted)


def clone_strided(t):
    """A copy with the same shape, strides and dtype (empty_strided + copy_)."""
    import torch

    out = torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device=t.device)
    try:
        out.copy_(t)
    except RuntimeError:  # overlapping strides (an expanded tensor): copy the span it reaches
        flat = t.as_strided((span(t.shape, t.stride()),), (1,), t.storage_offset()).clone()
        out = flat.as_strided(t.shape, t.stride(), 0)
    return out


def _guard_pattern(nbytes: int, device):
    import torch

    return ((torch.arange(nbytes, dtype=torch.int64, device=device) * 73 + 0x5A) % 256).to(torch.uint8)


@dataclass
class Placed:
    """A tensor handed to a candidate and the allocation around it."""

    tensor: Any  # the strided tensor the candidate gets (on flat's storage, not a view of flat)
    flat: Any  # lead + span + guard elements
    guard: int  # elements of guard band after the tensor (and before it, unless lead is 0)
    pattern: Any  # the guard bands' bytes as written (uint8, one band)
    lead: int = -1  # elements before the tensor: its storage offset (-1: guard)

    def view(self):
        """The tensor as handed over, rebuilt from the allocation: what a check reads, whatever
        the candidate did to the tensor object's own shape, strides or storage."""
        return self.flat.as_strided(self.layout[1], self.layout[2], self.lead)

    @property
    def layout(self) -> tuple:
        """(data pointer, shape, strides, storage offset) as handed over."""
        return self._layout

    def relaid(self) -> bool:
        """Whether the tensor object handed over now points elsewhere or has another shape,
        strides or storage offset (as_strided_, set_, resize_ on it)."""
        return layout_of(self.tensor) != self._layout

    def __post_init__(self):
        if self.lead < 0:
            self.lead = self.guard
        self._layout = layout_of(self.tensor)

    def guard_changes(self) -> int:
        """Elements of either guard band whose bytes changed."""
        import torch

        if self.guard == 0:
            return 0
        size = self.flat.element_size()
        raw = self.flat.view(torch.uint8)
        band = self.guard * size
        parts = [raw[raw.numel() - band:]] + ([raw[:band]] if self.lead else [])
        return sum(int(part.ne(self.pattern).view(self.guard, size).any(dim=1).sum()) for part in parts)


def layout_of(t) -> tuple:
    """A tensor's data pointer, shape, strides and storage offset."""
    return (t.data_ptr(), tuple(t.shape), tuple(t.stride()), t.storage_offset())


def place(shape, stride, dtype, device, guard: int, lead: int | None = None) -> Placed:
    """An uninitialised strided tensor with a guard band of a known pattern after it and `lead`
    elements before it (default `guard`; 0 puts the tensor at storage offset 0, as a model's own
    tensors usually are). The tensor is set on the allocation's storage rather than made a view
    of it, so that nothing but its storage tells it from a tensor the model allocated."""
    import torch

    lead = guard if lead is None else lead
    n = span(shape, stride)
    flat = torch.empty(lead + n + guard, dtype=dtype, device=device)
    band = guard * flat.element_size()
    pattern = _guard_pattern(band, device)
    if band:
        raw = flat.view(torch.uint8)
        raw[raw.numel() - band:] = pattern
        if lead:
            raw[:band] = pattern
    tensor = torch.empty((0,), dtype=dtype, device=device)
    tensor.set_(flat.untyped_storage(), lead, tuple(shape), tuple(stride))
    return Placed(tensor=tensor, flat=flat, guard=guard, pattern=pattern, lead=lead)


def poison(placed: Placed) -> None:
    """Fills the span of the tensor (gaps between strided elements too) with the poison."""
    import torch

    n = span(placed.tensor.shape, placed.tensor.stride())
    region = placed.flat[placed.lead:placed.lead + n]
    dtype = region.dtype
    name = str(dtype).removeprefix("torch.")
    if name in _NAN_BITS:
        bits(region).fill_(_NAN_BITS[name])
    elif dtype == torch.bool:
        region.fill_(True)
    elif dtype.is_floating_point or dtype.is_complex:
        region.fill_(float("nan"))
    else:
        region.fill_(torch.iinfo(dtype).max)


def still_poisoned(out, ref):
    """Mask of elements that still hold the poison where the reference does not."""
    import torch

    name = str(out.dtype).removeprefix("torch.")
    if name in _NAN_BITS:
        return bits(out).eq(_NAN_BITS[name]) & ~torch.isnan(ref)
    if out.dtype == torch.bool:
        return out & ~ref
    if out.dtype.is_floating_point or out.dtype.is_complex:
        return torch.isnan(out) & ~torch.isnan(ref)
    top = torch.iinfo(out.dtype).max
    return out.eq(top) & ref.ne(top)
