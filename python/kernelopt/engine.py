"""Where the engine binary is, for the console script and the Python API: `engine_path()`."""

from __future__ import annotations

import os

_PACKAGE = os.path.dirname(os.path.abspath(__file__))
# Where `pip install` puts the engine: inside this package (pyproject.toml, CMake's install rule).
BUNDLED = os.path.join(_PACKAGE, "_engine", "kernelopt")
# The builds of a source tree whose python/ folder this package is, most optimized first.
_SOURCE_TREE_BUILDS = ("release", "default", "ci")


class EngineNotFoundError(FileNotFoundError):
    """No kernelopt engine binary could be found."""


def _is_engine(path: str) -> bool:
    # The engine is an ELF binary; a `kernelopt` console script (a Python file) on PATH is not,
    # and running it from here would only come back here.
    try:
        with open(path, "rb") as f:
            return os.access(path, os.X_OK) and f.read(4) == b"\x7fELF"
    except OSError:
        return False


def _is_this_command(path: str) -> bool:
    # The `kernelopt` console script pip writes imports kernelopt._cli: as the engine it would
    # only start itself again.
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return head.startswith(b"#!") and b"kernelopt._cli" in head


def _source_tree_engines() -> list[str]:
    python_dir = os.path.dirname(_PACKAGE)
    if os.path.basename(python_dir) != "python":
        return []
    root = os.path.dirname(python_dir)
    return [os.path.join(root, "build", preset, "tools", "kernelopt", "kernelopt")
            for preset in _SOURCE_TREE_BUILDS]


def engine_path() -> str:
    """The engine binary: $KERNELOPT_ENGINE (any executable file but the `kernelopt` console
    script), else the one bundled in this package, else a build of
    the source tree this package sits in (build/release, build/default, build/ci), else
    `kernelopt` on PATH. Raises EngineNotFoundError, saying where it looked, when none is there."""
    chosen = os.environ.get("KERNELOPT_ENGINE")
    if chosen:
        # The user's own choice may be a wrapper script, but not a missing file or this command.
        if not (os.path.isfile(chosen) and os.access(chosen, os.X_OK)):
            raise EngineNotFoundError(f"KERNELOPT_ENGINE={chosen} is not an executable file")
        if _is_this_command(chosen):
            raise EngineNotFoundError(f"KERNELOPT_ENGINE={chosen} is the kernelopt command, not the engine binary")
        return chosen
    for candidate in [BUNDLED, *_source_tree_engines()]:
        if _is_engine(candidate):
            return candidate
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(folder or ".", "kernelopt")
        if _is_engine(candidate):
            return candidate
    raise EngineNotFoundError(
        f"no kernelopt engine: not bundled at {BUNDLED} and no `kernelopt` binary on PATH; "
        "install the package with `pip install .` from the source tree (it builds the engine), "
        "or set KERNELOPT_ENGINE to the `kernelopt` executable")
