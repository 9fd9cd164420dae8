"""The vendor knobs: settings of cuDNN and cuBLAS that the compiler leaves at their defaults.

A knob answers three questions, the verbs a proposer needs:
- `applies(model, inputs)`: a `Verdict`, true when the model makes the calls the knob configures
  (a convolution, a matrix product, a Linear followed by an activation), else false with the reason;
- `transform(model, inputs)`: the model and inputs the knob runs (a channels-last copy, a copy with
  fused Linear epilogues); unchanged for the knobs that are settings alone;
- `apply()`: a context manager that sets the knob's library settings for the calls inside it and
  puts every previous value back on exit, an exception included. Nothing is set process-wide.

The precision rule is enforced, not assumed: `apply()` compares the precision settings (TF32 for
matrix products and for cuDNN, float32 matmul precision, reduced-precision reductions) before and
inside the knob's settings and raises `PrecisionChanged` when a knob touched them."""

from __future__ import annotations

import contextlib
import copy
import os
from dataclasses import dataclass

from . import epilogue
from .detect import OpSummary, record_ops
from .settings import library_settings, precision_settings


@dataclass(frozen=True)
class Verdict:
    """Whether a knob applies; `reason` says why not (or what it will change)."""

    applies: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.applies


class PrecisionChanged(RuntimeError):
    """A knob changed a precision setting the user owns."""


class Knob:
    """One vendor setting. Subclasses set `name` and `summary` and override `applies` and
    `_settings` (library flags) or `transform` (model and inputs)."""

    name = ""
    summary = ""
    in_process = True  # False: the setting is read at CUDA initialization (a fresh process)

    def applies(self, model, inputs, ops: OpSummary | None = None) -> Verdict:
        raise NotImplementedError

    def transform(self, model, inputs):
        return model, inputs

    def env(self) -> dict:
        """Environment variables a fresh process needs before CUDA starts (none for most)."""
        return {}

    @contextlib.contextmanager
    def apply(self):
        before = precision_settings()
        with self._settings():
            inside = precision_settings()
            if inside != before:
                changed = sorted(k for k in before if before[k] != inside[k])
                raise PrecisionChanged(f"knob {self.name} changed {', '.join(changed)}")
            yield

    def _settings(self):
        return contextlib.nullcontext()

    def _ops(self, model, inputs, ops):
        return ops if ops is not None else record_ops(model, inputs)


class CudnnBenchmark(Knob):
    name = "cudnn_benchmark"
    summary = "cuDNN picks each convolution's algorithm by timing them (torch.backends.cudnn.benchmark)"

    def applies(self, model, inputs, ops=None):
        import torch

        if torch.backends.cudnn.benchmark:
            return Verdict(False, "cudnn.benchmark is already on")
        if not self._ops(model, inputs, ops).has_conv:
            return Verdict(False, "no convolution")
        return Verdict(True)

    @contextlib.contextmanager
    def _settings(self):
        import torch

        previous = torch.backends.cudnn.benchmark
        torch.backends.cudnn.benchmark = True
        try:
            yield
        finally:
            torch.backends.cudnn.benchmark = previous


class ChannelsLast(Knob):
    name = "channels_last"
    summary = "the model's parameters and its convolution inputs in channels-last memory format"

    def applies(self, model, inputs, ops=None):
        summary = self._ops(model, inputs, ops)
        if not summary.has_conv:
            return Verdict(False, "no convolution")
        if not summary.conv_ranks & {4, 5}:
            return Verdict(False, "no 2-d or 3-d convolution (channels-last needs 4-d or 5-d tensors)")
        return Verdict(True)

    def transform(self, model, inputs):
        import torch

        def fmt(t):
            return {4: torch.channels_last, 5: torch.channels_last_3d}.get(t.dim())

        model = copy.deepcopy(model)
        for rank, memory_format in ((4, torch.channels_last), (5, torch.channels_last_3d)):
            for p in list(model.parameters()) + list(model.buffers()):
                if p.dim() == rank:
                    p.data = p.data.contiguous(memory_format=memory_format)
        inputs = [x.contiguous(memory_format=fmt(x)) if isinstance(x, torch.Tensor) and fmt(x)
                  and x.is_floating_point() else x for x in inputs]
        return model, inputs


class CublasLt(Knob):
    name = "cublaslt"
    summary = "cuBLASLt instead of cuBLAS for the products ATen runs (preferred_blas_library)"

    def applies(self, model, inputs, ops=None):
        import torch

        if "Cublaslt" in str(torch.backends.cuda.preferred_blas_library()):
            return Verdict(False, "cuBLASLt is already the preferred library")
        if not self._ops(model, inputs, ops).has_matmul:
            return Verdict(False, "no matrix product")
        return Verdict(True)

    @contextlib.contextmanager
    def _settings(self):
        import torch

        previous = torch.backends.cuda.preferred_blas_library()
        torch.backends.cuda.preferred_blas_library("cublaslt")
        try:
            yield
        finally:
            torch.backends.cuda.preferred_blas_library(previous)


class AddmmEpilogue(Knob):
    name = "addmm_epilogue"
    summary = "Linear + ReLU / tanh-GELU as one cuBLASLt call with the bias and activation fused"

    def applies(self, model, inputs, ops=None):
        try:
            gm = epilogue.trace(model)
        except Exception as exc:  # the tracer's failure is the reason, whatever its type
            return Verdict(False, f"not traceable by torch.fx: {type(exc).__name__}: {exc}"[:200])
        pairs, reasons = epilogue.find_pairs(gm)
        if not pairs:
            return Verdict(False, "; ".join(reasons) or "no Linear layer")
        return Verdict(True, f"{len(pairs)} pair(s) fused" + (f"; {'; '.join(reasons)}" if reasons else ""))

    def transform(self, model, inputs):
        return epilogue.rewrite(model), inputs


class Workspace(Knob):
    name = "workspace"
    summary = "a larger cuBLAS / cuBLASLt workspace (CUBLAS_WORKSPACE_CONFIG, CUBLASLT_WORKSPACE_SIZE)"
    in_process = False
    # 64 MiB for both: cuBLAS's default is 32 MiB on sm90 (":4096:8") and about 8 MiB elsewhere,
    # cuBLASLt's 1 MiB (aten/src/ATen/cuda/CublasHandlePool.cpp).
    ENV = {"CUBLAS_WORKSPACE_CONFIG": ":4096:16", "CUBLASLT_WORKSPACE_SIZE": "65536"}

    def applies(self, model, inputs, ops=None):
        if any(k in os.environ for k in self.ENV) and not self._set_here():
            return Verdict(False, "the user set the cuBLAS workspace")
        if not self._ops(model, inputs, ops).has_matmul:
            return Verdict(False, "no matrix product")
        return Verdict(True)

    def env(self):
        return dict(self.ENV)

    def _set_here(self):
        return all(os.environ.get(k) == v for k, v in self.ENV.items())

    @contextlib.contextmanager
    def _settings(self):
        # The size is read when a cuBLAS handle first gets its workspace: changing the variable
        # later would hand cuBLAS a larger size than the buffer it already holds.
        if not self._set_here():
            raise RuntimeError("the workspace knob runs only in a process started with env(), "
                               "before CUDA initialization")
        yield


KNOBS = (CudnnBenchmark(), ChannelsLast(), CublasLt(), AddmmEpilogue(), Workspace())


def knob_named(name: str) -> Knob:
    for knob in KNOBS:
        if knob.name == name:
            return knob
    raise KeyError(f"no knob {name!r}; knobs: {', '.join(k.name for k in KNOBS)}")
