"""kernelopt's Python side: the worker process the C++ engine drives (``kernelopt.worker``)."""

__version__ = "0.1.0"
