"""`OptimizedModule`: what `kernelopt.load` and `kernelopt.optimize` return."""

from __future__ import annotations

import torch


class OptimizedModule(torch.nn.Module):
    """Called with the model's own inputs, returns what its forward returns, computed by the
    verified graphs (under torch.no_grad: the graphs were compiled for inference).

    `how` says how it runs (a CUDA graph, direct calls, and why); `outcome` is the verified
    outcome (class, ratio and its interval); `model` is the module whose parameters and buffers
    the graphs read in place: updating them in place is seen by the next call, replacing them
    (`.to()`, `load_state_dict(assign=True)`) is not (load again). Several threads may call one
    module (they take turns); several loaded modules are independent.
    """

    def __init__(self, runner, model, path: str, manifest: dict, how: str, graphs: dict):
        super().__init__()
        object.__setattr__(self, "_model", model)  # not a submodule: `.to()` here must not move it
        self._runner = runner
        self.path = path
        self.manifest = manifest
        self._how = how
        self.graphs = graphs  # graph index -> its loaded module (graph_N.py)

    @property
    def model(self):
        return self._model

    @property
    def outcome(self) -> dict:
        return self.manifest.get("outcome", {})

    @property
    def how(self) -> str:
        runs = getattr(self._runner, "how", "")
        return f"{self._how}, {runs}" if runs else self._how

    def static_inputs(self) -> list:
        """The CUDA graph's own input tensors (None for an input that is a plain value). Write
        the next inputs into them in place (`static[0].copy_(x)`, or compute into them) and call
        the module with them: it then replays without copying its inputs, as the performance gate
        timed it. RuntimeError where the module runs without a CUDA graph (on the CPU, with
        `cuda_graphs=False`, a module without its runtime record)."""
        static = getattr(self._runner, "static_inputs", None)
        if static is None:
            raise RuntimeError(f"kernelopt: the module runs without a CUDA graph ({self.how}): it has no static "
                               "inputs; call it with your own")
        return static()

    def forward(self, *inputs):
        with torch.no_grad():
            return self._runner(list(inputs))

    def extra_repr(self) -> str:
        ratio = self.outcome.get("ratio")
        speed = f", {ratio:.3f}x" if isinstance(ratio, (int, float)) else ""
        return f"{self.path!r}, segments {self.manifest.get('segments', [])}{speed}; runs {self.how}"
