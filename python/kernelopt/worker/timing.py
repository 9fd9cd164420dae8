"""GPU timing: CUDA events, L2 flushed between calls, medians over many calls.

Two ways to time a call:
- ``synced``: the GPU idles until the call starts and the host waits for it after; the time
  includes the host's launch overhead when the host is slower than the GPU (what a user sees).
- ``queued``: a sleep kernel is queued first so the host has enqueued the whole call before the
  GPU reaches it; the time is the GPU's own work, without launch gaps.
"""

from __future__ import annotations

import statistics
import time

_FLUSH_BYTES = 512 * 1024 * 1024  # several times the H200's L2
_flush_buffer = None


def flush_l2() -> None:
    """Overwrites a buffer larger than the L2 so that the next call starts cold."""
    global _flush_buffer
    import torch

    if _flush_buffer is None:
        _flush_buffer = torch.empty(_FLUSH_BYTES, dtype=torch.int8, device="cuda")
    _flush_buffer.zero_()


def host_seconds(fn) -> float:
    """How long the host takes to enqueue one call (the GPU work is not waited for)."""
    import torch

    torch.cuda.synchronize()
    t0 = time.perf_counter()
    fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return t1 - t0


def sleep_cycles_for(host_s: float) -> int:
    """Sleep long enough (about 2 GHz clock, 3x margin) to cover the host's enqueue time."""
    return int(max(host_s, 50e-6) * 3 * 2.0e9)


_RANGE = "kernelopt_interval_"


class Marks:
    """Events recorded by ``_ko_mark()`` calls inserted into an output code's ``call``. While
    `ranges` is on (``kernels_marked``), each mark also ends the profiler range of the interval
    before it and starts the next one's."""

    def __init__(self, count: int):
        import torch

        self.events = [torch.cuda.Event(enable_timing=True) for _ in range(count)]
        self.next = 0
        self.ranges = False
        self._open = None

    def __call__(self) -> None:
        if self.ranges:
            self.end_range()
            from torch.profiler import record_function

            self._open = record_function(f"{_RANGE}{self.next}")
            self._open.__enter__()
        if self.next < len(self.events):
            self.events[self.next].record()
        self.next += 1

    def end_range(self) -> None:
        if self._open is not None:
            self._open.__exit__(None, None, None)
            self._open = None

    def intervals_ms(self) -> list[float]:
        return [a.elapsed_time(b) for a, b in zip(self.events, self.events[1:])]


def time_calls(fn, iters: int, warmup: int, mode: str) -> list[float]:
    """Times `fn` `iters` times after `warmup` calls; returns milliseconds per call."""
    import torch

    for _ in range(warmup):
        fn()
    cycles = sleep_cycles_for(host_seconds(fn)) if mode == "queued" else 0
    samples = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        flush_l2()
        if cycles:
            torch.cuda._sleep(cycles)
        else:
            torch.cuda.synchronize()
        start.record()
        fn()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end))
    return samples


def time_interleaved(fns: list, iters: int, warmup: int, between=None) -> list[list[float]]:
    """Times several calls in turns (fns[0], fns[1], ..., fns[0], ...), each after an L2 flush and
    with the host synced, so that drifts of clock or temperature hit them alike; ms per call.
    `between(turn)`, when given, runs before each turn (and each warm-up turn), outside the timed
    region."""
    import torch

    for turn in range(warmup):
        if between is not None:
            between(turn)
        for fn in fns:
            fn()
    samples: list[list[float]] = [[] for _ in fns]
    for turn in range(iters):
        if between is not None:
            between(turn)
        for fn, out in zip(fns, samples):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            flush_l2()
            torch.cuda.synchronize()
            start.record()
            fn()
            end.record()
            end.synchronize()
            out.append(start.elapsed_time(end))
    return samples


def time_marked(fn, marks: Marks, iters: int, warmup: int) -> tuple[list[list[float]], list[float]]:
    """Times an instrumented call: per-interval samples and whole-call samples (queued mode)."""
    import torch

    for _ in range(warmup):
        marks.next = 0
        fn()
    marks.next = 0
    cycles = sleep_cycles_for(host_seconds(fn))
    per_interval: list[list[float]] = [[] for _ in range(len(marks.events) - 1)]
    totals = []
    for _ in range(iters):
        flush_l2()
        torch.cuda._sleep(cycles)
        marks.next = 0
        fn()
        if marks.next != len(marks.events):
            raise RuntimeError(f"expected {len(marks.events)} marks, the call made {marks.next}")
        marks.events[-1].synchronize()
        for i, ms in enumerate(marks.intervals_ms()):
            per_interval[i].append(ms)
        totals.append(marks.events[0].elapsed_time(marks.events[-1]))
    return per_interval, totals


def kernels_marked(fn, marks: Marks) -> list[list[dict]]:
    """The GPU work each interval between marks launched, from one call under the profiler: per
    interval, in launch order, each kernel's (or copy's) name and its time in that call, in ms.
    This is how `show` names the kernels a vendor call runs."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    marks.next = 0
    marks.ranges = True
    try:
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            fn()
            marks.end_range()
            torch.cuda.synchronize()
    finally:
        marks.end_range()
        marks.ranges = False
    return group_kernels(prof.events(), len(marks.events) - 1)


def group_kernels(events, count: int) -> list[list[dict]]:
    """Per interval 0..count-1, the kernels attached to its profiler range or to any operator
    inside it (``torch.autograd.profiler_util.FunctionEvent``: name, cpu_children, kernels with
    duration in µs, time_range), ordered by the launching event's start."""
    from torch.autograd import DeviceType

    grouped: list[list[dict]] = [[] for _ in range(count)]
    for event in events:
        if event.device_type != DeviceType.CPU or not event.name.startswith(_RANGE):
            continue
        suffix = event.name[len(_RANGE):]
        if not suffix.isdigit() or int(suffix) >= count:
            continue
        launched, stack = [], [event]
        while stack:
            node = stack.pop()
            launched.extend((node.time_range.start, i, k) for i, k in enumerate(node.kernels))
            stack.extend(node.cpu_children)
        grouped[int(suffix)] = [{"name": k.name, "ms": k.duration / 1000.0}
                                for _, _, k in sorted(launched, key=lambda t: (t[0], t[1]))]
    return grouped


def ratio_interval(base: list[float], other: list[float], reps: int = 2000) -> tuple[float, float, float]:
    """median(base) / median(other) and its bootstrap 95% interval (each side resampled alone),
    for measurement scripts; the gates' own intervals are the engine's."""
    import random

    rng = random.Random(0)
    boots = sorted(statistics.median(rng.choices(base, k=len(base))) /
                   statistics.median(rng.choices(other, k=len(other))) for _ in range(reps))
    return statistics.median(base) / statistics.median(other), boots[int(0.025 * reps)], boots[int(0.975 * reps) - 1]


def summary(samples: list[float]) -> dict:
    """Median, min, max and the samples themselves (the engine computes intervals)."""
    return {"median_ms": statistics.median(samples), "min_ms": min(samples), "max_ms": max(samples),
            "samples_ms": [round(s, 6) for s in samples]}
