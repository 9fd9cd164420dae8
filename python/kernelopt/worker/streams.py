"""Watches a candidate's run for work on another CUDA stream, in two ways: `StreamTrace` reads
the profiler's record of every kernel, copy and memset and the stream it ran on; `StreamWatch`
notes the Python calls that make or select another stream (and names them for the report).

For the duration of the watch, `torch.cuda.Stream` is replaced by a subclass that notes every new
stream (torch's own `current_stream()` builds Streams from an existing id: not noted), and
`torch.cuda.stream(...)` / `torch.cuda.set_stream(...)` note a stream other than the current one
(`with stream:` goes through `set_stream`). The originals run as before: only noted, never blocked.
"""

from __future__ import annotations


class StreamWatch:
    def __init__(self):
        self.side_stream = False
        self.seen: list[str] = []  # what was noted, in order (for the engine's detail text)
        self._saved = None

    def note(self, what: str) -> None:
        self.side_stream = True
        if what not in self.seen:
            self.seen.append(what)

    def _not_current(self, stream) -> bool:
        import torch

        if stream is None:
            return False
        try:
            return stream != torch.cuda.current_stream()
        except Exception:  # no CUDA here: any stream is another stream
            return True

    def __enter__(self):
        import torch

        cuda = torch.cuda
        self._saved = (cuda.Stream, cuda.stream, cuda.set_stream)
        original_stream, original_ctx, original_set = self._saved
        watch = self

        class WatchedStream(original_stream):
            def __new__(cls, device=None, priority=0, **kwargs):
                if "stream_id" not in kwargs:
                    watch.note("torch.cuda.Stream()")
                return original_stream.__new__(cls, device, priority, **kwargs)

        def stream(s):
            if watch._not_current(s):
                watch.note("torch.cuda.stream(other)")
            return original_ctx(s)

        def set_stream(s):
            if watch._not_current(s):
                watch.note("torch.cuda.set_stream(other)")
            return original_set(s)

        cuda.Stream, cuda.stream, cuda.set_stream = WatchedStream, stream, set_stream
        return self

    def __exit__(self, *exc):
        import torch

        torch.cuda.Stream, torch.cuda.stream, torch.cuda.set_stream = self._saved
        return False


# Kernel, copy and memset records of a profiler trace (the CUDA work a stream runs).
_WORK = ("kernel", "gpu_memcpy", "gpu_memset")
_MARKER = "spin_kernel"  # torch.cuda._sleep's kernel: launched on the harness's stream first


def off_stream_work(trace: dict) -> tuple[bool, list[str]]:
    """(whether the marker was found, "stream S: NAME" for each piece of GPU work of a Chrome
    trace that ran on another stream than the marker kernel), from a profiler's exported trace."""
    events = [e for e in trace.get("traceEvents", []) if e.get("cat") in _WORK]
    marker = [e for e in events if _MARKER in e.get("name", "")]
    if not marker:
        return False, []
    home = marker[0].get("args", {}).get("stream")
    seen: list[str] = []
    for e in events:
        stream = e.get("args", {}).get("stream")
        if stream != home:
            what = f"stream {stream}: {e.get('name', '?')[:80]}"
            if what not in seen:
                seen.append(what)
    return True, seen


class StreamTrace:
    """Records, with the CUDA profiler (CUPTI, below every Python name), the GPU work that a run
    puts on streams other than the current one. `available` is False where no trace could be
    taken (the run is then judged by StreamWatch alone); `off_stream` lists what ran elsewhere."""

    def __init__(self):
        self.available = False
        self.off_stream: list[str] = []
        self._prof = None

    def __enter__(self):
        import torch

        try:
            from torch.profiler import ProfilerActivity, profile

            self._prof = profile(activities=[ProfilerActivity.CUDA])
            self._prof.__enter__()
            torch.cuda._sleep(1000)
        except Exception:  # noqa: BLE001 (no profiler: the Python watch still runs)
            self._prof = None
        return self

    def __exit__(self, *exc):
        import json
        import os
        import tempfile

        import torch

        if self._prof is None:
            return False
        try:
            torch.cuda.synchronize()
            self._prof.__exit__(None, None, None)
            fd, path = tempfile.mkstemp(suffix=".json")
            os.close(fd)
            try:
                self._prof.export_chrome_trace(path)
                with open(path, encoding="utf-8") as f:
                    self.available, self.off_stream = off_stream_work(json.load(f))
            finally:
                os.remove(path)
        except Exception:  # noqa: BLE001 (a trace that cannot be read leaves the check to the watch)
            self.available = False
        return False
