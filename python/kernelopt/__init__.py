"""kernelopt's Python side: the worker process the C++ engine drives (``kernelopt.worker``) and
``load(dir)``, which runs an optimized module written by the engine."""

__version__ = "0.1.0"


def load(path: str, device: str = "cuda"):
    """The optimized module in `path` (RUN_DIR/optimized) as a callable taking the model's inputs."""
    from .api import load as _load

    return _load(path, device)
