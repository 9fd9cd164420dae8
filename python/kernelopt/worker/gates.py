"""Model-level measurements: G3 (the recomposed model against eager and float64) and G4 (the
recomposed graphs against the original ones, each captured in a CUDA graph, replays interleaved).

A recomposed module is a copy of one compiled graph's output code with some segments replaced;
the model runs it when `CompiledFxGraph.__call__` is redirected for that graph (graphs are known
by the `id()` capture recorded).
"""

from __future__ import annotations

import statistics

from .capture import Capture, _output_code_class, float64_reference
from .compare import allclose as _allclose
from .compare import max_abs_err as _max_abs_err
from .compare import park
from .errors import failure
from .problem import run_forward


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


def model_check_seed(problem, cap: Capture, modules: dict, seed) -> dict:
    """G3's numbers for one seed; `error` set (numbers left out) when the recomposed model raised."""
    inputs = cap.inputs_by_seed[seed]
    if seed not in cap.eager_by_seed:
        cap.eager_by_seed[seed] = park([t.clone() for t in run_forward(problem, inputs)])
    if seed not in cap.f64_by_seed:
        cap.f64_by_seed[seed] = park(float64_reference(problem, inputs))
    eager, ref64 = cap.eager_by_seed[seed], cap.f64_by_seed[seed]
    baseline = _forward(cap, inputs)
    try:
        with redirected(cap, modules):
            candidate = _forward(cap, inputs)
    except Exception as exc:  # the recomposed model's failure is data: its error is infinite
        inf = float("inf")
        return {"seed": seed, "error": failure(exc), "allclose_1e4": False, "max_abs_vs_eager": inf,
                "candidate_err_f64": inf, "baseline_err_f64": _max_abs_err(baseline, ref64)}
    return {"seed": seed, "error": None,
            "outputs": len(candidate),
            "max_abs_vs_eager": _max_abs_err(candidate, eager),
            "allclose_1e4": _allclose(candidate, eager, 1e-4),
            "candidate_err_f64": _max_abs_err(candidate, ref64),
            "baseline_err_f64": _max_abs_err(baseline, ref64),
            "baseline_max_abs_vs_eager": _max_abs_err(baseline, eager),
            "baseline_allclose_1e4": _allclose(baseline, eager, 1e-4)}


def _replayable(cap: Capture, modules: dict, seed):
    """All graphs' `call`s in the model's call order, captured in one CUDA graph."""
    import torch

    calls = [(modules[i], cap.graphs[i].args_by_seed[seed]) for i in cap.order]

    def run_all():
        for module, args in calls:
            module.call(list(args))

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            run_all()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        run_all()
    torch.cuda.synchronize()
    return graph


def time_pair(cap: Capture, original: dict, recomposed: dict, iters: int, warmup: int) -> dict:
    """Baseline and candidate CUDA graphs, replayed alternately (baseline first), L2 flushed."""
    from .timing import time_interleaved

    seed = next(iter(cap.inputs_by_seed))
    baseline = _replayable(cap, original, seed)
    try:
        candidate = _replayable(cap, {**original, **recomposed}, seed)
    except Exception as exc:  # a candidate that cannot be captured or run is data
        return {"error": failure(exc)}
    base_ms, cand_ms = time_interleaved([baseline.replay, candidate.replay], iters=iters, warmup=warmup)
    del baseline, candidate
    return {"error": None, "seed": seed, "baseline_ms": [round(s, 6) for s in base_ms],
            "candidate_ms": [round(s, 6) for s in cand_ms],
            "baseline_median_ms": statistics.median(base_ms), "candidate_median_ms": statistics.median(cand_ms)}
