"""Running calls under vendor knobs' settings, as the candidate side of a model attempt does.

Only knobs that are settings alone qualify here (`cudnn_benchmark`, `cublaslt`): they change how
the libraries choose their kernels for the very calls the compiler kept, so the compiled graphs,
their buffers and their arguments stay as they are. Knobs that transform the model (a
channels-last copy, fused epilogues) need a model compiled again and knobs read at CUDA
initialization (the workspace) need a process of their own; `settings_knobs` refuses both.

The calls run on a thread of their own (`KnobThread`), started for them. cuDNN keeps the
execution plans it chose per thread, keyed by the convolution's shape and not by the benchmark
flag (`aten/src/ATen/native/cudnn/Conv_v8.cpp`): on a thread where the compiler's graphs already
ran a shape, the plan its heuristics chose would be reused with the benchmark flag on. A fresh
thread starts with no plan. The calling thread waits for it, so the settings, which are the
libraries' global flags, never overlap another call of this process's harness."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def settings_knobs(names) -> list:
    """The knobs named, each a setting alone that runs in this process; ValueError naming the
    first name that is unknown or not such a knob."""
    from .knobs import knob_named

    out = []
    for name in names:
        try:
            knob = knob_named(str(name))
        except KeyError as exc:
            raise ValueError(f"no vendor knob {name!r}") from exc
        if not knob.in_process:
            raise ValueError(f"vendor knob {name!r} is read at CUDA initialization: it needs a process of its own")
        if not around_graphs(knob):
            raise ValueError(f"vendor knob {name!r} transforms the model: it needs the model compiled again")
        if knob.name in {k.name for k in out}:
            raise ValueError(f"vendor knob {name!r} named twice")
        out.append(knob)
    return out


def around_graphs(knob) -> bool:
    """Whether the knob can run around the compiled graphs as they are: a setting alone, read
    at each call (no model transform, nothing read at CUDA initialization)."""
    from .knobs import Knob

    return knob.in_process and type(knob).transform is Knob.transform


def _caller_context() -> dict:
    """What a call made on another thread must keep of the calling thread's, all of it
    thread-local in torch: whether autograd records, and its CUDA device and current stream."""
    import torch

    caller = {"grad": torch.is_grad_enabled(), "inference": torch.is_inference_mode_enabled()}
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        caller["cuda"] = (torch.cuda.current_device(), torch.cuda.current_stream())
    return caller


def _under(knobs: list, fn: Callable[[], T], caller: dict) -> T:
    """fn() with every knob's settings applied around it, in the caller's autograd mode, on its
    device and stream."""
    import torch

    with contextlib.ExitStack() as stack:
        stack.enter_context(torch.inference_mode(caller["inference"]))
        stack.enter_context(torch.set_grad_enabled(caller["grad"]))
        if "cuda" in caller:
            device, stream = caller["cuda"]
            torch.cuda.set_device(device)
            stack.enter_context(torch.cuda.stream(stream))
        for knob in knobs:
            stack.enter_context(knob.apply())
        return fn()


class KnobThread:
    """Runs calls under the knobs' settings on one thread of its own that lives as long as this
    object: cuDNN chooses each convolution's plan once on it (by measurement, under
    `cudnn_benchmark`) and every later call reuses the plan, where a fresh thread per call would
    measure again each time. Calls from several threads take turns; each keeps its caller's
    autograd mode, device and stream. An exception of the call or of a knob's settings is raised
    in the caller; the settings are put back either way. With no knobs, calls run on the caller's
    thread. As a context manager, the thread ends on exit."""

    def __init__(self, knobs: list):
        import concurrent.futures

        self.knobs = list(knobs)
        self._pool = (concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="kernelopt-vendor")
                      if self.knobs else None)

    def __call__(self, fn: Callable[[], T]) -> T:
        if self._pool is None:
            return fn()
        caller = _caller_context()
        return self._pool.submit(_under, self.knobs, fn, caller).result()

    def close(self, wait: bool = False) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=wait)

    def __enter__(self) -> KnobThread:
        return self

    def __exit__(self, *exc) -> bool:
        self.close(wait=True)
        return False
