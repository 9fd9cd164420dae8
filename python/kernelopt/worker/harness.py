"""G2's measurements: run a candidate on a segment's captured inputs and compare with its outputs.

For each seed: inputs are fresh copies of the captured "in" tensors; outputs are poisoned tensors
with the captured outputs' shapes, strides and dtypes; every tensor sits between guard bands.
After `run(inputs, outputs)` the harness counts what it sees (errors, unwritten elements, NaN/Inf
disagreements, guard writes, mutated inputs, replaced dict entries, tensors re-strided or
re-pointed in place, side streams) and runs the candidate a second time on fresh tensors for
determinism. Every check reads the tensors through views rebuilt from their allocations, never
through the tensor objects the candidate held. Numbers only: the engine judges.
"""

from __future__ import annotations

import time

from .buffers import bits, bitwise_equal, digest, place, poison, span
from .compare import combine, compare
from .errors import failure
from .streams import StreamTrace, StreamWatch

# A tensor's guard bands hold as many elements as the tensor spans (at least the request's
# `guard`, at most GUARD_CAP): a store at any offset within one tensor's length of its ends is
# seen. Farther writes that land in a tensor the worker holds are seen by the digests of `_held`.
GUARD_CAP = 1 << 24


def _guard_for(value, guard: int) -> int:
    return max(guard, min(span(value.shape, value.stride()), GUARD_CAP))


class Segment:
    """A segment's captured I/O for one seed: {"in": {root: tensor}, "out": {root: tensor}}."""

    def __init__(self, io: dict):
        self.ins = io["in"]
        self.outs = io["out"]
        self.in_place = [r for r in self.outs if r in self.ins]


def _is_tensor(value) -> bool:
    import torch

    return isinstance(value, torch.Tensor)


def _synchronize(device) -> None:
    import torch

    if device is not None and device.type == "cuda":
        torch.cuda.synchronize(device)


class Trial:
    """One run of a candidate on freshly placed tensors."""

    def __init__(self, seg: Segment, guard: int, lead: int | None = None):
        self.placed = {}
        self.device = None
        for root, value in seg.ins.items():
            if _is_tensor(value):
                p = place(value.shape, value.stride(), value.dtype, value.device, _guard_for(value, guard),
                          lead)
                p.tensor.copy_(value)
                self.placed[root] = p
                self.device = value.device
        for root, value in seg.outs.items():
            if root not in self.placed and _is_tensor(value):
                p = place(value.shape, value.stride(), value.dtype, value.device, _guard_for(value, guard),
                          lead)
                poison(p)
                self.placed[root] = p
                self.device = value.device
        self.inputs = {r: (self.placed[r].tensor if r in self.placed else v) for r, v in seg.ins.items()}
        self.outputs = {r: self.placed[r].tensor for r in seg.outs if r in self.placed}
        self._given = dict(self.outputs)
        self.error = None
        self.seconds = None

    def run(self, module, watch: StreamWatch) -> None:
        _synchronize(self.device)
        t0 = time.perf_counter()
        try:
            with watch:
                module.run(self.inputs, self.outputs)
            _synchronize(self.device)
        except Exception as exc:  # the candidate's failure is data
            self.error = failure(exc)
        self.seconds = time.perf_counter() - t0

    def relaid(self) -> list:
        """Roots whose tensor handed over now has another data pointer, shape, strides or
        storage offset: the values a check would read through it are not the allocation's."""
        return sorted(r for r, p in self.placed.items() if p.relaid())

    def replaced_outputs(self) -> list:
        changed = [r for r, t in self._given.items() if self.outputs.get(r) is not t]
        return changed + sorted(r for r in self.outputs if r not in self._given)

    def out_of_bounds(self) -> int:
        return sum(p.guard_changes() for p in self.placed.values())

    def release_inputs(self) -> None:
        """Drops the placed inputs that are not also outputs (their room is needed for the second
        run on problems whose tensors take gigabytes)."""
        for root in [r for r in self.placed if r not in self._given]:
            del self.placed[root]
        self.inputs = {}

    def mutated_inputs(self, seg: Segment) -> set:
        """Input roots (not updated in place by the original) whose tensors changed bitwise."""
        return {r for r, v in seg.ins.items()
                if r not in seg.in_place and r in self.placed and not bitwise_equal(self.placed[r].view(), v)}


def _held(seg: Segment) -> dict:
    """Digests of the tensors the worker holds for the seed and never hands over: the captured
    inputs and the reference outputs ("in ROOT", "out ROOT")."""
    return {f"{side} {root}": digest(t) for side, io in (("in", seg.ins), ("out", seg.outs))
            for root, t in io.items() if _is_tensor(t)}


def check_seed(module, seg: Segment, rtol: float, atol: float, guard: int, profile: bool = False) -> dict:
    """All of G2's numbers for one seed; `error` is set (and the numbers left out) if run raised.
    With `profile`, the second run is traced by the CUDA profiler for work on other streams."""
    import torch

    held = _held(seg)
    watch = StreamWatch()
    first = Trial(seg, guard)
    first.run(module, watch)
    result = {"error": first.error, "seconds": first.seconds}
    if first.error is not None:
        result["side_stream"] = watch.side_stream
        return result
    per_root = {r: compare(first.placed[r].view(), seg.outs[r], rtol, atol) for r in first._given}
    result.update(combine(per_root))
    result["outputs"] = per_root
    result["out_of_bounds"] = first.out_of_bounds()
    mutated = first.mutated_inputs(seg)
    result["replaced_outputs"] = first.replaced_outputs()
    result["relaid_tensors"] = first.relaid()
    # The second run places every tensor at storage offset 0 (a trailing guard only), where a
    # model's own tensors sit: a candidate that behaves differently there is seen by the checks
    # on its inputs and by the bitwise comparison of the two runs.
    # What the first run wrote, kept for the bitwise comparison with the second; its inputs are
    # let go, and where the device has no room for both runs its outputs wait in host memory.
    written = {r: first.placed[r].view() for r in first._given}
    first.release_inputs()
    try:
        second = Trial(seg, guard, lead=0)
    except torch.cuda.OutOfMemoryError:
        written = {r: t.cpu() for r, t in written.items()}
        del first
        torch.cuda.empty_cache()
        second = Trial(seg, guard, lead=0)
    trace = StreamTrace() if profile and second.device is not None and second.device.type == "cuda" else None
    if trace is None:
        second.run(module, watch)
    else:
        with trace:
            second.run(module, watch)
        for what in trace.off_stream:
            watch.note(what)
    if second.error is None:
        mutated |= second.mutated_inputs(seg)
        result["relaid_tensors"] = sorted(set(result["relaid_tensors"]) | set(second.relaid()))
    result["inputs_mutated"] = sorted(mutated)
    # A write beyond the guard bands that lands in a tensor the worker holds (the reference itself
    # among them) is seen here, wherever it falls in that tensor.
    after = _held(seg)
    result["stray_writes"] = sorted(name for name, d in held.items() if after.get(name) != d)
    result["side_stream"] = watch.side_stream
    result["side_stream_detail"] = watch.seen
    result["stream_trace"] = None if trace is None else trace.available
    result["second_run_error"] = second.error
    # Bitwise equality is the measurement itself: there is no threshold for the engine to hold.
    result["deterministic"] = second.error is None and all(
        bits(t).eq(bits(second.placed[r].view().to(t.device))).all().item() for r, t in written.items())
    return result
