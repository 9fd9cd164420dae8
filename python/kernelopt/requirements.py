"""The releases of torch, Triton and numpy kernelopt runs with, and what `kernelopt doctor` makes
of the ones installed here. pyproject.toml's dependencies say the same
(tests/python/test_requirements.py keeps the two equal)."""

from __future__ import annotations

import importlib.metadata
import re

# Each range is what the code was tested with, no wider:
# - torch: the worker reaches into Inductor's internals (torch._inductor.output_code's
#   CompiledFxGraph, codecache.PyCodeCache, runtime.triton_heuristics.CachingAutotuner) and the
#   engine parses the output code Inductor writes; its golden fixtures and every measurement are
#   of torch 2.11, and those internals change between minor releases.
# - triton: 3.6 is the release torch 2.11 pins; the recipes use triton.constexpr_function and the
#   static gate Triton's compiler backends (triton.compiler.make_backend, ASTSource).
# - numpy: 2.4 refuses int() of a one-element array, which Triton 3.6's interpreter does for a loop
#   bound passed as an argument (the CPU runs of candidates use the interpreter).
SUPPORTED = {
    "torch": ">=2.11,<2.12",
    "triton": ">=3.6,<3.7",
    "numpy": "<2.4",
}


def release(version: str) -> tuple[int, ...]:
    """The leading release numbers of a version: "2.11.0+cu130" -> (2, 11, 0)."""
    match = re.match(r"\d+(\.\d+)*", version.strip())
    if match is None:
        raise ValueError(f"not a version: {version!r}")
    return tuple(int(part) for part in match.group(0).split("."))


def satisfies(version: str, spec: str) -> bool:
    """Whether `version` is inside `spec`, a comma-separated list of `>=X.Y` and `<X.Y` bounds."""
    have = release(version)
    for clause in spec.split(","):
        op, bound = re.fullmatch(r"\s*(>=|<)\s*([\d.]+)\s*", clause).groups()
        want = release(bound)
        width = max(len(have), len(want))
        padded = have + (0,) * (width - len(have))
        want = want + (0,) * (width - len(want))
        if (op == ">=" and padded < want) or (op == "<" and padded >= want):
            return False
    return True


def check() -> dict:
    """For each requirement: {"version": installed or None, "supported": spec, "ok": bool}."""
    found = {}
    for name, spec in SUPPORTED.items():
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            version = None
        found[name] = {"version": version, "supported": spec,
                       "ok": version is not None and satisfies(version, spec)}
    return found
