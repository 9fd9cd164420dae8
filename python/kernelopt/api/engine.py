"""The C++ engine from Python: where its binary is, `optimize`'s options as its flags, a run.

The binary is `$KERNELOPT_ENGINE`, else the one packaged with this module
(`kernelopt/_engine/kernelopt`), else a build of the source tree, else `kernelopt` on PATH
(`kernelopt.engine`). Its worker runs with this
interpreter and this kernelopt package (KERNELOPT_PYTHON, KERNELOPT_PYTHON_DIR), unless they
are set already, so that it imports what the caller imports.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys

from ..engine import EngineNotFoundError, engine_path


EngineNotFound = EngineNotFoundError  # the API's name for it


class EngineError(RuntimeError):
    """The engine failed (its own message was printed above this error)."""


def find_engine() -> str:
    """The engine binary's path (`kernelopt.engine.engine_path`); EngineNotFound names where it
    looked."""
    return engine_path()


# optimize's keyword -> (the CLI flag, its type: int, float, str, bool for a switch, or a set of
# the values allowed, (low, high) bounds or None), as `kernelopt optimize --help` lists them.
OPTIONS = {
    "beam_width": ("--beam-width", int, (1, 64)),
    "rounds": ("--rounds", int, (1, 100)),
    "no_beam": ("--no-beam", bool, None),
    "no_profile": ("--no-profile", bool, None),
    "no_memory": ("--no-memory", bool, None),
    "no_perf_gate": ("--no-perf-gate", bool, None),
    "no_dispatch_aware": ("--no-dispatch-aware", bool, None),
    "split_segments": ("--split-segments", bool, None),
    "cache": ("--cache", str, None),
    "no_cache": ("--no-cache", bool, None),
    "vendor": ("--vendor", bool, None),
    "llm": ("--llm", str, None),
    "llm_base_url": ("--llm-base-url", str, None),
    "llm_max_tokens": ("--llm-max-tokens", int, (0, 10**12)),
    "llm_record": ("--llm-record", str, None),
    "llm_replay": ("--llm-replay", str, None),
    "llm_price": ("--llm-price", str, None),
    "timeout": ("--timeout", int, (1, 86400)),
    "gate_timeout": ("--gate-timeout", int, (1, 86400)),
    "samples": ("--samples", int, (5, 10000)),
    "sanitize": ("--sanitize", {"memcheck", "racecheck"}, None),
    "deployed_iters": ("--deployed-iters", int, (5, 100000)),
    "no_deployed": ("--no-deployed", bool, None),
}


def optimize_flags(budget_s, options: dict) -> list:
    """The engine's flags for `budget_s` and the search options; TypeError for an unknown option
    or a value of the wrong type, ValueError for one out of range."""
    flags = ["--budget", str(_number("budget_s", budget_s, float, (1.0, 86400.0)))]
    for name, value in options.items():
        if name not in OPTIONS:
            raise TypeError(f"kernelopt.optimize: unknown option {name!r}; the options are "
                            f"budget_s, out_dir, {', '.join(OPTIONS)}")
        flag, kind, bounds = OPTIONS[name]
        if kind is bool:
            if not isinstance(value, bool):
                raise TypeError(f"kernelopt.optimize: {name} must be True or False, got {value!r}")
            flags += [flag] if value else []
        elif isinstance(kind, set):
            if value not in kind:
                raise ValueError(f"kernelopt.optimize: {name} must be one of {sorted(kind)}, got {value!r}")
            flags += [flag, value]
        elif kind is str:
            if not isinstance(value, (str, os.PathLike)) or not os.fspath(value):
                raise TypeError(f"kernelopt.optimize: {name} must be a non-empty string, got {value!r}")
            flags += [flag, os.fspath(value)]
        else:
            flags += [flag, str(_number(name, value, kind, bounds))]
    return flags


def _number(name: str, value, kind, bounds):
    allowed = (int,) if kind is int else (int, float)
    if isinstance(value, bool) or not isinstance(value, allowed):
        raise TypeError(f"kernelopt.optimize: {name} must be {'an int' if kind is int else 'a number'}, "
                        f"got {value!r}")
    low, high = bounds
    if not low <= value <= high:
        raise ValueError(f"kernelopt.optimize: {name} must be within [{low}, {high}], got {value!r}")
    return value


def engine_env() -> dict:
    """The environment of an engine run: the worker runs this interpreter and this package."""
    env = dict(os.environ)
    env.setdefault("KERNELOPT_PYTHON", sys.executable)
    env.setdefault("KERNELOPT_PYTHON_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    return env


def run_engine(args: list, engine: str = "") -> int:
    """Runs the engine (`engine`, else find_engine's) with `args`; its progress and report go to
    this process's stderr and stdout (through them line by line where they are not files, as in
    a notebook). Returns the exit status."""
    command = [engine or find_engine(), *args]
    if _has_fd(sys.stdout) and _has_fd(sys.stderr):
        return subprocess.run(command, env=engine_env(), check=False).returncode
    with subprocess.Popen(command, env=engine_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, bufsize=1) as process:
        for line in process.stdout:
            sys.stdout.write(line)
        return process.wait()


def _has_fd(stream) -> bool:
    try:
        stream.flush()
        return stream.fileno() >= 0
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return False
