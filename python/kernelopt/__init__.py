"""kernelopt's Python side: the worker process the C++ engine drives (``kernelopt.worker``),
``optimize(model, example_inputs)``, which runs the engine on a module, and ``load(dir)``, which
runs an optimized module written by the engine (``kernelopt.api``)."""

__version__ = "0.1.0"

_API = ("optimize", "load", "Optimized", "OptimizedModule", "Report", "SegmentResult", "EngineError", "EngineNotFound",
        "EnvironmentMismatch", "ModelMismatch")


def __getattr__(name):
    # The API is imported on first use: the worker, which imports this package, needs none of it.
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'kernelopt' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_API))
