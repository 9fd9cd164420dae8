"""`kernelopt.load(dir)`: the optimized module written by `kernelopt optimize` / `verify`.

RUN_DIR/optimized/ holds every compiled graph's module (`graph_N.py`, recomposed where a
candidate was accepted, with its `segN.py` beside it), the problem file, `manifest.json` and
`runtime.json` (worker/runtime.py): the environment the graphs were verified in, the inputs and
the model's state they were verified with, and where each graph argument comes from. `load`
checks the environment and the model, then runs the graphs as G4 measured them (runners.py).
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import tempfile
import warnings

from ..worker.problem import load_problem, model_state
from ..worker.runtime import FILE as RUNTIME_FILE
from ..worker.runtime import environment
from .runners import Chain, Direct, Replayed, routed

_LOADS = itertools.count()  # numbers each load's graph modules: loaded modules never mix
_CHECKED = (("device", "device"), ("gpu", "GPU"), ("capability", "compute capability"), ("torch", "torch"),
            ("triton", "triton"), ("cuda", "CUDA"))


class EnvironmentMismatch(RuntimeError):
    """The module was verified with another GPU, device or torch, triton or CUDA version."""


class ModelMismatch(ValueError):
    """The model given to `load` is not the one verified (names, shapes, dtypes, device)."""


def _captured_record(run_dir: str) -> str:
    """Where a run's capture writes its runtime record (the run folder's work/graphs folder)."""
    return os.path.join(run_dir, "work", "graphs", RUNTIME_FILE)


def read_artifact(path: str) -> tuple[str, dict, dict | None]:
    """(the optimized folder, its manifest, its runtime record or None); `path` may be the run
    directory that holds `optimized/`. The record is `runtime.json` beside the manifest, else
    the one the run's capture wrote (`_captured_record`), which an engine built before it
    copied the record leaves there."""
    if os.path.isfile(os.path.join(path, "optimized", "manifest.json")):
        path = os.path.join(path, "optimized")
    try:
        with open(os.path.join(path, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
    except FileNotFoundError:
        raise FileNotFoundError(f"kernelopt.load: {path} holds no manifest.json: not an optimized module") from None
    if manifest.get("schema") != "kernelopt.optimized/1":
        raise ValueError(f"kernelopt.load: {path} is not a kernelopt optimized module")
    runtime = None
    record = os.path.join(path, RUNTIME_FILE)
    if not os.path.isfile(record):  # an engine that does not copy it yet: its run's own capture
        record = _captured_record(os.path.dirname(os.path.abspath(path)))
    if os.path.isfile(record):
        with open(record, encoding="utf-8") as f:
            runtime = json.load(f)
    return path, manifest, runtime


def device_here(device) -> str:
    """`device` with its index ("cuda" -> "cuda:0", the current device)."""
    import torch

    device = torch.device(device)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise EnvironmentMismatch("kernelopt.load: no CUDA device here (torch sees none)")
        if device.index is None:
            device = torch.device("cuda", torch.cuda.current_device())
    return str(device)


def check_environment(recorded: dict, device: str) -> None:
    """EnvironmentMismatch naming the first of device, GPU, capability, torch, triton and CUDA
    that differs from what the module was verified with."""
    here = environment(device)
    for key, label in _CHECKED:
        if recorded.get(key) != here.get(key):
            raise EnvironmentMismatch(f"kernelopt.load: {label} {here.get(key)} here, {recorded.get(key)} when "
                                      "verified; pass verify_again=True to re-run the gates here")


def check_model(model, runtime: dict) -> None:
    """ModelMismatch naming the first parameter or buffer of `model` that differs from the
    verified model's (missing, extra, shape, dtype, device), or its training flag."""
    import torch

    if not isinstance(model, torch.nn.Module):
        raise TypeError(f"kernelopt.load: model must be a torch.nn.Module, got {type(model).__name__}")
    have, want = model_state(model), runtime["state"]
    for name, spec in want.items():
        if name not in have:
            raise ModelMismatch(f"kernelopt.load: the model has no {name}, which the verified one has "
                                f"({_spec(spec)})")
        t = have[name]
        mine = {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""), "device": _indexed(t.device)}
        if mine != {k: spec[k] for k in mine}:
            raise ModelMismatch(f"kernelopt.load: {name} is {_spec(mine)}; verified as {_spec(spec)}")
    extra = [name for name in have if name not in want]
    if extra:
        raise ModelMismatch(f"kernelopt.load: the model has {extra[0]}, which the verified one has not")
    if "training" in runtime and bool(model.training) != runtime["training"]:
        mode = "training" if runtime["training"] else "eval"
        raise ModelMismatch(f"kernelopt.load: the model is in {'training' if model.training else 'eval'} mode; "
                            f"it was verified in {mode} mode")


def _spec(spec: dict) -> str:
    return f"{tuple(spec['shape'])} {spec['dtype']} on {spec['device']}"


def _indexed(device) -> str:
    import torch

    if device.type == "cuda" and device.index is None:
        return f"cuda:{torch.cuda.current_device()}"
    return str(device)


def reverify(path: str, manifest: dict) -> str:
    """Runs the engine's `verify` on the module's problem and candidates here; returns the new
    optimized folder. RuntimeError when the gates reject it here."""
    from .engine import EngineError, run_engine

    run_dir = tempfile.mkdtemp(prefix="kernelopt-verify-")
    args = ["verify", os.path.join(path, manifest["problem"]), "-o", run_dir]
    for seg in manifest.get("segments", []):
        args += ["--candidate", f"seg{seg}={os.path.join(path, f'seg{seg}.py')}"]
    status = run_engine(args)
    optimized = os.path.join(run_dir, "optimized")
    if not os.path.isfile(os.path.join(optimized, "manifest.json")):
        if status not in (0, 1):
            raise EngineError(f"kernelopt.load: kernelopt verify failed with status {status} (its message is above)")
        raise RuntimeError(f"kernelopt.load: the gates reject the module here; the verdicts are in "
                           f"{os.path.join(run_dir, 'verify.json')}")
    complete_artifact(run_dir, path)
    return optimized


def complete_artifact(run_dir: str, problem_dir: str) -> None:
    """Puts into RUN_DIR/optimized what an engine built before it copied them leaves out: the
    runtime record (`_captured_record`) and the problem's data files (from `problem_dir`)."""
    from .problem_file import DATA_PREFIX

    optimized = os.path.join(run_dir, "optimized")
    record = _captured_record(run_dir)
    if not os.path.isfile(os.path.join(optimized, RUNTIME_FILE)) and os.path.isfile(record):
        shutil.copyfile(record, os.path.join(optimized, RUNTIME_FILE))
    for name in os.listdir(problem_dir):
        if name.startswith(DATA_PREFIX) and not os.path.exists(os.path.join(optimized, name)):
            shutil.copyfile(os.path.join(problem_dir, name), os.path.join(optimized, name))


def vendor_thread(manifest: dict):
    """The KnobThread that runs the module's calls under the vendor knobs its graphs were
    verified under (the manifest's `vendor`; none in a module written before knobs existed). A
    knob this kernelopt does not know, or cannot run around the graphs, is a clear error."""
    from ..vendor.scope import KnobThread, settings_knobs

    try:
        return KnobThread(settings_knobs(manifest.get("vendor") or []))
    except ValueError as exc:
        raise ValueError(f"kernelopt.load: the module was verified under vendor knobs this kernelopt cannot "
                         f"apply: {exc}") from None


def load(path, model=None, *, device="cuda", verify_again: bool = False, clone_outputs: bool = True,
         cuda_graphs: bool = True):
    """The optimized module in `path` (RUN_DIR/optimized, or RUN_DIR) as an OptimizedModule.

    model: the model to run the graphs with (its own parameters and buffers, read in place);
      it must match the verified one (ModelMismatch names the first difference). Without it the
      problem file builds the model on `device`.
    verify_again: re-run the gates here first (`kernelopt verify` on the module's problem and
      candidates); without it a module verified elsewhere (another GPU, torch, triton or CUDA)
      raises EnvironmentMismatch.
    clone_outputs: return copies of the CUDA graph's outputs (False: the graph's own tensors,
      which the next call overwrites, as G4 timed it).
    cuda_graphs: False runs the graphs' calls directly (as on the CPU).
    """
    import torch

    from .module import OptimizedModule

    path, manifest, runtime = read_artifact(os.fspath(path))
    device = device_here(device)
    if verify_again:
        path, manifest, runtime = read_artifact(reverify(path, manifest))
    if runtime is None:
        warnings.warn(f"kernelopt.load: {path} has no {RUNTIME_FILE} (written by an older kernelopt): the "
                      "environment and the model are not checked, and it runs under torch.compile without a "
                      "CUDA graph", RuntimeWarning, stacklevel=2)
    else:
        check_environment(runtime["environment"], device)
    if model is not None and runtime is not None:
        check_model(model, runtime)
    if model is None:
        model = load_problem(os.path.join(path, manifest["problem"]), device).model
    n = next(_LOADS)
    from ..worker.session import _load_module

    modules = {i: _load_module(os.path.join(path, name), f"kernelopt_loaded_{n}_{i}", {})
               for i, name in enumerate(manifest["graphs"])}
    under = vendor_thread(manifest)
    if runtime is not None and runtime.get("direct"):
        fn, how = Chain(modules, runtime, model_state(model)), "the verified graphs' calls"
    else:
        compiled = routed(model, modules, manifest.get("mode", "max-autotune-no-cudagraphs"))
        fn, how = (lambda inputs: compiled(*inputs)), "torch.compile with the verified graphs"
        if runtime is not None:
            how += f" ({runtime.get('why_not_direct')})"
    def knobbed(inputs):  # fn under the module's vendor knobs, for the runners that call it directly
        return under(lambda: fn(inputs))

    if runtime is None:
        runner = knobbed
    elif torch.device(device).type == "cuda" and cuda_graphs:
        runner = Replayed(fn, runtime["inputs"], device, clone=clone_outputs, under=under)
    else:
        runner = Direct(knobbed, runtime["inputs"], device, "cuda_graphs=False" if cuda_graphs is False else device)
    if under.knobs:
        how += f", under the vendor knobs {', '.join(k.name for k in under.knobs)}"
    return OptimizedModule(runner, model, path, manifest, how, modules)
