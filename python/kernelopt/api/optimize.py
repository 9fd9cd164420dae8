"""`kernelopt.optimize(model, example_inputs)`: the engine's `optimize` on the user's own module.

The module and its inputs become a problem file (problem_file.py) in OUT_DIR/problem/; the
engine searches with OUT_DIR as its run directory (`kernelopt optimize OUT_DIR/problem/problem.py
-o OUT_DIR`), printing its progress and report as on the command line; the result is loaded with
the caller's model.
"""

from __future__ import annotations

import os
import tempfile
from typing import NamedTuple

from .engine import EngineError, find_engine, optimize_flags, run_engine
from .load import complete_artifact, load, read_artifact
from .problem_file import checked_inputs, write_problem
from .report import Report


class Optimized(NamedTuple):
    """What `optimize` returns; unpacks as `module, report = kernelopt.optimize(...)`."""

    module: object  # an OptimizedModule, or torch.compile(model, mode="max-autotune") if none was accepted
    report: Report


def optimize(model, example_inputs, *, budget_s: float = 180.0, out_dir=None, **search_options) -> Optimized:
    """Searches faster Triton kernels for `model` on `example_inputs` and returns the module that
    runs the verified ones with the report.

    model: an nn.Module, pickled whole for the engine's worker (its classes must be importable
      from a module file, or defined in the script being run: see docs/python-api.md).
    example_inputs: a tensor or a tuple/list of tensors, the forward's positional arguments.
    budget_s: seconds of GPU time for the search (`--budget`).
    out_dir: the run directory (default: a fresh temporary one); `report.run_dir` names it.
    search_options: the engine's search flags by keyword: beam_width, rounds, no_beam,
      no_profile, no_memory, no_perf_gate, no_dispatch_aware, split_segments, cache, no_cache,
      vendor, llm, llm_base_url, llm_max_tokens, llm_record, llm_replay, llm_price, timeout,
      gate_timeout, samples, sanitize, deployed_iters, no_deployed. An unknown one or a wrong
      type raises TypeError, a value out of range ValueError, before anything runs.

    When a replacement was accepted, `module` runs it on `model`'s own parameters (if the model
    sits on the device it was verified on; otherwise on a copy built there), captured in a CUDA
    graph. Otherwise `module` is torch.compile(model, mode="max-autotune"), the baseline.
    """
    import torch

    inputs = checked_inputs(model, example_inputs)
    flags = optimize_flags(budget_s, search_options)
    engine = find_engine()
    run_dir = os.path.abspath(os.fspath(out_dir)) if out_dir is not None else tempfile.mkdtemp(prefix="kernelopt-")
    problem = write_problem(model, inputs, os.path.join(run_dir, "problem"))
    document = os.path.join(run_dir, "optimize.json")
    if os.path.exists(document):
        os.remove(document)  # an earlier run's: only this run's may be read
    status = run_engine(["optimize", problem, "-o", run_dir, *flags], engine)
    if not os.path.isfile(document):
        raise EngineError(f"kernelopt.optimize: the engine failed with status {status} (its message is above); "
                          f"the run is in {run_dir}")
    report = Report.from_run(run_dir)
    if report.optimized_dir is None:
        return Optimized(torch.compile(model, mode="max-autotune"), report)
    complete_artifact(run_dir, os.path.dirname(problem))
    runtime = read_artifact(report.optimized_dir)[2]
    device = runtime["environment"]["device"] if runtime else "cuda"
    return Optimized(load(report.optimized_dir, model=_on(model, device), device=device), report)


def _on(model, device: str):
    """`model` when its tensors sit on `device`, the one the module was verified on, else None
    (load then builds a copy there from the problem file)."""
    tensors = list(model.parameters()) + list(model.buffers())
    return model if all(str(t.device) == device for t in tensors) else None
