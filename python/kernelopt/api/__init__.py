"""kernelopt's Python API: `optimize(model, example_inputs)` runs the engine on a module and
returns it optimized with its report; `load(dir)` runs an optimized module written by the engine.
docs/python-api.md tells how they work."""

from .engine import EngineError, EngineNotFound
from .load import EnvironmentMismatch, ModelMismatch, load
from .module import OptimizedModule
from .optimize import Optimized, optimize
from .report import Report, SegmentResult

__all__ = ["EngineError", "EngineNotFound", "EnvironmentMismatch", "ModelMismatch", "Optimized", "OptimizedModule",
           "Report", "SegmentResult", "load", "optimize"]
