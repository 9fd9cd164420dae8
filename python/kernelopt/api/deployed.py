"""The module as a user deploys it: `kernelopt.load(dir)` against `torch.compile(model,
mode="max-autotune")`, each called with the model's inputs as a user calls it.

The performance gate (G4) times both sides as CUDA graphs replayed on inputs that stay in place.
A deployed module is called with fresh inputs: a CUDA-graphed one (`load`'s, and max-autotune's
CUDA graph trees alike) copies them into its graph's own buffers on every call, and runs some
Python around the replay. Where those are a noticeable part of the forward (a large input, a
short model) the speedup a user gets is less than G4's. `measure` times what the user gets, in
turns with the L2 flushed before each call (worker/timing.py), so `optimize` reports both.

Three sides, one model instance (the problem file's, on the GPU), the problem's seed-0 inputs:
- the baseline: `torch.compile(model, mode="max-autotune")`, called with the inputs;
- the module: `kernelopt.load(dir, model=model)` as loaded by default, called with the inputs
  (it copies them, replays, and returns copies of the outputs);
- the module in place: the inputs written into `module.static_inputs()` once, the module called
  with those (no copy) and returning the graph's own outputs (`clone_outputs=False`): what a
  caller who keeps its inputs in the graph's buffers gets.
"""

from __future__ import annotations

import os
import time

BASELINE = "torch.compile(model, mode='max-autotune'), called with the inputs"
MODULE = "kernelopt.load(dir, model=model), called with the inputs"
IN_PLACE = ("kernelopt.load(dir, model=model, clone_outputs=False), called with its static_inputs() "
            "(no input copy, outputs not cloned)")


def max_abs(outputs: list, reference: list) -> float:
    """The largest absolute difference of `outputs` from `reference` (inf if they differ in number)."""
    if len(outputs) != len(reference):
        return float("inf")
    return max((float((a.double() - b.double()).abs().max()) if a.numel() else 0.0)
               for a, b in zip(outputs, reference))


def caller(fn, args: list):
    """A no-argument call of `fn(*args)` under no_grad, for `time_interleaved`."""
    import torch

    def run():
        with torch.no_grad():
            fn(*args)
    return run


def in_place_inputs(module, inputs: list) -> list:
    """`inputs` written into `module.static_inputs()`: the arguments that call it without an input
    copy (a plain value stays the caller's). RuntimeError where the module runs without a CUDA
    graph, as `static_inputs()` raises."""
    import torch

    static = module.static_inputs()
    for slot, x in zip(static, inputs):
        if isinstance(slot, torch.Tensor):
            slot.copy_(x)
    return [s if s is not None else x for s, x in zip(static, inputs)]


def measure(folder: str, iters: int = 200, warmup: int = 10) -> dict:
    """Times the three sides (module docstring) in turns; returns each side's samples (ms) and
    how it ran, the bytes of the inputs a CUDA-graphed side copies per call, each side's largest
    absolute difference from eager on the inputs, and the seconds each setup took. ValueError for
    bad arguments; RuntimeError where the GPU or the module is missing."""
    import torch

    from ..worker.problem import flatten_outputs, load_problem, run_forward
    from ..worker.timing import time_interleaved
    from .load import load, read_artifact

    if not isinstance(iters, int) or iters < 5:
        raise ValueError(f"iters must be an integer of at least 5, got {iters!r}")
    if not isinstance(warmup, int) or warmup < 0:
        raise ValueError(f"warmup must be a non-negative integer, got {warmup!r}")
    if not torch.cuda.is_available():
        raise RuntimeError("timing the deployed module needs a CUDA GPU, and torch sees none")
    folder, manifest, _ = read_artifact(os.fspath(folder))
    problem = load_problem(os.path.join(folder, manifest["problem"]), "cuda")
    model, inputs = problem.model, problem.make_inputs(0)
    eager = [t.clone() for t in run_forward(problem, inputs)]

    seconds: dict = {}
    started = time.perf_counter()
    baseline = torch.compile(model, mode="max-autotune")
    module = load(folder, model=model)
    sides = [("baseline", baseline, inputs), ("module", module, inputs)]
    in_place = load(folder, model=model, clone_outputs=False)
    try:
        sides.append(("in_place", in_place, in_place_inputs(in_place, inputs)))
    except RuntimeError:  # the module runs without a CUDA graph: there is no copy to leave out
        pass
    differences = {}
    for name, fn, args in sides:  # the first call compiles (baseline) or captures (module)
        t0 = time.perf_counter()
        with torch.no_grad():
            out = [t.clone() for t in flatten_outputs(name, fn(*args))]
        torch.cuda.synchronize()
        seconds[name] = round(time.perf_counter() - t0, 3)
        differences[name] = max_abs(out, eager)
        del out

    samples = time_interleaved([caller(fn, args) for _, fn, args in sides], iters=iters, warmup=warmup)
    seconds["total"] = round(time.perf_counter() - started, 3)
    how = {"baseline": BASELINE, "module": f"{MODULE}: {module.how}", "in_place": IN_PLACE}
    return {**{f"{name}_ms": times for (name, _, _), times in zip(sides, samples)},
            "how": {name: how[name] for name, _, _ in sides},
            "input_bytes": sum(t.numel() * t.element_size() for t in inputs if isinstance(t, torch.Tensor)),
            "max_abs_vs_eager": differences, "seconds": seconds, "iters": iters,
            "gpu": torch.cuda.get_device_name()}
