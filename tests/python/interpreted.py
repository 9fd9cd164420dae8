"""Runs Python code in a subprocess under Triton's interpreter (TRITON_INTERPRET must be set
before triton is imported), with the repository's python/ importable (recipes, the worker)."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_interpreted(code: str, timeout: int = 300) -> str:
    """The code's stdout; fails the calling test with the end of its stderr if it exits non-zero."""
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=os.path.join(ROOT, "python"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout
