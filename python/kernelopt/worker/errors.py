"""Errors the worker reports to the engine as {"ok": false, "error": {...}}."""


class WorkerError(Exception):
    """A failure with a stable tag (same tags as the C++ side) and a one-line message."""

    def __init__(self, tag: str, message: str):
        super().__init__(message)
        self.tag = tag
        self.message = message


def problem_error(path: str, cause: str) -> WorkerError:
    """A problem-file error: names the file and the cause in one line."""
    return WorkerError("kernelopt.problem", f"{path}: {cause}")


def one_line(exc: BaseException) -> str:
    """An exception as one line: type and first line of its message."""
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def is_out_of_memory(exc: BaseException) -> bool:
    """Whether an exception means the device (or host) ran out of memory."""
    try:
        import torch

        if isinstance(exc, torch.cuda.OutOfMemoryError):
            return True
    except ImportError:
        pass
    if isinstance(exc, MemoryError):
        return True
    text = str(exc)
    return any(p in text for p in ("out of memory", "not enough memory", "can't allocate memory",
                                   "Cannot allocate memory"))
