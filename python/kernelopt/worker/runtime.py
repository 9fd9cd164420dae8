"""The runtime record (`runtime.json`): what `kernelopt.load` needs to run the verified graphs
as they were measured, written at capture from the first seed's compiled forward.

- `environment`: the device, GPU, compute capability and the torch, triton and CUDA versions the
  graphs were compiled and verified with (`load` refuses another unless asked to verify again);
- `inputs` and `state`: the model's inputs (shape, stride, dtype) and its parameters and buffers
  by name (shape, dtype, device), against which `load(dir, model=...)` checks a model;
- `calls`: each compiled graph's call in call order with where every argument comes from (a
  parameter or buffer by name, a model input by position, an output of an earlier call, or a
  plain value), and `returns`: where every value the forward returns comes from.

Where every argument and returned value is bound (`direct`), the forward is exactly the chain of
the graphs' calls: `load` runs them itself, captured in one CUDA graph as G4 timed them, without
torch.compile. Otherwise (`why_not_direct` says why: eager code between graph breaks, an input
the forward changes, a nested return value) `load` runs the model under torch.compile with the
verified graphs in place of Inductor's.
"""

from __future__ import annotations

import sys

SCHEMA = "kernelopt.runtime/1"
FILE = "runtime.json"
_PLAIN = (bool, int, float, str, type(None))


def environment(device: str) -> dict:
    """The versions and the GPU that decide which kernels Inductor writes and how they run."""
    import torch

    info = {"device": device, "torch": torch.__version__, "python": sys.version.split()[0]}
    try:
        import triton

        info["triton"] = triton.__version__
    except ImportError:
        info["triton"] = None
    if device.startswith("cuda"):
        props = torch.cuda.get_device_properties(torch.device(device))
        info.update({"gpu": props.name, "capability": f"{props.major}.{props.minor}",
                     "cuda": torch.version.cuda})
    return info


def device_of(inputs: list, state: dict) -> str:
    """The device of the first tensor among the model's state and inputs, with its index."""
    import torch

    for t in list(state.values()) + list(inputs):
        if isinstance(t, torch.Tensor):
            return str(_indexed(t.device))
    return "cpu"


def _indexed(device):
    import torch

    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        return torch.device("cuda", torch.cuda.current_device())
    return device


class Recorder:
    """Keeps every compiled graph's call of one forward (its arguments before the call and its
    outputs) until `record` reads them."""

    def __init__(self):
        self.calls: list = []  # (graph index, arguments, outputs)

    def add(self, index: int, args: list, outputs) -> None:
        self.calls.append((index, list(args), outputs))


def record(recorder: Recorder, inputs: list, state: dict, returned, changed: list, training: bool) -> dict:
    """The runtime record of one forward: `state` is the model's tensors by name (problem's
    `named_state`), `returned` what the compiled forward returned, `changed` the inputs and state
    the forward changed (a direct replay would not change them), `training` the model's flag."""
    from .problem import describe_tensor

    binder = _Binder(inputs, state)
    calls, why = [], [f"the forward changes {', '.join(changed)}"] if changed else []
    for k, (index, args, outputs) in enumerate(recorder.calls):
        bound = [binder.bind(a, f"argument {j} of call {k} (graph {index})", why) for j, a in enumerate(args)]
        calls.append({"graph": index, "args": bound, "outputs": len(outputs)})
        binder.produced(k, outputs)
    returns = _returns(binder, returned, why)
    return {"schema": SCHEMA, "environment": environment(device_of(inputs, state)),
            "inputs": [describe_tensor(t) if _is_tensor(t) else {"value": repr(t)[:80]} for t in inputs],
            "state": {name: {k: v for k, v in describe_tensor(t).items() if k != "stride"}
                      for name, t in state.items()},
            "training": training, "calls": calls, "returns": returns, "direct": not why,
            "why_not_direct": why[0] if why else ""}


def _is_tensor(value) -> bool:
    import torch

    return isinstance(value, torch.Tensor)


class _Binder:
    """Where a tensor comes from, by identity: the model's state, its inputs, earlier calls."""

    def __init__(self, inputs: list, state: dict):
        self.by_id = {id(t): {"state": name} for name, t in state.items()}
        self.by_id.update({id(t): {"input": i} for i, t in enumerate(inputs) if _is_tensor(t)})
        self.keep = list(inputs) + list(state.values())  # ids stay valid while these live

    def produced(self, call: int, outputs) -> None:
        for j, t in enumerate(outputs):
            if _is_tensor(t) and id(t) not in self.by_id:
                self.by_id[id(t)] = {"output": [call, j]}
                self.keep.append(t)

    def bind(self, value, what: str, why: list):
        if _is_tensor(value):
            if id(value) in self.by_id:
                return self.by_id[id(value)]
            why.append(f"{what} is a tensor made outside the compiled graphs")
            return None
        if isinstance(value, _PLAIN) or type(value).__name__ in ("SymInt", "SymFloat", "SymBool"):
            return {"value": _plain(value)}
        why.append(f"{what} is a {type(value).__name__}")
        return None


def _plain(value):
    for kind in (bool, int, float):
        if type(value).__name__ == "Sym" + kind.__name__.capitalize():
            return kind(value)
    return value


def _returns(binder: _Binder, returned, why: list):
    """{"kind": "tensor" | "tuple" | "list", "items": [binding]}, or None when the forward
    returns something else (a dict, nested sequences, an object)."""
    if _is_tensor(returned):
        kind, items = "tensor", [returned]
    elif type(returned) in (tuple, list):
        kind, items = type(returned).__name__, list(returned)
    else:
        why.append(f"the forward returns a {type(returned).__name__}")
        return None
    bound = [binder.bind(v, f"returned value {i}", why) for i, v in enumerate(items)]
    return {"kind": kind, "items": bound}
