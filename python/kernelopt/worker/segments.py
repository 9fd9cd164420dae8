"""segment_capture: record each segment's inputs and outputs from an instrumented output code.

The engine inserts `_ko_probe(SEG_ID, "in", {root: tensor, ...})` before a segment's first launch
and `_ko_probe(SEG_ID, "out", {...})` after its last one; the worker injects `_ko_probe` and runs
`call` once per captured seed. Copies keep shapes, strides and dtypes.
"""

from __future__ import annotations

from .buffers import clone_strided
from .problem import describe_value


class Probe:
    """The `_ko_probe` callable: keeps copies of the requested segments' tensors for one seed."""

    def __init__(self, wanted, store: dict):
        self.wanted = set(wanted)
        self.store = store  # segment id -> seed -> {"in": {...}, "out": {...}}
        self.seed = None
        self.fired: dict = {}  # segment -> times its "in" probe fired this seed

    def __call__(self, segment, side, tensors) -> None:
        if segment not in self.wanted:
            return
        if side not in ("in", "out"):
            raise ValueError(f"_ko_probe side must be 'in' or 'out', got {side!r}")
        # The first run of the segment in the call is the one kept: its "in" probe starts it. A
        # segment has one "in" probe and one "out" probe per step after which some of its
        # outputs are final (a mutated graph input finalized before its last launch: a batch
        # norm's running statistics), so the outs of one run are merged.
        if side == "in":
            self.fired[segment] = self.fired.get(segment, 0) + 1
        if self.fired.get(segment, 0) != 1:
            return
        entry = self.store.setdefault(segment, {}).setdefault(self.seed, {"in": {}, "out": {}})
        for root, value in tensors.items():
            entry[side].setdefault(root, _copy(value))


def _copy(value):
    import torch

    return clone_strided(value.detach()) if isinstance(value, torch.Tensor) else value


def describe_segment(segment, by_seed: dict) -> dict:
    """The interface of one captured segment, from its first captured seed."""
    if not by_seed:
        return {"id": segment, "seeds": [], "inputs": {}, "outputs": {}, "in_place": []}
    io = next(iter(by_seed.values()))
    return {"id": segment, "seeds": list(by_seed),
            "inputs": {r: describe_value(v) for r, v in io["in"].items()},
            "outputs": {r: describe_value(v) for r, v in io["out"].items()},
            "in_place": [r for r in io["out"] if r in io["in"]]}


def run_probed(module, probe: Probe, args_by_seed: dict) -> None:
    """Runs the instrumented `call` once per seed with a copy of that seed's argument list."""
    import torch

    for seed, args in args_by_seed.items():
        probe.seed = seed
        probe.fired = {}
        with torch.no_grad():
            module.call(list(args))
        if any(isinstance(a, torch.Tensor) and a.is_cuda for a in args):
            torch.cuda.synchronize()
