"""Running calls under vendor knobs' settings, as the candidate side of a model attempt does.

Only knobs that are settings alone qualify here (`cudnn_benchmark`, `cublaslt`): they change how
the libraries choose their kernels for the very calls the compiler kept, so the compiled graphs,
their buffers and their arguments stay as they are. Knobs that transform the model (a
channels-last copy, fused epilogues) need a model compiled again and knobs read at CUDA
initialization (the workspace) need a process of their own; `settings_knobs` refuses both.

The calls run on a thread of their own, started for them. cuDNN keeps the execution plans it
chose per thread, keyed by the convolution's shape and not by the benchmark flag
(`aten/src/ATen/native/cudnn/Conv_v8.cpp`): on a thread where the compiler's graphs already ran
a shape, the plan its heuristics chose would be reused with the benchmark flag on. A fresh thread
starts with no plan. The calling thread waits for it, so the settings, which are the libraries'
global flags, never overlap another call of this process's harness."""

from __future__ import annotations

import contextlib
import threading
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
        if type(knob).transform is not _base_transform():
            raise ValueError(f"vendor knob {name!r} transforms the model: it needs the model compiled again")
        if knob.name in {k.name for k in out}:
            raise ValueError(f"vendor knob {name!r} named twice")
        out.append(knob)
    return out


def _base_transform():
    from .knobs import Knob

    return Knob.transform


def run_under(knobs: list, fn: Callable[[], T]) -> T:
    """fn() with every knob's settings applied around it, on a fresh thread (the module's
    docstring says why); fn() itself, on this thread, when there are none. An exception of fn or
    of a knob's settings is raised here; the settings are put back either way."""
    if not knobs:
        return fn()
    import torch

    device = torch.cuda.current_device() if torch.cuda.is_available() else None
    outcome: dict = {}

    def body() -> None:
        try:
            if device is not None:
                torch.cuda.set_device(device)
            with contextlib.ExitStack() as stack:
                for knob in knobs:
                    stack.enter_context(knob.apply())
                outcome["value"] = fn()
        except BaseException as exc:  # raised again on the calling thread  # noqa: BLE001
            outcome["error"] = exc

    thread = threading.Thread(target=body, name="kernelopt-vendor", daemon=True)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
