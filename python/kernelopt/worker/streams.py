"""Watches a candidate's run for work on another CUDA stream.

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
