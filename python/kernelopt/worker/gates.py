"""Model-level measurements: G3 (the recomposed model against eager and float64) and G4 (the
recomposed graphs against the original ones, each captured in a CUDA graph, replays interleaved).

A recomposed module is a copy of one compiled graph's output code with some segments replaced;
the model runs it when `CompiledFxGraph.__call__` is redirected for that graph (graphs are known
by the `id()` capture recorded).
"""

from __future__ import annotations

import statistics

from .capture import Capture, _output_code_class, float64_reference_or_none
from .compare import closeness as _closeness
from .compare import max_abs_err as _max_abs_err
from .compare import rel_exceed
from .buffers import digest
from .compare import park
from .errors import failure
from .problem import named_state as _named_state
from .problem import run_forward, seed_state


class redirected:
    """While active, compiled graph i runs `modules[i].call` instead of its own code."""

    def __init__(self, cap: Capture, modules: dict):
        self.cap = cap
        self.modules = modules
        self._saved = None

    def __enter__(self):
        cls = _output_code_class()
        self._saved = original = cls.__call__
        ids, modules = self.cap.graph_ids, self.modules

        def dispatch(graph, inputs):
            module = modules.get(ids.get(id(graph)))
            return original(graph, inputs) if module is None else module.call(inputs)

        cls.__call__ = dispatch
        return self

    def __exit__(self, *exc):
        _output_code_class().__call__ = self._saved
        return False


def _tensors(out) -> list:
    import torch

    items = out if isinstance(out, (list, tuple)) else [out]
    return [t.detach() for t in items if isinstance(t, torch.Tensor)]


def _forward(cap: Capture, inputs: list) -> list:
    import torch

    with torch.no_grad():
        out = _tensors(cap.compiled(*inputs))
    if any(t.is_cuda for t in out):
        torch.cuda.synchronize()
    return out


def _against_eager(outputs, eager, prefix: str = "") -> dict:
    """G3's numbers against eager: the smallest tolerance at which the outputs are allclose to
    eager's and whether their NaN and infinities sit alike (the engine compares the tolerance with
    its own), and the largest absolute error."""
    close = _closeness(outputs, eager)
    return {f"{prefix}tol_vs_eager": close["tol"], f"{prefix}nonfinite_match": close["nonfinite_match"],
            f"{prefix}max_abs_vs_eager": _max_abs_err(outputs, eager)}


def _state(problem, inputs: list) -> dict:
    """The digests of what a forward pass could change besides its outputs: the inputs, and the
    model's parameters and buffers, by name."""
    import torch

    named = {f"input {i}": t for i, t in enumerate(inputs) if isinstance(t, torch.Tensor)}
    named.update(_named_state(problem))
    return {name: digest(t) for name, t in named.items()}


def _changed(before: dict, after: dict) -> set:
    return {name for name in before if after.get(name) != before[name]}


def _sharing(outputs: list, inputs: list) -> list:
    """Indices of outputs whose storage is an input's (a view of it, or the input itself)."""
    import torch

    held = {t.untyped_storage().data_ptr() for t in inputs if isinstance(t, torch.Tensor)}
    return [i for i, t in enumerate(outputs) if t.untyped_storage().data_ptr() in held]


# Inputs of a seed up to this many bytes in all are kept on the host for _restore; larger ones
# are drawn again from the seed when needed (and checked against their first digest).
_HOST_INPUTS_LIMIT = 1 << 30


def _restore(problem, cap: Capture, seed, names) -> list:
    """Puts back what a candidate changed that the compiled model leaves alone, so that the next
    candidate meets the state the first one did: parameters and buffers from the host snapshot,
    inputs from theirs or drawn again from the seed. Each tensor keeps its identity (graphs may
    hold it). Returns the names that could not be put back."""
    import torch

    inputs, state = cap.inputs_by_seed[seed], _named_state(problem)
    kept, fresh, lost = cap.inputs_snapshot_by_seed[seed], None, []
    with torch.no_grad():
        for name in sorted(names):
            if name in state:
                state[name].copy_(cap.state_snapshot[name])
                continue
            index = int(name.removeprefix("input "))
            if kept[index] is not None:
                inputs[index].copy_(kept[index])
                continue
            fresh = fresh if fresh is not None else problem.make_inputs(seed)
            if digest(fresh[index]) == cap.inputs_digest_by_seed[seed][index]:
                inputs[index].copy_(fresh[index])
            else:
                lost.append(name)
    return lost


def _host_copy(t):
    import torch

    return t.detach().to("cpu", copy=True) if isinstance(t, torch.Tensor) else t


def _keep_inputs(cap: Capture, seed, inputs: list) -> None:
    """The first digests of a seed's inputs, and host copies when they are small enough."""
    import torch

    tensors = [t for t in inputs if isinstance(t, torch.Tensor)]
    small = sum(t.numel() * t.element_size() for t in tensors) <= _HOST_INPUTS_LIMIT
    cap.inputs_digest_by_seed[seed] = [digest(t) if isinstance(t, torch.Tensor) else None for t in inputs]
    cap.inputs_snapshot_by_seed[seed] = [_host_copy(t) if small else None for t in inputs]


def _here(call):
    return call()


def model_check_seed(problem, cap: Capture, modules: dict, seed, under=_here) -> dict:
    """G3's numbers for one seed (with its parameters: seed_state); `error` set (numbers left
    out) when the recomposed model raised. `under(call)` runs the recomposed forward (under the
    request's vendor knobs: `vendor/scope.py`'s KnobThread); the baseline's forward runs here."""
    if cap.state_snapshot is None:
        cap.state_snapshot = {n: _host_copy(t) for n, t in _named_state(problem).items()}
    with seed_state(problem, seed, cap.redrawn_by_seed):
        return _model_check(problem, cap, modules, seed, under)


def _model_check(problem, cap: Capture, modules: dict, seed, under) -> dict:
    inputs = cap.inputs_by_seed[seed]
    if seed not in cap.inputs_snapshot_by_seed:
        _keep_inputs(cap, seed, inputs)
    if seed not in cap.eager_by_seed:
        cap.eager_by_seed[seed] = park([t.clone() for t in run_forward(problem, inputs)])
    if seed not in cap.f64_by_seed:
        ref64 = float64_reference_or_none(cap, problem, inputs)
        if ref64 is not None:
            cap.f64_by_seed[seed] = park(ref64)
    eager, ref64 = cap.eager_by_seed[seed], cap.f64_by_seed.get(seed)

    def err_f64(outputs):
        return None if ref64 is None else _max_abs_err(outputs, ref64)

    def rel_f64(outputs):
        return None if ref64 is None else rel_exceed(outputs, ref64)

    if seed not in cap.baseline_check_by_seed:
        before = _state(problem, inputs)
        baseline = _forward(cap, inputs)
        cap.baseline_check_by_seed[seed] = {"baseline_err_f64": err_f64(baseline),
                                             "baseline_rel_f64": rel_f64(baseline),
                                             "elements": sum(t.numel() for t in baseline),
                                             **_against_eager(baseline, eager, "baseline_"),
                                             "baseline_state_changed": sorted(_changed(before, _state(problem, inputs))),
                                             "baseline_outputs_sharing_inputs": _sharing(baseline, inputs)}
        del baseline
    base = dict(cap.baseline_check_by_seed[seed])
    if ref64 is None:
        base["float64_error"] = cap.f64_error
    before = _state(problem, inputs)
    try:
        with redirected(cap, modules):
            candidate = under(lambda: _forward(cap, inputs))
    except Exception as exc:  # the recomposed model's failure is data: its error is infinite
        candidate, error = None, failure(exc)
    changed = _changed(before, _state(problem, inputs))
    if candidate is None:
        inf = float("inf")
        result = {"seed": seed, "error": error, "tol_vs_eager": inf, "nonfinite_match": False,
                  "max_abs_vs_eager": inf, "candidate_err_f64": inf, **base}
    else:
        result = {"seed": seed, "error": None, "outputs": len(candidate), **_against_eager(candidate, eager),
                  "candidate_err_f64": err_f64(candidate), "candidate_rel_f64": rel_f64(candidate),
                  "state_changed": sorted(changed),
                  "outputs_sharing_inputs": _sharing(candidate, inputs), **base}
    # After the numbers: an output may be the very tensor put back.
    lost = _restore(problem, cap, seed, changed - set(base["baseline_state_changed"]))
    if lost:  # the next candidates would meet another state: the session stops the worker
        result["state_not_restored"] = lost
    return result


def _replayable(cap: Capture, modules: dict, seed):
    """All graphs' `call`s in the model's call order, captured in one CUDA graph."""
    return replayable_with_outputs(cap, modules, seed)[0]


def replayable_with_outputs(cap: Capture, modules: dict, seed):
    """(the CUDA graph of all graphs' `call`s in call order, the tensors those calls returned
    while it was captured: where each replay leaves its results)."""
    import torch

    calls = [(modules[i], cap.graphs[i].args_by_seed[seed]) for i in cap.order]

    def run_all():
        return [t for module, args in calls for t in _tensors(module.call(list(args)))]

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            run_all()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        outputs = run_all()
    torch.cuda.synchronize()
    return graph, outputs


def capture_order(instances: int) -> list[str]:
    """Which side each capture belongs to, in turns that start with the baseline and mirror each
    other ("b c", "c b", "b c", ...), so that neither side always gets the first pool address."""
    order: list[str] = []
    for k in range(instances):
        order += ["b", "c"] if k % 2 == 0 else ["c", "b"]
    return order


def pool_instances(per_instance: list[list[float]]) -> list[float]:
    """One side's samples of several captured instances, taken in turns, as one list in the order
    they were taken (instance 0's first sample, instance 1's first, ...)."""
    return [s for turn in zip(*per_instance) for s in turn]


def time_pair(cap: Capture, original: dict, recomposed: dict, iters: int, warmup: int,
              instances: int = 3, under=_here, baseline: dict | None = None) -> dict:
    """Baseline and candidate, each captured `instances` times in CUDA graphs (the captures in
    mirrored turns), every instance replayed in turns with the others, L2 flushed before each.

    One capture is not enough: where a graph's private memory pool puts its buffers changes how
    fast vendor kernels run inside it (L2/61's cuDNN dgrad: the same baseline captured twice ran at
    2.63 and 2.84 ms), so a single pair of captures can make a neutral candidate look 8% faster or
    slower. Each side's samples are pooled over its instances and also given per instance (the
    engine's interval resamples instances, then samples within them).
    An instance after the first of each side that runs out of memory ends the capturing there.

    `under(call)` runs the candidate side's captures and direct calls (under the request's
    vendor knobs: `vendor/scope.py`'s KnobThread). `baseline`: recomposed modules the baseline
    side runs in place of the original ones (a chosen set, against which a knob alone is timed)."""
    import torch

    from .timing import time_interleaved

    from .replays import Alternation, check_direct, check_replays

    seed = next(iter(cap.inputs_by_seed))
    base_modules = {**original, **(baseline or {})}
    merged = {**original, **recomposed}
    graphs: dict[str, list] = {"b": [], "c": []}
    for side in capture_order(max(1, instances)):
        try:
            if side == "b":
                graphs[side].append(replayable_with_outputs(cap, base_modules, seed))
            else:
                graphs[side].append(under(lambda: replayable_with_outputs(cap, merged, seed)))
        except torch.cuda.OutOfMemoryError as exc:
            if not graphs[side]:
                if side == "b":
                    raise
                return {"error": failure(exc)}
            break
        except Exception as exc:  # a candidate that cannot be captured or run is data
            if side == "b":
                raise
            return {"error": failure(exc)}
    count = min(len(graphs["b"]), len(graphs["c"]))  # >= 1: each side's first capture succeeded
    pairs = [g for k in range(count) for g in (graphs["b"][k], graphs["c"][k])]
    per_iter = max(5, -(-iters // count))
    # The graphs' static inputs hold one seed's values on even turns and another's on odd ones:
    # a candidate that remembers results by address, or computes otherwise while captured, is
    # seen when its replays are checked afterwards.
    alternation = Alternation(cap, seed)
    try:
        samples = time_interleaved([g.replay for g, _ in pairs], iters=per_iter, warmup=warmup,
                                   between=alternation.turn)
        replays = check_replays(cap, alternation, pairs)
    finally:
        alternation.restore()
    base_runs, cand_runs = samples[0::2], samples[1::2]
    del graphs, pairs
    torch.cuda.empty_cache()
    replays = check_direct(cap, alternation, base_modules, merged, replays, candidate_under=under)
    base_ms, cand_ms = pool_instances(base_runs), pool_instances(cand_runs)
    alternated_with = alternation.other if alternation.alternates else None
    return {"error": None, "seed": seed, "instances": count, "alternated_with": alternated_with,
            "replay_checks": replays,
            "baseline_ms": [round(s, 6) for s in base_ms],
            "candidate_ms": [round(s, 6) for s in cand_ms],
            "baseline_instance_ms": [[round(s, 6) for s in r] for r in base_runs],
            "candidate_instance_ms": [[round(s, 6) for s in r] for r in cand_runs],
            "baseline_instance_median_ms": [statistics.median(r) for r in base_runs],
            "candidate_instance_median_ms": [statistics.median(r) for r in cand_runs],
            "baseline_median_ms": statistics.median(base_ms), "candidate_median_ms": statistics.median(cand_ms)}
