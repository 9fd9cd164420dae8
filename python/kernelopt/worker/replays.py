"""G4's checks of what the timed replays computed.

While G4 times the captured graphs, their static inputs alternate between two seeds' values
(`Alternation`, copied between turns outside the timed region). Afterwards every captured
instance of both sides is replayed once more on each seed's values and its outputs compared with
the baseline's, next to the same comparison of direct (uncaptured) calls: a candidate that keeps
results between calls, keyed by address or by part of its input, or that computes otherwise while
a CUDA graph is captured, agrees with the baseline when called directly and not when replayed.
Numbers only: the engine judges.

Memory: on a problem whose tensors take gigabytes (KernelBench's first level holds 6-8 GiB
inputs), the captured instances can leave no room for another copy. A copy that does not fit on
the device is kept in host memory instead (`_copy`): the checks stay, only slower. The direct
calls run after the timed graphs are freed (`check_direct`).
"""

from __future__ import annotations

from .compare import closeness
from .errors import failure
from .gates import _tensors
from .stress import kind


def _tensor(value) -> bool:
    import torch

    return isinstance(value, torch.Tensor)


def _copy(t):
    """A copy of `t` on its device, or in host memory when the device has no room for it."""
    import torch

    try:
        return t.clone()
    except torch.cuda.OutOfMemoryError:
        return t.to("cpu")


def _same_layout(a, b) -> bool:
    return (a.shape == b.shape and a.dtype == b.dtype and a.stride() == b.stride()
            and a.device == b.device)


class Alternation:
    """The static inputs of the captured graphs (the first seed's arguments) and the values of
    another plain seed to put in them. `other` is None when no other plain seed was captured.
    When the first seed's own values had to be kept in host memory (`on_host`), the timed turns
    do not alternate (a copy from the host each turn would cost seconds): the replays are still
    checked on both seeds afterwards."""

    def __init__(self, cap, seed):
        self.seed = seed
        plain = [s for s in cap.inputs_by_seed if s != seed and not kind(s)]
        self.other = plain[0] if plain else None
        self._pairs: list = []  # (static tensor, its own values, the other seed's tensor)
        self.on_host = False
        if self.other is None:
            return
        seen = set()
        for i in dict.fromkeys(cap.order):
            mine = cap.graphs[i].args_by_seed.get(seed, [])
            theirs = cap.graphs[i].args_by_seed.get(self.other, [])
            for a, b in zip(mine, theirs):
                if _tensor(a) and _tensor(b) and a is not b and id(a) not in seen and _same_layout(a, b):
                    seen.add(id(a))
                    own = _copy(a)
                    self.on_host = self.on_host or own.device != a.device
                    self._pairs.append((a, own, b))

    def load(self, seed) -> None:
        """Puts `seed`'s values (the first seed's or the other's) in the static inputs."""
        for static, own, other in self._pairs:
            static.copy_(own if seed == self.seed else other)

    @property
    def alternates(self) -> bool:
        """Whether the timed turns alternate between the two seeds' values."""
        return self.other is not None and not self.on_host

    def turn(self, k: int) -> None:
        if self.alternates:
            self.load(self.seed if k % 2 == 0 else self.other)

    def restore(self) -> None:
        import torch

        self.load(self.seed)
        torch.cuda.synchronize()


def _direct(cap, modules: dict, seed) -> list:
    """All graphs' `call`s in call order on the seed's own arguments, uncaptured: their outputs."""
    import torch

    out = []
    with torch.no_grad():
        for i in cap.order:
            out += [_copy(t) for t in _tensors(modules[i].call(list(cap.graphs[i].args_by_seed[seed])))]
    torch.cuda.synchronize()
    return out


def check_replays(cap, alternation: Alternation, pairs: list) -> list:
    """For the first seed and the alternating one: the smallest tolerance at which each captured
    candidate instance's replayed outputs match its baseline partner's (the worst instance).
    Every replay runs before any direct call (`check_direct`): a direct call on a seed's own
    tensors may reset what a candidate remembers, and the replays must meet what timing left."""
    seeds = [s for s in [alternation.seed] + ([alternation.other] if alternation.other is not None else [])
             if all(s in cap.graphs[i].args_by_seed for i in cap.order)]
    return [_replayed(alternation, pairs, seed) for seed in seeds]


def check_direct(cap, alternation: Alternation, original: dict, merged: dict, results: list,
                 candidate_under=lambda call: call()) -> list:
    """Adds to each replay check the same comparison made on direct (uncaptured) calls
    (`closeness`), run once the timed graphs are freed; `candidate_under(call)` runs the
    candidate's calls (under its vendor knobs' settings, where it has any). The static inputs end
    on the first seed's values."""
    for entry in results:
        if entry.get("error") is not None:
            continue
        try:
            alternation.load(entry["seed"])
            seed = entry["seed"]
            mine = candidate_under(lambda: _direct(cap, merged, seed))
            direct = closeness(mine, _direct(cap, original, seed))
            entry.update({"direct_tol": direct["tol"], "direct_nonfinite_match": direct["nonfinite_match"]})
        except Exception as exc:  # a candidate whose direct calls fail is data
            entry.update({"error": failure(exc)})
    alternation.restore()
    return results


def _replayed(alternation: Alternation, pairs: list, seed) -> dict:
    """The worst instance pair's closeness when replayed on `seed`'s values."""
    import torch

    entry = {"seed": seed}
    try:
        worst, match = 0.0, True
        for k in range(0, len(pairs) - 1, 2):
            (base_graph, base_out), (cand_graph, cand_out) = pairs[k], pairs[k + 1]
            alternation.load(seed)
            base_graph.replay()
            torch.cuda.synchronize()
            base = [_copy(t) for t in base_out]
            alternation.load(seed)
            cand_graph.replay()
            torch.cuda.synchronize()
            replay = closeness(cand_out, base)
            worst, match = max(worst, replay["tol"]), match and replay["nonfinite_match"]
            del base
        entry.update({"error": None, "replay_tol": worst, "replay_nonfinite_match": match})
    except Exception as exc:  # a candidate whose replays cannot be checked is data
        entry.update({"error": failure(exc)})
    return entry
