"""The `kernelopt` console script: runs the engine with this package as its worker's and this
interpreter (the one pip installed kernelopt for) as the worker's Python. Either can still be
chosen with KERNELOPT_PYTHON_DIR and KERNELOPT_PYTHON; the engine's own exit status is the
script's."""

from __future__ import annotations

import os
import sys

from .engine import EngineNotFoundError, engine_path


def main() -> int:
    try:
        engine = engine_path()
    except EngineNotFoundError as exc:
        print(f"kernelopt: error: [kernelopt.env] {exc}", file=sys.stderr)
        return 6  # the engine's status for a broken environment
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for name, value in (("KERNELOPT_PYTHON_DIR", package_parent), ("KERNELOPT_PYTHON", sys.executable)):
        if not os.environ.get(name):  # set and empty counts as unset, as in the engine
            os.environ[name] = value
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(engine, ["kernelopt", *sys.argv[1:]])  # argv[0] is the name --help shows
    return 0  # not reached: execv replaces this process


if __name__ == "__main__":
    sys.exit(main())
