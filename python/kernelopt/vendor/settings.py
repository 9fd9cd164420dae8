"""The settings that decide how cuDNN and cuBLAS run a model's calls, as this process has them: the
precision ones the user owns and the library choices the knobs may change. Imports only torch,
so that the worker can state them without loading the knobs."""

from __future__ import annotations


def precision_settings() -> dict:
    """Every setting that decides float32 arithmetic on the GPU, as the user left it."""
    import torch

    return {"float32_matmul_precision": torch.get_float32_matmul_precision(),
            "matmul.allow_tf32": torch.backends.cuda.matmul.allow_tf32,
            "cudnn.allow_tf32": torch.backends.cudnn.allow_tf32,
            "matmul.allow_fp16_reduced": torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
            "matmul.allow_bf16_reduced": torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction}


def library_settings() -> dict:
    """The precision settings and the library choices the knobs may change, for comparisons."""
    import torch

    return {**precision_settings(), "cudnn.benchmark": torch.backends.cudnn.benchmark,
            "cudnn.deterministic": torch.backends.cudnn.deterministic,
            "cudnn.enabled": torch.backends.cudnn.enabled,
            "preferred_blas_library": _name(torch.backends.cuda.preferred_blas_library()),
            "deterministic_algorithms": torch.are_deterministic_algorithms_enabled()}


def _name(backend) -> str:
    """The enum member's name ("Cublas", "Cublaslt"); its str() is "_BlasBackend.Cublas"."""
    return getattr(backend, "name", str(backend))
