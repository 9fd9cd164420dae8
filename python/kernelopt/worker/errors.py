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


_CUDA_MARKERS = ("CUDA error", "illegal memory access", "illegal instruction", "misaligned address",
                 "unspecified launch failure", "Triton Error [CUDA]", "device-side assert")


def is_cuda_error(exc: BaseException) -> bool:
    """Whether an exception comes from the CUDA runtime (after which the context may be unusable)."""
    try:
        import torch

        accelerator_error = getattr(torch, "AcceleratorError", None)
        if accelerator_error is not None and isinstance(exc, accelerator_error):
            return True
    except ImportError:
        pass
    text = str(exc)
    return any(m in text for m in _CUDA_MARKERS)


def failure(exc: BaseException) -> dict:
    """A candidate's exception as data: {kind, message}; kind is "cuda", "oom" or "exception"."""
    if is_cuda_error(exc) and not is_out_of_memory(exc):
        kind = "cuda"
    elif is_out_of_memory(exc):
        kind = "oom"
    else:
        kind = "exception"
    return {"kind": kind, "message": one_line(exc)}
