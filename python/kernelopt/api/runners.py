"""How a loaded module runs the verified graphs.

- `Chain`: the graphs' `call`s in the recorded order, each argument bound to the model's
  parameter or buffer, a model input or an earlier call's output (`runtime.json`), without
  torch.compile: exactly what G4 captured and timed.
- `routed`: the model under torch.compile with a backend of its own, whose compiled graphs run
  the verified modules instead of Inductor's code. Used where the forward is more than the chain
  of its graphs (eager code between graph breaks); nothing outside this one compiled model is
  changed.
- `Replayed`: either of them captured in one CUDA graph on static inputs, replayed per call.
"""

from __future__ import annotations

import itertools
import threading
import warnings


class Chain:
    """The verified graphs' calls, bound as the runtime record says; called with the inputs."""

    def __init__(self, modules: dict, runtime: dict, state: dict):
        self.calls = [(modules[c["graph"]], c["args"]) for c in runtime["calls"]]
        self.returns = runtime["returns"]
        self.state = state  # name ("parameter W", "buffer B") -> the model's own tensor

    def __call__(self, inputs):
        outputs: list = []
        for module, bindings in self.calls:
            outputs.append(module.call([self._value(b, inputs, outputs) for b in bindings]))
        items = [self._value(b, inputs, outputs) for b in self.returns["items"]]
        if self.returns["kind"] == "tensor":
            return items[0]
        return tuple(items) if self.returns["kind"] == "tuple" else items

    def _value(self, binding: dict, inputs, outputs):
        if "state" in binding:
            return self.state[binding["state"]]
        if "input" in binding:
            return inputs[binding["input"]]
        if "output" in binding:
            call, index = binding["output"]
            return outputs[call][index]
        return binding["value"]


def routed(model, modules: dict, mode: str):
    """`model` under torch.compile whose i-th compiled graph (in order of compilation, which is
    the order of first call that capture numbered them in) runs `modules[i].call`. The autograd
    cache is off while this model compiles: a cache hit would bypass the inner compiler that
    routes the graph."""
    import torch
    from torch._functorch import config as functorch_config
    from torch._inductor import list_mode_options
    from torch._inductor.compile_fx import compile_fx, compile_fx_inner

    counter = itertools.count()

    def inner(*args, **kwargs):
        compiled = compile_fx_inner(*args, **kwargs)
        index = next(counter)
        if index not in modules:
            raise RuntimeError(f"kernelopt.load: the model compiled into more graphs than the {len(modules)} "
                               "verified ones")
        compiled.__class__ = _routed_class(type(compiled))
        compiled.kernelopt_call = modules[index].call
        return compiled

    def backend(gm, example_inputs):
        with functorch_config.patch(enable_autograd_cache=False):
            return compile_fx(gm, example_inputs, inner_compile=inner, config_patches=list_mode_options(mode))

    return torch.compile(model, backend=backend)


_ROUTED: dict = {}


def _routed_class(base):
    """A subclass of Inductor's compiled graph whose call runs the instance's `kernelopt_call`:
    only the graphs compiled for a loaded module change class."""
    if base not in _ROUTED:
        def __call__(self, inputs):
            return self.kernelopt_call(inputs)

        _ROUTED[base] = type("KerneloptRouted" + base.__name__, (base,), {"__call__": __call__})
    return _ROUTED[base]


def check_inputs(inputs, specs: list, device) -> None:
    """Raises ValueError naming the first input that differs from what was verified."""
    import torch

    if len(inputs) != len(specs):
        raise ValueError(f"kernelopt: the module takes {len(specs)} inputs, got {len(inputs)}")
    for i, (x, spec) in enumerate(zip(inputs, specs)):
        if "shape" not in spec:  # a plain value: the compiled graphs hold it as a constant
            if repr(x)[:80] != spec["value"]:
                raise ValueError(f"kernelopt: input {i} is {repr(x)[:80]}; the module was verified with "
                                 f"{spec['value']}")
            continue
        if not isinstance(x, torch.Tensor):
            raise ValueError(f"kernelopt: input {i} is a {type(x).__name__}, verified as a tensor")
        dtype = str(x.dtype).replace("torch.", "")
        if list(x.shape) != spec["shape"] or dtype != spec["dtype"]:
            raise ValueError(f"kernelopt: input {i} is {tuple(x.shape)} {dtype}; the module was verified "
                             f"for {tuple(spec['shape'])} {spec['dtype']}")
        if x.device.type != torch.device(device).type:
            raise ValueError(f"kernelopt: input {i} is on {x.device}; the module runs on {device}")


class Replayed:
    """`fn(static_inputs)` captured in a CUDA graph at the first call and replayed after: each
    call copies its inputs into the static ones, replays, and returns the outputs (cloned unless
    `clone` is off: then the next call overwrites them). An input that is its static tensor
    itself (`static_inputs()`, written in place by the caller) is not copied. Calls from several
    threads take turns (a lock), and all the work runs on a stream of this module's own, which the
    caller's stream waits for. Where capture fails, `fn` runs directly from then on and a warning
    says why.
    `under(call)` runs the capture (and any direct call) where the vendor knobs the graphs were
    verified under apply (`vendor/scope.py`'s KnobThread); the replays need no setting."""

    def __init__(self, fn, specs: list, device, clone: bool = True, under=None):
        import torch

        self.fn, self.specs, self.device, self.clone = fn, specs, torch.device(device), clone
        self._under = under or (lambda call: call())
        self.static = [torch.empty_strided(s["shape"], s["stride"], dtype=getattr(torch, s["dtype"]),
                                           device=self.device) if "shape" in s else None for s in specs]
        self.tensors = [i for i, s in enumerate(specs) if "shape" in s]
        self.graph = None
        self.outputs = None
        self.how = "CUDA graph (captured at the first call)"
        self._failed = False
        self._lock = threading.Lock()
        self._stream = torch.cuda.Stream(device=self.device)

    def __call__(self, inputs):
        import torch

        check_inputs(inputs, self.specs, self.device)
        with self._lock:
            caller = torch.cuda.current_stream(self.device)
            self._stream.wait_stream(caller)
            with torch.cuda.stream(self._stream):
                for i, x in enumerate(inputs):
                    if i in self.tensors:
                        if x is not self.static[i]:
                            self.static[i].copy_(x)
                    else:
                        self.static[i] = x
                out, fresh = self._run()
            caller.wait_stream(self._stream)
        if fresh:  # made on this module's stream, used on the caller's
            for t in _leaves(out):
                t.record_stream(caller)
        return out

    def static_inputs(self) -> list:
        """The graph's own input tensors (None for a plain value), which a call with them as its
        inputs replays on without a copy."""
        return list(self.static)

    def _run(self):
        """(the outputs, whether they are fresh tensors rather than the graph's own)."""
        from torch.utils import _pytree as pytree

        if self.graph is None and not self._failed:
            self._under(self._capture)
        if self._failed:
            return self._under(lambda: self.fn(self.static)), True
        self.graph.replay()
        if not self.clone:
            return self.outputs, False
        return pytree.tree_map(lambda t: t.clone() if _is_tensor(t) else t, self.outputs), True

    def _capture(self) -> None:
        import torch

        try:
            for _ in range(2):  # warm-up: lazy initialization and Triton's first launches
                self.fn(self.static)
            self._stream.synchronize()
            graph = torch.cuda.CUDAGraph()
            # thread_local: another thread's CUDA calls meanwhile neither fail nor break it
            with torch.cuda.graph(graph, stream=self._stream, capture_error_mode="thread_local"):
                outputs = self.fn(self.static)
            self.graph, self.outputs = graph, outputs
        except Exception as exc:  # a model CUDA graphs cannot hold runs uncaptured  # noqa: BLE001
            self._failed = True
            self.how = f"direct calls (CUDA graph capture failed: {type(exc).__name__}: {exc})"[:300]
            warnings.warn(f"kernelopt.load: runs without a CUDA graph: {self.how}", RuntimeWarning, stacklevel=4)


class Direct:
    """`fn` called on the inputs themselves (CPU, or CUDA graphs turned off); inputs whose
    strides differ from the verified ones are copied into that layout first."""

    def __init__(self, fn, specs: list, device, why: str):
        self.fn, self.specs, self.device = fn, specs, device
        self.how = f"direct calls ({why})"

    def __call__(self, inputs):
        import torch

        check_inputs(inputs, self.specs, self.device)
        laid = [x if "shape" not in s or list(x.stride()) == s["stride"] else
                torch.empty_strided(s["shape"], s["stride"], dtype=x.dtype, device=x.device).copy_(x)
                for x, s in zip(inputs, self.specs)]
        return self.fn(laid)


def _is_tensor(value) -> bool:
    import torch

    return isinstance(value, torch.Tensor)


def _leaves(out) -> list:
    from torch.utils import _pytree as pytree

    return [t for t in pytree.tree_leaves(out) if _is_tensor(t) and t.is_cuda]
