"""Capture: compile the problem with Inductor and keep what the engine needs.

For every compiled graph: its output code and the real argument list it is called with (weights
are graph inputs). For every seed: eager outputs and, on request, a float64 eager reference.
"""

from __future__ import annotations

import copy
import os
import time
from dataclasses import dataclass, field

from .compare import max_abs_err as _max_abs_err
from .compare import park
from .errors import WorkerError, one_line
from .problem import Problem, describe_value, named_state, run_forward, seed_state
from .runtime import FILE as RUNTIME_FILE
from .runtime import Recorder, record
from .stress import kind


@dataclass
class Graph:
    """One compiled graph: its output code and the arguments of each seed's call."""

    index: int
    source: str
    path: str = ""
    args_by_seed: dict = field(default_factory=dict)  # seed -> list of args of its first call
    calls_by_seed: dict = field(default_factory=dict)  # seed -> how many times it ran


@dataclass
class Capture:
    graphs: list = field(default_factory=list)
    order: list = field(default_factory=list)  # graph indices in call order (first seed)
    compiled: object = None
    inputs_by_seed: dict = field(default_factory=dict)
    graph_ids: dict = field(default_factory=dict)  # id(CompiledFxGraph) -> graph index (dispatch later)
    eager_by_seed: dict = field(default_factory=dict)  # seed -> eager outputs (model_check compares)
    f64_by_seed: dict = field(default_factory=dict)  # seed -> float64 reference outputs, when computed
    f64_error: str = ""  # why the model in float64 failed (then G3 has no float64 fallback)
    # seed -> the compiled baseline's own G3 numbers (its errors against eager and float64): the
    # same for every candidate, so computed once (a GB-sized output's float64 comparisons a seed)
    baseline_check_by_seed: dict = field(default_factory=dict)
    # The model's parameters and buffers, and each seed's inputs, on the host as G3 first found
    # them: what a candidate changed that the compiled model does not is copied back from here
    # before the next one runs.
    state_snapshot: dict | None = None
    inputs_snapshot_by_seed: dict = field(default_factory=dict)  # seed -> host copies (or None)
    inputs_digest_by_seed: dict = field(default_factory=dict)  # seed -> the inputs' first digests
    redrawn_by_seed: dict = field(default_factory=dict)  # stress seed -> its parameters (seed_state)
    output_bytes: int = 0  # what the first seed's compiled outputs hold (the room a seed's copies take)
    runtime: dict = field(default_factory=dict)  # the first seed's runtime record (runtime.py)


def _output_code_class():
    from torch._inductor.output_code import CompiledFxGraph

    return CompiledFxGraph


def _float64_mode():
    """A TorchFunctionMode under which an operation that mixes float64 tensors with lower-precision
    floating ones gets those cast to float64 first: a model's float32 tensor kept as a plain
    attribute (not a parameter or buffer, so `.to(float64)` leaves it) or made with an explicit
    dtype meets float64 activations in the reference. In-place operations and `out=` calls are
    left alone (casting their target would write into a copy)."""
    import torch
    from torch.overrides import TorchFunctionMode
    from torch.utils import _pytree as pytree

    lower_floats = (torch.float32, torch.float16, torch.bfloat16)

    def lower(t):
        return isinstance(t, torch.Tensor) and t.dtype in lower_floats

    class Float64Mode(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = getattr(func, "__name__", "")
            if not name.endswith("_") and "out" not in kwargs:
                leaves = pytree.tree_leaves((args, kwargs))
                if any(isinstance(t, torch.Tensor) and t.dtype == torch.float64 for t in leaves) and \
                        any(lower(t) for t in leaves):
                    args, kwargs = pytree.tree_map(lambda t: t.double() if lower(t) else t, (args, kwargs))
            return func(*args, **kwargs)

    return Float64Mode()


def float64_reference(problem: Problem, inputs: list) -> list:
    """The model and inputs cast to float64, run eagerly. Tensors the forward creates without a
    dtype are float64 too (torch's default dtype is float64 meanwhile: KernelBench's L3/35 LSTM
    draws its initial state with torch.randn in forward), and lower-precision floating tensors
    that meet float64 ones are cast (`_float64_mode`). Raises what the forward raises."""
    import torch

    model64 = copy.deepcopy(problem.model).to(torch.float64)
    inputs64 = [x.to(torch.float64) if isinstance(x, torch.Tensor) and x.is_floating_point() else x
                for x in inputs]
    default = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        with torch.no_grad(), _float64_mode():
            out = model64(*inputs64)
    finally:
        torch.set_default_dtype(default)
    del model64
    return [t for t in (out if isinstance(out, (list, tuple)) else [out]) if isinstance(t, torch.Tensor)]


def float64_reference_or_none(cap: Capture, problem: Problem, inputs: list):
    """float64_reference, or None where the model does not run in float64: the reason is kept in
    `cap.f64_error` (G3 then has no float64 fallback), and the model is not tried again."""
    if cap.f64_error:
        return None
    try:
        return float64_reference(problem, inputs)
    except Exception as exc:
        cap.f64_error = one_line(exc)
        return None


def capture(problem: Problem, run_dir: str, seeds: list, mode: str, references: bool,
            save_references: bool = False) -> tuple[Capture, dict]:
    import torch

    if not torch.cuda.is_available():
        raise WorkerError("kernelopt.nogpu", "capture needs an NVIDIA GPU and torch sees none")
    torch._dynamo.reset()
    result = Capture(compiled=torch.compile(problem.model, mode=mode))
    by_id = result.graph_ids
    current: dict = {"seed": None, "recorder": None}
    cls = _output_code_class()
    original_call = cls.__call__

    def recording_call(self, inputs):
        index = by_id.get(id(self))
        if index is None:
            index = by_id[id(self)] = len(result.graphs)
            result.graphs.append(Graph(index=index, source=self.source_code))
        graph = result.graphs[index]
        seed = current["seed"]
        if seed not in graph.args_by_seed:
            # A seed with redrawn parameters keeps copies of them: the model's own tensors get
            # their first values back once its capture is done.
            graph.args_by_seed[seed] = [a.clone() if id(a) in current["state"] else a for a in inputs] \
                if kind(seed) == "redrawn" else list(inputs)
        graph.calls_by_seed[seed] = graph.calls_by_seed.get(seed, 0) + 1
        if seed != seeds[0]:
            return original_call(self, inputs)
        result.order.append(index)
        args = list(inputs)  # the call empties its argument list
        out = original_call(self, inputs)
        if current["recorder"] is not None:
            current["recorder"].add(index, args, out)
        return out

    per_seed = []
    compile_s = None
    cls.__call__ = recording_call
    current["state"] = {id(t) for t in named_state(problem).values()}
    dropped = []
    try:
        for seed in seeds:
            why = _no_room_for(result, seeds[0], current["state"], len(per_seed)) if len(per_seed) >= 2 else ""
            if why:
                dropped.append({"seed": seed, "why": why})
                continue
            current["seed"] = seed
            current["recorder"] = Recorder() if seed == seeds[0] else None
            with seed_state(problem, seed, result.redrawn_by_seed):
                entry, compile_s = _capture_seed(problem, result, seed, compile_s, references, run_dir,
                                                 save_references, current["recorder"])
            current["recorder"] = None
            per_seed.append(entry)
    finally:
        cls.__call__ = original_call
    _write_sources(result, run_dir)
    return result, {"compile_s": compile_s, "seeds": per_seed, "dropped_seeds": dropped,
                    "graphs": _describe_graphs(result, seeds[0]), "call_order": result.order,
                    "runtime": _write_runtime(result, run_dir)}


# What a seed holds later, in units of what the first seed keeps (its inputs and the compiled
# graphs' arguments, parameters left out): the segments' captured inputs, copied for every seed
# kept (their outputs are counted apart, from the first seed's compiled outputs); and, once, the
# gates' working room (G2's two placed copies with their guard bands, float64 references, the
# CUDA graphs G4 times).
_PROBES_PER_SEED = 1
_WORKING_ROOM = 3


def _no_room_for(result: Capture, first, state_ids: set, kept: int) -> str:
    """Why another seed cannot be kept on the device ("" when it can): with `kept` seeds kept,
    the free memory must hold this seed's inputs, every kept seed's segment copies (inputs and
    outputs) and the gates' working room. The first two seeds are always kept."""
    import torch

    held = {}
    for value in list(result.inputs_by_seed[first]) + [a for g in result.graphs for a in g.args_by_seed.get(first, [])]:
        if isinstance(value, torch.Tensor) and value.is_cuda and id(value) not in state_ids:
            held[value.untyped_storage().data_ptr()] = value.untyped_storage().nbytes()
    need = sum(held.values())
    free, _ = torch.cuda.mem_get_info()
    wanted = need * (1 + _PROBES_PER_SEED * (kept + 1) + _WORKING_ROOM) + result.output_bytes * (kept + 1)
    if wanted <= free:
        return ""
    return (f"a seed keeps {need / 2**30:.1f} GiB on the device; with {kept + 1} seeds the gates would need "
            f"{wanted / 2**30:.1f} GiB and {free / 2**30:.1f} GiB are free")


def _capture_seed(problem: Problem, result: Capture, seed, compile_s, references: bool, run_dir: str,
                  save_references: bool, recorder: Recorder | None = None):
    """One seed's run of eager and the compiled model (and the float64 reference on request);
    with a `recorder`, the runtime record of the compiled forward too."""
    import torch

    from .buffers import digest

    inputs = problem.make_inputs(seed)
    result.inputs_by_seed[seed] = inputs
    eager = [t.clone() for t in run_forward(problem, inputs)]
    named = {**{f"input {i}": t for i, t in enumerate(inputs) if isinstance(t, torch.Tensor)},
             **named_state(problem)} if recorder is not None else {}
    before = {name: digest(t) for name, t in named.items()}
    t0 = time.perf_counter()
    with torch.no_grad():
        out = result.compiled(*inputs)
    torch.cuda.synchronize()
    if compile_s is None:
        compile_s = time.perf_counter() - t0
    if recorder is not None:
        _record_runtime(problem, result, recorder, inputs, out, named, before)
    compiled_out = [t for t in (out if isinstance(out, (list, tuple)) else [out])
                    if isinstance(t, torch.Tensor)]
    entry = {"seed": seed, "compiled_vs_eager_max_abs": _max_abs_err(compiled_out, eager)}
    if not result.output_bytes:
        result.output_bytes = sum(t.numel() * t.element_size() for t in compiled_out)
    ref64 = float64_reference_or_none(result, problem, inputs) if references else None
    if references and ref64 is None:
        entry["float64_error"] = result.f64_error
    if ref64 is not None:
        entry["eager_vs_f64_max_abs"] = _max_abs_err(eager, ref64)
        entry["compiled_vs_f64_max_abs"] = _max_abs_err(compiled_out, ref64)
        ref64 = result.f64_by_seed[seed] = park(ref64)
        if run_dir and save_references:
            refs = os.path.join(run_dir, "refs")
            os.makedirs(refs, exist_ok=True)
            _save_atomic([t.cpu() for t in eager], os.path.join(refs, f"seed{seed}_eager.pt"))
            _save_atomic([t.cpu() for t in ref64], os.path.join(refs, f"seed{seed}_f64.pt"))
        del ref64
    del compiled_out, out
    result.eager_by_seed[seed] = park(eager)
    return entry, compile_s


def _record_runtime(problem: Problem, result: Capture, recorder: Recorder, inputs: list, out, named: dict,
                    before: dict) -> None:
    """The runtime record of the first seed's compiled forward (`before`: the digests of `named`,
    its inputs and state, before it). Best effort: a record that fails is left out, with the
    reason on stderr (kernelopt.load then runs the module under torch.compile, unchecked)."""
    import sys

    from .buffers import digest

    try:
        changed = [name for name, t in named.items() if digest(t) != before[name]]
        result.runtime = record(recorder, inputs, named_state(problem), out, changed,
                                bool(getattr(problem.model, "training", False)))
    except Exception as exc:  # the record serves load only: never the capture's failure  # noqa: BLE001
        print(f"kernelopt worker: no runtime record: {one_line(exc)}", file=sys.stderr)
    finally:
        recorder.calls.clear()


def _write_runtime(result: Capture, run_dir: str) -> str:
    """Writes the runtime record beside the graphs' sources; returns its path ("" for none)."""
    import json

    if not run_dir or not result.runtime:
        return ""
    path = os.path.join(run_dir, "graphs", RUNTIME_FILE)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(result.runtime, f, indent=1)
    os.replace(path + ".tmp", path)
    return path


def _save_atomic(obj, path: str) -> None:
    import torch

    tmp = path + ".tmp"
    torch.save(obj, tmp)
    os.replace(tmp, path)


def _write_sources(result: Capture, run_dir: str) -> None:
    if not run_dir:
        return
    folder = os.path.join(run_dir, "graphs")
    os.makedirs(folder, exist_ok=True)
    for g in result.graphs:
        g.path = os.path.join(folder, f"graph_{g.index}.py")
        tmp = g.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(g.source)
        os.replace(tmp, g.path)


def _describe_graphs(result: Capture, seed) -> list:
    configs = _autotuned_configs(result)
    return [{"index": g.index, "path": g.path, "calls": g.calls_by_seed.get(seed, 0),
             "args": [describe_value(a) for a in g.args_by_seed.get(seed, [])],
             "kernel_configs": configs.get(g.index, {})}
            for g in result.graphs]


def _autotuned_configs(result: Capture) -> dict:
    """graph index -> {kernel name: the launch settings Inductor's autotuner chose} (XBLOCK,
    YBLOCK, R0_BLOCK, num_warps, num_stages), read from the loaded output-code module of each graph
    after it ran: the config proposers start from them. Best effort: a graph whose module or
    kernels are not found gets none."""
    try:
        from torch._inductor.codecache import PyCodeCache
    except Exception:  # noqa: BLE001
        return {}
    by_source = {g.source: g.index for g in result.graphs}
    # Only a file of a graph's size is read (PyCodeCache also holds every Triton kernel's module).
    sizes = {len(source.encode("utf-8")) for source in by_source}
    out: dict = {}
    for module in list(getattr(PyCodeCache, "modules", [])):
        try:
            if os.path.getsize(module.__file__) not in sizes:
                continue
            with open(module.__file__, encoding="utf-8") as f:
                index = by_source.get(f.read())
        except Exception:  # noqa: BLE001
            continue
        if index is None:
            continue
        for name, kernel in vars(module).items():
            launchers = getattr(kernel, "launchers", None)
            if not name.startswith("triton_") or not launchers or len(launchers) != 1:
                continue
            config = getattr(launchers[0], "config", None)
            if config is None:
                continue
            settings = {k: v for k, v in getattr(config, "kwargs", {}).items()
                        if k in ("XBLOCK", "YBLOCK", "R0_BLOCK") and isinstance(v, int)}
            for key in ("num_warps", "num_stages"):
                if isinstance(getattr(config, key, None), int):
                    settings[key] = getattr(config, key)
            out.setdefault(index, {})[name] = settings
    return out
