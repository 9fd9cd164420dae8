"""Measuring a vendor knob against the baseline: both sides compiled alike, called in turns, and
the knob's outputs judged as G3 judges a candidate. Shared by scripts/gpu/vendor_probe.py and,
later, the `vendor` proposer's worker requests.

Two facts shape it. Two torch.compile calls with the same mode give backends that compare equal,
and Dynamo then hands a second model of the same class the first one's compiled code (with the
first one's autotuning choices): `fresh_backend()` gives each side a backend equal only to itself.
cuDNN's plan cache is per thread and keyed without the benchmark flag: `Side` runs each side's
calls on a thread of its own so that neither inherits the other's convolution plans."""

from __future__ import annotations

import copy
import queue
import statistics
import threading

from kernelopt.worker.timing import ratio_interval

TOL = 1e-4  # G3's allclose tolerance
FLOAT64_FACTOR = 10.0  # G3's fallback: the knob's float64 error at most this times the baseline's


def judge(knob_nums, base_nums):
    """G3 on the numbers of one side: {tol, nonfinite_match, err64} each."""
    if knob_nums["tol"] <= TOL and knob_nums["nonfinite_match"]:
        return {"pass": True, "by": f"allclose to eager float32 at {TOL:g}"}
    k64, b64 = knob_nums.get("err64"), base_nums.get("err64")
    if k64 is None or b64 is None:
        return {"pass": False, "by": "not allclose; no float64 reference"}
    ok = k64 <= FLOAT64_FACTOR * b64
    return {"pass": ok, "by": f"float64 fallback: error {k64:.3g} vs baseline {b64:.3g} (limit x{FLOAT64_FACTOR:g})"}


def timing_entry(base, knob, how):
    ratio, lo, hi = ratio_interval(base, knob)
    return {"ratio": ratio, "ci95": [lo, hi], "interleaving": how, "samples": len(base),
            "baseline_ms": {"median": statistics.median(base), "min": min(base), "samples": base},
            "knob_ms": {"median": statistics.median(knob), "min": min(knob), "samples": knob}}


class Side:
    """Runs every job of one side on a thread of its own (or, with threaded=False, the caller's)."""

    def __init__(self, name, threaded):
        self.name, self._jobs = name, queue.Queue() if threaded else None
        if threaded:
            threading.Thread(target=self._loop, daemon=True, name=f"side-{name}").start()

    def _loop(self):
        while True:
            fn, box, done = self._jobs.get()
            try:
                box["value"] = fn()
            except BaseException as exc:  # handed to the caller's thread, re-raised there
                box["error"] = exc
            done.set()

    def run(self, fn):
        if self._jobs is None:
            return fn()
        box, done = {}, threading.Event()
        self._jobs.put((fn, box, done))
        done.wait()
        if "error" in box:
            raise box["error"]
        return box["value"]


def fresh_backend():
    """mode="max-autotune" as a backend object equal only to itself (see the module's doc)."""
    import torch

    class Own(torch._TorchCompileInductorWrapper):
        __eq__ = object.__eq__
        __hash__ = object.__hash__

    return Own("max-autotune", None, False)


def build(model, inputs, settings):
    """Compiles the model and runs it until its CUDA graph replays; returns (timed call, outputs,
    compile seconds). `settings` is the knob's apply (or a null context) around every call."""
    import time

    import torch

    from kernelopt.worker.problem import flatten_outputs
    from kernelopt.worker.timing import flush_l2

    compiled = torch.compile(model, backend=fresh_backend())

    def call():
        with torch.no_grad(), settings():
            return compiled(*inputs)

    t0 = time.perf_counter()
    for _ in range(3):  # compile, CUDA-graph warm-up, recording
        call()
    torch.cuda.synchronize()
    compile_s = time.perf_counter() - t0
    outputs = [t.detach().clone() for t in flatten_outputs("model", call())]

    def timed():
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        flush_l2()
        torch.cuda.synchronize()
        with torch.no_grad(), settings():
            start.record()
            compiled(*inputs)
            end.record()
        end.synchronize()
        return start.elapsed_time(end)

    return timed, outputs, compile_s


def references(model, inputs):
    """Eager float32 outputs and float64 outputs (None where the float64 copy does not fit)."""
    import torch

    from kernelopt.worker.compare import park
    from kernelopt.worker.problem import flatten_outputs

    with torch.no_grad():
        eager = park([t.detach().clone() for t in flatten_outputs("model", model(*inputs))])
        try:
            m64 = copy.deepcopy(model).double()
            x64 = [x.double() if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs]
            f64 = park(flatten_outputs("model", m64(*x64)))
            del m64, x64
        except torch.OutOfMemoryError:
            f64 = None
    torch.cuda.empty_cache()
    return eager, f64


def numbers(outputs, eager, f64):
    from kernelopt.worker.compare import closeness, max_abs_err

    c = closeness(outputs, eager)
    return {**c, "err64": max_abs_err(outputs, f64) if f64 is not None else None}
