"""Load and validate a problem file in KernelBench's format.

A problem file defines ``class Model(nn.Module)``, ``get_inputs()`` and ``get_init_inputs()``.
Every way it can be wrong becomes a one-line WorkerError naming the file and the cause.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from .errors import WorkerError, is_out_of_memory, one_line, problem_error
from .stress import transform_inputs

INIT_SEED = 42  # weights are drawn with this seed; inputs with the request's seeds


@dataclass
class Problem:
    """A loaded problem: the module, the model on its device, and how to make inputs."""

    path: str
    name: str
    device: str
    module: Any
    model: Any
    init_inputs: list = field(default_factory=list)

    def make_inputs(self, seed: int) -> list:
        """The problem's inputs for one seed, on the problem's device (a stress seed's
        transformed, stress.py)."""
        import torch

        torch.manual_seed(seed)
        with torch.device(self.device):
            inputs = _call(self.path, "get_inputs()", self.module.get_inputs)
        if not isinstance(inputs, (list, tuple)):
            raise problem_error(self.path, f"get_inputs() must return a list, got {type(inputs).__name__}")
        return transform_inputs(seed, [x.to(self.device) if isinstance(x, torch.Tensor) else x for x in inputs])


def _call(path: str, what: str, fn, *args):
    """Runs problem code, turning its exceptions into problem errors."""
    try:
        return fn(*args)
    except WorkerError:
        raise
    except Exception as exc:  # the problem's own code may raise anything
        if is_out_of_memory(exc):
            raise problem_error(path, f"{what} needs more memory than the device has ({one_line(exc)})") from exc
        raise problem_error(path, f"{what} raised {one_line(exc)}") from exc


def import_problem(path: str, label: str):
    """Imports the file as a fresh module; syntax errors and import-time exceptions are errors."""
    if not os.path.isfile(path):
        raise problem_error(label, "no such file")
    name = "kernelopt_problem_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise problem_error(label, "not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        source = open(path, encoding="utf-8").read()
        compile(source, path, "exec")
    except SyntaxError as exc:
        raise problem_error(label, f"syntax error at line {exc.lineno}: {exc.msg}") from exc
    except UnicodeDecodeError as exc:
        raise problem_error(label, "is not UTF-8 text") from exc
    sys.modules[name] = module
    _call(label, "importing the file", spec.loader.exec_module, module)
    return module


def _check_interface(path: str, module) -> None:
    import torch

    model_cls = getattr(module, "Model", None)
    if model_cls is None:
        raise problem_error(path, "defines no `Model` class")
    if not (isinstance(model_cls, type) and issubclass(model_cls, torch.nn.Module)):
        raise problem_error(path, "`Model` is not a subclass of torch.nn.Module")
    if not callable(getattr(module, "get_inputs", None)):
        raise problem_error(path, "defines no `get_inputs()` function")


def flatten_outputs(path: str, out) -> list:
    """The tensors a forward returned, in order; a forward that returns none is an error."""
    import torch

    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        tensors = [x for x in out if isinstance(x, torch.Tensor)]
        if tensors:
            return tensors
    raise problem_error(path, f"forward returns no tensor (got {type(out).__name__})")


def load_problem(path: str, device: str, label: str = "") -> Problem:
    """Imports, checks and builds the problem's model on `device`. Errors name the file as
    `label` (the path as the user wrote it), else as its absolute path."""
    import torch

    path = os.path.abspath(path)
    module = import_problem(path, label or path)
    path = label or path
    _check_interface(path, module)
    torch.manual_seed(INIT_SEED)
    get_init = getattr(module, "get_init_inputs", None)
    init_inputs = _call(path, "get_init_inputs()", get_init) if callable(get_init) else []
    if not isinstance(init_inputs, (list, tuple)):
        raise problem_error(path, "get_init_inputs() must return a list")
    with torch.device(device):
        model = _call(path, "Model(*get_init_inputs())", module.Model, *init_inputs)
    model = _call(path, "moving the model to the device", model.to, device)
    name = os.path.splitext(os.path.basename(path))[0]
    return Problem(path=path, name=name, device=device, module=module, model=model,
                   init_inputs=list(init_inputs))


def named_state(problem: Problem) -> dict:
    """The model's parameters and buffers by name ("parameter NAME", "buffer NAME")."""
    return model_state(problem.model)


def model_state(model) -> dict:
    """A module's parameters and buffers by name ("parameter NAME", "buffer NAME")."""
    import torch

    if not isinstance(model, torch.nn.Module):
        return {}
    return {**{f"parameter {n}": p for n, p in model.named_parameters()},
            **{f"buffer {n}": b for n, b in model.named_buffers()}}


class seed_state:
    """While active, the model's state is the seed's: a stress seed that redraws parameters and
    buffers copies its values in (computed once, kept in `cache`) and puts the previous values
    back on exit; any other seed leaves the model alone. Tensors keep their identity (compiled
    graphs hold them)."""

    def __init__(self, problem: Problem, seed, cache: dict):
        self.problem, self.seed, self.cache = problem, seed, cache
        self._saved: dict = {}

    def __enter__(self):
        import torch

        from .stress import kind, redrawn_state

        if kind(self.seed) != "redrawn":
            return self
        state = named_state(self.problem)
        if self.seed not in self.cache:
            self.cache[self.seed] = redrawn_state(self.seed, state)
        with torch.no_grad():
            for name, value in self.cache[self.seed].items():
                self._saved[name] = state[name].detach().to("cpu", copy=True)
                state[name].copy_(value)
        return self

    def __exit__(self, *exc):
        import torch

        state = named_state(self.problem)
        with torch.no_grad():
            for name, value in self._saved.items():
                state[name].copy_(value)
        self._saved = {}
        return False


def run_forward(problem: Problem, inputs: list):
    """One forward pass under no_grad; returns the flat list of output tensors."""
    import torch

    with torch.no_grad():
        out = _call(problem.path, "forward()", problem.model, *inputs)
    return flatten_outputs(problem.path, out)


def describe_tensor(t) -> dict:
    return {"shape": list(t.shape), "stride": list(t.stride()), "dtype": str(t.dtype).replace("torch.", ""),
            "device": str(t.device)}


def describe_value(v) -> dict:
    import torch

    if isinstance(v, torch.Tensor):
        return describe_tensor(v)
    return {"python": type(v).__name__, "value": repr(v)[:80]}
