"""`kernelopt.load(dir)`: the optimized module written by `kernelopt verify` / `optimize`.

RUN_DIR/optimized/ holds the problem file, every compiled graph's module (the recomposed ones
with their candidates' files beside them) and manifest.json. `load` builds the problem's model,
compiles it with the manifest's mode, and runs the i-th compiled graph (in order of first call,
as at capture) through `graph_i.py` instead of Inductor's own module.
"""

from __future__ import annotations

import json
import os

from .worker.problem import load_problem
from .worker.session import _load_module


class OptimizedModel:
    """Callable with the problem's own inputs; returns what the model's forward returns."""

    def __init__(self, compiled, modules: list):
        self._compiled = compiled
        self._modules = modules
        self._ids: dict = {}

    def __call__(self, *inputs):
        import torch
        from torch._inductor.output_code import CompiledFxGraph

        original = CompiledFxGraph.__call__
        ids, modules = self._ids, self._modules

        def dispatch(graph, args):
            index = ids.setdefault(id(graph), len(ids))
            if index >= len(modules):
                raise RuntimeError("the model compiled into more graphs than the optimized module has")
            return modules[index].call(args)

        CompiledFxGraph.__call__ = dispatch
        try:
            with torch.no_grad():
                return self._compiled(*inputs)
        finally:
            CompiledFxGraph.__call__ = original


def load(path: str, device: str = "cuda") -> OptimizedModel:
    """The optimized module in `path` as a callable taking the model's own inputs."""
    import torch

    with open(os.path.join(path, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    if manifest.get("schema") != "kernelopt.optimized/1":
        raise ValueError(f"{path}: not a kernelopt optimized module")
    problem = load_problem(os.path.join(path, manifest["problem"]), device)
    modules = [_load_module(os.path.join(path, name), f"kernelopt_optimized_{i}", {})
               for i, name in enumerate(manifest["graphs"])]
    compiled = torch.compile(problem.model, mode=manifest.get("mode", "max-autotune-no-cudagraphs"))
    return OptimizedModel(compiled, modules)
